"""Fibonacci rules engine: one position plus the history the rules need (Spec: fibonacci.md).

Actions (integers, ``num_distinct_actions`` = 8373):

* ``from·91 + to`` (0 … 8280): move or swap, ``from``/``to`` dense cell indices (a1 = 0 … k11 = 90),
  so ascending integers are the spec's canonical order (§4);
* :data:`PASS` = 8281 (always listed last);
* :data:`PLACE0` + cell (8282 … 8372): Go-variant placement; the piece type follows from the
  placement number (§9.3).

The board is a padded bitboard (see :mod:`.geometry`); the legal list, destination masks and
Zobrist key are maintained incrementally and restored by :meth:`FibonacciState.undo_action`.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from abstracta.core.description import GameDescription
from abstracta.core.errors import IllegalActionError, NotationError, PositionError, game_over, not_legal
from abstracta.core.game import CHANCE, TERMINAL, Game, State, check_player
from abstracta.core.memos import memo
from abstracta.core.options import Option, ascii_digits, seed_option
from abstracta.core.rng import SplitMix64
from abstracta.core.view import message

from .geometry import (
    BIT, DEG6, DENSE, NAME, NBM, NUM_CELLS, STRIDE, VALID, Z_BASE, Z_LEFT, Z_PLACED, Z_SIDE,
    ZOBRIST, bits, dense_list, group_of,
)
from .notation import (_CELL, ATTACK, CORE, LETTERS, MAX_TURNS, NMOVE, NUM_ACTIONS, NUM_PLACEMENTS, PASS, PLACE0,
                       SUPPORT, base_moves, board_to_rows, cell_bit, placement_kind, rows_to_cells)
from .view import KINDS, FibonacciView


RED, GREEN = 0, 1
EMPTY = 0
#: A full card pile, sorted (§9.2).
FULL_PILE = (1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6)

FROM_BIT: list[int] = [BIT[a // NUM_CELLS] for a in range(NMOVE)]
TO_BIT: list[int] = [BIT[a % NUM_CELLS] for a in range(NMOVE)]
#: Codes whose movement can change a surround (attack pieces and cores).
_CHECK = (False, True, True, False, True, True, False)


#: registered (core.memos): a web process bounds them tighter than a search does
_TYPE_MEMO: dict[int, tuple[dict[int, int], list[int]]] = memo("fibonacci.type_moves")
_GROUP_MEMO: dict[int, tuple[dict[int, int], list[int]]] = memo("fibonacci.group_moves")
#: Memo sizes (entries); a full memo is simply cleared.
_TYPE_LIMIT = 20_000
_GROUP_LIMIT = 50_000


def _group_moves(g: int, d: int) -> tuple[dict[int, int], list[int]]:
    """Moves of one group ``g`` whose neighbourhood (dilation) is ``d``: every piece shares ``D = d − g``."""
    dest = d & ~g
    dl = dense_list(dest)
    dm: dict[int, int] = {}
    acts: list[int] = []
    while g:
        low = g & -g
        fb = low.bit_length() - 1
        dm[fb] = dest
        base = DENSE[fb] * NUM_CELLS
        acts += [base + x for x in dl]
        g ^= low
    return dm, acts


def type_moves(mask: int) -> tuple[dict[int, int], list[int]]:
    """Moves of the pieces of one owner and type occupying ``mask`` (§4): ``({from bit: destination
    mask}, sorted actions)``. Groups are flooded once and share their destinations; results are
    memoised per mask and per group (they depend on nothing else: any destination may be occupied)."""
    entry = _TYPE_MEMO.get(mask)
    if entry is not None:
        return entry
    gmemo = _GROUP_MEMO
    rem = mask
    dm: dict[int, int] | None = None
    acts: list[int] = []
    while rem:
        g = rem & -rem
        while True:
            d = ((g << 1) | (g >> 1) | (g << 12) | (g >> 12) | (g << 13) | (g >> 13)) & VALID
            ng = g | (d & mask)
            if ng == g:
                break
            g = ng
        rem ^= g
        part = gmemo.get(g)
        if part is None:
            if len(gmemo) >= _GROUP_LIMIT:
                gmemo.clear()
            part = gmemo[g] = _group_moves(g, d)
        if dm is None and not rem:
            entry = part
            break
        if dm is None:
            dm = {}
        dm.update(part[0])
        acts += part[1]
    else:
        acts.sort()
        entry = (dm or {}, acts)
    if len(_TYPE_MEMO) >= _TYPE_LIMIT:
        _TYPE_MEMO.clear()
    _TYPE_MEMO[mask] = entry
    return entry


class UndoRecord(NamedTuple):
    """One entry of :attr:`FibonacciState._stack`, what :meth:`FibonacciState.undo_action`
    restores. The stack holds plain tuples in this layout: unpacking a tuple subclass misses
    CPython's exact-tuple fast path (a NamedTuple frame cost Fanorona 20% of its perft speed)."""

    action: int
    from_bit: int  # -1 for pass and placements
    to_bit: int  # -1 for pass; the placed cell for a placement
    piece: int  # code of the moved (or placed) piece
    swapped: int  # code of the piece swapped away (0: none)
    zobrist: int
    left: int
    turn: int
    side: int
    legal: list[int] | None
    destinations: tuple | None
    turn_end: tuple | None  # what ending the turn changed (None: the turn went on)


