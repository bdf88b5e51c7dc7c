"""Named tensor planes, written in place into float32 arrays (DESIGN.md "interop/"; issues 19, 45).

A game's observation (or information-state) tensor is the concatenation of named
:class:`Plane` values, each flattened in C order. ``Game.observation_planes()`` lists them;
``State.observation_tensor(player, out=None)`` returns (or writes into ``out``) a ``float32``
NumPy array of that layout.

How a game writes them: its :class:`TensorSpec` (one per game instance, registered for the
game's class by the package that composes the game: :func:`register_tensors`) gives a state's
tensor as :data:`Features`:

* **blocks** of 0/1 entries, each a Python ``int`` whose bit ``i`` is the entry ``table[i]`` of
  that block's table — the game's own bitboards as they are (its pieces of one colour, a
  one-hot seat as ``1 << seat``), and
* **scalars**: the few real-valued entries, as raw numbers (a counter), each written divided
  by its fixed divisor (100) at its fixed flat index.

That form makes writing cheap where it matters: a :class:`TensorBuffer` keeps one tensor in a
preallocated array and, for the next state, compares block by block and rewrites only the
entries whose bit changed (an action changes a handful of cells); the OpenSpiel observer, the
PettingZoo and Gymnasium environments and the engine's own ``State.observation_tensor`` all go
through it or :func:`write_tensor`. Where a list of floats is the API's form (OpenSpiel's
``state.observation_tensor()``), a :class:`ListBuffer` keeps that list by the same differences.
"""

from __future__ import annotations

import threading
from array import array as c_array
from itertools import compress
from math import prod
from operator import ne
from typing import TYPE_CHECKING, Any, NamedTuple, Sequence

import numpy as np

from .options import check_player

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game, State

#: A state's tensor as (blocks, scalars): see the module docstring.
Features = tuple[tuple[int, ...], tuple[float, ...]]


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
        tables: per block, bit ``i`` -> flat index (``-1``: a bit never set, such as padding).
        scalars: scalar ``j`` of the features -> flat index.
        divisors: scalar ``j`` is written as ``value / divisors[j]``.
        offsets: ``{plane name: flat offset}``.

    Build one from a plane list with :meth:`cells` and :meth:`scalar_of`::

        layout = Layout(planes)
        layout = layout.with_blocks([layout.cells("own", order), layout.cells("opp", order)],
                                    scalars=[layout.scalar_of("no_progress")], divisors=[100])
    """

    __slots__ = ("planes", "size", "tables", "scalars", "divisors", "offsets", "_sizes")

    def __init__(self, planes: Sequence[Plane], tables: Sequence[Sequence[int]] = (), scalars: Sequence[int] = (),
                 divisors: Sequence[float] | None = None):
        self.planes = tuple(planes)
        self.size = tensor_size(self.planes)
        self.offsets = {name: off for name, (off, _) in plane_offsets(self.planes).items()}
        self._sizes = {p.name: p.size for p in self.planes}
        self.tables = tuple(tuple(t) for t in tables)
        self.scalars = tuple(scalars)
        self.divisors = tuple(float(x) for x in divisors) if divisors is not None else (1.0,) * len(self.scalars)
        if len(self.divisors) != len(self.scalars) or 0.0 in self.divisors:
            raise ValueError("one divisor (not 0) per scalar")

    def cells(self, plane: str, order: Sequence[int] | None = None, start: int = 0) -> tuple[int, ...]:
        """Flat indices of ``plane``'s entries ``start + order[i]`` (default: all of them, in
        order): the table of a block whose bit ``i`` is that entry."""
        off = self.offsets[plane] + start
        if order is None:
            order = range(self._sizes[plane] - start)
        return tuple(-1 if c < 0 else off + c for c in order)

    def scalar_of(self, plane: str, index: int = 0) -> int:
        """Flat index of entry ``index`` of ``plane`` (a real-valued scalar)."""
        return self.offsets[plane] + index

    def with_blocks(self, tables: Sequence[Sequence[int]], scalars: Sequence[int] = (),
                    divisors: Sequence[float] | None = None) -> "Layout":
        """This layout with its block tables and scalar indices (checked: inside the tensor, no
        entry given twice, nor both a bit and a scalar)."""
        used = [i for t in tables for i in t if i >= 0]
        if len(set(used)) != len(used) or set(used) & set(scalars) or len(set(scalars)) != len(scalars):
            raise ValueError("a tensor entry is given twice in the layout")
        if any(not 0 <= i < self.size for i in (*used, *scalars)):
            raise ValueError("a layout index is outside the tensor")
        return Layout(self.planes, tables, scalars, divisors)


def write_tensor(layout: Layout, features: Features, out: np.ndarray) -> np.ndarray:
    """Write ``features`` into ``out`` (a float32 array of ``layout.size``; every entry is
    written, so it need not be zeroed) and return it."""
    blocks, scalars = features
    out.fill(0.0)
    mv = memoryview(out)
    for table, bits in zip(layout.tables, blocks):
        while bits:
            low = bits & -bits
            mv[table[low.bit_length() - 1]] = 1.0
            bits ^= low
    for i, v, k in zip(layout.scalars, scalars, layout.divisors):
        mv[i] = v / k
    return out


def _powers(n: int) -> tuple[int, ...]:
    """``(0, 1, 2, 4, …, 1 << (n - 1))``: entry ``i`` is the bit whose ``bit_length()`` is ``i``."""
    return (0, *(1 << i for i in range(n)))


class TensorBuffer:
    """One preallocated tensor kept up to date by differences.

    ``update(features)`` rewrites only the entries whose bit changed since the last update, and
    the scalars that changed, then returns :attr:`array` — the same array each time: copy it to
    keep it. Nothing else may write into :attr:`array` (its contents are what the next update
    compares against).

    Attributes:
        array: ``float32`` of shape ``(layout.size,)``.
        views: ``{plane name: view of array in the plane's shape}``.
    """

    __slots__ = ("layout", "array", "views", "_mv", "_blocks", "_scalars", "_tables", "_pow", "_scalar_at", "_bidx",
                 "_sidx", "_start")

    _blocks: tuple[int, ...]
    _scalars: tuple[float, ...]

    def __init__(self, layout: Layout):
        self.layout = layout
        self.array = np.zeros(layout.size, np.float32)
        self.views = {p.name: self.array[off:off + p.size].reshape(p.shape)
                      for p, off in zip(layout.planes, (layout.offsets[p.name] for p in layout.planes))}
        self._mv = memoryview(self.array)  # the writes' target: one entry costs a store, no NumPy call
        # bits are taken from the top: a bit's bit_length() indexes its table (shifted by one)
        # and the powers, which costs fewer steps per bit than isolating the lowest one
        self._tables = tuple((-1, *t) for t in layout.tables)
        self._pow = _powers(max((len(t) for t in layout.tables), default=0))
        self._scalar_at = tuple(zip(layout.scalars, layout.divisors))
        self._blocks = (0,) * len(layout.tables)
        self._scalars = (0,) * len(layout.scalars)
        self._bidx = tuple(range(len(layout.tables)))
        self._sidx = tuple(range(len(layout.scalars)))
        #: the last episode's first tensor and its features (:meth:`restart`), or ``None``
        self._start: tuple[Any, tuple[int, ...], tuple[float, ...]] | None = None

    def __reduce__(self) -> tuple:
        # a memoryview does not pickle: rebuilt from the array (copied, as pickling copies)
        return _rebuild_buffer, (self.layout, self.array, self._blocks, self._scalars, type(self))

    def update(self, features: Features) -> np.ndarray:
        blocks, scalars = features
        old_blocks = self._blocks
        if blocks != old_blocks:
            mv = self._mv
            tables = self._tables
            pw = self._pow
            # the blocks that changed, found in C (compress, map): a game has a dozen blocks and
            # an action changes one or two
            for j in compress(self._bidx, map(ne, blocks, old_blocks)):
                new = blocks[j]
                old = old_blocks[j]
                table = tables[j]
                on = new & ~old
                while on:
                    i = on.bit_length()
                    mv[table[i]] = 1.0
                    on ^= pw[i]
                off = old & ~new
                while off:
                    i = off.bit_length()
                    mv[table[i]] = 0.0
                    off ^= pw[i]
            self._blocks = blocks
        old_scalars = self._scalars
        if scalars != old_scalars:
            mv = self._mv
            at = self._scalar_at
            for j in compress(self._sidx, map(ne, scalars, old_scalars)):
                i, k = at[j]
                mv[i] = scalars[j] / k
            self._scalars = scalars
        return self.array

    def restart(self, features: Features) -> np.ndarray:
        """:meth:`update` at the start of an episode: from the last episode's first tensor, not
        from wherever the last episode ended — an episode starts where the last one did (one
        board, or a layout whose blocks differ little), far from its end (a start has every
        stone on the board: Fanorona's 44 bits written one by one cost 4 µs)."""
        start = self._start
        if start is not None:
            self.array[:] = start[0]
            self._blocks = start[1]
            self._scalars = start[2]
        out = self.update(features)
        if start is None or start[1] != self._blocks or start[2] != self._scalars:
            self._start = (out.copy(), self._blocks, self._scalars)
        return out

    def clear(self) -> None:
        """All zeros again (as new)."""
        self.array.fill(0.0)
        self._blocks = (0,) * len(self._tables)
        self._scalars = (0,) * len(self._scalar_at)


class ListBuffer(TensorBuffer):
    """The same tensor kept as a Python ``list`` of floats — OpenSpiel's form of a tensor
    (``state.observation_tensor()``) — by the same differences: ``update`` returns
    :attr:`array`, here that list, holding the values a float32 array would hold (scalars are
    rounded to float32). Its ``copy()`` (a list copy, no float made) is what makes it pay:
    NumPy's ``tolist()`` makes a new float for every entry (8 µs for Nibble's 838).

    Each entry holds a float object of its own (entry ``k``'s 0.0 or its 1.0): copying a list
    increments every entry's reference count, and a few objects shared by hundreds of entries
    make those increments wait on each other — 2.7 µs for Nibble's list against 1.0 µs."""

    __slots__ = ("_ones", "_zeros", "_f32")

    def __init__(self, layout: Layout):
        super().__init__(layout)
        self._ones = [float("1") for _ in range(layout.size)]  # float("…") makes a new object each time
        self._zeros = [float("0") for _ in range(layout.size)]
        self.array = self._zeros.copy()  # type: ignore[assignment]
        self.views = {}
        self._mv = self.array  # type: ignore[assignment]
        self._f32 = c_array("f", [0.0])  # a float32 scratch: rounds a scalar as the array would

    def update(self, features: Features) -> list[float]:  # type: ignore[override]
        blocks, scalars = features
        old_blocks = self._blocks
        if blocks != old_blocks:
            values = self._mv
            tables = self._tables
            pw = self._pow
            ones = self._ones
            zeros = self._zeros
            for j in compress(self._bidx, map(ne, blocks, old_blocks)):
                new = blocks[j]
                old = old_blocks[j]
                table = tables[j]
                on = new & ~old
                while on:
                    i = on.bit_length()
                    k = table[i]
                    values[k] = ones[k]
                    on ^= pw[i]
                off = old & ~new
                while off:
                    i = off.bit_length()
                    k = table[i]
                    values[k] = zeros[k]
                    off ^= pw[i]
            self._blocks = blocks
        old_scalars = self._scalars
        if scalars != old_scalars:
            values = self._mv
            at = self._scalar_at
            f32 = self._f32
            for j in compress(self._sidx, map(ne, scalars, old_scalars)):
                i, k = at[j]
                f32[0] = scalars[j] / k
                values[i] = f32[0]
            self._scalars = scalars
        return self.array  # type: ignore[return-value]

    def clear(self) -> None:
        self.array[:] = self._zeros  # type: ignore[index]
        self._blocks = (0,) * len(self._tables)
        self._scalars = (0,) * len(self._scalar_at)


class BufferPool(threading.local):
    """Per thread, one :class:`TensorBuffer` per player of one layout: a new array for each
    question (``array``) that costs only the entries changed since that player's last one.
    With ``kind=ListBuffer``, a new list each time."""

    def __init__(self, layout: Layout, kind: type[TensorBuffer] = TensorBuffer):
        self.layout = layout
        self.kind = kind
        self.buffers: dict[int, TensorBuffer] = {}

    def array(self, player: int, features: Features) -> np.ndarray:
        """``features`` (of ``player``, already validated) as a new float32 array (a new list
        with ``kind=ListBuffer``)."""
        buffer = self.buffers.get(player)
        if buffer is None:
            buffer = self.buffers[player] = self.kind(self.layout)
        return buffer.update(features).copy()


def _rebuild_buffer(layout: Layout, array: Any, blocks: tuple[int, ...], scalars: tuple[float, ...],
                    kind: type[TensorBuffer] = TensorBuffer) -> TensorBuffer:
    buffer = kind(layout)
    buffer.array[:] = array
    buffer._blocks = blocks
    buffer._scalars = scalars
    return buffer


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
        self.observation = layout.with_blocks([layout.cells("current_player"), layout.cells("observer")])
        self.information_state = self.observation

    def observation_features(self, state: "State", player: int) -> Features:
        n = self.game.num_players
        player = check_player(player, n)
        mover = state.current_player()
        return (1 << mover if mover >= 0 else 0, 1 << player), ()

    def information_state_features(self, state: "State", player: int) -> Features:
        """Default: the observation's (perfect information: the position decides play)."""
        return self.observation_features(state, player)

    def pool(self, info: bool = False) -> BufferPool:
        """This spec's buffers (per thread and player) of the observation or information state."""
        pools = self.__dict__.get("_pools")
        if pools is None:
            pools = self.__dict__["_pools"] = (BufferPool(self.observation), BufferPool(self.information_state))
        return pools[info]

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "_pools"}  # buffers are per process


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


__all__ = ["BufferPool", "Features", "Layout", "ListBuffer", "Plane", "TensorBuffer", "TensorSpec", "default_planes", "plane_offsets",
           "register_tensors", "spec_class_of", "tensor_size", "write_tensor"]

