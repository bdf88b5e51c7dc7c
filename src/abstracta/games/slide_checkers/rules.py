"""Slide Checkers (Fibonacci Checkers) rules engine for 2, 3 and 4 players.

Spec: slide-checkers.md. Positions are per-seat bitboards (``sq = x * 12 + y``, see
:mod:`.tables`); make/unmake through :meth:`SlideCheckersState.undo_action`.

Action ids and their notation, and the position text written out, are in :mod:`.notation`; the
position text is read here (:func:`parse_position`), since it makes a state.
"""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

from ...core.errors import IllegalActionError, NotationError, OptionError, PositionError, game_over, not_legal
from ...core.description import GameDescription
from ...core.game import TERMINAL, Game, State
from ...core.memos import memo
from ...core.options import Option, ascii_digits, parse_int
from ...core.view import message
from .geometry import BOARDS, MAJORS, NUM_SQUARES, SIZE, SQUARE_INDEX, SQUARE_NAMES, board_svg, colour_masks
from .notation import (CONT_BASE, JUMP_BASE, KIND, MOVE_BASE, MOVE_PHASE, NO_JUMP_LIMIT, NUM_ACTIONS, PASS, action_string,
                       action_texts,
                       format_position, jump_string, parse_action)
from .tables import COLK, COLY, DIR_STEP, FULL, JUMPS, NB, NOT_Y0, NOT_Y11, RANK, SQ_OF_RANK, ZOBRIST
from .view import SlideCheckersView


#: pieces per player by number of players (Spec §3)
PIECES: dict[int, int] = {2: 7, 3: 5, 4: 4}
#: default seat colours by number of players (Spec §2.3)
DEFAULT_COLOURS: dict[int, str] = {2: "GB", 3: "GBR", 4: "GBRY"}

_PLACE, _MOVE = 0, MOVE_PHASE


def parse_board(text: str) -> tuple[int, int]:
    """``"5,1"`` (also ``"(5, 1)"``) -> ``(5, 1)``; ``ValueError`` otherwise."""
    body = text.strip().strip("()")
    parts = [p.strip() for p in body.split(",")]
    if len(parts) != 2:
        raise ValueError(f"expected A,B (e.g. 5,1), got {text!r}")
    try:
        return int(parts[0], 10), int(parts[1], 10)
    except ValueError:
        raise ValueError(f"expected A,B (e.g. 5,1), got {text!r}") from None


def parse_colours(text: str) -> str:
    """``"gbr"``/``"G,B,R"`` -> ``"GBR"`` (one major colour letter per seat)."""
    return "".join(ch for ch in text.strip().upper() if ch not in ", ")


def _check_colours(value: Any) -> str | None:
    if not isinstance(value, str):
        return f"expected a string of colour letters such as GBR, got {value!r}"
    for ch in value:
        if ch not in MAJORS:
            return f"{ch!r} in {value!r} is not a major colour (one of {' '.join(MAJORS)})"
    if len(set(value)) != len(value):
        return f"colours must be distinct, got {value!r}"
    return None


def _board_text(value: tuple[int, int]) -> str:
    return f"{value[0]},{value[1]}"


