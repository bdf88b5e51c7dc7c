"""The web process's C allocator is told to keep fewer arenas and a fixed mmap threshold (issue
44 §5: its free-but-held memory grew under the soak), unless the operator's environment says."""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import pytest

from abstracta.server import allocator

glibc = platform.libc_ver()[0] == "glibc"


@pytest.mark.skipif(not glibc, reason="glibc's mallopt")
def test_the_allocator_is_tuned_on_glibc():
    assert allocator.tune({}) == {"arena_max": allocator.ARENA_MAX, "mmap_threshold": allocator.MMAP_THRESHOLD}


#: run in a fresh process (a heap of its own, no free chunk large enough to serve the block):
#: after a large block is freed, glibc's own threshold would rise past the next one, served from
#: the heap (and leaving a hole there when freed); the threshold made fixed keeps it mmapped
PROBE = """
import ctypes, ctypes.util, sys
from abstracta.server import allocator
if sys.argv[1] == "tuned":
    allocator.tune({})
libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
libc.malloc.restype, libc.malloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t]
libc.free.argtypes = [ctypes.c_void_p]
class Info(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                                "fsmblks", "uordblks", "fordblks", "keepcost")]
libc.mallinfo2.restype = Info
libc.free(libc.malloc(8 << 20))
before = libc.mallinfo2().hblkhd
block = libc.malloc(4 << 20)
print(libc.mallinfo2().hblkhd - before >= 4 << 20)
"""


@pytest.mark.skipif(not glibc, reason="glibc's mallopt")
@pytest.mark.parametrize("mode, mmapped", [("tuned", "True"), ("default", "False")])
def test_a_large_block_stays_mmapped_after_a_larger_one_was_freed(mode, mmapped):
    done = subprocess.run([sys.executable, "-c", PROBE, mode], capture_output=True, text=True, timeout=60,
                          env={k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == mmapped


def test_the_operators_environment_is_kept():
    assert allocator.tune({"MALLOC_ARENA_MAX": "4", "MALLOC_MMAP_THRESHOLD_": "65536"}) == {}
