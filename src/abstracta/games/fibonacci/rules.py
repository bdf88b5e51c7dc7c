"""Fibonacci rules engine: one position plus the history the rules need (Spec: fibonacci.md).

Actions (integers, ``num_distinct_actions`` = 8373):

* ``from·91 + to`` (0 … 8280): move or swap, ``from``/``to`` dense cell indices (a1 = 0 … k11 = 90),
  so ascending integers are the spec's canonical order (§4);
* :data:`PASS` = 8281 (always listed last);
* :data:`PLACE0` + cell (8282 … 8372): Go-variant placement; the piece type follows from the
  placement number (§9.3).

The board is a padded bitboard (see :mod:`.geometry`); the legal list, destination masks and
Zobrist key are maintained incrementally and restored by :meth:`FibonacciState.undo_action`.

Beside the rules, below them: the move generation tables (:mod:`.movegen`), the position text
(:mod:`.position`), and three mixins of :class:`FibonacciState` — the action notation
(:mod:`.action_notation`), what a player knows (:mod:`.information`) and the structured view
(:mod:`.view`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from abstracta.core.description import GameDescription
from abstracta.core.errors import IllegalActionError
from abstracta.core.game import CHANCE, TERMINAL, Game, State
from abstracta.core.options import Option, seed_option
from abstracta.core.rng import SplitMix64

from .action_notation import FibonacciNotation
from .geometry import (
    BIT, DEG6, NAME, NBM, NUM_CELLS, STRIDE, VALID, Z_BASE, Z_LEFT, Z_PLACED, Z_SIDE,
    ZOBRIST, bits, dense_list, group_of,
)
from .information import FibonacciInformation
from .movegen import FROM_BIT, TO_BIT, type_moves
from .notation import (MAX_TURNS, NMOVE, NUM_ACTIONS, NUM_PLACEMENTS, PASS, PLACE0, SUPPORT, base_moves, cell_bit,
                       placement_kind)
from .position import EMPTY_TEXT, START_TEXT, parse_position, position_text
from .view import FibonacciView


RED, GREEN = 0, 1
EMPTY = 0
#: A full card pile, sorted (§9.2).
FULL_PILE = (1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6)

#: Codes whose movement can change a surround (attack pieces and cores).
_CHECK = (False, True, True, False, True, True, False)


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


class FibonacciState(FibonacciView, FibonacciNotation, FibonacciInformation, State):
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

    # ------------------------------------------------------------------ text and key
    def to_text(self) -> str:
        """Position text (§7, §9.2, §9.3; see :mod:`.position`); round-trips through ``state_from_text``."""
        return position_text(self.board, self.side, self.left, self.turn, self.placed,
                             self.piles if self._cards else None, self.rng_state)

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
        """Parse position text (§7, §9.2, §9.3; syntax in :func:`.position.parse_position`), then
        the rules' part of a position read from text (:meth:`_finish_parse`).

        Raises:
            PositionError: naming the problem.
        """
        pos = parse_position(text, game.variant, game.options.get("seed"))
        st = cls(game)
        for b, code in pos.cells:
            st._put(b, code)
        st.side = pos.side
        st.left = pos.left
        st.turn = pos.turn
        st.placed = pos.placed
        st.piles = pos.piles
        st.rng_state = pos.rng_state
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
