"""Runs every benchmark and writes their tables into one page, docs/performance.md.

    python benches/run_all.py --write docs/performance.md            # everything (about an hour)
    python benches/run_all.py --only reversi engine --write docs/performance.md   # some sections

Each section is one benchmark script run in a fresh process with the settings below; its
Markdown output goes into the page verbatim, under a line that says which command wrote it, at
which commit, when, on which machine and at which load. With ``--only`` the other sections of an
existing page are kept as they were (each still carries its own commit and date), so no figure
is ever copied by hand and none can go stale without saying when it was measured.

Peers are found where the scripts look for them (benches/README.md): ``EDAX`` (Edax's binary,
run from its own directory), ``EDAX_EVAL`` (its eval.dat; it solves the FForum suites of
``../shared/data/fforum/``, as boardcore does), ``BOARDCORE_PEER_PYTHON`` (a Python with pgx, mctx and jax),
``CEPHALOPOD_PEERS`` (the contest solutions' directory), ``ZEBRA_DIR`` (a Zebra build's directory,
with ``zebra``, ``scrzebra`` and ``coeffs2.bin``), ``BOARDCORE_AZ_RUN`` (the directory
of a network trained by examples/alphazero.py), ``BOARDCORE_SB3_PYTHON`` (a Python with
the [sb3] extra, which brings PyTorch, and boardcore). A section whose peer is missing says so
in its table rather than failing.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from _timing import shown_command

ROOT = Path(__file__).resolve().parent.parent
BENCHES = ROOT / "benches"


@dataclass(frozen=True)
class Section:
    name: str
    title: str
    script: str
    args: list[str] = field(default_factory=list)
    writes_file: bool = False
    """The script writes its tables with ``--write FILE`` (its stdout also shows progress)."""
    python_from: str | None = None
    """An environment variable naming the Python to run the script with (one with the section's
    peers installed beside boardcore), instead of this one's."""

    def command(self) -> list[str]:
        return ["python", f"benches/{self.script}", *self.args]


def edax_args() -> list[str]:
    """bench_engine's Edax options, from the environment (none when Edax is not there). Edax
    solves the suite's own .obf file, from ../shared/data/fforum/."""
    binary, weights = (os.environ.get(k) for k in ("EDAX", "EDAX_EVAL"))
    args = []
    if binary:
        args += ["--edax", binary]
    if weights:
        args += ["--edax-eval", weights]
    return args


def peer_python_args(flag: str) -> list[str]:
    """``flag PATH`` for the Python that has pgx, mctx and jax (``BOARDCORE_PEER_PYTHON``), if set."""
    peer = os.environ.get("BOARDCORE_PEER_PYTHON")
    return [flag, peer] if peer else []


def sections() -> list[Section]:
    return [
        Section("reversi", "Reversi: perft against Edax, OpenSpiel and the twin", "bench_reversi.py"),
        Section("cephalopod", "Cephalopod: perft, the twin, merged path counting", "bench_cephalopod.py"),
        Section(
            "cephalopod-paths",
            "Cephalopod path counting against the contest solutions",
            "bench_cephalopod_paths.py",
            ["--repeats", "3", "--cases", "benches/data/cephalopod_paths_cases_light.txt"],
        ),
        Section("rive", "Rive: perft, playouts, large captures", "bench_rive.py"),
        Section("strands", "Strands: playouts, perft, counting", "bench_strands.py"),
        Section("mcts", "MCTS over moves against OpenSpiel", "bench_mcts.py", ["--strength-games", "0"]),
        Section(
            "vector-env",
            "VectorEnv against PettingZoo, pgx and the Gymnasium wrapper",
            "bench_vector_env.py",
            peer_python_args("--pgx-python"),
        ),
        Section(
            "sb3",
            "Stable-Baselines3: the native VecEnv against DummyVecEnv",
            "bench_sb3.py",
            python_from="BOARDCORE_SB3_PYTHON",
        ),
        Section("search", "Search guided by a model against OpenSpiel and pgx + mctx", "bench_search.py", ["--quick"]),
        Section(
            "engine",
            "The engine and solver (bc.ai): endgames, speed, time limits, levels",
            "bench_engine.py",
            [
                "--only",
                "endgame",
                "speed",
                "limits",
                "guided",
                "example",
                "ladder",
                "--games",
                "10",
                "--ladder-games",
                "200",
                "--times",
                "0.1",
                "--repeats",
                "1",
                *edax_args(),
            ],
            writes_file=True,
        ),
        Section(
            "strength",
            "The engine against random-rollout MCTS: 200 games a game at 0.1 s a move",
            "bench_engine.py",
            ["--only", "strength", "--strength-games", "200", "--times", "0.1"],
            writes_file=True,
        ),
        Section(
            "search-profile",
            "Where the search's time goes: listing moves, and two threads",
            "bench_engine.py",
            ["--only", "profile", "--repeats", "3"],
            writes_file=True,
        ),
        Section(
            "alphazero",
            "The engine against the AlphaZero example's trained network",
            "bench_alphazero_engine.py",
            # A network trained by `python examples/alphazero.py --out DIR` (JAX), named by BOARDCORE_AZ_RUN.
            [os.environ.get("BOARDCORE_AZ_RUN", "az-run"), "--games", "200", "--time", "0.1"],
            writes_file=True,
        ),
        Section(
            "endgame-40-59",
            "The solver on FForum 40-59 against Edax",
            "bench_engine.py",
            # 40-49 (20 to 26 empties): the rest of the suite takes hours a side on this machine.
            [
                "--only",
                "endgame",
                "--suite",
                "fforum-40-59",
                "--problems",
                "40-49",
                *edax_args(),
            ],
            writes_file=True,
        ),
        Section(
            "evaluation",
            "The pattern evaluation against the linear one at equal time a move",
            "bench_engine.py",
            # The boards of the 200-game target (10x10 and the Octagon: 40 games each in
            # CHANGELOG, about an hour more at 200).
            ["--only", "evaluation", "--strength-games", "200", "--times", "0.1"]
            + ["--boards", "Reversi 8x8", "Reversi 6x6", "Cephalopod 5x5"],
            writes_file=True,
        ),
        Section(
            "zebra",
            "Reversi against Zebra: matches at Zebra's depths, and FForum endgames against its solver",
            "bench_zebra.py",
            # Zebra's directory is $ZEBRA_DIR (benches/README.md); without it the tables say so.
            # 100 games at depth 8, the level whose CPU a move matches Player's at 0.05-0.07 s.
            ["--zebra-depths", "2", "4", "6", "8", "10", "--games", "10", "10", "10", "100", "10"]
            + ["--fforum", "20-39", "40-49"],
        ),
        Section(
            "time-limits",
            "Time limits: how far past its limit each timed call returns, at idle and under load",
            "bench_time_limits.py",
        ),
        Section("parsers", "Parsers on 1 MB inputs (CPU time)", "bench_parsers.py", ["--repeats", "3", "--cpu"]),
        Section("binding", "The cost of a call across the binding", "bench_binding_calls.py"),
    ]


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout.strip()


