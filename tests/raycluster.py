"""Real local Ray clusters for tests and benches: a head node (and more nodes) started with
`ray start --block` as child processes of this one, on ports and a temp dir of their own, and
stopped by ending those processes (never `ray stop`, which would stop every Ray on the machine).

Every node runs this interpreter (`python -m ray.scripts.scripts`), so its workers import the
boardcore this process imports."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import pytest

# The nodes' address: on the loopback interface, so that nothing leaves this machine. Not 127.0.0.1,
# which Ray replaces by the machine's network address ("localhost" is not remotely reachable),
# and which with that replacement turned off allows one node only.
NODE_IP = "127.0.0.2"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class LocalCluster:
    """``with LocalCluster(cpus=2) as cluster: ... address=cluster.address``; ``add_node(cpus)``
    starts another node (a second `ray start --address`), as a second machine would."""

    START_SECONDS = 120

    def __init__(self, cpus: int = 2) -> None:
        self.cpus = cpus
        self.port = free_port()
        self.address = f"{NODE_IP}:{self.port}"
        # A short temp dir of its own (Ray's socket paths must stay short): `ray start` records
        # its address there, not in /tmp/ray where address="auto" of another process would find it.
        self.temp_dir = tempfile.mkdtemp(prefix="rt", dir="/tmp")
        self.nodes: list[subprocess.Popen] = []
        self.logs: list[str] = []

    def __enter__(self) -> LocalCluster:
        try:
            self._start(
                ["--head", f"--port={self.port}", "--include-dashboard=false", f"--temp-dir={self.temp_dir}"], self.cpus
            )
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def add_node(self, cpus: int) -> None:
        self._start([f"--address={self.address}"], cpus)

    def _start(self, arguments: list[str], cpus: int) -> None:
        expected = self._cluster_cpus() + cpus if self.nodes else cpus
        log = os.path.join(self.temp_dir, f"node{len(self.nodes)}.log")
        self.logs.append(log)
        command = [
            sys.executable,
            "-m",
            "ray.scripts.scripts",
            "start",
            "--block",
            f"--num-cpus={cpus}",
            f"--dashboard-agent-listen-port={free_port()}",
            f"--node-ip-address={NODE_IP}",
            *arguments,
        ]
        # No token authentication: the cluster is reachable from this machine only, and its
        # drivers connect with an explicit address, which sends no token.
        env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", RAY_AUTH_MODE="disabled")
        env.pop("RAY_ADDRESS", None)
        with open(log, "wb") as out:
            # A session of its own: the node's processes are ended together by stop().
            self.nodes.append(
                subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)
            )
        deadline = time.monotonic() + self.START_SECONDS
        while self._cluster_cpus() < expected:
            if self.nodes[-1].poll() is not None or time.monotonic() > deadline:
                with open(log, errors="replace") as text:
                    raise RuntimeError(f"ray start did not bring up {cpus} CPU(s):\n{text.read()[-3000:]}")
            time.sleep(0.5)

    def _cluster_cpus(self) -> int:
        """CPUs the cluster reports (0 while it is not up), asked by a short-lived subprocess so that
        this process never initialises Ray itself."""
        script = (
            "import ray,sys,logging; ray.init(address=sys.argv[1], logging_level=logging.ERROR, log_to_driver=False);"
            "print(int(ray.cluster_resources().get('CPU', 0)))"
        )
        try:
            done = subprocess.run(
                [sys.executable, "-c", script, self.address], capture_output=True, text=True, timeout=60
            )
        except subprocess.TimeoutExpired:
            return 0
        lines = done.stdout.split()
        return int(lines[-1]) if done.returncode == 0 and lines and lines[-1].isdigit() else 0

    def stop(self) -> None:
        """Ends the nodes, last started first: SIGTERM to each `ray start --block` (which then stops
        its node's processes), SIGKILL to each node's whole process group after that."""
        for node in reversed(self.nodes):
            node.terminate()
        for node in reversed(self.nodes):
            with contextlib.suppress(subprocess.TimeoutExpired):
                node.wait(timeout=15)
            _signal_group(node, signal.SIGKILL)
            node.wait()
        self.nodes.clear()
        shutil.rmtree(self.temp_dir, ignore_errors=True)

    def worker_pids(self, title: str) -> list[int]:
        """Worker processes of this cluster whose title (Ray sets it to `ray::<task>` while a task
        runs) starts with ``title``: processes in the nodes' sessions, found through /proc."""
        if not os.path.isdir("/proc"):
            pytest.skip("finding Ray's worker processes reads /proc, which this system (not Linux) lacks")
        sessions = {os.getsid(node.pid) for node in self.nodes if node.poll() is None}
        found = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as file:
                    cmdline = file.read().replace(b"\0", b" ").decode(errors="replace").strip()
                if cmdline.startswith(title) and os.getsid(int(entry)) in sessions:
                    found.append(int(entry))
            except OSError:
                continue
        return found


def _signal_group(node: subprocess.Popen, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(node.pid, sig)
