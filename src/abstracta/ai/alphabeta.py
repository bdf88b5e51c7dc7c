"""Level 4+ for two-player games with perfect information: alpha-beta search.

Negamax with alpha-beta pruning and iterative deepening inside the time budget. The player to
move may be the same at consecutive plies (multi-action turns), so the sign flips only when
``current_player()`` changes. Depth counts actions, not turns.

* Leaves: ``game.evaluate(state, player_to_move)`` in [-1, 1]; optionally a turn still in
  progress with few legal actions (a capture chain) is first played out to its end.
* Terminal positions: ``returns()[player] × (WIN − ply)`` with ``WIN = 1000`` — results dominate
  evaluations, and a quicker win (slower loss) is preferred. With ``contempt`` a draw is worth
  less than nothing to the side the search plays for.
* Transposition table keyed by ``state.hash_key()`` storing (depth, value, bound, best action);
  win/loss scores are stored relative to the node so they stay valid at any ply.
* Move ordering: table move first, then two killer actions per ply, then the history heuristic
  (canonical order breaks ties, so the search is deterministic).
* Time (and the thread's stop signal, :func:`~abstracta.ai.base.stoppable`) is read every 256
  nodes; an unfinished iteration still counts when it already proved a move better than the
  previous iteration's choice.
* Variety: each root action gets a seeded bonus in [0, ``noise``) drawn once per search, far
  below a difference that matters, so equal and near-equal moves are chosen by the seed and
  the games of a match differ (a deterministic search would replay one game per seat order).

* Repetitions (games with a repetition draw, ``State.repetition_count``): a position that
  already occurred in the game or on the searched line is a draw where it recurs, as chess
  engines score it: a side that is ahead never steps back into a position it has seen, so it
  cannot shuffle into a threefold repetition from a won endgame (issue 46: level 6 on 9×5
  drew two stones against one so). Such a value belongs to the line, not the position (the
  table is keyed without history), so a node whose value rests on one is not stored in the
  transposition table — stored, it turned the next move's search of a won position into a
  draw (the graph-history interaction).

Hidden information (not what this bot is for) is handled by searching one determinization.
"""

from __future__ import annotations

import random
from typing import Any

from ..core.description import Evaluator
from ..core.game import CHANCE, TERMINAL, Game, State
from .base import Budget, as_budget, check_playable, player_view, search_clock, stop_signal

WIN = 1000.0
WIN_THRESHOLD = WIN - 500.0
EXACT, LOWER, UPPER = 0, 1, 2
MAX_DEPTH = 64
#: Root bonus cap: below the smallest evaluator step that means something (Fanorona's mobility
#: step is ≈ 0.0025, one stone ≈ 0.036), so it mostly decides between equal moves.
DEFAULT_NOISE = 0.004
#: Late move reductions (``reductions``): the first this many actions of a node (table move,
#: killers, the best by history) are searched to full depth, later ones first reduced.
LMR_FULL_ACTIONS = 3
#: ... and only where at least this much depth is left (a reduced child keeps one action).
LMR_MIN_DEPTH = 3
#: A null window's width: values are floats, so "is it above alpha?" is asked of (alpha, alpha + ε).
NULL_WINDOW = 1e-9


class _Timeout(Exception):
    pass


