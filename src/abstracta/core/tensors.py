"""Named tensor planes of the research adapters (DESIGN.md "interop/"; issue 19).

A game's observation (or information-state) tensor is the concatenation of named
:class:`Plane` values, each flattened in C order. ``Game.observation_planes()`` lists them;
``State.observation_tensor(player)`` returns the flat list of floats. :class:`TensorBuilder`
fills one flat buffer through named views, so a game's ``tensors.py`` writes
``t.set("own_stones", cell, 1.0)`` instead of computing offsets.
"""

from __future__ import annotations

from math import prod
from typing import NamedTuple, Sequence


class Plane(NamedTuple):
    """One named part of a flat tensor.

    Attributes:
        name: e.g. ``"own_stones"``.
        shape: e.g. ``(5, 9)`` (ranks × files); ``()`` is not used: a scalar is ``(1,)``.
        doc: what a value means (units, range).
    """

    name: str
    shape: tuple[int, ...]
    doc: str = ""

    @property
    def size(self) -> int:
        return prod(self.shape)


def tensor_size(planes: Sequence[Plane]) -> int:
    """Length of the flat tensor made of ``planes``."""
    return sum(p.size for p in planes)


def plane_offsets(planes: Sequence[Plane]) -> dict[str, tuple[int, Plane]]:
    """``{name: (offset in the flat tensor, plane)}``."""
    out: dict[str, tuple[int, Plane]] = {}
    offset = 0
    for p in planes:
        out[p.name] = (offset, p)
        offset += p.size
    return out


class TensorBuilder:
    """A zeroed flat buffer over ``planes``; ``set(name, index, value)`` writes one entry
    (``index``: the flat index inside that plane)."""

    __slots__ = ("data", "_at")

    def __init__(self, planes: Sequence[Plane]):
        self._at = {name: off for name, (off, _) in plane_offsets(planes).items()}
        self.data = [0.0] * tensor_size(planes)

    def set(self, name: str, index: int, value: float = 1.0) -> None:
        self.data[self._at[name] + index] = value

    def offset(self, name: str) -> int:
        return self._at[name]


#: The planes of a game that declares none: whose turn it is (the spine's default).
def default_planes(num_players: int) -> tuple[Plane, ...]:
    return (Plane("current_player", (num_players,), "1 at the seat to move (all 0 at chance or the end)"),
            Plane("observer", (num_players,), "1 at the observing seat"))


__all__ = ["Plane", "TensorBuilder", "default_planes", "plane_offsets", "tensor_size"]
