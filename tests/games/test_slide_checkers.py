"""Slide Checkers: the worked examples of slide-checkers.md §7, hand-checked 3/4-player
positions, options, notation and position text."""

from __future__ import annotations

import pytest

from abstracta import IllegalActionError, NotationError, OptionError, PositionError, load_game
from abstracta.core.game import TERMINAL
from abstracta.games.slide_checkers import SlideCheckersGame, board_svg, board_text
from abstracta.games.slide_checkers.geometry import (BOARDS, MAJORS, MINORS, SQUARE_INDEX, colour_classes,
                                                  square_colours)
from abstracta.games.slide_checkers.rules import NUM_ACTIONS, PASS

SPEC_BOARD = """\
12 Y Y R G Y G B G G Y B Y
11 O B O Y O R O G O R O Y
10 t R Y t B R p B B t Y B
 9 q B O G q R O G q B O Y
 8 Y G B G G Y B Y Y Y R G
 7 s B O p O B s G O t O G
 6 R B Y R R R G R B B G B
 5 q R O G q B O Y q B O G
 4 p G R p G G t Y G p R Y
 3 O R O Y O B O Y O R O G
 2 R R G R B B G B R B Y R
 1 z R O p q R s Y q t O Y
   a b c d e f g h i j k l"""


def two() -> SlideCheckersGame:
    return SlideCheckersGame()


def legal(game: SlideCheckersGame, text: str) -> list[str]:
    return game.state_from_text(text).legal_action_strings()


def play(state, *moves: str):
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


# --- §7.1 board ---------------------------------------------------------------------------
def test_default_board_is_the_spec_map():
    assert board_text(1, 1) == SPEC_BOARD
    colours = square_colours(1, 1)
    for name, letter in {"a1": "z", "b1": "R", "e4": "G", "c9": "O", "l12": "Y"}.items():
        assert colours[SQUARE_INDEX[name]] == letter


def test_default_board_classes_sizes_and_representatives():
    classes = colour_classes(1, 1)
    sizes = {letter: len(pairs) for letter, pairs in classes}
    assert sizes == {"R": 24, "O": 24, "Y": 24, "G": 24, "B": 24, "q": 8, "p": 6, "t": 6, "s": 3, "z": 1}
    reps = {letter: pairs[0] for letter, pairs in classes}
    assert reps == {"R": (0, 1), "O": (0, 2), "Y": (0, 7), "G": (1, 3), "B": (1, 5),
                    "z": (0, 0), "p": (0, 3), "q": (0, 4), "s": (0, 6), "t": (0, 9)}
    # no two O squares touch: all on even file and even rank index
    assert all(x % 2 == 0 and y % 2 == 0 for x, y in dict(classes)["O"])


@pytest.mark.parametrize("board", BOARDS)
def test_every_board_has_five_majors_of_24(board):
    classes = colour_classes(*board)
    assert [letter for letter, _ in classes if letter in MAJORS] == list(MAJORS)
    assert [letter for letter, _ in classes if letter in MINORS] == list(MINORS)
    assert all(len(pairs) == 24 for letter, pairs in classes if letter in MAJORS)
    assert sum(len(p) for _, p in classes) == 144
    # classes ordered by their smallest pair, each listed from its smallest pair
    firsts = [pairs[0] for _, pairs in classes]
    assert firsts == sorted(firsts) and all(pairs[0] == min(pairs) for _, pairs in classes)
    a, b = board
    for letter, pairs in classes:  # each class is one cycle of F
        for i, (p, q) in enumerate(pairs):
            assert pairs[(i + 1) % len(pairs)] == (q, (a * q + b * p) % 12)


def test_board_svg_and_render_board():
    game = SlideCheckersGame(board="5,1")
    svg = game.board_svg()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert svg.count("<rect") == 1 + 144 + 10 and ">l12<" in svg and "blue" in svg
    assert board_svg(1, 1) == SlideCheckersGame().board_svg()
    text = game.render_board()
    assert text.plain.splitlines()[0].startswith("12 ")
    assert len(text.plain.splitlines()) == 13