class AlphaBetaBot:
    """Iterative-deepening negamax alpha-beta for two players.

    Args:
        game: a two-player game (``ValueError`` otherwise).
        budget: ``Budget(seconds=…)`` (default 1 s) or ``Budget(depth=…)`` (deterministic), or
            seconds as a float.
        seed: seed of the root bonuses that break near-ties (same seed and a depth budget →
            same moves).
        noise: the largest root bonus, in evaluator units (the evaluators are in [-1, 1]);
            0 gives the deterministic first-best move.
        max_table: transposition-table entries kept before it is cleared (memory cap).
        turn_extension: at the depth limit, a turn still in progress with at most this many
            legal actions (a capture chain) is searched on to its end; 0 (default) turns this
            off. A game sets it in its level search (`Search.turn_extension`): Fanorona finishes
            capture chains (8), or depth parity decides its games (issue 17).

        max_depth: deepest iteration even when time is left (a level held below what its
            time would reach: ``Search.max_depth``); ``None``: as deep as the budget allows.
        max_nodes: stop a search after about this many positions (checked every 256 nodes, so
            a deterministic budget like a depth; the analysis board uses it); ``None``: no cap.
        track_pv: after each completed iteration, read the principal variation from the
            transposition table into ``pv`` (with its value in ``pv_value``).
        reductions: late move reductions: at a node with at least :data:`LMR_MIN_DEPTH` actions
            of depth left, every action after the first :data:`LMR_FULL_ACTIONS` (in the
            search's order) is first searched this many actions shallower with a null window
            at alpha, and searched again at full depth and window only if it beats alpha — a
            selective search that reaches deeper in the same time and can miss a late action's
            point the reduced search did not see; 0 (default): every action at full depth.
        contempt: what a draw (a finished game whose returns are all 0) costs the player the
            search is for (the root's player), in evaluator units: it is worth ``-contempt`` to
            him and ``+contempt`` to his opponent, so he plays on from a position he judges
            less than ``contempt`` worse than level rather than take a draw — against a weaker
            opponent, in a game where best play draws; 0 (default): a draw is worth 0.

    Attributes:
        depth: deepest completed iteration of the last search.
        nodes: positions visited in the last search.
        value: value of the chosen action for the mover (WIN-scaled for forced results).
    """

    #: a subclass that searches more players (``ParanoidBot``) clears it
    two_players_only = True

    def __init__(self, game: Game, budget: Budget | float | None = None, seed: int | None = None,
                 max_table: int = 500_000, turn_extension: int = 0, name: str | None = None,
                 evaluator: Evaluator | None = None, noise: float = DEFAULT_NOISE,
                 max_nodes: int | None = None, track_pv: bool = False, max_depth: int | None = None,
                 reductions: int = 0, contempt: float = 0.0):
        if self.two_players_only and game.num_players != 2:
            raise ValueError(f"alphabeta plays two-player games only; {game.name} has {game.num_players} players")
        self.game = game
        self.evaluate: Evaluator = evaluator or game.evaluate
        self.budget = as_budget(budget)
        if self.budget.iterations is not None:
            raise ValueError("alphabeta takes a time (SECONDS) or depth (dN) budget, not iterations")
        self.rng = random.Random(seed)
        self.max_table = max_table
        self.noise = noise
        self._bonus: dict[int, float] = {}
        self.turn_extension = turn_extension
        self.max_nodes = max_nodes
        if max_depth is not None and max_depth < 1:
            raise ValueError(f"a depth cap must be at least 1, got {max_depth}")
        self.max_depth = max_depth
        if reductions < 0:
            raise ValueError(f"reductions must be 0 or more actions, got {reductions}")
        self.reductions = reductions
        if not 0 <= contempt < 1:
            raise ValueError(f"contempt must be at least 0 and below 1 (evaluator units), got {contempt}")
        self.contempt = contempt
        self._for = -1  # the player the search is for (the root's), who pays the contempt
        self.track_pv = track_pv
        self.pv: list[int] = []
        self.pv_value = 0.0
        self.name = name or f"alphabeta:{self.budget.text()}"
        self.table: dict[int, tuple[int, float, int, int]] = {}
        self.history_scores: dict[int, int] = {}
        self.killers: list[list[int]] = [[-1, -1] for _ in range(MAX_DEPTH + 2)]
        self.depth = 0
        self.nodes = 0
        self.value = 0.0
        #: draws by repetition the search has scored (values that belong to their line)
        self.history_draws = 0
        self._end = float("inf")
        self._stop = stop_signal()

    def restart(self) -> None:
        self.table.clear()
        self.history_scores.clear()

    def __getstate__(self) -> dict[str, Any]:
        # the stop signal belongs to the thread that searches (search() reads it again), and an
        # Event holds a lock, which neither pickles nor deep-copies
        fields = dict(self.__dict__)
        del fields["_stop"]
        return fields

    def __setstate__(self, fields: dict[str, Any]) -> None:
        self.__dict__.update(fields)
        self._stop = stop_signal()

    # --- the bot ----------------------------------------------------------------------------
    def step(self, state: State) -> int:
        check_playable(state)
        legal = state.legal_actions()
        if len(legal) == 1:
            self.depth = 0
            self.nodes = 0
            return legal[0]
        work = player_view(state, self.rng).clone()
        return self.search(work)

    def search(self, work: State) -> int:
        """Iterative deepening from ``work`` (may be mutated); returns the best action."""
        budget = self.budget
        start = search_clock()
        self._end = start + budget.seconds if budget.seconds is not None else float("inf")
        self._stop = stop_signal()
        max_depth = min(budget.depth if budget.depth is not None else MAX_DEPTH, self.max_depth or MAX_DEPTH)
        if len(self.table) > self.max_table:
            self.table.clear()
        for k in self.killers:
            k[0] = k[1] = -1
        for a in list(self.history_scores):
            self.history_scores[a] >>= 2
        self.nodes = 0
        if self.contempt and work.current_player() != self._for:
            # stored values price draws for one side: they do not hold for the other
            self.table.clear()
        self._for = work.current_player()
        legal = work.legal_actions()
        self._bonus = {a: self.rng.random() * self.noise for a in legal} if self.noise > 0 else {}
        best_action = legal[0]
        self.depth = 0
        for depth in range(1, max_depth + 1):
            value, action, complete = self._root(work, depth)
            if action is not None:
                best_action = action
                self.value = value
            if not complete:
                break
            self.depth = depth
            if self.track_pv and action is not None:
                self.pv = self.principal_variation(work, action, depth + self.turn_extension)
                self.pv_value = value
            if abs(value) >= WIN_THRESHOLD:
                break  # a forced result: deeper search cannot change it
            if budget.seconds is not None and search_clock() - start > 0.6 * budget.seconds:
                break  # the next iteration would not finish
        return best_action

    def principal_variation(self, state: State, first: int, limit: int) -> list[int]:
        """The best line from ``state`` (not changed): ``first``, then the best action the
        transposition table stores for each following position, at most ``limit`` actions. It
        stops where the table has no entry, at a repeated position and at chance nodes."""
        line = [first]
        s = state.clone()
        s.apply_action(first)
        seen = {s.hash_key()}
        while len(line) < limit and s.current_player() >= 0:
            entry = self.table.get(s.hash_key())
            if entry is None or entry[3] < 0 or entry[3] not in s.legal_actions():
                break
            s.apply_action(entry[3])
            line.append(entry[3])
            key = s.hash_key()
            if key in seen:
                break
            seen.add(key)
        return line

    # --- search -----------------------------------------------------------------------------
    def _ordered(self, state: State, tt_move: int, ply: int) -> list[int]:
        legal = state.legal_actions()
        hist = self.history_scores
        if hist:
            ordered = sorted(legal, key=lambda a: -hist.get(a, 0))
        else:
            ordered = list(legal)
        front = []
        if tt_move >= 0 and tt_move in legal:
            front.append(tt_move)
        for k in self.killers[ply]:
            if k >= 0 and k != tt_move and k in legal:
                front.append(k)
        if front:
            for a in front:
                ordered.remove(a)
            ordered[:0] = front
        return ordered

    def _root(self, state: State, depth: int) -> tuple[float, int | None, bool]:
        """Search the root to ``depth``: (value, best action, whether the iteration finished)."""
        me = state.current_player()
        entry = self.table.get(state.hash_key())
        ordered = self._ordered(state, entry[3] if entry else -1, 0)
        alpha, beta = -2 * WIN, 2 * WIN
        best_action = None
        best = -2 * WIN     # with the root bonus: what the choice compares
        best_raw = best     # without it: what is stored and reported
        bonus = self._bonus
        undo = state.supports_undo
        draws_before = self.history_draws
        try:
            for action in ordered:
                child = state if undo else state.clone()
                child.apply_action(action)
                b = bonus.get(action, 0.0)
                # window shifted by the bonus: a fail-low below alpha - b cannot beat ``best``
                raw = self._child_value(child, me, depth, alpha - b, beta - b, 0)
                v = raw + b
                if undo:
                    child.undo_action()
                if v > best:
                    best, best_raw, best_action = v, raw, action
                if v > alpha:
                    alpha = v
        except _Timeout:
            # keep a move only if it was proved better than the previous iteration's first move
            if best_action is not None and best_action != ordered[0]:
                return best_raw, best_action, False
            return best_raw, None, False
        self.table[state.hash_key()] = (depth if self.history_draws == draws_before else -1, best_raw, EXACT,
                                        best_action if best_action is not None else -1)
        return best_raw, best_action, True

    def _draw(self, me: int) -> float:
        """A draw's value for ``me``: 0, or the contempt (a cost to the player searched for)."""
        if not self.contempt:
            return 0.0
        return -self.contempt if me == self._for else self.contempt

    def _child_value(self, child: State, me: int, depth: int, alpha: float, beta: float, ply: int) -> float:
        """Value for ``me`` of ``child`` (reached by ``me``'s action at ``ply``), searched to depth−1."""
        p = child.current_player()
        if p == TERMINAL:
            result = child.returns()[me]
            if result == 0:
                if child.repetition_count() > 1:
                    self.history_draws += 1  # drawn by its history: a value of this line only
                return self._draw(me)
            return result * (WIN - (ply + 1))
        if p != me and p >= 0 and child.repetition_count() > 1:
            # the position occurred before: a draw here (see the module docstring)
            self.history_draws += 1
            return self._draw(me)
        if p == me:
            return self._negamax(child, depth - 1, alpha, beta, ply + 1, True)
        if p == CHANCE:
            return self.evaluate(child, me)
        return -self._negamax(child, depth - 1, -beta, -alpha, ply + 1)

    def _negamax(self, state: State, depth: int, alpha: float, beta: float, ply: int,
                 mid_turn: bool = False) -> float:
        """Value for the player to move in the non-terminal ``state`` (``mid_turn``: the same
        player moved into it)."""
        self.nodes += 1
        if not self.nodes & 255 and (search_clock() > self._end or self._stop.is_set()
                                     or (self.max_nodes is not None and self.nodes >= self.max_nodes)):
            raise _Timeout
        me = state.current_player()
        if depth <= 0 or ply >= MAX_DEPTH:
            if (mid_turn and ply < MAX_DEPTH and self.turn_extension
                    and len(state.legal_actions()) <= self.turn_extension):
                depth = 1  # finish a narrow turn (a capture chain) before evaluating
            else:
                return self.evaluate(state, me)
        key = state.hash_key()
        entry = self.table.get(key)
        tt_move = -1
        if entry is not None:
            tt_move = entry[3]
            if entry[0] >= depth:
                v = entry[1]
                if v >= WIN_THRESHOLD:
                    v -= ply
                elif v <= -WIN_THRESHOLD:
                    v += ply
                flag = entry[2]
                if flag == EXACT:
                    return v
                if flag == LOWER:
                    if v > alpha:
                        alpha = v
                elif v < beta:
                    beta = v
                if alpha >= beta:
                    return v
        alpha0 = alpha  # the window searched (after the table's bounds narrowed it)
        draws_before = self.history_draws
        best = -2 * WIN
        best_action = -1
        undo = state.supports_undo
        reduce = self.reductions if depth >= LMR_MIN_DEPTH else 0
        for i, action in enumerate(self._ordered(state, tt_move, ply)):
            child = state if undo else state.clone()
            child.apply_action(action)
            if reduce and i >= LMR_FULL_ACTIONS:
                # a late action is presumed no better than alpha: a shallower null-window search
                # checks that, and only one that beats alpha is searched in full
                v = self._child_value(child, me, depth - reduce, alpha, alpha + NULL_WINDOW, ply)
                if v > alpha:
                    v = self._child_value(child, me, depth, alpha, beta, ply)
            else:
                v = self._child_value(child, me, depth, alpha, beta, ply)
            if undo:
                child.undo_action()
            if v > best:
                best = v
                best_action = action
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        killers = self.killers[ply]
                        if killers[0] != action:
                            killers[1] = killers[0]
                            killers[0] = action
                        self.history_scores[action] = self.history_scores.get(action, 0) + depth * depth
                        break
        flag = EXACT
        if best <= alpha0:
            flag = UPPER
        elif best >= beta:
            flag = LOWER
        stored = best
        if stored >= WIN_THRESHOLD:
            stored += ply
        elif stored <= -WIN_THRESHOLD:
            stored -= ply
        if self.history_draws != draws_before:
            # rests on a repetition of this line: keep only the move, for the ordering
            self.table[key] = (-1, stored, flag, best_action)
        else:
            self.table[key] = (depth, stored, flag, best_action)
        return best
