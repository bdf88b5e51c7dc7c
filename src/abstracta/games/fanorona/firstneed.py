"""Endgame tables on every install: what levels 5–6 and the analysis board read is built the
first time they need it, in a background process (issue 46 §1).

* Tsivy (9×5): the tables of 2–4 stones (2.3 MB, about 20 CPU seconds):
  ``abstracta egtb build fanorona --stones 4``;
* Dimy (5×5): its tables of 2–4 stones and the proof book of its solution:
  ``abstracta egtb build fanorona --option size=dimy --stones 4`` then
  ``abstracta solve fanorona --option size=dimy``.

The build runs as its own low-priority process (a search thread, a server or a tournament
worker is never held up by it), once per tables directory: a lock file there
(``fanorona-<size>.building``, with the builder's process id) keeps other processes from
starting a second one, and a lock whose process is gone or that is older than
:data:`STALE_SECONDS` is taken over. Until the files are there the levels search as before.
``ABSTRACTA_EGTB_AUTOBUILD=0`` turns it off (the tests do; ``abstracta egtb build`` still
builds by hand).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from .rules import FanoronaGame

#: Stones of the tables built on first need.
STONES = 4
#: A lock older than this (seconds) belongs to a build that died without removing it.
STALE_SECONDS = 1800
ENV = "ABSTRACTA_EGTB_AUTOBUILD"


def enabled() -> bool:
    return os.environ.get(ENV, "1").strip().lower() not in ("0", "false", "no", "off")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def _take_lock(path: Path) -> bool:
    """Create the lock file (exclusively); take over a stale one. False: someone builds."""
    for _ in range(2):
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            try:
                pid = int(path.read_text().split()[0])
                age = time.time() - path.stat().st_mtime
            except (OSError, ValueError, IndexError):
                pid, age = -1, STALE_SECONDS + 1
            if age <= STALE_SECONDS and pid > 0 and _alive(pid):
                return False
            try:
                path.unlink()
            except FileNotFoundError:
                pass
            continue
        with os.fdopen(fd, "w") as f:
            f.write(f"{os.getpid()}\n")
        return True
    return False


#: (size, directory) this process started a build for: once per process, so that a build that
#: fails does not start again every time a level looks
_STARTED: set[tuple[str, str]] = set()


def start(size: str, directory: Path) -> bool:
    """Start building ``size``'s tables (and Dimy's book) into ``directory`` in the background,
    unless turned off, already under way, or started by this process before. Returns whether a
    build was started."""
    if not enabled() or size not in ("tsivy", "dimy") or (size, str(directory)) in _STARTED:
        return False
    lock = directory / f"fanorona-{size}.building"
    try:
        directory.mkdir(parents=True, exist_ok=True)
        if not _take_lock(lock):
            return False
        log = open(directory / f"fanorona-{size}.build.log", "a")  # noqa: SIM115 - the child keeps it
    except OSError:
        return False  # a read-only data directory: the levels search as before
    code = ("import sys; from abstracta.games.fanorona.firstneed import build; "
            "build(sys.argv[1], sys.argv[2], int(sys.argv[3]))")
    env = {**os.environ, "ABSTRACTA_EGTB_DIR": str(directory), ENV: "0"}
    try:
        subprocess.Popen([sys.executable, "-c", code, size, str(directory), str(STONES)], stdin=subprocess.DEVNULL,
                         stdout=log, stderr=log, env=env, start_new_session=True)
    except OSError:
        lock.unlink(missing_ok=True)
        return False
    finally:
        log.close()
    _STARTED.add((size, str(directory)))
    return True


def build(size: str, directory: str | Path, stones: int = STONES) -> None:
    """The background build itself (see :func:`start`): the tables of 2-``stones`` stones, then
    Dimy's proof; the lock goes when it ends, built or not."""
    directory = Path(directory)
    lock = directory / f"fanorona-{size}.building"
    lock.write_text(f"{os.getpid()}\n")
    try:
        if hasattr(os, "nice"):
            os.nice(10)  # below the searches and servers that asked for it
        say = lambda text: print(time.strftime("%Y-%m-%d %H:%M:%S"), text, flush=True)  # noqa: E731
        game = FanoronaGame(size=size)
        say(f"building the {size} tables of 2-{stones} stones in {directory}")
        game.description.endgame_tables.build(stones, directory, progress=say)  # type: ignore[union-attr]
        if size == "dimy":
            say("proving Dimy (the proof book)")
            solution = game.description.solver(say)  # type: ignore[misc]
            say(f"Dimy: value {solution.value}, {solution.positions:,} positions in the book")
    finally:
        lock.unlink(missing_ok=True)


__all__ = ["ENV", "STONES", "build", "enabled", "start"]
