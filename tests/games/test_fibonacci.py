"""Fibonacci: the worked examples V1–V8 of rules/fibonacci.md §8, notation and text details."""

from __future__ import annotations

import pytest

from abstracta import IllegalActionError, NotationError, PositionError, load_game, perft
from abstracta.games.fibonacci import FibonacciGame
from abstracta.games.fibonacci.geometry import BIT_OF_NAME, ROW_CELLS

START = "caaaaa/1a5/8/8S/2s3SSS1/3s3S3/1sss3S2/s8/8/5A1/AAAAAC R 1 1"


def rows_from(pieces: dict[str, str]) -> str:
    """Build the <rows> field from {cell: letter}."""
    board = {BIT_OF_NAME[c]: p for c, p in pieces.items()}
    out = []
    for r in range(11, 0, -1):
        s, run = "", 0
        for b in ROW_CELLS[r]:
            if b in board:
                s += (str(run) if run else "") + board[b]
                run = 0
            else:
                run += 1
        out.append(s + (str(run) if run else ""))
    return "/".join(out)


@pytest.fixture
def game() -> FibonacciGame:
    return load_game("fibonacci")


def test_registry_and_start(game):
    assert isinstance(game, FibonacciGame)
    s = game.new_initial_state()
    assert s.to_text() == START
    assert s.current_player() == 0 and s.left == 1 and s.turn == 1
    assert game.num_distinct_actions == 8373
    assert not game.has_chance and s.seed is None


# --- V1 ---------------------------------------------------------------------------------------
def test_v1_opening(game):
    s = game.new_initial_state()
    legal = s.legal_action_strings()
    assert len(legal) == 133 and legal[-1] == "pass"
    att = {"a6", "b1", "b2", "b3", "b4", "b5", "b7", "c6", "c7"}
    for cell in ("a1", "a2", "a3", "a4", "a5", "b6"):
        assert set(s.destinations(cell)) == att
        assert [m for m in legal if m.startswith(cell + "-")] == [f"{cell}-{d}" for d in s.destinations(cell)]
    sup = {"d7", "d8", "e7", "e9", "f7", "f9", "f10", "g7", "g11", "h8", "h9", "h10", "i11"}
    for cell in ("e8", "f8", "g8", "g9", "g10", "h11"):
        assert set(s.destinations(cell)) == sup
    assert sum(1 for m in legal if m[:2] in ("a1", "a2", "a3", "a4", "a5", "b6")) == 54
    assert len(legal) - 1 - 54 == 78
    with pytest.raises(IllegalActionError):
        s.string_to_action("a1-a2")
    assert "a1-a2" not in legal


def test_v1_canonical_order(game):
    s = game.new_initial_state()
    legal = s.legal_actions()
    assert legal == sorted(legal)
    key = lambda c: (c[0], int(c[1:]))  # noqa: E731
    strings = s.legal_action_strings()[:-1]
    pairs = [tuple(m.split("-")) for m in strings]
    assert pairs == sorted(pairs, key=lambda p: (key(p[0]), key(p[1])))


def test_v1_core_swap_and_green_reply(game):
    s = game.new_initial_state()
    s.apply_action(s.string_to_action("a5-a6"))
    assert s.to_text() == "caaaaa/1a5/8/8S/2s3SSS1/3s3S3/1sss3S2/s8/8/5A1/AAAACA G 2 2"
    assert s.current_player() == 1 and s.left == 2 and s.turn == 2
    s2 = game.new_initial_state()
    s2.apply_action(s2.string_to_action("b6-c7"))
    legal = s2.legal_action_strings()
    assert len(legal) == 133 and legal[-1] == "pass"


def test_v1_perft_shallow(game):
    s = game.new_initial_state()
    assert perft(s, 1) == 133
    assert perft(s, 2) == 17_689
    assert s.to_text() == START


@pytest.mark.slow
def test_v1_perft_depth3(game):
    s = game.new_initial_state()
    assert perft(s, 3) == 2_186_075
    assert s.to_text() == START and s.history() == []


# --- V2 ---------------------------------------------------------------------------------------
V2 = "caaa2/7/8/s8/4aa4/5Ca4/10/9/S7/S4A1/AAAAA1"


def test_v2_reduction(game):
    s = game.state_from_text(f"{V2} G 1 8")
    s.apply_action(s.string_to_action("pass"))
    assert (s.current_player(), s.left, s.turn) == (0, 3, 9)
    assert s.to_text() == f"{V2} R 3 9"
    s.apply_action(s.string_to_action("pass"))
    assert (s.current_player(), s.left, s.turn) == (1, 6, 10)
    t = game.state_from_text(f"{V2} R 3 9")
    assert t.allotment() == 3