# --- §7.2 placement ------------------------------------------------------------------------
G_SQUARES = "b4 b8 c2 d5 d8 d9 d12 e4 e8 f4 f12 g2 g6 h7 h9 h11 h12 i4 i12 k6 l3 l5 l7 l8".split()
B_AFTER = "b6 b7 b9 b11 c8 e2 e10 f2 f7 g8 g12 h2 h10 i6 i10 j2 j5 j6 j9 k12 l6 l10".split()


def test_first_placement():
    game = two()
    state = game.new_initial_state()
    assert state.to_text() == "- P:7/7 G"
    strings = state.legal_action_strings()
    assert len(strings) == 24
    assert strings == sorted("@" + s for s in G_SQUARES)
    assert strings.index("@d12") < strings.index("@d5")
    play(state, "@e4")
    assert state.to_text() == "Ge4 P:6/7 B"
    strings = state.legal_action_strings()
    assert len(strings) == 22 and strings == sorted("@" + s for s in B_AFTER)
    assert "@f3" not in strings and "@f5" not in strings
    assert game.state_from_text("- P:7/7 G").legal_action_strings() == sorted("@" + s for s in G_SQUARES)


# --- §7.3–7.7 movement -----------------------------------------------------------------------
def test_free_move():
    dests = "c4 c5 c6 d3 d4 d5 d6 e3 e5 e6 f3 f4 f5 g3 g4 g5".split()
    assert legal(two(), "Bl12,Ge4 M G") == ["e4-" + d for d in sorted(dests)]


def test_long_slide():
    dests = "a7 a8 a9 b7 b8 b9 b10 c7 c8 c10 d7 d8 d9 d10 e7 e8 e9 e10 f7 f8 f9".split()
    strings = legal(two(), "Bl1,Gc9 M G")
    assert len(strings) == 21 and strings == ["c9-" + d for d in sorted(dests)]


@pytest.mark.parametrize("move", ["c9>d8*f8e", "c9>d8*f8r", "c9>d9*f7e", "c9>d9*f7r"])
def test_slide_then_jump_and_win(move):
    game = two()
    state = game.state_from_text("Be8,Gc9 M G")
    assert state.legal_action_strings() == ["c9>d8*f8e", "c9>d8*f8r", "c9>d9*f7e", "c9>d9*f7r"]
    play(state, move)
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.returns() == [1.0, -1.0]
    assert state.legal_actions() == []
    assert game.state_from_text(state.to_text()).is_terminal()


def test_continuation():
    game = two()
    state = game.state_from_text("Bg4,Bi4,Bl12,Ge4 M G")
    assert state.legal_action_strings() == ["e4>f4*h4e", "e4>f4*h4r"]
    play(state, "e4>f4*h4r")
    assert state.current_player() == 0
    assert state.to_text() == "Bi4,Bl12,Gh4 M G J:h4"
    assert state.legal_action_strings() == ["*j4e", "*j4r"]
    play(state, "*j4r")
    assert state.to_text() == "Bl12,Gj4 M B"
    assert state.current_player() == 1
    other = game.state_from_text("Bg4,Bi4,Bl12,Ge4 M G")
    play(other, "e4>f4*h4e")
    assert other.to_text() == "Bi4,Bl12,Gg4,Gh4 M G J:h4"
    assert other.legal_action_strings() == ["*j4e", "*j4r"]
    # a reread mid-jump state continues the same way
    assert game.state_from_text(other.to_text()).legal_action_strings() == ["*j4e", "*j4r"]


def test_no_jump_available():
    strings = legal(two(), "Bl1,Bl3,Ga12,Ge4 M G")
    assert len(strings) == 19
    assert [s for s in strings if s.startswith("a12")] == ["a12-a11", "a12-b11", "a12-b12"]


def test_direct_and_launched_jumps_in_ascii_order():
    # §4.3: launch omitted when it is S; ASCII puts `*` (0x2A) before `>` (0x3E). e4 jumps f5
    # directly (to g6), or launches from the transit square f4 over f5 (to f6) or over g4 (to h4)
    assert legal(two(), "Bf5,Bg4,Bl12,Ge4 M G") == [
        "e4*g6e", "e4*g6r", "e4>f4*f6e", "e4>f4*f6r", "e4>f4*h4e", "e4>f4*h4r"]


