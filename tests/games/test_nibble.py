"""Nibble: every worked example of nibble.md §7, plus notation, text and error tests."""

from __future__ import annotations

import re

import pytest

from abstracta import IllegalActionError, NotationError, OptionError, PositionError, load_game
from abstracta.core.records import Record
from abstracta.core.rng import SplitMix64
from abstracta.games.nibble import NibbleGame
from abstracta.games.nibble.geometry import generate_layout, geometry

SEED1 = "GEDEACHCH/HBACDEIAC/GFBIEHFBG/HAFGCFIFC/IGDFHGBDI/EBAEDBDFB/DCBIHCAHI/ABFCFAGDE/GAGEIDIEH"
SEED2 = "GHFEFDCDC/BGBHBCIFD/HBHEFGEIG/ACDAICABA/HECBEBDEB/AIHFIGHAH/DEIHCDGIA/GICAFICGE/DFDFGAEFB"
HEX1 = ("GBAMILML/FDLJKEFAB/ELCDHAKIEA/DFIGLKLCJGE/HJLHDMCJIMIA/ABKDEGBKLEHCI/LJDAGBMEBHJAJC/"
        "GHMICKICFMAFMEF/FAGDJBFHDCHILH/KECBHGDFGICAG/IMGLDEJHJLDF/EKCMBGBMIKB/HMIDCJKAJL/EKJKEMHCF/AFBGBFDK")


