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
import random
import time

from ..core.description import Evaluator
from ..core.game import CHANCE, TERMINAL, Game, State
from .base import Budget, Deadline, as_budget, check_playable, most_visited, player_view, sample_chance

DEFAULT_MAX_NODES = 2_000_000
#: estimated tree memory cap: ≈ 200 bytes a node plus 8 bytes an untried action
DEFAULT_MAX_TREE_BYTES = 600_000_000
NODE_BYTES = 200
CALIBRATION_ITERATIONS = 64


def check_iteration_cap(max_iterations: int | None) -> int | None:
    """``max_iterations`` if it is ``None`` or at least 1; raises ``ValueError`` otherwise."""
    if max_iterations is not None and max_iterations < 1:
        raise ValueError(f"max_iterations must be at least 1, got {max_iterations}")
    return max_iterations


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


class MCTSBot:
    """UCT with random playouts.

    Args:
        game: the game.
        budget: per action — ``Budget(seconds=…)``, ``Budget(iterations=…)`` or seconds as a float.
        seed: seed of the bot's generator (playouts, expansion order).
        c: UCT exploration constant (returns are in [-1, 1]).
        max_rollout_actions: playout length cap before scoring with ``game.evaluate``.
        max_nodes: tree size cap; past it the search keeps playing out from leaves.
        max_tree_bytes: estimated tree memory cap (same effect), so a long search on a game
            with many actions stays well under 1 GB.
        use_undo: walk the tree and play out with ``apply_action``/``undo_action`` on one
            working state (``True``) or on a clone of the root made each iteration (``False``).
            ``None`` (default): for games with undo, time both on the first
            ``CALIBRATION_ITERATIONS`` iterations and keep the faster. The search result is the
            same either way (same actions, same random numbers).
        max_iterations: at most this many playouts even with a time budget (whichever ends
            first; a weaker level, ``Search.max_iterations``); ``None``: no cap beyond the budget.

    Attributes:
        iterations: playouts done in the last search.
        root: the tree of the last search.
        root_returns: per root action, every seat's summed returns over the playouts through
            it (a value for each seat, not only the mover's).
    """

    def __init__(self, game: Game, budget: Budget | float | None = None, seed: int | None = None,
                 c: float = 1.4, max_rollout_actions: int = 400, max_nodes: int = DEFAULT_MAX_NODES,
                 use_undo: bool | None = None, max_tree_bytes: int = DEFAULT_MAX_TREE_BYTES,
                 name: str | None = None, evaluator: Evaluator | None = None,
                 max_iterations: int | None = None):
        self.game = game
        self.evaluate: Evaluator = evaluator or game.evaluate
        self.budget = as_budget(budget)
        self.max_iterations = check_iteration_cap(max_iterations)
        self.rng = random.Random(seed)
        self.c = c
        self.max_rollout_actions = max_rollout_actions
        self.max_nodes = max_nodes
        self.max_tree_bytes = max_tree_bytes
        self.use_undo = use_undo
        self._faster_undo: bool | None = None
        self.name = name or f"mcts:{self.budget.text()}"
        self.iterations = 0
        self.nodes = 0
        self.tree_bytes = 0
        self.root: Node | None = None
        self.root_returns: dict[int, list[float]] = {}

    def restart(self) -> None:
        self.root = None

    def step(self, state: State) -> int:
        check_playable(state)
        legal = state.legal_actions()
        if len(legal) == 1:
            self.iterations = 0
            return legal[0]
        root_state = player_view(state, self.rng)
        root = self.search(root_state)
        legal_set = set(legal)
        best = most_visited(ch for ch in root.children if ch.action in legal_set)
        return best.action if best is not None else legal[0]

    def search(self, state: State) -> Node:
        """Run the budgeted search from ``state`` (never mutated); returns the root node."""
        budget = self.budget
        deadline = Deadline(budget.seconds, every=1)
        limit = budget.iterations if budget.iterations is not None else 1 << 62
        if self.max_iterations is not None:
            limit = min(limit, self.max_iterations)
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
            # backpropagation
            add_root_returns(totals, path, result)
            for visited in path:
                visited.visits += 1
                if visited.mover >= 0:
                    visited.value += result[visited.mover]
            if undo:
                for _ in range(applied):
                    s.undo_action()
            if calibrating:
                spent[undo] += clock() - started
                if iterations == CALIBRATION_ITERATIONS:
                    self._faster_undo = spent[1] < spent[0]
                    calibrating = False
                    undo = self._faster_undo
        self.iterations = iterations
        self.nodes = nodes
        self.tree_bytes = tree_bytes
        self.root = root
        self.root_returns = totals
        return root
