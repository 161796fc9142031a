"""Pure-Python twins of boardcore's engines: the same API and answers, written to be read.

They document the rules in executable form and cross-check the Rust engines; they are not fast.
"""

from .cephalopod import Cephalopod
from .reversi import Reversi
from .rive import Rive
from .strands import Strands

__all__ = ["Cephalopod", "Reversi", "Rive", "Strands"]