# --- V3 ---------------------------------------------------------------------------------------
V3 = "saaaaa/1a5/8/9/4AA4/4AcA4/4A5/4A4/8/7/S4C"


def test_v3_winning_move(game):
    s = game.state_from_text(f"{V3} R 6 9")
    assert set(s.destinations("d5")) == {"c4", "c5", "d4", "d6", "e4", "e6", "e7", "f4", "f6", "f8", "g5",
                                        "g8", "h6", "h7", "h8"}
    winners = []
    for a in s.legal_actions():
        s.apply_action(a)
        if s.is_terminal():
            assert s.returns() == [1.0, -1.0]
            winners.append(a)
        s.undo_action()
    assert [s.action_to_string(a) for a in winners] == ["d5-e6"]
    s.apply_action(s.string_to_action("d5-f6"))
    assert not s.is_terminal()
    assert s.to_text().startswith("saaaaa/1a5/8/9/4AA4/4AAA4/4A5/4c4/")


# --- V4 ---------------------------------------------------------------------------------------
def test_v4_swap_core(game):
    s = game.state_from_text("saaaaa/1a5/8/9/10/5c5/4SSS3/9/8/5A1/AAAAAC R 6 9")
    assert set(s.destinations("e5")) == {"d4", "d5", "d6", "d7", "e4", "e8", "f5", "f6", "f7", "f8"}
    s.apply_action(s.string_to_action("e7-f6"))
    assert s.to_text().split()[0] == "saaaaa/1a5/8/9/10/5S5/4SSc3/9/8/5A1/AAAAAC"


# --- V5 ---------------------------------------------------------------------------------------
def test_v5_edge_core(game):
    board = "cA3s/AA5/8/9/10/11/10/9/aaa5/aaa4/AAAS1C"
    s = game.state_from_text(f"{board} R 6 9")
    assert not s.is_terminal()
    s.apply_action(s.string_to_action("pass"))
    assert (s.current_player(), s.left, s.turn) == (1, 3, 10)
    # also not a win when the enemy has "just moved" into it
    t = game.state_from_text(f"{board} G 3 10")
    assert not t.is_terminal()


# --- V6 ---------------------------------------------------------------------------------------
V6_WIN = "cA3s/AAA4/1AA5/9/10/11/10/9/aaa5/aaa4/3S1C"
V6_SPLIT = "cA3s/AAA4/1A6/A8/10/11/10/9/aaa5/aaa4/3S1C"


def test_v6_cards_win():
    cards = load_game("fibonacci", variant="cards")
    s = cards.state_from_text(f"{V6_WIN} G 3 10 12345 123456 rng=0000000000000007")
    assert s.is_terminal() and s.returns() == [1.0, -1.0]
    assert s.cards_pattern(0) and not s.cards_pattern(1)
    standard = load_game("fibonacci")
    assert not standard.state_from_text(f"{V6_WIN} G 3 10").is_terminal()
    split = cards.state_from_text(f"{V6_SPLIT} G 3 10 12345 123456 rng=0000000000000007")
    assert not split.is_terminal() and not split.cards_pattern(0)


def test_v6_cards_win_by_move():
    cards = load_game("fibonacci", variant="cards")
    s = cards.state_from_text(f"{V6_SPLIT} R 2 9 12345 123456 rng=0000000000000007")
    assert "h3-i6" not in s.legal_action_strings()  # h3 is a lone attacker: single steps only
    s.apply_action(s.string_to_action("h3-i4"))  # joins the group: all six connected
    assert s.is_terminal() and s.returns() == [1.0, -1.0]


def test_cards_win_a_swap_can_complete_the_opponents_pattern():
    # §9.2 "test the mover first, then the opponent": Green's attackers a5 b6 b7 touch Red's
    # corner core a6 (all three of its on-board neighbours) with c7 c8 joined to them, but e9
    # stands apart. Red's d9-e9 swaps it onto d9, joining all six: Green wins on Red's move.
    cards = load_game("fibonacci", variant="cards")
    pieces = {"a6": "C", "a5": "a", "b6": "a", "b7": "a", "c7": "a", "c8": "a", "e9": "a", "d9": "S",
              "k6": "c", "a1": "A", "a2": "A", "a3": "A", "a4": "A", "b1": "A", "b2": "A"}
    s = cards.state_from_text(f"{rows_from(pieces)} R 2 9 12345 123456 rng=0000000000000007")
    assert not s.is_terminal() and not s.cards_pattern(1)
    s.apply_action(s.string_to_action("d9-e9"))
    assert s.cards_pattern(1) and not s.cards_pattern(0)
    assert s.is_terminal() and s.returns() == [-1.0, 1.0]


