"""``python -m abstracta`` is the ``abstracta`` command."""

from .cli import main

main()
