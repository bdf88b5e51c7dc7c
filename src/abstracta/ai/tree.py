"""What MCTS (:mod:`.mcts`) and IS-MCTS (:mod:`.ismcts`) share: one tree-search bot frame.

:class:`TreeSearchBot` holds the settings both take (budget, seed, exploration constant,
playout cap, tree caps, evaluator, iteration cap), plays a move from its ``search`` (the most
visited root child, ties to the better mean) and keeps what the last search found. Each
subclass writes its own ``search`` loop: selection and expansion differ (one tree of states
with untried lists and chance nodes; one tree of information sets with availability counts),
and the loop is the hot path, so it stays written out in one function with its locals. The two
share the playout (:func:`rollout`) and the backup (:func:`back_up`).

Nodes of both store the sum of the returns of *the player who moved into them* (the max^n
backup), so any number of players works.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Iterable

from ..core.description import Evaluator
from ..core.game import CHANCE, TERMINAL, Game, State
from .base import Budget, Deadline, as_budget, check_playable, most_visited, sample_chance

DEFAULT_MAX_NODES = 2_000_000
#: estimated tree memory cap: ≈ 200 bytes a node plus 8 bytes an untried action (MCTS), ≈ 300
#: bytes a node (IS-MCTS)
DEFAULT_MAX_TREE_BYTES = 600_000_000


def check_iteration_cap(max_iterations: int | None) -> int | None:
    """``max_iterations`` if it is ``None`` or at least 1; raises ``ValueError`` otherwise."""
    if max_iterations is not None and max_iterations < 1:
        raise ValueError(f"max_iterations must be at least 1, got {max_iterations}")
    return max_iterations


def add_root_returns(totals: dict, path: list, result: list[float]) -> None:
    """Add a playout's ``result`` (returns per seat) to the totals of the root action it went
    through (``path[1]``), from which each seat's value of a root action is read."""
    if len(path) > 1:
        t = totals.get(path[1].action)
        if t is None:
            totals[path[1].action] = list(result)
        else:
            for i, r in enumerate(result):
                t[i] += r


def back_up(totals: dict, path: list, result: list[float]) -> None:
    """One iteration's backup: ``result`` (returns per seat) into the root action's totals
    (:func:`add_root_returns`), a visit to every node of ``path`` (root first) and, to each node
    but the root, the return of the player who moved into it."""
    add_root_returns(totals, path, result)
    for visited in path:
        visited.visits += 1
        if visited.mover >= 0:
            visited.value += result[visited.mover]


def rollout(state: State, rng_random, max_actions: int, evaluate: Evaluator, n: int,
            rng: random.Random, policy=None) -> tuple[list[float], int]:
    """Play random actions from ``state`` (mutated) to the end or ``max_actions``, where
    ``evaluate(state, player)`` scores the cut playout for every player. With a ``policy``
    (``policy(state, legal, rng_random) -> action``, :data:`abstracta.ai.ismcts.PlayoutPolicy`)
    it chooses each action where there is a choice, instead of a uniformly random one.

    Returns (returns vector, actions applied)."""
    plies = 0
    while True:
        player = state.current_player()
        if player == TERMINAL:
            return state.returns(), plies
        if plies >= max_actions:
            return [evaluate(state, p) for p in range(n)], plies
        if player == CHANCE:
            state.apply_action(sample_chance(state, rng))
        else:
            legal = state.legal_actions()
            if policy is None:
                state.apply_action(legal[int(rng_random() * len(legal))])
            else:
                state.apply_action(legal[0] if len(legal) == 1 else policy(state, legal, rng_random))
        plies += 1


class TreeSearchBot:
    """The frame of a Monte Carlo tree search bot (see the module docstring).

    Args:
        game: the game.
        budget: per action — ``Budget(seconds=…)``, ``Budget(iterations=…)`` or seconds as a float.
        seed: seed of the bot's generator (playouts, expansion order, determinizations).
        c: UCT exploration constant (returns are in [-1, 1]).
        max_rollout_actions: playout length cap before scoring with ``game.evaluate``.
        max_nodes: tree size cap; past it the search keeps playing out from leaves.
        max_tree_bytes: estimated tree memory cap (same effect), so a long search on a game
            with many actions stays well under 1 GB.
        name: the bot's name (default ``<kind>:<budget>``).
        evaluator: scores a cut playout (default ``game.evaluate``).
        max_iterations: at most this many playouts even with a time budget (whichever ends
            first; a weaker level, ``Search.max_iterations``); ``None``: no cap beyond the budget.

    Attributes:
        iterations: playouts done in the last search (0 when the move was forced).
        nodes: nodes of the last search's tree.
        root: the tree of the last search.
        root_returns: per root action, every seat's summed returns over the playouts through
            it (a value for each seat, not only the mover's).
    """

    #: the seat-spec name, the start of the default ``name``
    kind: ClassVar[str] = ""

    def __init__(self, game: Game, budget: Budget | float | None = None, seed: int | None = None,
                 c: float = 1.4, max_rollout_actions: int = 400, max_nodes: int = DEFAULT_MAX_NODES,
                 max_tree_bytes: int = DEFAULT_MAX_TREE_BYTES, name: str | None = None,
                 evaluator: Evaluator | None = None, max_iterations: int | None = None):
        self.game = game
        self.evaluate: Evaluator = evaluator or game.evaluate
        self.budget = as_budget(budget)
        self.max_iterations = check_iteration_cap(max_iterations)
        self.rng = random.Random(seed)
        self.c = c
        self.max_rollout_actions = max_rollout_actions
        self.max_nodes = max_nodes
        self.max_tree_bytes = max_tree_bytes
        self.name = name or f"{self.kind}:{self.budget.text()}"
        self.iterations = 0
        self.nodes = 0
        self.root: Any = None
        self.root_returns: dict[int, list[float]] = {}

    def restart(self) -> None:
        self.root = None

    def step(self, state: State) -> int:
        """The action to play in ``state`` (never mutated): the only legal one, else the most
        visited root child of a search (:meth:`_search_for_step`). Raises like
        :func:`~abstracta.ai.base.check_playable` for a state nobody is to move in."""
        check_playable(state)
        legal = state.legal_actions()
        if len(legal) == 1:
            self.iterations = 0
            return legal[0]
        root = self._search_for_step(state)
        best = most_visited(self._legal_children(root, legal))
        return best.action if best is not None else legal[0]

    def _search_for_step(self, state: State) -> Any:
        """The root of the search :meth:`step` runs from ``state``."""
        raise NotImplementedError

    def _legal_children(self, root: Any, legal: list[int]) -> Iterable[Any]:
        """The root's children whose actions are in ``legal``, in the order ties are broken."""
        raise NotImplementedError

    def _frame(self) -> tuple[Deadline, int]:
        """A search's clock and its iteration limit (the budget's, within ``max_iterations``)."""
        budget = self.budget
        limit = budget.iterations if budget.iterations is not None else 1 << 62
        if self.max_iterations is not None:
            limit = min(limit, self.max_iterations)
        return Deadline(budget.seconds, every=1), limit

    def _keep(self, root: Any, totals: dict[int, list[float]], iterations: int, nodes: int) -> None:
        """Keep what a search found (the attributes of the class docstring)."""
        self.iterations = iterations
        self.nodes = nodes
        self.root = root
        self.root_returns = totals


__all__ = ["DEFAULT_MAX_NODES", "DEFAULT_MAX_TREE_BYTES", "TreeSearchBot", "add_root_returns",
           "back_up", "check_iteration_cap", "rollout"]