# --- V7 ---------------------------------------------------------------------------------------
def test_v7_go_first_action():
    go = load_game("fibonacci", variant="go")
    s = go.new_initial_state()
    assert s.to_text() == "6/7/8/9/10/11/10/9/8/7/6 R P0"
    legal = s.legal_action_strings()
    assert len(legal) == 91 and legal[0] == "S@a1" and legal[-1] == "S@k11"
    assert all(m.startswith("S@") for m in legal)


def test_go_placement_phase():
    go = load_game("fibonacci", variant="go")
    s = go.new_initial_state()
    order = []
    cells = [c for pair in zip(["a1", "a2", "a3", "a4", "a5", "a6"], ["k6", "k7", "k8", "k9", "k10", "k11"])
             for c in pair]
    cells += [c for pair in zip(["b1", "b2", "b3", "b4", "b5", "b6"], ["j5", "j6", "j7", "j8", "j9", "j10"])
              for c in pair]
    cells += ["c1", "i4"]
    for k in range(26):
        assert s.current_player() == k % 2
        legal = s.legal_action_strings()
        assert "pass" not in legal and len(legal) == 91 - k
        order.append(legal[0][0])
        s.apply_action(s.string_to_action(f"{legal[0][0]}@{cells[k]}"))
        if k < 25:
            assert s.to_text().endswith(f"P{k + 1}")
            assert go.state_from_text(s.to_text()).to_text() == s.to_text()
    assert "".join(order) == "S" * 12 + "A" * 12 + "CC"
    assert (s.current_player(), s.left, s.turn) == (0, 1, 1)
    red = s.to_text().split()[0]
    assert red.count("S") == red.count("s") == 6 and red.count("C") == red.count("c") == 1
    with pytest.raises(IllegalActionError):
        go.new_initial_state().string_to_action("A@e5")
    assert go.new_initial_state().string_to_action("S@e5") >= 0


def test_go_suicidal_core_placement():
    go = load_game("fibonacci", variant="go")
    ring = {"e4": "a", "e6": "a", "f5": "a", "f6": "a", "d4": "a", "d5": "a",
            "a1": "A", "a2": "A", "a3": "A", "a4": "A", "a5": "A", "b1": "A"}
    s = go.state_from_text(f"{rows_from(ring)} R P24")
    s.apply_action(s.string_to_action("C@e5"))
    assert s.is_terminal() and s.returns() == [-1.0, 1.0]


# --- V8 ---------------------------------------------------------------------------------------
def test_v8_zero_move_turn(game):
    pieces = {"f6": "C", "f7": "a", "g7": "a", "g6": "a", "f5": "a", "k11": "a", "k10": "a",
              "k6": "c", "a1": "A", "a2": "A"}
    rows = rows_from(pieces)
    s = game.state_from_text(f"{rows} G 1 2")
    s.apply_action(s.string_to_action("pass"))
    assert (s.current_player(), s.left, s.turn) == (1, 4, 4)
    s.undo_action()
    assert s.to_text() == f"{rows} G 1 2"
    # a position at Red's t=3 with 0 moves is skipped when read
    assert game.state_from_text(f"{rows} R 0 3").to_text() == f"{rows} G 4 4"


# --- notation, text, errors -------------------------------------------------------------------
def test_notation_errors(game):
    s = game.new_initial_state()
    for bad in ("", "e8", "x1-a1", "a1-a99", "a7-b1", "hello", "S@e5x"):
        with pytest.raises(NotationError):
            s.string_to_action(bad)
    with pytest.raises(IllegalActionError):
        s.string_to_action("S@e5")
    with pytest.raises(IllegalActionError):
        s.string_to_action("e5-e6")
    before = s.to_text()
    for bad in (-1, 8281 + 91 + 1, 1, True, "a1-b1", 1.0):
        with pytest.raises(IllegalActionError):
            s.apply_action(bad)  # type: ignore[arg-type]
    assert s.to_text() == before


@pytest.mark.parametrize("text", [
    "", "caaaaa/1a5 R 1 1", START.replace("R", "X"), START.replace(" 1 1", " 7 1"),
    START.replace(" 1 1", " 1 0"), START.replace("caaaaa", "caaaa"), START.replace("caaaaa", "aaaaaa"),
    START.replace("caaaaa", "cbaaaa"), START + " extra", START.replace(" 1 1", " P0"),
    "caaaaa/aa5/8/8S/2s3SSS1/3s3S3/1sss3S2/s8/8/5A1/AAAAAC R 1 1",
])
def test_bad_positions(game, text):
    with pytest.raises(PositionError):
        game.state_from_text(text)

