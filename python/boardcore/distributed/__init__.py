"""boardcore on a Ray cluster (``pip install 'boardcore[ray]'``): self-play spread over Ray actors,
with the same data as one machine. docs/distributed.md explains it."""

from boardcore.distributed.selfplay import selfplay

__all__ = ["selfplay"]
