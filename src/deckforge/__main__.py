"""Allow ``python -m deckforge``."""

import sys

from deckforge.cli import main

sys.exit(main())
