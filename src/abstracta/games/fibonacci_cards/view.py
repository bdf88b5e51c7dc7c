"""The Fibonacci card game's structured view (``State.to_struct``; envelope in
:mod:`abstracta.core.view`).

Spec: fibonacci-cards.md §1 (values), §3 (plays and notation), §4 (turn), §5 (end), §6 (piles,
hands, stock), §8 (what each seat may see).

A card is written as in the spec (``"Qh"``, ``"Tc"``) and described by ::

    {"card": "Qh", "rank": "Q", "suit": "h",
     "colour": "red_suit" | "black_suit",   # a key of the description's board palette
     "value": 12}                           # in a hand: hand value (§1: A = 14); in a pile: its
                                            # table value when upright on top (A = 1)

``board``::

    {"piles": [                              # piles 1, 2, 3, left to right (§2)
        {"id": "1", "x": 0,                  # "id": the pile number of the notation ("7h>1")
         "cards": [<card> + {"cut": bool}, ...],   # bottom→top; "cut": laid crosswise (§3.3)
         "top": "Qc", "cut": true,           # the top card; whether it lies crosswise
         "value": 1},                        # table value (§1: ace 1, cut-down pile 1)
        ...],
     "stock": {"id": "stock", "x": 3, "size": 33},   # face down: only its size is public
                                             # (+ "cards": top first, once the game is over)
     "hands": [                              # seat order
        {"seat": 0, "id": "hand0", "size": 8,
         "cards": [<card> + {"drawn": bool}, ...] | None},  # None: hidden from this viewer
        {"seat": 1, "id": "hand1", "size": 8, "cards": None}],
     "must_play_drawn": false}               # §4/§6 flag D: the mover drew a playable card
                                             # and must play it (public; the card is not)

A hand's ``cards`` are listed (in the order received, §6) for its owner only; a spectator
(``player=None``) sees no hand. Once the game is over nothing is hidden any more (the server
hands out the record, whose seed rebuilds every card), so every viewer sees both hands then;
``revealed_board_struct`` shows both hands of any position (the server's replay of a finished
game, also one that ended by resignation).
``"drawn": true`` marks the drawn card that must be played (the last card of the mover's
hand, shown to the mover only).

``choices`` (only for the seat to move)::

    {"cards": [                              # each card that may be played, canonical order
        {"card": "7h",
         "plays": [{"pile": "1", "kind": "sum" | "cut", "action": "7h>1"}, ...]},
        ...],
     "draw": {"action": "draw"} | None,      # §4: nothing playable, stock not empty
     "pass": {"action": "pass"} | None}      # §4: nothing playable, stock empty

``action_effects``: a play touches its pile (``["1"]``) and removes the card from the hand
(``["7h"]``); it reveals that card to every viewer except the one who played it. A ``draw``
touches ``["stock", "hand0"]`` and reveals the drawn card to the drawer only. ``pass`` touches
nothing. Each effect also carries ``"text"``: the step in words without hidden cards
with the sum or the pair that allows it (``"played 7h on pile 1 (2 + 5 = 7)"``,
``"cut pile 1 down with Qc (12 + 11 > 14; pile 1 now counts 1)"``, ``"drew a card"``, ``"passed"``).

``turn.left`` (:meth:`turn_left_struct`): ``{"must_play_drawn": true, "text": …}`` while the
mover must play the card he drew (the second action of a §4 turn), else ``None``.

``end`` (§5): ``{"reason": "empty-hand" | "blocked", "text": …, "hand_sizes": [n0, n1]}``.
"""

from __future__ import annotations

from typing import Any

from ...core.view import message
from .cards import ACTION_INDEX, CARD_STR, CODE_VALUE, CUT, DRAW, HAND_VALUE, PASS, RANK, pile_code

# Per-card constants, built once (a view is built on every server response).
_COLOUR = {"c": "black_suit", "s": "black_suit", "d": "red_suit", "h": "red_suit"}
#: (text, rank, suit, colour key, hand value, printed value) for each card 0..51.
_CARD_INFO: tuple[tuple[str, str, str, str, int, int], ...] = tuple(
    (s, s[0], s[1], _COLOUR[s[1]], HAND_VALUE[c], RANK[c] + 1) for c, s in enumerate(CARD_STR))
_PILE_IDS = ("1", "2", "3")


