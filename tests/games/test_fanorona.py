"""Fanorona: the worked examples of fanorona.md §6, position text, notation and errors."""

from __future__ import annotations

import pytest

from abstracta import IllegalActionError, NotationError, OptionError, PositionError, TERMINAL, load_game, perft
from abstracta.games.fanorona import FanoronaGame

TSIVY_START = "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW W"


def play(game: FanoronaGame, text: str | None, moves: list[str] = ()):
    state = game.new_initial_state() if text is None else game.state_from_text(text)
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def rows(state) -> str:
    return state.to_text().split()[0]


def taken(before: str, after: str, game: FanoronaGame) -> list[str]:
    """Points whose stone disappeared without being the moving stone's origin (captured stones)."""
    g = game.geometry
    b_rows, a_rows = before.split()[0].split("/"), after.split()[0].split("/")
    out = []
    for i, (rb, ra) in enumerate(zip(b_rows, a_rows)):
        y = g.height - 1 - i
        for x, (cb, ca) in enumerate(zip(rb, ra)):
            if cb != "." and ca == "." and cb != before.split()[1]:
                out.append(g.names[g.point(x, y)])
    return sorted(out)


@pytest.fixture(scope="module")
def tsivy() -> FanoronaGame:
    return load_game("fanorona")


# --- §2 setup and registry -------------------------------------------------------------------

def test_registry_and_defaults(tsivy):
    assert isinstance(tsivy, FanoronaGame)
    assert tsivy.options == {"size": "tsivy", "vela": False, "first_turn_single_capture": False}
    assert tsivy.num_players == 2
    assert tsivy.num_distinct_actions == 45 * 24 + 1
    assert load_game("fanorona", size="telo").num_distinct_actions == 9 * 24 + 1
    with pytest.raises(OptionError, match="size"):
        load_game("fanorona", size="huge")
    with pytest.raises(OptionError, match="vela"):
        load_game("fanorona", vela="maybe")


@pytest.mark.parametrize("size,text", [
    ("tsivy", TSIVY_START),
    ("dimy", "BBBBB/BBBBB/WB.WB/WWWWW/WWWWW W"),
    ("telo", "BBB/B.W/WWW W"),
])
def test_setup(size, text):
    game = load_game("fanorona", size=size)
    state = game.new_initial_state()
    assert state.to_text() == text
    assert state.current_player() == 0
    assert load_game("fanorona", size=size, first_turn_single_capture=True).new_initial_state().to_text() \
        == text + " first=WB"


# --- §6 worked examples ------------------------------------------------------------------------

def test_example1_opening(tsivy):
    state = tsivy.new_initial_state()
    assert state.legal_action_strings() == ["d2-e3A", "d3-e3A", "d3-e3W", "e2-e3A", "f2-e3A"]
    expected = {"d2-e3A": ["f4", "g5"], "d3-e3A": ["f3"], "d3-e3W": ["c3"], "e2-e3A": ["e4", "e5"],
                "f2-e3A": ["c5", "d4"]}
    for move, stones in expected.items():
        after = play(tsivy, None, [move])
        assert taken(TSIVY_START, after.to_text(), tsivy) == stones, move
        assert after.current_player() == 1  # every opening capture ends the turn
        assert " chain=" not in after.to_text()


@pytest.mark.parametrize("size,values", [
    ("tsivy", [5, 17, 64, 337, 1496]),
    ("dimy", [5, 12, 35, 126, 413]),
    ("telo", [4, 7, 13, 28, 63]),
])
def test_perft(size, values):
    state = load_game("fanorona", size=size).new_initial_state()
    text = state.to_text()
    assert [perft(state, d) for d in range(1, 6)] == values
    assert state.to_text() == text


def test_example2_black_reply(tsivy):
    state = play(tsivy, None, ["d2-e3A"])
    before = "BBBBBB.BB/BBBBB.BBB/BWBWWBWBW/WWW.WWWWW/WWWWWWWWW B"
    assert state.to_text() == before
    assert state.legal_action_strings() == ["c3-d2A", "e5-f4A", "f3-f4W", "g4-g5W", "h4-g5W"]
    expected = {"c3-d2A": ["e1"], "e5-f4A": ["g3", "h2", "i1"], "f3-f4W": ["f1", "f2"],
                "g4-g5W": ["g1", "g2", "g3"], "h4-g5W": ["i3"]}
    for move, stones in expected.items():
        assert taken(before, play(tsivy, before, [move]).to_text(), tsivy) == stones, move
    after = play(tsivy, before, ["e5-f4A"])
    assert after.legal_action_strings() == ["f4-g5W", "end"]
    assert after.current_player() == 1
    assert after.to_text() == "BBBB.B.BB/BBBBBBBBB/BWBWWB.BW/WWW.WWW.W/WWWWWWWW. B chain=f4:SE:e5,f4"
    done = play(tsivy, before, ["c3-d2A"])
    assert done.current_player() == 0
    assert " chain=" not in done.to_text()