def position(variant: str, discs: dict[str, str], to_move: int = 0,
             coll0: dict[str, int] | None = None, take: str | None = None) -> str:
    """A position text with ``discs`` on the board; seat 0 holds ``coll0`` (default: about half
    of what is off the board) and seat 1 the rest."""
    g = geometry(variant)
    layout = ["."] * g.cells
    for name, letter in discs.items():
        layout[g.index[name]] = letter
    rows = "/".join("".join(layout[i] for i in row) for row in g.rows)
    c0, c1 = [], []
    for c, letter in enumerate(g.letters):
        off = g.per_colour - sum(1 for x in layout if x == letter)
        mine = (coll0 or {}).get(letter, (off + (c % 2)) // 2)
        c0.append(mine)
        c1.append(off - mine)
    text = f"{rows} {to_move} {'-'.join(map(str, c0))} {'-'.join(map(str, c1))}"
    return text + (f" take={take}" if take else "")


# --- §7.1, §7.2: seeded square9 boards -----------------------------------------------------------
def test_seed1_square9_board_and_legal_sets():
    game = NibbleGame()
    state = game.new_initial_state(seed=1)
    assert state.to_text().split()[0] == SEED1
    assert state.seed == 1
    assert game.turn_strings(state) == ["a1", "a9", "a1+a9", "i1", "i9", "i1+i9"]
    assert state.legal_action_strings() == ["a1", "i1", "a9", "i9"]


def test_seed2_square9_board_and_legal_sets():
    game = NibbleGame(variant="square9")
    state = game.new_initial_state(seed=2)
    assert state.to_text().split()[0] == SEED2
    assert game.turn_strings(state) == ["i1", "i9", "a1", "a9"]


def test_seed_option_and_drawn_seed():
    assert NibbleGame(seed=1).new_initial_state().to_text().split()[0] == SEED1
    state = NibbleGame().new_initial_state()
    assert isinstance(state.seed, int)
    again = NibbleGame().new_initial_state(seed=state.seed)
    assert again.to_text() == state.to_text()


# --- §7.3–7.5: ring, line, T ----------------------------------------------------------------------
def test_ring_only_corners_and_no_pairs():
    text = position("square9", {"a3": "A", "b3": "B", "c3": "A", "a2": "B", "c2": "B",
                                "a1": "A", "b1": "B", "c1": "A"})
    game = NibbleGame()
    state = game.state_from_text(text)
    assert state.to_text() == text
    assert game.turn_strings(state) == ["a1", "c1", "a3", "c3"]
    assert state.legal_action_strings() == ["a1", "c1", "a3", "c3"]


def test_line():
    game = NibbleGame()
    state = game.state_from_text(position("square9", {"a1": "A", "b1": "B", "c1": "A"}))
    assert game.turn_strings(state) == ["a1", "c1", "a1+c1"]


def test_t_shape():
    game = NibbleGame()
    state = game.state_from_text(position("square9", {"b2": "A", "a1": "B", "b1": "C", "c1": "B"}))
    assert game.turn_strings(state) == ["b2", "a1", "c1", "a1+c1"]


# --- §7.6: instant wins ---------------------------------------------------------------------------
def _win_position(held: dict[str, int], last: str) -> str:
    coll0 = {"A": 3, "B": 4, "C": 4, "D": 4, "E": 4, "F": 4, "G": 5, "H": 4, "I": 5}
    coll0.update(held)
    return position("square9", {"a1": last, "b1": "F" if last != "F" else "G"}, 0, coll0)


def test_instant_win_b_three_adjacent_colours():
    game = NibbleGame()
    state = game.state_from_text(_win_position({"C": 7, "D": 7, "E": 6}, "E"))
    assert not state.is_terminal()
    state.apply_action(state.string_to_action("a1"))
    assert state.is_terminal()
    assert state.returns() == [1.0, -1.0]
    assert state.legal_actions() == []
    back = game.state_from_text(state.to_text())
    assert back.is_terminal() and back.returns() == [1.0, -1.0]


def test_non_adjacent_colours_are_no_win():
    game = NibbleGame()
    state = game.state_from_text(_win_position({"A": 6, "C": 7, "E": 7}, "A"))
    state.apply_action(state.string_to_action("a1"))
    assert not state.is_terminal()
    assert state.coll[0][:5] == [7, 4, 7, 4, 7]


def test_instant_win_a_last_disc_of_a_colour():
    game = NibbleGame()
    state = game.state_from_text(_win_position({"A": 8}, "A"))
    state.apply_action(state.string_to_action("a1"))
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


def test_instant_win_ends_the_turn_at_the_take_that_makes_it():
    # §4 engine actions: wins are tested after every take. Taking a1 (E) completes C, D, E ≥ 7;
    # c1 (E) would still be a legal second take of the turn but the game is already over
    game = NibbleGame()
    coll0 = {"A": 4, "B": 4, "C": 7, "D": 7, "E": 6, "F": 4, "G": 5, "H": 4, "I": 5}
    state = game.state_from_text(position("square9", {"a1": "E", "b1": "B", "c1": "E"}, 0, coll0))
    assert game.turn_strings(state) == ["a1", "c1", "a1+c1"]
    state.apply_action(state.string_to_action("a1"))
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    assert state.to_text().split()[0] == "/".join(["........."] * 8) + "/.BE......"


@pytest.mark.parametrize("variant", ["square13", "hex"])
def test_thirteen_colour_thresholds(variant):
    # table in nibble.md: adjacent triple ≥ 10 each, majority = 7 discs in ≥ 7 colours
    game = NibbleGame(variant=variant)
    near = "a2" if variant == "hex" else "b1"
    for held_e, won in ((9, True), (8, False)):
        coll0 = dict(zip("ABCDEFGHIJKLM", (6, 6, 10, 10, held_e, 6, 6, 6, 6, 6, 6, 6, 6)))
        state = game.state_from_text(position(variant, {"a1": "E", near: "F"}, 0, coll0))
        state.apply_action(state.string_to_action("a1"))
        assert state.is_terminal() is won
        if won:
            assert state.returns() == [1.0, -1.0]
    empty = position(variant, {}, 1, dict(zip("ABCDEFGHIJKLM", [7] * 7 + [6] * 6)))
    assert game.state_from_text(empty).returns() == [1.0, -1.0]  # 7 majorities: seat 0
    empty = position(variant, {}, 1, dict(zip("ABCDEFGHIJKLM", [7] * 6 + [6] * 7)))
    assert game.state_from_text(empty).returns() == [-1.0, 1.0]  # 6: seat 1 has the other 7


# --- §7.7: final count ------------------------------------------------------------------------------
def test_final_count_majority_of_majorities():
    held = dict(zip("ABCDEFGHI", (5, 6, 5, 7, 5, 4, 3, 2, 0)))
    game = NibbleGame()
    state = game.state_from_text(position("square9", {"a1": "I"}, 0, held))
    state.apply_action(state.string_to_action("a1"))
    assert state.is_terminal()
    assert state.coll[0] == [5, 6, 5, 7, 5, 4, 3, 2, 1]
    assert sum(state.coll[0]) == 38 and sum(state.coll[1]) == 43
    assert state.returns() == [1.0, -1.0]
    empty = "/".join(["........."] * 9) + " 1 5-6-5-7-5-4-3-2-1 4-3-4-2-4-5-6-7-8"
    final = game.state_from_text(empty)
    assert final.is_terminal() and final.returns() == [1.0, -1.0]
    assert final.to_text() == empty


# --- §7.8: hex seed 1 --------------------------------------------------------------------------------
def test_hex_seed1_board_and_legal_sets():
    game = NibbleGame(variant="hex")
    state = game.new_initial_state(seed=1)
    assert state.to_text().split()[0] == HEX1
    assert game.turn_strings(state) == ["a1", "h15", "h1", "o8", "h1+o8", "a8", "o15"]
    assert sorted(state.legal_action_strings()) == sorted(["a1", "a8", "h1", "h15", "o8", "o15"])
    assert state.legal_action_strings() == ["a1", "a8", "h1", "h15", "o8", "o15"]
    with pytest.raises(IllegalActionError, match="not free"):
        state.string_to_action("a2")


# --- §8: generator ------------------------------------------------------------------------------------
def test_square13_seed1_prefix():
    state = NibbleGame(variant="square13").new_initial_state(seed=1)
    assert state.to_text().startswith("AGBAGHLKMBMLF/LILGAIHDAFCMI/")


@pytest.mark.parametrize("variant,seed,first", [
    ("square9", 1, 1), ("square13", 1, 0), ("hex", 1, 0),
    ("square9", 2, 1), ("square13", 2, 1), ("hex", 2, 1),
])
def test_first_player_draws(variant, seed, first):
    state = NibbleGame(variant=variant).new_initial_state(seed=seed)
    assert state.current_player() == first
    rng = SplitMix64(seed)
    generate_layout(geometry(variant), rng)
    assert rng.below(2) == first


def test_first_player_option():
    for first in (0, 1):
        state = NibbleGame(first_player=first).new_initial_state(seed=1)
        assert state.current_player() == first
        assert state.to_text().split()[0] == SEED1
    with pytest.raises(OptionError):
        NibbleGame(first_player=2)
    with pytest.raises(OptionError):
        NibbleGame(variant="square11")


# --- turns, notation, records ---------------------------------------------------------------------------
PLUS = {"b2": "B", "b1": "A", "a2": "A", "c2": "A", "b3": "A"}


def test_engine_actions_and_turn_flow():
    game = NibbleGame()
    state = game.state_from_text(position("square9", PLUS))
    assert state.legal_action_strings() == ["b1", "a2", "c2", "b3"]
    state.apply_action(state.string_to_action("a2"))
    assert state.current_player() == 0 and state.to_text().endswith(" take=A")
    assert state.legal_action_strings() == ["b1", "c2", "b3", "end"]
    again = game.state_from_text(state.to_text())
    assert again.to_text() == state.to_text() and again.legal_actions() == state.legal_actions()
    state.apply_action(state.string_to_action("end"))
    assert state.current_player() == 1 and "take=" not in state.to_text()
    with pytest.raises(IllegalActionError):
        state.string_to_action("end")

def test_turn_order_by_count_then_canonical_positions_not_ascii():
    # §4: colour, then number of discs, then the cells' canonical positions (rank, then file):
    # a2+c2 (a2, c2 on rank 2) comes before a2+b3 although "a2+b3" < "a2+c2" in ASCII
    game = NibbleGame()
    state = game.state_from_text(position("square9", PLUS))
    assert game.turn_strings(state) == [
        "b1", "a2", "c2", "b3",
        "b1+a2", "b1+c2", "b1+b3", "a2+c2", "a2+b3", "c2+b3",
        "b1+a2+c2", "b1+a2+b3", "b1+c2+b3", "a2+c2+b3",
        "b1+a2+c2+b3"]


def test_turn_ends_by_itself():
    game = NibbleGame()
    state = game.new_initial_state(seed=1)  # seat 1 to move
    state.apply_action(state.string_to_action("a1"))
    assert state.current_player() == 1 and state.legal_action_strings() == ["a9", "end"]
    state.apply_action(state.string_to_action("a9"))
    assert state.current_player() == 0  # no further G is free


def test_parse_move_whole_turn():
    game = NibbleGame()
    state = game.state_from_text(position("square9", PLUS))
    before = state.to_text()
    a2, c2 = state.string_to_action("a2"), 2 + 9 * 1  # c2 = index 11
    assert game.parse_move(state, "a2+c2") == [a2, c2, game.end_action]
    assert game.parse_move(state, "c2+a2") == [a2, c2, game.end_action]
    assert game.parse_move(state, "a2") == [a2]
    assert state.to_text() == before
    seed1 = game.new_initial_state(seed=1)
    assert game.parse_move(seed1, "a1+a9") == [0, 72]  # the turn closes itself
    for bad, err in [("a1+z9", NotationError), ("a1+a1", IllegalActionError), ("a1+i1", IllegalActionError),
                     ("a1+end", NotationError), ("b5+a1", IllegalActionError), ("zz", NotationError)]:
        with pytest.raises(err):
            game.parse_move(seed1, bad)
    assert seed1.to_text().split()[0] == SEED1


def test_parse_move_a1_plus_a9_appends_end_when_the_turn_stays_open():
    discs = {"a1": "A", "a2": "B", "a3": "A", "a4": "B", "a5": "A", "a6": "B", "a7": "A", "a8": "B",
             "a9": "A", "b1": "B", "b2": "A", "c1": "A"}
    game = NibbleGame()
    state = game.state_from_text(position("square9", discs))
    assert game.turn_strings(state)[:4] == ["a1", "c1", "b2", "a9"]
    manual = state.clone()
    for text in ("a1", "a9", "end"):
        manual.apply_action(manual.string_to_action(text))
    actions = game.parse_move(state, "a1+a9")
    assert actions == [state.string_to_action("a1"), 72, game.end_action]
    for a in actions:
        state.apply_action(a)
    assert state.to_text() == manual.to_text() and state.current_player() == 1


def test_mover_already_holding_a_win_refused():
    coll0 = {"A": 3, "B": 4, "C": 7, "D": 7, "E": 7, "F": 4, "G": 5, "H": 4, "I": 5}
    text = position("square9", {"a1": "A", "b1": "B"}, 0, coll0)
    with pytest.raises(PositionError, match="already holds"):
        NibbleGame().state_from_text(text)
    over = NibbleGame().state_from_text(text.replace(" 0 ", " 1 ", 1))
    assert over.is_terminal() and over.returns() == [1.0, -1.0]


def test_format_moves_groups_turns():
    game = NibbleGame()
    seed1 = game.new_initial_state(seed=1)
    assert game.format_moves(seed1, [0, 72]) == ["a1+a9"]
    assert game.format_moves(seed1, [72, 0]) == ["a9", "a1"]
    assert game.format_moves(seed1, [0, game.end_action]) == ["a1", "end"]
    plus = game.state_from_text(position("square9", PLUS))
    actions = game.parse_move(plus, "a2+c2")
    assert game.format_moves(plus, actions) == ["a2+c2"]
    assert game.format_moves(plus, actions[:2]) == ["a2", "c2"]  # unfinished turn


def test_format_turn_writes_a_one_disc_turn_as_the_spec_and_the_prompt_write_it():
    # §4: a turn is one set of discs, "a1" a set of one; the record keeps "a1", "end" (a string
    # without '+' is one engine action there), but a person reads and types the turn as a1
    game = NibbleGame()
    seed1 = game.new_initial_state(seed=1)
    end = game.end_action
    assert game.format_turn(seed1, [0, end]) == ["a1"]
    assert game.parse_turn(seed1, "a1") == [0, end]
    assert game.format_turn(seed1, [0, 72]) == ["a1+a9"]
    # what typing one string would not play stays entry by entry: another order, an open turn
    assert game.format_turn(seed1, [72, 0]) == ["a9", "a1"]
    plus = game.state_from_text(position("square9", PLUS))
    open_turn = game.parse_move(plus, "a2+c2")[:2]
    assert game.format_turn(plus, open_turn) == ["a2", "c2"]


def test_record_with_whole_turn_strings_replays():
    game = NibbleGame()
    initial = game.new_initial_state(seed=1)
    state = initial.clone()
    actions = []
    for text in ["a1+a9", "i1+i9"]:
        for a in game.parse_move(state, text):
            state.apply_action(a)
            actions.append(a)
    record = Record.from_play(game, initial, actions)
    assert record.moves == ["a1+a9", "i1+i9"]
    final, replayed = Record.from_json(record.to_json()).replay()
    assert replayed == actions and final.to_text() == state.to_text()


def test_turn_strings_mid_turn_refused():
    game = NibbleGame()
    state = game.new_initial_state(seed=1)
    state.apply_action(0)
    with pytest.raises(ValueError):
        game.turn_strings(state)


# --- position text errors ---------------------------------------------------------------------------------
def test_same_colour_neighbours_refused():
    game = NibbleGame()
    with pytest.raises(PositionError, match="a1 and b1"):
        game.state_from_text(position("square9", {"a1": "A", "b1": "A"}))
    hexgame = NibbleGame(variant="hex")
    with pytest.raises(PositionError, match="same colour"):
        hexgame.state_from_text(position("hex", {"a1": "A", "b2": "A"}))


@pytest.mark.parametrize("text", [
    "",
    SEED1,
    SEED1 + " 2 0-0-0-0-0-0-0-0-0 0-0-0-0-0-0-0-0-0",
    SEED1 + " 0 0-0-0-0-0-0-0-0 0-0-0-0-0-0-0-0-0",
    SEED1 + " 0 0-0-0-0-0-0-0-0-1 0-0-0-0-0-0-0-0-0",
    SEED1 + " 0 0-0-0-0-0-0-0-0-0 0-0-0-0-0-0-0-0-0 take=G",
    SEED1 + " 0 0-0-0-0-0-0-0-0-0 0-0-0-0-0-0-0-0-0 take=Z",
    SEED1.replace("G", "X", 1) + " 0 0-0-0-0-0-0-0-0-0 0-0-0-0-0-0-0-0-0",
    SEED1[:-1] + " 0 0-0-0-0-0-0-0-0-0 0-0-0-0-0-0-0-0-0",
])
def test_bad_position_texts(text):
    with pytest.raises(PositionError):
        NibbleGame().state_from_text(text)


def test_disconnected_board_refused():
    with pytest.raises(PositionError, match="connected"):
        NibbleGame().state_from_text(position("square9", {"a1": "A", "c1": "B"}))


def test_take_without_continuation_refused():
    text = position("square9", {"a1": "A", "b1": "B", "c1": "A"}, 0, {"A": 4}, take="B")
    with pytest.raises(PositionError, match="turn would have ended"):
        NibbleGame().state_from_text(text)


def test_illegal_actions_leave_state_unchanged():
    game = NibbleGame()
    state = game.new_initial_state(seed=1)
    before = state.to_text()
    for bad in (-1, 1, 81, 82, "a1", None, True, 1.0):
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)  # type: ignore[arg-type]
    assert state.to_text() == before and state.history() == []
    with pytest.raises(NotationError):
        state.string_to_action("j1")
    with pytest.raises(IllegalActionError, match="not free"):
        state.string_to_action("e5")


