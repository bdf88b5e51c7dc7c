"""Fibonacci card game (registry name ``fibonacci-cards``): every worked example of fibonacci-cards.md §7, position text (§6),
hidden information (§8) and random-playout properties."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from abstracta import IllegalActionError, NotationError, PositionError, Record, TERMINAL, load_game
from abstracta.games.fibonacci_cards import FibonacciCardsGame
from abstracta.games.fibonacci_cards.cards import CARD_STR, CUT, DRAW, PASS, config_table, table_values
from abstracta.testing import check_random_playout, random_playout

GAME = FibonacciCardsGame()


def pos(text: str):
    return GAME.state_from_text(text)


def legal(text: str) -> list[str]:
    return pos(text).legal_action_strings()


# --- §7 worked examples --------------------------------------------------------------------------

def test_example1_source_example():
    assert legal("2c 5d Jh | 7h,Kd,5s,Jc,Qd,3c | 4d | 9h | 0") == [
        "5s/2", "7h>1", "7h>2", "Jc/3", "Kd>1", "Kd>3"]


def test_example2_ace_as_14():
    s = pos("7d 7s 3h | Ah,7c,2d | 4d | 9h | 0")
    assert s.legal_action_strings() == ["Ah>1", "Ah>2"]
    s.apply_action(s.string_to_action("Ah>1"))
    assert table_values(s.config) == (1, 7, 3)
    assert s.to_text().startswith("7d,Ah 7s 3h | 7c,2d | 4d | 9h | 1")


def test_example3_triple_sum():
    assert legal("2d 5s 7h | Ah,6c,4d | 4c | 9h | 0") == ["Ah>1", "Ah>2", "Ah>3"]
    assert legal("Ah 2s 3c | 6c,3d,2h | 4c | 9h | 0") == ["3d>1", "3d>2", "6c>1", "6c>2", "6c>3"]


def test_example4_cut_down_cycle():
    s = pos("Qh Jh 5d | Qc,Qs,Jd,Ks | 4c | 9h | 0")
    assert s.legal_action_strings() == ["Jd/2", "Qc/1", "Qs/1"]
    s.apply_action(s.string_to_action("Qc/1"))
    assert s.to_text().split(" | ")[0] == "Qh,Qc* Jh 5d"
    assert table_values(s.config) == (1, 11, 5)
    assert legal("Qh,Qc* Jh 5d | Qs,Jd,6c,Ks,Ah | 4c | 9h | 0") == ["6c>1", "6c>3", "Jd/2", "Qs>1", "Qs>2"]
    # §3: a covered cut card makes the pile ordinary again
    assert legal("Qh,Qc*,Qs Jh 5d | Qd | 4c | 9h | 0") == ["Qd/1"]


def test_example5_no_cut_and_terminal_at_once():
    s = pos("9c 5d 4h | 2c,Qd | 6h | - | 0")
    assert s.is_terminal() and s.current_player() == TERMINAL
    assert s.legal_actions() == []
    assert s.returns() == [-1.0, 1.0]
    draw = pos("9c 5d 4h | 2c | 6h | - | 0")
    assert draw.is_terminal() and draw.returns() == [0.0, 0.0]
    # nothing can be cut on 9 5 4 even with matching ranks
    assert legal("9c 5d 4h | 5s,4c,Qd | 2c | 8h | 0") == ["draw"]


def test_example6_forced_draw():
    s = pos("2c 5d Jh | 4c,6d | Kc | 7s,8c | 0")
    assert s.legal_action_strings() == ["draw"]
    s.apply_action(s.string_to_action("draw"))
    assert s.current_player() == 0
    assert s.legal_action_strings() == ["7s>1", "7s>2"]
    assert s.to_text() == "2c 5d Jh | 4c,6d,7s | Kc | 8c | 0 D"
    t = pos("2c 5d Jh | 4c,6d | Kc | 9h,8c | 0")
    t.apply_action(DRAW)
    assert t.current_player() == 1
    assert t.to_text() == "2c 5d Jh | 4c,6d,9h | Kc | 8c | 1"


def test_after_draw_only_the_drawn_card():
    # 7h is playable but only the drawn 7s may be played in the D state
    s = pos("2c 5d Jh | 4c,6d,7h,7s | Kc | 8c | 0 D")
    assert s.legal_action_strings() == ["7s>1", "7s>2"]


def test_example7_last_card_wins():
    s = pos("2c 5d Jh | 4c,6d | Kc | - | 0")
    assert s.legal_action_strings() == ["pass"]
    s.apply_action(PASS)
    assert s.current_player() == 1
    assert s.legal_action_strings() == ["Kc>1", "Kc>3"]
    s.apply_action(s.string_to_action("Kc>3"))
    assert s.is_terminal() and s.returns() == [-1.0, 1.0]
    assert s.to_text() == "2c 5d Jh,Kc | 4c,6d | - | - | 0"
    back = pos(s.to_text())
    assert back.is_terminal() and back.returns() == [-1.0, 1.0]


def test_example8_seed_1():
    s = GAME.new_initial_state(seed=1)
    assert s.hand(0) == [CARD_STR.index(c) for c in "7d 9c 4d 8h 8d 5s Jd 6d".split()]
    text = s.to_text()
    fields = text.split(" | ")
    assert fields[0] == "7h 4h 2c"
    assert fields[1] == "7d,9c,4d,8h,8d,5s,Jd,6d"
    assert fields[2] == "9s,Jc,5d,Kd,3c,2d,Jh,5h"
    stock = fields[3].split(",")
    assert len(stock) == 33 and stock[:3] == ["Ad", "6s", "Kc"]
    assert s.current_player() == 1 and fields[4] == "1"
    assert s.legal_action_strings() == ["9s>1", "9s>3", "Jc>1", "Jc>2", "Jh>1", "Jh>2", "Kd>1", "Kd>2", "Kd>3"]
    s0 = FibonacciCardsGame(first_player=0).new_initial_state(seed=1)
    assert s0.current_player() == 0
    assert s0.legal_action_strings() == ["6d>2", "6d>3", "9c>1", "9c>3", "Jd>1", "Jd>2"]
    assert s0.to_text().split(" | ")[:4] == fields[:4]
    assert load_game("fibonacci-cards", seed=1).new_initial_state().to_text() == text


def test_example8_seed_2024():
    s = GAME.new_initial_state(seed=2024)
    fields = s.to_text().split(" | ")
    assert fields[0] == "Kd 8c 6s"
    assert fields[1] == "Ac,7d,5s,Jd,Qh,Ks,7h,6d"
    assert fields[2] == "Ts,3d,7c,3h,Th,9s,8d,Jc"
    assert fields[3].split(",")[:3] == ["4s", "6h", "3c"]
    assert s.current_player() == 1

@pytest.mark.parametrize("seed, leader", [(0, 0), (1, 1), (2, 1), (3, 1), (4, 0), (5, 0)])
def test_deal_and_leader_follow_the_shared_generator(seed, leader):
    # §8: deck Ac…Kc, Ad…, Ah…, As…Ks; SplitMix64(seed).shuffle; hands deck[0..7], deck[8..15],
    # piles deck[16..18], stock deck[19..] top first; then below(2) picks the leader
    from abstracta import SplitMix64
    deck = [rank + suit for suit in "cdhs" for rank in "A23456789TJQK"]
    rng = SplitMix64(seed)
    rng.shuffle(deck)
    assert rng.below(2) == leader
    expected = (f"{' '.join(deck[16:19])} | {','.join(deck[:8])} | {','.join(deck[8:16])} | "
                f"{','.join(deck[19:])} | {leader}")
    assert GAME.new_initial_state(seed=seed).to_text() == expected
    assert FibonacciCardsGame(first_player=1 - leader).new_initial_state(seed=seed).current_player() == 1 - leader


def test_section6_example_round_trip():
    text = "7h 4h 2c | 7d,9c,4d,8h,8d,5s,Jd,6d | 9s,Jc,5d,Kd,3c,2d,Jh,5h | Ad,6s,Kc | 0"
    assert pos(text).to_text() == text
    assert pos(text).legal_action_strings() == ["6d>2", "6d>3", "9c>1", "9c>3", "Jd>1", "Jd>2"]


# --- rules details -------------------------------------------------------------------------------

def test_ace_on_table_never_cut_and_ace_in_hand():
    # ace on the table counts 1 (1 + 13 = 14: never a cut); ace in hand counts 14
    assert legal("Ah Kd 2c | As | 4c | 9h | 0") == ["As>1", "As>2"]
    assert legal("Ah 9d 2c | As | 4c | 9h | 0") == ["draw"]
    assert legal("Ah Kd 2c | 3s | 4c | 9h | 0") == ["3s>1", "3s>3"]


def test_cut_pile_cannot_be_cut_again():
    # pile 1 top is crosswise Qc (value 1): a queen can only go there as a sum (1 + 11)
    assert legal("Qh,Qc* Jh 5d | Qs | 4c | 9h | 0") == ["Qs>1", "Qs>2"]
    assert legal("Qh,Qc* Kh 5d | Qs | 4c | 9h | 0") == ["draw"]


def test_pair_sum_only_for_cut():
    # 6 + 5 + 4 = 15 > 14 but no pair exceeds 14: no cut
    assert legal("6c 5d 4h | 6h | 4c | 9h | 0") == ["draw"]


def test_canonical_order_is_ascii_not_rank_or_kind():
    # §3: ASCII order of the strings — digits before letters (9 < A < J < K < Q < T), and a
    # cut-down `/` (0x2F) before a sum `>` (0x3E) of the same card whatever the pile
    assert legal("Ah 9c 3d | Tc,Qd,Kd,4h,9s | 4d | 9h | 0") == [
        "4h>1", "4h>3", "Kd>1", "Kd>2", "Kd>3", "Qd>2", "Qd>3", "Tc>1", "Tc>2"]
    assert legal("6c Kh 7d | Kd,Tc,Ah | 4d | 9h | 0") == ["Kd/2", "Kd>1", "Kd>3"]


def test_a_placement_reached_by_two_pair_sums_is_listed_once():
    # 7 = 2 + 5 on piles (1, 2) and on (1, 3): pile 1 is one play, not two
    assert legal("2c 5d 5h | 7s | 4d | 9h | 0") == ["7s>1", "7s>2", "7s>3"]


def test_drawn_card_stays_when_stock_runs_out_and_game_ends():
    s = pos("9c 5d 4h | 2c | 3h | 6h | 0")
    s.apply_action(DRAW)  # 6h unplayable: stock now empty, nobody can play
    assert s.is_terminal() and s.returns() == [-1.0, 1.0]
    assert s.to_text() == "9c 5d 4h | 2c,6h | 3h | - | 1"


def test_position_errors():
    bad = [
        "",
        "7h 4h | 7d | 9s | - | 0",
        "7h 4h 2c | 7d | 9s | - | 2",
        "7h 4h 2c | 7d | 9s | - | 0 X",
        "7h 4h 2c | 7d | 7d | - | 0",
        "7h 4h 2c | 1d | 9s | - | 0",
        "7h 4h 2c | 7d | 9s | ?3 | 0",
        "7h 4h 2c | - | - | - | 0",
        "7h 4h 2c | 7d,3s | 9s | - | 0 D",  # 3s is not playable on 7 4 2
        "7h 4h 2c | - | 9s | Ad | 0 D",
    ]
    for text in bad:
        with pytest.raises(PositionError):
            GAME.state_from_text(text)


def test_empty_hand_in_text_has_won():
    s = pos("7h 4h 2c | - | 9s | Ad | 0")
    assert s.is_terminal() and s.returns() == [1.0, -1.0]
    assert s.to_text() == "7h 4h 2c | - | 9s | Ad | 0"


def test_notation_errors_and_illegal_actions():
    s = pos("2c 5d Jh | 7h,Kd,5s,Jc,Qd,3c | 4d | 9h | 0")
    before = s.to_text()
    for text in ("7h>4", "7x>1", "7h-1", ""):
        with pytest.raises(NotationError):
            s.string_to_action(text)
    for text in ("Qd>1", "draw", "Draw", "pass", "7h>3", "4d>1"):
        with pytest.raises(IllegalActionError) as info:
            s.string_to_action(text)
        assert not isinstance(info.value, NotationError)
        assert text in str(info.value)
    for action in (-1, 314, DRAW, PASS, 3.0, "7h>1", True, None):
        with pytest.raises(IllegalActionError):
            s.apply_action(action)  # type: ignore[arg-type]
    assert s.to_text() == before and s.history() == []


def test_options():
    assert GAME.num_distinct_actions == 314
    assert FibonacciCardsGame(first_player="1").new_initial_state(seed=1).current_player() == 1
    with pytest.raises(Exception):
        FibonacciCardsGame(first_player=2)
    s = GAME.new_initial_state(seed=7)
    assert s.seed == 7


def test_undo_restores_everything():
    game = GAME
    state = game.new_initial_state(seed=11)
    rng = random.Random(3)
    snapshots = []
    while not state.is_terminal():
        snapshots.append((state.to_text(), state.current_player(), list(state.legal_actions()),
                          state.information_state_string(0), state.information_state_string(1)))
        acts = state.legal_actions()
        state.apply_action(acts[rng.randrange(len(acts))])
    while snapshots:
        state.undo_action()
        snap = snapshots.pop()
        assert (state.to_text(), state.current_player(), list(state.legal_actions()),
                state.information_state_string(0), state.information_state_string(1)) == snap
    assert state.history() == []


# --- hidden information (§8) ---------------------------------------------------------------------

def _all_cards(state) -> list[int]:
    cards = [c & ~CUT for pile in state.piles for c in pile]
    cards += state.hand(0) + state.hand(1) + list(state._stock)
    return cards


def test_observation_hides_opponent_and_stock():
    s = GAME.new_initial_state(seed=1)
    assert s.observation(0) == "7h 4h 2c | 7d,9c,4d,8h,8d,5s,Jd,6d | ?8 | ?33 | 1"
    assert s.observation(1) == "7h 4h 2c | ?8 | 9s,Jc,5d,Kd,3c,2d,Jh,5h | ?33 | 1"


def _swap_hidden(state, player: int, rng: random.Random):
    """A copy of ``state`` whose opponent hand / stock differ only by hidden cards."""
    other = state.clone()
    opp = 1 - player
    pool = other._hands[opp] + other._stock
    rng.shuffle(pool)
    n = len(other._hands[opp])
    other._hands[opp] = pool[:n]
    other._stock = pool[n:]
    other._hmask[opp] = sum(1 << c for c in pool[:n])
    other._legal = None
    return other


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_no_leak_property(seed):
    rng = random.Random(seed)
    game = GAME
    _, final, actions = random_playout(game, seed)
    state = game.new_initial_state(seed=seed)
    for i, action in enumerate(actions):
        if i % 5 == 0:
            for player in (0, 1):
                twin = _swap_hidden(state, player, rng)
                assert twin.observation(player) == state.observation(player)
                assert twin.information_state_string(player) == state.information_state_string(player)
                # the hidden cards themselves (opponent's hand, stock) never show up
                info = state.information_state_string(player)
                for card in state.hand(1 - player) + list(state._stock):
                    assert CARD_STR[card] not in info
        state.apply_action(action)


def test_info_state_shows_own_draws_only():
    s = pos("2c 5d Jh | 4c,6d | 3h | 9h,8c,Kd | 0")
    s.apply_action(DRAW)  # 9h stays in seat 0's hand
    assert "9h" in s.information_state_string(0)
    assert "9h" not in s.information_state_string(1)
    assert "9h" not in s.observation(1)


def test_resample_without_a_generator_draws_its_own():
    # as Fibonacci's card variant (and the interop layer's default): None is a fresh generator
    state = GAME.new_initial_state(seed=3)
    sample = state.resample_from_infostate(0, None)
    assert sample.hand(0) == state.hand(0)
    assert sorted(_all_cards(sample)) == list(range(52))
    assert sample.information_state_string(0) == state.information_state_string(0)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32))
def test_resample_keeps_the_view(seed):
    rng = random.Random(seed)
    _, _, actions = random_playout(GAME, seed)
    state = GAME.new_initial_state(seed=seed)
    for i, action in enumerate(actions + [None]):
        if i % 4 == 0:
            for player in (0, 1):
                sample = state.resample_from_infostate(player, rng)
                assert sample.observation(player) == state.observation(player)
                assert sample.information_state_string(player) == state.information_state_string(player)
                assert sample.hand(player) == state.hand(player)
                assert sorted(_all_cards(sample)) == list(range(52))
                assert sample.is_terminal() == state.is_terminal()
                assert sample.current_player() == state.current_player()
                # the sample plays on to the end
                random_playout(GAME, seed, start=sample)
        if action is not None:
            state.apply_action(action)


# --- playout properties ---------------------------------------------------------------------------

@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32))
def test_random_playout_invariants(seed):
    final = check_random_playout(GAME, seed, order_key=str, check_every=2)
    assert final.is_terminal()
    r = final.returns()
    assert r in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([None, 0, 1]))
def test_cards_accounted_and_game_ends(seed, first):
    game = FibonacciCardsGame(first_player=first)

    def every(state):
        assert sorted(_all_cards(state)) == list(range(52))
        assert len(state.hand(0)) + len(state.hand(1)) + state.stock_size + sum(map(len, state.piles)) == 52

    initial, final, actions = random_playout(game, seed, every=every)
    assert final.is_terminal() and len(actions) < 500
    # records replay bit for bit from the seed
    record = Record.from_play(game, initial, actions)
    replayed, replayed_actions = Record.from_json(record.to_json()).replay()
    assert replayed_actions == actions and replayed.to_text() == final.to_text()
    assert replayed.returns() == final.returns()


# --- perft, render, evaluate ----------------------------------------------------------------------

def test_perft_undo_matches_clone():
    from abstracta.core.perft import _perft_clone, _perft_undo, perft
    for seed in (1, 2024):
        s = GAME.new_initial_state(seed=seed)
        before = s.to_text()
        if seed == 1:
            assert [perft(s, d) for d in (1, 2, 3, 4)] == [9, 34, 118, 407]
        for depth in (3, 5):
            assert _perft_undo(s, depth) == _perft_clone(s, depth)
        assert s.to_text() == before and s.history() == []


def test_render_hides_the_opponent_hand():
    from rich.text import Text
    s = GAME.new_initial_state(seed=1)
    mine = GAME.render(s, 0)
    assert isinstance(mine, Text)
    plain = mine.plain
    assert "7d 9c 4d" in plain and "9s" not in plain and "8 cards (hidden)" in plain
    assert "stock: 33" in plain and "Player 2 to move" in plain
    both = GAME.render(s).plain
    assert "7d 9c 4d" in both and "9s Jc 5d" in both
    cut = GAME.render(pos("Qh,Qc* Jh 5d | Qs,Jd | 4c | 7s | 0 D"), 0).plain
    assert "cut" in cut and "must play the drawn card" in cut
    done = GAME.render(pos("9c 5d 4h | 2c,Qd | 6h | - | 0")).plain
    assert "Player 2 wins" in done


def test_render_names_the_drawn_card_to_its_holder_only_and_counts_in_words():
    # the drawn card was only bold: a terminal without styles (a pipe, TERM=dumb) could not tell
    # which card "D: must play the drawn card" meant
    drawn = pos("Qh,Qc* Jh 5d | Qs,Jd | 4c | 7s | 0 D")
    mine = GAME.render(drawn, 0).plain
    assert "Player 1 to move, must play the drawn card, Jd" in mine
    theirs = GAME.render(drawn, 1).plain
    assert "Player 1 to move, must play the drawn card" in theirs and "Jd" not in theirs
    # in players' words, as the browser says it: "D:" was the position text's flag
    assert "D:" not in mine and "D:" not in theirs
    assert "Player 2: 1 card (hidden)" in mine and "Player 1: 2 cards (hidden)" in theirs
    assert "Player 2: 4c  (1 card)" in theirs and "stock: 1 card\n" in mine


def test_evaluate_range_and_sign():
    s = GAME.new_initial_state(seed=1)
    for p in (0, 1):
        assert -1 <= GAME.evaluate(s, p) <= 1
    ahead = pos("2c 5d Jh | 7h | 4c,6d,9s,Qd | 8s | 0")
    assert GAME.evaluate(ahead, 0) > 0 > GAME.evaluate(ahead, 1)
    over = pos("9c 5d 4h | 2c,Qd | 6h | - | 0")
    assert GAME.evaluate(over, 1) == 1.0 and GAME.evaluate(over, 0) == -1.0


# --- determinizations that use what the opponent showed (issue 17) -------------------------------

def test_a_draw_shows_the_hand_did_not_fit():
    # seat 1 (3h, Qd) cannot play on 2c 5d Jh: he draws 9h, which does not fit either
    s = pos("2c 5d Jh | 7h,Kd | 3h,Qd | 9h,8c,Kc,Ks | 1")
    s.apply_action(DRAW)
    fits = config_table(s._cfg).playable
    assert s._opponent_constraints(1) == [fits, fits, fits]
    rng = random.Random(0)
    for _ in range(40):
        sample = s.resample_from_infostate(0, rng, infer=True)
        assert not _mask_of(sample.hand(1)) & fits  # no card that fitted then
        assert sample.hand(0) == s.hand(0) and len(sample.hand(1)) == 3
    # the default deal ignores it: a sample soon gives him a card that fitted (7s, 7c, Kh …)
    blind = [s.resample_from_infostate(0, rng) for _ in range(40)]
    assert any(_mask_of(b.hand(1)) & fits for b in blind)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32))
def test_the_true_hand_always_satisfies_the_inference(seed):
    _, _, actions = random_playout(GAME, seed)
    state = GAME.new_initial_state(seed=seed)
    for action in actions:
        for opp in (0, 1):
            forbidden = state._opponent_constraints(opp)
            assert forbidden is not None and len(forbidden) == len(state.hand(opp))
            assert _matches(state.hand(opp), forbidden)
        state.apply_action(action)


def _matches(cards, masks) -> bool:
    """Each card to its own mask that allows it (bipartite matching, augmenting paths)."""
    owner: dict[int, int] = {}

    def place(i, tried):
        for j, m in enumerate(masks):
            if not m >> cards[i] & 1 and j not in tried:
                tried.add(j)
                if j not in owner or place(owner[j], tried):
                    owner[j] = i
                    return True
        return False

    return len(cards) == len(masks) and all(place(i, set()) for i in range(len(cards)))


def _play(state, *moves):
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def test_the_inference_does_not_read_where_in_his_hand_a_card_was():
    # the same public history in two worlds: seat 1 plays 8c, dealt in one, drawn second in the
    # other; seat 0 cannot tell them apart, so his inference must be the same (it read the hand
    # index of the played card, which no player sees)
    moves = ("draw", "7h>1", "draw", "Jc/3", "8c>1")
    drawn = _play(pos("2c 5d Jh | 7h,Jc,Kd,Kc | 3h,4c | 6c,8c,2s | 1"), *moves)
    dealt = _play(pos("2c 5d Jh | 7h,Jc,Kd,Kc | 3h,8c | 6c,4c,2s | 1"), *moves)
    assert drawn.information_state_string(0) == dealt.information_state_string(0)
    f0 = config_table(pos("2c 5d Jh | Kd | 3h | 2s | 1")._cfg).playable
    f1 = config_table(pos("7h 5d Jh | Kd | 3h | 2s | 1")._cfg).playable
    # the two cards held since the first draw avoid what fitted at both draws, the third only
    # what fitted at the second (the played 8c is taken from the oldest cards it may be)
    assert drawn._opponent_constraints(1) == dealt._opponent_constraints(1) == [f0 | f1, f0 | f1, f1]
    assert _matches(drawn.hand(1), [f0 | f1, f0 | f1, f1]) and _matches(dealt.hand(1), [f0 | f1, f0 | f1, f1])


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32))
def test_inferred_deals_keep_what_the_opponent_showed(seed):
    """Every inferred deal, checked against the public history directly: no card seen (own
    hand, piles), the hand and stock sizes and the unseen cards kept, and at each of the
    opponent's draws and passes at most as many of his cards fitted the table as he has drawn
    since (the cards he held then fitted nothing; a drawn card he kept did not fit)."""
    rng = random.Random(seed)
    _, _, actions = random_playout(GAME, seed)
    state = GAME.new_initial_state(seed=seed)
    for action in actions:
        if not state.is_terminal() and state.current_player() >= 0:
            me = state.current_player()
            opp = 1 - me
            sample = state.resample_from_infostate(me, rng, infer=True)
            seen = set(state.hand(me)) | {c & ~CUT for pile in state.piles for c in pile}
            hand = sample.hand(opp)
            assert not seen & set(hand) and not seen & set(sample._stock)
            assert len(hand) == state.hand_size(opp) and sample.stock_size == state.stock_size
            assert set(hand) | set(sample._stock) == set(state.hand(opp)) | set(state._stock)
            assert sample.hand(me) == state.hand(me)
            log = state._log
            for t, (a, who, _, _, cfg) in enumerate(log):
                if who != opp or a not in (DRAW, PASS):
                    continue
                later = sum(1 for a2, w2, d2, _, _ in log[t + 1:] if w2 == opp and a2 == DRAW)
                fitting = sum(1 for c in hand if config_table(cfg).playable >> c & 1)
                assert fitting <= later, (state.to_text(), t)
        state.apply_action(action)


def _mask_of(cards):
    m = 0
    for c in cards:
        m |= 1 << c
    return m


# --- a naive reference for §3–§5, read from the position text ---------------------------------------

_HAND_VALUE = {"A": 14, "T": 10, "J": 11, "Q": 12, "K": 13, **{str(d): d for d in range(2, 10)}}


def _ref_plays(tops: list[str], cards: list[str]) -> list[str]:
    values = [1 if top.endswith("*") or top[0] == "A" else _HAND_VALUE[top[0]] for top in tops]
    out = set()
    for card in cards:
        v = _HAND_VALUE[card[0]]
        for i in range(3):
            for j in range(3):
                if i != j and v == values[i] + values[j]:
                    out.add(f"{card}>{i + 1}")
                if (i != j and tops[i][0] == card[0] and not tops[i].endswith("*")
                        and values[i] + values[j] > 14):
                    out.add(f"{card}/{i + 1}")
            if v == sum(values):
                out.add(f"{card}>{i + 1}")
    return sorted(out)


def _ref_legal(text: str) -> list[str] | None:
    """The legal list by §4, or None for a finished game (§5)."""
    piles, hand0, hand1, stock, mover = (f.strip() for f in text.split("|"))
    tops = [p.split(",")[-1] for p in piles.split()]
    hands = [h.split(",") if h != "-" else [] for h in (hand0, hand1)]
    who, drawn = int(mover.split()[0]), mover.endswith("D")
    if not hands[0] or not hands[1]:
        return None
    if drawn:
        return _ref_plays(tops, hands[who][-1:])
    plays = _ref_plays(tops, hands[who])
    if plays:
        return plays
    if stock != "-":
        return ["draw"]
    return None if not _ref_plays(tops, hands[1 - who]) else ["pass"]


@pytest.mark.parametrize("seed", range(8))
def test_random_playouts_match_a_naive_reference(seed):
    rng = random.Random(seed)
    state = GAME.new_initial_state(seed=seed)
    while True:
        expected = _ref_legal(state.to_text())
        if expected is None:
            assert state.is_terminal(), state.to_text()
            break
        assert state.legal_action_strings() == expected, state.to_text()
        state.apply_action(rng.choice(state.legal_actions()))


def test_an_illegal_play_says_why():
    # "'Qc/1' is not legal here" said nothing of why (§3, §4): a player had to work it out
    def why(text, position):
        with pytest.raises(IllegalActionError) as refused:
            pos(position).string_to_action(text)
        return str(refused.value)

    start = "Kh Kd Jd | Ad,3d,Qc | Kc | 7s,8c | 0"
    assert why("Qc>1", start) == ("'Qc>1' is not legal here: Qc is worth 12, and a sum play needs pile 1 and "
                                  "another pile to add up to it, or all three piles (the piles show 13, 13, 11)")
    assert why("3d/3", start) == ("'3d/3' is not legal here: a cut needs a card of the rank of pile 3's top card "
                                  "(Jd), not cut already, and pile 3 and another pile over 14 together "
                                  "(the piles show 13, 13, 11)")
    assert why("Kc/1", start) == "'Kc/1' is not legal here: Kc is not in your hand"
    assert why("draw", "Qh Kd Jd | Kh | Kc | 7s | 0") == \
        "'draw' is not legal here: you draw only when no card of your hand can be played"
    assert why("pass", "Qh Kd Jd | Kh | Kc | 7s | 0") == "'pass' is not legal here: a card of your hand can be played"
    assert why("pass", "2c 5d Jh | 4c,6d | Kc | 7s,8c | 0") == \
        "'pass' is not legal here: you pass only when the stock is empty; draw"
    assert why("draw", "2c 5d Jh | 4c,6d | Kc | - | 0") == "'draw' is not legal here: the stock is empty; pass"
    drawn = "2c 5d Jh | 4c,6d,7h,7s | Kc | 8c | 0 D"
    assert why("7h>1", drawn) == "'7h>1' is not legal here: only the card you drew, 7s, may be played now"
    assert why("draw", drawn) == "'draw' is not legal here: you have drawn already; play the drawn card, 7s"
