"""A search over whole turns for two-player games whose turn is several actions (Fibonacci: up
to six).

Alpha-beta counts actions, so at a few actions deep it sees part of its own turn and none of
the reply (on Fibonacci greedy, which completes its turn, beat ``alphabeta:d3`` 4–0; issue 17).
:class:`TurnSearchBot` searches whole turns instead. The children of a position are *candidate
turns*: the ``width`` best first actions (by the evaluator, as greedy scores them), each
completed greedily to the end of the turn as :class:`~abstracta.ai.greedy.GreedyBot` completes
it. Over these it runs negamax with alpha-beta and iterative deepening; depth counts turns,
so every leaf is read at the start of a turn, after a whole reply (depth 2: my turn and the
best of ``reply_width`` replies; depth 1 is greedy over ``width`` candidate turns).

* Budget: ``Budget(depth=N)`` (N turns, deterministic with a seed) or ``Budget(seconds=…)``
  per action. The turn is searched once, at its first action, and then replayed action by
  action, so a time budget is spent there for the whole turn: seconds × the length of the
  best greedy turn (one action's worth when the turn is one action) — on average about the
  given seconds per action. The seconds are CPU seconds of the searching thread
  (``time.thread_time``): on an idle machine the same as the wall clock; on a loaded one the
  search takes longer instead of playing weaker, so levels measured there stay what they are.
  Iterative deepening until the time is spent; an unfinished iteration counts only where it
  already proved a turn better than the previous choice (searched first).
* Expansions (candidate turns and the states they end in) are cached by ``hash_key`` within
  a search, so each deeper iteration repeats no greedy completion.
* Results: a finished game is worth ``±(WIN − 0.01 × turns)`` (a quicker win is preferred).
* Variety: each root candidate gets a seeded bonus in [0, ``noise``), so near-equal turns are
  chosen by the seed and the games of a match differ.
* Hidden information: each search runs on one determinization (``resample_from_infostate``).
* Chance between turns (a card revealed at the start of each turn, Fibonacci's card variant):
  the determinization is switched to explicit chance nodes (``set_explicit_chance``), so a
  reply is searched against every card it may be dealt, weighted by its share of the pile
  (expectimax), not against the one order the determinization happened to draw.
"""

from __future__ import annotations

import random
from typing import Any

from ..core.description import Evaluator
from ..core.game import CHANCE, TERMINAL, Game, State
from .base import Budget, as_budget, check_playable, player_view, search_clock
from .greedy import GreedyBot

WIN = 10.0
MAX_DEPTH = 32
DEFAULT_NOISE = 0.004
MAX_CACHE = 50_000


class _Timeout(Exception):
    pass


class _Turn:
    """One candidate turn: its actions, the state it ends in and its greedy score for the mover."""

    __slots__ = ("first", "plan", "end", "score", "tie")

    def __init__(self, first: int, plan: list[int], end: State, score: float, tie: float):
        self.first = first
        self.plan = plan
        self.end = end
        self.score = score
        self.tie = tie


