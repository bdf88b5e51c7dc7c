"""Level 2: greedy play on the game's evaluator.

Each legal action is scored by ``game.evaluate`` of the position it leads to, from the
mover's point of view; a finished game scores its result (×10, so a win beats any evaluation).
When the same player moves again after an action (multi-action turns: Fanorona chains,
Nibble takes, Fibonacci's several moves) the most promising such actions are extended
greedily to the end of the turn and scored there; the rest of that planned turn is then
replayed by the following calls to :meth:`GreedyBot.step`.
"""

from __future__ import annotations

import random

from ..core.description import Evaluator
from ..core.game import Game, State
from .base import check_playable, player_view

WIN = 10.0


class GreedyBot:
    """Best evaluation after one action, or after the greedily completed turn.

    Args:
        game: the game whose ``evaluate`` is used.
        seed: breaks ties between equal scores (seeded ``random.Random``).
        extend: how many of the best-scoring actions that keep the turn going are completed
            greedily to the end of the turn before comparing (cost ≈ extend × turn length ×
            branching evaluations).
        max_turn_actions: longest continuation followed when completing a turn.
    """

    def __init__(self, game: Game, seed: int | None = None, extend: int = 6,
                 max_turn_actions: int = 12, name: str = "greedy", evaluator: Evaluator | None = None):
        self.game = game
        self.evaluate: Evaluator = evaluator or game.evaluate
        self.name = name
        self.rng = random.Random(seed)
        self.extend = extend
        self.max_turn_actions = max_turn_actions
        self._plan: list[int] = []
        self._plan_prefix: list[int] = []

    def restart(self) -> None:
        self._plan = []
        self._plan_prefix = []

    # --- scoring ----------------------------------------------------------------------------
    def _score(self, state: State, player: int) -> float:
        if state.is_terminal():
            return WIN * state.returns()[player]
        return self.evaluate(state, player)

    def _scored(self, state: State, player: int) -> list[tuple[float, float, int, bool]]:
        """(score, tie-break, action, same player moves again) for every legal action."""
        out = []
        undo = state.supports_undo
        for action in state.legal_actions():
            child = state if undo else state.clone()
            child.apply_action(action)
            again = child.current_player() == player
            out.append((self._score(child, player), self.rng.random(), action, again))
            if undo:
                child.undo_action()
        return out

    def _complete_turn(self, state: State, player: int) -> tuple[float, list[int]]:
        """Greedily finish ``player``'s turn in ``state`` (mutated); returns (score, actions)."""
        plan: list[int] = []
        while state.current_player() == player and len(plan) < self.max_turn_actions:
            best = max(self._scored(state, player))
            state.apply_action(best[2])
            plan.append(best[2])
        return self._score(state, player), plan

    # --- the bot ------------------------------------------------------------------------------
    def step(self, state: State) -> int:
        player = check_playable(state)
        legal = state.legal_actions()
        if self._plan:
            history = state.history()
            k = len(self._plan_prefix)
            if history[len(history) - k:] == self._plan_prefix and self._plan[0] in legal:
                action = self._plan.pop(0)
                self._plan_prefix.append(action)
                return action
            self._plan = []
        if len(legal) == 1:
            return legal[0]
        view = player_view(state, self.rng)
        scored = self._scored(view if view is not state else state.clone(), player)
        # scored = (score, tiebreak, action, again)
        choices = [(s, t, a, []) for s, t, a, again in scored if not again]
        continuing = sorted((x for x in scored if x[3]), reverse=True)[: self.extend]
        for s, t, a, _ in continuing:
            child = view.clone()
            child.apply_action(a)
            score, rest = self._complete_turn(child, player)
            choices.append((score, t, a, rest))
        if not choices:  # every action keeps the turn going and extend == 0
            choices = [(s, t, a, []) for s, t, a, _ in scored]
        score, _, action, rest = max(choices, key=lambda c: (c[0], c[1]))
        self._plan = list(rest)
        self._plan_prefix = [action]
        return action
