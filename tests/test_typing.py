"""The hand-written stubs describe the compiled module exactly (mypy's stubtest)."""

import subprocess
import sys


def test_stubs_match_the_compiled_module():
    result = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "boardcore._boardcore"], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