def test_no_jump_launched_from_a_non_friendly_square():
    # §4.3: e5 (class q) is reachable by a free move and e5 → e6 → e7 would be a jump, but a
    # jump may be launched only from S or a transit square; from d5 (transit) over e6 the
    # landing f7 is occupied. So no jump exists and the free moves stay legal.
    assert legal(two(), "Be6,Bf7,Ge4 M G") == ["e4-" + d for d in
                                                "c4 c5 c6 d3 d4 d5 d6 e3 e5 f3 f4 f5 g3 g4 g5".split()]


# --- 3 and 4 players (hand-checked) ----------------------------------------------------------
def test_three_players_capture_only_for_mover_and_elimination_skips_seat():
    game = SlideCheckersGame(players=3)
    assert game.colours == "GBR" and game.num_players == 3
    # B on l1 could jump R on l2 (landing l3 empty) but G moves: G is not forced.
    state = game.state_from_text("Bl1,Ga12,Rl2 M G")
    assert state.legal_action_strings() == ["a12-a11", "a12-b11", "a12-b12"]
    play(state, "a12-a11")
    assert state.current_player() == 1 and state.to_text() == "Bl1,Ga11,Rl2 M B nj=1"
    assert state.legal_action_strings() == ["l1*l3e", "l1*l3r"]
    play(state, "l1*l3r")
    # R is eliminated: the turn skips seat 2 and returns to G
    assert state.to_text() == "Bl3,Ga11 M G"
    assert state.current_player() == 0 and not state.is_terminal()
    play(state, "a11-a10")
    assert state.current_player() == 1
    play(state, "l3-l4")
    assert state.current_player() == 0


@pytest.mark.parametrize("kind", ["e", "r"])
def test_three_players_chain_wins(kind):
    game = SlideCheckersGame(players=3)
    state = game.state_from_text("Bb2,Ga1,Rd4 M G")
    assert state.legal_action_strings() == ["a1*c3e", "a1*c3r"]
    play(state, "a1*c3r")
    assert state.to_text() == "Gc3,Rd4 M G J:c3"
    assert state.legal_action_strings() == ["*e5e", "*e5r"]
    play(state, "*e5" + kind)
    assert state.is_terminal()
    assert state.returns() == [1.0, -1.0, -1.0]
    assert state.to_text() == ("Gd4,Ge5 M G" if kind == "e" else "Ge5 M G")


def test_four_players_turn_order_and_draw_returns():
    game = SlideCheckersGame(players=4)
    assert game.colours == "GBRY"
    # R (seat 2) has no pieces: eliminated, skipped
    state = game.state_from_text("Bl12,Ga12,Yl1 M G")
    play(state, "a12-a11")
    assert state.current_player() == 1
    play(state, "l12-l11")
    assert state.current_player() == 3
    play(state, "l1-l2")
    assert state.current_player() == 0 and state.to_text() == "Bl11,Ga11,Yl2 M G nj=3"
    drawn = game.state_from_text("Bl12,Ga12,Yl1 M G nj=99")
    play(drawn, "a12-a11")
    assert drawn.is_terminal() and drawn.returns() == [0.0, 0.0, -1.0, 0.0]
    assert drawn.to_text() == "Bl12,Ga11,Yl1 M B nj=100"


def test_four_players_capture_only_for_mover():
    game = SlideCheckersGame(players=4)
    # Y on k1 could jump G on k2; B to move is not forced; then Y must capture
    state = game.state_from_text("Bl12,Gk2,Rf6,Yk1 M B")
    # transit {k12} (a B square): destinations j11 j12 k11 k12 l11
    assert state.legal_action_strings() == ["l12-j11", "l12-j12", "l12-k11", "l12-k12", "l12-l11"]
    play(state, "l12-l11")
    assert state.current_player() == 2  # R, then Y
    assert not any("*" in s for s in state.legal_action_strings())
    play(state, "f6-f5")
    # from k1 over k2 to k3, or launched from the transit square l1 (Y) over k2 to j3
    assert state.legal_action_strings() == ["k1*k3e", "k1*k3r", "k1>l1*j3e", "k1>l1*j3r"]
    play(state, "k1*k3r")
    # G eliminated; the next seat after Y is B (seat 1)
    assert state.current_player() == 1 and state.to_text() == "Bl11,Rf5,Yk3 M B"