def _hand_card(card: int, drawn: bool) -> dict[str, Any]:
    text, rank, suit, colour, value, _ = _CARD_INFO[card]
    return {"card": text, "rank": rank, "suit": suit, "colour": colour, "value": value, "drawn": drawn}


def _pile_card(card: int) -> dict[str, Any]:
    text, rank, suit, colour, _, printed = _CARD_INFO[card & ~CUT]
    return {"card": text, "rank": rank, "suit": suit, "colour": colour, "value": printed,
            "cut": bool(card & CUT)}


#: Each card's entry in a pile by its code (upright, or ``| CUT``) and in a hand by (card, drawn):
#: shared by the boards of :meth:`FibonacciCardsView.shared_board_struct` (read-only), since a
#: play moves one card, not every card's entry.
_PILE_CARDS: dict[int, dict[str, Any]] = {c | cut: _pile_card(c | cut)
                                          for c in range(len(_CARD_INFO)) for cut in (0, CUT)}
_HAND_CARDS: tuple[tuple[dict[str, Any], dict[str, Any]], ...] = tuple(
    (_hand_card(c, False), _hand_card(c, True)) for c in range(len(_CARD_INFO)))


def _kept_hand_card(card: int, drawn: bool) -> dict[str, Any]:
    return _HAND_CARDS[card][drawn]


