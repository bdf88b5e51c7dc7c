"""A move's view is built from the last revision's (issue 44 §1: the turns counted, the move list
written and encoded, the record's entries carried from move to move): at every ply of seeded
random games of every game and variant of the catalogue, with takebacks, every viewer's view
(each seat, all seats, a spectator) and the record are byte for byte what a server that reads
the match afresh from the store computes from the start, and the record's moves what the game's
hook writes of the whole game."""

from __future__ import annotations

import random

import orjson
import pytest

from abstracta.core.turns import played_turns, turn_numbers, turn_spans, turn_texts, turns_played
from abstracta.core.registry import load_game
from abstracta.core.turn_ledger import count_turns
from abstracta.server.errors import Conflict
from abstracta.server.service import MatchService
from abstracta.server.storage import Store
from abstracta.server.views import grown

GAMES = ["fanorona", "fibonacci", "fibonacci-cards", "nibble", "slide-checkers"]


def catalogue() -> list[tuple[str, dict[str, str]]]:
    return [(name, {k: str(v) for k, v in variant.options.items()})
            for name in GAMES for variant in load_game(name).description.variants]


def viewers(n: int) -> list[set[int]]:
    return [set(range(n)), *({s} for s in range(n)), set()]


def from_scratch(db_url: str, match_id: str, n: int) -> tuple[list[bytes], str]:
    """Every viewer's view and the record as a server that has just read the match computes them."""
    store = Store(db_url)
    fresh = MatchService(store, bot_workers=0)
    try:
        match = fresh.load(match_id)
        assert match.ledger is None and match.written is None and not match.carried
        views = [orjson.dumps(fresh.view(match, held), option=orjson.OPT_NON_STR_KEYS) for held in viewers(n)]
        return views, match.record().to_json()
    finally:
        fresh.close()
        store.dispose()


@pytest.mark.parametrize("name,options", catalogue(), ids=lambda x: x if isinstance(x, str) else "-".join(x.values()))
def test_a_moves_view_is_the_view_from_scratch(db_url, name, options):
    rng = random.Random(f"{name}{options}")
    store = Store(db_url)
    service = MatchService(store, bot_workers=0)
    try:
        n = load_game(name, **options).new_initial_state().num_players
        options = {**options, "seed": "3"} if load_game(name, **options).has_chance else options
        match, grant = service.create(name, options, ["human"] * n, take="all")
        tokens = [t["token"] for t in grant["tokens"]]
        plies = 70 if name != "fibonacci" else 120  # Fibonacci's random games run on for 1,600 plies
        acts = 0
        for acts in range(plies):
            match = service.load(match.id)
            if match.over:
                break
            if match.ply > 2 and rng.random() < 0.08:  # back to the start of a seat's turn
                try:  # one turn back, or more (a view then meets a list shorter than the last it saw)
                    for _ in range(rng.choice([1, 1, 2, 3])):
                        if service.load(match.id).ply > 1:
                            match = service.undo(match.id, tokens)
                except Conflict:  # not past a card drawn or shown
                    continue
            else:
                legal = match.state.legal_action_strings()
                match = service.play(match.id, [rng.choice(legal)], match.ply, tokens=tokens)
            if rng.random() < 0.3:  # a revision nobody looks at: the next view is built from an older one
                continue
            views, record = from_scratch(db_url, match.id, n)
            assert [service.view_json(match, held) for held in viewers(n)] == views, match.ply
            assert match.record().to_json() == record
            # the move list as the game writes every turn afresh (format_turn: no notation as played given)
            written = [[t.moves for t in turn_texts(match.initial, match.actions)]] * len(views)
            assert [[row["moves"] for row in orjson.loads(view)["move_list"]] for view in views] == written
            # the view lists the record's options and moves without building the record
            for view in views:
                assert {k: orjson.loads(view)[k] for k in ("options", "record_moves")} == \
                    {"options": orjson.loads(record)["options"], "record_moves": orjson.loads(record)["moves"]}
            # the record's moves as the game's hook writes the whole game (Nibble's a1+c1)
            whole = match.game.description.whole_turn_notation
            assert match.record().moves == (match.game.format_moves(match.initial, match.actions) if whole
                                            else match.strings)
        assert acts > 5 and (match.over or match.ply > 20)  # the little board's games end soon
    finally:
        service.close()
        store.dispose()


def test_the_ledger_counts_as_the_whole_game_does():
    """Every prefix of a seeded game, then a takeback and a turn played again: the ledger carried
    from the last equals the one counted from the start, and the functions that read a whole game."""
    for name in GAMES:
        game = load_game(name)
        rng = random.Random(name)
        state = game.new_initial_state(5)
        initial = state.clone()
        actions = []
        while not state.is_terminal() and len(actions) < 150:
            outcomes = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
            actions.append(rng.choice(outcomes))
            state.apply_action(actions[-1])
        movers, own = played_turns(initial, actions)
        ledger = count_turns([], [])
        for ply in [*range(len(actions) + 1), len(actions) // 2, len(actions)]:
            ledger = ledger.follow(movers[:ply], own[:ply])
            numbers = turn_numbers(movers[:ply], own[:ply])
            assert ledger.numbers == numbers
            assert ledger.spans == turn_spans(movers[:ply], numbers)
            assert ledger.turns == turns_played(movers[:ply], numbers)


def test_grown_encodes_as_orjson_does():
    rng = random.Random(1)
    for _ in range(500):
        carried: dict = {}
        items: list = []
        for _ in range(30):
            r = rng.random()
            if r < 0.6:
                items = items + [rng.choice(["a1", 7, {"moves": ["b2+c3"], "plies": [4]}, None, "é"])]
            elif r < 0.75:  # a takeback
                items = items[: rng.randrange(len(items) + 1)]
            elif r < 0.9 and items:  # the turn in progress goes on
                items = items[:-1] + [{"changed": rng.randrange(9)}]
            assert grown(carried, "f", items) == orjson.dumps(items, option=orjson.OPT_NON_STR_KEYS)