def test_blocked_player_passes_and_full_round_of_passes_draws():
    game = two()
    state = game.state_from_text("Ba2,Ba3,Bb1,Bb2,Bc1,Bc3,Ga1 M G")
    assert state.legal_action_strings() == ["pass"]
    play(state, "pass")
    assert state.to_text() == "Ba2,Ba3,Bb1,Bb2,Bc1,Bc3,Ga1 M B nj=1 passes=1"
    assert not state.is_terminal()
    drawn = game.state_from_text("Ba2,Ba3,Bb1,Bb2,Bc1,Bc3,Ga1 M G passes=1")
    play(drawn, "pass")
    assert drawn.is_terminal() and drawn.returns() == [0.0, 0.0]

def test_round_of_passes_counts_survivors_only():
    # §5: "every surviving seat passes consecutively once"; R (seat 2) has no pieces, so G's
    # pass after B's is the full round: a draw, survivors 0, the eliminated seat −1
    game = SlideCheckersGame(players=3)
    state = game.state_from_text("Ba2,Ba3,Bb1,Bb2,Bc1,Bc3,Ga1 M G passes=1")
    play(state, "pass")
    assert state.is_terminal() and state.returns() == [0.0, 0.0, -1.0]
    state = game.state_from_text("Ba2,Ba3,Bb1,Bb2,Bc1,Bc3,Ga1 M G")
    play(state, "pass")
    assert not state.is_terminal() and state.to_text().endswith(" passes=1")


def test_placement_forfeit_and_movement_start():
    game = two()
    # every G square is taken or next to B except e4 region... build a position where B cannot place
    state = game.state_from_text("Gb4 P:0/1 B")
    assert state.current_player() == 1
    play(state, "@l10")
    assert state.phase == "movement" and state.current_player() == 0
    assert state.to_text() == "Bl10,Gb4 M G"


def test_seat_without_placement_square_forfeits_and_is_skipped():
    # 4 players, O last: pieces on b2 b6 b10 f2 f6 f10 j2 j6 j10 touch every (even, even)
    # square, hence every O square (§2.2): O cannot place, forfeits its 4 pieces, and the turn
    # goes on to G; once placement ends O is eliminated and skipped.
    game = SlideCheckersGame(players=4, colours="GBRO")
    text = "Bf2,Bf6,Bf10,Gb2,Gb6,Gb10,Rj2,Rj6,Rj10 P:1/1/1/4 O"
    state = game.state_from_text(text)
    assert state.to_place == (1, 1, 1, 0)
    assert state.current_player() == 0
    assert state.to_text() == "Bf2,Bf6,Bf10,Gb2,Gb6,Gb10,Rj2,Rj6,Rj10 P:1/1/1/0 G"
    play(state, state.legal_action_strings()[0])
    play(state, state.legal_action_strings()[0])
    play(state, state.legal_action_strings()[0])
    assert state.phase == "movement" and state.current_player() == 0
    while not state.is_terminal():
        assert state.current_player() != 3
        play(state, state.legal_action_strings()[-1])
    assert state.returns()[3] == -1.0


# --- options, notation, text ----------------------------------------------------------------------
def test_options():
    game = load_game("slide-checkers", players="3", board="5,1", colours="rgb")
    assert game.num_players == 3 and game.board == (5, 1) and game.colours == "RGB"
    assert game.option_text() == {"players": "3", "board": "5,1", "colours": "RGB"}
    assert SlideCheckersGame(board=[7, 1]).board == (7, 1)
    assert SlideCheckersGame(players=4).colours == "GBRY"
    with pytest.raises(OptionError, match="board"):
        SlideCheckersGame(board="2,1")
    with pytest.raises(OptionError, match="distinct"):
        SlideCheckersGame(colours="GG")
    with pytest.raises(OptionError, match="major"):
        SlideCheckersGame(colours="Gz")
    with pytest.raises(OptionError, match="3 players"):
        SlideCheckersGame(players=3, colours="GB")
    with pytest.raises(OptionError):
        SlideCheckersGame(players=5)
    assert SlideCheckersGame().num_distinct_actions == NUM_ACTIONS


