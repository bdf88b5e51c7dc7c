"""The web process's C allocator is told to keep fewer arenas and a fixed mmap threshold (issue
44 §5: its free-but-held memory grew under the soak), unless the operator's environment says."""

from __future__ import annotations

import ctypes
import ctypes.util
import platform

import pytest

from abstracta.server import allocator

glibc = platform.libc_ver()[0] == "glibc"


@pytest.mark.skipif(not glibc, reason="glibc's mallopt")
def test_the_allocator_is_tuned_on_glibc():
    assert allocator.tune({}) == {"arena_max": allocator.ARENA_MAX, "mmap_threshold": allocator.MMAP_THRESHOLD}


@pytest.mark.skipif(not glibc, reason="glibc's mallopt")
def test_a_block_over_the_threshold_is_given_back_when_freed():
    allocator.tune({})
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    libc.malloc.restype, libc.malloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t]
    libc.free.argtypes = [ctypes.c_void_p]

    class Info(ctypes.Structure):
        _fields_ = [(n, ctypes.c_size_t) for n in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                                    "fsmblks", "uordblks", "fordblks", "keepcost")]

    libc.mallinfo2.restype = Info
    # a block freed once no longer raises the threshold: the next of its size is mmapped again
    for _ in range(2):
        before = libc.mallinfo2().hblkhd
        block = libc.malloc(4 * allocator.MMAP_THRESHOLD)
        assert libc.mallinfo2().hblkhd >= before + 4 * allocator.MMAP_THRESHOLD
        libc.free(block)


def test_the_operators_environment_is_kept():
    assert allocator.tune({"MALLOC_ARENA_MAX": "4", "MALLOC_MMAP_THRESHOLD_": "65536"}) == {}
