"""Engine benchmark: the README's table. Same as `abstracta bench`; arguments are passed on.

    python benchmarks/engine.py                 # every game, 2 s of random play each
    python benchmarks/engine.py fanorona --seconds 5
"""

import sys

from abstracta.cli import app

if __name__ == "__main__":
    app(["bench", *sys.argv[1:]])