def machine() -> str:
    model = ""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        found = re.search(r"^model name\s*:\s*(.+)$", cpuinfo.read_text(), re.M)
        model = found.group(1).strip() if found else ""
    return f"{platform.machine()}, {os.cpu_count()} cores{', ' + model if model else ''}, {platform.system()}"


def load() -> str:
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except OSError:
        return "unknown"


def run(section: Section) -> str:
    """The section's Markdown: the line saying how it was made, then the script's tables."""
    import boardcore as bc

    # The page this run writes is left out: it changes after the first section.
    changed = git("status", "--porcelain", "--", ".", ":!docs/performance.md")
    commit = git("rev-parse", "--short", "HEAD") + (" (with uncommitted changes)" if changed else "")
    started, load_before = datetime.datetime.now(datetime.timezone.utc), load()
    clock = time.perf_counter()
    command = section.command()
    with tempfile.TemporaryDirectory() as scratch:
        if section.writes_file:
            command = [*command, "--write", str(Path(scratch) / "tables.md")]
        python = os.environ.get(section.python_from, sys.executable) if section.python_from else sys.executable
        done = subprocess.run([python, *command[1:]], cwd=ROOT, capture_output=True, text=True)
        body = done.stdout
        if section.writes_file and done.returncode == 0:
            # The script's own header (its first paragraph) is replaced by the line below.
            body = (Path(scratch) / "tables.md").read_text().split("\n\n", 1)[-1]
    minutes = (time.perf_counter() - clock) / 60
    shown = shown_command(section.command())
    lines = [
        f"<!-- section: {section.name} -->",
        f"## {section.title}",
        "",
        f"`{shown}`, at commit {commit}, {started:%Y-%m-%d %H:%M} UTC, on {machine()}, code path "
        f"{bc.code_path()}; load average {load_before} at the start and {load()} at the end ({minutes:.1f} min).",
        "",
    ]
    if done.returncode != 0:
        error = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        lines += [f"**Failed** (exit code {done.returncode}): `{error}`", ""]
    lines += [body.strip(), "", f"<!-- end: {section.name} -->"]
    sys.stderr.write(done.stderr)
    return "\n".join(lines)


INTRO = """# Performance

Every table on this page was written by its benchmark (`python benches/run_all.py --write
docs/performance.md`; `--only NAME ...` rewrites some sections and keeps the others). Each section
says the command, commit, date, machine and load it was measured at; each ratio compares
boardcore with its peer in the same run on the same machine, as medians of repeated runs. The
machines are shared and noisy: read the ratios, not the absolute times. benches/README.md says
what each script measures and how to install the peers (outside the repository).
"""


def merged(page: str, fresh: dict[str, str], order: list[str]) -> str:
    """``page`` with the sections of ``fresh`` replaced (or added in ``order``)."""
    kept = {
        found.group(1): found.group(0)
        for found in re.finditer(r"<!-- section: (\S+) -->.*?<!-- end: \1 -->", page, re.S)
    }
    kept.update(fresh)
    return INTRO + "\n" + "\n\n".join(kept[name] for name in order if name in kept) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    every = sections()
    parser.add_argument("--only", nargs="+", choices=[s.name for s in every], help="run these sections only")
    parser.add_argument("--write", help="the page to write (default: print the sections)")
    parser.add_argument("--list", action="store_true", help="list the sections and their commands")
    args = parser.parse_args()
    if args.list:
        for s in every:
            print(f"{s.name:18} {' '.join(s.command())}")
        return 0
    chosen = [s for s in every if not args.only or s.name in args.only]
    fresh = {}
    for section in chosen:
        print(f"run_all: {section.name}: {' '.join(section.command())}", file=sys.stderr, flush=True)
        fresh[section.name] = run(section)
        if args.write:  # written after every section: a long run keeps what it has measured
            target = Path(args.write)
            page = target.read_text(encoding="utf-8") if target.exists() else ""
            target.write_text(merged(page, fresh, [s.name for s in every]), encoding="utf-8")
        else:
            print(fresh[section.name] + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
