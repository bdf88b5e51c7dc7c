"""``python -m abstracta.cli`` is the ``abstracta`` command, as ``python -m abstracta`` is."""

from . import main

main()
