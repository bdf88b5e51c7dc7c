"""The analysis board (issue 16 §1): a position's evaluation and best line by the strongest
search a game declares, on a fixed budget, from what one seat may know.

:func:`analyse` runs the highest level's search of the game's description (alpha-beta, MCTS or
IS-MCTS; a game's own bot, such as a table, is skipped for the strongest shared search below
it) with a deterministic budget — iterations for MCTS/IS-MCTS, positions (nodes) for
alpha-beta, never seconds — so the same position always gets the same answer.

The value is an expected result in [-1, 1] for each seat (+1 a win, -1 a loss, 0 a draw):
MCTS's mean playout return through the chosen action, alpha-beta's evaluation at its deepest
completed depth. It is shown as a signed number ("+0.42") rather than a win percentage: the
alpha-beta evaluators are heuristics, not calibrated probabilities, and one form serves every
search. A result alpha-beta proved is shown as ``#N`` (the seat wins in N actions) or ``#-N``
(loses in N), as engines write mates.

Where the game knows the answer — its endgame tables, or a proof, cover the position
(``GameDescription.endgame_tables.probe``: Fanorona's 9×5 and 5×5 tables and Dimy's proof
book) — the board gives that instead of a search: the proved value, the tables' line (the
winner's fastest way, the loser's slowest) and, for a win or a loss, ``#N`` counted along it to
the end (``search`` ``"tables"``, ``iterations`` the positions looked up).

Hidden information: the search starts from the viewer's information state (a resampled
determinization, or IS-MCTS observing from the viewer), never from the real hidden cards. The
line holds the viewer's own actions and other seats' actions that name nothing hidden (legal in
every sampled position consistent with what the viewer knows); it stops before the first one
that could name a hidden card, and after an action that reveals something (a draw, a turned
pile card), since what follows would depend on a card nobody knows yet.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from typing import Any

from ..core.description import Search
from ..core.game import CHANCE, Game, State
from ..core.options import seed_problem
from .alphabeta import AlphaBetaBot
from .base import Budget, most_visited
from .ismcts import ISMCTSBot
from .levels import SEARCHES, rollout_cap
from .mcts import MCTSBot

#: Default budgets per search: iterations (MCTS, IS-MCTS) or positions (alpha-beta), chosen for
#: a second or two on one idle core (benchmarks/analysis.py); a game may declare its own (``analysis_budget``).
DEFAULT_BUDGET = {"mcts": 2000, "ismcts": 2000, "alphabeta": 60_000}
#: the searches the analysis board reads (see :func:`analysis_search`)
ANALYSABLE = tuple(DEFAULT_BUDGET)
#: The line covers at most this many turns / actions.
MAX_LINE_TURNS = 4
MAX_LINE_ACTIONS = 40
#: A tree search's line follows children visited at least this often.
MIN_LINE_VISITS = 4
#: Samples of the viewer's information state that decide whether another seat's action is public.
PUBLIC_SAMPLES = 6
#: Scores at or above this (alpha-beta's WIN-scaled values) are proved results.
_WIN, _WIN_THRESHOLD = 1000.0, 500.0


@dataclass(frozen=True)
class LineTurn:
    """One turn of a best line.

    Attributes:
        turn: 1-based index of the turn within the line.
        player: the seat playing it.
        actions: its actions in the game's notation, in order.
        touched: per action, the cells it touches (``State.action_effects``), for drawing.
    """

    turn: int
    player: int
    actions: list[str]
    touched: list[list[str]]


@dataclass(frozen=True)
class Analysis:
    """What :func:`analyse` found.

    Attributes:
        values: per seat, the expected result in [-1, 1] (at the end: the returns).
        to_move: the seat to move; ``None`` when the game is over.
        value: ``values[to_move]`` (the result at the end: ``values[viewer or 0]``).
        viewer: the seat whose information the search used (``None``: perfect information and
            no seat given).
        display: ``value`` for people: ``"+0.42"``, ``"#5"`` (wins in 5 actions), ``"#-5"``.
        viewer_display: the same for the viewer's seat (seat 0 when ``viewer`` is ``None``).
        line: the best line, grouped by turns.
        line_cut: why the line stops early: ``"hidden"`` (the next action could name a hidden
            card), ``"revealed"`` (the last action showed something chance decides) or ``None``.
        mate: proved result: actions to the end (positive: ``to_move`` wins), else ``None``.
        search: the search and budget, e.g. ``"alphabeta:n40000"``, ``"ismcts:i3000"``.
        iterations: playouts (MCTS) or positions (alpha-beta) searched.
        depth: alpha-beta's deepest completed depth in actions (``None`` for tree searches).
        terminal: the game is over (then ``line`` is empty).
        learned: per seat, the game's learned value of the position in [-1, 1]
            (``GameDescription.learned``, issue 47: no search, the model alone), where the game
            has one that its levels play (``kept``) and its weights are installed; ``None``
            otherwise and with hidden information (the model reads the whole position).
    """

    values: list[float]
    to_move: int | None
    value: float
    viewer: int | None
    display: str
    viewer_display: str
    line: list[LineTurn] = field(default_factory=list)
    line_cut: str | None = None
    mate: int | None = None
    search: str = ""
    iterations: int = 0
    depth: int | None = None
    terminal: bool = False
    learned: list[float] | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (the API's answer)."""
        return asdict(self)


