"""Game-neutral invariants every game must satisfy (DESIGN.md spine contract), for the tests
of the built-in games and of games written elsewhere.

Each game's tests call these on states reached by random playouts (Hypothesis draws the
seed of the playout), e.g.::

    @given(st.integers(0, 2**32))
    def test_invariants(seed):
        check_random_playout(load_game("fanorona", size="dimy"), seed)

Failures are ``AssertionError`` naming the position.
"""

from __future__ import annotations

import json
import random
from typing import Any, Callable, Iterator

from .core.errors import IllegalActionError
from .core.game import Game, State
from .core.records import Record


def state_snapshot(state: State) -> tuple:
    return (state.to_text(), state.current_player(), tuple(state.legal_actions()), state.is_terminal())


def check_state(game: Game, state: State, order_key: Callable[[str], object] | None = None,
                probe_illegal: int = 3, rng: random.Random | None = None) -> None:
    """Check the per-state contract: text round trip, clone independence, canonical order,
    non-empty legal list until terminal, illegal actions refused with the state unchanged."""
    rng = rng or random.Random(0)
    text = state.to_text()
    back = game.state_from_text(text)
    assert back.to_text() == text, f"round trip changed {text!r} into {back.to_text()!r}"
    legal = list(state.legal_actions())
    if not state.is_terminal():
        assert legal, f"no legal action in non-terminal {text!r}"
        # a reparsed position has less history (repetition), never a different legal list
        assert back.legal_action_strings() == state.legal_action_strings(), f"legal list changed through text {text!r}"
    else:
        assert legal == [], f"terminal state {text!r} lists actions"
    strings = [state.action_to_string(a) for a in legal]
    assert len(set(strings)) == len(strings), f"duplicate action strings in {strings}"
    if order_key is not None:
        assert strings == sorted(strings, key=order_key), f"not in canonical order: {strings}"
    for a, s in zip(legal, strings):
        assert state.string_to_action(s) == a
    # illegal integers are refused and change nothing
    before = state_snapshot(state)
    try:
        n = game.num_distinct_actions
    except NotImplementedError:
        n = max(legal, default=0) + 50
    legal_set = set(legal)
    for _ in range(probe_illegal):
        bad = rng.randrange(-5, n + 5)
        if bad in legal_set:
            continue
        try:
            state.apply_action(bad)
        except IllegalActionError:
            pass
        else:
            raise AssertionError(f"illegal action {bad} accepted in {text!r}")
        assert state_snapshot(state) == before, "a refused action changed the state"
    # clone independence
    if legal:
        twin = state.clone()
        twin.apply_action(legal[0])
        assert state_snapshot(state) == before, "applying to a clone changed the original"


def random_playout(game: Game, seed: int, max_actions: int = 10_000, start: State | None = None,
                   every: Callable[[State], None] | None = None) -> tuple[State, State, list[int]]:
    """Play uniformly random actions from the start (or ``start``); returns (initial, final, actions)."""
    rng = random.Random(seed)
    initial = start.clone() if start is not None else game.new_initial_state(seed=seed if game.has_chance else None)
    state = initial.clone()
    actions: list[int] = []
    while not state.is_terminal() and len(actions) < max_actions:
        if every is not None:
            every(state)
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        state.apply_action(action)
        actions.append(action)
    if every is not None:
        every(state)
    return initial, state, actions


def check_random_playout(game: Game, seed: int, order_key: Callable[[str], object] | None = None,
                         max_actions: int = 10_000, check_every: int = 1) -> State:
    """Random playout checking :func:`check_state` along the way and that the record replays."""
    rng = random.Random(seed ^ 0x5EED)
    counter = [0]

    def every(state: State) -> None:
        if counter[0] % check_every == 0:
            check_state(game, state, order_key=order_key, rng=rng)
        counter[0] += 1

    initial, final, actions = random_playout(game, seed, max_actions=max_actions, every=every)
    record = Record.from_play(game, initial, actions, players=["random"] * game.num_players)
    replayed, replayed_actions = Record.from_json(record.to_json()).replay()
    assert replayed.to_text() == final.to_text()
    assert replayed_actions == actions
    return final


