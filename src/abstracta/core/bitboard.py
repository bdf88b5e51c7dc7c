"""Small helpers shared by the games' integer bitboards."""

from __future__ import annotations


def bits(mask: int) -> list[int]:
    """Indices of the set bits of ``mask`` (a non-negative int), ascending.

    >>> bits(0b10110)
    [1, 2, 4]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