def analysis_search(game: Game) -> Search:
    """The search the analysis board runs for ``game``: the highest level's whose bot is a
    search the board reads a value and a line from — alpha-beta (two players; a level searching
    whole turns is read by alpha-beta over its actions, with its evaluator), MCTS or IS-MCTS;
    else MCTS (IS-MCTS with hidden information). Paranoid alpha-beta (3–4 players) is skipped:
    its value is one seat's against a coalition, not a value per seat."""
    import dataclasses

    levels = game.description.levels
    for level in sorted(levels, reverse=True):
        search = levels[level]
        if search.bot == "turns" and game.num_players == 2:
            return dataclasses.replace(search, bot="alphabeta")
        if search.bot in ANALYSABLE and (search.bot != "alphabeta" or game.num_players == 2):
            return search
    return Search("ismcts" if game.has_hidden_information else "mcts")


def analysis_budget(game: Game, search: Search | None = None) -> int:
    """The fixed budget of ``game``'s analysis: its description's ``analysis_budget`` if it
    declares one, else :data:`DEFAULT_BUDGET` of the search kind (iterations or positions)."""
    declared = game.description.analysis_budget
    if declared:
        return int(declared)
    return DEFAULT_BUDGET[(search or analysis_search(game)).bot]


def display_value(value: float, mate: int | None = None) -> str:
    """``"+0.42"``, ``"-0.10"``, ``"0.00"``; a proved result ``"#N"`` / ``"#-N"`` (N actions)."""
    if mate is not None:
        return f"#{mate}"
    text = f"{value:+.2f}"
    return "0.00" if text in ("+0.00", "-0.00") else text


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def analyse(state: State, viewer: int | None = None, budget: int | None = None, *, seed: int = 0,
            max_turns: int = MAX_LINE_TURNS) -> Analysis:
    """Evaluate ``state`` and find its best line, from what ``viewer`` may know.

    Args:
        state: any position (not changed); the game over gives the result and no line.
        viewer: the seat whose information state the search starts from (hidden information:
            required to hide the other seats' cards; default the seat to move); for perfect
            information it only picks ``viewer_display``.
        budget: iterations (MCTS, IS-MCTS) or positions (alpha-beta); default
            :func:`analysis_budget`.
        seed: seed of the search and of the samples (same inputs → same answer).
        max_turns: the longest line, in turns.
    Returns:
        an :class:`Analysis`.
    Raises:
        ValueError: a chance node, a viewer that is not a seat, a budget that is not an
            integer ≥ 1, a ``max_turns`` that is not an integer ≥ 0, a seed that is not one
            (an integer from 0 to 2**64 - 1).
    """
    game = state.game
    n = state.num_players
    learned = learned_values(state)
    if viewer is not None and not (_is_int(viewer) and 0 <= viewer < n):
        raise ValueError(f"viewer {viewer!r} is not a seat (0…{n - 1})")
    if budget is not None and not _is_int(budget):
        raise ValueError(f"the analysis budget must be an integer, got {budget!r}")
    if not (_is_int(max_turns) and max_turns >= 0):
        raise ValueError(f"max_turns must be an integer >= 0, got {max_turns!r}")
    problem = seed_problem(seed)
    if problem:
        raise ValueError(f"seed: {problem}")
    seed = int(seed)  # a NumPy integer too (random.Random refuses one)
    perspective = viewer if viewer is not None else 0
    if state.is_terminal():
        values = [float(r) for r in state.returns()]
        return Analysis(values, None, values[perspective], viewer, display_value(values[perspective]),
                        display_value(values[perspective]), terminal=True, learned=learned)
    mover = state.current_player()
    if mover == CHANCE or mover < 0:
        raise ValueError("a chance node cannot be analysed: its outcome is not a choice")
    if game.has_hidden_information and viewer is None:
        viewer = perspective = mover
    search = analysis_search(game)
    budget = analysis_budget(game, search) if budget is None else budget
    if budget < 1:
        raise ValueError(f"the analysis budget must be at least 1, got {budget}")
    rng = random.Random(seed)
    known = None if game.has_hidden_information else _tables(state)
    if known is not None:
        actions, mover_value, mate, looked = known
        values = [float(mover_value) if p == mover else -float(mover_value) for p in range(n)]
        line, cut = _line(state.clone(), actions, viewer, max_turns, rng)
        persp_mate = None if mate is None else (mate if perspective == mover else -mate)
        return Analysis(values, mover, values[mover], viewer, display_value(values[mover], mate),
                        display_value(values[perspective], persp_mate), line, cut, mate, "tables", looked, None,
                        learned=learned)
    # the position the search may know: the real one, or one consistent with the viewer's view
    root = state.resample_from_infostate(viewer, rng) if game.has_hidden_information else state.clone()
    if search.bot == "alphabeta":
        actions, mover_value, mate, iterations, depth = _alphabeta(game, root, search, budget, seed)
        values = [mover_value if p == mover else -mover_value for p in range(n)]
        kind = f"alphabeta:n{budget}"
    else:
        actions, values, iterations = _tree(game, root, search, budget, seed, viewer)
        mate, depth = None, None
        kind = f"{search.bot}:i{budget}"
    values = [max(-1.0, min(1.0, v)) for v in values]
    line, cut = _line(root, actions, viewer, max_turns, rng)
    persp_mate = None if mate is None else (mate if perspective == mover else -mate)
    return Analysis(values, mover, values[mover], viewer, display_value(values[mover], mate),
                    display_value(values[perspective], persp_mate), line, cut, mate, kind,
                    iterations, depth, learned=learned)