class SlideCheckersGame(Game):
    """Slide Checkers for 2–4 players on the mod-12 coloured 12×12 board.

    Options (Spec: slide-checkers.md "Options", §2.3): ``players`` 2/3/4; ``board`` one of
    :data:`.geometry.BOARDS` (text ``"5,1"``); ``colours`` one distinct major letter per seat
    (text ``"GBR"``; absent = §2.3 defaults). Raises :class:`OptionError` on a bad combination.
    """

    name = "slide-checkers"
    option_specs = (
        Option("players", 2, "number of players (2, 3 or 4)", choices=(2, 3, 4), parser=parse_int),
        Option("board", (1, 1), "colouring (a,b) of the map (p,q) -> (q, a*q+b*p mod 12)",
               choices=BOARDS, parser=parse_board, to_text=_board_text),
        Option("colours", None, "one major colour letter (R O Y G B) per seat, e.g. GBR",
               parser=parse_colours, validate=_check_colours),
    )
    min_players = 2
    max_players = 4

    def __init__(self, **options: Any):
        super().__init__(**options)
        n = self.options["players"]
        colours = self.options["colours"] or DEFAULT_COLOURS[n]
        if len(colours) != n:
            raise OptionError(f"option colours: {colours!r} has {len(colours)} letters for {n} players")
        #: seat colour letters, e.g. "GB"
        self.colours: str = colours
        self.board: tuple[int, int] = tuple(self.options["board"])  # type: ignore[assignment]
        masks = colour_masks(*self.board)
        #: FRIEND[seat]: bitboard of the seat's friendly squares
        self.friend: tuple[int, ...] = tuple(masks[c] for c in colours)
        self.pieces_per_player = PIECES[n]

    def describe(self) -> GameDescription:
        """Seat names and colours follow the ``colours`` option; see :mod:`.description`."""
        return self._parts.description.describe(self)

    @property
    def num_players(self) -> int:
        return self.options["players"]

    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def new_initial_state(self, seed: int | None = None) -> "SlideCheckersState":
        """Empty board, placement phase, seat 0 to place (Spec §3)."""
        st = SlideCheckersState(self)
        st._remain = [self.pieces_per_player] * self.num_players
        st._advance_placement(0)
        return st

    def state_from_text(self, text: str) -> "SlideCheckersState":
        """Parse ``<pieces> <phase> <to-move> [J:<sq>] [nj=<n>] [passes=<n>]`` (Spec §6).

        Raises :class:`PositionError` naming the offending part."""
        return parse_position(self, text)

    def render(self, state: State, player: int | None = None) -> Any:
        return self._parts.render.render_state(self, state, player)  # type: ignore[arg-type]

    def render_board(self) -> Any:
        """The coloured board of this game's ``board`` option as ``rich.text.Text``."""
        return self._parts.render.render_board(*self.board)

    def board_svg(self) -> str:
        """A printable SVG of this game's board (Spec §2; see :func:`.geometry.board_svg`)."""
        return board_svg(*self.board)


class UndoFrame(NamedTuple):
    """One entry of the undo stack: the state before one action. Stored as a plain tuple in
    this layout, since unpacking a tuple subclass misses CPython's exact-tuple fast path."""

    bitboards: tuple[int, ...]
    occupied: int
    phase: int
    remain: tuple[int, ...]
    turn: int
    jump_square: int
    no_jump: int
    passes: int
    over: bool
    winner: int
    zobrist: int
    legal: list[int]