def test_moves_left_above_base_refused(game):
    # §3/§7: a turn never has more than base(t) = min(t, 6) moves, so `R 6 1` (six moves on
    # Red's first turn) is no reachable position; the cards variant's card value is the bound there
    with pytest.raises(PositionError, match="base"):
        game.state_from_text(START.replace(" 1 1", " 6 1"))
    with pytest.raises(PositionError, match="base"):
        game.state_from_text(START.replace(" R 1 1", " G 3 2"))
    assert game.state_from_text(START.replace(" R 1 1", " G 2 2")).left == 2
    assert game.state_from_text(START.replace(" 1 1", " 6 7")).left == 6
    cards = load_game("fibonacci", variant="cards")
    assert cards.state_from_text(START.replace(" 1 1", " 6 1") + " 12345 123456 rng=0000000000000001").left == 6


def test_repetition_draw(game):
    s = game.state_from_text("caaaaa/1a5/8/8S/2s3SSS1/3s3S3/1sss3S2/s8/8/5A1/AAAAAC R 6 9")
    for _ in range(3):
        s.apply_action(s.string_to_action("pass"))
    assert not s.is_terminal()
    s.apply_action(s.string_to_action("pass"))  # Red's turn start occurs a third time
    assert s.is_terminal() and s.returns() == [0.0, 0.0]
    s.undo_action()
    assert not s.is_terminal()


def test_turn_cap(game):
    s = game.state_from_text("caaaaa/1a5/8/8S/2s3SSS1/3s3S3/1sss3S2/s8/8/5A1/AAAAAC G 6 300")
    s.apply_action(s.string_to_action("pass"))
    assert s.is_terminal() and s.returns() == [0.0, 0.0]
    assert game.state_from_text(s.to_text()).is_terminal()
    assert s.legal_actions() == []


def test_self_surround_loses(game):
    # Red swaps a green attacker onto e6, completing the ring around its own core: Green wins
    pieces = {"f7": "a", "g7": "a", "g6": "a", "f5": "a", "e5": "a", "d5": "a",
              "k6": "c", "e6": "S", "f6": "C", "a1": "A"}
    s = game.state_from_text(f"{rows_from(pieces)} R 1 9")
    assert s.left == 1
    s.apply_action(s.string_to_action("e6-d5"))
    assert s.is_terminal() and s.returns() == [-1.0, 1.0]
    assert s.legal_actions() == []


def test_both_cores_surrounded_mover_wins(game):
    # §5: e6-e7 swaps Red's attacker with Green's: e6 (green) closes the ring round Red's core
    # e5 and e7 (red) the ring round Green's core e8 in one move; the mover wins
    pieces = {"f6": "a", "f5": "a", "e4": "a", "d4": "a", "d5": "a", "e7": "a", "e5": "C",
              "e9": "A", "f9": "A", "f8": "A", "d7": "A", "d8": "A", "e6": "A", "e8": "c"}
    s = game.state_from_text(f"{rows_from(pieces)} R 1 9")
    assert not s.is_terminal() and s.left == 1  # base 6 − 5 green attackers on e5's ring
    s.apply_action(s.string_to_action("e6-e7"))
    assert s.is_terminal() and s.returns() == [1.0, -1.0]


def test_move_count_fixed_for_the_whole_turn(game):
    # §3: Red's core e5 is touched by green attackers f6 and f5 → 6 − 2 = 4 moves at t=9;
    # g7-f6 swaps the f6 attacker away (k drops to 1) but the turn keeps its count
    pieces = {"e5": "C", "f6": "a", "f5": "a", "g7": "S", "k6": "c", "a1": "A"}
    rows = rows_from(pieces)
    s = game.state_from_text(f"{rows} R 4 9")
    s.apply_action(s.string_to_action("g7-f6"))
    assert s.to_text() == f"{rows_from({**pieces, 'f6': 'S', 'g7': 'a'})} R 3 9"
    s.apply_action(s.string_to_action("pass"))  # ends Red's turn
    assert (s.current_player(), s.left, s.turn) == (1, 6, 10)
    s.apply_action(s.string_to_action("pass"))
    assert (s.current_player(), s.left, s.turn) == (0, 5, 11)  # the next turn counts afresh: 6 − 1