class TurnSearchBot:
    """Negamax alpha-beta over greedily completed candidate turns (two players).

    Args:
        game: a two-player game (``ValueError`` otherwise).
        budget: ``Budget(depth=…)`` in turns, ``Budget(seconds=…)`` per action, or seconds
            as a float (default 1 s). Iterations are refused (``ValueError``).
        seed: seed of the tie-breaks and the root bonuses (same seed and a depth budget →
            same actions).
        width: candidate turns of the player to move at the root.
        reply_width: candidate turns at every deeper turn.
        noise: the largest root bonus, in evaluator units ([-1, 1]); 0: none.
        evaluator: the heuristic (default: the game's).
        depth_step: turns each iteration of the deepening adds after depth 2; 2: even depths
            only (2, 4, 6 …), every leaf read at the start of the searching side's own turn —
            an odd depth ends on the opponent's greedy reply unanswered, and a depth-3
            result measured no better than depth 2 where depth 4 was (docs: strength.md).
        beam: 0: the root's candidate turns are its best first actions, each completed
            greedily (they differ only in their first action); N > 0: a beam search through
            the turn also keeps, after every action, the N best partial turns (by the
            evaluator), so root candidates may share a first action and differ later; the
            root then compares the ``width`` best of both sets (ends reached twice count once).

    Cost: a candidate turn costs about (actions per turn × legal actions) evaluations;
    depth ``d`` needs up to ``width × reply_width^(d-1)`` of them (alpha-beta prunes many).

    Attributes:
        depth: deepest finished iteration of the last search.
        value: value of the chosen turn for the mover.
        expansions: candidate-turn lists computed in the last search (not taken from the cache).
        turn_actions: the actions the last search's time budget was given for (the greedy
            turn's length: a time budget is per action, and the whole turn is decided at once).
    """

    def __init__(self, game: Game, budget: Budget | float | None = None, seed: int | None = None,
                 width: int = 10, reply_width: int = 8, noise: float = DEFAULT_NOISE,
                 name: str | None = None, evaluator: Evaluator | None = None, depth_step: int = 1,
                 beam: int = 0):
        if game.num_players != 2:
            raise ValueError(f"the turn search plays two-player games only; {game.name} has {game.num_players}")
        self.game = game
        self.budget = as_budget(budget)
        if self.budget.iterations is not None:
            raise ValueError("the turn search takes a time (SECONDS) or depth (dN, in turns) budget, not iterations")
        if depth_step not in (1, 2):
            raise ValueError(f"the depth step must be 1 or 2 turns, got {depth_step}")
        if width < 1 or reply_width < 1:
            raise ValueError(f"candidate widths must be at least 1, got {width} and {reply_width}")
        if beam < 0:
            raise ValueError(f"the beam must be 0 (none) or a positive number of partial turns, got {beam}")
        self.beam = beam
        self.name = name or f"turns:{self.budget.text()}"
        self.width = width
        self.reply_width = reply_width
        self.noise = noise
        self.depth_step = depth_step
        self.rng = random.Random(seed)
        self.greedy = GreedyBot(game, seed=self.rng.randrange(1 << 30), evaluator=evaluator)
        self.evaluate: Evaluator = self.greedy.evaluate
        self._cache: dict[int, list[_Turn]] = {}
        self._best: dict[int, int] = {}
        self._end = float("inf")
        self._plan: list[int] = []
        self._prefix: list[int] = []
        self.depth = 0
        self.value = 0.0
        self.expansions = 0
        self.turn_actions = 1
        #: search the chance nodes between turns as chance nodes (games with in-game chance)
        self.explicit_chance = game.max_chance_outcomes() > 0

    def restart(self) -> None:
        self._cache.clear()
        self._best.clear()
        self._plan = []
        self._prefix = []

    # --- candidate turns ----------------------------------------------------------------------
    def _candidates(self, state: State, player: int, width: int) -> list[_Turn]:
        """The ``width`` best first actions of ``player`` in ``state``, each completed greedily,
        best greedy score first (cached by the state's key)."""
        key = state.hash_key()
        cached = self._cache.get(key)
        if cached is not None and len(cached) >= min(width, len(state.legal_actions())):
            return cached[:width]
        if search_clock() > self._end:
            raise _Timeout
        g = self.greedy
        scored = sorted(g._scored(state.clone(), player), reverse=True)[:width]
        out = []
        for score, tie, action, again in scored:
            child = state.clone()
            child.apply_action(action)
            plan = [action]
            if again:
                score, rest = g._complete_turn(child, player)
                plan += rest
            out.append(_Turn(action, plan, child, score, tie))
        out.sort(key=lambda t: (t.score, t.tie), reverse=True)
        if len(self._cache) < MAX_CACHE:
            self._cache[key] = out
        self.expansions += 1
        return out

    def _beam_candidates(self, state: State, player: int, width: int) -> list[_Turn]:
        """The ``width`` best turns of ``player`` from ``state`` among the greedy candidates
        (:meth:`_candidates`) and the turns a beam of ``self.beam`` partial turns reaches,
        one per end state, best greedy score first."""
        g = self.greedy
        turns: list[tuple[float, float, Any]] = [(t.score, t.tie, t) for t in self._candidates(state, player, width)]
        # (score, tie, state before the action, actions before it, action): a state is made only
        # for what is kept, so a step costs one clone per partial turn and per kept child
        ended: list[tuple[float, float, State, list[int], int]] = []
        frontier: list[tuple[State, list[int]]] = [(state, [])]
        # a turn's first action and greedy's cap after it (GreedyBot._complete_turn)
        for _ in range(1 + g.max_turn_actions):
            if search_clock() > self._end:
                raise _Timeout
            going: list[tuple[float, float, State, list[int], int]] = []
            for partial, plan in frontier:
                for score, tie, action, again in g._scored(partial.clone(), player):
                    (going if again else ended).append((score, tie, partial, plan, action))
            going.sort(key=lambda x: (x[0], x[1]), reverse=True)
            frontier = []
            seen: set[int] = set()
            for _, _, partial, plan, action in going:
                child = partial.clone()
                child.apply_action(action)
                key = child.hash_key()
                if key not in seen:  # the same partial turn reached in another order
                    seen.add(key)
                    frontier.append((child, plan + [action]))
                    if len(frontier) == self.beam:
                        break
            if not frontier:
                break
        else:
            # the action cap reached with turns still going: they end there, as greedy's do
            for child, plan in frontier:
                ended.append((self.evaluate(child, player), 0.0, child, plan, -1))
        turns += [(score, tie, (partial, plan, action)) for score, tie, partial, plan, action in ended]
        turns.sort(key=lambda x: (x[0], x[1]), reverse=True)
        out: list[_Turn] = []
        ends: set[int] = set()
        for score, tie, item in turns:
            if isinstance(item, _Turn):
                turn = item
            else:
                partial, plan, action = item
                if action < 0:
                    turn = _Turn(plan[0], plan, partial, score, tie)
                else:
                    end = partial.clone()
                    end.apply_action(action)
                    turn = _Turn(plan[0] if plan else action, plan + [action], end, score, tie)
            key = turn.end.hash_key()
            if key not in ends:  # one candidate per end state, the best-scored way to reach it
                ends.add(key)
                out.append(turn)
                if len(out) == width:
                    break
        self.expansions += 1
        return out

    # --- negamax over turns -------------------------------------------------------------------
    def _after(self, end: State, player: int, depth: int, alpha: float, beta: float, turns: int) -> float:
        """Value for ``player`` of ``end``, the state after one of ``player``'s turns, searched
        ``depth − 1`` more turns."""
        q = end.current_player()
        if q == TERMINAL:
            return end.returns()[player] * (WIN - 0.01 * turns)
        if q == player or depth <= 1:
            # the turn did not end (action cap), or the horizon: read it from the mover's side
            return self.evaluate(end, player)
        if q == CHANCE:
            total = 0.0
            for outcome, p in end.chance_outcomes():
                child = end.clone()
                child.apply_action(outcome)
                total += p * self._after(child, player, depth, -2 * WIN, 2 * WIN, turns)
            return total
        return -self._negamax(end, depth - 1, -beta, -alpha, turns + 1)

    def _negamax(self, state: State, depth: int, alpha: float, beta: float, turns: int) -> float:
        """Value for the player to move at the start of a turn in ``state``, ``depth`` ≥ 1 turns."""
        player = state.current_player()
        children = self._candidates(state, player, self.reply_width)
        key = state.hash_key()
        first = self._best.get(key, 0)
        order = list(range(len(children)))
        if 0 < first < len(children):
            order.insert(0, order.pop(first))
        best = -2 * WIN
        best_i = 0
        for i in order:
            turn = children[i]
            if depth == 1 and turn.end.current_player() not in (TERMINAL, CHANCE):
                v = turn.score  # the greedy score is the evaluator at the turn's end
            else:
                v = self._after(turn.end, player, depth, alpha, beta, turns)
            if v > best:
                best, best_i = v, i
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        self._best[key] = best_i
        return best

    def _root(self, state: State, player: int, depth: int, order: list[_Turn],
              bonus: dict[tuple[int, ...], float]) -> tuple[_Turn | None, float, dict[tuple[int, ...], float], bool]:
        """One iteration: (best turn, its value, values found, finished?); ``bonus`` and the
        values are keyed by a turn's actions (with a beam two root turns may share a first one)."""
        alpha = -2 * WIN
        best: _Turn | None = None
        best_v = -2 * WIN
        best_raw = best_v
        values: dict[tuple[int, ...], float] = {}
        try:
            for turn in order:
                b = bonus.get(tuple(turn.plan), 0.0)
                raw = self._after(turn.end, player, depth, alpha - b, 2 * WIN, 1)
                values[tuple(turn.plan)] = raw
                if raw + b > best_v:
                    best, best_v, best_raw = turn, raw + b, raw
                    alpha = max(alpha, best_v)
        except _Timeout:
            # only a turn proved better than the previous choice (searched first) counts
            if best is not None and best is not order[0]:
                return best, best_raw, values, False
            return None, best_raw, values, False
        return best, best_raw, values, True

    def search(self, state: State) -> list[int]:
        """The best turn from ``state`` (never mutated) as its list of actions (the first is
        played now)."""
        player = state.current_player()
        budget = self.budget
        start = search_clock()
        max_depth = budget.depth if budget.depth is not None else MAX_DEPTH
        self.expansions = 0
        self._cache.clear()
        self._best.clear()
        self._end = float("inf")
        roots = self._candidates(state, player, self.width)  # depth 1 always finishes
        self.turn_actions = max(1, len(roots[0].plan))
        if budget.seconds is not None:
            # the whole turn is decided now: its actions' time (the greedy turn's length)
            self._end = start + budget.seconds * self.turn_actions
        if self.beam:
            try:
                roots = self._beam_candidates(state, player, self.width)
            except _Timeout:
                pass  # the greedy candidates stand
        bonus = {tuple(t.plan): self.rng.random() * self.noise for t in roots} if self.noise > 0 else {}
        order = sorted(roots, key=lambda t: t.score + bonus.get(tuple(t.plan), 0.0), reverse=True)
        chosen = order[0]
        self.value = chosen.score
        self.depth = 1
        for depth in range(2, max_depth + 1, self.depth_step):
            turn, value, values, complete = self._root(state, player, depth, order, bonus)
            if turn is not None:
                chosen, self.value = turn, value
            if not complete:
                break
            self.depth = depth
            order = sorted(order, key=lambda t: values.get(tuple(t.plan), -2 * WIN) + bonus.get(tuple(t.plan), 0.0),
                           reverse=True)
            if abs(value) >= WIN - 1:
                break  # a forced result
        return chosen.plan

    # --- the bot ------------------------------------------------------------------------------
    def step(self, state: State) -> int:
        check_playable(state)
        legal = state.legal_actions()
        if self._plan:
            history = state.history()
            k = len(self._prefix)
            if history[len(history) - k:] == self._prefix and self._plan[0] in legal:
                action = self._plan.pop(0)
                self._prefix.append(action)
                return action
            self._plan = []
        if len(legal) == 1:
            self.depth = 0
            return legal[0]
        view = player_view(state, self.rng)
        if view is state:
            view = state.clone()
        if self.explicit_chance:
            explicit = view.clone()
            explicit.set_explicit_chance(True)
            # at a game's first action the switch puts the dealt card back as a chance node:
            # then the search runs on the dealt view as it is
            if explicit.current_player() == view.current_player():
                view = explicit
        action, *rest = self.search(view)
        self._plan = rest
        self._prefix = [action]
        return action


def turn_search(game: Game, budget: Budget | float | None, seed: int | None, name: str | None = None,
                evaluator: Evaluator | None = None) -> TurnSearchBot:
    """The bot of the seat spec ``turns[:SECONDS|dN]``."""
    return TurnSearchBot(game, budget, seed=seed, name=name, evaluator=evaluator)
