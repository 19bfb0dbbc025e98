"""``python -m wmnsim``: the wmnsim command line (see wmnsim.cli)."""
import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