EX3 = "...B...../........./..W.BB.../...B...../........B W"


def test_example3_chain_with_choice(tsivy):
    state = play(tsivy, EX3)
    assert state.legal_action_strings() == ["c3-b4W", "c3-d3A"]
    assert taken(EX3, play(tsivy, EX3, ["c3-b4W"]).to_text(), tsivy) == ["d2"]
    after = play(tsivy, EX3, ["c3-d3A"])
    assert taken(EX3, after.to_text(), tsivy) == ["e3", "f3"]
    assert after.to_text() == "...B...../........./...W...../...B...../........B W chain=d3:E:c3,d3"
    assert after.legal_action_strings() == ["d3-d4A", "d3-d4W", "end"]
    mid = after.to_text()
    assert taken(mid, play(tsivy, mid, ["d3-d4A"]).to_text(), tsivy) == ["d5"]
    final = play(tsivy, mid, ["d3-d4W"])
    assert taken(mid, final.to_text(), tsivy) == ["d2"]
    assert final.current_player() == 1
    assert final.to_text() == "...B...../...W...../........./........./........B B"
    assert final.legal_action_strings() == ["d5-c5", "d5-e5", "i1-h1", "i1-h2", "i1-i2"]


EX4 = "........./........./..B....../........./BW..B.... W"


def test_example4_no_two_steps_in_one_direction(tsivy):
    state = play(tsivy, EX4)
    assert state.legal_action_strings() == ["b1-c1W"]
    after = play(tsivy, EX4, ["b1-c1W"])
    assert taken(EX4, after.to_text(), tsivy) == ["a1"]
    assert after.legal_action_strings() == ["c1-c2A", "end"]
    with pytest.raises(IllegalActionError):
        after.string_to_action("c1-d1A")


EX5 = "........./........./...BB..../........./..W.B.... W"


def test_example5_no_return_to_visited_point(tsivy):
    assert play(tsivy, EX5).legal_action_strings() == ["c1-d1A", "c1-d2A"]
    after = play(tsivy, EX5, ["c1-d1A"])
    assert taken(EX5, after.to_text(), tsivy) == ["e1"]
    assert after.legal_action_strings() == ["d1-d2A", "end"]
    mid = after.to_text()
    final = play(tsivy, mid, ["d1-d2A"])
    assert taken(mid, final.to_text(), tsivy) == ["d3"]
    assert final.current_player() == 1  # d2-c1W would revisit c1
    assert final.to_text() == "........./........./....B..../...W...../......... B"


def test_example6_immobile_side_loses(tsivy):
    state = tsivy.state_from_text("........./........./........./WW......./BW....... B")
    assert state.is_terminal()
    assert state.current_player() == TERMINAL
    assert state.legal_actions() == []
    assert state.returns() == [1.0, -1.0]


def test_no_stones_loses(tsivy):
    state = tsivy.state_from_text("........./........./........./W......../......... B")
    assert state.returns() == [1.0, -1.0]
    # capturing the last enemy stone wins
    state = tsivy.state_from_text("........./........./....B..../........./....W.... W")
    state.apply_action(state.string_to_action("e1-e2A"))
    assert state.to_text() == "........./........./........./....W..../......... B"
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


def test_example7_vela():
    game = load_game("fanorona", vela=True)
    state = game.new_initial_state()
    assert state.legal_action_strings() == ["d2-e3A", "d3-e3A", "d3-e3W", "e2-e3A", "f2-e3A"]
    state.apply_action(state.string_to_action("d2-e3A"))
    after = "BBBBBBBBB/BBBBB.BBB/BWBWWBWBW/WWW.WWWWW/WWWWWWWWW B"
    assert state.to_text() == after  # only f4 taken
    assert state.legal_action_strings() == ["c3-d2", "e4-f4", "e5-f4", "f3-f4", "f5-f4", "g4-f4", "g5-f4"]
    plain = load_game("fanorona").state_from_text(after)
    assert plain.legal_action_strings() == ["c3-d2A", "e5-f4A", "f3-f4W", "g5-f4A"]