def check_description(game: Game) -> None:
    """The description of ``game`` is complete and agrees with the instance: a search for every
    level, one seat style per player, every declared variant loads, strings keyed under the
    game's name, a rules page, and the game's evaluator (if any) in [-1, 1] at the start."""
    d = game.description
    assert d.name == game.name, f"description names {d.name!r}, the game is {game.name!r}"
    assert d.num_players == game.num_players, "num_players disagrees with the instance"
    assert d.min_players <= d.num_players <= d.max_players
    assert len(d.seats) == game.num_players
    assert sorted(d.levels) == list(d.level_numbers) and 2 <= d.top_level <= 6, "levels 1 … N, N at most 6"
    assert str(d.title) and str(d.rules).strip(), "a title and a rules page are required"
    for key in d.texts():
        assert key.startswith(game.name + "."), f"string key {key!r} is not under {game.name!r}"
    for variant in d.variants:
        other = type(game)(**variant.options)
        for text in variant.positions:
            other.state_from_text(text)
    state = game.new_initial_state(seed=0 if d.chance else None)
    if d.evaluator is not None and not state.is_terminal():
        value = d.evaluator(state, 0)
        assert -1.0 <= value <= 1.0, f"evaluator gave {value} at the start"
    if d.web is not None:
        assert (d.web / "board.js").is_file(), "the description names a web directory without board.js"


def words(value: Any) -> Any:
    """``value`` (a structured view or a part of one) without its ``"message"`` entries: the
    English words and the data. View tests compare these; that each message says its English
    ``text`` and is in the catalogs is checked in one place (tests/test_i18n.py)."""
    if isinstance(value, dict):
        return {k: words(v) for k, v in value.items() if k != "message"}
    if isinstance(value, list):
        return [words(v) for v in value]
    return value


def action_strings_in(choices: Any) -> Iterator[str]:
    """Every action string of a ``choices`` structure: the values under the keys ``"action"``
    (a string) and ``"actions"`` (a list of strings), at any depth (core/view.py convention)."""
    if isinstance(choices, dict):
        for key, item in choices.items():
            if key == "action" and isinstance(item, str):
                yield item
            elif key == "actions" and isinstance(item, list) and all(isinstance(x, str) for x in item):
                yield from item
            else:
                yield from action_strings_in(item)
    elif isinstance(choices, (list, tuple)):
        for item in choices:
            yield from action_strings_in(item)


def check_struct(game: Game, state: State, rng: random.Random | None = None) -> None:
    """The structured view (``State.to_struct``) of ``state`` for every viewer: JSON-ready;
    ``legal`` lists exactly the legal actions (when that viewer may know them) and ``choices``
    names every one of them and nothing else (under ``"action"``/``"actions"`` keys); with hidden information the view is a function
    of the viewer's information state (a resampled state looks the same to that viewer, apart
    from the history that a resample does not keep), so it holds no card the viewer may not see."""
    rng = rng or random.Random(0)
    legal = state.legal_action_strings()
    hidden = game.has_hidden_information
    for player in [None, *range(game.num_players)]:
        view = state.to_struct(player)
        assert json.loads(json.dumps(view)) == view, f"view for {player} is not plain JSON data"
        assert view["over"] == state.is_terminal()
        to_move = view["to_move"]
        if to_move is not None and (not hidden or player == to_move):
            assert view["legal"] == legal, f"legal {view['legal']} != {legal} in {state.to_text()!r}"
            named = set(action_strings_in(view["choices"]))
            assert named == set(legal), (f"choices name {sorted(named - set(legal))} and miss "
                                         f"{sorted(set(legal) - named)} in {state.to_text()!r}")
        else:
            assert view["legal"] == [] and view["choices"] == {}
        for s in view["recent"]:
            assert s["seat"] != player or player is None
        if hidden and player is not None and not state.is_terminal():
            other = state.resample_from_infostate(player, rng)
            mine, theirs = dict(view), dict(other.to_struct(player))
            for key in ("recent",):
                mine.pop(key), theirs.pop(key)
            mine["turn"] = {**mine["turn"], "actions": None}
            theirs["turn"] = {**theirs["turn"], "actions": None}
            assert mine == theirs, f"seat {player}'s view changes with cards it cannot see in {state.to_text()!r}"


def check_struct_playout(game: Game, seed: int, max_actions: int = 400, every: int = 1) -> State:
    """:func:`check_struct` along a random playout (every ``every``-th state)."""
    rng = random.Random(seed ^ 0x57)
    counter = [0]

    def visit(state: State) -> None:
        if counter[0] % every == 0:
            check_struct(game, state, rng)
        counter[0] += 1

    _, final, _ = random_playout(game, seed, max_actions=max_actions, every=visit)
    return final



def check_pickle_plays_on(state: State, rng: random.Random) -> State:
    """Pickle ``state`` (what multiprocessing and Ray hand a worker), then play ``state`` and
    the copy on to the end with the same random actions from ``rng``: the same position and
    history, the same legal actions at every step, the same returns. Returns the copy, played
    to the end like ``state``, for a game's own checks."""
    import pickle

    again = pickle.loads(pickle.dumps(state))
    assert again.to_text() == state.to_text() and again.history() == state.history(), state.to_text()
    while not state.is_terminal():
        assert again.legal_actions() == state.legal_actions(), state.to_text()
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        again.apply_action(action)
    assert again.returns() == state.returns(), state.to_text()
    return again