class SlideCheckersState(SlideCheckersView, State):
    """One Slide Checkers position (Spec §3–§6)."""

    supports_undo: ClassVar[bool] = True
    __slots__ = ("game", "_n", "_bb", "_occ", "_phase", "_remain", "_turn", "_jsq", "_nj",
                 "_passes", "_over", "_winner", "_z", "_hist", "_undo", "_legal")

    def __init__(self, game: SlideCheckersGame):
        self.game = game
        self._n = game.num_players
        self._bb: list[int] = [0] * self._n
        self._occ = 0
        self._phase = _PLACE
        self._remain: list[int] = [0] * self._n
        self._turn = 0
        self._jsq = -1
        self._nj = 0
        self._passes = 0
        self._over = False
        self._winner = -1
        self._z = 0
        self._hist: list[int] = []
        self._undo: list[tuple] = []  # UndoFrame layout
        self._legal: list[int] | None = None

    # --- facts ------------------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self._over else self._turn

    def returns(self) -> list[float]:
        """Winner +1, others −1; draw: survivors 0, eliminated −1 (Spec §5). Zeros while running."""
        if not self._over:
            return [0.0] * self._n
        if self._winner >= 0:
            return [1.0 if i == self._winner else -1.0 for i in range(self._n)]
        return [0.0 if self._bb[i] else -1.0 for i in range(self._n)]

    def history(self) -> list[int]:
        return list(self._hist)

    def pieces(self, seat: int) -> int:
        """Bitboard of ``seat``'s pieces."""
        return self._bb[seat]

    @property
    def phase(self) -> str:
        """``"placement"`` or ``"movement"``."""
        return "placement" if self._phase == _PLACE else "movement"

    @property
    def to_place(self) -> tuple[int, ...]:
        """Pieces still to place per seat."""
        return tuple(self._remain)

    @property
    def jump_square(self) -> int:
        """Square of the piece that must continue a jump, or −1."""
        return self._jsq

    @property
    def winner(self) -> int:
        """The winning seat of a finished game, −1 otherwise (also for a draw)."""
        return self._winner if self._over else -1

    def is_terminal(self) -> bool:
        return self._over

    # --- copies -------------------------------------------------------------------------------
    def clone(self) -> "SlideCheckersState":
        st = SlideCheckersState.__new__(SlideCheckersState)
        st.game = self.game
        st._n = self._n
        st._bb = self._bb[:]
        st._occ = self._occ
        st._phase = self._phase
        st._remain = self._remain[:]
        st._turn = self._turn
        st._jsq = self._jsq
        st._nj = self._nj
        st._passes = self._passes
        st._over = self._over
        st._winner = self._winner
        st._z = self._z
        st._hist = self._hist[:]
        st._undo = self._undo[:]
        st._legal = self._legal
        return st

    def hash_key(self) -> int:
        """Zobrist key of the pieces (incremental) combined with side to move, phase and counters."""
        return self._z ^ hash((self._turn, self._jsq, self._phase, tuple(self._remain), self._nj,
                               self._passes, self._over))

    def jump_targets(self, seat: int) -> int:
        """Bitboard of the enemy pieces ``seat``'s pieces could jump as a first jump if it were
        ``seat``'s turn (launches from transit squares included; Spec §4.3). For evaluation."""
        own = self._bb[seat]
        occ = self._occ
        empty = FULL ^ occ
        enemy = occ ^ own
        region = empty & self.game.friend[seat]
        out = 0
        b = own
        while b:
            low = b & -b
            b ^= low
            s = low.bit_length() - 1
            t = NB[s] & region
            while t:
                v = t | ((t << 1) & NOT_Y0) | ((t >> 1) & NOT_Y11)
                nt = (v | (v << SIZE) | (v >> SIZE)) & region
                if nt == t:
                    break
                t = nt
            lset = t | low
            e2 = empty | low
            while lset:
                lb = lset & -lset
                lset ^= lb
                pl = lb.bit_length() - 1
                if NB[pl] & enemy:
                    for _, over, land in JUMPS[pl]:
                        if enemy >> over & 1 and e2 >> land & 1:
                            out |= 1 << over
        return out

    # --- placement helpers ----------------------------------------------------------------------
    def _place_mask(self, p: int) -> int:
        """Legal placement squares of seat ``p`` (Spec §3): friendly, empty, not adjacent to
        a piece of another colour."""
        others = self._occ ^ self._bb[p]
        v = others | ((others << 1) & NOT_Y0) | ((others >> 1) & NOT_Y11)
        near = (v | (v << SIZE) | (v >> SIZE))
        return self.game.friend[p] & ~self._occ & ~near & FULL

    def _advance_placement(self, start: int) -> None:
        """Give the turn to the first seat from ``start`` (cyclically) that still places and can;
        seats that cannot place forfeit their remaining pieces; else start the movement phase."""
        n = self._n
        remain = self._remain
        for k in range(n):
            q = (start + k) % n
            if remain[q] > 0:
                if self._place_mask(q):
                    self._turn = q
                    return
                remain[q] = 0
        self._phase = _MOVE
        bb = self._bb
        self._turn = next((i for i in range(n) if bb[i]), 0)
        self._check_win()

    def _check_win(self) -> bool:
        alive = [i for i in range(self._n) if self._bb[i]]
        if len(alive) == 1:
            self._over = True
            self._winner = alive[0]
            self._turn = alive[0]
            self._jsq = -1
            return True
        return False

    def _next_seat(self) -> None:
        """Pass the turn to the next seat with pieces and apply the draw rules (Spec §5)."""
        n = self._n
        bb = self._bb
        q = self._turn
        for _ in range(n):
            q = (q + 1) % n
            if bb[q]:
                break
        self._turn = q
        if self._nj >= NO_JUMP_LIMIT:
            self._over = True
            self._winner = -1
        elif self._passes and self._passes >= sum(1 for b in bb if b):
            self._over = True
            self._winner = -1

    # --- move generation -----------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        """Legal action ids in ASCII order of their strings (Spec §4.3)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return legal

    def _generate(self) -> list[int]:
        if self._over:
            return []
        p = self._turn
        if self._phase == _PLACE:
            mask = self._place_mask(p)
            ids = _PLACE_CACHE.get(mask)
            if ids is None:
                if len(_PLACE_CACHE) >= _CACHE_LIMIT:
                    _PLACE_CACHE.clear()
                ids = _PLACE_CACHE[mask] = tuple(_ids(mask, 0))
            return list(ids)
        own = self._bb[p]
        occ = self._occ
        empty = FULL ^ occ
        enemy = occ ^ own
        jsq = self._jsq
        if jsq >= 0:
            conts = []
            for d, over, land in JUMPS[jsq]:
                if enemy >> over & 1 and empty >> land & 1:
                    base = CONT_BASE + RANK[land] * 2
                    conts.append(base)
                    conts.append(base + 1)
            conts.sort(key=_cont_key)
            return conts
        region = empty & self.game.friend[p]
        nb = NB
        rank = RANK
        starts: list[int] = []
        transits: list[int] = []
        jumps: list[tuple[str, int]] | None = None
        b = own
        while b:
            x12 = ((b & -b).bit_length() - 1) // SIZE * SIZE
            col = (b >> x12) & 0xFFF
            b ^= col << x12
            for y in COLY[col]:
                s = x12 + y
                t = nb[s] & region
                if t:
                    while True:
                        v = t | ((t << 1) & NOT_Y0) | ((t >> 1) & NOT_Y11)
                        nt = (v | (v << SIZE) | (v >> SIZE)) & region
                        if nt == t:
                            break
                        t = nt
                    lset = t | (1 << s)
                    v = lset | ((lset << 1) & NOT_Y0) | ((lset >> 1) & NOT_Y11)
                    near = (v | (v << SIZE) | (v >> SIZE)) & enemy
                else:
                    lset = 1 << s
                    near = nb[s] & enemy
                starts.append(s)
                transits.append(t)
                if near:
                    e2 = empty | (1 << s)
                    rs = rank[s] * NUM_SQUARES
                    while lset:
                        low = lset & -lset
                        pl = low.bit_length() - 1
                        lset ^= low
                        if not nb[pl] & enemy:
                            continue
                        for d, over, land in JUMPS[pl]:
                            if enemy >> over & 1 and e2 >> land & 1:
                                if jumps is None:
                                    jumps = []
                                aid = JUMP_BASE + ((rs + rank[pl]) * 8 + d) * 2
                                js = jump_string(s, pl, land, 0)
                                jumps.append((js, aid))
                                jumps.append((js[:-1] + "r", aid + 1))
        if jumps is not None:
            jumps.sort()
            return [a for _, a in jumps]
        out: list[int] = []
        cache = _MOVE_CACHE
        for s, t in zip(starts, transits):
            if t:
                v = t | ((t << 1) & NOT_Y0) | ((t >> 1) & NOT_Y11)
                dest = (nb[s] | v | (v << SIZE) | (v >> SIZE)) & empty
            else:
                dest = nb[s] & empty
            if dest:
                key = dest << 8 | s
                ids = cache.get(key)
                if ids is None:
                    ids = _move_ids(s, dest)
                    if len(cache) >= _CACHE_LIMIT:
                        cache.clear()
                    cache[key] = ids
                out.extend(ids)
        if not out:
            out.append(PASS)
        return out

    # --- make / unmake ----------------------------------------------------------------------------
    def apply_action(self, action: int) -> None:
        """Apply one legal action (Spec §3–§5). Raises :class:`IllegalActionError`, state unchanged."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        if action not in legal or isinstance(action, bool) or not isinstance(action, int):
            if isinstance(action, bool) or not isinstance(action, int):
                raise IllegalActionError(f"action {action!r} is not an integer")
            if self._over:
                raise IllegalActionError(f"action {action} is not legal: the game is over")
            raise IllegalActionError(f"action {action} is not legal in {self.to_text()!r}")
        self._undo.append((tuple(self._bb), self._occ, self._phase, tuple(self._remain), self._turn, self._jsq,
                           self._nj, self._passes, self._over, self._winner, self._z, legal))
        self._hist.append(action)
        self._legal = None
        self._do(action)

    def _do(self, action: int) -> None:
        p = self._turn
        if action < MOVE_BASE:  # placement
            sq = SQ_OF_RANK[action]
            bit = 1 << sq
            self._bb[p] |= bit
            self._occ |= bit
            self._z ^= ZOBRIST[p][sq]
            self._remain[p] -= 1
            self._advance_placement(p + 1)
            return
        if action < JUMP_BASE:  # step or free move
            r = action - MOVE_BASE
            s = SQ_OF_RANK[r // NUM_SQUARES]
            t = SQ_OF_RANK[r % NUM_SQUARES]
            m = (1 << s) | (1 << t)
            self._bb[p] ^= m
            self._occ ^= m
            zp = ZOBRIST[p]
            self._z ^= zp[s] ^ zp[t]
            self._nj += 1
            self._passes = 0
            self._next_seat()
            return
        if action == PASS:
            self._nj += 1
            self._passes += 1
            self._next_seat()
            return
        if action < CONT_BASE:
            r = action - JUMP_BASE
            kind = r & 1
            r >>= 1
            d = r & 7
            r >>= 3
            s = SQ_OF_RANK[r // NUM_SQUARES]
            launch = SQ_OF_RANK[r % NUM_SQUARES]
            over = launch + DIR_STEP[d]
            land = over + DIR_STEP[d]
        else:
            r = action - CONT_BASE
            kind = r & 1
            land = SQ_OF_RANK[r >> 1]
            s = self._jsq
            over = (s + land) >> 1
        bb = self._bb
        m = (1 << s) ^ (1 << land)  # 0 when a launched jump lands back on its start square
        bb[p] ^= m
        self._occ ^= m
        zp = ZOBRIST[p]
        z = self._z ^ zp[s] ^ zp[land]
        obit = 1 << over
        for q in range(self._n):
            if bb[q] & obit:
                break
        bb[q] ^= obit
        z ^= ZOBRIST[q][over]
        if kind:
            self._occ ^= obit
        else:
            bb[p] |= obit
            z ^= zp[over]
        self._z = z
        self._nj = 0
        self._passes = 0
        if not bb[q] and self._check_win():
            return
        # compulsory continuation from the landing square (Spec §4.3)
        own = bb[p]
        occ = self._occ
        enemy = occ ^ own
        if NB[land] & enemy:
            for _, o2, l2 in JUMPS[land]:
                if enemy >> o2 & 1 and not occ >> l2 & 1:
                    self._jsq = land
                    return
        self._jsq = -1
        self._next_seat()

    def undo_action(self) -> None:
        """Take back the last action. Raises :class:`IllegalActionError` if there is none (since
        the start of this state's history)."""
        if not self._undo:
            raise IllegalActionError("no action to undo")
        (bb, self._occ, self._phase, remain, self._turn, self._jsq, self._nj,
         self._passes, self._over, self._winner, self._z, self._legal) = self._undo.pop()
        self._bb = list(bb)
        self._remain = list(remain)
        self._hist.pop()

    # --- notation (see :mod:`.notation`) ------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        """The spec's notation (§3, §4): ``@e4``, ``c9-e10``, ``c9>d8*f8r``, ``*j4e``, ``pass``."""
        return action_string(action)

    def legal_action_strings(self) -> list[str]:
        """The legal actions' notation (:meth:`action_to_string` of each; kept: :func:`.notation.action_texts`)."""
        return action_texts(self.legal_actions())

    def string_to_action(self, text: str) -> int:
        """Parse the spec's notation. :class:`NotationError` if it is not notation,
        :class:`IllegalActionError` if it is not legal here. A jump typed without its ending
        letter (``e4*g6``) is refused naming the legal jumps it could be."""
        try:
            action = parse_action(text)
        except NotationError as exc:
            typed = text.strip().lower() if isinstance(text, str) else ""
            meant = [s for s in self.legal_action_strings() if "*" in s and s[:-1] == typed]
            if not meant:
                raise
            raise NotationError(f"{text.strip()!r} needs its ending letter, r (remove the jumped piece) or e "
                                f"(exchange it for one of yours): {' or '.join(meant)}",
                                i18n=message(f"slide-checkers.refusal.ending.{min(len(meant), 2)}",
                                             move=repr(text.strip()), a=meant[0], b=meant[-1])) from exc
        if action not in self.legal_actions():
            typed = repr(text.strip())
            if self._over:
                raise game_over(typed)
            if self._phase == _PLACE:  # §3: every piece is placed before any moves
                key = "place_where" if action_string(action).startswith("@") else "placing"
                why = ("a piece goes on an empty square of your colour, not next to another seat's piece"
                       if key == "place_where" else "the pieces are still being placed (@e4 places one on e4)")
                raise not_legal(typed, (why, message(f"slide-checkers.refusal.{key}")))
            raise not_legal(typed)
        return action

    def to_text(self) -> str:
        """The position text of Spec §6 (round-trips through ``state_from_text``)."""
        return format_position(self)


#: (destination bitboard << 8 | start square) -> move ids in canonical order (registered,
#: core.memos: a web process bounds them tighter than a search does)
_MOVE_CACHE: dict[int, tuple[int, ...]] = memo("slide-checkers.moves")
_CACHE_LIMIT = 300_000
#: placement mask -> placement ids in canonical order
_PLACE_CACHE: dict[int, tuple[int, ...]] = memo("slide-checkers.placements")


def _move_ids(s: int, dest: int) -> tuple[int, ...]:
    """Ids of the moves from ``s`` to the squares of ``dest``, in canonical (ASCII) order."""
    out: list[int] = []
    base = MOVE_BASE + RANK[s] * NUM_SQUARES
    while dest:
        x12 = ((dest & -dest).bit_length() - 1) // SIZE * SIZE
        col = (dest >> x12) & 0xFFF
        dest ^= col << x12
        bx = base + x12
        out.extend([bx + k for k in COLK[col]])
    return tuple(out)


def _cont_key(action: int) -> str:
    r = action - CONT_BASE
    return "*" + SQUARE_NAMES[SQ_OF_RANK[r >> 1]] + KIND[r & 1]


def _ids(mask: int, base: int) -> list[int]:
    """Ids ``base + RANK[sq]`` of the squares of ``mask``, ascending."""
    out: list[int] = []
    x = 0
    while mask:
        col = mask & 0xFFF
        if col:
            bx = base + x
            out.extend([bx + k for k in COLK[col]])
        mask >>= SIZE
        x += SIZE
    return out


__all__ = ["SlideCheckersGame", "SlideCheckersState", "NUM_ACTIONS", "PASS", "PIECES", "DEFAULT_COLOURS",
           "NO_JUMP_LIMIT", "parse_board", "parse_colours"]


# --------------------------------------------------------------------------------------------
# The position text (Spec §6)
# --------------------------------------------------------------------------------------------
def parse_count(token: str, key: str, text: str) -> int:
    value = token[len(key):]
    if not ascii_digits(value):
        raise PositionError(f"{text!r}: {token!r} needs a non-negative integer")
    return int(value)


def parse_position(game: SlideCheckersGame, text: str) -> SlideCheckersState:
    """Parse ``<pieces> <phase> <to-move> [J:<sq>] [nj=<n>] [passes=<n>]`` (Spec §6).

    Raises :class:`PositionError` naming the offending part."""
    if not isinstance(text, str):
        raise PositionError(f"{text!r} is not a position text")
    parts = text.split()
    if len(parts) < 3:
        raise PositionError(f"{text!r}: expected '<pieces> <phase> <to-move>' (e.g. '- P:7/7 G')")
    colours = game.colours
    n = game.num_players
    st = SlideCheckersState(game)
    # pieces
    if parts[0] != "-":
        for token in parts[0].split(","):
            if len(token) < 3:
                raise PositionError(f"{text!r}: piece {token!r} is not <colour><square> (e.g. Ge4)")
            letter, name = token[0], token[1:]
            seat = colours.find(letter)
            if seat < 0:
                raise PositionError(f"{text!r}: piece {token!r} has colour {letter!r}, "
                                    f"not one of the seats' colours {colours}")
            sq = SQUARE_INDEX.get(name)
            if sq is None:
                raise PositionError(f"{text!r}: piece {token!r}: {name!r} is not a square (a1…l12)")
            bit = 1 << sq
            if st._occ & bit:
                raise PositionError(f"{text!r}: square {name} holds two pieces")
            st._bb[seat] |= bit
            st._occ |= bit
            st._z ^= ZOBRIST[seat][sq]
    # phase
    phase = parts[1]
    if phase == "M":
        st._phase = _MOVE
    elif phase.startswith("P:"):
        counts = phase[2:].split("/")
        if len(counts) != n or not all(ascii_digits(c) for c in counts):
            raise PositionError(f"{text!r}: phase {phase!r} must give {n} counts, e.g. P:"
                                + "/".join([str(game.pieces_per_player)] * n))
        st._remain = [int(c) for c in counts]
        for seat, r in enumerate(st._remain):
            on_board = st._bb[seat].bit_count()
            if r + on_board > game.pieces_per_player:
                raise PositionError(f"{text!r}: seat {colours[seat]} has {on_board} pieces placed and {r} "
                                    f"to place, more than {game.pieces_per_player}")
    else:
        raise PositionError(f"{text!r}: phase {phase!r} is neither M nor P:<counts>")
    # to move
    letter = parts[2]
    if len(letter) != 1 or letter not in colours:
        raise PositionError(f"{text!r}: to-move {letter!r} is not one of the seats' colours {colours}")
    turn = colours.index(letter)
    st._turn = turn
    jsq = -1
    seen: set[str] = set()
    for token in parts[3:]:
        key = token.split(":")[0] + ":" if token.startswith("J:") else token.split("=")[0] + "="
        if key in seen:
            raise PositionError(f"{text!r}: {key!r} given twice")
        seen.add(key)
        if token.startswith("J:"):
            jsq = SQUARE_INDEX.get(token[2:], -1)
            if jsq < 0:
                raise PositionError(f"{text!r}: {token!r}: {token[2:]!r} is not a square")
        elif token.startswith("nj="):
            st._nj = parse_count(token, "nj=", text)
        elif token.startswith("passes="):
            st._passes = parse_count(token, "passes=", text)
        else:
            raise PositionError(f"{text!r}: unexpected {token!r} (expected J:<square>, nj=<n>, passes=<n>)")
    if st._phase == _PLACE:
        if jsq >= 0 or st._nj or st._passes:
            raise PositionError(f"{text!r}: J:, nj= and passes= belong to the movement phase")
        if st._remain[turn] == 0:
            raise PositionError(f"{text!r}: {letter} is to place but has no pieces left to place")
        st._advance_placement(turn)
        return st
    if not st._occ:
        raise PositionError(f"{text!r}: the movement phase needs pieces on the board")
    if st._check_win():
        if jsq >= 0:
            raise PositionError(f"{text!r}: J: given but the game is already won")
        st._turn = turn
        return st
    if not st._bb[turn]:
        raise PositionError(f"{text!r}: {letter} is to move but has no pieces (eliminated)")
    if jsq >= 0:
        if not st._bb[turn] >> jsq & 1:
            raise PositionError(f"{text!r}: J:{SQUARE_NAMES[jsq]} does not hold a piece of {letter}")
        if st._nj or st._passes:
            raise PositionError(f"{text!r}: a jump is in progress, so nj and passes must be 0")
        st._jsq = jsq
        if not st._generate():
            raise PositionError(f"{text!r}: the piece on {SQUARE_NAMES[jsq]} has no jump to continue")
    if st._nj >= NO_JUMP_LIMIT:
        st._over = True
        st._winner = -1
    elif st._passes and st._passes >= sum(1 for b in st._bb if b):
        st._over = True
        st._winner = -1
    return st