def learned_values(state: State) -> list[float] | None:
    """Per seat, the game's learned value of ``state`` (:attr:`Analysis.learned`), or ``None``
    where the game has none its levels play, its weights are not installed or players see
    different things."""
    game = state.game
    learned = game.description.learned
    if learned is None or not learned.kept or game.has_hidden_information or state.current_player() == CHANCE or not learned.available():
        return None
    return [round(float(learned.evaluate(state, p)), 4) for p in range(state.num_players)]


#: The longest line the tables are followed along to count a win or loss (#N), in actions.
TABLE_LINE_ACTIONS = 600


def _tables(state: State) -> tuple[list[int], int, int | None, int] | None:
    """The position by the game's endgame tables (or proof), when they decide it: (the tables'
    line, value for the mover, #N actions to the end along it or None, positions looked up)."""
    tables = state.game.description.endgame_tables
    if tables is None:
        return None
    found = tables.probe(state)
    if found is None:
        return None
    value = int(found["value"])
    walk = state.clone()
    actions: list[int] = []
    looked = 1
    limit = TABLE_LINE_ACTIONS if value else MAX_LINE_ACTIONS  # a draw's line never ends
    while True:
        action = walk.string_to_action(found["best"])
        actions.append(action)
        walk.apply_action(action)
        if walk.is_terminal() or len(actions) >= limit:
            break
        found = tables.probe(walk)
        looked += 1
        if found is None:
            break
    mate = None
    if value and walk.is_terminal() and walk.returns()[state.current_player()] == value:
        mate = len(actions) if value > 0 else -len(actions)
    return actions[:MAX_LINE_ACTIONS], value, mate, looked


def _alphabeta(game: Game, root: State, search: Search, budget: int,
               seed: int) -> tuple[list[int], float, int | None, int, int]:
    """(best line, value for the mover, proved result in actions or None, positions, depth)."""
    bot = AlphaBetaBot(game, Budget(depth=64), seed=seed, noise=0.0, evaluator=search.evaluator,
                       turn_extension=search.turn_extension, max_nodes=budget, track_pv=True)
    # one legal action still gets a search: the value and the rest of the line matter
    best = bot.search(root.clone())
    line, raw = (bot.pv, bot.pv_value) if bot.pv else ([best], bot.value)
    mate = None
    if abs(raw) >= _WIN_THRESHOLD:
        distance = int(round(_WIN - abs(raw)))
        mate = distance if raw > 0 else -distance
        value = 1.0 if raw > 0 else -1.0
    else:
        value = raw
    return line, value, mate, bot.nodes, bot.depth


