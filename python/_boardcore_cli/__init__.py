"""The ``boardcore`` console script's entry point (``[project.scripts]`` in pyproject.toml).

It lives outside the ``boardcore`` package on purpose. Importing ``boardcore`` (numpy, the
extension, the adapters' helpers) takes a moment, more on a busy machine, and a Ctrl-C in that
moment must end the command as a Ctrl-C while it runs does: "boardcore: interrupted" on stderr,
exit code 130, no traceback. Code inside the package cannot catch it, since the package is
imported before any of its code runs; this module imports nothing but ``sys``.
"""

import sys


def main() -> int:
    """``boardcore.cli.main()``, with an interrupt while it is imported ending the command with
    exit code 130 and no traceback. From then on ``boardcore.cli.main`` handles interrupts
    itself (reading the arguments included), as it does under ``python -m boardcore.cli``."""
    try:
        from boardcore.cli import main as run
    except KeyboardInterrupt:
        print("boardcore: interrupted", file=sys.stderr)
        return 130
    return run()


if __name__ == "__main__":
    sys.exit(main())
