"""The tests' child processes: started so that a Ctrl-C the test sends them can arrive, and ended
with everything they started when the test ends, whatever its outcome (issue 36, item 3 and the
leftover processes of item 5).

A job runner, `nohup pytest ... &` or any non-interactive shell's `&` starts the suite with SIGINT
ignored, and an ignored signal stays ignored across fork and exec (a caught one is reset to its
default by exec, an ignored one is not). Python keeps an inherited SIG_IGN instead of installing
its KeyboardInterrupt handler, so a child started plainly never hears the SIGINT a test sends it,
and the test waits out its timeout. Hence three rules:

- a process that sends SIGINT to itself installs ``signal.default_int_handler`` first;
- a child a test interrupts is started with SIGINT restored (``Children.start``/``spawn``);
- the SIGINT itself goes through ``send_sigint``, which fails at once, saying why, when the
  target ignores or blocks SIGINT, instead of letting the test wait for an answer that cannot come.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

# Run as `python -I -S -c RESTORE_SIGINT_THEN_EXEC command...`: gives SIGINT its default action,
# unblocks it (a blocked mask is inherited across exec too), then becomes `command` (same pid).
# A Python that starts with SIGINT at its default installs its KeyboardInterrupt handler itself.
# An exec'd wrapper rather than a preexec_fn: the test process may run threads (Ray's among
# them), and Python code between fork and exec is unsafe there.
RESTORE_SIGINT_THEN_EXEC = (
    "import os, signal, sys; "
    "signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT]); "
    "os.execvp(sys.argv[1], sys.argv[1:])"
)


def with_sigint_default(command: list[str]) -> list[str]:
    """``command`` run with SIGINT at its default action and unblocked, whatever this process
    inherited. ``-I -S``: the wrapper's own start reads no environment variable (such as
    PYTHONPROFILEIMPORTTIME) and imports no site; ``command`` gets the environment unchanged."""
    return [sys.executable, "-I", "-S", "-c", RESTORE_SIGINT_THEN_EXEC, *command]


def _signal_masks(pid: int) -> dict[str, list[int]] | None:
    """Each thread's SigIgn, SigBlk and SigCgt masks of process ``pid`` from /proc (None where
    there is no /proc), as lists over its threads."""
    tasks = Path(f"/proc/{pid}/task")
    if not tasks.is_dir():
        return None
    masks: dict[str, list[int]] = {"SigIgn": [], "SigBlk": [], "SigCgt": []}
    for task in tasks.iterdir():
        with contextlib.suppress(OSError):
            for line in (task / "status").read_text().splitlines():
                field, _, value = line.partition(":")
                if field in masks:
                    masks[field].append(int(value, 16))
    return masks


def why_sigint_cannot_arrive(pid: int) -> str | None:
    """Why a SIGINT sent to process ``pid`` now would never be delivered (it ignores SIGINT, or
    every one of its threads blocks it), or None when it can arrive or /proc cannot tell."""
    masks = _signal_masks(pid)
    if not masks or not masks["SigBlk"]:
        return None
    bit = 1 << (signal.SIGINT - 1)
    if any(mask & bit for mask in masks["SigIgn"]):
        return f"process {pid} ignores SIGINT (SigIgn in /proc/{pid}/status)"
    if all(mask & bit for mask in masks["SigBlk"]):
        return f"every thread of process {pid} blocks SIGINT (SigBlk in /proc/{pid}/task/*/status)"
    return None


def send_sigint(pid: int) -> None:
    """Sends SIGINT to ``pid``, after failing the test at once if it could never arrive: the test
    would otherwise only wait out its timeout."""
    reason = why_sigint_cannot_arrive(pid)
    if reason is not None:
        pytest.fail(
            f"SIGINT cannot reach the process under test: {reason}. It inherited SIG_IGN (a job runner "
            "or `nohup ... &` starts the suite so, and exec keeps an ignored signal): start it with "
            "Children.start or Children.spawn (tests/processes.py), which restore SIGINT's default.",
            pytrace=False,
        )
    os.kill(pid, signal.SIGINT)


def processes_with(environment_entry: str) -> list[int]:
    """The processes still running (zombies excluded) whose environment holds
    ``environment_entry`` (``NAME=value``), whatever started them and wherever they were
    reparented. Empty where there is no /proc."""
    if not Path("/proc/self/environ").exists():
        return []
    wanted = environment_entry.encode()
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            with contextlib.suppress(OSError):  # gone, or not ours (a zombie's environment reads empty)
                if wanted in (entry / "environ").read_bytes().split(b"\0"):
                    found.append(int(entry.name))
    return found


def end_group(pid: int) -> None:
    """SIGKILL to the process group led by ``pid`` (the child and whatever it started that did
    not leave the group); nothing if the group is gone."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


class Children:
    """The processes one test starts (the ``children`` fixture of tests/conftest.py). Each is the
    leader of a process group of its own, with SIGINT at its default action; when the test ends,
    whatever its outcome, each group is killed and each child waited for.

    Each also carries a marker of this test in its environment, passed on to whatever it starts:
    a child whose start was interrupted (a Ctrl-C before Popen or pexpect returned it) and a
    descendant that left the group are found by it in /proc and killed too."""

    MARKER = "BOARDCORE_TEST_CHILDREN"

    def __init__(self) -> None:
        self._popens: list[subprocess.Popen] = []
        self._terminals: list = []  # pexpect.spawn objects
        self._marker = f"{self.MARKER}={uuid.uuid4().hex}"

    def _marked(self, env: dict[str, str] | None) -> dict[str, str]:
        name, _, value = self._marker.partition("=")
        return {**(os.environ if env is None else env), name: value}

    def start(self, command: list[str], env: dict[str, str] | None = None, **popen_arguments) -> subprocess.Popen:
        """``subprocess.Popen(command, env=env, **popen_arguments)`` in a session of its own."""
        child = subprocess.Popen(
            with_sigint_default(command), start_new_session=True, env=self._marked(env), **popen_arguments
        )
        self._popens.append(child)
        return child

    def run(self, command: list[str], timeout: float, **popen_arguments) -> subprocess.CompletedProcess:
        """As ``subprocess.run(command, capture_output=True, text=True, timeout=timeout)``, but a
        timeout also ends what the child started (a forked grandchild, a Ray instance)."""
        child = self.start(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **popen_arguments)
        try:
            out, err = child.communicate(timeout=timeout)
        finally:
            end_group(child.pid)
        return subprocess.CompletedProcess(command, child.wait(), out, err)

    def spawn(self, command: list[str], env: dict[str, str] | None = None, **spawn_arguments):
        """``pexpect.spawn`` of ``command`` on a pseudo-terminal of its own (pexpect makes the child
        a session leader, so it leads its process group)."""
        import pexpect

        wrapped = with_sigint_default(command)
        child = pexpect.spawn(wrapped[0], wrapped[1:], env=self._marked(env), **spawn_arguments)
        self._terminals.append(child)
        return child

    def end_all(self) -> None:
        """Kills each child's group and waits for the child, then kills (and reaps, when it is a
        child of this process) whatever still carries the marker."""
        for child in self._popens:
            end_group(child.pid)
            child.wait()
            for stream in (child.stdin, child.stdout, child.stderr):
                if stream is not None:
                    stream.close()
        for terminal in self._terminals:
            end_group(terminal.pid)
            terminal.close(force=True)
        self._popens.clear()
        self._terminals.clear()
        for pid in processes_with(self._marker):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):  # not a child of this process: its parent waits
                os.waitpid(pid, 0)
