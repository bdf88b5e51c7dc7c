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
from typing import Callable, Iterable

from ..core.description import Evaluator
from ..core.game import CHANCE, TERMINAL, Game, State
from .base import Budget, sample_chance
from .tree import DEFAULT_MAX_NODES, DEFAULT_MAX_TREE_BYTES, TreeSearchBot, back_up, rollout

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


class ISMCTSBot(TreeSearchBot):
    """SO-ISMCTS with determinization.

    Args: those of :class:`~.tree.TreeSearchBot` (``game``: any game — with perfect
    information every determinization is the state; ``max_tree_bytes`` at ≈ 300 bytes a node),
    and

        playout: ``policy(state, legal, rnd) -> action`` choosing each playout action where
            there is a choice (it may read the determinized state); ``None``: uniformly random.
        determinize: ``determinize(state, observer, rng) -> state`` drawing each iteration's
            full state (``Search.determinize``); ``None``: ``state.resample_from_infostate``.

    Attributes: those of :class:`~.tree.TreeSearchBot` (``iterations``: determinized playouts).
    """

    kind = "ismcts"

    def __init__(self, game: Game, budget: Budget | float | None = None, seed: int | None = None,
                 c: float = 1.4, max_rollout_actions: int = 400, max_nodes: int = DEFAULT_MAX_NODES,
                 max_tree_bytes: int = DEFAULT_MAX_TREE_BYTES, name: str | None = None,
                 evaluator: Evaluator | None = None, max_iterations: int | None = None,
                 playout: "PlayoutPolicy | None" = None, determinize: "Determinizer | None" = None):
        super().__init__(game, budget, seed, c, max_rollout_actions, max_nodes, max_tree_bytes, name, evaluator,
                         max_iterations)
        if self.budget.depth is not None:
            raise ValueError("ismcts takes a time (SECONDS) or iterations (iN) budget, not a depth")
        self.playout = playout
        self.determinize = determinize
        self.max_nodes = min(max_nodes, max_tree_bytes // IS_NODE_BYTES)

    def _search_for_step(self, state: State) -> ISNode:
        return self.search(state)

    def _legal_children(self, root: ISNode, legal: list[int]) -> Iterable[ISNode]:
        return (root.children[a] for a in legal if a in root.children)

    def search(self, state: State, observer: int | None = None) -> ISNode:
        """Run the budgeted search from what ``observer`` (default: ``state.current_player()``)
        knows; ``state`` is never mutated. ``root_returns`` then holds, per root action, the sum
        of every seat's returns over the iterations through it."""
        deadline, limit = self._frame()
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
            back_up(totals, path, result)
        self._keep(root, totals, iterations, nodes)
        return root

