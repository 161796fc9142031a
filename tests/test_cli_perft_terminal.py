"""`boardcore perft` in a terminal (issue 14, item 10): Ctrl-C stops it with exit code 130 and no
traceback, the progress bar's clock runs while a root move is searched, and --divide's results
never share a line with the bar.

Each run is a child process on a pseudo-terminal (pexpect), so stderr is a terminal and the bar is
drawn as a person sees it. A hang is caught by pexpect's timeout rather than by a timing assertion.
The children fixture (tests/conftest.py) starts each child with SIGINT at its default action, so
that Ctrl-C arrives even where the suite runs with SIGINT ignored, and ends it whatever the outcome.
"""

import os
import re
import sys

import pytest
from processes import send_sigint

pexpect = pytest.importorskip("pexpect")
pytestmark = pytest.mark.skipif(os.name != "posix", reason="needs a pseudo-terminal and POSIX signals")

# Deep enough that the first root move alone takes minutes: nothing finishes before the interrupt.
DEEP = {
    "reversi": ["reversi", "--depth", "14"],
    "rive": ["rive", "--depth", "9"],
    "strands": ["strands", "--depth", "5"],
    "cephalopod": ["cephalopod", "--depth", "12"],
}
# How long the child may take to answer Ctrl-C before the test calls it a hang (generous: the
# machine may be busy; the engine hears the signal every 25 ms of work).
ANSWER = 10


def spawn_perft(children, *arguments: str):
    command = [sys.executable, "-m", "boardcore.cli", "perft", *arguments]
    return children.spawn(command, encoding="utf-8", timeout=60, echo=False)


def bar_clock(child) -> float:
    """The clock of the next bar drawn before any root move is done."""
    child.expect(r"perft\(\d+\) \[-+\] 0/\d+ (\d+\.\d)s")
    return float(child.match.group(1))


@pytest.mark.parametrize("threads", ["1", "2"])
@pytest.mark.parametrize("game", sorted(DEEP))
def test_ctrl_c_stops_perft_with_exit_code_130_and_no_traceback(children, game, threads):
    child = spawn_perft(children, *DEEP[game], "--threads", threads, "--divide")
    bar_clock(child)  # the search is under way
    send_sigint(child.pid)
    child.expect(pexpect.EOF, timeout=ANSWER)
    child.close()
    assert child.exitstatus == 130 and child.signalstatus is None
    assert "Traceback" not in child.before and "boardcore: interrupted" in child.before


def test_the_bar_clock_runs_while_the_first_root_move_is_searched(children):
    child = spawn_perft(children, *DEEP["reversi"])
    first = bar_clock(child)
    # The bar is drawn again, still at 0 root moves done, with a later time: it redraws on a timer.
    while (later := bar_clock(child)) == first:
        pass
    assert later > first
    send_sigint(child.pid)
    child.expect(pexpect.EOF, timeout=ANSWER)
    child.close()


def test_divide_clears_the_bar_before_each_result_line(children):
    child = spawn_perft(children, "reversi", "--depth", "5", "--divide")
    child.expect(pexpect.EOF)
    child.close()
    output = child.before
    assert child.exitstatus == 0 and "perft(5) = 1396" in output
    results = re.findall(r"(.*?)(   [cdef][3456] \d+)\r\n", output)
    assert len(results) == 4
    for before, _line in results:
        # Whatever the terminal showed on this line (the bar) was erased: the result starts a clean line.
        assert before.endswith("\r\x1b[K")
