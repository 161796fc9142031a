"""``python -m boardcore.cli``: the same as the ``boardcore`` console script."""

import sys

from boardcore.cli import main

sys.exit(main())
