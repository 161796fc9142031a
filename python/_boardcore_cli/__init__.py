"""The ``boardcore`` console script's entry point (``[project.scripts]`` in pyproject.toml).

It lives outside the ``boardcore`` package on purpose. Importing ``boardcore`` (numpy, the
extension, the adapters' helpers) takes a moment, more on a busy machine, and a Ctrl-C in that
moment must end the command as a Ctrl-C while it runs does: "boardcore: interrupted" on stderr,
exit code 130, no traceback. Code inside the package cannot catch it, since the package is
imported before any of its code runs; this module imports nothing but ``sys``.
"""

import sys


def main() -> int:
    """``boardcore.cli.main()``, with an interrupt while it is imported (or while the arguments
    are read) ending the command with exit code 130 and no traceback."""
    try:
        from boardcore.cli import main as run

        return run()
    except KeyboardInterrupt:
        print("boardcore: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
