"""``python -m tricklab``: the command line, as ``tricklab`` runs it."""

import sys

from analysis.cli.main import main

sys.exit(main())
