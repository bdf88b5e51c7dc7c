"""Fibonacci cards variant: piles from the seed (§10), hidden information, resampling (§9.2)."""

from __future__ import annotations

import random

import pytest

from abstracta import SplitMix64, load_game

FULL = [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]
START_ROWS = "caaaaa/1a5/8/8S/2s3SSS1/3s3S3/1sss3S2/s8/8/5A1/AAAAAC"


def expected_piles(seed: int) -> tuple[list[int], list[int], SplitMix64]:
    rng = SplitMix64(seed)
    red, green = list(FULL), list(FULL)
    rng.shuffle(red)
    rng.shuffle(green)
    return red, green, rng


@pytest.fixture
def cards():
    return load_game("fibonacci", variant="cards")


@pytest.mark.parametrize("seed", [0, 1, 12345])
def test_piles_from_seed(cards, seed):
    red, green, rng = expected_piles(seed)
    s = cards.new_initial_state(seed=seed)
    assert s.seed == seed and cards.has_chance and cards.has_hidden_information
    assert s.left == red[0] and s.current_player() == 0 and s.turn == 1
    assert s.to_text() == (f"{START_ROWS} R {red[0]} 1 {''.join(map(str, red[1:]))} "
                           f"{''.join(map(str, green))} rng={rng.state:016x}")
    assert cards.state_from_text(s.to_text()).to_text() == s.to_text()
    # play passes: every turn reveals the next card of the mover's pile, no ramp
    revealed = {0: [s.left], 1: []}
    for _ in range(27):
        s.apply_action(s.string_to_action("pass"))
        revealed[s.current_player()].append(s.left)
    assert revealed[0][:12] == red and revealed[1][:12] == green
    fresh_red = list(FULL)
    rng.shuffle(fresh_red)  # Red's pile is rebuilt first (turn 25), then Green's (turn 26)
    fresh_green = list(FULL)
    rng.shuffle(fresh_green)
    assert revealed[0][12:] == fresh_red[:len(revealed[0]) - 12]
    assert revealed[1][12:] == fresh_green[:len(revealed[1]) - 12]
    # the same game replays identically and undo restores piles and generator
    again = cards.new_initial_state(seed=seed)
    for a in s.history():
        again.apply_action(a)
    assert again.to_text() == s.to_text()
    text = s.to_text()
    s.apply_action(s.string_to_action("pass"))
    s.undo_action()
    assert s.to_text() == text
    while s.history():
        s.undo_action()
    assert s.to_text() == cards.new_initial_state(seed=seed).to_text()


def test_seed_option(cards):
    g = load_game("fibonacci", variant="cards", seed=7)
    assert g.new_initial_state().to_text() == cards.new_initial_state(seed=7).to_text()
    assert load_game("fibonacci", seed=3).new_initial_state().to_text().endswith("R 1 1")


def test_no_ramp_no_reduction(cards):
    # V2 board: three green attackers touch the red core, the card still gives all its moves
    s = cards.state_from_text("caaa2/7/8/s8/4aa4/5Ca4/10/9/S7/S4A1/AAAAA1 G 1 8 5 6 rng=0000000000000000")
    s.apply_action(s.string_to_action("pass"))
    assert s.left == 5 and s.turn == 9


def test_no_leak(cards):
    a = cards.state_from_text(f"{START_ROWS} R 4 1 53216546321 654321654321 rng=0123456789abcdef")
    b = cards.state_from_text(f"{START_ROWS} R 4 1 12345612356 112233445566 rng=fedcba9876543210")
    for p in (0, 1):
        assert a.information_state_string(p) == b.information_state_string(p)
        assert a.observation(p) == b.observation(p)
        assert "?" in a.observation(p) and "rng=" not in a.observation(p)
        assert "5321" not in a.information_state_string(p)
    for s in (a, b):
        s.apply_action(s.string_to_action("b6-c7"))
    for p in (0, 1):  # same public history, still indistinguishable
        assert a.information_state_string(p) == b.information_state_string(p)
        assert a.observation(p) == b.observation(p)


def test_no_leak_along_play(cards):
    s = cards.new_initial_state(seed=5)
    rng = random.Random(1)
    for _ in range(40):
        s.apply_action(rng.choice(s.legal_actions()))
    for p in (0, 1):
        r = s.resample_from_infostate(p, random.Random(2))
        assert r.information_state_string(p) == s.information_state_string(p)
        assert r.observation(1 - p) == s.observation(1 - p)
        assert sorted(r.piles[0]) == sorted(s.piles[0]) and sorted(r.piles[1]) == sorted(s.piles[1])
        assert r.to_text().split()[:4] == s.to_text().split()[:4]
        assert r.legal_actions() == s.legal_actions()
    r = s.resample_from_infostate(0, random.Random(3))
    r2 = s.resample_from_infostate(0, random.Random(4))
    assert r.to_text() != r2.to_text()


def test_standard_is_perfect_information():
    g = load_game("fibonacci")
    s = g.new_initial_state()
    assert s.observation(0) == s.to_text()
    assert s.resample_from_infostate(0, random.Random(0)).to_text() == s.to_text()


@pytest.mark.parametrize("explicit", [False, True])
@pytest.mark.parametrize("reveals", [8, 30])  # 30: past both piles' first reshuffle
def test_a_determinization_undone_to_the_start_holds_no_real_pile(cards, explicit, reveals):
    s = cards.new_initial_state(seed=5)
    s.set_explicit_chance(explicit)
    rng = random.Random(1)
    while len(s.revealed) < reveals and not s.is_terminal():
        s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()))
    assert len(s.revealed) >= reveals
    p = s.current_player() if s.current_player() >= 0 else s.side
    real_start = cards.new_initial_state(seed=5)
    real_start.set_explicit_chance(explicit)
    for k in range(4):
        d = s.resample_from_infostate(p, random.Random(k))
        assert d.seed is None  # the real seed deals the real piles
        real = s.clone()
        while real.history():  # the same public facts at every step back, never the real piles
            real.undo_action()
            d.undo_action()
            assert d.observation(p) == real.observation(p) and d.revealed == real.revealed
            assert sorted(d.piles[0]) == sorted(real.piles[0]) and sorted(d.piles[1]) == sorted(real.piles[1])
        assert d.to_text().split()[:4] == real_start.to_text().split()[:4]
        # the generator (next decks) is never the real one; before a reshuffle, neither are the
        # unrevealed cards' order (after one, the start piles were all shown: public)
        assert d.rng_state != real_start.rng_state
        if reveals < 24:
            assert d.piles != real_start.piles


def test_a_position_text_without_rng_starts_the_generator_from_the_seed_option():
    # project decision where §9.2 is silent: as any counter left out of a text, rng= defaults —
    # to the generator of the seed option, or of seed 0 without one
    text = f"{START_ROWS} R 4 1 53216546321 654321654321"
    assert load_game("fibonacci", variant="cards").state_from_text(text).to_text() == \
        f"{text} rng={SplitMix64(0).state:016x}"
    seeded = load_game("fibonacci", variant="cards", seed="77").state_from_text(text)
    assert seeded.to_text() == f"{text} rng={SplitMix64(77).state:016x}"
    assert SplitMix64(77).state != SplitMix64(0).state
