"""Fanorona rules: the game, its state and move generation (Spec: fanorona.md §1–§5, §7).

The state keeps two bitboards (the mover's stones and the opponent's, see
:mod:`.geometry`), the capture chain in progress, the no-progress counter and the repetition
counts of turn-boundary positions, keyed by an incrementally updated Zobrist key.

Work after an action is lazy: :meth:`FanoronaState.apply_action` only moves stones and
pushes an undo frame; whether a chain can continue, whose turn it is, the legal list and the
end-of-game checks are computed the first time anyone asks (``_resolve``). That keeps
make/unmake at the leaves of a search cheap.
"""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

from ...core.errors import IllegalActionError, PositionError
from ...core.description import GameDescription
from ...core.game import TERMINAL, Game, State
from ...core.options import Option, ascii_digits, parse_bool
from ...core.view import message
from .geometry import (APPROACH, BLACK, DIR_NAMES, NO_PROGRESS_LIMIT, PAIKA, START_ROWS, VELA_STONES, WHITE,
                       WITHDRAWAL, Geometry, geometry)
from .movegen import generators
from .notation import format_position, parse_action, parse_chain, parse_rows
from .view import FanoronaView

SIDE_CHARS = "WB"

_LOSS = ([-1.0, 1.0], [1.0, -1.0])  # indexed by the side that loses


# --- move generation (pure functions on bitboards) -------------------------------------------

def capture_steps(g: Geometry, own: int, opp: int) -> list[int]:
    """All capture steps of the side owning ``own`` (Spec: fanorona.md §3.1), canonical order.

    Table-driven reference version; states use the faster generated code of :mod:`.movegen`."""
    empty = g.full ^ own ^ opp
    out: list[int] = []
    append = out.append
    for s, oup, odn, _m_up, a_up, w_up, _m_dn, a_dn, w_dn in g.shifts:
        e = own & (empty >> s)
        if e:
            x = e & a_up & (opp >> (s + s))
            while x:
                b = x & -x
                append((b.bit_length() - 1) * 24 + oup + 1)
                x ^= b
            x = e & w_up & (opp << s)
            while x:
                b = x & -x
                append((b.bit_length() - 1) * 24 + oup + 2)
                x ^= b
        e = own & (empty << s)
        if e:
            x = e & a_dn & (opp << (s + s))
            while x:
                b = x & -x
                append((b.bit_length() - 1) * 24 + odn + 1)
                x ^= b
            x = e & w_dn & (opp >> s)
            while x:
                b = x & -x
                append((b.bit_length() - 1) * 24 + odn + 2)
                x ^= b
    if len(out) > 1:
        out.sort()
    return out


def paika_steps(g: Geometry, own: int, opp: int) -> list[int]:
    """All paika (non-capturing) steps of the side owning ``own`` (Spec: fanorona.md §3.2).

    Table-driven reference version; states use the faster generated code of :mod:`.movegen`."""
    empty = g.full ^ own ^ opp
    out: list[int] = []
    append = out.append
    for s, oup, odn, m_up, _a_up, _w_up, m_dn, _a_dn, _w_dn in g.shifts:
        x = own & m_up & (empty >> s)
        while x:
            b = x & -x
            append((b.bit_length() - 1) * 24 + oup)
            x ^= b
        x = own & m_dn & (empty << s)
        while x:
            b = x & -x
            append((b.bit_length() - 1) * 24 + odn)
            x ^= b
    out.sort()
    return out


def continuations(g: Geometry, own: int, opp: int, point: int, last_dir: int, visited: int) -> list[int]:
    """Capture steps continuing a chain from ``point`` (Spec: fanorona.md §3.2 "Chain"):
    not in ``last_dir``, not onto a ``visited`` point. Canonical order, without ``end``."""
    blocked = own | opp | visited
    out: list[int] = []
    for d, tb, ab, wb, base in g.cont[point]:
        if d == last_dir or tb & blocked:
            continue
        if ab & opp:
            out.append(base + 1)
        if wb & opp:
            out.append(base + 2)
    return out


# --- the game ---------------------------------------------------------------------------------

