"""Connecting to Ray: a local instance, the running cluster or a given address (shared by the
distributed entry points)."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

AUTH_MODE = "RAY_AUTH_MODE"
"""Ray's switch for token authentication, read from the environment of every Ray process."""


def import_ray() -> Any:
    """The ``ray`` module, or an ImportError saying how to get it."""
    try:
        import ray
    except ImportError as error:
        raise ImportError("boardcore.distributed needs Ray: pip install 'boardcore[ray]'") from error
    return ray


def check_address(address: object) -> None:
    """``None``, ``"auto"`` or an address string (``ray://host:port``, ``host:port``)."""
    if address is not None and (not isinstance(address, str) or not address.strip()):
        raise TypeError(f"address is None, 'auto' or a Ray address such as 'ray://host:10001', not {address!r}")


@contextmanager
def connect(address: str | None) -> Iterator[Any]:
    """Ray, connected for the ``with`` block: ``None`` starts a local instance (no dashboard, quiet
    logs), ``"auto"`` joins the cluster running on this machine (or RAY_ADDRESS), anything else
    goes to ``ray.init(address=...)``. If this process already has Ray initialised, that
    connection is used as it is and left open; otherwise what was started here is shut down."""
    ray = import_ray()
    if ray.is_initialized():
        yield ray
        return
    auth_mode = os.environ.get(AUTH_MODE)
    try:
        # "local" rather than None: ray.init(address=None) joins a cluster that `ray start` left
        # running on this machine, and the caller asked for an instance of its own.
        ray.init(
            address="local" if address is None else address,
            include_dashboard=False if address is None else None,
            logging_level=logging.WARNING,
            log_to_driver=False,
            configure_logging=True,
        )
        try:
            yield ray
        finally:
            ray.shutdown()
    finally:
        restore_auth_mode(ray, auth_mode)


def restore_auth_mode(ray: Any, before: str | None) -> None:
    """Puts back the authentication mode this process had before ``ray.init``. A Ray (2.5x and
    later) that starts a local instance, or finds a token while joining, turns token
    authentication on for the whole process (RAY_AUTH_MODE=token in os.environ, and in its cached
    config and token), and ``ray.shutdown`` leaves it on: the next connection of this process to a
    cluster without authentication would then refuse that cluster's calls, and the cluster take
    this driver for dead and destroy its actors ("all references to the actor were removed")."""
    if os.environ.get(AUTH_MODE) == before:
        return
    if before is None:
        del os.environ[AUTH_MODE]
    else:
        os.environ[AUTH_MODE] = before
    # What Ray itself does after changing the mode: the C++ side caches the config and the token.
    ray._raylet.Config.initialize("")
    ray._raylet.AuthenticationTokenLoader.instance().reset_cache()


def cluster_cpus(ray: Any) -> int:
    """CPUs of the whole cluster (at least 1)."""
    return max(int(ray.cluster_resources().get("CPU", 1)), 1)