def test_repetition_key_includes_base(game):
    # §5: the key is (board, side, base(t)). Passing from the start, Red's board recurs at
    # t = 1, 3, 5 with bases 1, 3, 5 (no draw); the first key seen three times is Green's
    # (board, G, 6) at t = 6, 8, 10
    s = game.new_initial_state()
    for _ in range(8):
        s.apply_action(s.string_to_action("pass"))
    assert not s.is_terminal() and (s.current_player(), s.turn) == (0, 9)
    s.apply_action(s.string_to_action("pass"))
    assert s.is_terminal() and s.returns() == [0.0, 0.0]
    assert s.to_text() == "caaaaa/1a5/8/8S/2s3SSS1/3s3S3/1sss3S2/s8/8/5A1/AAAAAC G 6 10"


def test_cards_variant_has_no_repetition_rule_and_the_turn_cap():
    # §9.2: the same board beginning a turn again and again is no draw; turn 300 ending is
    cards = load_game("fibonacci", variant="cards")
    s = cards.state_from_text("caaaaa/1a5/8/8S/2s3SSS1/3s3S3/1sss3S2/s8/8/5A1/AAAAAC R 2 290 "
                              "123456 123456 rng=0000000000000005")
    for _ in range(10):
        assert not s.is_terminal()
        s.apply_action(s.string_to_action("pass"))
    assert s.turn == 300 and not s.is_terminal()
    s.apply_action(s.string_to_action("pass"))
    assert s.is_terminal() and s.returns() == [0.0, 0.0]


# --- evaluator and rendering ------------------------------------------------------------------
def test_evaluate_range_and_sign(game):
    s = game.new_initial_state()
    assert game.evaluate(s, 0) == pytest.approx(-game.evaluate(s, 1))
    near_win = game.state_from_text(f"{V3} R 6 9")
    assert 0.5 < game.evaluate(near_win, 0) <= 1 and game.evaluate(near_win, 1) < -0.5
    near_win.apply_action(near_win.string_to_action("d5-e6"))
    assert game.evaluate(near_win, 0) == 1.0 and game.evaluate(near_win, 1) == -1.0
    for variant in ("cards", "go"):
        g = load_game("fibonacci", variant=variant)
        st = g.new_initial_state(seed=1)
        assert -1 <= g.evaluate(st, 0) <= 1


def test_render(game):
    from rich.text import Text

    s = game.new_initial_state()
    pic = game.render(s)
    assert isinstance(pic, Text)
    plain = pic.plain
    assert "turn 1" in plain and "1 move left" in plain and "k6" in plain and "a1" in plain
    lines = [ln for ln in plain.splitlines() if ln[:1] in "abcdefghijk" and ln[1:2] == " "]
    assert len(lines) == 11
    cards = load_game("fibonacci", variant="cards")
    c = cards.new_initial_state(seed=9)
    for who in (0, 1, None):
        text = cards.render(c, who).plain
        assert f"revealed card: {c.left}" in text
        pile = "".join(map(str, c.piles[0]))
        assert pile not in text
    go = load_game("fibonacci", variant="go")
    assert "placement 1/26" in go.render(go.new_initial_state()).plain


def test_terminal_texts_round_trip(game):
    s = game.state_from_text(f"{V3} R 6 9")
    s.apply_action(s.string_to_action("d5-e6"))
    assert s.to_text() == "saaaaa/1a5/8/9/4AA4/4AcA4/4AA4/9/8/7/S4C R 5 9"
    back = game.state_from_text(s.to_text())
    assert back.is_terminal() and back.returns() == s.returns()
    go = load_game("fibonacci", variant="go")
    ring = {"e4": "A", "e6": "A", "f5": "A", "f6": "A", "d4": "A", "d5": "A", "a1": "S",
            "a2": "a", "a3": "a", "a4": "a", "a5": "a", "b1": "a", "b2": "a", "k6": "C"}
    g = go.state_from_text(f"{rows_from(ring)} G P25")
    g.apply_action(g.string_to_action("C@e5"))
    assert g.is_terminal() and g.returns() == [1.0, -1.0]
    assert g.to_text().endswith(" R 0 1")
    back = go.state_from_text(g.to_text())
    assert back.is_terminal() and back.returns() == [1.0, -1.0]
    swapped = {k: v.swapcase() for k, v in ring.items() if k != "k6"}
    r = go.state_from_text(f"{rows_from(swapped)} R P24")
    r.apply_action(r.string_to_action("C@e5"))
    assert r.to_text().endswith(" G P25") and r.returns() == [-1.0, 1.0]
    assert go.state_from_text(r.to_text()).returns() == [-1.0, 1.0]
