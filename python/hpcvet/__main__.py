"""python3 -m hpcvet: see hpcvet.cli."""

import sys

from .cli import main

sys.exit(main())