class FibonacciCardsView:
    """The structured-view hooks of :class:`.rules.FibonacciCardsState` (shapes: module doc)."""

    __slots__ = ()  # the state keeps its own slots

    _piles: list[list[int]]
    _hands: list[list[int]]
    _stock: list[int]
    _player: int
    _drawn: bool
    _terminal: bool
    _explicit: bool

    def board_struct(self, player: int | None) -> dict[str, Any]:
        """Piles, stock size and hands as ``player`` may see them (Spec §6, §8). Fresh data."""
        return self._board(player, self._terminal)

    def shared_board_struct(self, player: int | None) -> dict[str, Any]:
        """:meth:`board_struct` with the cards' entries shared by every board (read-only)."""
        return self._board(player, self._terminal, kept=True)

    def revealed_board_struct(self, player: int | None) -> dict[str, Any]:
        """:meth:`board_struct` with both hands and the stock's order shown (a finished game's
        replay: ``stock.cards``, top first; not at explicit chance, where no order is dealt)."""
        return self._board(player, True, stock_order=True)

    def _board(self, player: int | None, every_hand: bool, stock_order: bool = False,
               kept: bool = False) -> dict[str, Any]:
        """``kept``: the cards' entries from :data:`_PILE_CARDS` and :data:`_HAND_CARDS` (shared)."""
        pile_card, hand_card = (_PILE_CARDS.__getitem__, _kept_hand_card) if kept else (_pile_card, _hand_card)
        piles = []
        for i, pile in enumerate(self._piles):
            top = pile[-1]
            piles.append({"id": _PILE_IDS[i], "x": i, "cards": [pile_card(c) for c in pile],
                          "top": CARD_STR[top & ~CUT], "cut": bool(top & CUT),
                          "value": CODE_VALUE[pile_code(top)]})
        hands = []
        for seat, hand in enumerate(self._hands):
            cards = None
            if every_hand or seat == player:
                # the drawn card to be played is the last of the mover's hand (§6 flag D)
                last = len(hand) - 1 if self._drawn and seat == self._player and not self._terminal else -1
                cards = [hand_card(c, k == last) for k, c in enumerate(hand)]
            hands.append({"seat": seat, "id": f"hand{seat}", "size": len(hand), "cards": cards})
        stock: dict[str, Any] = {"id": "stock", "x": 3, "size": len(self._stock)}
        if stock_order and not self._explicit:  # dealt in order (a seeded deal): top card first
            stock["cards"] = [CARD_STR[c] for c in reversed(self._stock)]
        return {"piles": piles, "stock": stock, "hands": hands, "must_play_drawn": self._drawn and not self._terminal}

    def choices_struct(self, legal: list[str]) -> dict[str, Any]:
        """``legal`` grouped by card, each card with the piles it may go on (Spec §3, §4)."""
        cards: list[dict[str, Any]] = []
        by_card: dict[str, list[dict[str, str]]] = {}
        draw = pass_ = None
        for s in legal:
            if s == "draw":
                draw = {"action": s}
            elif s == "pass":
                pass_ = {"action": s}
            else:  # a play "7h>1" / "5s/2" (§3 notation): read back through the engine's table
                card, rem = divmod(ACTION_INDEX[s], 6)
                text = CARD_STR[card]
                plays = by_card.get(text)
                if plays is None:
                    plays = by_card[text] = []
                    cards.append({"card": text, "plays": plays})
                plays.append({"pile": _PILE_IDS[rem >> 1], "kind": "cut" if rem & 1 else "sum", "action": s})
        return {"cards": cards, "draw": draw, "pass": pass_}

    def action_effects(self, action: int, player: int | None) -> dict[str, Any]:
        """What ``action`` does, as ``player`` may see it (shapes: module doc)."""
        mover = self._player
        if action == DRAW:
            # the drawn card is the top of the stock (stored last); only the drawer sees it
            revealed = [CARD_STR[self._stock[-1]]] if player == mover and self._stock else []
            return {"touched": ["stock", f"hand{mover}"], "removed": [], "revealed": revealed,
                    "text": "drew a card", "message": message("fibonacci-cards.step.draw")}
        if action == PASS:
            return {"touched": [], "removed": [], "revealed": [], "text": "passed",
                    "message": message("fibonacci-cards.step.pass")}
        card, rem = divmod(action, 6)
        i = rem >> 1
        text, pile = CARD_STR[card], _PILE_IDS[i]
        why = self._why_cut(i) if rem & 1 else self._why_sum(i, HAND_VALUE[card])
        words = (f"cut pile {pile} down with {text} ({why}; pile {pile} now counts 1)" if rem & 1
                 else f"played {text} on pile {pile} ({why})")
        said = message("fibonacci-cards.step.cut" if rem & 1 else "fibonacci-cards.step.sum", pile=pile, card=text, why=why)
        return {"touched": [pile], "removed": [text], "revealed": [] if player == mover else [text],
                "text": words, "message": said}

    def _table_values(self) -> list[int]:
        return [CODE_VALUE[pile_code(pile[-1])] for pile in self._piles]

    def _why_sum(self, i: int, v: int) -> str:
        """Why a card of hand value ``v`` fits pile ``i`` as a sum (§3.1, §3.2): ``"2 + 5 = 7"``
        (piles in table order)."""
        t = self._table_values()
        for j in range(3):
            if j != i and t[i] + t[j] == v:
                a, b = (i, j) if i < j else (j, i)
                return f"{t[a]} + {t[b]} = {v}"
        return f"{t[0]} + {t[1]} + {t[2]} = {v}"  # triple sum (the only other way, §3.2)

    def _why_cut(self, i: int) -> str:
        """Why pile ``i`` may be cut down (§3.3): the largest pair with another pile, ``"12 + 11 > 14"``."""
        t = self._table_values()
        j = max((j for j in range(3) if j != i), key=lambda j: t[j])
        a, b = (i, j) if i < j else (j, i)
        return f"{t[a]} + {t[b]} > 14"

    def turn_left_struct(self) -> dict[str, Any] | None:
        """The second action of a §4 turn: the drawn card fits and must be played."""
        if self._drawn and not self._terminal:
            return {"must_play_drawn": True, "text": "the drawn card fits and must be played",
                    "message": message("fibonacci-cards.left.must_play")}
        return None

    def end_struct(self) -> dict[str, Any] | None:
        """Spec §5: a hand emptied, or the stock is empty and nobody can play. The words name no
        seat (the shell names the winner in its own words: "You", "Player 1"…)."""
        if not self._terminal:
            return None
        sizes = [len(self._hands[0]), len(self._hands[1])]
        if not sizes[0] or not sizes[1]:
            return {"reason": "empty-hand", "text": "The last card of a hand was played", "hand_sizes": sizes,
                    "message": message("fibonacci-cards.end.empty-hand")}
        few, many = min(sizes), max(sizes)
        result = (f"equal hands ({few} card{'s' if few != 1 else ''} each)" if few == many
                  else f"fewer cards in hand wins ({few} against {many})")
        why = (message("fibonacci-cards.end.equal", n=few) if few == many
               else message("fibonacci-cards.end.fewer", few=few, many=many))
        return {"reason": "blocked", "text": f"The stock is empty and nobody can play: {result}",
                "hand_sizes": sizes, "message": message("fibonacci-cards.end.blocked", result=why)}