class UndoFrame(NamedTuple):
    """What :meth:`FanoronaState.undo_action` restores: the state before one action.

    The undo stack holds plain tuples in this layout: unpacking a tuple subclass misses
    CPython's exact-tuple fast path, and a NamedTuple frame cost 20% of perft speed (measured
    with ``abstracta bench fanorona``)."""

    own: int
    opp: int
    side: int
    chain: tuple | None
    no_capture: int
    first: int
    key: int
    legal: list[int]
    repkey: int | None
    action: int


class FanoronaGame(Game):
    """Fanorona (Spec: fanorona.md). Player 0 is White (moves first), player 1 Black.

    Options: ``size`` (``tsivy`` 9×5, ``dimy`` 5×5, ``telo`` 3×3), ``vela`` (§7),
    ``first_turn_single_capture`` (§4).

    Its parts (``_parts``, bound by the package's entry module): ``description``, ``render``,
    and the two searches of :mod:`abstracta.ai` the solver and the table seat use, which a game
    module does not import (``ai`` is above the games): ``proof_search`` (Dimy's proof-number
    search, :mod:`abstracta.ai.proof`) and ``fallback_bot`` (the bot a table seat falls back on
    where no table reaches: alpha-beta).
    """

    name: ClassVar[str] = "fanorona"
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option("size", "tsivy", "board: tsivy 9x5, dimy 5x5, telo 3x3", choices=("tsivy", "dimy", "telo")),
        Option("vela", False, "vela variant: Black may not capture until he has 5 stones or fewer",
               parser=parse_bool),
        Option("first_turn_single_capture", False, "each player's first turn ends after one capture step",
               parser=parse_bool),
    )
    def __init__(self, **options: Any):
        super().__init__(**options)
        self.geometry: Geometry = geometry(self.options["size"])
        self.vela: bool = bool(self.options["vela"])
        self.first_turn_single_capture: bool = bool(self.options["first_turn_single_capture"])

    def describe(self) -> GameDescription:
        """See :mod:`.description`."""
        return self._parts.description.describe(self)

    @property
    def num_distinct_actions(self) -> int:
        """``W * H * 24 + 1``: (from point × direction × {paika, A, W}) plus ``end``."""
        return self.geometry.num_actions

    def max_game_length(self) -> int:
        """A true bound from the start (§4): with N stones on the board, at most N capture
        steps (each takes a stone), N ``end`` actions (one per capturing turn) and, around the
        at most N capturing turns, N + 1 stretches of at most 100 paika turns (the no-progress
        draw). Tsivy: 4,588; dimy: 2,548; telo: 916."""
        rows = START_ROWS[self.options["size"]]
        n = rows.count("W") + rows.count("B")
        return 2 * n + NO_PROGRESS_LIMIT * (n + 1)

    def new_initial_state(self, seed: int | None = None) -> "FanoronaState":
        """The setup of §2, White to move."""
        g = self.geometry
        white, black = parse_rows(g, g.start_rows)
        first = 3 if self.first_turn_single_capture else 0
        return FanoronaState(self, white, black, WHITE, first=first)

    def state_from_text(self, text: str) -> "FanoronaState":
        """Parse a position text (Spec: fanorona.md §5). Raises :class:`PositionError`."""
        return parse_position(self, text)

    def render(self, state: State, player: int | None = None) -> Any:
        return self._parts.render.render(state, player)  # type: ignore[arg-type]


