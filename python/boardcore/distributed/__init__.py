"""Distributed runs on a Ray cluster (``pip install 'boardcore[ray]'``): perft and divide over work
units with a resumable checkpoint, and self-play spread over Ray actors with the same games as one
machine (docs/distributed.md). Importing this package does not import Ray; a call does, and says
how to install it when it is missing."""

from boardcore.distributed.perft import divide, perft
from boardcore.distributed.selfplay import selfplay

__all__ = ["divide", "perft", "selfplay"]
