"""SPEC grammar: every form parses, bad ones are refused with a clear ValueError."""

import pytest

from abstracta.ai import LEVELS, AlphaBetaBot, GreedyBot, ISMCTSBot, MCTSBot, RandomBot, make_bot, parse_seat_spec
from abstracta.ai.base import Budget
from abstracta.ai.levels import strongest_search
from abstracta.core.description import Search

from .toygames import MNKGame, TricksGame


@pytest.mark.parametrize("spec, canonical", [
    ("human", "human"), ("random", "random"), ("greedy", "greedy"), ("rule", "rule"), ("Own_Bot", "own_bot"),
    ("mcts", "mcts"), ("MCTS:0.50", "mcts:0.5"), (" mcts:2 ", "mcts:2"), ("mcts:i1000", "mcts:i1000"),
    ("alphabeta", "alphabeta"), ("alphabeta:1.5", "alphabeta:1.5"), ("alphabeta:d4", "alphabeta:d4"),
    ("ismcts", "ismcts"), ("ismcts:.25", "ismcts:0.25"), ("ismcts:i50", "ismcts:i50"),
    ("level:1", "level:1"), ("level:6", "level:6"), ("Level: 3", "level:3"),
])
def test_parse_seat_spec_accepts(spec: str, canonical: str) -> None:
    assert parse_seat_spec(spec) == canonical