def test_vela_white_takes_one_stone_and_no_chain():
    game = load_game("fanorona", vela=True)
    # as example 3: normally c3-d3A takes e3 f3 and may continue; in the vela phase only e3, turn over
    text = "...B..BBB/.......BB/..W.BB.../...B...../........B W"
    state = game.state_from_text(text)
    assert state.legal_action_strings() == ["c3-b4W", "c3-d3A"]
    state.apply_action(state.string_to_action("c3-d3A"))
    assert state.to_text() == "...B..BBB/.......BB/...W.B.../...B...../........B B"
    # Black (7 stones) may only make paika moves
    assert all(len(s) == 5 for s in state.legal_action_strings())
    # with 5 black stones normal rules apply: both sides capture, with lines and chains
    normal = game.state_from_text(EX3)
    assert normal.legal_action_strings() == ["c3-b4W", "c3-d3A"]
    normal.apply_action(normal.string_to_action("c3-d3A"))
    assert normal.legal_action_strings() == ["d3-d4A", "d3-d4W", "end"]


def test_vela_phase_ends_when_black_is_down_to_five():
    game = load_game("fanorona", vela=True)
    # Black has exactly 6: still the vela phase, so c3-d3A takes e3 only and the turn ends;
    # with 5 left Black is under normal rules at once and must capture (§7)
    state = game.state_from_text("...B..B../........./..W.BB.../...B...../........B W")
    state.apply_action(state.string_to_action("c3-d3A"))
    assert state.to_text() == "...B..B../........./...W.B.../...B...../........B B"
    assert state.legal_action_strings() == ["d2-d1W", "d5-d4A", "f3-e3A"]
    # and Black's capture is a normal one: f3-e3A would take the line, here the lone d3
    state.apply_action(state.string_to_action("f3-e3A"))
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]


def test_paika_from_a_weak_point_has_no_diagonal(tsivy):
    # §1: diagonals join strong points only; b1 (x+y = 1) is weak, c1 (x+y = 2) strong
    assert play(tsivy, "B......../........./........./........./.W....... W").legal_action_strings() == \
        ["b1-a1", "b1-b2", "b1-c1"]
    assert play(tsivy, "B......../........./........./........./..W...... W").legal_action_strings() == \
        ["c1-b1", "c1-b2", "c1-c2", "c1-d1", "c1-d2"]


@pytest.mark.parametrize("size,opening", [
    ("dimy", {"b2-c3A": ["d4", "e5"], "c2-c3A": ["c4", "c5"], "d2-c3A": ["a5", "b4"], "d3-c3A": ["b3"],
              "d3-c3W": ["e3"]}),
    ("telo", {"a1-b2A": ["c3"], "b1-b2A": ["b3"], "c1-b2A": ["a3"], "c2-b2A": ["a2"]}),
])
def test_example8_small_boards(size, opening):
    game = load_game("fanorona", size=size)
    start = game.new_initial_state()
    assert start.legal_action_strings() == sorted(opening)
    for move, stones in opening.items():
        assert taken(start.to_text(), play(game, None, [move]).to_text(), game) == stones, move


# --- §4 first_turn_single_capture ---------------------------------------------------------------

def test_first_turn_single_capture():
    game = load_game("fanorona", first_turn_single_capture=True)
    state = game.new_initial_state()
    assert state.to_text().endswith(" first=WB")
    state.apply_action(state.string_to_action("d2-e3A"))
    assert state.to_text() == "BBBBBB.BB/BBBBB.BBB/BWBWWBWBW/WWW.WWWWW/WWWWWWWWW B first=B"
    # e5-f4A could continue with f4-g5W (example 2) but Black's first turn ends after one capture
    state.apply_action(state.string_to_action("e5-f4A"))
    assert state.current_player() == 0
    assert state.to_text().endswith(" W")  # no first= once both sides have had a turn
    # the option changes nothing afterwards: a chain continues as usual
    later = game.state_from_text(EX3)
    later.apply_action(later.string_to_action("c3-d3A"))
    assert later.legal_action_strings() == ["d3-d4A", "d3-d4W", "end"]
    # mid-game position whose side still has its first turn
    first = game.state_from_text(EX3 + " first=WB")
    first.apply_action(first.string_to_action("c3-d3A"))
    assert first.to_text() == "...B...../........./...W...../...B...../........B B first=B"


# --- §4 draws -----------------------------------------------------------------------------------

