"""Fanoron-Dimy (5×5) proved (issue 46 §2): proof-number search over the small tables, every
strategy checked against the rules engine, and the proof book the strong levels play from."""

from __future__ import annotations

import json
import random

import pytest

from abstracta import load_game
from abstracta.ai import proof as pns
from abstracta.ai.levels import make_bot
from abstracta.games.fanorona import egtb
from abstracta.games.fanorona import solve as solve_module
from abstracta.games.fanorona.proof import BOOK_FILE, Graph, ProofBook, turn_ends_fast
from abstracta.games.fanorona.rules import FanoronaState
from abstracta.games.fanorona.solve import BookPlayer, table_player

DIMY = load_game("fanorona", size="dimy")
#: White's first turns and their values for White, as the proof found them
FIRST_TURNS = {"b2-c3A": -1, "c2-c3A": -1, "d2-c3A": 0, "d3-c3A": -1, "d3-c3W": -1}


@pytest.mark.parametrize("size", ["dimy", "tsivy", "telo"])
def test_the_fast_turn_ends_are_the_rules_engines(size):
    game = load_game("fanorona", size=size)
    ends = turn_ends_fast(game.geometry)
    rng = random.Random(7)
    checked = 0
    for _ in range(400):
        state = game.new_initial_state()
        for _ in range(rng.randrange(40)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal() or state.chain() is not None:
            continue
        white, black = state.bitboards()
        own, opp = (white, black) if state.side == 0 else (black, white)
        expected: list[tuple[int, int]] = []
        egtb.turn_ends(FanoronaState(game, white, black, state.side), expected)
        assert ends(own, opp) == set(expected), state.to_text()
        checked += 1
    assert checked > 50


@pytest.fixture(scope="module")
def solved(tmp_path_factory):
    """Dimy's 2-4-stone tables on disk and ``abstracta solve``'s answer (its book beside them)."""
    directory = tmp_path_factory.mktemp("dimy")
    mp = pytest.MonkeyPatch()
    mp.setenv("ABSTRACTA_EGTB_DIR", str(directory))
    # the proof (about a minute) is searched once for the module: the CLI test's `abstracta
    # solve` gets this search's answer again, and checks what the command makes of it
    found: dict = {}
    search = solve_module.prove

    def prove_once(game, *args, **kwargs):
        if "answer" not in found:
            found["answer"] = search(game, *args, **kwargs)
        return found["answer"]

    mp.setattr(solve_module, "prove", prove_once)
    DIMY.description.endgame_tables.build(4, directory)
    solution = load_game("fanorona", size="dimy").description.solver(None)
    yield directory, solution
    mp.undo()


def test_dimy_is_a_draw_and_only_one_first_turn_holds_it(solved):
    directory, solution = solved
    assert solution.solved and solution.value == 0 and solution.distance is None
    assert {f["turn"]: f["value"] for f in solution.details["first_turns"]} == FIRST_TURNS
    # every losing first turn loses within its checked strategy's turns, far below 100
    assert all(0 < f["turns"] < 100 for f in solution.details["first_turns"] if f["value"] < 0)
    kinds = {(s["from"], s["side"], s["kind"]) for s in solution.details["strategies"]}
    assert {("start", "White", "hold"), ("start", "Black", "hold"), ("d2-c3A", "Black", "hold"),
            ("b2-c3A", "Black", "win")} <= kinds
    assert solution.positions == len(ProofBook.load(directory / BOOK_FILE.format(size="dimy")))
    assert solution.details["leaf_tables"] == {"stones": 4, "positions": 191500}


def test_cli_solve_dimy_says_solved_and_the_value(solved, monkeypatch):
    from typer.testing import CliRunner

    from abstracta.cli import app

    directory, _ = solved
    monkeypatch.setenv("ABSTRACTA_EGTB_DIR", str(directory))
    result = CliRunner().invoke(app, ["solve", "fanorona", "--option", "size=dimy", "--json"])
    assert result.exit_code == 0, result.output
    last = json.loads(result.stdout.strip().splitlines()[-1])
    assert last["solved"] is True and last["value"] == 0
    assert "the start is a draw" in result.stdout


def test_a_strategy_changed_anywhere_fails_its_check():
    lookup, _ = egtb.solve_in_memory(DIMY, 4)
    fast, exact = Graph(DIMY, lookup, 4), Graph(DIMY, lookup, 4, engine=True)
    start = DIMY.new_initial_state()
    start.apply_action(start.string_to_action("b2-c3A"))  # Black wins (FIRST_TURNS)
    root = fast.of_state(start)
    win = pns.dfpn(fast, root, pns.WIN)
    assert win.answer is True
    cert = pns.certificate(win, root, True)
    checked = pns.check(exact, cert)
    assert checked.turns is not None and 0 < checked.turns < 100
    # Black's first choice replaced by each other turn he has: no other keeps a proved win here
    # unless it is one; a turn outside the rules is refused outright
    wrong = dict(cert.choice)
    wrong[root] = 12345
    with pytest.raises(pns.CertificateError, match="no legal turn"):
        pns.check(exact, pns.Certificate(root, True, True, wrong))
    refused = 0
    for other in exact.children(root):
        if other == cert.choice[root]:
            continue
        try:
            pns.check(exact, pns.Certificate(root, True, True, {**cert.choice, root: other}))
        except pns.CertificateError:
            refused += 1
    assert refused >= 1


def test_the_book_plays_white_to_a_draw_and_black_to_the_win(solved):
    directory, solution = solved
    player = table_player(DIMY, directory)
    assert isinstance(player, BookPlayer) and player.book is not None
    start = DIMY.new_initial_state()
    assert player.judge(start) == {"value": 0, "distance": None, "best": "d2-c3A"}
    rng = random.Random(46)
    for game_no in range(8):
        book_side = game_no % 2
        state = start.clone()
        answered = 0
        while not state.is_terminal():
            if state.current_player() == book_side:
                action = player.choose(state)
                if action is None:  # outside what the book vouches for: never as White here
                    assert book_side == 1, state.to_text()
                    action = rng.choice(state.legal_actions())
                else:
                    answered += 1
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
        assert state.returns()[book_side] >= 0, (game_no, state.to_text())
        assert answered > 0


def test_levels_five_and_six_on_dimy_read_the_book(solved, monkeypatch):
    directory, _ = solved
    monkeypatch.setenv("ABSTRACTA_EGTB_DIR", str(directory))
    game = load_game("fanorona", size="dimy")
    bot = make_bot("level:6", game)
    assert bot.step(game.new_initial_state()) == game.new_initial_state().string_to_action("d2-c3A")
    assert game.description.levels[5].evaluator.__self__.reads == "tables of 2-4 stones and the proof book"
    # the analysis board reports the proved value
    assert game.description.endgame_tables.probe(game.new_initial_state(), directory)["value"] == 0


def test_the_analysis_board_says_dimy_is_drawn(solved, monkeypatch):
    from abstracta.ai.analysis import analyse

    directory, _ = solved
    monkeypatch.setenv("ABSTRACTA_EGTB_DIR", str(directory))
    game = load_game("fanorona", size="dimy")
    answer = analyse(game.new_initial_state())
    assert answer.search == "tables" and answer.value == 0.0 and answer.mate is None
    assert answer.line[0].actions == ["d2-c3A"]
    after = game.new_initial_state()
    after.apply_action(after.string_to_action("b2-c3A"))  # a losing first turn: Black wins
    lost = analyse(after)
    assert lost.value == 1.0 and lost.mate is not None and lost.mate > 0