class FibonacciState(FibonacciView, State):
    """A Fibonacci position (any variant). Player 0 = Red, 1 = Green.

    Attributes (read-only for callers):
        board: piece code per padded bit (see :mod:`.geometry`).
        bb: bitboard per piece code 1..6.
        side: 0/1, the player whose turn it is (placer in the Go start).
        left: moves still allowed this turn.
        t: turn number (0 during the Go placement phase).
        placed: placements done (26 once movement has begun, for every variant).
        piles: (Red's, Green's) remaining draw piles, top first (cards variant).
        card: the card revealed for the current turn (cards variant; ``None`` if unknown).
    """

    supports_undo = True

    # ------------------------------------------------------------------ construction
    def __init__(self, game: "FibonacciGame"):
        self.game = game
        self._cards = game.variant == "cards"
        self._go = game.variant == "go"
        self.board: list[int] = [0] * (STRIDE * 13)
        self.bitboards: list[int] = [0] * 7
        self.zobrist = 0
        self.side = RED
        self.left = 0
        self.turn = 1
        self.placed = NUM_PLACEMENTS
        self.result: list[float] | None = None
        self.repetitions: dict[int, int] = {}
        self.piles: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
        self.rng_state = 0
        self.card: int | None = None
        self.revealed: list[tuple[int, int, int]] = []
        self._stack: list[tuple] = []
        #: a determinization: how many undo records predate it (they hold the real piles)
        self._sampled_past = 0
        self._legal: list[int] | None = None
        self._dm: tuple | None = None
        self._init_public = ""
        #: explicit chance mode (adapters): each turn's card waits at a chance node
        self._explicit = False
        self._pending = False

    def _put(self, b: int, code: int) -> None:
        self.board[b] = code
        self.bitboards[code] |= 1 << b
        self.zobrist ^= ZOBRIST[code][b]

    # ------------------------------------------------------------------ spine
    def current_player(self) -> int:
        if self.result is not None:
            return TERMINAL
        return CHANCE if self._pending else self.side

    def is_terminal(self) -> bool:
        return self.result is not None

    def returns(self) -> list[float]:
        return list(self.result) if self.result is not None else [0.0, 0.0]

    def history(self) -> list[int]:
        return [rec[0] for rec in self._stack]

    def turn_player(self) -> int:
        return self.side

    def turn_number(self) -> int:
        """``t`` (§3); 0 during the Go placement, whose 26 actions are no turns (§9.3)."""
        return self.turn

    def clone(self) -> "FibonacciState":
        new = object.__new__(type(self))
        d = self.__dict__.copy()
        d["board"] = self.board[:]
        d["bitboards"] = self.bitboards[:]
        d["repetitions"] = self.repetitions.copy()
        d["_stack"] = self._stack[:]
        d["revealed"] = self.revealed[:]
        if self.result is not None:
            d["result"] = self.result[:]
        new.__dict__ = d
        return new

    # ------------------------------------------------------------------ move generation
    def _compute_dm(self) -> tuple[dict[int, int], dict[int, int], list, list]:
        """Destination masks and sorted action lists of the side to move (§4), from the
        per-type memo (destinations depend only on the bitboard of the piece's own type)."""
        o = 3 * self.side
        bb = self.bitboards
        a = type_moves(bb[2 + o])
        b = type_moves(bb[3 + o])
        dm = (a[0], b[0], a[1], b[1])
        self._dm = dm
        return dm

    def legal_actions(self) -> list[int]:
        """Legal actions in canonical order (§4): moves by from then to, ``pass`` last;
        Go placements by cell. Cached; callers must not mutate the list."""
        legal = self._legal
        if legal is not None:
            return legal
        if self.result is not None:
            legal = []
        elif self._pending:
            return [v - 1 for v in sorted(set(self.piles[self.side]))]
        elif self.placed < NUM_PLACEMENTS:
            bb = self.bitboards
            occ = bb[1] | bb[2] | bb[3] | bb[4] | bb[5] | bb[6]
            legal = [PLACE0 + x for x in dense_list(VALID & ~occ)]
        else:
            dm = self._dm
            if dm is None:
                dm = self._compute_dm()
            legal = dm[2] + dm[3]
            legal.sort()
            legal.append(PASS)
        self._legal = legal
        return legal

    def destinations(self, cell: str) -> list[str]:
        """``D(p)`` of the mover's piece on ``cell`` as cell names, canonical order (§4); [] if none."""
        b = cell_bit(cell)
        if b is None or self.result is not None or self.placed < NUM_PLACEMENTS:
            return []
        dm = self._dm if self._dm is not None else self._compute_dm()
        dest = dm[0].get(b) or dm[1].get(b) or 0
        return [NAME[x] for x in bits(dest)]

    # ------------------------------------------------------------------ make / unmake
    def apply_action(self, action: int) -> None:
        """Apply one legal action (§3–§5). Raises :class:`IllegalActionError`, state unchanged."""
        if type(action) is not int:
            if isinstance(action, bool) or not isinstance(action, int):
                raise IllegalActionError(f"action {action!r} is not an integer")
            action = int(action)
        if self.result is not None:
            raise IllegalActionError(f"action {action} is not legal: the game is over")
        if self._pending:
            self._apply_reveal(action)
            return
        if self.placed < NUM_PLACEMENTS:
            self._apply_place(action)
            return
        if 0 <= action < NMOVE:
            dm = self._dm
            if dm is None:
                dm = self._compute_dm()
            fb = FROM_BIT[action]
            tb = TO_BIT[action]
            board = self.board
            p = board[fb]
            side = self.side
            k = p - 3 * side - 2
            if not (0 <= k <= 1 and (dm[k][fb] >> tb) & 1):
                raise IllegalActionError(
                    f"action {action} ({NAME[fb]}-{NAME[tb]}) is not legal here")
            bb = self.bitboards
            q = board[tb]
            h0 = h = self.zobrist
            left0 = self.left
            t0 = self.turn
            legal0 = self._legal
            m = (1 << fb) | (1 << tb)
            board[tb] = p
            board[fb] = q
            bb[p] ^= m
            zp = ZOBRIST[p]
            h ^= zp[fb] ^ zp[tb]
            if q:
                bb[q] ^= m
                zq = ZOBRIST[q]
                h ^= zq[fb] ^ zq[tb]
            self.zobrist = h
            self._dm = None
            self._legal = None
            self.left = left = left0 - 1
            if _CHECK[p] or _CHECK[q]:
                if self._cards:
                    if self._check_win(side):
                        left = -1
                else:
                    c = bb[1]  # inline §5 test: is either core ringed by enemy attackers?
                    n = NBM[c.bit_length() - 1] if c & DEG6 else -1
                    c = bb[4]
                    n2 = NBM[c.bit_length() - 1] if c & DEG6 else -1
                    if (n >= 0 and bb[5] & n == n) or (n2 >= 0 and bb[2] & n2 == n2):
                        self._check_win(side)
                        left = -1
            self._stack.append((action, fb, tb, p, q, h0, left0, t0, side, legal0, dm,
                               self._end_turn() if left == 0 else None))
            return
        if action == PASS:
            rec = (action, -1, -1, 0, 0, self.zobrist, self.left, self.turn, self.side, self._legal, self._dm)
            self._dm = None
            self._legal = None
            info = self._end_turn()
            self._stack.append(rec + (info,))
            return
        raise IllegalActionError(f"action {action} is not legal here")

    def _apply_place(self, action: int) -> None:
        i = action - PLACE0
        if not 0 <= i < NUM_CELLS or self.board[BIT[i]]:
            what = f" ({NAME[BIT[i]]} is occupied)" if 0 <= i < NUM_CELLS else ""
            raise IllegalActionError(f"action {action} is not legal here{what}")
        b = BIT[i]
        side = self.side
        kind = placement_kind(self.placed)
        code = 1 + 3 * side + kind
        rec = (action, -1, b, code, 0, self.zobrist, self.left, self.turn, side, self._legal, self._dm)
        self._dm = None
        self._legal = None
        self._put(b, code)
        self.placed += 1
        info = None
        if kind != SUPPORT and self._check_win(side):
            # the side field of a placement text follows the count (a finished start reads "R 0 1")
            self.side = side ^ 1
            if self.placed == NUM_PLACEMENTS:
                self.turn = 1
                self.left = 0
        else:
            if self.placed == NUM_PLACEMENTS:
                self.side = RED
                self.turn = 1
                keys: list[int] = []
                self._begin_turn(keys)
                info = tuple(keys)
            else:
                self.side = side ^ 1
        self._stack.append(rec + (info,))

    def undo_action(self) -> None:
        """Take back the last action (make/unmake). Raises :class:`IllegalActionError` if there is none."""
        if not self._stack:
            raise IllegalActionError("no action to undo")
        _a, fb, tb, p, q, h, left, t, side, legal, dm, info = self._stack.pop()
        if info is not None and self._cards and len(self._stack) < self._sampled_past:
            info = self._past_info(info, len(self._stack))
        board = self.board
        bb = self.bitboards
        if fb >= 0:
            m = (1 << fb) | (1 << tb)
            board[fb] = p
            board[tb] = q
            bb[p] ^= m
            if q:
                bb[q] ^= m
        elif tb >= 0:
            board[tb] = 0
            bb[p] ^= 1 << tb
            self.placed -= 1
        self.zobrist = h
        self.left = left
        self.turn = t
        self.side = side
        self.result = None
        self._legal = legal
        self._dm = dm
        self._pending = fb == -2  # undoing a reveal returns to its chance node
        if info is not None:
            if self._cards:
                self.piles, self.rng_state, nrev, self.card = info
                del self.revealed[nrev:]
            else:
                rep = self.repetitions
                for k in info:
                    c = rep[k] - 1
                    if c:
                        rep[k] = c
                    else:
                        del rep[k]

    # ------------------------------------------------------------------ turns and ends
    def _end_turn(self) -> tuple:
        """End the current turn and start the next (skipping 0-move turns, §3). Returns undo info:
        the repetition keys added (standard, Go) or the card state before (cards)."""
        if self._cards:
            info = (self.piles, self.rng_state, len(self.revealed), self.card)
            self.turn += 1
            self.side ^= 1
            if self.turn > MAX_TURNS:
                self.left = 0
                self.result = [0.0, 0.0]
            else:
                self._reveal()
            return info
        self.turn = t = self.turn + 1
        self.side = side = self.side ^ 1
        if t > MAX_TURNS:
            self.left = 0
            self.result = [0.0, 0.0]
            return ()
        # fast path of _begin_turn's first iteration
        base = t if t < 6 else 6
        bb = self.bitboards
        core = bb[1 + 3 * side]
        left = base - (NBM[core.bit_length() - 1] & bb[5 - 3 * side]).bit_count() if core else base
        key = self.zobrist ^ Z_BASE[base] ^ (Z_SIDE if side else 0)
        rep = self.repetitions
        c = rep.get(key, 0) + 1
        rep[key] = c
        if c >= 3:
            self.left = left if left > 0 else 0
            self.result = [0.0, 0.0]
            return (key,)
        if left > 0:
            self.left = left
            return (key,)
        keys = [key]
        self.left = 0
        self.turn = t + 1
        self.side = side ^ 1
        self._begin_turn(keys)
        return tuple(keys)

    def allotment(self) -> int:
        """Moves of the current turn by §3: ``max(0, base(t) − k)`` (standard and Go)."""
        s = self.side
        core = self.bitboards[1 + 3 * s]
        k = (NBM[core.bit_length() - 1] & self.bitboards[5 - 3 * s]).bit_count() if core else 0
        return max(0, base_moves(self.turn) - k)

    def _begin_turn(self, keys: list[int]) -> None:
        """Start turn ``t`` of ``side``: cap, move count / card, repetition key, skips (§3, §5, §9.2)."""
        while True:
            if self.turn > MAX_TURNS:
                self.left = 0
                self.result = [0.0, 0.0]
                return
            if self._cards:
                self._reveal()
                return
            t = self.turn
            base = t if t < 6 else 6
            left = self.allotment()
            self.left = left
            key = self.zobrist ^ Z_BASE[base] ^ (Z_SIDE if self.side else 0)
            c = self.repetitions.get(key, 0) + 1
            self.repetitions[key] = c
            keys.append(key)
            if c >= 3:
                self.result = [0.0, 0.0]
                return
            if left:
                return
            self.turn = t + 1
            self.side ^= 1

    def _reveal(self) -> None:
        s = self.side
        pile = self.piles[s]
        if not pile:
            gen = SplitMix64()
            gen.state = self.rng_state
            fresh = list(FULL_PILE)
            gen.shuffle(fresh)
            self.rng_state = gen.state
            pile = tuple(fresh)
        if self._explicit:  # the card comes from the chance node (_apply_reveal)
            self.piles = (pile, self.piles[1]) if s == RED else (self.piles[0], pile)
            self.card = None
            self.left = 0
            self._pending = True
            self._legal = None
            return
        card = pile[0]
        self.piles = (pile[1:], self.piles[1]) if s == RED else (self.piles[0], pile[1:])
        self.card = card
        self.left = card
        self.revealed.append((s, self.turn, card))

    def _apply_reveal(self, outcome: int) -> None:
        """Explicit chance: the mover's pile shows a card of value ``outcome + 1`` (§9.2; each
        value with its share of the cards left in the pile)."""
        s = self.side
        pile = self.piles[s]
        value = outcome + 1 if type(outcome) is int else 0
        if value not in pile:
            raise IllegalActionError(f"chance outcome {outcome!r} is not a card value left in the pile")
        info = (self.piles, self.rng_state, len(self.revealed), self.card)
        self._stack.append((outcome, -2, -1, 0, 0, self.zobrist, self.left, self.turn, s, None, None, info))
        i = pile.index(value)
        pile = pile[:i] + pile[i + 1:]
        self.piles = (pile, self.piles[1]) if s == RED else (self.piles[0], pile)
        self.card = value
        self.left = value
        self.revealed.append((s, self.turn, value))
        self._pending = False
        self._legal = None
        self._dm = None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a pending reveal: ``(value − 1, share of that value in the pile)`` by value."""
        if not self._pending:
            return []
        pile = self.piles[self.side]
        return [(v - 1, pile.count(v) / len(pile)) for v in sorted(set(pile))]

    @property
    def explicit_chance(self) -> bool:  # type: ignore[override]
        return self._explicit

    def set_explicit_chance(self, on: bool) -> None:
        """Card variant: each turn's card is a chance node (:meth:`State.set_explicit_chance`).
        Switched on before the first action, the first turn's card goes back on its pile and
        becomes the first chance node."""
        if not self._cards:
            return
        if not on and self._pending:
            raise ValueError("a card is waiting to be revealed: resolve the chance node first")
        self._explicit = bool(on)
        if on and not self._stack and self.card is not None and self.result is None \
                and len(self.piles[self.side]) < len(FULL_PILE):
            s = self.side
            pile = (self.card,) + self.piles[s]
            self.piles = (pile, self.piles[1]) if s == RED else (self.piles[0], pile)
            self.card = None
            self.left = 0
            self._pending = True
            self._legal = None
            self._init_public = self.observation(0)

    def _any_surrounded(self) -> bool:
        bb = self.bitboards
        c = bb[1]
        if c & DEG6:
            n = NBM[c.bit_length() - 1]
            if bb[5] & n == n:
                return True
        c = bb[4]
        if c & DEG6:
            n = NBM[c.bit_length() - 1]
            if bb[2] & n == n:
                return True
        return False

    def surrounded(self, player: int) -> bool:
        """Whether ``player``'s core is on a 6-neighbour cell ringed by enemy attackers (§5)."""
        core = self.bitboards[1 + 3 * player]
        if not core & DEG6:
            return False
        n = NBM[core.bit_length() - 1]
        return self.bitboards[5 - 3 * player] & n == n

    def cards_pattern(self, player: int) -> bool:
        """Cards-variant win pattern of ``player`` (§9.2): all his attackers one group and ≥ 3 of
        the enemy core's on-board neighbours held by them."""
        att = self.bitboards[2 + 3 * player]
        core = self.bitboards[4 - 3 * player]
        if not att or not core:
            return False
        if (NBM[core.bit_length() - 1] & att).bit_count() < 3:
            return False
        return group_of(att & -att, att) == att

    def _check_win(self, mover: int) -> bool:
        """§5 / §9.2: test the mover, then the opponent; set the result. True if the game ended."""
        test = self.cards_pattern if self._cards else self._opponent_surrounded
        if test(mover):
            winner = mover
        elif test(mover ^ 1):
            winner = mover ^ 1
        else:
            return False
        self.result = [1.0, -1.0] if winner == RED else [-1.0, 1.0]
        return True

    def _opponent_surrounded(self, player: int) -> bool:
        return self.surrounded(player ^ 1)

    def winner(self) -> int | None:
        """0/1 for a decided game, ``None`` while running or drawn."""
        if self.result is None or self.result[0] == 0:
            return None
        return RED if self.result[0] > 0 else GREEN

    # ------------------------------------------------------------------ notation
    def action_to_string(self, action: int) -> str:
        """``e8-f9``, ``pass`` or ``S@e5`` (§4, §9.3)."""
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalActionError(f"action {action!r} is not an integer")
        if self._pending:
            return f"card {action + 1}"
        if 0 <= action < NMOVE:
            return f"{NAME[FROM_BIT[action]]}-{NAME[TO_BIT[action]]}"
        if action == PASS:
            return "pass"
        if PLACE0 <= action < NUM_ACTIONS:
            kind = placement_kind(self.placed) if self.placed < NUM_PLACEMENTS else SUPPORT
            return f"{'CAS'[kind]}@{NAME[BIT[action - PLACE0]]}"
        raise IllegalActionError(f"action {action} is outside the action space 0..{NUM_ACTIONS - 1}")

    def string_to_action(self, text: str) -> int:
        """Parse ``e8-f9`` / ``pass`` / ``S@e5``, in either case (``E8-F9``, ``s@E5``: cells and
        ``pass`` are lower case, the placed piece upper case, so case tells no two actions
        apart). Raises :class:`NotationError` for text that is not notation,
        :class:`IllegalActionError` for notation that is not legal here."""
        if not isinstance(text, str):
            raise NotationError(f"{text!r} is not a move string")
        s = text.strip()
        if s.lower() == "pass":
            action = PASS
        elif "@" in s:
            letter, _, cell = s.partition("@")
            b = self._cell(cell, s)
            letter = letter.upper()
            if letter not in ("C", "A", "S"):
                raise NotationError(f"{s!r}: placement piece must be C, A or S",
                                    i18n=message("fibonacci.refusal.piece_letter", move=repr(s)))
            if self.placed >= NUM_PLACEMENTS or self.result is not None:
                raise IllegalActionError(f"{s!r}: no placement is possible here",
                                         i18n=message("fibonacci.refusal.no_placement", move=repr(s)))
            want = "CAS"[placement_kind(self.placed)]
            if letter != want:
                raise IllegalActionError(f"{s!r}: placement {self.placed + 1} must place {want}",
                                         i18n=message("fibonacci.refusal.must_place", move=repr(s),
                                                      n=self.placed + 1, want=want))
            action = PLACE0 + DENSE[b]
        elif "-" in s:
            a, _, c = s.partition("-")
            fb = self._cell(a, s)
            tb = self._cell(c, s)
            action = DENSE[fb] * NUM_CELLS + DENSE[tb]
        else:
            raise NotationError(f"{s!r} is not Fibonacci notation (e8-f9, pass, S@e5)",
                                i18n=message("fibonacci.refusal.notation", move=repr(s)))
        if not self._is_legal(action):
            if self.result is not None:
                raise game_over(repr(s))
            raise not_legal(repr(s), self._why_illegal(action))
        return action

    def _why_illegal(self, action: int) -> tuple[str, dict[str, Any]] | None:
        """A player's reason why the move ``action`` is refused (§4), in English and as a message
        of the catalogs; ``None`` when there is none to tell (a placement, a card to reveal)."""
        if self._pending or not 0 <= action < NMOVE:
            return None
        fb, tb = FROM_BIT[action], TO_BIT[action]
        frm, to = NAME[fb], NAME[tb]
        if self.placed < NUM_PLACEMENTS:
            want = "CAS"[placement_kind(self.placed)]
            return (f"the pieces are still being placed ({want}@e5 places one on e5)",
                    message("fibonacci.refusal.placing", want=want))
        names = ("core", "attacker", "support")
        p, q = self.board[fb], self.board[tb]
        if not p:
            return f"{frm} is empty", message("fibonacci.refusal.empty", cell=frm)
        owner, kind = divmod(p - 1, 3)
        if owner != self.side:
            return (f"{frm} holds a {'Red' if owner == 0 else 'Green'} {names[kind]}: "
                    "you move your own attackers and supports",
                    message(f"fibonacci.refusal.not_yours.{owner}", cell=frm,
                            kind=message(f"fibonacci.refusal.kind.{KINDS[kind]}")))
        if kind == 0:
            return (f"{frm} holds your core, which moves only by being swapped",
                    message("fibonacci.refusal.core", cell=frm))
        if q == p:
            return (f"{to} holds another of your {names[kind]}s: swapping identical pieces changes nothing",
                    message(f"fibonacci.refusal.same.{KINDS[kind]}", cell=to))
        reach = ", ".join(self.destinations(frm))
        return (f"{to} is not next to the group of {names[kind]}s {frm} belongs to ({frm} may go to {reach})",
                message(f"fibonacci.refusal.not_next.{KINDS[kind]}", to=to, frm=frm, reach=reach))

    @staticmethod
    def _cell(name: str, whole: str) -> int:
        """The bit of cell ``name`` read in either case; the refusal quotes it as typed."""
        if not _CELL.match(name.lower()):
            raise NotationError(f"{whole!r}: {name!r} is not a cell name",
                                i18n=message("fibonacci.refusal.not_cell_name", move=repr(whole), cell=repr(name)))
        b = cell_bit(name.lower())
        if b is None:
            raise NotationError(f"{whole!r}: {name!r} is not a cell of the board",
                                i18n=message("fibonacci.refusal.not_cell", move=repr(whole), cell=repr(name)))
        return b

    def _is_legal(self, action: int) -> bool:
        if self.result is not None:
            return False
        if self.placed < NUM_PLACEMENTS:
            i = action - PLACE0
            return 0 <= i < NUM_CELLS and not self.board[BIT[i]]
        if action == PASS:
            return True
        if 0 <= action < NMOVE:
            dm = self._dm if self._dm is not None else self._compute_dm()
            fb = FROM_BIT[action]
            k = self.board[fb] - 3 * self.side - 2
            return 0 <= k <= 1 and bool((dm[k][fb] >> TO_BIT[action]) & 1)
        return False

    # ------------------------------------------------------------------ text
    def to_text(self) -> str:
        """Position text (§7, §9.2, §9.3); round-trips through ``state_from_text``."""
        rows = board_to_rows(self.board)
        side = "RG"[self.side]
        if self.placed < NUM_PLACEMENTS:
            return f"{rows} {side} P{self.placed}"
        text = f"{rows} {side} {self.left} {self.turn}"
        if self._cards:
            p0, p1 = self.piles
            text += f" {_pile_text(p0)} {_pile_text(p1)} rng={self.rng_state:016x}"
        return text

    def observation(self, player: int) -> str:
        """What ``player`` sees: the position text with hidden piles as ``?`` and no ``rng=`` (§9.2)."""
        check_player(player, 2)
        if not self._cards:
            return self.to_text()
        rows = board_to_rows(self.board)
        p0, p1 = self.piles
        return (f"{rows} {'RG'[self.side]} {self.left} {self.turn} "
                f"{'?' if p0 else '-'} {'?' if p1 else '-'}")

    def information_state_string(self, player: int) -> str:
        """Everything ``player`` knows: start (public part), actions, revealed cards, now (§10)."""
        if not self._cards:
            return super().information_state_string(player)
        acts = " ".join(str(a) for a in self.history())
        cards = " ".join(f"{'RG'[s]}{t}:{v}" for s, t, v in self.revealed)
        return f"{self._init_public} | {acts} | {cards} | {self.observation(player)}"

    def resample_from_infostate(self, player: int, rng: Any) -> "FibonacciState":
        """A state with the same public facts and freshly shuffled pile orders and generator state
        (drawn from ``rng``, a :class:`random.Random`). Perfect-information variants: a clone."""
        check_player(player, 2)
        new = self.clone()
        if self._cards:
            r = rng if rng is not None else random.Random()
            piles = []
            for pile in self.piles:
                # shuffled from a sorted copy: the sample then depends on what the player knows
                # (which cards are left), never on the hidden order itself
                cards = sorted(pile)
                r.shuffle(cards)
                piles.append(tuple(cards))
            new.piles = (piles[0], piles[1])
            new.rng_state = r.getrandbits(64)
            new._seed = None  # the real seed deals the real piles
            # the undo records up to here hold the real piles: undo_action rewrites them
            new._sampled_past = len(self._stack)
        return new

    def _past_info(self, info: tuple, index: int) -> tuple:
        """Undo record ``index``'s (piles, generator state, reveals, card) as a determinization
        undoes it (``self``: the position just after it, piles consistent with the sample), so
        that undoing never returns to the real hidden orders. A pile then was the cards its side
        revealed since, in order, then the pile now — or only those cards if it ran out in
        between (its length is public). The generator is the present one unless a pile was
        reshuffled since; then a value drawn from the sample's own."""
        piles_then, _, nrev, card = info
        later = self.revealed[nrev:]
        piles = []
        reshuffled = False
        for side, pile in enumerate(piles_then):
            shown = tuple(v for s, _, v in later if s == side)
            if len(shown) >= len(pile):
                piles.append(shown[:len(pile)])
                reshuffled = reshuffled or len(shown) > len(pile)
            else:
                piles.append(shown + self.piles[side])
        rng = self.rng_state
        if reshuffled:
            rng = random.Random(self.rng_state ^ index).getrandbits(64)
        return ((piles[0], piles[1]), rng, nrev, card)

    def hash_key(self) -> int:
        """Zobrist key of board, side, moves left, base(t) and placement count (plus piles, cards)."""
        t = self.turn
        k = self.zobrist ^ Z_LEFT[self.left] ^ Z_BASE[t if t < 6 else 6] ^ Z_PLACED[self.placed]
        if self.side:
            k ^= Z_SIDE
        if self._cards:
            k ^= hash((self.piles, self.rng_state)) & 0xFFFFFFFFFFFFFFFF
        return k

    # ------------------------------------------------------------------ parsing
    @classmethod
    def from_text(cls, game: "FibonacciGame", text: str) -> "FibonacciState":
        """Parse position text (§7). Raises :class:`PositionError` naming the problem."""
        if not isinstance(text, str):
            raise PositionError(f"position {text!r} is not a string")
        fields = text.split()
        if not fields:
            raise PositionError("empty position text")
        st = cls(game)
        cells = rows_to_cells(fields[0])
        for b, code in cells:
            st._put(b, code)
        if len(fields) < 2 or fields[1] not in ("R", "G"):
            raise PositionError(f"position {text!r}: side to move must be R or G")
        st.side = RED if fields[1] == "R" else GREEN
        counts = [0] * 7
        for _, code in cells:
            counts[code] += 1
        if len(fields) == 3 and fields[2].startswith("P"):
            if not st._go:
                raise PositionError(f"position {text!r}: placement phase 'P<k>' exists only in variant=go")
            k = _int_field(fields[2][1:], "placement count", text)
            if not 0 <= k < NUM_PLACEMENTS:
                raise PositionError(f"position {text!r}: placement count {k} is not in 0..25")
            if st.side != k % 2:
                raise PositionError(f"position {text!r}: placement {k + 1} belongs to {'RG'[k % 2]}")
            for player in (RED, GREEN):
                for kind, limit in ((CORE, 1), (ATTACK, 6), (SUPPORT, 6)):
                    todo = sum(1 for j in range(k, NUM_PLACEMENTS) if j % 2 == player and placement_kind(j) == kind)
                    n = counts[1 + 3 * player + kind]
                    if n + todo > limit:
                        raise PositionError(
                            f"position {text!r}: {n} {LETTERS[1 + 3 * player + kind]!r} on the board and "
                            f"{todo} still to place exceed {limit}")
            st.placed = k
            st.turn = 0
            st._finish_parse()
            return st
        # cards: rng= may be left out; the generator then starts from the seed option (0 when
        # absent), like any counter absent from a text (rules/README.md "Positions read from text")
        want = (6, 7) if st._cards else (4,)
        if len(fields) not in want:
            form = "<rows> <side> <left> <t>" + (" <redpile> <greenpile> [rng=<hex>]" if st._cards else "")
            raise PositionError(f"position {text!r}: expected {' or '.join(map(str, want))} fields ({form})")
        st.left = _int_field(fields[2], "moves left", text)
        st.turn = _int_field(fields[3], "turn number", text)
        if not 0 <= st.left <= 6:
            raise PositionError(f"position {text!r}: moves left {st.left} is not in 0..6")
        if st.turn < 1:
            raise PositionError(f"position {text!r}: turn number {st.turn} must be at least 1")
        if not st._cards and st.left > base_moves(st.turn):
            # no turn ever holds more than base(t) moves (§3); only the card variant's cards differ
            raise PositionError(f"position {text!r}: moves left {st.left} exceeds base(t) = "
                                f"{base_moves(st.turn)} of turn {st.turn}")
        for player in (RED, GREEN):
            if counts[1 + 3 * player] != 1:
                raise PositionError(f"position {text!r}: {'Red' if player == RED else 'Green'} needs exactly "
                                    f"one core, found {counts[1 + 3 * player]}")
            for kind in (ATTACK, SUPPORT):
                code = 1 + 3 * player + kind
                if counts[code] > 6:
                    raise PositionError(f"position {text!r}: {counts[code]} pieces {LETTERS[code]!r}, at most 6")
        if st._cards:
            st.piles = (_parse_pile(fields[4], text), _parse_pile(fields[5], text))
            if len(fields) == 6:
                st.rng_state = SplitMix64(st.game.options.get("seed") or 0).state
            elif not fields[6].startswith("rng=") or len(fields[6]) != 20:
                raise PositionError(f"position {text!r}: expected rng=<16 hex digits>, got {fields[6]!r}")
            else:
                try:
                    st.rng_state = int(fields[6][4:], 16)
                except ValueError:
                    raise PositionError(f"position {text!r}: {fields[6]!r} is not 16 hex digits") from None
        st._finish_parse()
        return st

    def _finish_parse(self) -> None:
        """rules/README.md "Positions read from text": end check as if the side not to move had just moved,
        then the turn-start bookkeeping (repetition key, cap, 0-move turn)."""
        mover = self.side ^ 1
        if self._check_win(mover):
            pass
        elif self.placed < NUM_PLACEMENTS:
            pass
        elif self.turn > MAX_TURNS:
            self.result = [0.0, 0.0]
        elif not self._cards and self.left == self.allotment():
            self._begin_turn([])
        elif self.left == 0:
            self._end_turn()
        self._stack = []
        self._init_public = self.observation(0)