def test_no_progress_draw(tsivy):
    state = tsivy.state_from_text("B......../........./........./........./........W W nc=99")
    assert not state.is_terminal() and state.no_progress == 99
    state.apply_action(state.string_to_action("i1-h1"))
    assert state.to_text() == "B......../........./........./........./.......W. B nc=100"
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    state.undo_action()
    assert state.to_text().endswith("nc=99") and not state.is_terminal()
    # a capture resets the counter
    cap = tsivy.state_from_text("B......../........./....B..../........./....W.... W nc=50")
    cap.apply_action(cap.string_to_action("e1-e2A"))
    assert cap.to_text() == "B......../........./........./....W..../......... B"
    # read from text: nc=100 is already drawn
    assert tsivy.state_from_text("B......../........./........./........./........W W nc=100").returns() == [0, 0]


def test_the_hundredth_quiet_turn_that_leaves_the_opponent_no_action_is_a_win(tsivy):
    # project decision where the spec is silent: immobility (§3.3) outranks the no-progress draw
    # (§4), as a checkmate on the fiftieth move stands in chess. White's b3-b4 is the 100th turn
    # without a capture and walls in Black's only stone (a5 cannot step, nor capture).
    state = tsivy.state_from_text("BWW....../W......../WW......./........./......... W nc=99")
    state.apply_action(state.string_to_action("b3-b4"))
    assert state.to_text() == "BWW....../WW......./W......../........./......... B nc=100"
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    assert state.to_struct(None)["end"]["reason"] == "no-moves"
    # the same position read from text
    assert tsivy.state_from_text(state.to_text()).returns() == [1.0, -1.0]


def test_threefold_repetition(tsivy):
    state = tsivy.state_from_text("B......../........./........./........./........W W")
    cycle = ["i1-h1", "a5-b5", "h1-i1", "b5-a5"]
    for move in cycle:
        state.apply_action(state.string_to_action(move))
    assert state.repetition_count() == 2 and not state.is_terminal()
    for move in cycle[:3]:
        state.apply_action(state.string_to_action(move))
    assert not state.is_terminal()
    state.apply_action(state.string_to_action(cycle[3]))
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    assert state.legal_actions() == []
    state.undo_action()
    assert not state.is_terminal()
    # a position read from text starts its own history
    fresh = tsivy.state_from_text(state.to_text())
    assert fresh.repetition_count() == 1


# --- §5 position text ---------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    TSIVY_START,
    "BBBB.B.BB/BBBBBBBBB/BWBWWB.BW/WWW.WWW.W/WWWWWWWW. B chain=f4:SE:e5,f4",
    "...B...../........./...W...../...B...../........B W chain=d3:E:c3,d3 nc=3",
    "B......../........./........./........./........W W nc=42",
    "........./........./........./WW......./BW....... B",
])
def test_text_round_trip(tsivy, text):
    assert tsivy.state_from_text(text).to_text() == text


def test_text_round_trip_first_suffix():
    game = load_game("fanorona", first_turn_single_capture=True)
    for text in [TSIVY_START + " first=WB", "BBBBBB.BB/BBBBB.BBB/BWBWWBWBW/WWW.WWWWW/WWWWWWWWW B first=B nc=2"]:
        assert game.state_from_text(text).to_text() == text
    # suffixes are accepted in any order, written as chain, first, nc (nc "is appended last", §5)
    assert game.state_from_text(TSIVY_START + " nc=4 first=WB").to_text() == TSIVY_START + " first=WB nc=4"


def test_chain_longer_visited_list(tsivy):
    state = play(tsivy, EX5, ["c1-d1A"])
    text = state.to_text()
    assert text == "........./........./...BB..../........./...W..... W chain=d1:E:c1,d1"
    again = tsivy.state_from_text(text)
    again.apply_action(again.string_to_action("d1-d2A"))
    assert again.current_player() == 1


