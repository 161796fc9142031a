"""A pytest plugin (loaded by tests/conftest.py): a session that leaves a process running fails,
naming the process, and ends it (issue 36, item 5: eight `boardcore.cli perft` children once
kept running at full CPU after their tests failed).

Every process the session starts, directly or not, inherits a marker in its environment; at the
end of the session /proc shows which of them still run, wherever they were reparented (a
grandchild whose parent was killed is no longer a child of pytest). Linux only; elsewhere the
check does nothing."""

from __future__ import annotations

import contextlib
import os
import signal
import time
import uuid
from pathlib import Path

import pytest
from processes import processes_with

MARKER = "BOARDCORE_TEST_SESSION"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        "leftover_grace_seconds",
        "how long processes ended in the session's last moments may take to go (a Ray node's workers "
        "exit once they notice their node is gone) before they count as left running",
        default="10",
    )


def pytest_configure(config: pytest.Config) -> None:
    # A value of this session's own: a session run by a test (tests/test_suite_without_sigint.py)
    # marks its processes apart from the outer session's.
    os.environ[MARKER] = f"{os.getpid()}-{uuid.uuid4().hex}"


def _command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return "?"


def _expected() -> set[int]:
    """Processes that end with this interpreter by design: itself, and multiprocessing's resource
    tracker (started by a "spawn" pool, tests/test_openspiel.py), which exits when this
    interpreter closes its end of the tracker's pipe."""
    from multiprocessing import resource_tracker

    tracker = getattr(getattr(resource_tracker, "_resource_tracker", None), "_pid", None)
    return {os.getpid(), *([tracker] if tracker else [])}


def leftover_processes() -> dict[int, str]:
    """The processes this session started that still run: pid -> command line."""
    marker = os.environ.get(MARKER)
    if not marker:
        return {}
    expected = _expected()
    return {pid: _command_line(pid) for pid in processes_with(f"{MARKER}={marker}") if pid not in expected}


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    grace = float(session.config.getini("leftover_grace_seconds"))
    deadline = time.monotonic() + grace
    while (leftovers := leftover_processes()) and time.monotonic() < deadline:
        time.sleep(0.1)
    if not leftovers:
        return
    for pid in leftovers:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    lines = [f"  {pid}: {command[:300]}" for pid, command in sorted(leftovers.items())]
    message = (
        f"{len(leftovers)} process(es) started by this session were still running {grace:g} s after its "
        "last test, and were killed now. A test that starts a process must end it whatever its outcome "
        "(the `children` fixture, tests/processes.py):\n" + "\n".join(lines)
    )
    if reporter is not None:
        reporter.write_sep("=", "processes left running", red=True)
        reporter.write_line(message)
    else:
        print(message)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED
