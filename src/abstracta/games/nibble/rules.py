"""Nibble rules: state, legal takes, wins, make/unmake. Spec: nibble.md.

One engine action takes one disc (action = the cell's canonical index, §1) or ends the turn
(action ``END`` = number of cells). A turn is one or more takes of one colour, then ``end``;
the turn ends by itself when no further take of that colour is legal (§4). Instant wins are
tested after every take (§5); an empty board is decided by the majority of majorities.

Position text (§6): ``<rows> <to-move> <coll0> <coll1>[ take=X]``. A finished game is written
with the seat *after* the winner's turn to move (the turn is over) and no ``take=``; reading a
text checks the end conditions for the player who just moved (the seat not to move at a turn
boundary), as rules/README.md asks.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, ClassVar, Sequence

from ...core.errors import IllegalActionError, NotationError, not_legal
from ...core.description import GameDescription
from ...core.game import TERMINAL, Game, State
from ...core.options import Option, parse_int, seed_option
from ...core.rng import SplitMix64
from ...core.view import message
from .geometry import VARIANTS, Geometry, geometry, seeded_layout
from .view import NibbleView


# --------------------------------------------------------------------------------------------
# Bitboard helpers (module level: shared by the state, notation and the evaluator)
# --------------------------------------------------------------------------------------------
def is_cut(g: Geometry, rest: int, b: int) -> bool:
    """Whether removing the disc on bit ``b`` split the connected board ``rest | 1<<b``.

    ``rest`` is the board without that disc. Only the disc's occupied neighbours matter: the
    board stays connected iff they are connected in ``rest`` (§4 condition 3). A free disc has
    at most two occupied neighbours at right angles (square) or three in a row (hex), so the
    common-neighbour test usually decides; otherwise a bidirectional bitboard flood fill does.
    """
    if g.ring[b] & rest in g.local_ok[b]:
        return False
    return _neighbours_split(g, rest, g.nmask[b] & rest)


def _neighbours_split(g: Geometry, rest: int, nb: int) -> bool:
    """Whether the cells of ``nb`` (at least two) lie in different groups of ``rest``."""
    nmask = g.nmask
    a = nb & -nb
    others = nb ^ a
    dil = g.dilate
    if others & (others - 1) == 0:
        na = nmask[a.bit_length() - 1]
        if na & others or na & nmask[others.bit_length() - 1] & rest:
            return False
        reach_a, reach_b = a, others
        while True:
            grown = dil(reach_a) & rest
            if grown & reach_b:
                return False
            if grown == reach_a:
                return True
            reach_a = grown
            grown = dil(reach_b) & rest
            if grown & reach_a:
                return False
            if grown == reach_b:
                return True
            reach_b = grown
    reach = a
    while True:
        grown = dil(reach) & rest
        if grown & nb == nb:
            return False
        if grown == reach:
            return True
        reach = grown


def legal_takes(g: Geometry, occ: int, candidates: int) -> list[int]:
    """Canonical indices of the discs in ``candidates`` that may be taken now: free (§4 rule 2)
    and not splitting the board (rule 3), in canonical order."""
    free = g.free_mask(occ) & candidates
    out: list[int] = []
    cell_of_bit = g.cell_of_bit
    nmask = g.nmask
    ring = g.ring
    local_ok = g.local_ok
    while free:
        low = free & -free
        free ^= low
        b = low.bit_length() - 1
        if ring[b] & occ in local_ok[b] or not _neighbours_split(g, occ ^ low, nmask[b] & occ):
            out.append(cell_of_bit[b])
    return out


def is_connected(g: Geometry, occ: int) -> bool:
    """Whether the discs of ``occ`` form one group (or none)."""
    if not occ:
        return True
    reach = occ & -occ
    dil = g.dilate
    while True:
        grown = dil(reach) & occ
        if grown == reach:
            return reach == occ
        reach = grown


def has_instant_win(g: Geometry, counts: Sequence[int], colour: int | None = None) -> bool:
    """Instant win A or B (§5) in a collection, looking at runs through ``colour`` (or all)."""
    k = g.colours
    t = g.triple
    colours = range(k) if colour is None else (colour,)
    for c in colours:
        if counts[c] >= g.per_colour:
            return True
        for s in range(max(0, c - 2), min(c, k - 3) + 1):
            if counts[s] >= t and counts[s + 1] >= t and counts[s + 2] >= t:
                return True
    return False


def majority_winner(g: Geometry, coll0: Sequence[int]) -> int:
    """Seat that wins on an empty board (§5): seat 0 iff it holds majorities in enough colours."""
    m = g.majority
    return 0 if sum(1 for x in coll0 if x >= m) >= g.majorities else 1


@lru_cache(maxsize=None)
def zobrist(variant: str) -> tuple[list[list[int]], list[list[list[int]]], int, list[int]]:
    """Zobrist keys of a variant: (disc[bit][colour], collection[seat][colour][count], side, take[colour])."""
    g = geometry(variant)
    rng = SplitMix64(0x4E1BB1E ^ len(variant))
    disc = [[rng.next() for _ in range(g.colours)] for _ in range(len(g.cell_of_bit))]
    coll = [[[rng.next() for _ in range(g.per_colour + 1)] for _ in range(g.colours)] for _ in range(2)]
    side = rng.next()
    take = [rng.next() for _ in range(g.colours)]
    return disc, coll, side, take


# --------------------------------------------------------------------------------------------
# Game and state
# --------------------------------------------------------------------------------------------
def _check_first_player(value: Any) -> str | None:
    return None if value in (0, 1) else f"first_player is 0 or 1, got {value!r}"


class NibbleGame(Game):
    """Nibble (Jared McComb): take free discs of one colour, collect colours. Spec: nibble.md.

    Options: ``variant`` (``square9``, ``square13``, ``hex``), ``seed`` (layout and first
    player, §8), ``first_player`` (0/1; drawn from the seed when absent).
    """

    name: ClassVar[str] = "nibble"
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option("variant", "square9", "board: square9 (9x9), square13 (13x13) or hex (169 cells)",
               choices=VARIANTS),
        seed_option(),
        Option("first_player", None, "seat that moves first (0/1; drawn from the seed if absent)",
               choices=(0, 1), parser=parse_int, validate=_check_first_player),
    )

    def __init__(self, **options: Any):
        super().__init__(**options)
        self.geometry: Geometry = geometry(self.options["variant"])
        self.end_action: int = self.geometry.cells

    def describe(self) -> GameDescription:
        """Chance (the seeded layout and first player), whole-turn notation; see :mod:`.description`."""
        return self._parts.description.describe(self)

    @property
    def num_distinct_actions(self) -> int:
        """One action per cell plus ``end``."""
        return self.geometry.cells + 1

    def max_game_length(self) -> int:
        """Every take removes a disc and every turn takes one, so at most one take per cell
        plus one ``end`` per turn: 2 × cells (§5)."""
        return 2 * self.geometry.cells

    # --- states -----------------------------------------------------------------------------
    def new_initial_state(self, seed: int | None = None) -> "NibbleState":
        """A new game: the seeded layout and first player of §8; the seed is kept as ``_seed``."""
        seed = self.resolve_seed(seed)
        layout, rng_state = seeded_layout(self.geometry.variant, seed)
        first = self.options["first_player"]
        if first is None:
            rng = SplitMix64()
            rng.state = rng_state
            first = rng.below(2)
        state = NibbleState(self, layout, first)
        state._seed = seed
        return state

    def state_from_text(self, text: str) -> "NibbleState":
        """Parse a position text (§6). Raises :class:`PositionError` naming the problem."""
        return self._parts.notation.parse_position(self, text)

    # --- whole-turn notation ------------------------------------------------------------------
    def parse_move(self, state: State, text: str) -> list[int]:
        """Engine actions of one record entry: a whole-turn string ``a1+a9`` or one engine action.

        See :func:`abstracta.games.nibble.notation.parse_move`."""
        return self._parts.notation.parse_move(state, text)  # type: ignore[arg-type]

    def parse_turn(self, state: State, text: str) -> list[int]:
        """A turn as a person types it: at a turn boundary a single cell takes that disc and
        ends the turn (``a1``), like ``a1+a9`` takes both; mid-turn, one action."""
        return self._parts.notation.parse_move(state, text, whole=True)  # type: ignore[arg-type]

    def format_moves(self, initial: State, actions: Sequence[int]) -> list[str]:
        """Record entries for ``actions``: whole-turn strings where they replay exactly.

        See :func:`abstracta.games.nibble.notation.format_moves`."""
        return self._parts.notation.format_moves(initial, actions)  # type: ignore[arg-type]

    def format_turn(self, state: State, actions: Sequence[int]) -> list[str]:
        """One turn as a person types it: the whole-turn string alone (``a1`` for a1 then
        ``end``) where typing it plays exactly ``actions``. See
        :func:`abstracta.games.nibble.notation.format_turn`."""
        return self._parts.notation.format_turn(state, actions)  # type: ignore[arg-type]

    def canonical_turn(self, state: State, actions: Sequence[int]) -> list[int]:
        """The turn ``actions`` with its discs in canonical order (§4: "its discs in canonical
        order, then ``end``"); unchanged if that order does not reach the same position (an
        instant win that the canonical order would reach earlier). See
        :func:`abstracta.games.nibble.notation.canonical_turn`."""
        return self._parts.notation.canonical_turn(state, actions)  # type: ignore[arg-type]

    def turn_strings(self, state: State) -> list[str]:
        """The legal whole turns at a turn boundary, canonical turn order (§4).

        Raises :class:`AbstractaError` mid-turn (``take=`` open)."""
        return self._parts.notation.turn_strings(state)  # type: ignore[arg-type]

    # --- presentation and search ----------------------------------------------------------------
    def render(self, state: State, player: int | None = None) -> Any:
        return self._parts.render.render(state, player)  # type: ignore[arg-type]


@lru_cache(maxsize=None)
def _text_tables(variant: str) -> tuple[str, tuple[tuple[int, ...], ...]]:
    """The position text's characters by colour index (``-1``, an empty cell: ``.``, last) and
    each row's bits, per variant (a view writes the position at every move)."""
    g = geometry(variant)
    return g.letters + ".", tuple(tuple(g.bit[i] for i in row) for row in g.rows)


class NibbleState(NibbleView, State):
    """A Nibble position, with make/unmake.

    Attributes:
        occ: bitboard of occupied cells (see :mod:`.geometry` for the bit layout).
        cmask: per colour, bitboard of its discs on the board.
        board: per bit position, the colour index there (``-1`` empty).
        coll: per seat, discs held per colour.
        to_move: seat whose turn it is (after the game ends: the seat after the last mover).
        take: colour being taken in the open turn, ``-1`` at a turn boundary.
        winner: ``-1`` while running, else the winning seat.
    """

    supports_undo: ClassVar[bool] = True
    __slots__ = ("game", "geometry", "occ", "cmask", "board", "coll", "to_move", "take", "winner",
                 "_hist", "_undo", "_hash", "_legal", "_seed")

    def __init__(self, game: NibbleGame, layout: Sequence[int] | None = None, first: int = 0):
        self.game = game
        g = game.geometry
        self.geometry = g
        self.occ = 0
        self.cmask = [0] * g.colours
        self.board = [-1] * len(g.cell_of_bit)
        self.coll = [[0] * g.colours, [0] * g.colours]
        self.to_move = first
        self.take = -1
        self.winner = -1
        self._hist: list[int] = []
        self._undo: list[tuple] = []
        self._legal: list[int] | None = None
        self._seed: int | None = None
        if layout is not None:
            for i, c in enumerate(layout):
                if c >= 0:
                    b = g.bit[i]
                    self.board[b] = c
                    self.occ |= 1 << b
                    self.cmask[c] |= 1 << b
        self._hash = self._full_hash()

    def _full_hash(self) -> int:
        disc, coll, side, take = zobrist(self.geometry.variant)
        h = 0
        for b, c in enumerate(self.board):
            if c >= 0:
                h ^= disc[b][c]
        for p in (0, 1):
            for c, n in enumerate(self.coll[p]):
                h ^= coll[p][c][n]
        if self.to_move:
            h ^= side
        if self.take >= 0:
            h ^= take[self.take]
        return h

    # --- whose turn and what is legal ---------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.winner >= 0 else self.to_move

    def is_terminal(self) -> bool:
        return self.winner >= 0

    def legal_actions(self) -> list[int]:
        """Legal engine actions, canonical order: cells by canonical index, then ``end`` (§4)."""
        legal = self._legal
        if legal is None:
            if self.winner >= 0:
                legal = []
            elif self.take >= 0:
                legal = legal_takes(self.geometry, self.occ, self.cmask[self.take])
                legal.append(self.geometry.cells)
            else:
                legal = legal_takes(self.geometry, self.occ, self.occ)
            self._legal = legal
        return legal

    def apply_action(self, action: int) -> None:
        """Take the disc on cell ``action`` or end the turn. Raises :class:`IllegalActionError`."""
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        if type(action) is not int or action not in legal:
            self._refuse(action)
        g = self.geometry
        p = self.to_move
        end = g.cells
        self._hist.append(action)
        zdisc, zcoll, zside, ztake = zobrist(g.variant)
        if action == end:
            self._undo.append((action, self.take, p, self._hash, legal, -1))
            self._hash ^= ztake[self.take] ^ zside
            self.take = -1
            self.to_move = 1 - p
            self._legal = None
            return
        b = g.bit[action]
        low = 1 << b
        c = self.board[b]
        self._undo.append((action, self.take, p, self._hash, legal, c))
        self.board[b] = -1
        self.occ ^= low
        self.cmask[c] ^= low
        counts = self.coll[p]
        n = counts[c]
        counts[c] = n + 1
        h = self._hash ^ zdisc[b][c] ^ zcoll[p][c][n] ^ zcoll[p][c][n + 1]
        if self.take >= 0:
            h ^= ztake[self.take]
        if has_instant_win(g, counts, c):
            self.winner = p
        elif not self.occ:
            self.winner = majority_winner(g, self.coll[0])
        if self.winner >= 0:
            self.take = -1
            self.to_move = 1 - p
            self._legal = []
            self._hash = h ^ zside
            return
        more = legal_takes(g, self.occ, self.cmask[c])
        if more:
            more.append(end)
            self.take = c
            self._legal = more
            self._hash = h ^ ztake[c]
        else:
            self.take = -1
            self.to_move = 1 - p
            self._legal = None
            self._hash = h ^ zside

    def _refuse(self, action: Any) -> None:
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalActionError(f"action {action!r} is not an integer")
        if self.winner >= 0:
            raise IllegalActionError(f"action {action} is not legal: the game is over")
        raise IllegalActionError(f"action {action} ({self._describe(action)}) is not legal in {self.to_text()!r}")

    def _describe(self, action: int) -> str:
        g = self.geometry
        if action == g.cells:
            return "end"
        if 0 <= action < g.cells:
            return g.names[action]
        return f"outside 0..{g.cells}"

    def undo_action(self) -> None:
        """Take back the last action (make/unmake). Raises :class:`IllegalActionError` if none."""
        if not self._undo:
            raise IllegalActionError("no action to undo")
        action, take, p, h, legal, c = self._undo.pop()
        self._hist.pop()
        g = self.geometry
        if c >= 0:
            b = g.bit[action]
            low = 1 << b
            self.board[b] = c
            self.occ |= low
            self.cmask[c] |= low
            self.coll[p][c] -= 1
        self.take = take
        self.to_move = p
        self.winner = -1
        self._hash = h
        self._legal = legal

    # --- notation -----------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        """The cell name (``a1``) or ``end``. Raises :class:`IllegalActionError` out of range."""
        g = self.geometry
        if type(action) is int and 0 <= action < g.cells:
            return g.names[action]
        if action == g.cells:
            return "end"
        raise IllegalActionError(f"action {action!r} is not an action of nibble {g.variant}")

    def string_to_action(self, text: str) -> int:
        """Parse a cell name or ``end``, in either case (``A1`` is ``a1``: cells and ``end``
        are lower case, so case tells no two actions apart). :class:`NotationError` for
        non-notation, :class:`IllegalActionError` (with the reason) for an illegal take."""
        g = self.geometry
        t = text.strip() if isinstance(text, str) else text
        if isinstance(t, str) and t.lower() == "end":
            action = g.cells
        else:
            action = g.index.get(t.lower(), -1) if isinstance(t, str) else -1
            if action < 0:
                raise NotationError(f"{text!r} is not a cell of {self.game._parts.description.board_name(g.variant)} or 'end'",
                                    i18n=message("nibble.refusal.not_cell_or_end", move=repr(text),
                                                 board=message(f"nibble.refusal.board.{g.variant}")))
        if action in self.legal_actions():
            return action
        raise not_legal(repr(t), self._why_illegal(action))

    def _why_illegal(self, action: int) -> tuple[str, dict[str, Any]]:
        """Why taking ``action`` is refused, in English and as a message of the catalogs."""
        g = self.geometry
        cell = g.names[action] if action < g.cells else "end"
        if self.winner >= 0:
            return "the game is over", message("nibble.refusal.over")
        if action == g.cells:
            return "'end' is only possible after a take, while the turn is open", message("nibble.refusal.end")
        b = g.bit[action]
        c = self.board[b]
        if c < 0:
            return f"{cell} is empty", message("nibble.refusal.empty", cell=cell)
        if self.take >= 0 and c != self.take:
            return (f"this turn takes colour {g.letters[self.take]}, {cell} is {g.letters[c]}",
                    message("nibble.refusal.colour", take=g.letters[self.take], cell=cell, colour=g.letters[c]))
        if not (g.free_mask(self.occ) >> b) & 1:
            sides = 3 if g.hex else 2
            return (f"{cell} is not free (needs {sides} consecutive exposed sides)",
                    message("nibble.refusal.not_free", cell=cell, n=sides))
        return f"taking {cell} would split the board", message("nibble.refusal.split", cell=cell)

    # --- results ------------------------------------------------------------------------------
    def returns(self) -> list[float]:
        if self.winner < 0:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    # --- copies, history, text ------------------------------------------------------------------
    def clone(self) -> "NibbleState":
        other = NibbleState.__new__(NibbleState)
        other.game = self.game
        other.geometry = self.geometry
        other.occ = self.occ
        other.cmask = self.cmask[:]
        other.board = self.board[:]
        other.coll = [self.coll[0][:], self.coll[1][:]]
        other.to_move = self.to_move
        other.take = self.take
        other.winner = self.winner
        other._hist = self._hist[:]
        other._undo = self._undo[:]
        other._hash = self._hash
        other._legal = self._legal
        other._seed = self._seed
        return other

    def history(self) -> list[int]:
        return list(self._hist)

    def to_text(self) -> str:
        """Position text (§6)."""
        g = self.geometry
        letters = g.letters
        board = self.board
        chars, row_bits = _text_tables(g.variant)
        rows = "/".join("".join([chars[board[b]] for b in row]) for row in row_bits)
        text = (f"{rows} {self.to_move} {'-'.join(map(str, self.coll[0]))} "
                f"{'-'.join(map(str, self.coll[1]))}")
        if self.take >= 0:
            text += f" take={letters[self.take]}"
        return text

    def hash_key(self) -> int:
        """Incremental Zobrist key of board, collections, side to move and open take colour."""
        return self._hash

    # --- convenience for evaluators and renderers ---------------------------------------------------
    def colour_at(self, cell: int) -> int:
        """Colour index of the disc on canonical cell ``cell`` (``-1`` if empty)."""
        return self.board[self.geometry.bit[cell]]

    def free_cells(self) -> list[int]:
        """Canonical indices of the free discs (§4 rule 2), whether or not taking them splits."""
        g = self.geometry
        free = g.free_mask(self.occ)
        out = []
        while free:
            low = free & -free
            free ^= low
            out.append(g.cell_of_bit[low.bit_length() - 1])
        return out


__all__ = ["NibbleGame", "NibbleState", "legal_takes", "is_cut", "is_connected", "has_instant_win",
           "majority_winner"]
