"""Named tensor planes, written in place into float32 arrays (DESIGN.md "interop/"; issues 19, 45).

A game's observation (or information-state) tensor is the concatenation of named
:class:`Plane` values, each flattened in C order. ``Game.observation_planes()`` lists them;
``State.observation_tensor(player, out=None)`` returns (or writes into ``out``) a ``float32``
NumPy array of that layout.

How a game writes them: its :class:`TensorSpec` (one per game instance, registered for the
game's class by the package that composes the game: :func:`register_tensors`) describes a
tensor as

* **bits**: the 0/1 entries, as one Python ``int`` whose bit ``i`` is entry ``table[i]`` of the
  flat tensor (a game packs its bitboards side by side with shifts: ``own | opp << 45``), and
* **scalars**: the few real-valued entries, as raw numbers (a counter), each written divided by its
  fixed divisor (100) at its fixed flat index.

That form makes writing cheap where it matters: a :class:`TensorBuffer` keeps one tensor in a
preallocated array and, for the next state, XORs the new bits with the ones it holds and
rewrites only the entries that changed (an action changes a handful of cells); the OpenSpiel
observer, the PettingZoo and Gymnasium environments and the engine's own
``State.observation_tensor`` all go through it or :func:`write_tensor`. No Python list of
floats is built anywhere.
"""

from __future__ import annotations

from math import prod
from typing import TYPE_CHECKING, NamedTuple, Sequence

import numpy as np

from .options import check_player

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game, State

#: A state's tensor as (bits, scalars): see the module docstring.
Features = tuple[int, tuple[float, ...]]


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


class Layout:
    """Where a :data:`Features` value goes in the flat tensor of ``planes``.

    Attributes:
        planes: the named planes, in order; ``size`` their total length.
        table: bit ``i`` of the features' ``bits`` -> flat index (every 0/1 entry once).
        scalars: scalar ``j`` of the features -> flat index.
        divisors: scalar ``j`` is written as ``value / divisors[j]``.
        offsets: ``{plane name: flat offset}``.

    Build one with :meth:`bits_of` / :meth:`scalar_of` from a plane list, concatenating the
    bit tables in the order the game packs its ``int``::

        layout = Layout(planes)
        table = layout.bits_of("own", cells) + layout.bits_of("opp", cells)
        layout = layout.with_bits(table, scalars=(layout.scalar_of("no_progress"),), divisors=(100,))
    """

    __slots__ = ("planes", "size", "table", "scalars", "divisors", "offsets")

    def __init__(self, planes: Sequence[Plane], table: Sequence[int] = (), scalars: Sequence[int] = (),
                 divisors: Sequence[float] | None = None):
        self.planes = tuple(planes)
        self.size = tensor_size(self.planes)
        self.offsets = {name: off for name, (off, _) in plane_offsets(self.planes).items()}
        self.table = tuple(table)
        self.scalars = tuple(scalars)
        self.divisors = tuple(float(x) for x in divisors) if divisors is not None else (1.0,) * len(self.scalars)
        if len(self.divisors) != len(self.scalars) or 0.0 in self.divisors:
            raise ValueError("one divisor (not 0) per scalar")

    def bits_of(self, plane: str, cells: Sequence[int] | None = None) -> tuple[int, ...]:
        """Flat indices of ``plane``'s entries ``cells`` (default: all of them, in order): the
        table part of a group of bits that fills that plane."""
        off = self.offsets[plane]
        if cells is None:
            cells = range(dict((p.name, p.size) for p in self.planes)[plane])
        return tuple(off + c for c in cells)

    def scalar_of(self, plane: str, index: int = 0) -> int:
        """Flat index of entry ``index`` of ``plane`` (a real-valued scalar)."""
        return self.offsets[plane] + index

    def with_bits(self, table: Sequence[int], scalars: Sequence[int] = (),
                  divisors: Sequence[float] | None = None) -> "Layout":
        """This layout with its bit table and scalar indices (checked: inside the tensor, no
        entry both a bit and a scalar, no bit given twice except a padding bit's -1)."""
        table = tuple(table)
        used = [i for i in table if i >= 0]
        if len(set(used)) != len(used) or set(used) & set(scalars):
            raise ValueError("a tensor entry is given twice in the layout")
        if any(not 0 <= i < self.size for i in (*used, *scalars)):
            raise ValueError("a layout index is outside the tensor")
        return Layout(self.planes, table, scalars, divisors)


def write_tensor(layout: Layout, features: Features, out: np.ndarray) -> np.ndarray:
    """Write ``features`` into ``out`` (a float32 array of ``layout.size``; every entry is
    written, so it need not be zeroed) and return it."""
    bits, scalars = features
    out.fill(0.0)
    mv = memoryview(out)
    table = layout.table
    while bits:
        low = bits & -bits
        mv[table[low.bit_length() - 1]] = 1.0
        bits ^= low
    for i, v, k in zip(layout.scalars, scalars, layout.divisors):
        mv[i] = v / k
    return out


