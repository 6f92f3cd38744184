"""``python -m world.stream FD``: the chunk worker process the game starts (`world.stream.worker`).

The package's entry rather than the module's own: the package imports the worker module, and
running a module the package has imported as ``__main__`` would make it twice.
"""

from __future__ import annotations

import sys

from world.stream.worker import main

raise SystemExit(main(sys.argv[1:]))
