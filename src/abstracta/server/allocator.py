"""The C allocator of a web process (issue 44 §5): glibc's malloc told, before the server starts
its threads, to keep fewer arenas and to give large blocks back at once.

Why: under benchmarks/soak.py (100 games, SQLite) the web process's memory grew after its
warm-up while the memory glibc had handed out stayed flat (``mallinfo2``: in use ≈ 46 MB
throughout): what grew was the memory it held free — ``fordblks`` 6.6 → 13 MB in five minutes,
in holes ``malloc_trim`` could not give back (it returned 2 MB). Two of glibc's defaults make
those holes in a threaded Python server: an arena per thread, up to eight a core, each keeping
the high-water mark of its own bursts (the routes run in a pool of threads); and a threshold for
mmapped blocks that rises to the largest block freed, so that large transient buffers (an encoded
view of a long game, a page of a replay) move into those arenas and leave holes when freed.
:data:`ARENA_MAX` and :data:`MMAP_THRESHOLD` are the usual remedies (glibc's own tunables,
``MALLOC_ARENA_MAX`` and ``MALLOC_MMAP_THRESHOLD_``): an operator who sets either in the
environment keeps their value.

Only on glibc (``mallopt`` found); elsewhere nothing is done.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os

#: mallopt's parameters (malloc.h)
M_MMAP_THRESHOLD = -3
M_ARENA_MAX = -8
#: arenas of the web process: two (its threads share them; the routes hold no lock in malloc long)
ARENA_MAX = 2
#: blocks of this size or more are mmapped and unmapped when freed (glibc's initial value, 128 KiB,
#: kept fixed: set explicitly, it no longer rises)
MMAP_THRESHOLD = 128 * 1024


def tune(environ: dict[str, str] | None = None) -> dict[str, int]:
    """Set glibc's arenas and mmap threshold for this process, unless the environment
    (``MALLOC_ARENA_MAX``, ``MALLOC_MMAP_THRESHOLD_``) sets them. Returns the settings made
    (``{"arena_max": 2, "mmap_threshold": 131072}``; empty where glibc is not the allocator).
    Call before the server starts threads: the arenas of threads running already stay."""
    environ = os.environ if environ is None else environ
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError, TypeError):
        return {}
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    made: dict[str, int] = {}
    if "MALLOC_ARENA_MAX" not in environ and mallopt(M_ARENA_MAX, ARENA_MAX) == 1:
        made["arena_max"] = ARENA_MAX
    if "MALLOC_MMAP_THRESHOLD_" not in environ and mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1:
        made["mmap_threshold"] = MMAP_THRESHOLD
    return made


__all__ = ["ARENA_MAX", "MMAP_THRESHOLD", "tune"]
