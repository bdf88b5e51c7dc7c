"""OpenSpiel conformance of every game and variant (issue 19, extra ``[openspiel]``)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import abstracta  # noqa: E402
from abstracta.interop import openspiel as aos  # noqa: E402

from .helpers import VARIANTS  # noqa: E402

#: Random simulations per variant: Fibonacci games are ~1,700 actions long.
SIMS = {"fibonacci": 1}


@pytest.mark.parametrize("name, options", VARIANTS)
def test_random_sim_test_with_serialization(name, options):
    game = aos.load(name, **options)
    pyspiel.random_sim_test(game, num_sims=SIMS.get(name, 3), serialize=True, verbose=False)
    assert pickle.loads(pickle.dumps(game)).get_parameters() == game.get_parameters()


@pytest.mark.parametrize("name, options", [("fibonacci-cards", {}), ("nibble", {"variant": "square9"})])
def test_random_sim_test_seeded_chance(name, options):
    game = aos.load(name, chance="seeded", seed=7, **options)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    start = abstracta.load_game(name, **options).new_initial_state(7)
    assert str(game.new_initial_state()) == start.to_text()  # the seed's deal, every game


def test_every_game_is_registered_under_its_name():
    names = {t.short_name for t in pyspiel.registered_games()}
    for name in abstracta.registered_games():
        assert "python_abstracta_" + name.replace("-", "_") in names
    assert aos.short_name("slide-checkers") == "python_abstracta_slide_checkers"


def test_game_type_and_info():
    CM, Info, U = pyspiel.GameType.ChanceMode, pyspiel.GameType.Information, pyspiel.GameType.Utility
    g = pyspiel.load_game("python_abstracta_fanorona", {"size": "dimy"})
    t = g.get_type()
    assert (t.chance_mode, t.information, t.utility) == (CM.DETERMINISTIC, Info.PERFECT_INFORMATION, U.ZERO_SUM)
    assert (g.num_distinct_actions(), g.max_game_length(), g.max_chance_outcomes()) == (601, 2548, 0)
    g = pyspiel.load_game("python_abstracta_fibonacci", {"variant": "cards"})
    t = g.get_type()
    assert (t.chance_mode, t.information) == (CM.EXPLICIT_STOCHASTIC, Info.IMPERFECT_INFORMATION)
    assert (g.max_game_length(), g.max_chance_outcomes()) == (1800, 100)
    assert g.observation_tensor_shape() == [859] and g.information_state_tensor_shape() == [871]
    g = pyspiel.load_game("python_abstracta_nibble", {"layout_seeds": 10})
    assert (g.get_type().chance_mode, g.get_type().information) == (CM.EXPLICIT_STOCHASTIC, Info.PERFECT_INFORMATION)
    assert g.max_chance_outcomes() == 10
    g = pyspiel.load_game("python_abstracta_slide_checkers", {"players": 4, "board": "5:1", "max_turns": 300})
    # compact actions (the default): a move is two parts, so 300 turns are at most 600 actions
    assert g.get_type().utility == U.GENERAL_SUM and g.num_players() == 4 and g.max_game_length() == 600
    assert g.num_distinct_actions() == 2737
    engine = pyspiel.load_game("python_abstracta_slide_checkers", {"max_turns": 300, "actions": "engine"})
    assert (engine.max_game_length(), engine.num_distinct_actions()) == (300, 352945)
    assert g.interop.game.options["board"] == (5, 1)
    assert (g.min_utility(), g.max_utility()) == (-1.0, 1.0)
    with pytest.raises(Exception, match="unknown|Unknown"):
        pyspiel.load_game("python_abstracta_nibble", {"size": "dimy"})


def test_state_serialization_round_trip_mid_game():
    game = aos.load("fibonacci-cards")
    state = game.new_initial_state()
    rng = np.random.RandomState(4)
    for _ in range(40):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert state2.history() == state.history()
    assert str(state2) == str(state)
    assert state2.information_state_string(1) == state.information_state_string(1)
    assert pickle.loads(pickle.dumps(state)).history() == state.history()


def test_observers_have_named_planes():
    from open_spiel.python.observation import make_observation

    game = aos.load("fanorona", size="telo")
    obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    state = game.new_initial_state()
    obs.set_from(state, 0)
    assert list(obs.dict) == ["own_stones", "opponent_stones", "chain_stone", "chain_visited", "to_move",
                              "no_progress"]
    assert obs.dict["own_stones"].shape == (3, 3) and obs.dict["own_stones"][0].tolist() == [1, 1, 1]
    assert np.array_equal(obs.tensor, np.array(state.observation_tensor(0), np.float32))
    assert obs.string_from(state, 0) == "BBB/B.W/WWW W"


def test_resample_from_infostate():
    game = aos.load("fibonacci-cards")
    state = game.new_initial_state()
    state.apply_action(11)
    player = state.current_player()
    other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.information_state_string(player) == state.information_state_string(player)
    assert other.observation_string(1 - player) != state.observation_string(1 - player)  # the other hand


def _play(game, bots, rng):
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(bots[state.current_player()](state))
    return state


@pytest.mark.parametrize("name, options", [("fanorona", {"size": "dimy"}), ("fibonacci-cards", {}),
                                           ("slide-checkers", {"players": 3, "max_turns": 60})])
def test_python_mcts_plays_complete_games(name, options):
    from open_spiel.python.algorithms import mcts

    game = aos.load(name, **options)
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=8,
                       evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
                       random_state=np.random.RandomState(2))
    state = _play(game, [bot.step] * game.num_players(), rng)
    assert state.is_terminal() and len(state.returns()) == game.num_players()


def test_python_alpha_beta_plays_a_complete_game():
    from open_spiel.python.algorithms import minimax

    game = aos.load("fanorona", size="telo")
    evaluate = abstracta.load_game("fanorona", size="telo").evaluate

    def value(state):  # heuristic from player 0's side (terminal states: the returns)
        s = state.abstracta_state
        return s.returns()[0] if s.is_terminal() else evaluate(s.inner, 0)

    def step(state):
        _, action = minimax.alpha_beta_search(game, state=state, value_function=value, maximum_depth=3,
                                              maximizing_player_id=state.current_player())
        return action

    state = _play(game, [step, step], np.random.RandomState(0))
    assert state.returns() in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])


def test_python_ismcts_plays_the_card_game():
    from open_spiel.python.algorithms import ismcts, mcts

    game = aos.load("fibonacci-cards")
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(3)), uct_c=2.0,
                           max_simulations=10, random_state=np.random.RandomState(4))
    rng = np.random.RandomState(5)
    random_bot = lambda s: int(rng.choice(s.legal_actions()))  # noqa: E731
    state = _play(game, [bot.step, random_bot], rng)
    assert state.is_terminal() and sum(state.returns()) == 0


def test_observers_that_would_show_a_hand_to_the_wrong_eye_are_refused():
    from open_spiel.python.observation import make_observation

    iig = pyspiel.IIGObservationType
    cards = aos.load("fibonacci-cards", chance="seeded", seed=3)
    state = cards.new_initial_state()
    # a public observer may hold no seat's cards; an all-players one would need both hands
    for obs_type in (iig(perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE),
                     iig(perfect_recall=True, public_info=True, private_info=pyspiel.PrivateInfoType.NONE),
                     iig(perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS),
                     iig(perfect_recall=False, public_info=False, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER)):
        with pytest.raises(ValueError, match="observ"):
            make_observation(cards, obs_type)
    own = make_observation(cards, iig(perfect_recall=False))  # a seat's own view: its hand
    own.set_from(state, 0)
    assert own.dict["own_hand"].sum() == 8
    telo = aos.load("fanorona", size="telo")  # perfect information: every view is the public one
    public = make_observation(telo, iig(perfect_recall=False, public_info=True,
                                        private_info=pyspiel.PrivateInfoType.NONE))
    public.set_from(telo.new_initial_state(), 0)
    assert public.string_from(telo.new_initial_state(), 0) == "BBB/B.W/WWW W"


def test_a_board_written_with_a_comma_keeps_the_game_string_loadable():
    # "5,1" is how the command line writes the board: the game accepts it, so its game string,
    # pickle and serialization must rebuild it too (OpenSpiel's game strings split on commas)
    game = pyspiel.load_game("python_abstracta_slide_checkers", {"board": "5,1"})
    assert game.get_parameters()["board"] == "5:1"
    assert "board=5:1," in str(game)
    assert pyspiel.load_game(str(game)).interop.game.options["board"] == (5, 1)
    assert pickle.loads(pickle.dumps(game)).get_parameters()["board"] == "5:1"
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    _, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert again.history() == state.history()


def test_a_pickled_game_plays():
    # what multiprocessing and Ray do with a game handed to a worker: the copy must play
    game = aos.load("nibble", variant="square9", layout_seeds=10)
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and again.interop.layout_seeds == 10
    state = again.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 10
    state.apply_action(3)
    state.apply_action(state.legal_actions()[0])
    copied = pickle.loads(pickle.dumps(state))
    assert copied.history() == state.history()
    copied.apply_action(copied.legal_actions()[0])
    assert len(copied.history()) == 3 and len(state.history()) == 2
    assert copied.get_game().new_initial_state().is_chance_node()


def test_load_takes_option_values_as_abstracta_gives_them():
    # a board as the game's option value (a tuple; `abstracta games --json` lists lists) and
    # first_player as an int: converted to the parameters' forms, not a TypeError from pybind
    game = aos.load("slide-checkers", board=(5, 1), players=3)
    assert game.get_parameters()["board"] == "5:1" and game.interop.game.options["board"] == (5, 1)
    assert aos.load("slide-checkers", board=[1, 7]).interop.game.options["board"] == (1, 7)
    nibble = aos.load("nibble", first_player=1, variant="hex")
    assert nibble.get_parameters()["first_player"] == 1 and nibble.interop.game.options["first_player"] == 1
    assert aos.load("nibble", first_player=None).get_parameters()["first_player"] == -1  # absent
    assert aos.load("nibble", first_player="0").interop.game.options["first_player"] == 0
    assert aos.load("nibble", first_player=-1).interop.game.options["first_player"] is None  # the parameter's form
    assert aos.load("fanorona", vela="true").get_parameters()["vela"] is True
    with pytest.raises(abstracta.OptionError, match="board"):
        aos.load("slide-checkers", board=(9, 9))


def test_integers_openspiel_cannot_carry_are_refused_by_name():
    # OpenSpiel's integer parameters are 32-bit: pybind's "Unable to cast Python instance" named
    # neither the parameter nor the limit
    with pytest.raises(abstracta.OptionError, match=r"seed: .*2\*\*31 - 1"):
        aos.load("fibonacci-cards", chance="seeded", seed=2**40)
    with pytest.raises(abstracta.OptionError, match=r"layout_seeds: .*2\*\*31 - 1"):
        aos.load("nibble", layout_seeds=2**31)
    assert aos.load("nibble", layout_seeds=2**31 - 1).max_chance_outcomes() == 2**31 - 1


def test_load_takes_numpy_integers():
    np = pytest.importorskip("numpy")
    # pybind11 refused them with "'numpy.int64' object is not iterable"
    game = aos.load("nibble", chance="seeded", seed=np.int64(3), max_turns=np.int64(50), layout_seeds=np.int32(7),
                    first_player=np.int64(1))
    params = game.get_parameters()
    assert (params["seed"], params["max_turns"], params["layout_seeds"], params["first_player"]) == (3, 50, 7, 1)
    assert aos.load("slide-checkers", players=np.int64(3)).num_players() == 3
    with pytest.raises(abstracta.OptionError, match=r"seed: .*2\*\*31 - 1"):
        aos.load("nibble", chance="seeded", seed=np.int64(2**40))


def test_first_player_survives_the_game_string():
    # OpenSpiel's game strings read "first_player=1" as an int: a text parameter holding "1"
    # could not be read back, so serialize_game_and_state failed ("Wrong type … kString")
    game = pyspiel.load_game("python_abstracta_fibonacci_cards", {"first_player": 1})
    assert game.interop.game.options["first_player"] == 1
    assert pyspiel.load_game(str(game)).interop.game.options["first_player"] == 1
    state = game.new_initial_state()
    state.apply_action(3)
    _, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert again.history() == [3] and again.current_player() == 1
    absent = pyspiel.load_game("python_abstracta_nibble")  # -1: absent, the seed chooses
    assert absent.get_parameters()["first_player"] == -1 and absent.interop.game.options["first_player"] is None
    assert pyspiel.load_game(str(absent)).interop.game.options["first_player"] is None


def test_a_seed_of_zero_with_explicit_chance_is_refused_like_any_seed():
    # OpenSpiel fills in every default before the game sees its parameters, so the default had
    # to be a value of its own (-1): seed=0 used to be taken for "no seed" and pass silently
    for given in ({"seed": 0}, {"seed": 0, "chance": "explicit"}):
        with pytest.raises(abstracta.OptionError, match=r"seed 0: .*chance='seeded'"):
            pyspiel.load_game("python_abstracta_fibonacci_cards", given)
    with pytest.raises(abstracta.OptionError, match=r"seed 0: "):
        pyspiel.load_game("python_abstracta_nibble(seed=0)")
    with pytest.raises(abstracta.OptionError, match=r"seed 0: "):
        aos.load("fibonacci", variant="cards", seed=0)
    default = pyspiel.load_game("python_abstracta_fibonacci_cards")
    assert default.get_parameters()["seed"] == -1 and default.interop.seed is None
    assert pyspiel.load_game(str(default)).interop.seed is None
    seeded = pyspiel.load_game("python_abstracta_fibonacci_cards", {"chance": "seeded"})
    zero = aos.load("fibonacci-cards", chance="seeded", seed=0)
    assert seeded.interop.seed == zero.interop.seed == 0
    assert str(seeded.new_initial_state()) == str(zero.new_initial_state()) \
        == abstracta.load_game("fibonacci-cards").new_initial_state(0).to_text()
    assert pickle.loads(pickle.dumps(seeded)).interop.seed == 0


def test_a_broken_plug_in_game_is_left_unregistered_not_fatal():
    # one plug-in whose entry point does not import, and one whose name OpenSpiel's game string
    # cannot carry ("(" opens the parameters), failed the import for every game; two names
    # that make one OpenSpiel name ("toy-x", "toy_x") gave the first one's name the second game
    import subprocess
    import sys
    from pathlib import Path

    tests = Path(__file__).resolve().parents[1]
    code = ("import sys; sys.path.insert(0, %r)\n"
            "from toy_nim import NimGame\n"
            "from abstracta.core.registry import register_game\n"
            "register_game('broken', 'no_such_module_here:Game')\n"
            "for name in ('toy(nim)', 'toy-x', 'toy_x'):\n"
            "    register_game(name, type('G', (NimGame,), {'name': name}))\n"
            "import pyspiel\n"
            "from abstracta.interop import openspiel as aos\n"
            "print(sorted(aos.REGISTERED))\n"
            "for name, why in sorted(aos.SKIPPED.items()): print(name, '|', why)\n"
            "print(pyspiel.load_game('python_abstracta_fanorona', {'size': 'telo'}).num_distinct_actions())\n"
            "print(pyspiel.load_game('python_abstracta_toy_x').interop.game.name)\n"
            "for name in ('broken', 'toy(nim)', 'toy_x'):\n"
            "    try:\n"
            "        aos.load(name)\n"
            "    except Exception as e:\n"
            "        print(type(e).__name__, '|', e)\n") % str(tests)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.splitlines()
    assert lines[0] == str(["fanorona", "fibonacci", "fibonacci-cards", "nibble", "slide-checkers", "toy-x"])
    assert lines[1].startswith("broken | game 'broken' (no_such_module_here:Game) does not import: ModuleNotFoundError")
    assert lines[2] == ("toy(nim) | 'python_abstracta_toy(nim)' is no name in an OpenSpiel game string "
                        "(brackets hold the parameters)")
    assert lines[3] == "toy_x | its OpenSpiel name python_abstracta_toy_x is toy-x's"
    assert lines[4:6] == ["217", "toy-x"]  # Telo's actions; toy_x left toy-x its name
    assert lines[6].startswith("GameLoadError | game 'broken' (no_such_module_here:Game) does not import")
    assert lines[7] == ("UnknownGameError | toy(nim) is not registered with OpenSpiel: 'python_abstracta_toy(nim)' "
                        "is no name in an OpenSpiel game string (brackets hold the parameters)")
    assert lines[8] == ("UnknownGameError | toy_x is not registered with OpenSpiel: its OpenSpiel name "
                        "python_abstracta_toy_x is toy-x's")
