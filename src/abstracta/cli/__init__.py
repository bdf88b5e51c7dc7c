"""The ``abstracta`` command (Typer + Rich): ``abstracta.cli:main``."""

from .play import *  # noqa: F401,F403 - the command's names, as they were in one module
from .play import app, main  # noqa: F401