@pytest.mark.parametrize("spec, reason", [
    ("", "empty seat spec"), ("robot:1", "unknown seat spec"), ("9lives", "unknown seat spec"),
    ("level", "needs a number"),
    ("level:0", "level must be 1 to 6"), ("level:7", "level must be 1 to 6"), ("level:x", "level must be"),
    ("mcts:", "nothing after"), ("mcts:-1", "is not seconds"), ("mcts:0", "must be > 0"),
    ("mcts:fast", "is not seconds"), ("mcts:i0", "at least 1"), ("mcts:d3", "not a depth"),
    ("alphabeta:i100", "not iterations"), ("ismcts:d2", "not a depth"), ("random:3", "takes no"),
    ("human:1", "takes no"), ("mcts:99999", "at most"),
])
def test_parse_seat_spec_rejects(spec: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        parse_seat_spec(spec)


def test_make_bot_every_form() -> None:
    game = MNKGame()
    assert make_bot("human", game) is None
    assert isinstance(make_bot("random", game, seed=1), RandomBot)
    assert isinstance(make_bot("greedy", game, seed=1), GreedyBot)
    bot = make_bot("mcts:i200", game, seed=1)
    assert isinstance(bot, MCTSBot) and bot.budget == Budget(iterations=200) and bot.name == "mcts:i200"
    assert make_bot("mcts", game).budget == Budget(seconds=1.0)
    assert isinstance(make_bot("alphabeta:d3", game), AlphaBetaBot)
    assert make_bot("alphabeta:0.5", game).budget == Budget(seconds=0.5)
    assert isinstance(make_bot("ismcts:0.1", game), ISMCTSBot)
    assert isinstance(make_bot("level:1", game), RandomBot)
    assert isinstance(make_bot("level:2", game), GreedyBot)
    level3 = make_bot("level:3", game)
    assert isinstance(level3, MCTSBot) and level3.budget == Budget(seconds=0.2)
    for n, seconds in ((4, 0.5), (5, 1.5), (6, 4.0)):
        bot = make_bot(f"level:{n}", game)
        assert isinstance(bot, AlphaBetaBot) and bot.budget == Budget(seconds=seconds)  # 2p + evaluator


def test_levels_follow_the_game() -> None:
    three = MNKGame(m=4, n=4, k=3, players=3)
    assert isinstance(make_bot("level:5", three), MCTSBot)
    hidden = TricksGame()
    assert isinstance(make_bot("level:3", hidden), ISMCTSBot)
    assert isinstance(make_bot("level:6", hidden), ISMCTSBot)
    assert strongest_search(hidden) == "ismcts"
    assert [LEVELS[n].seconds for n in range(1, 7)] == [None, None, 0.2, 0.5, 1.5, 4.0]
    assert make_bot("level:4", three).max_rollout_actions == 400
    assert three.description.levels[4] == Search("mcts", None, three.evaluate)


def test_make_bot_refuses_misfits() -> None:
    with pytest.raises(ValueError, match="two-player games only"):
        make_bot("alphabeta:1", MNKGame(players=3))
    with pytest.raises(ValueError, match="toy-mnk has no bot of that name"):
        make_bot("rule", MNKGame())
    with pytest.raises(ValueError, match="toy-mnk has no bot of that name"):
        parse_seat_spec("minimax", MNKGame())
    with pytest.raises(ValueError, match="unknown seat spec"):
        make_bot("minimax:3", MNKGame())


def test_ismcts_searches_the_states_its_determinizer_draws() -> None:
    game = TricksGame()
    state = game.new_initial_state(seed=4)
    drawn: list[int] = []

    def determinize(s, observer, rng):
        drawn.append(observer)
        return s.resample_from_infostate(observer, rng)

    bot = ISMCTSBot(game, Budget(iterations=40), seed=1, determinize=determinize)
    assert bot.step(state) in state.legal_actions()
    assert drawn == [0] * 40  # one determinization per iteration, for the player to move
    # passing the game's own determinization changes nothing: same seed, same search
    again = ISMCTSBot(game, Budget(iterations=40), seed=1, determinize=determinize)
    plain = ISMCTSBot(game, Budget(iterations=40), seed=1)
    assert again.step(state) == plain.step(state)
    assert [c.visits for c in again.root.children.values()] == [c.visits for c in plain.root.children.values()]


def test_ismcts_playouts_follow_the_policy() -> None:
    game = TricksGame()
    state = game.new_initial_state(seed=4)
    asked: list[int] = []

    def lowest(s, legal, rnd):
        asked.append(len(legal))
        return min(legal)

    bot = ISMCTSBot(game, Budget(iterations=30), seed=1, playout=lowest)
    assert bot.step(state) in state.legal_actions()
    assert asked and all(n > 1 for n in asked)  # asked only where there is a choice


def test_card_game_levels_infer_from_level_4() -> None:
    import abstracta
    from abstracta.games.fibonacci_cards.description import inferred_deal

    game = abstracta.load_game("fibonacci-cards")
    three, four, six = (make_bot(f"level:{n}", game, seed=1) for n in (3, 4, 6))
    assert three.max_iterations == 200 and three.determinize is None
    assert four.determinize is inferred_deal and six.determinize is inferred_deal
    assert four.max_iterations is None and four.budget == Budget(seconds=0.5)


def test_a_refused_spec_names_the_whole_grammar() -> None:
    with pytest.raises(ValueError) as info:
        parse_seat_spec("robot:1")
    for form in ("mcts[:SECONDS|:iN]", "alphabeta[:SECONDS|:dN]", "turns[:SECONDS|:dN]", "+w=W1/W2/",
                 "a bot the game brings", "level:N (1-6)"):
        assert form in str(info.value)


def test_the_card_game_declares_four_levels_and_reads_five_and_six_as_four(caplog) -> None:
    import logging

    from abstracta import load_game
    from abstracta.ai import levels
    from abstracta.ai.levels import describe_level, level_fingerprint, read_level

    cards = load_game("fibonacci-cards")
    assert cards.description.level_numbers == (1, 2, 3, 4) and cards.description.top_level == 4
    assert all(load_game(n).description.top_level == 6 for n in ("fanorona", "fibonacci", "nibble", "slide-checkers"))
    levels._SAID.discard(("fibonacci-cards", 6))
    with caplog.at_level(logging.WARNING, logger="abstracta.ai.levels"):
        assert read_level(cards, 6) == 4 and read_level(cards, 6) == 4 and read_level(cards, 3) == 3
    said = [r.getMessage() for r in caplog.records if "plays as level 4" in r.getMessage()]
    assert said == ["fibonacci-cards has 4 levels: level 6 plays as level 4"]  # once
    bot = make_bot("level:6", cards, seed=1)
    assert isinstance(bot, ISMCTSBot) and bot.budget.seconds == LEVELS[4].seconds and bot.name == "level:6"
    assert level_fingerprint(cards, 6) == level_fingerprint(cards, 4)
    assert describe_level(cards, 5) == describe_level(cards, 4)
    with pytest.raises(KeyError):
        describe_level(cards, 7)
    # the research environments' fixed budgets (levels.FIXED_BUDGETS) read levels 5-6 as 4 too
    from abstracta.ai.base import Budget

    four = Budget(iterations=levels.FIXED_BUDGETS[4][0])
    assert levels.fixed_budget(cards, 5) == levels.fixed_budget(cards, 6) == levels.fixed_budget(cards, 4) == four
    assert levels.fixed_level_bot(cards, 6, seed=1).budget == four