def test_colours_option_changes_friendly_squares():
    game = SlideCheckersGame(colours="BG")
    state = game.new_initial_state()
    assert state.to_text() == "- P:7/7 B"
    assert len(state.legal_actions()) == 24
    assert "@b6" in state.legal_action_strings()


def test_notation_errors_and_illegal_actions():
    game = two()
    state = game.state_from_text("Bl12,Ge4 M G")
    before = state.to_text()
    for bad in ["", "e4", "e4-z9", "@m1", "*j4x", "e4*g6", "hello"]:
        with pytest.raises(NotationError):
            state.string_to_action(bad)
    for illegal in ["e4-h7", "@a1", "pass", "*j4e", "e4*g6r", "l12-l11"]:
        with pytest.raises(IllegalActionError):
            state.string_to_action(illegal)
    for bad_action in [-1, NUM_ACTIONS, PASS, "e4-c4", 3.0, True, None]:
        with pytest.raises(IllegalActionError):
            state.apply_action(bad_action)  # type: ignore[arg-type]
    assert state.to_text() == before


@pytest.mark.parametrize("text", [
    "", "Ge4 M", "Xe4,Bl12 M G", "Ge4,Bz9 M G", "Ge4,Be4 M G", "Ge4,Bl12 Q G", "Ge4,Bl12 M R",
    "Ge4,Bl12 P:7 G", "Ge4,Bl12 M G J:e5", "Ge4,Bl12 M G J:e4", "Ge4,Bl12 M G nj=x",
    "Ge4 P:7/7 G", "- P:0/7 G", "- M G", "Ge4,Bl12 M G foo", "Ge4,Bl12 P:6/6 G nj=3",
])
def test_bad_positions(text):
    with pytest.raises(PositionError):
        two().state_from_text(text)


def test_position_text_round_trip_and_sorting():
    game = two()
    text = "Bl3,Bl12,Gc9,Ge4 M B nj=7 passes=1"
    state = game.state_from_text(text)
    assert state.to_text() == text
    # unsorted input is written sorted (colour, file, rank as a number)
    assert game.state_from_text("Ge4,Bl12,Gc9,Bl3 M B").to_text() == "Bl3,Bl12,Gc9,Ge4 M B"
    # a text in which one colour is left is terminal, the winner +1
    won = game.state_from_text("Gl1 M G")
    assert won.is_terminal() and won.returns() == [1.0, -1.0]
    assert game.state_from_text("Bl1,Gc9 M G nj=100").is_terminal()


def test_undo_restores_everything():
    game = SlideCheckersGame(players=3)
    state = game.state_from_text("Bb2,Ga1,Rd4 M G")
    snapshots = []
    for move in ["a1*c3e", "*e5r"]:
        snapshots.append((state.to_text(), state.hash_key(), state.legal_action_strings()))
        play(state, move)
    for snap in reversed(snapshots):
        state.undo_action()
        assert (state.to_text(), state.hash_key(), state.legal_action_strings()) == snap
    assert state.history() == []


def test_render_names_every_empty_squares_colour_in_plain_text():
    # the colours decide where a piece slides: without colour (NO_COLOR, a dumb terminal, a pipe)
    # the board must still say them, as `abstracta board` does with its class letters
    game = two()
    state = game.state_from_text("Bg4,Bi4,Bl12,Ge4 M G")
    lines = game.render(state).plain.splitlines()
    colours = square_colours(*game.board)
    pieces = {"g4": "(B)", "i4": "(B)", "l12": "(B)", "e4": "(G)"}
    for y in range(12):
        line = lines[11 - y]
        assert line[:3] == f"{y + 1:>2} "
        for x in range(12):
            name = "abcdefghijkl"[x] + str(y + 1)
            assert line[3 + 3 * x: 6 + 3 * x] == pieces.get(name, f" {colours[x * 12 + y]} "), name