@pytest.mark.parametrize("text,fragment", [
    ("", "expected '<rows> <side>'"),
    ("BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW W", "expected 5 ranks"),
    ("BBBBBBBBB/BBBBBBBBB/BWBW.BWB/WWWWWWWWW/WWWWWWWWW W", "rank 3"),
    ("BBBBBBBBB/BBBBBBBBB/BWBWxBWBW/WWWWWWWWW/WWWWWWWWW W", "'x' at e3"),
    (TSIVY_START[:-1] + "X", "side to move 'X'"),
    (TSIVY_START + " foo=1", "unknown part 'foo=1'"),
    (TSIVY_START + " nc=-1", "nc=-1"),
    (TSIVY_START + " nc=1 nc=2", "nc= given twice"),
    (TSIVY_START + " first=WB", "first_turn_single_capture"),
    (EX3 + " chain=c3:NW:d2,c3", "d2 is not empty"),
    (EX3 + " chain=d3:E:c3,d3", "does not hold a stone"),
    ("...B...../........./...W...../...B...../........B W chain=d3:N:c3,d3", "goes E, not N"),
    ("...B...../........./...W...../...B...../........B W chain=d3:Q:c3,d3", "'Q' is not a direction"),
    ("...B...../........./...W...../...B...../........B W chain=d3:E:a1,d3", "not a step along a line"),
    ("...B...../........./...W...../...B...../........B W chain=d3:E:d3", "starting point"),
    ("...B...../........./...W...../...B...../........B W chain=z9:E:c3,z9", "'z9' is not a point"),
    ("...B...../........./...W...../...B...../........B W chain=d3:E", "expected <point>"),
    ("........./........./...W...../........./........B W chain=d3:E:c3,d3", "no continuation"),
])
def test_malformed_positions(tsivy, text, fragment):
    with pytest.raises(PositionError, match=None) as info:
        tsivy.state_from_text(text)
    assert fragment in str(info.value)


def test_chain_not_allowed_in_vela_phase_or_first_turn():
    vela = load_game("fanorona", vela=True)
    with pytest.raises(PositionError, match="vela"):
        vela.state_from_text("BBBB.B.BB/BBBBBBBBB/BWBWWB.BW/WWW.WWW.W/WWWWWWWW. B chain=f4:SE:e5,f4")
    first = load_game("fanorona", first_turn_single_capture=True)
    with pytest.raises(PositionError, match="first turn"):
        first.state_from_text("...B...../........./...W...../...B...../........B W chain=d3:E:c3,d3 first=WB")


# --- notation and illegal input -----------------------------------------------------------------

def test_action_strings_round_trip(tsivy):
    state = tsivy.new_initial_state()
    for a in state.legal_actions():
        assert state.string_to_action(state.action_to_string(a)) == a
    assert state.string_to_action("  d2-e3A ") == state.legal_actions()[0]


@pytest.mark.parametrize("text,error,fragment", [
    ("hello", NotationError, "not Fanorona notation"),
    ("d2e3A", NotationError, "not Fanorona notation"),
    ("d2-e3X", NotationError, "not Fanorona notation"),
    ("d2-e4", IllegalActionError, "not a step along a line"),
    ("z9-z8", IllegalActionError, "not a step along a line"),
    ("d2-e3", IllegalActionError, "capturing is compulsory"),
    ("d2-e3W", IllegalActionError, "not a legal action"),
    ("end", IllegalActionError, "not a legal action"),
    ("a2-b3A", IllegalActionError, "not a step along a line"),  # a2 is weak: no diagonal
])
def test_illegal_strings_leave_state_unchanged(tsivy, text, error, fragment):
    state = tsivy.new_initial_state()
    before = (state.to_text(), state.legal_actions(), state.hash_key())
    with pytest.raises(error) as info:
        state.string_to_action(text)
    assert fragment in str(info.value)
    assert (state.to_text(), state.legal_actions(), state.hash_key()) == before


@pytest.mark.parametrize("bad", [-1, 0, 10_000, 45 * 24, True, 1.0, "d2-e3A", None])
def test_illegal_ints_leave_state_unchanged(tsivy, bad):
    state = tsivy.new_initial_state()
    before = (state.to_text(), list(state.legal_actions()), state.hash_key(), state.history())
    with pytest.raises(IllegalActionError):
        state.apply_action(bad)
    assert (state.to_text(), list(state.legal_actions()), state.hash_key(), state.history()) == before


def test_actions_after_game_over(tsivy):
    state = tsivy.state_from_text("........./........./........./WW......./BW....... B")
    with pytest.raises(IllegalActionError, match="game is over"):
        state.apply_action(0)
    with pytest.raises(IllegalActionError, match="game is over"):
        state.string_to_action("a1-a2")


def test_action_to_string_rejects_unknown_ids(tsivy):
    state = tsivy.new_initial_state()
    assert state.action_to_string(tsivy.num_distinct_actions - 1) == "end"
    with pytest.raises(IllegalActionError):
        state.action_to_string(tsivy.num_distinct_actions)
    with pytest.raises(IllegalActionError):
        state.action_to_string(-1)


def test_undo_at_start_raises(tsivy):
    with pytest.raises(IllegalActionError, match="no action to undo"):
        tsivy.new_initial_state().undo_action()


