"""Allow ``python -m deckforge``."""

import sys

from deckforge.cli import run

sys.exit(run())