def test_undo_restores_everything():
    game = NibbleGame()
    state = game.new_initial_state(seed=1)
    snapshots = []
    for text in ["a1", "a9", "i1", "end"]:
        snapshots.append((state.to_text(), state.hash_key(), list(state.legal_actions())))
        state.apply_action(state.string_to_action(text))
    for snap in reversed(snapshots):
        state.undo_action()
        assert (state.to_text(), state.hash_key(), list(state.legal_actions())) == snap
    with pytest.raises(IllegalActionError):
        state.undo_action()


def test_registry_and_render():
    game = load_game("nibble", variant="hex")
    assert isinstance(game, NibbleGame) and game.num_distinct_actions == 170
    state = game.new_initial_state(seed=1)
    state.apply_action(0)
    text = game.render(state)
    plain = text.plain
    assert "Player 1" in plain and "Player 2" in plain and "h1…h15" in plain
    assert -1.0 <= game.evaluate(state, 0) <= 1.0
    sq = NibbleGame().new_initial_state(seed=1)
    sq.apply_action(0)
    plain = NibbleGame().render(sq).plain
    assert "take=G" in plain and "a b c d e f g h i" in plain


@pytest.mark.parametrize("variant", ["square9", "square13", "hex"])
def test_a_state_pickles_and_plays_on(variant):
    # what multiprocessing hands a worker; the geometry's move helpers are closures and travel
    # as the variant's name
    from abstracta.testing import check_pickle_plays_on
    import random

    state = load_game("nibble", variant=variant).new_initial_state(5)
    rng = random.Random(1)
    for _ in range(6):
        state.apply_action(rng.choice(state.legal_actions()))
    again = check_pickle_plays_on(state, rng)
    assert again.geometry is geometry(variant)  # the shared tables, not a copy