# --- render and evaluate --------------------------------------------------------------------------

def test_render_matches_spec_diagram(tsivy):
    from rich.text import Text
    board = tsivy.render(tsivy.new_initial_state())
    assert isinstance(board, Text)
    lines = board.plain.splitlines()
    assert lines[:10] == [
        "5  B-B-B-B-B-B-B-B-B",
        "   |\\|/|\\|/|\\|/|\\|/|",
        "4  B-B-B-B-B-B-B-B-B",
        "   |/|\\|/|\\|/|\\|/|\\|",
        "3  B-W-B-W-.-B-W-B-W",
        "   |\\|/|\\|/|\\|/|\\|/|",
        "2  W-W-W-W-W-W-W-W-W",
        "   |/|\\|/|\\|/|\\|/|\\|",
        "1  W-W-W-W-W-W-W-W-W",
        "   a b c d e f g h i",
    ]
    assert lines[10].startswith("White to move")


def test_render_chain_and_game_over(tsivy):
    state = play(tsivy, EX3, ["c3-d3A"])
    board = tsivy.render(state)
    assert "3  .-.-o-W-" in board.plain  # c3 visited, d3 the capturing stone
    assert "capture chain of d3" in board.plain
    assert any("reverse" in str(span.style) for span in board.spans)
    over = tsivy.render(tsivy.state_from_text("........./........./........./WW......./BW....... B"))
    assert "Game over: White wins" in over.plain


def test_evaluate(tsivy):
    start = tsivy.new_initial_state()
    assert -1 <= tsivy.evaluate(start, 0) <= 1
    ahead = tsivy.state_from_text(EX3)  # White 1 stone, Black 4
    assert tsivy.evaluate(ahead, 1) > 0.3 > -0.3 > tsivy.evaluate(ahead, 0)
    won = tsivy.state_from_text("........./........./........./WW......./BW....... B")
    assert tsivy.evaluate(won, 0) == 1.0 and tsivy.evaluate(won, 1) == -1.0


def test_refusals_say_why():
    """A refused move names the rule (§3.2): captures are compulsory; a chain goes on with the
    capturing stone only, each step capturing, never in the last direction or onto a visited point."""
    game = FanoronaGame()
    state = game.new_initial_state()
    with pytest.raises(IllegalActionError, match=r"'f3-e3' is a plain step, but capturing is compulsory here "
                                                 r"\(captures: d2-e3A, d3-e3A, d3-e3W, e2-e3A, f2-e3A\)"):
        state.string_to_action("f3-e3")
    # a step that captures, typed without its letter: the letter it needs, not "a plain step"
    with pytest.raises(IllegalActionError) as info:
        state.string_to_action("d2-e3")
    assert str(info.value) == "'d2-e3' needs A: it captures by approach (d2-e3A); capturing is compulsory"
    with pytest.raises(IllegalActionError) as info:
        state.string_to_action("d3-e3")
    assert str(info.value) == ("'d3-e3' needs A or W: it captures by approach (d3-e3A) or by withdrawal "
                               "(d3-e3W); capturing is compulsory")
    state = game.state_from_text("...B...../........./..W.BB.../...B...../........B W")
    state.apply_action(state.string_to_action("c3-d3A"))
    with pytest.raises(IllegalActionError) as info:  # the chain's next step without its letter
        state.string_to_action("d3-d4")
    assert str(info.value) == ("'d3-d4' needs A or W: it captures by approach (d3-d4A) or by withdrawal "
                               "(d3-d4W); a chain goes on by capture steps only")
    with pytest.raises(IllegalActionError, match="'d3-e3A' cannot continue the chain"):
        state.string_to_action("d3-e3A")
    with pytest.raises(IllegalActionError, match="goes on with the stone on d3 only"):
        state.string_to_action("i1-h2")


@pytest.mark.parametrize("size", ["tsivy", "dimy", "telo"])
def test_a_state_pickles_and_plays_on(size):
    # what multiprocessing hands a worker: the compiled move generators are rebuilt, not pickled
    from abstracta.testing import check_pickle_plays_on
    import random

    game = load_game("fanorona", size=size)
    state = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(5):
        state.apply_action(rng.choice(state.legal_actions()))
    state.note = "kept"  # what the spine or a caller keeps on an instance beside the slots
    again = check_pickle_plays_on(state, rng)
    assert again.note == "kept"
    again.undo_action()  # the undo stack travelled too
    assert again.to_text() != state.to_text()
