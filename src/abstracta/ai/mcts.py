"""Level 3+: Monte Carlo tree search (UCT with random playouts) for any number of players.

Each node stores its visit count and the sum of the returns of *the player who moved into
it* (the max^n backup: selection at a node compares its children on the component of the
player to move there, which is exactly what each child stores — the full per-player returns
vector would only add work). Multi-action turns need no special case: the same player simply
moves at the child too. Chance nodes (if a game exposes them) are sampled by their
probabilities. Playouts are uniformly random and stop after ``max_rollout_actions``; a
playout cut there is scored with ``game.evaluate`` for every player.

Games with hidden information are searched on one determinization of the root drawn with
``resample_from_infostate`` (no peeking); prefer :class:`~abstracta.ai.ismcts.ISMCTSBot` there.

Determinism: with an iteration budget and a seed the same state always gets the same action;
a time budget depends on the machine's speed.
"""

from __future__ import annotations

import math
import time
from typing import Iterable

from ..core.description import Evaluator
from ..core.game import CHANCE, TERMINAL, Game, State
from .base import Budget, player_view, sample_chance
from .tree import (DEFAULT_MAX_NODES, DEFAULT_MAX_TREE_BYTES, TreeSearchBot, add_root_returns, back_up,  # noqa: F401
                   check_iteration_cap, rollout)  # add_root_returns, check_iteration_cap: re-exported

#: ≈ bytes a node of the tree takes (with its slot in the parent's list)
NODE_BYTES = 200
CALIBRATION_ITERATIONS = 64


class Node:
    """One tree node: the position reached by ``action`` from the parent."""

    __slots__ = ("action", "mover", "player", "visits", "value", "untried", "children", "result")

    def __init__(self, action: int, mover: int, player: int):
        self.action = action
        self.mover = mover          # who played ``action`` (whose returns ``value`` sums)
        self.player = player        # to move here: 0..n-1, CHANCE or TERMINAL
        self.visits = 0
        self.value = 0.0
        self.untried: list[int] | None = None   # filled on the first visit
        self.children: list[Node] = []
        self.result: list[float] | None = None  # returns, for terminal nodes

    def __repr__(self) -> str:
        mean = self.value / self.visits if self.visits else 0.0
        return f"Node(action={self.action}, visits={self.visits}, mean={mean:.3f}, children={len(self.children)})"


class MCTSBot(TreeSearchBot):
    """UCT with random playouts.

    Args: those of :class:`~.tree.TreeSearchBot` (budget, seed, ``c``, playout cap, tree caps,
    evaluator, ``max_iterations``), and

        use_undo: walk the tree and play out with ``apply_action``/``undo_action`` on one
            working state (``True``) or on a clone of the root made each iteration (``False``).
            ``None`` (default): for games with undo, time both on the first
            ``CALIBRATION_ITERATIONS`` iterations and keep the faster. The search result is the
            same either way (same actions, same random numbers).

    Attributes: those of :class:`~.tree.TreeSearchBot`, and ``tree_bytes``, the last tree's
    estimated memory.
    """

    kind = "mcts"

    def __init__(self, game: Game, budget: Budget | float | None = None, seed: int | None = None,
                 c: float = 1.4, max_rollout_actions: int = 400, max_nodes: int = DEFAULT_MAX_NODES,
                 use_undo: bool | None = None, max_tree_bytes: int = DEFAULT_MAX_TREE_BYTES,
                 name: str | None = None, evaluator: Evaluator | None = None,
                 max_iterations: int | None = None):
        super().__init__(game, budget, seed, c, max_rollout_actions, max_nodes, max_tree_bytes, name, evaluator,
                         max_iterations)
        self.use_undo = use_undo
        self._faster_undo: bool | None = None
        self.tree_bytes = 0

    def _search_for_step(self, state: State) -> "Node":
        return self.search(player_view(state, self.rng))

    def _legal_children(self, root: "Node", legal: list[int]) -> Iterable["Node"]:
        legal_set = set(legal)
        return (ch for ch in root.children if ch.action in legal_set)

    def search(self, state: State) -> Node:
        """Run the budgeted search from ``state`` (never mutated); returns the root node."""
        deadline, limit = self._frame()
        n = state.num_players
        rng = self.rng
        rnd = rng.random
        c = self.c
        log = math.log
        sqrt = math.sqrt
        max_rollout = self.max_rollout_actions
        max_nodes = self.max_nodes
        max_bytes = self.max_tree_bytes
        tree_bytes = NODE_BYTES
        can_undo = state.supports_undo
        mode = self.use_undo if self.use_undo is not None else self._faster_undo
        calibrating = mode is None and can_undo
        undo = bool(mode) and can_undo
        clock = time.perf_counter
        spent = [0.0, 0.0]
        started = 0.0
        root = Node(-1, -1, state.current_player())
        totals: dict[int, list[float]] = {}
        nodes = 1
        work = state.clone() if can_undo else state
        iterations = 0
        while iterations < limit and (iterations == 0 or not deadline.expired()):
            iterations += 1
            if calibrating:
                undo = bool(iterations & 1)
                started = clock()
            s = work if undo else state.clone()
            node = root
            path = [root]
            applied = 0
            # selection and expansion
            while True:
                player = node.player
                if player == TERMINAL:
                    break
                if player == CHANCE:
                    action = sample_chance(s, rng)
                    s.apply_action(action)
                    applied += 1
                    for child in node.children:
                        if child.action == action:
                            break
                    else:
                        child = Node(action, CHANCE, s.current_player())
                        node.children.append(child)
                        nodes += 1
                        tree_bytes += NODE_BYTES
                    node = child
                    path.append(node)
                    continue
                untried = node.untried
                if untried is None:
                    if tree_bytes >= max_bytes or nodes >= max_nodes:
                        break  # tree full: play out from this leaf
                    untried = node.untried = list(s.legal_actions())
                    tree_bytes += 8 * len(untried)
                if untried and nodes < max_nodes and tree_bytes < max_bytes:
                    i = int(rnd() * len(untried))
                    action = untried[i]
                    untried[i] = untried[-1]
                    untried.pop()
                    s.apply_action(action)
                    applied += 1
                    child = Node(action, player, s.current_player())
                    node.children.append(child)
                    nodes += 1
                    tree_bytes += NODE_BYTES
                    path.append(child)
                    node = child
                    break
                children = node.children
                if not children:  # tree full before this node was expanded
                    break
                lnn = log(node.visits)
                best = None
                best_score = -1e300
                for child in children:
                    v = child.visits
                    score = child.value / v + c * sqrt(lnn / v)
                    if score > best_score:
                        best_score = score
                        best = child
                node = best
                s.apply_action(node.action)
                applied += 1
                path.append(node)
            # simulation
            if node.player == TERMINAL:
                result = node.result
                if result is None:
                    result = node.result = list(s.returns())
            else:
                result, plies = rollout(s, rnd, max_rollout, self.evaluate, n, rng)
                applied += plies
            back_up(totals, path, result)
            if undo:
                for _ in range(applied):
                    s.undo_action()
            if calibrating:
                spent[undo] += clock() - started
                if iterations == CALIBRATION_ITERATIONS:
                    self._faster_undo = spent[1] < spent[0]
                    calibrating = False
                    undo = self._faster_undo
        self._keep(root, totals, iterations, nodes)
        self.tree_bytes = tree_bytes
        return root
