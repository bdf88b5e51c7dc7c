"""The shared interop wrapper and the spine it reads (issue 19): bounds, chance, tensors."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

import abstracta
from abstracta import CHANCE, IllegalActionError, OptionError
from abstracta.core.tensors import plane_offsets, tensor_size
from abstracta.interop import DEFAULT_MAX_TURNS, InteropGame

from .helpers import VARIANTS, random_playout

#: Random playouts per variant (Fibonacci games run to ~1,700 actions: fewer of them).
PLAYOUTS = {"fibonacci": 6}


@pytest.mark.parametrize("name, options", VARIANTS)
def test_max_game_length_bounds_the_longest_random_playout(name, options):
    game = InteropGame(name, **options)
    bound = game.game.max_game_length()
    longest = 0
    for seed in range(PLAYOUTS.get(name, 25)):
        state, moves, chance = random_playout(game, seed)
        longest = max(longest, moves)
        assert moves <= game.max_game_length
        assert chance <= game.max_chance_nodes
        if bound is not None:  # the rules ended it, never the truncation
            assert not state.is_truncated()
            assert state.returns() == state.inner.returns()
    assert longest > 0


def test_declared_bounds():
    expect = {("fibonacci", "standard"): 1785, ("fibonacci", "cards"): 1800, ("fibonacci", "go"): 1811,
              ("nibble", "square9"): 162, ("nibble", "hex"): 338}
    for (name, variant), bound in expect.items():
        assert abstracta.load_game(name, variant=variant).max_game_length() == bound
    assert abstracta.load_game("fibonacci-cards").max_game_length() == 132
    assert abstracta.load_game("fanorona", size="telo").max_game_length() == 2 * 8 + 100 * 9
    assert abstracta.load_game("slide-checkers").max_game_length() is None


def test_truncation_at_max_turns():
    assert InteropGame("slide-checkers", actions="engine").max_game_length == DEFAULT_MAX_TURNS
    # compact actions: a move is two parts (pick, then where to), so a game is at most twice as long
    assert InteropGame("slide-checkers").max_game_length == 2 * DEFAULT_MAX_TURNS
    with pytest.raises(OptionError, match="no bound"):
        InteropGame("slide-checkers", max_turns=0)
    game = InteropGame("slide-checkers", players=3, max_turns=5)
    state = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(5):
        assert not state.is_terminal()
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.is_terminal() and state.is_truncated()
    assert state.returns() == [0.0, 0.0, 0.0]
    assert state.legal_actions() == []
    with pytest.raises(IllegalActionError):
        state.apply_action(0)
    # a bounded game keeps its own bound unless a smaller max_turns is given
    assert InteropGame("nibble").max_game_length == 162
    assert InteropGame("nibble", max_turns=40).max_game_length == 40


def test_layout_chance_node_is_k_seeds():
    game = InteropGame("nibble", variant="hex", layout_seeds=7)
    state = game.new_initial_state()
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [(k, 1 / 7) for k in range(7)]
    state.apply_action(5)
    assert state.to_text() == abstracta.load_game("nibble", variant="hex").new_initial_state(5).to_text()
    assert state.history() == [5]
    with pytest.raises(IllegalActionError):
        game.new_initial_state().apply_action(7)
    # without chance there is no node; seeded mode plays the seed's layout every time
    assert InteropGame("fanorona").new_initial_state().current_player() == 0
    seeded = InteropGame("nibble", chance="seeded", seed=40)
    texts = {seeded.new_initial_state().to_text() for _ in range(2)}
    assert texts == {abstracta.load_game("nibble").new_initial_state(40).to_text()}


def test_a_seed_without_seeded_chance_is_refused_not_ignored():
    # env("nibble", seed=5) used to play random layouts: in explicit mode the layout is a chance
    # outcome and the seed was silently unused
    with pytest.raises(OptionError, match=r"seed 5: .*chance='seeded'"):
        InteropGame("nibble", seed=5)
    with pytest.raises(OptionError, match="chance='seeded'"):
        InteropGame("fibonacci-cards", seed=1, chance="explicit")
    assert InteropGame("nibble", seed=5, chance="seeded").seed == 5
    # 0 is a seed too: it used to pass silently, as if no seed had been given
    with pytest.raises(OptionError, match=r"seed 0: .*chance='seeded'.*0 included"):
        InteropGame("fibonacci-cards", seed=0)
    with pytest.raises(OptionError, match=r"seed 0: "):
        InteropGame("fibonacci", variant="cards", seed=0, chance="explicit")
    assert InteropGame("nibble").seed is None and InteropGame("nibble").params()["seed"] is None
    assert InteropGame("nibble", chance="seeded").seed == 0  # seeded mode without a seed: seed 0
    assert InteropGame("nibble", seed=0, chance="seeded").seed == 0
    assert InteropGame("fanorona", seed=5).seed == 5  # no chance: nothing to decide either way


def test_card_draw_is_a_chance_node_over_the_stock():
    game = InteropGame("fibonacci-cards")
    state = game.new_initial_state()
    state.apply_action(3)
    rng = random.Random(0)
    while 312 not in state.legal_actions():  # play until someone must draw
        state.apply_action(rng.choice(state.legal_actions()))
    inner = state.inner
    mover, stock = inner.current_player(), sorted(inner._stock)
    hand = inner.hand(mover)
    state.apply_action(312)
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [(c, 1 / len(stock)) for c in stock]
    assert state.action_to_string(stock[0]).startswith("=")
    state.apply_action(stock[-1])
    assert inner.hand(mover) == hand + [stock[-1]]
    assert state.history()[-2:] == [312, stock[-1]]
    # the default engine resolves the draw itself (no chance node)
    plain = abstracta.load_game("fibonacci-cards").new_initial_state(3)
    assert not plain.explicit_chance


def test_pile_reveal_is_a_chance_node_with_the_pile_distribution():
    state = InteropGame("fibonacci", variant="cards").new_initial_state()
    state.apply_action(0)  # layout seed 0: the first card goes back on its pile
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [(v, 2 / 12) for v in range(6)]
    state.apply_action(3)
    assert state.inner.left == 4 and state.current_player() == 0
    for _ in range(4):
        state.apply_action(state.legal_actions()[0])  # four moves: the turn ends
    # Green's turn starts at a chance node over his full pile
    assert state.current_player() == CHANCE
    assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)


def test_state_pickles_as_its_history():
    game = InteropGame("fibonacci-cards", max_turns=0)
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(30):
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    copy = pickle.loads(pickle.dumps(state))
    assert copy.history() == state.history()
    assert copy.information_state_string(0) == state.information_state_string(0)
    assert copy.current_player() == state.current_player()


@pytest.mark.parametrize("name, options", VARIANTS)
def test_tensors_have_the_declared_planes_and_masks_the_legal_actions(name, options):
    game = InteropGame(name, **options)
    planes = game.observation_planes  # the game's, then the compact actions' (Slide Checkers: picked)
    assert planes[:len(game.game.observation_planes())] == game.game.observation_planes()
    assert len({p.name for p in planes}) == len(planes)
    state, rng = game.new_initial_state(), random.Random(2)
    for _ in range(40):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
            continue
        mover = state.current_player()
        for p in range(game.num_players):
            obs = state.observation_tensor(p)
            info = state.information_state_tensor(p)
            assert len(obs) == game.observation_size == tensor_size(planes)
            assert len(info) == game.information_state_size
            assert obs.dtype == info.dtype == np.float32
            assert ((0.0 <= obs) & (obs <= 1.0)).all() and ((0.0 <= info) & (info <= 1.0)).all()
            mask = state.legal_actions_mask(p)
            assert sum(mask) == (len(state.legal_actions()) if p == mover else 0)
        state.apply_action(rng.choice(state.legal_actions()))


def _plane(game, state, player, name):
    off, plane = plane_offsets(game.observation_planes())[name]
    return state.observation_tensor(player)[off:off + plane.size].tolist()


def test_tensor_values():
    telo = abstracta.load_game("fanorona", size="telo")  # BBB/B.W/WWW, White to move
    s = telo.new_initial_state()
    assert sum(_plane(telo, s, 0, "own_stones")) == 4 and sum(_plane(telo, s, 0, "opponent_stones")) == 4
    assert _plane(telo, s, 0, "own_stones")[:3] == [1.0, 1.0, 1.0]  # rank 1 is White's
    assert _plane(telo, s, 1, "own_stones")[6:] == [1.0, 1.0, 1.0]
    assert _plane(telo, s, 0, "to_move") == [1.0] and _plane(telo, s, 1, "to_move") == [0.0]
    cards = abstracta.load_game("fibonacci-cards")
    s = cards.new_initial_state(0)
    hand = _plane(cards, s, 1, "own_hand")
    assert [i for i, x in enumerate(hand) if x] == sorted(s.hand(1))
    assert _plane(cards, s, 0, "stock_size") == [1.0]
    sc = abstracta.load_game("slide-checkers", players=3)
    s = sc.new_initial_state()
    s.apply_action(s.legal_actions()[0])  # seat 0 placed a piece
    assert sum(_plane(sc, s, 0, "pieces")[:144]) == 1 and sum(_plane(sc, s, 1, "pieces")[288:]) == 1
    assert _plane(sc, s, 1, "to_move") == [1.0, 0.0, 0.0]  # seat 1 moves: index 0 from seat 1


@pytest.mark.parametrize("name, options", [("fibonacci-cards", {}), ("fibonacci", {"variant": "cards"})])
def test_resample_keeps_what_the_player_knows(name, options):
    game = InteropGame(name, **options)
    state, rng = game.new_initial_state(), random.Random(5)
    for _ in range(25):  # legal_actions() lists the outcomes at chance nodes
        state.apply_action(rng.choice(state.legal_actions()))
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    p = state.current_player()
    other = state.resample_from_infostate(p, random.Random(9))
    assert other.information_state_string(p) == state.information_state_string(p)
    assert np.array_equal(other.information_state_tensor(p), state.information_state_tensor(p))
    assert other.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("name, options", [("fibonacci-cards", {}), ("fibonacci", {"variant": "cards"})])
def test_explicit_chance_undo_walks_back_to_the_start(name, options):
    game = abstracta.load_game(name, **options)
    state = game.new_initial_state(4)
    state.set_explicit_chance(True)
    assert state.explicit_chance

    def key(s):  # the card game's stock is a set in explicit mode (see _apply_outcome)
        text = s.to_text()
        if name == "fibonacci-cards":
            parts = text.split(" | ")
            parts[3] = ",".join(sorted(parts[3].split(",")))
            text = " | ".join(parts)
        return text, s.current_player(), tuple(s.legal_actions()), tuple(s.history())

    rng, seen = random.Random(4), []
    for _ in range(120):
        if state.is_terminal():
            break
        seen.append(key(state))
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            state.apply_action(rng.choice([o for o, _ in outcomes]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert CHANCE in {k[1] for k in seen}
    for expected in reversed(seen):
        state.undo_action()
        assert key(state) == expected
    with pytest.raises(ValueError):  # switching off at a chance node would lose the draw
        pending = game.new_initial_state(4)
        pending.set_explicit_chance(True)
        while pending.current_player() != CHANCE:
            pending.apply_action(pending.legal_actions()[-1])
        pending.set_explicit_chance(False)


def test_seeded_engine_is_the_default():
    for name, options in (("fibonacci-cards", {}), ("fibonacci", {"variant": "cards"})):
        state = abstracta.load_game(name, **options).new_initial_state(4)
        assert not state.explicit_chance
        rng = random.Random(1)
        for _ in range(200):
            if state.is_terminal():
                break
            assert state.current_player() != CHANCE and state.chance_outcomes() == []
            state.apply_action(rng.choice(state.legal_actions()))


def test_actions_are_integers_numpy_ones_included():
    np = pytest.importorskip("numpy")
    telo = InteropGame("fanorona", size="telo")
    state = telo.new_initial_state()
    legal = state.legal_actions()[0]  # 22, a1-b2A
    for bad in (float(legal), legal + 0.5, str(legal), np.float64(legal), np.array([legal]), None, "x",
                True, False, -1, telo.num_distinct_actions, 2**70):
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)
        assert state.history() == [] and state.move_number == 0
    state.apply_action(np.int64(legal))
    assert state.history() == [legal] and type(state.history()[0]) is int
    cards = InteropGame("fibonacci-cards").new_initial_state()
    for bad in (1.0, "1", True, None, 100):
        with pytest.raises(IllegalActionError):
            cards.apply_action(bad)
        assert cards.inner is None and cards.history() == []
    cards.apply_action(np.int32(7))  # the layout chance node takes a numpy outcome as well
    assert cards.history() == [7] and cards.inner.seed == 7


@pytest.mark.parametrize("name, options", [("fibonacci-cards", {}), ("fibonacci", {"variant": "cards"})])
def test_a_pickled_determinization_stays_the_sample(name, options):
    game = InteropGame(name, **options)
    state, rng = game.new_initial_state(), random.Random(3)
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    p = state.current_player()
    sample = state.resample_from_infostate(p, random.Random(1))
    assert sample.to_text() != state.to_text()
    back = pickle.loads(pickle.dumps(sample))  # e.g. sent to a worker process
    assert back.to_text() == sample.to_text() and back.to_text() != state.to_text()
    assert back.history() == sample.history() and back.move_number == sample.move_number
    assert back.legal_actions() == sample.legal_actions()
    back.apply_action(back.legal_actions()[0])  # and plays on


def test_layout_seeds_are_seeds():
    assert InteropGame("fibonacci-cards", layout_seeds=2**64).layout_seeds == 2**64
    with pytest.raises(OptionError, match="layout_seeds"):  # outcomes past 2**64 - 1 deal nothing
        InteropGame("fibonacci-cards", layout_seeds=2**64 + 1)


def test_numpy_integers_are_integers_for_options_seeds_and_parameters():
    """A sweep over ``np.arange`` hands NumPy integers: they are taken as the ints they are
    (they were refused as "expected an integer, got np.int64(3)"), floats and bools still not."""
    np = pytest.importorskip("numpy")
    nibble = abstracta.load_game("nibble", seed=np.int64(3))
    assert nibble.options["seed"] == 3 and type(nibble.options["seed"]) is int
    assert nibble.new_initial_state().to_text() == abstracta.load_game("nibble", seed=3).new_initial_state().to_text()
    assert (abstracta.load_game("nibble").new_initial_state(np.uint64(3)).to_text()
            == nibble.new_initial_state().to_text())
    assert abstracta.load_game("slide-checkers", players=np.int32(3)).num_players == 3
    game = InteropGame("nibble", chance="seeded", seed=np.int64(3), max_turns=np.int64(50),
                       layout_seeds=np.int64(10))
    assert game.params()["seed"] == 3 and game.max_turns == 50 and game.layout_seeds == 10
    assert all(type(game.params()[k]) is int for k in ("seed", "max_turns", "layout_seeds"))
    for bad in (np.float64(3), 3.0, True):
        with pytest.raises(OptionError, match="seed"):
            abstracta.load_game("nibble", seed=bad)
        with pytest.raises(OptionError, match="seed"):
            InteropGame("nibble", chance="seeded", seed=bad)
    with pytest.raises(OptionError, match="players: expected an integer, got np.float64"):
        abstracta.load_game("slide-checkers", players=np.float64(3))


@pytest.mark.parametrize("name", ["fanorona", "nibble", "slide-checkers"])
def test_a_tensor_restarted_from_an_earlier_start_is_the_tensor_written_anew(name):
    # TensorBuffer.restart starts from the last episode's first tensor: whatever came between,
    # the result is what a new buffer writes from zeros
    from abstracta.core.tensors import TensorBuffer

    game = InteropGame(name, layout_seeds=3)
    buffer = TensorBuffer(game.observation_layout)
    rng = random.Random(4)
    for k in (0, 1, 1, 2, 0):
        state = game.new_initial_state()
        if state.is_chance_node():  # the layout: seeds 0..2, some twice in a row
            state.apply_action(k)
        start = buffer.restart(state.observation_features(0)).copy()
        assert np.array_equal(start, TensorBuffer(game.observation_layout).update(state.observation_features(0)))
        for _ in range(rng.randrange(5, 40)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
            later = buffer.update(state.observation_features(0))
            assert np.array_equal(later, TensorBuffer(game.observation_layout).update(state.observation_features(0)))