class TensorBuffer:
    """One preallocated tensor kept up to date by differences.

    ``update(features)`` rewrites only the entries whose bit changed since the last update (and
    every scalar), then returns :attr:`array` — the same array each time: copy it to keep it.
    Nothing else may write into :attr:`array` (its contents are what the next update diffs
    against).

    Attributes:
        array: ``float32`` of shape ``(layout.size,)``.
        views: ``{plane name: view of array in the plane's shape}``.
    """

    __slots__ = ("layout", "array", "views", "_mv", "_bits", "_scalars", "_table", "_scalar_at")

    _scalars: tuple[float, ...]

    def __init__(self, layout: Layout):
        self.layout = layout
        self.array = np.zeros(layout.size, np.float32)
        self.views = {p.name: self.array[off:off + p.size].reshape(p.shape)
                      for p, off in zip(layout.planes, (layout.offsets[p.name] for p in layout.planes))}
        self._mv = memoryview(self.array)
        self._bits = 0
        self._scalars = (0,) * len(layout.scalars)
        self._table = layout.table
        self._scalar_at = tuple(zip(layout.scalars, layout.divisors))

    def update(self, features: Features) -> np.ndarray:
        bits, scalars = features
        diff = bits ^ self._bits
        if diff:
            mv = self._mv
            table = self._table
            while diff:
                low = diff & -diff
                mv[table[low.bit_length() - 1]] = 1.0 if bits & low else 0.0
                diff ^= low
            self._bits = bits
        if scalars != self._scalars:
            mv = self._mv
            for (i, k), new, old in zip(self._scalar_at, scalars, self._scalars):
                if new != old:
                    mv[i] = new / k
            self._scalars = scalars
        return self.array

    def clear(self) -> None:
        """All zeros again (as new)."""
        self.array.fill(0.0)
        self._bits = 0
        self._scalars = (0,) * len(self._scalar_at)


class TensorSpec:
    """How one game instance lays out and writes its tensors (see the module docstring).

    Subclasses set :attr:`observation` (and :attr:`information_state` where it differs: hidden
    information) in ``__init__`` and implement :meth:`observation_features` (and
    :meth:`information_state_features`). Each validates ``player`` (``ValueError`` for a
    player that is not a seat, as :func:`abstracta.core.game.check_player`).

    The default, for a game that registers none: two one-hot planes of ``num_players``
    floats, ``current_player`` (all 0 at chance and at the end) and ``observer``.
    """

    observation: Layout
    information_state: Layout

    def __init__(self, game: "Game"):
        self.game = game
        n = game.num_players
        layout = Layout((Plane("current_player", (n,), "1 at the seat to move (all 0 at chance or the end)"),
                         Plane("observer", (n,), "1 at the observing seat")))
        self.observation = layout.with_bits(layout.bits_of("current_player") + layout.bits_of("observer"))
        self.information_state = self.observation

    def observation_features(self, state: "State", player: int) -> Features:
        n = self.game.num_players
        player = check_player(player, n)
        mover = state.current_player()
        return ((1 << mover if mover >= 0 else 0) | 1 << (n + player), ())

    def information_state_features(self, state: "State", player: int) -> Features:
        """Default: the observation's (perfect information: the position decides play)."""
        return self.observation_features(state, player)


#: game class -> its TensorSpec class (:func:`register_tensors`).
_SPECS: dict[type, type[TensorSpec]] = {}


def register_tensors(game_class: type, spec_class: type[TensorSpec]) -> None:
    """Declare ``spec_class`` the tensors of ``game_class`` (and its subclasses). A game
    package's entry module calls this, so that the rules never import their tensors."""
    _SPECS[game_class] = spec_class


def spec_class_of(game_class: type) -> type[TensorSpec]:
    """The registered spec class of ``game_class`` (through its bases), else :class:`TensorSpec`."""
    for cls in game_class.__mro__:
        spec = _SPECS.get(cls)
        if spec is not None:
            return spec
    return TensorSpec


def default_planes(num_players: int) -> tuple[Plane, ...]:
    """The planes of a game that declares none: whose turn it is (the spine's default)."""
    return (Plane("current_player", (num_players,), "1 at the seat to move (all 0 at chance or the end)"),
            Plane("observer", (num_players,), "1 at the observing seat"))


def pack(bitboards: Sequence[int], width: int) -> int:
    """``bitboards[0] | bitboards[1] << width | …``: bitboards side by side in one int."""
    out = 0
    for i, b in enumerate(bitboards):
        out |= b << (i * width)
    return out


__all__ = ["Features", "Layout", "Plane", "TensorBuffer", "TensorSpec", "default_planes", "pack", "plane_offsets",
           "register_tensors", "spec_class_of", "tensor_size", "write_tensor"]