def test_render_and_evaluate():
    game = two()
    state = game.state_from_text("Bg4,Bi4,Bl12,Ge4 M G")
    text = game.render(state)
    plain = text.plain
    assert "(G)" in plain and "(B)" in plain and "Green to move" in plain and "movement" in plain
    placing = game.render(game.new_initial_state()).plain
    assert "to place G:7  B:7" in placing
    for player in (0, 1):
        assert -1.0 <= game.evaluate(state, player) <= 1.0
    assert game.evaluate(state, 0) == pytest.approx(-game.evaluate(state, 1))
    # G can jump g4 (launched from f4); B could jump e4 from its transit square f3 (B) to d5
    assert state.jump_targets(0) == 1 << SQUARE_INDEX["g4"]
    assert state.jump_targets(1) == 1 << SQUARE_INDEX["e4"]
    # a capture on one's own turn is worth more than a piece of material: G up 1, B to capture
    ahead = game.state_from_text("Bg4,Ge4,Gf3,Ga12 M B")
    assert game.evaluate(ahead, 1) > game.evaluate(game.state_from_text("Bl12,Ge4,Gf3,Ga12 M B"), 1)
    won = game.state_from_text("Gl1 M G")
    assert game.evaluate(won, 0) == 1.0 and game.evaluate(won, 1) == -1.0


def test_a_jump_without_its_ending_letter_names_the_jumps_it_could_be():
    game = load_game("slide-checkers")
    state = game.state_from_text("Be4,Gf5,Gl12 M B")
    with pytest.raises(NotationError) as info:
        state.string_to_action("e4*g6")
    assert str(info.value) == ("'e4*g6' needs its ending letter, r (remove the jumped piece) or e (exchange it "
                               "for one of yours): e4*g6e or e4*g6r")
    state = game.state_from_text("Bb9,Bf2,Bg12,Bj2,Bj5,Bj6,Gc2,Gd8,Gd12,Gf3,Gg2,Gh9,Gl5,Gl7 M G J:g2")
    with pytest.raises(NotationError) as info:
        state.string_to_action("*E2")
    assert str(info.value).startswith("'*E2' needs its ending letter") and str(info.value).endswith(": *e2e or *e2r")
    # a jump that is not legal here keeps the grammar's answer
    with pytest.raises(NotationError, match="a continuation is"):
        state.string_to_action("*j4")


def test_placement_turns_do_not_count_towards_the_hundred_turns_without_a_jump():
    # project decisions where the spec is silent (§5 counts "turns"; placement is not play):
    # the no-jump count starts with the movement phase, and a placement text with nj= is refused
    import random

    game = two()
    state, rng = game.new_initial_state(), random.Random(3)
    while " P:" in state.to_text():
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.history() and len(state.history()) == 14  # 14 placement turns, none counted: no nj=
    assert state.to_text() == "Bb11,Bc8,Be2,Be10,Bi10,Bj9,Bl10,Gd12,Ge4,Gg6,Gh7,Gi4,Gk6,Gl7 M G"
    play(state, "d12-c11")
    assert state.to_text().endswith(" M B nj=1")
    with pytest.raises(PositionError, match="nj= and passes= belong to the movement phase"):
        game.state_from_text("Ge4,Bl12 P:6/6 G nj=3")


def test_an_illegal_action_says_why_in_words_not_in_position_text():
    # a move typed during placement was refused "'b6-c7' is not a legal action in '- P:7/7 G'":
    # the position text, which a player at the prompt or in the browser's move box cannot read
    state = two().new_initial_state()
    for typed, why in (("b6-c7", "the pieces are still being placed (@e4 places one on e4)"),
                       ("c9>d8*f8r", "the pieces are still being placed"),
                       ("@a1", "a piece goes on an empty square of your colour, not next to another seat's piece")):
        with pytest.raises(IllegalActionError) as refused:
            state.string_to_action(typed)
        assert str(refused.value).startswith(f"{typed!r} is not legal here: {why}")
        assert "P:7/7" not in str(refused.value)
    moving = two().state_from_text("Bl12,Ge4 M G")
    with pytest.raises(IllegalActionError) as refused:
        moving.string_to_action("e4-h7")
    assert str(refused.value) == "'e4-h7' is not a legal action here"
