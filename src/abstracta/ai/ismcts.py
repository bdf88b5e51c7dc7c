"""Information-set MCTS for games with hidden information (single observer, SO-ISMCTS).

Cowling, Powley & Whitehouse (2012). Every iteration draws a determinization of the root —
a full state consistent with what the searching player knows —
with ``state.resample_from_infostate(root_player, rng)``, then walks one shared tree whose
edges are action ids. An action that is legal in some determinizations and not in others is
handled with *availability counts*: a child's UCB term uses how often it was available at its
parent instead of the parent's visits. Nodes store, like :mod:`abstracta.ai.mcts`, the sum of
the returns of the player who moved into them (max^n backup), so any number of players works.

Playouts are uniformly random (or follow a given ``playout`` policy), capped at
``max_rollout_actions`` (then scored by ``game.evaluate``). Determinism: same seed and iteration budget → same action.
"""

from __future__ import annotations

import math
import random
from typing import Callable

from ..core.description import Evaluator
from ..core.game import CHANCE, TERMINAL, Game, State
from .base import Budget, Deadline, as_budget, check_playable, most_visited, sample_chance
from .mcts import DEFAULT_MAX_NODES, DEFAULT_MAX_TREE_BYTES, add_root_returns, check_iteration_cap, rollout

#: ``policy(state, legal, rnd) -> action``: a playout's choice among ``legal`` (``rnd``: the
#: search's ``random.random``); it may read the whole determinized state.
PlayoutPolicy = Callable[[State, list, Callable[[], float]], int]

#: ``determinize(state, observer, rng) -> state``: a full state consistent with what
#: ``observer`` knows (``Search.determinize``).
Determinizer = Callable[[State, int, random.Random], State]

IS_NODE_BYTES = 300  # node + its slot in the parent's dict


class ISNode:
    """A node of the information-set tree: the history reached by ``action`` from the parent."""

    __slots__ = ("action", "mover", "visits", "avail", "value", "children")

    def __init__(self, action: int, mover: int):
        self.action = action
        self.mover = mover
        self.visits = 0
        self.avail = 1
        self.value = 0.0
        self.children: dict[int, ISNode] = {}

    def __repr__(self) -> str:
        mean = self.value / self.visits if self.visits else 0.0
        return f"ISNode(action={self.action}, visits={self.visits}, avail={self.avail}, mean={mean:.3f})"