def _tree(game: Game, root: State, search: Search, budget: int, seed: int,
          viewer: int | None) -> tuple[list[int], list[float], int]:
    """MCTS / IS-MCTS: (most-visited line, value per seat through the chosen action, iterations)."""
    cap = rollout_cap(game, search)
    if search.bot == "ismcts":
        bot = ISMCTSBot(game, Budget(iterations=budget), seed=seed, max_rollout_actions=cap,
                        evaluator=search.evaluator)
        tree = bot.search(root, observer=viewer)
        children = lambda node: node.children.values()  # noqa: E731
    else:
        bot = MCTSBot(game, Budget(iterations=budget), seed=seed, max_rollout_actions=cap,
                      evaluator=search.evaluator)
        tree = bot.search(root)
        children = lambda node: node.children  # noqa: E731
    n = root.num_players
    legal = set(root.legal_actions())
    best = most_visited(ch for ch in children(tree) if ch.action in legal)
    if best is None:
        return [], [0.0] * n, bot.iterations
    sums = bot.root_returns.get(best.action, [0.0] * n)
    values = [s / best.visits for s in sums] if best.visits else [0.0] * n
    line = [best.action]
    s = root.clone()
    s.apply_action(best.action)
    node = best
    while len(line) < MAX_LINE_ACTIONS and s.current_player() >= 0:
        legal = set(s.legal_actions())
        nxt = most_visited(ch for ch in children(node) if ch.action in legal)
        if nxt is None or nxt.visits < MIN_LINE_VISITS:
            break
        s.apply_action(nxt.action)
        line.append(nxt.action)
        node = nxt
    return line, values, bot.iterations


def _public(state: State, action: int, viewer: int, rng: random.Random) -> bool:
    """Whether another seat's ``action`` names nothing hidden from ``viewer``: its notation is
    legal in every sampled position consistent with what ``viewer`` knows."""
    text = state.action_to_string(action)
    for _ in range(PUBLIC_SAMPLES):
        other = state.resample_from_infostate(viewer, rng)
        try:
            other.string_to_action(text)
        except Exception:  # noqa: BLE001 - not legal there: the action depends on hidden cards
            return False
    return True


def _line(root: State, actions: list[int], viewer: int | None, max_turns: int,
          rng: random.Random) -> tuple[list[LineTurn], str | None]:
    """The actions of a line grouped by turns, cut where they would tell the viewer too much."""
    hidden = root.game.has_hidden_information
    watch_reveals = hidden or root.game.has_chance
    s = root.clone()
    turns: list[LineTurn] = []
    cut = None
    for action in actions:
        player = s.current_player()
        if player < 0:
            break
        if hidden and player != viewer and not _public(s, action, viewer, rng):
            cut = "hidden"
            break
        if not turns or turns[-1].player != player:
            if len(turns) >= max_turns:
                break
            turns.append(LineTurn(len(turns) + 1, player, [], []))
        turns[-1].actions.append(s.action_to_string(action))
        turns[-1].touched.append(list(s.action_effects(action, viewer).get("touched") or []))
        revealing = watch_reveals and s.reveals(action)
        s.apply_action(action)
        if revealing:
            cut = "revealed"
            break
    return turns, cut


def check_line(state: State, analysis: Analysis) -> State:
    """Replay ``analysis.line`` on ``state`` (not changed) through the rules; returns the
    position after it. Raises :class:`~abstracta.core.errors.IllegalActionError` at the first
    action that is not legal in sequence, ``ValueError`` when a turn's seat is not the one to move."""
    s = state.clone()
    for turn in analysis.line:
        for text in turn.actions:
            if s.current_player() != turn.player:
                raise ValueError(f"turn {turn.turn}: seat {turn.player} is not to move before {text!r}")
            s.apply_action(s.string_to_action(text))
    return s


__all__ = ["Analysis", "DEFAULT_BUDGET", "LineTurn", "analyse", "analysis_budget", "analysis_search",
           "check_line", "display_value"]
