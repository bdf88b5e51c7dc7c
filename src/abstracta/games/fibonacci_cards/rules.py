"""State and move generation of the Fibonacci card game.

Spec: fibonacci-cards.md §3 (plays), §4 (turn), §5 (end and result), §8 (hidden information).

Actions (``cards.py``): a play is ``card * 6 + pile * 2 + kind`` (kind 0 = sum ``>``,
1 = cut-down ``/``), ``DRAW`` = 312, ``PASS`` = 313. The state carries the stock in full (with a
seed the engine resolves chance itself: a ``draw`` reveals the next stock card).
"""

from __future__ import annotations

import random
from typing import Any

from ...core.description import GameDescription
from ...core.errors import IllegalActionError, NotationError, PositionError, game_over, not_legal
from ...core.game import CHANCE, TERMINAL, Game, State, check_action_in, check_player
from ...core.options import Option, parse_int, seed_option
from ...core.rng import SplitMix64
from ...core.view import message
from .cards import (
    ACTION_INDEX, ACTION_KEY, ACTION_STR, CARD_STR, CUT, DRAW, FOLDED_INDEX, HAND_VALUE, NUM_ACTIONS, NUM_CARDS,
    PASS, config_of, config_table, pile_code, table_values,
)
from .notation import format_position, parse_position
from .view import FibonacciCardsView

_ZERO = (0.0, 0.0)
_KEY = ACTION_KEY.__getitem__