def _pile_text(pile: tuple[int, ...]) -> str:
    return "".join(map(str, pile)) if pile else "-"


def _parse_pile(field: str, text: str) -> tuple[int, ...]:
    if field == "-":
        return ()
    if not field.isdigit() or any(ch not in "123456" for ch in field):
        raise PositionError(f"position {text!r}: pile {field!r} must be digits 1-6 or '-'")
    pile = tuple(int(ch) for ch in field)
    for v in range(1, 7):
        if pile.count(v) > 2:
            raise PositionError(f"position {text!r}: pile {field!r} holds {pile.count(v)} cards of value {v}, at most 2")
    return pile


def _int_field(field: str, what: str, text: str) -> int:
    if not ascii_digits(field):
        raise PositionError(f"position {text!r}: {what} {field!r} is not a decimal number")
    return int(field)


#: §2 standard start.
START_TEXT = "caaaaa/1a5/8/8S/2s3SSS1/3s3S3/1sss3S2/s8/8/5A1/AAAAAC R 1 1"
#: §9.3 empty board of the Go start.
EMPTY_TEXT = "6/7/8/9/10/11/10/9/8/7/6 R P0"
VARIANTS = ("standard", "cards", "go")


class FibonacciGame(Game):
    """Fibonacci (Thomas Naylor), variants ``standard``, ``cards`` and ``go`` (§9).

    Player 0 is Red (moves first), player 1 Green. Only ``variant=cards`` has chance and hidden
    information (the draw piles); the ``seed`` option exists for every variant.
    """

    name = "fibonacci"
    option_specs = (
        Option("variant", "standard", "standard, cards (moves from card draws) or go (placement start)",
               choices=VARIANTS),
        seed_option(),
    )
    min_players = 2
    max_players = 2

    def __init__(self, **options: Any):
        super().__init__(**options)
        self.variant: str = self.options["variant"]

    def describe(self) -> GameDescription:
        """Only the cards variant has chance and hidden information; see :mod:`.description`."""
        return self._parts.description.describe(self)

    @property
    def num_distinct_actions(self) -> int:
        """8373: 91·91 moves, ``pass``, 91 placements."""
        return NUM_ACTIONS

    def max_game_length(self) -> int:
        """The 300-turn cap (§5) bounds every game: a turn has at most ``left`` actions (each move
        uses one, ``pass`` ends the turn). Standard: sum of min(t, 6) for t = 1..300 = 1,785;
        Go: 26 placements more (1,811); cards: at most 6 per card (1,800)."""
        if self.variant == "cards":
            return 6 * MAX_TURNS
        ramp = sum(min(t, 6) for t in range(1, MAX_TURNS + 1))
        return ramp + (NUM_PLACEMENTS if self.variant == "go" else 0)

    def max_chance_outcomes(self) -> int:
        """Cards: a reveal shows a value 1..6 (outcomes 0..5); no in-game chance otherwise."""
        return 6 if self.variant == "cards" else 0

    def max_chance_nodes(self) -> int:
        """Cards: one reveal per turn."""
        return MAX_TURNS if self.variant == "cards" else 0

    def new_initial_state(self, seed: int | None = None) -> FibonacciState:
        """Start of a game: §2 layout (standard, cards) or the empty Go board; cards piles from ``seed`` (§10)."""
        if self.variant != "cards":  # no chance: a given seed is only remembered
            state = FibonacciState.from_text(self, EMPTY_TEXT if self.variant == "go" else START_TEXT)
            if seed is not None or self.options.get("seed") is not None:
                state._seed = seed if seed is not None else self.options["seed"]
            return state
        seed = self.resolve_seed(seed)
        assert seed is not None
        rng = SplitMix64(seed)
        red = list(FULL_PILE)
        rng.shuffle(red)
        green = list(FULL_PILE)
        rng.shuffle(green)
        state = FibonacciState(self)
        base = FibonacciState.from_text(FibonacciGame(variant="standard"), START_TEXT)
        state.board = base.board
        state.bitboards = base.bitboards
        state.zobrist = base.zobrist
        state.side = RED
        state.turn = 1
        state.placed = NUM_PLACEMENTS
        state.piles = (tuple(red), tuple(green))
        state.rng_state = rng.state
        state._reveal()
        state.revealed = []
        state._init_public = state.observation(0)
        state._seed = seed
        return state

    def state_from_text(self, text: str) -> FibonacciState:
        """Parse §7 position text (with ``P<k>`` for Go, piles and ``rng=`` for cards).

        Raises:
            PositionError: naming the problem.
        """
        return FibonacciState.from_text(self, text)

    def render(self, state: Any, player: int | None = None) -> Any:
        """A ``rich.text.Text`` hex board (see :mod:`.render`)."""
        return self._parts.render.render(state, player)

    def render_board(self) -> Any:
        """The empty board with cell names (``abstracta board fibonacci``)."""
        return self._parts.render.render_board()

    def board_svg(self) -> str:
        """The board as SVG, cell names in the cells."""
        return self._parts.render.board_svg()