@pytest.mark.parametrize("variant", ["square9", "square13", "hex"])
def test_render_fits_80_columns_and_wraps_between_phrases(variant):
    # TERM=dumb is 80 columns: the score line was one line of ~110 columns, which the terminal
    # broke inside a phrase ("all of A:" / "0/9"), and thirteen counts were 85 columns
    import io
    import random

    from rich.console import Console

    game = load_game("nibble", variant=variant)
    state = game.new_initial_state(seed=3)
    rng = random.Random(3)
    for _ in range(400):  # deep enough for two-digit counts, stopping short of the end
        probe = state.clone()
        action = rng.choice(list(probe.legal_actions()))
        probe.apply_action(action)
        if probe.is_terminal():
            break
        state = probe
    out = io.StringIO()
    Console(file=out, width=80, force_terminal=False, color_system=None).print(game.render(state))
    lines = out.getvalue().splitlines()
    assert max(len(line.rstrip()) for line in lines) <= 80
    colours = len(state.geometry.letters)
    for seat in (0, 1):  # every colour's count on the seat's one line
        at = next(i for i, line in enumerate(lines) if line.startswith(f"Player {seat + 1} "))
        row = lines[at] + (lines[at + 1] if colours > 9 else "")
        assert re.findall(r"([A-M]) +(\d+)", row[9:]) == [
            (state.geometry.letters[c], str(state.coll[seat][c])) for c in range(colours)]
    phrases = [line.strip() for line in lines if line.startswith("        ") and not re.match(r" *[A-M]  ", line)]
    assert len(phrases) == 4
    assert all(p.startswith("majorities ") and p.endswith("decides when the board is empty)") for p in phrases[0::2])
    assert all(re.fullmatch(r"(all of [A-M]: \d+/\d+|all of one colour: blocked) · (run [A-M]{3}: \d+,\d+,\d+ \(≥\d+ each\)|runs: blocked)", p)
               for p in phrases[1::2]), phrases
    assert max(max(state.coll[0]), max(state.coll[1])) >= 10 or variant == "square9"
    legend = " ".join(line for line in lines if "=red" in line or "=pink" in line or "=black" in line)
    assert legend.split() == [f"{state.geometry.letters[c]}={n}" for c, n in enumerate(
        "red orange yellow lime green teal blue purple pink brown grey white black".split()[:colours])]
