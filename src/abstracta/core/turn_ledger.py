"""The turns of a game in play, counted once and carried from move to move (issue 44 §1).

:func:`~abstracta.core.turns.turn_numbers`, :func:`~abstracta.core.turns.turn_spans` and
:func:`~abstracta.core.turns.turns_played` read a whole game; a server asks them at every move,
so a game of 1,000 plies was counted again, in Python, 1,000 times. A :class:`TurnLedger` holds
their answers for the actions seen so far; :meth:`TurnLedger.follow` gives the ledger of a game
that goes on from them (the next move: only the new actions are counted) and counts afresh when
the game is not a continuation (a takeback, a turn played again in another order). A ledger is
never changed once made: the sessions of earlier revisions may still read theirs.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence


class TurnLedger(NamedTuple):
    """The turns of the actions played so far.

    ``movers`` and ``own``: per action, the seat that played it and the rules' turn number
    before it (:func:`~abstracta.core.turns.played_turns`); ``numbers``: the turn each belongs
    to (:func:`~abstracta.core.turns.turn_numbers`); ``spans``: the turns as ``(number, seat,
    first, stop)`` (:func:`~abstracta.core.turns.turn_spans`); ``before``: the seats' turns
    before the rules' first turn (spans numbered 0, chance left out), so that :attr:`turns` is
    :func:`~abstracta.core.turns.turns_played`'s count; ``top``: the highest number. Shared:
    never change the lists."""

    movers: list[int]
    own: list[int | None]
    numbers: list[int]
    spans: list[tuple[int, int, int, int]]
    before: int
    top: int

    @property
    def ply(self) -> int:
        return len(self.movers)

    @property
    def turns(self) -> int:
        """The turns played as a player reads them in the move list (``turns_played``)."""
        return self.top + self.before

    def follow(self, movers: Sequence[int], own: Sequence[int | None]) -> "TurnLedger":
        """The ledger of ``movers`` and ``own`` (a game's, as above): this one extended by the
        actions past it when they go on from it, else counted from the start. ``self`` is
        returned when nothing changed."""
        n = self.ply
        if len(movers) == n and len(own) == n and movers == self.movers and own == self.own:
            return self
        # list comparisons run in C: checking the prefix costs little beside counting in Python
        if len(movers) < n or list(movers[:n]) != self.movers or list(own[:n]) != self.own:
            return count_turns(movers, own)
        numbers = list(self.numbers)
        spans = list(self.spans)
        before, top = self.before, self.top
        number = numbers[-1] if numbers else 0
        for i in range(n, len(movers)):
            seat = movers[i]
            if own[i] is not None:
                number = own[i]  # type: ignore[assignment]
            elif i == 0 or seat != movers[i - 1]:
                number += 1
            numbers.append(number)
            top = max(top, number)
            if spans and spans[-1][1] == seat and spans[-1][0] == number:
                spans[-1] = (number, seat, spans[-1][2], i + 1)
            else:
                spans.append((number, seat, i, i + 1))
                if number == 0 and seat >= 0:
                    before += 1
        return TurnLedger(list(movers), list(own), numbers, spans, before, top)


#: the ledger of a game with no action played
EMPTY = TurnLedger([], [], [], [], 0, 0)


def count_turns(movers: Sequence[int], own: Sequence[int | None]) -> TurnLedger:
    """The ledger of ``movers`` and ``own``, counted from the start."""
    return EMPTY.follow(movers, own) if len(movers) else EMPTY


__all__ = ["EMPTY", "TurnLedger", "count_turns"]