class FanoronaState(FanoronaView, State):
    """One Fanorona position plus the history the rules need (repetition, undo).

    Internal fields: ``_own``/``_opp`` bitboards of the side to move and of the other side;
    ``_side`` (0 White, 1 Black); ``_ch`` = ``None`` or ``(point, last_dir, visited_mask,
    visited_points)`` during a capture chain; ``_nc`` turns since the last capture; ``_first``
    bit mask of sides still in their first turn (option ``first_turn_single_capture``);
    ``_key`` Zobrist key of (board, side); ``_pending`` 0 resolved, 1 chain to check,
    2 turn to start.
    """

    supports_undo: ClassVar[bool] = True

    __slots__ = ("game", "_g", "_own", "_opp", "_side", "_ch", "_nc", "_first", "_key", "_legal",
                 "_repkey", "_pending", "_result", "_rep", "_undo", "_end", "_vela", "_acts",
                 "_gen_cap", "_gen_paika")

    def __init__(self, game: FanoronaGame, white: int, black: int, side: int, *,
                 chain: tuple[int, int, int, tuple[int, ...]] | None = None, nc: int = 0, first: int = 0):
        g = game.geometry
        self.game = game
        self._g = g
        self._side = side
        self._own, self._opp = (white, black) if side == WHITE else (black, white)
        self._ch = chain
        self._nc = nc
        self._first = first
        key = g.zside if side else 0
        zw, zb = g.zpoint
        for p in range(g.n):
            if white >> p & 1:
                key ^= zw[p]
            elif black >> p & 1:
                key ^= zb[p]
        self._key = key
        self._legal: list[int] | None = None
        self._repkey: int | None = None
        self._result: list[float] | None = None
        self._rep: dict[int, int] = {}
        self._undo: list[tuple] = []  # UndoFrame layout
        self._end = g.end_action
        self._vela = game.vela
        self._gen_cap, self._gen_paika = generators(g)
        self._acts = g.side_act
        self._pending = 2
        if chain is not None:
            conts = continuations(g, self._own, self._opp, chain[0], chain[1], chain[2])
            if not conts:
                raise PositionError("chain=: the capturing stone has no continuation, so the turn would "
                                    "already have ended")
            conts.append(self._end)
            self._legal = conts
            self._pending = 0

    # --- lazy resolution ------------------------------------------------------------------------
    def _resolve(self) -> None:
        """Finish the work ``apply_action`` left pending: does the chain go on (§3.2)? If not,
        hand the turn over; at the start of a turn count the repetition, generate the legal
        list and check the end of the game (§3.3, §4)."""
        g = self._g
        if self._pending == 1:
            p, last, vmask, _ = self._ch  # type: ignore[misc]
            opp = self._opp
            if opp & g.cont_near[p]:
                conts = continuations(g, self._own, opp, p, last, vmask)
                if conts:
                    conts.append(self._end)
                    self._legal = conts
                    self._pending = 0
                    return
            side = self._side
            self._own, self._opp = self._opp, self._own
            self._side = side ^ 1
            self._key ^= g.zside
            self._ch = None
            if self._first:
                self._first &= ~(1 << side)
        # start of a turn (§3.2, §3.3, §4)
        key = self._key
        rep = self._rep
        count = rep.get(key, 0) + 1
        rep[key] = count
        self._repkey = key
        self._pending = 0
        own = self._own
        if not own:
            self._result = _LOSS[self._side]
            self._legal = []
            return
        opp = self._opp
        if not opp:  # only from a text: the side not to move has already lost all its stones
            self._result = _LOSS[self._side ^ 1]
            self._legal = []
            return
        if self._vela and self._side == BLACK and own.bit_count() > VELA_STONES:
            legal = self._gen_paika(own, opp)
        else:
            legal = self._gen_cap(own, opp)
        if not legal:
            self._result = _LOSS[self._side]
        elif count >= 3 or self._nc >= NO_PROGRESS_LIMIT:
            self._result = [0.0, 0.0]
            legal = []
        self._legal = legal

    # --- the spine ---------------------------------------------------------------------------
    def current_player(self) -> int:
        if self._pending:
            self._resolve()
        return TERMINAL if self._result is not None else self._side

    def is_terminal(self) -> bool:
        if self._pending:
            self._resolve()
        return self._result is not None

    def legal_actions(self) -> list[int]:
        """Legal action ids in canonical order (§3.2); cached, do not mutate."""
        if self._pending:
            self._resolve()
        return self._legal  # type: ignore[return-value]

    def returns(self) -> list[float]:
        if self._pending:
            self._resolve()
        return list(self._result) if self._result is not None else [0.0, 0.0]

    def apply_action(self, action: int) -> None:
        """Apply one legal action id. Raises :class:`IllegalActionError` (state unchanged)."""
        if self._pending:
            self._resolve()
        legal = self._legal
        if action.__class__ is not int or action not in legal:  # type: ignore[operator]
            raise self._illegal(action)
        own = self._own
        opp = self._opp
        side = self._side
        key = self._key
        first = self._first
        self._undo.append((own, opp, side, self._ch, self._nc, first, key, legal, self._repkey, action))
        self._legal = None
        self._repkey = None
        mm, tb, q, d, kind, ray, up, tbit, zkey, zrun = self._acts[side][action]
        if not kind:  # paika: the turn ends (§3.2); zkey includes the side-to-move key
            self._own = opp
            self._opp = own ^ mm
            self._side = side ^ 1
            self._key = key ^ zkey
            self._nc += 1
            if first:
                self._first = first & ~(1 << side)
            self._pending = 2
            return
        if kind == 3:  # end
            self._own = opp
            self._opp = own
            self._side = side ^ 1
            self._key = key ^ zkey
            self._ch = None
            if first:
                self._first = first & ~(1 << side)
            self._pending = 2
            return
        own ^= mm
        if self._vela and side == WHITE and opp.bit_count() > VELA_STONES:
            opp ^= tbit  # vela phase: only the first stone, and no chain (§7)
            self._own = opp
            self._opp = own
            self._side = 1
            self._key = key ^ zkey ^ zrun[1] ^ self._g.zside
            self._ch = None
            self._nc = 0
            if first:
                self._first = first & ~1
            self._pending = 2
            return
        bl = ray & ~opp
        if not bl:
            cap = ray
        elif up:
            cap = ray & ((bl & -bl) - 1)
        else:
            cap = ray & (-1 << bl.bit_length())
        opp ^= cap
        key ^= zkey ^ zrun[cap.bit_count()]
        self._nc = 0
        if (first >> side) & 1:  # first_turn_single_capture: the first turn ends here (§4)
            self._own = opp
            self._opp = own
            self._side = side ^ 1
            self._key = key ^ self._g.zside
            self._ch = None
            self._first = first & ~(1 << side)
            self._pending = 2
            return
        ch = self._ch
        if ch is None:
            self._ch = (q, d, mm, (action // 24, q))
        else:
            self._ch = (q, d, ch[2] | tb, ch[3] + (q,))
        self._own = own
        self._opp = opp
        self._key = key
        self._pending = 1

    def undo_action(self) -> None:
        """Take back the last action (make/unmake). Raises :class:`IllegalActionError` at the
        starting position (state unchanged)."""
        rk = self._repkey
        if rk is not None:
            self._rep[rk] -= 1
        try:
            (self._own, self._opp, self._side, self._ch, self._nc, self._first, self._key, self._legal,
             self._repkey, _) = self._undo.pop()
        except IndexError:
            if rk is not None:
                self._rep[rk] += 1
            raise IllegalActionError("no action to undo: this is the starting position") from None
        self._pending = 0
        self._result = None

    def _illegal(self, action: Any) -> IllegalActionError:
        if isinstance(action, bool) or not isinstance(action, int):
            return IllegalActionError(f"action {action!r} is not an integer")
        if self._result is not None:
            return IllegalActionError(f"action {action} is not legal: the game is over")
        name = ""
        if 0 <= action < len(self._g.action_strings) and self._g.action_strings[action]:
            name = f" ({self._g.action_strings[action]})"
        return IllegalActionError(f"action {action}{name} is not legal in {self.to_text()!r}")

    # --- notation ---------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        """``d2-e3A`` / ``d2-e3W`` (capture steps), ``d2-e3`` (paika) or ``end`` (§3)."""
        strings = self._g.action_strings
        if action.__class__ is int and 0 <= action < len(strings) and strings[action]:
            return strings[action]
        raise IllegalActionError(f"action {action!r} names no action on this board")

    def string_to_action(self, text: str) -> int:
        """Parse ``<P>-<Q>A``, ``<P>-<Q>W``, ``<P>-<Q>`` or ``end``.

        Raises :class:`NotationError` for text that is not Fanorona notation and
        :class:`IllegalActionError` for a step that is not legal here."""
        action = parse_action(self._g, text)
        legal = self.legal_actions()
        if action not in legal:
            wanted = text.strip()
            if self._result is not None:
                raise IllegalActionError(f"{wanted!r} is not legal: the game is over",
                                         i18n=message("fanorona.refusal.over", move=repr(wanted)))
            why, said = self._why_illegal(action, wanted, legal)
            raise IllegalActionError(why, i18n=said)
        return action

    def _why_illegal(self, action: int, wanted: str, legal: list[int]) -> tuple[str, dict[str, Any]]:
        """A player's reason why ``action`` is refused (§3.2: captures are compulsory; a chain
        goes on with the capturing stone only), in English and as a message of the catalogs."""
        acts = self._acts[self._side]
        names = [self.action_to_string(a) for a in legal]
        shown = ", ".join(names[:12]) + (", …" if len(names) > 12 else "")
        move = repr(wanted)
        # the step typed without its A or W where it captures: name the letters, not "a plain step"
        ways = [(letter, way) for letter, way in (("A", "approach"), ("W", "withdrawal"))
                if self._g.action_ids.get(self._g.action_strings[action] + letter) in legal]
        if acts[action][4] == PAIKA and ways:
            step = self._g.action_strings[action]
            chain = self._ch is not None
            why = "a chain goes on by capture steps only" if chain else "capturing is compulsory"
            said = {"move": move, "why": message("fanorona.refusal.chain_captures" if chain else "fanorona.refusal.compulsory")}
            for k, (letter, way) in enumerate(ways):
                said.update({f"letter{k}": letter, f"way{k}": message(f"fanorona.by.{way}"), f"capture{k}": step + letter})
            return (f"{wanted!r} needs {' or '.join(letter for letter, _ in ways)}: it captures "
                    + " or ".join(f"by {way} ({step}{letter})" for letter, way in ways) + f"; {why}",
                    message(f"fanorona.refusal.needs.{len(ways)}", **said))
        if self._ch is not None:
            point = self._ch[0]
            stone = self._g.names[point]
            step = acts[action]
            if step[0] ^ step[1] == 1 << point:  # Step.move_mask ^ Step.to_bit: the from-point
                return (f"{wanted!r} cannot continue the chain: each step must capture, never in the "
                        f"direction of the step before, never onto a point visited this turn (legal: {shown})",
                        message("fanorona.refusal.chain_step", move=move, legal=shown))
            return (f"{wanted!r}: the capture chain goes on with the stone on {stone} only (legal: {shown})",
                    message("fanorona.refusal.chain_stone", move=move, stone=stone, legal=shown))
        kind = acts[action][4]
        if kind == PAIKA and any(acts[a][4] in (APPROACH, WITHDRAWAL) for a in legal):
            return (f"{wanted!r} is a plain step, but capturing is compulsory here (captures: {shown})",
                    message("fanorona.refusal.plain", move=move, legal=shown))
        return (f"{wanted!r} is not a legal action here (legal: {shown})",
                message("fanorona.refusal.illegal", move=move, legal=shown))

    # --- copies, text, hashing ------------------------------------------------------------------
    def clone(self) -> "FanoronaState":
        """An independent copy (repetition counts and undo stack included)."""
        other = object.__new__(FanoronaState)
        other.game = self.game
        other._g = self._g
        other._own = self._own
        other._opp = self._opp
        other._side = self._side
        other._ch = self._ch
        other._nc = self._nc
        other._first = self._first
        other._key = self._key
        other._legal = self._legal
        other._repkey = self._repkey
        other._pending = self._pending
        other._result = self._result
        other._rep = self._rep.copy()
        other._undo = self._undo.copy()
        other._end = self._end
        other._vela = self._vela
        other._acts = self._acts
        other._gen_cap = self._gen_cap
        other._gen_paika = self._gen_paika
        return other

    #: Shared by every state of a board size (the compiled move generators cannot be pickled):
    #: a pickled state leaves them out and takes them from its game again.
    _SHARED = ("_g", "_end", "_acts", "_gen_cap", "_gen_paika")

    def __getstate__(self) -> dict[str, Any]:
        # the slots, and anything the spine keeps in the instance's __dict__ (State has no slots)
        own = {k: getattr(self, k) for k in self.__slots__ if k not in self._SHARED and hasattr(self, k)}
        return {**getattr(self, "__dict__", {}), **own}

    def __setstate__(self, fields: dict[str, Any]) -> None:
        for k, v in fields.items():
            setattr(self, k, v)
        g = self._g = self.game.geometry
        self._end = g.end_action
        self._acts = g.side_act
        self._gen_cap, self._gen_paika = generators(g)

    def history(self) -> list[int]:
        return [frame[-1] for frame in self._undo]  # UndoFrame.action

    def to_text(self) -> str:
        """Position text (§5), e.g. ``BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW W``."""
        if self._pending:
            self._resolve()
        return format_position(self)

    def hash_key(self) -> int:
        """Zobrist key of board and side, mixed with the chain (point, last direction, visited
        points) and the first-turn flags. The no-progress counter and repetition history are
        not included (as in chess transposition tables)."""
        if self._pending:
            self._resolve()
        key = self._key
        ch = self._ch
        if ch is not None:
            key ^= ((ch[0] + 1) * 0x9E3779B97F4A7C15 ^ (ch[1] + 1) * 0xBF58476D1CE4E5B9
                    ^ ch[2] * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        if self._first:
            key ^= self._first * 0xD6E8FEB86659FD93 & 0xFFFFFFFFFFFFFFFF
        return key

    # --- read-only views (render, evaluate, tests) ---------------------------------------------
    @property
    def side(self) -> int:
        """The side whose turn it is (0 White, 1 Black), also once the game is over."""
        if self._pending:
            self._resolve()
        return self._side

    def bitboards(self) -> tuple[int, int]:
        """``(white, black)`` bitboards (bit ``x * H + y``)."""
        if self._pending:
            self._resolve()
        return (self._own, self._opp) if self._side == WHITE else (self._opp, self._own)

    def chain(self) -> tuple[int, int, tuple[int, ...]] | None:
        """``(point, last_direction, visited_points)`` during a capture chain, else ``None``."""
        if self._pending:
            self._resolve()
        if self._ch is None:
            return None
        return self._ch[0], self._ch[1], self._ch[3]

    @property
    def no_progress(self) -> int:
        """Turns since the last capture (§4 (b))."""
        if self._pending:
            self._resolve()
        return self._nc

    def repetition_count(self) -> int:
        """How often the current (board, side) has occurred at a turn boundary (0 mid-chain)."""
        if self._pending:
            self._resolve()
        return 0 if self._ch is not None else self._rep.get(self._key, 0)


__all__ = ["FanoronaGame", "FanoronaState", "capture_steps", "paika_steps", "continuations", "DIR_NAMES"]


def parse_position(game: FanoronaGame, text: str) -> FanoronaState:
    """The state described by a position text (Spec: fanorona.md §5). Raises PositionError."""
    if not isinstance(text, str):
        raise PositionError(f"position {text!r} is not text")
    g = game.geometry
    tokens = text.split()
    if len(tokens) < 2:
        raise PositionError(f"position {text!r}: expected '<rows> <side>' (side W or B)")
    white, black = parse_rows(g, tokens[0])
    if tokens[1] not in ("W", "B"):
        raise PositionError(f"position {text!r}: side to move {tokens[1]!r} is not W or B")
    side = WHITE if tokens[1] == "W" else BLACK
    seen: dict[str, str] = {}
    for token in tokens[2:]:
        key, sep, value = token.partition("=")
        if not sep or key not in ("chain", "nc", "first"):
            raise PositionError(f"position {text!r}: unknown part {token!r} (expected chain=, nc= or first=)")
        if key in seen:
            raise PositionError(f"position {text!r}: {key}= given twice")
        seen[key] = value
    nc = 0
    if "nc" in seen:
        value = seen["nc"]
        if not ascii_digits(value):
            raise PositionError(f"position {text!r}: nc={value} is not a non-negative integer")
        nc = int(value)
    first = 0
    if "first" in seen:
        value = seen["first"]
        if not game.first_turn_single_capture:
            raise PositionError(f"position {text!r}: first={value} needs the option first_turn_single_capture")
        if value not in ("W", "B", "WB"):
            raise PositionError(f"position {text!r}: first={value} must be W, B or WB")
        first = (1 if "W" in value else 0) | (2 if "B" in value else 0)
    chain = None
    if "chain" in seen:
        chain = parse_chain(g, seen["chain"], white, black, side)
        if first >> side & 1:
            raise PositionError(f"position {text!r}: a chain in {tokens[1]}'s first turn, which ends after "
                                f"one capture step (first_turn_single_capture)")
        if game.vela and black.bit_count() > VELA_STONES:
            raise PositionError(f"position {text!r}: a chain during the vela phase (Black has more than "
                                f"{VELA_STONES} stones)")
    try:
        return FanoronaState(game, white, black, side, chain=chain, nc=nc, first=first)
    except PositionError as exc:
        raise PositionError(f"position {text!r}: {exc}") from None