class FibonacciCardsState(FibonacciCardsView, State):
    """One position of the Fibonacci card game (two seats, three piles, a stock).

    Internals (read-only for callers): ``_piles`` (3 lists of cards bottom→top, crosswise
    cards ``| CUT``), ``_hands`` (2 lists in the order received), ``_stock`` (top card **last**),
    ``_player`` (seat whose turn it is; after the end, the seat that would be next), ``_drawn``
    (the §6 ``D`` flag), ``_cfg`` (table configuration, see ``cards.py``), ``_hmask`` (bitmask of
    each hand).
    """

    supports_undo = True

    __slots__ = ("game", "_piles", "_hands", "_hmask", "_stock", "_player", "_drawn", "_cfg",
                 "_terminal", "_returns", "_hist", "_log", "_legal", "_seed", "_explicit", "_pending")

    def __init__(self, game: "FibonacciCardsGame", piles: list[list[int]], hands: list[list[int]],
                 stock_top_last: list[int], player: int, drawn: bool = False, seed: int | None = None):
        self.game = game
        self._piles = piles
        self._hands = hands
        self._hmask = [_mask(hands[0]), _mask(hands[1])]
        self._stock = stock_top_last
        self._player = player
        self._drawn = drawn
        self._cfg = config_of([pile_code(p[-1]) for p in piles])
        self._terminal = False
        self._returns: tuple[float, float] = _ZERO
        self._hist: list[int] = []
        #: one entry per applied action: (action, player, drawn flag before, aux, cfg before);
        #: aux = index of the played card in the hand, or the drawn card.
        self._log: list[tuple[int, int, bool, int, int]] = []
        self._legal: list[int] | None = None
        self._seed = seed
        #: explicit chance mode (adapters): a ``draw`` waits at a chance node for its card
        self._explicit = False
        self._pending = False

    # --- construction checks (rules/README.md "Positions read from text") --------------------
    def _check_start(self) -> None:
        """Validate the ``D`` flag and apply the end conditions to a freshly built position."""
        hands = self._hands
        if not hands[0] and not hands[1]:
            raise PositionError("both hands are empty")
        if self._drawn:
            hand = hands[self._player]
            if not hand:
                raise PositionError(f"flag D: seat {self._player} has no drawn card in hand")
            if not config_table(self._cfg).playable >> hand[-1] & 1:
                raise PositionError(f"flag D: the drawn card {CARD_STR[hand[-1]]} (last in hand "
                                    f"{self._player}) is not playable")
        for seat in (0, 1):
            if not hands[seat]:
                self._finish(seat)
                return
        if not self._drawn:
            self._check_blocked()

    # --- the turn --------------------------------------------------------------------------
    def current_player(self) -> int:
        if self._terminal:
            return TERMINAL
        return CHANCE if self._pending else self._player

    def legal_actions(self) -> list[int]:
        """Legal actions, ASCII order of their strings (Spec: fibonacci-cards.md §3, §4)."""
        legal = self._legal
        if legal is not None:
            return legal
        if self._terminal:
            legal = []
        elif self._pending:
            return sorted(self._stock)
        else:
            plays = config_table(self._cfg).plays
            hand = self._hands[self._player]
            if self._drawn:
                legal = list(plays[hand[-1]])
            else:
                legal = []
                contributors = 0
                for card in hand:
                    p = plays[card]
                    if p:
                        legal.extend(p)
                        contributors += 1
                if contributors > 1:
                    legal.sort(key=_KEY)
                elif not legal:
                    legal = [DRAW] if self._stock else [PASS]
        self._legal = legal
        return legal

    def apply_action(self, action: int) -> None:
        """Apply one legal action (Spec §4). Raises :class:`IllegalActionError`, state unchanged."""
        if self._pending:
            self._apply_outcome(action)
            return
        legal = self._legal if self._legal is not None else self.legal_actions()
        if type(action) is not int or action not in legal:
            check_action_in(action, legal, self)
        player = self._player
        if action < DRAW:
            card, rem = divmod(action, 6)
            pile = rem >> 1
            hand = self._hands[player]
            idx = hand.index(card)
            self._log.append((action, player, self._drawn, idx, self._cfg))
            del hand[idx]
            self._hmask[player] ^= 1 << card
            if rem & 1:
                self._piles[pile].append(card | CUT)
                code = 13
            else:
                self._piles[pile].append(card)
                code = card % 13
            cfg = self._cfg
            if pile == 0:
                self._cfg = code * 196 + cfg % 196
            elif pile == 1:
                self._cfg = cfg - (cfg // 14 % 14) * 14 + code * 14
            else:
                self._cfg = cfg - cfg % 14 + code
            self._hist.append(action)
            self._legal = None
            if not hand:
                self._player = 1 - player
                self._drawn = False
                self._finish(player)  # §5: the last card of the hand wins at once
            else:
                self._end_turn(player)
        elif action == DRAW and self._explicit:
            self._hist.append(action)
            self._legal = None
            self._pending = True  # the card comes from the chance node (_apply_outcome)
        elif action == DRAW:
            card = self._stock.pop()
            self._log.append((action, player, self._drawn, card, self._cfg))
            self._hands[player].append(card)
            self._hmask[player] |= 1 << card
            self._hist.append(action)
            self._legal = None
            if config_table(self._cfg).playable >> card & 1:
                self._drawn = True  # §4: the turn continues with the drawn card
            else:
                self._end_turn(player)
        else:  # PASS
            self._log.append((action, player, self._drawn, -1, self._cfg))
            self._hist.append(action)
            self._legal = None
            self._end_turn(player)

    def _apply_outcome(self, card: int) -> None:
        """Explicit chance: the pending ``draw`` reveals ``card`` (any card of the stock, each
        equally likely: the stock is a uniform shuffle of the unseen cards, Spec §8). The card
        is swapped to the top of the stock and drawn; undo puts it back on top, so in this mode
        undo restores the stock as a set (its order means nothing here)."""
        stock = self._stock
        if type(card) is not int or card not in stock:
            check_action_in(card, sorted(stock), self)
        i = stock.index(card)
        stock[i], stock[-1] = stock[-1], stock[i]
        self._pending = False
        self._explicit = False  # the seeded branch pops the top card and logs the draw
        try:
            self.apply_action(DRAW)
        finally:
            self._explicit = True
        self._hist[-1] = card  # history: ..., draw, <card>

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a pending explicit ``draw``: every stock card with probability 1/len(stock)."""
        if not self._pending:
            return []
        p = 1.0 / len(self._stock)
        return [(c, p) for c in sorted(self._stock)]

    @property
    def explicit_chance(self) -> bool:  # type: ignore[override]
        return self._explicit

    def set_explicit_chance(self, on: bool) -> None:
        """Draws become chance nodes over the stock's cards (see :meth:`State.set_explicit_chance`)."""
        if not on and self._pending:
            raise ValueError("a draw is waiting for its card: resolve the chance node first")
        self._explicit = bool(on)

    def _end_turn(self, player: int) -> None:
        self._player = 1 - player
        self._drawn = False
        if not self._stock:
            self._check_blocked()

    def _check_blocked(self) -> None:
        """§5: stock empty and neither seat can play → the game ends at once."""
        if self._stock:
            return
        playable = config_table(self._cfg).playable
        if playable & self._hmask[0] or playable & self._hmask[1]:
            return
        n0, n1 = len(self._hands[0]), len(self._hands[1])
        self._terminal = True
        self._legal = []
        self._returns = (1.0, -1.0) if n0 < n1 else (-1.0, 1.0) if n1 < n0 else (0.0, 0.0)

    def _finish(self, winner: int) -> None:
        self._terminal = True
        self._legal = []
        self._returns = (1.0, -1.0) if winner == 0 else (-1.0, 1.0)

    def undo_action(self) -> None:
        """Take back the last action (make/unmake)."""
        if self._pending:  # an explicit draw waiting for its card
            self._pending = False
            self._hist.pop()
            self._legal = None
            return
        if not self._log:
            raise IllegalActionError("no action to undo")
        action, player, drawn, aux, cfg = self._log.pop()
        self._hist.pop()
        if action == DRAW and self._explicit:
            self._pending = True  # back to the chance node of that draw (history ends with draw)
        if action < DRAW:
            card, rem = divmod(action, 6)
            self._piles[rem >> 1].pop()
            self._hands[player].insert(aux, card)
            self._hmask[player] |= 1 << card
        elif action == DRAW:
            card = self._hands[player].pop()
            self._hmask[player] ^= 1 << card
            self._stock.append(card)
        self._player = player
        self._drawn = drawn
        self._cfg = cfg
        self._terminal = False
        self._returns = _ZERO
        self._legal = None

    # --- notation ----------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        """``7h>1`` (sum play), ``5s/2`` (cut-down), ``draw``, ``pass`` (Spec §3 "Notation");
        at an explicit chance node the drawn card, ``=7h``."""
        if self._pending and type(action) is int and 0 <= action < NUM_CARDS:
            return "=" + CARD_STR[action]
        if type(action) is not int or not 0 <= action < NUM_ACTIONS:
            raise IllegalActionError(f"action {action!r} is not an action of the Fibonacci card game")
        return ACTION_STR[action]

    def string_to_action(self, text: str) -> int:
        """Parse ``<card>><pile>``, ``<card>/<pile>``, ``draw`` or ``pass``, in either case
        (``qd/1`` is ``Qd/1``: a card is rank then suit, so case tells no two actions apart).

        Raises:
            NotationError: not notation at all.
            IllegalActionError: notation of an action that is not legal here.
        """
        if not isinstance(text, str):
            raise NotationError(f"{text!r} is not a move text")
        wanted = text.strip()
        action = ACTION_INDEX.get(wanted)
        if action is None:
            action = FOLDED_INDEX.get(wanted.lower())
        if action is None:
            raise NotationError(f"{wanted!r} is not a move: expected e.g. '7h>1', '5s/2', 'draw' or 'pass'",
                                i18n=message("fibonacci-cards.refusal.notation", move=repr(wanted)))
        if action not in self.legal_actions():
            if self._terminal:
                raise game_over(repr(wanted))
            why = self._why_not(action)
            if why is None:
                raise IllegalActionError(f"{wanted!r} is not legal here",
                                         i18n=message("fibonacci-cards.refusal.illegal", move=repr(wanted)))
            raise not_legal(repr(wanted), why)
        return action

    def _why_not(self, action: int) -> tuple[str, dict[str, Any]] | None:
        """Why the mover may not make ``action`` here (§3, §4), in English and as a message of
        the catalogs, to follow "is not legal here: "; it names only the mover's own cards and
        the table. ``None`` with nothing to tell (a card to reveal)."""
        if self._pending:
            return None
        legal = self.legal_actions()
        hand = self._hands[self._player]

        def said(text: str, key: str, **params: Any) -> tuple[str, dict[str, Any]]:
            return text, message(f"fibonacci-cards.refusal.{key}", **params)

        if self._drawn:
            drawn = CARD_STR[hand[-1]]
            if action == DRAW:
                return said(f"you have drawn already; play the drawn card, {drawn}", "drawn_already", card=drawn)
            return said(f"only the card you drew, {drawn}, may be played now", "drawn_only", card=drawn)
        if action == DRAW:
            return (said("the stock is empty; pass", "stock_empty") if legal == [PASS]
                    else said("you draw only when no card of your hand can be played", "draw_when"))
        if action == PASS:
            return (said("you pass only when the stock is empty; draw", "pass_when") if legal == [DRAW]
                    else said("a card of your hand can be played", "pass_playable"))
        card, pile, cut = action // 6, action // 2 % 3, action % 2
        if card not in hand:
            return said(f"{CARD_STR[card]} is not in your hand", "not_in_hand", card=CARD_STR[card])
        values = ", ".join(str(v) for v in table_values(self._cfg))
        if not cut:
            return said(f"{CARD_STR[card]} is worth {HAND_VALUE[card]}, and a sum play needs pile {pile + 1} and "
                        f"another pile to add up to it, or all three piles (the piles show {values})", "sum",
                        card=CARD_STR[card], value=HAND_VALUE[card], pile=pile + 1, values=values)
        top = CARD_STR[self._piles[pile][-1] % CUT]
        return said(f"a cut needs a card of the rank of pile {pile + 1}'s top card ({top}), not cut already, "
                    f"and pile {pile + 1} and another pile over 14 together (the piles show {values})", "cut",
                    pile=pile + 1, top=top, values=values)

    # --- results, copies, text ---------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self._terminal

    def returns(self) -> list[float]:
        """+1 win, −1 loss, 0/0 draw (Spec §5); ``[0, 0]`` while running."""
        return list(self._returns)

    def clone(self) -> "FibonacciCardsState":
        other = FibonacciCardsState.__new__(FibonacciCardsState)
        other.game = self.game
        p = self._piles
        other._piles = [p[0][:], p[1][:], p[2][:]]
        h = self._hands
        other._hands = [h[0][:], h[1][:]]
        other._hmask = self._hmask[:]
        other._stock = self._stock[:]
        other._player = self._player
        other._drawn = self._drawn
        other._cfg = self._cfg
        other._terminal = self._terminal
        other._returns = self._returns
        other._hist = self._hist[:]
        other._log = self._log[:]
        other._legal = self._legal
        other._seed = self._seed
        other._explicit = self._explicit
        other._pending = self._pending
        return other

    def history(self) -> list[int]:
        return list(self._hist)

    def to_text(self) -> str:
        """§6 position text (full information)."""
        return format_position(self._piles, self._hands, self._stock[::-1], self._player, self._drawn)

    def hash_key(self) -> int:
        return hash((self._cfg, tuple(self._hands[0]), tuple(self._hands[1]), tuple(self._stock),
                     self._player, self._drawn, self._terminal, self._pending))

    # --- accessors for bots and renderers (public information of the table) -----------------
    @property
    def piles(self) -> list[list[int]]:
        """The three piles, bottom→top (crosswise cards ``| CUT``). Do not mutate."""
        return self._piles

    @property
    def config(self) -> int:
        """Table configuration (``cards.config_table(state.config)`` answers who may play what)."""
        return self._cfg

    @property
    def must_play_drawn(self) -> bool:
        """The §6 ``D`` flag."""
        return self._drawn

    @property
    def stock_size(self) -> int:
        return len(self._stock)

    def hand_size(self, seat: int) -> int:
        return len(self._hands[seat])

    def hand(self, seat: int) -> list[int]:
        """Seat ``seat``'s hand (private to that seat: bots may only ask for their own)."""
        return list(self._hands[seat])

    # --- hidden information (Spec §8) -----------------------------------------------------------
    def observation(self, player: int) -> str:
        """What ``player`` sees now: §6 text with the opponent's hand and the stock as ``?N``."""
        _check_seat(player)
        hands: list[Any] = [None, None]
        hands[player] = self._hands[player]
        opp = self._hands[1 - player]
        hands[1 - player] = f"?{len(opp)}" if opp else "-"
        stock = f"?{len(self._stock)}" if self._stock else "-"
        return format_position(self._piles, hands, stock, self._player, self._drawn)

    def public_observation(self) -> str:
        """What a spectator sees: §6 text with both hands and the stock as ``?N``."""
        hands = [f"?{len(h)}" if h else "-" for h in self._hands]
        stock = f"?{len(self._stock)}" if self._stock else "-"
        return format_position(self._piles, hands, stock, self._player, self._drawn)

    def information_state_string(self, player: int) -> str:
        """Seat, observation and the public history as ``player`` saw it (his own draws name
        the drawn card, the opponent's are bare ``draw``)."""
        _check_seat(player)
        moves = []
        for action, who, _, aux, _ in self._log:
            if action == DRAW and who == player:
                moves.append(f"{who}:draw={CARD_STR[aux]}")
            else:
                moves.append(f"{who}:{ACTION_STR[action]}")
        return f"seat {player} | {self.observation(player)} | {' '.join(moves)}"

    def resample_from_infostate(self, player: int, rng: Any, infer: bool = False) -> "FibonacciCardsState":
        """A full state consistent with what ``player`` has seen (IS-MCTS determinization).

        Keeps ``player``'s hand, the piles, both hand sizes, the stock size and the history;
        deals the unseen cards (52 − his hand − the pile cards) at random into the opponent's
        hand and the stock (``rng``: a :class:`random.Random`; ``None``: a fresh one). If the opponent is to play a
        drawn card (``D``), his last card is drawn among the unseen cards that can be played.

        With ``infer`` the deal also respects what the opponent's public actions showed: he
        draws (or passes) only when no card of his hand fits the table, and a drawn card he
        does not play did not fit either, so each card he still holds avoids the cards that
        fitted at every such moment since he got it (:meth:`_opponent_constraints`; only
        public facts: not which of his cards a play came from). Off by default; the card game's
        levels 4-6 ask for it (``Search.determinize``).
        """
        _check_seat(player)
        if rng is None:  # as Fibonacci's card variant: a fresh generator, not an AttributeError
            rng = random.Random()
        other = self.clone()
        other._seed = None
        opp = 1 - player
        seen = self._hmask[player]
        for pile in self._piles:
            for card in pile:
                seen |= 1 << (card & ~CUT)
        unseen = [c for c in range(NUM_CARDS) if not seen >> c & 1]
        n_opp = len(self._hands[opp])
        n_stock = len(self._stock)
        need_playable = self._drawn and self._player == opp and not self._terminal
        last: list[int] = []
        playable = config_table(self._cfg).playable
        if need_playable:
            candidates = [c for c in unseen if playable >> c & 1]
            pick = candidates[rng.randrange(len(candidates))]
            unseen.remove(pick)
            last = [pick]
            n_opp -= 1
        forbidden = self._opponent_constraints(opp) if infer else None
        if forbidden is not None and need_playable:
            forbidden = forbidden[:-1]  # the drawn card waiting to be played is ``last``
        if forbidden is not None and len(forbidden) != n_opp:
            forbidden = None  # a history that does not add up (a position read from text)
        # the game is known to go on: with an empty stock someone must still be able to play
        must_unblock = not self._terminal and not self._stock and not playable & self._hmask[player]
        for _ in range(50):
            if forbidden is None:
                chosen = rng.sample(unseen, n_opp + n_stock)
                hand = chosen[:n_opp] + last
                stock = chosen[n_opp:]
            else:
                pool = list(unseen)
                rng.shuffle(pool)
                hand_cards = [0] * n_opp
                # the most constrained card first, each drawn among the cards it may be
                order = sorted(range(n_opp), key=lambda i: (forbidden[i] & _mask(pool)).bit_count(), reverse=True)
                for i in order:
                    options = [c for c in pool if not forbidden[i] >> c & 1] or pool
                    pick = options[rng.randrange(len(options))]
                    pool.remove(pick)
                    hand_cards[i] = pick
                hand = hand_cards + last
                stock = pool[:n_stock]
            hmask = _mask(hand)
            if not must_unblock or playable & hmask:
                break
        other._hands[opp] = hand
        other._hmask[opp] = hmask
        other._stock = stock
        # forget the opponent's private draws (they are not part of what player knows)
        other._log = [(a, w, d, -1 if (a == DRAW and w == opp) else aux, c) for a, w, d, aux, c in self._log]
        if self._player == opp:
            other._legal = None
        return other

    def _opponent_constraints(self, opp: int) -> list[int] | None:
        """For each card in ``opp``'s hand, oldest first: the mask of cards it cannot be, from
        public facts only — at each of his draws and passes nothing in his hand fitted the
        table, and a drawn card he did not play at once did not fit it either. ``None`` when
        the history does not add up (a position read from text with cards played).

        Which card of his hand a play came from is not public (only the drawn card he must play
        at once is): a play removes the oldest card whose mask allows the played card. The
        masks shrink from the oldest card to the newest (an older card was held at every moment
        a newer one was), so that is the weakest list the public history allows: never a mask a
        card he may hold breaks."""
        plays = sum(1 for a, w, *_ in self._log if w == opp and a < DRAW)
        draws = sum(1 for a, w, *_ in self._log if w == opp and a == DRAW)
        start = len(self._hands[opp]) + plays - draws
        if start < 0:
            return None
        slots = [0] * start
        for a, w, drawn, _aux, cfg in self._log:
            if w != opp:
                continue
            if a < DRAW:
                if not slots:
                    return None
                if drawn:
                    del slots[-1]  # the drawn card, played at once: public
                    continue
                card = a // 6
                for i, m in enumerate(slots):
                    if not m >> card & 1:
                        del slots[i]
                        break
                else:
                    return None
            elif a in (DRAW, PASS):
                fits = config_table(cfg).playable
                slots = [m | fits for m in slots]
                if a == DRAW:
                    # did not fit, or it is played next (and its slot removed then)
                    slots.append(fits)
        if self._drawn and self._player == opp and slots:
            slots[-1] = 0  # the drawn card he is about to play fitted (drawn among those)
        return slots


def _mask(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _check_seat(player: int) -> None:
    check_player(player, 2)


class FibonacciCardsGame(Game):
    """Two seats, three table piles, 8-card hands and a 33-card stock.

    Options: ``seed`` (shared generator, §8), ``first_player`` (0/1; ``None`` → the generator's
    ``below(2)`` after the shuffle, §8).
    """

    name = "fibonacci-cards"
    option_specs = (
        seed_option(),
        Option("first_player", None, "seat that leads (0 or 1); drawn by the seed if absent",
               choices=(0, 1), parser=parse_int),
    )
    min_players = 2
    max_players = 2

    def describe(self) -> GameDescription:
        """Chance (the deal, the stock) and hidden hands; see :mod:`.description`."""
        return self._parts.description.describe(self)

    @property
    def num_distinct_actions(self) -> int:
        """312 plays (card × pile × sum/cut) + ``draw`` + ``pass``."""
        return NUM_ACTIONS

    def max_game_length(self) -> int:
        """132 actions: at most 49 plays (16 dealt + 33 stock cards), 33 draws, and a ``pass``
        (empty stock, nothing playable) is followed by a play or by the end (§5: nobody can
        play), so at most plays + 1 = 50 passes."""
        return 49 + 33 + 50

    def max_chance_outcomes(self) -> int:
        """An explicit draw may reveal any of the 52 cards."""
        return NUM_CARDS

    def max_chance_nodes(self) -> int:
        """One per draw: the 33 stock cards."""
        return NUM_CARDS - 19

    def new_initial_state(self, seed: int | None = None) -> FibonacciCardsState:
        """Shuffle and deal (Spec §2, §8): seat 0 ``deck[0..7]``, seat 1 ``deck[8..15]``, piles
        ``deck[16..18]``, stock ``deck[19..51]`` (``deck[19]`` on top); the leader is
        ``first_player`` or the generator's next ``below(2)``."""
        seed = self.resolve_seed(seed)
        rng = SplitMix64(seed)
        deck = list(range(NUM_CARDS))
        rng.shuffle(deck)
        first = self.options.get("first_player")
        if first is None:
            first = rng.below(2)
        state = FibonacciCardsState(
            self, [[deck[16]], [deck[17]], [deck[18]]], [deck[0:8], deck[8:16]],
            deck[19:][::-1], first, False, seed)
        state._check_start()
        return state

    def state_from_text(self, text: str) -> FibonacciCardsState:
        """Parse §6 position text (any subset of the deck). Reading applies the end conditions
        (§5): an empty hand has won; stock empty and nobody able to play → over.

        Raises:
            PositionError: malformed text, a repeated card, a ``D`` flag whose last card is not
                playable, or two empty hands.
        """
        parsed = parse_position(text)
        state = FibonacciCardsState(self, parsed.piles, parsed.hands, parsed.stock[::-1],
                                    parsed.player, parsed.drawn, None)
        state._check_start()
        return state

    def render(self, state: Any, player: int | None = None) -> Any:
        return self._parts.render.render(state, player)
