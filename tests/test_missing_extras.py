"""An adapter imported without its framework names the extra that installs it, as
``boardcore.svg.save_png`` names ``[png]`` (README, docs/ai.md): the framework is hidden from a
fresh interpreter (``sys.modules[name] = None`` makes its import fail), whether it is installed
here or not."""

import subprocess
import sys
import textwrap

import pytest

# (adapter, a module it needs, the extra to install)
NEEDS = [
    ("gymnasium", "gymnasium", "gymnasium"),
    ("pettingzoo", "pettingzoo", "pettingzoo"),
    ("pettingzoo", "gymnasium", "pettingzoo"),
    ("openspiel", "pyspiel", "openspiel"),
    ("sb3", "stable_baselines3", "sb3"),
    ("sb3", "gymnasium", "sb3"),  # the sb3 extra brings Gymnasium, so it is the one to name
]


def import_without(adapter: str, hidden: str) -> subprocess.CompletedProcess:
    """Imports ``boardcore.adapters.ADAPTER`` in a fresh interpreter where ``hidden`` cannot be
    imported; prints the ImportError's message."""
    script = textwrap.dedent(f"""
        import sys
        sys.modules[{hidden!r}] = None
        try:
            import boardcore.adapters.{adapter}
        except ImportError as error:
            print(error)
        else:
            print("imported")
    """)
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(("adapter", "hidden", "extra"), NEEDS)
def test_an_adapter_without_its_framework_names_the_extra_to_install(adapter, hidden, extra):
    result = import_without(adapter, hidden)
    assert result.returncode == 0, result.stderr
    message = result.stdout.strip()
    assert message.startswith(f"boardcore.adapters.{adapter} needs "), message
    assert message.endswith(f"pip install 'boardcore[{extra}]'"), message


def test_the_package_itself_needs_no_framework():
    hidden = ["gymnasium", "pettingzoo", "pyspiel", "stable_baselines3", "ray", "PIL", "resvg_py"]
    script = "import sys\n" + "".join(f"sys.modules[{m!r}] = None\n" for m in hidden)
    script += "import boardcore as bc\nbc.Reversi().play('d3')\n"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
