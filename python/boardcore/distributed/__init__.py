"""Distributed runs on a Ray cluster (``pip install 'boardcore[ray]'``): perft and divide over work
units with a resumable checkpoint (docs/distributed.md). Importing this package does not import
Ray; a call does, and says how to install it when it is missing."""

from boardcore.distributed.perft import divide, perft

__all__ = ["divide", "perft"]