class ISMCTSBot:
    """SO-ISMCTS with determinization.

    Args:
        game: any game (perfect information works too: every determinization is the state).
        budget: ``Budget(seconds=…)``, ``Budget(iterations=…)`` or seconds as a float.
        seed: seed of the generator (determinizations, expansion, playouts).
        c: exploration constant (returns in [-1, 1]).
        max_rollout_actions: playout length cap.
        max_nodes: tree size cap (memory).
        max_tree_bytes: estimated tree memory cap (≈ 300 bytes a node).
        max_iterations: at most this many playouts even with a time budget (whichever ends
            first; a weaker level, ``Search.max_iterations``); ``None``: no cap beyond the budget.
        playout: ``policy(state, legal, rnd) -> action`` choosing each playout action where
            there is a choice (it may read the determinized state); ``None``: uniformly random.
        determinize: ``determinize(state, observer, rng) -> state`` drawing each iteration's
            full state (``Search.determinize``); ``None``: ``state.resample_from_infostate``.

    Attributes:
        iterations: determinized playouts done in the last search.
        root: the tree of the last search.
        root_returns: per root action, every seat's summed returns (``search``).
    """

    def __init__(self, game: Game, budget: Budget | float | None = None, seed: int | None = None,
                 c: float = 1.4, max_rollout_actions: int = 400, max_nodes: int = DEFAULT_MAX_NODES,
                 max_tree_bytes: int = DEFAULT_MAX_TREE_BYTES, name: str | None = None,
                 evaluator: Evaluator | None = None, max_iterations: int | None = None,
                 playout: "PlayoutPolicy | None" = None, determinize: "Determinizer | None" = None):
        self.game = game
        self.evaluate: Evaluator = evaluator or game.evaluate
        self.budget = as_budget(budget)
        self.max_iterations = check_iteration_cap(max_iterations)
        self.playout = playout
        self.determinize = determinize
        if self.budget.depth is not None:
            raise ValueError("ismcts takes a time (SECONDS) or iterations (iN) budget, not a depth")
        self.rng = random.Random(seed)
        self.c = c
        self.max_rollout_actions = max_rollout_actions
        self.max_nodes = min(max_nodes, max_tree_bytes // IS_NODE_BYTES)
        self.name = name or f"ismcts:{self.budget.text()}"
        self.iterations = 0
        self.nodes = 0
        self.root: ISNode | None = None
        self.root_returns: dict[int, list[float]] = {}

    def restart(self) -> None:
        self.root = None

    def step(self, state: State) -> int:
        check_playable(state)
        legal = state.legal_actions()
        if len(legal) == 1:
            self.iterations = 0
            return legal[0]
        root = self.search(state)
        best = most_visited(root.children[a] for a in legal if a in root.children)
        return best.action if best is not None else legal[0]

    def search(self, state: State, observer: int | None = None) -> ISNode:
        """Run the budgeted search from what ``observer`` (default: ``state.current_player()``)
        knows; ``state`` is never mutated. ``root_returns`` then holds, per root action, the sum
        of every seat's returns over the iterations through it."""
        budget = self.budget
        deadline = Deadline(budget.seconds, every=1)
        limit = budget.iterations if budget.iterations is not None else 1 << 62
        if self.max_iterations is not None:
            limit = min(limit, self.max_iterations)
        game = self.game
        if observer is None:
            observer = state.current_player()
        n = state.num_players
        totals: dict[int, list[float]] = {}
        rng = self.rng
        rnd = rng.random
        c = self.c
        log = math.log
        sqrt = math.sqrt
        max_rollout = self.max_rollout_actions
        max_nodes = self.max_nodes
        hidden = game.has_hidden_information
        determinize = self.determinize
        root = ISNode(-1, -1)
        nodes = 1
        iterations = 0
        while iterations < limit and (iterations == 0 or not deadline.expired()):
            iterations += 1
            if not hidden:
                s = state.clone()
            elif determinize is None:
                s = state.resample_from_infostate(observer, rng)
            else:
                s = determinize(state, observer, rng)
            node = root
            path = [root]
            while True:
                player = s.current_player()
                if player == TERMINAL:
                    break
                if player == CHANCE:
                    s.apply_action(sample_chance(s, rng))
                    continue
                legal = s.legal_actions()
                children = node.children
                untried = None
                for a in legal:
                    child = children.get(a)
                    if child is None:
                        if untried is None:
                            untried = [a]
                        else:
                            untried.append(a)
                if untried is not None and nodes < max_nodes:
                    for a in legal:
                        child = children.get(a)
                        if child is not None:
                            child.avail += 1
                    action = untried[int(rnd() * len(untried))]
                    child = ISNode(action, player)
                    children[action] = child
                    nodes += 1
                    s.apply_action(action)
                    path.append(child)
                    node = child
                    break
                if untried is not None and len(untried) == len(legal):
                    break  # tree full and nothing here yet: play out
                best = None
                best_score = -1e300
                for a in legal:
                    child = children.get(a)
                    if child is None:
                        continue
                    child.avail += 1
                    v = child.visits
                    score = child.value / v + c * sqrt(log(child.avail) / v)
                    if score > best_score:
                        best_score = score
                        best = child
                node = best
                s.apply_action(node.action)
                path.append(node)
            result, _ = rollout(s, rnd, max_rollout, self.evaluate, n, rng, self.playout)
            add_root_returns(totals, path, result)
            for visited in path:
                visited.visits += 1
                if visited.mover >= 0:
                    visited.value += result[visited.mover]
        self.iterations = iterations
        self.nodes = nodes
        self.root = root
        self.root_returns = totals
        return root

