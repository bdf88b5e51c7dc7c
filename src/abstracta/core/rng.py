"""The shared seeded generator of rules/README.md ("Seeded generator (all games)").

SplitMix64 on unsigned 64-bit integers; chosen over :mod:`random` so that deals, shuffles
and layouts replay bit for bit in any implementation.
"""

from __future__ import annotations

from typing import MutableSequence, TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


class SplitMix64:
    """SplitMix64 generator.

    >>> rng = SplitMix64(0)
    >>> hex(rng.next())
    '0xe220a8397b1dcdaf'

    Attributes:
        state: the 64-bit internal state (readable and writable, so positions can carry it).
    """

    __slots__ = ("state",)

    def __init__(self, seed: int = 0):
        if seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {seed}")
        self.state = seed & _MASK

    def next(self) -> int:
        """Return the next unsigned 64-bit output."""
        self.state = (self.state + _GAMMA) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Return ``next() mod n`` (n ≥ 1)."""
        if n < 1:
            raise ValueError(f"below(n) needs n >= 1, got {n}")
        return self.next() % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place: for i = len−1 down to 1, swap items[i], items[below(i+1)]."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def copy(self) -> "SplitMix64":
        other = SplitMix64()
        other.state = self.state
        return other

    def __repr__(self) -> str:
        return f"SplitMix64(state=0x{self.state:016x})"
