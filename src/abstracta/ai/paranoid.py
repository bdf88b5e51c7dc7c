"""Paranoid alpha-beta for games of three or more players (Sturtevant & Korf 2000; Sturtevant 2002).

The player to move at the root assumes that every other player plays against it alone: the
game becomes two-sided — the root player maximises its own value, the coalition of the others
minimises it — and is searched with the two-player negamax of
:class:`~abstracta.ai.alphabeta.AlphaBetaBot` (iterative deepening, transposition table, killer
and history ordering, seeded root bonuses). A node's side is *root player* or *coalition*; the
sign flips only when the side changes, so consecutive moves of two opponents are one side's.

Values are the root player's: its evaluator reading (``evaluate(state, root)``, in [-1, 1]) or
its return at the end. Unlike max^n, which backs up a vector and can prune almost nothing with
three or more players, paranoid keeps alpha-beta's cutoffs and so searches deeper in the same
time; it is usually the stronger of the two in practice (Sturtevant 2002, "A comparison of
algorithms for multi-player games"), at the price of seeing coalitions that real opponents do
not form.

Depth counts actions, as in alpha-beta: with ``n`` players a depth of ``n`` sees one move of
each. The transposition table holds values for one root player, so it is cleared when the bot
is asked to move for a different seat.
"""

from __future__ import annotations

from ..core.description import Evaluator
from ..core.game import CHANCE, TERMINAL, Game, State
from .alphabeta import WIN, AlphaBetaBot
from .base import Budget


class ParanoidBot(AlphaBetaBot):
    """Iterative-deepening paranoid alpha-beta for any number of players (two: plain alpha-beta).

    Args:
        game: the game (any number of players, no hidden information needed — a hidden-information
            game is searched on one determinization, as :class:`AlphaBetaBot` does).
        budget: ``Budget(seconds=…)``, ``Budget(depth=…)`` (deterministic) or seconds as a float.
        seed: seed of the root bonuses that break near-ties.
        evaluator: the heuristic ``evaluate(state, player)`` (default: the game's).
        Other arguments as :class:`AlphaBetaBot`.

    Attributes (besides :class:`AlphaBetaBot`'s):
        root_player: the seat the last search was for (``None`` before the first).
    """

    two_players_only = False

    def __init__(self, game: Game, budget: Budget | float | None = None, seed: int | None = None,
                 name: str | None = None, evaluator: Evaluator | None = None, **kwargs):
        super().__init__(game, budget, seed=seed, name=name or f"paranoid:{_text(budget)}", **kwargs)
        self._base: Evaluator = evaluator or game.evaluate
        self.root_player: int | None = None
        self.evaluate = self._for_side

    def _for_side(self, state: State, player: int) -> float:
        """The evaluator read for ``player``'s side: the root player's value, negated for the
        coalition."""
        value = self._base(state, self.root_player)  # type: ignore[arg-type]
        return value if player == self.root_player else -value

    def search(self, work: State) -> int:
        root = work.current_player()
        if root != self.root_player:
            self.restart()  # stored values are the previous root player's
            self.root_player = root
        return super().search(work)

    def _child_value(self, child: State, me: int, depth: int, alpha: float, beta: float, ply: int) -> float:
        root = self.root_player
        p = child.current_player()
        if p == TERMINAL:
            value = child.returns()[root] * (WIN - (ply + 1))  # type: ignore[index]
            return value if me == root else -value
        if p == CHANCE:
            return self.evaluate(child, me)
        if (p == root) == (me == root):  # the same side moves again
            return self._negamax(child, depth - 1, alpha, beta, ply + 1, p == me)
        return -self._negamax(child, depth - 1, -beta, -alpha, ply + 1)


def _text(budget: Budget | float | None) -> str:
    if isinstance(budget, Budget):
        return budget.text()
    return "1" if budget is None else f"{float(budget):g}"
