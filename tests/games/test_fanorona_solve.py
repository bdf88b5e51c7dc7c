"""Perfect play (issue 18): retrograde tables, Telo solved, the table player, 9×5 endgame tables."""

from __future__ import annotations

import json
import random
from functools import lru_cache
from itertools import combinations
from math import comb

import pytest

from abstracta import load_game
from abstracta.ai.levels import OracleBot, make_bot
from abstracta.games.fanorona import egtb
from abstracta.games.fanorona.egtb import Lookup, Material, TableSet, decode, materials_with, rank
from abstracta.games.fanorona.rules import FanoronaState
from abstracta.games.fanorona.solve import TablePlayer, _solved_tables, own_opp, reachable, table_player

TELO = load_game("fanorona", size="telo")


# --- indexing ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("n, k", [(9, 2), (9, 4), (25, 3), (45, 2)])
def test_colex_rank_is_a_bijection_onto_the_binomial_range(n, k):
    ranks = sorted(rank(sum(1 << p for p in pts)) for pts in combinations(range(n), k))
    assert ranks == list(range(comb(n, k)))


def test_material_pairs_of_four_stones():
    assert materials_with(4) == [(Material(3, 1), Material(1, 3)), (Material(2, 2),)]
    assert materials_with(6, per_side=4) == [(Material(4, 2), Material(2, 4)), (Material(3, 3),)]


def test_codes_round_trip():
    for value, distance in ((1, 1), (1, 11), (-1, 0), (-1, 14), (0, None)):
        assert decode(egtb.encode(value, distance)) == (value, distance)


# --- Telo solved ----------------------------------------------------------------------------------
def test_telo_is_a_win_in_eleven_turns_for_white():
    solution = TELO.description.solver(None)
    assert solution.solved and (solution.value, solution.distance) == (1, 11)
    assert solution.details["reachable"] == {"turn_starts": 1012, "terminal": 102, "mid_chain": 253, "total": 1265}
    assert solution.details["reachable_values"] == {"wins": 630, "draws": 58, "losses": 324}
    assert solution.positions == 13470 and solution.details["longest"] == 14


def test_reachable_count_of_the_issue_includes_the_mid_chain_states():
    counts = reachable(TELO)
    assert counts["turn_starts"] + counts["mid_chain"] == 1265


def _reachable_turn_starts(game):
    start = game.new_initial_state()
    w, b = start.bitboards()
    seen = {(w, b, 0)}
    frontier = list(seen)
    while frontier:
        nxt = []
        for w, b, side in frontier:
            state = FanoronaState(game, w, b, side)
            if state.is_terminal():
                continue
            ends = []
            egtb.turn_ends(state, ends)
            for o, p in ends:
                key = (p, o, 1) if side == 0 else (o, p, 0)
                if key not in seen:
                    seen.add(key)
                    nxt.append(key)
        frontier = nxt
    return sorted(seen)


def _independent(game):
    """Depth-limited win/loss search over whole turns (no tables): ``wins(own, opp, k)`` = the
    mover can force a win within ``k`` turns; ``loses`` = the other side can within ``k``."""

    @lru_cache(maxsize=None)
    def successors(own, opp):
        state = FanoronaState(game, own, opp, 0)
        if state.is_terminal():
            return None
        ends = []
        egtb.turn_ends(state, ends)
        return tuple(sorted(set(ends)))

    @lru_cache(maxsize=None)
    def loses(own, opp, k):
        if not own:
            return True
        succ = successors(own, opp)
        if succ is None:
            return True
        return k >= 2 and all(wins(o, p, k - 1) for o, p in succ)

    @lru_cache(maxsize=None)
    def wins(own, opp, k):
        succ = successors(own, opp)
        return k >= 1 and succ is not None and any(loses(o, p, k - 1) for o, p in succ)

    return wins, loses


def test_every_reachable_telo_value_agrees_with_a_plain_search():
    lookup = _solved_tables("telo")[0]
    wins, loses = _independent(TELO)
    positions = _reachable_turn_starts(TELO)
    assert len(positions) == 1012
    for w, b, side in positions:
        own, opp = (w, b) if side == 0 else (b, w)
        value, d = decode(lookup.code(own, opp))
        if value == 1:
            assert wins(own, opp, d) and not wins(own, opp, d - 2), (w, b, side)
        elif value == -1:
            assert loses(own, opp, d) and (d == 0 or not loses(own, opp, d - 2)), (w, b, side)
        else:  # the longest forced result in Telo takes 14 turns: none within 16 means none at all
            assert not wins(own, opp, 17) and not loses(own, opp, 16), (w, b, side)


def _play_turn(bot, state):
    side = state.current_player()
    while not state.is_terminal() and state.current_player() == side:
        state.apply_action(bot.step(state))


def test_the_table_player_keeps_every_value_and_takes_the_shortest_way():
    """From every reachable turn start: a won position is converted in exactly one turn less
    (never thrown away), a drawn one stays drawn, a lost one is delayed the longest."""
    player = table_player(TELO)
    lookup = player.lookup
    bot = make_bot("level:6", TELO)
    for w, b, side in _reachable_turn_starts(TELO):
        state = FanoronaState(TELO, w, b, side)
        if state.is_terminal():
            continue
        value, d = decode(lookup.code(*own_opp(state)))
        _play_turn(bot, state)
        after, d2 = decode(lookup.code(*own_opp(state)))
        assert after == -value
        if value:
            assert d2 == d - 1


def test_level_six_is_the_table_on_telo_and_wins_the_start_in_eleven_turns():
    assert TELO.description.levels[6].bot == "table" and TELO.description.levels[5].bot == "table"
    state = TELO.new_initial_state()
    bot = make_bot("level:6", TELO)
    turns = 0
    while not state.is_terminal():
        _play_turn(bot, state)
        turns += 1
    assert turns == 11 and state.returns() == [1.0, -1.0]


@pytest.mark.parametrize("seed", range(6))
def test_the_table_never_loses_at_telo_and_wins_as_white(seed):
    """Seats alternated against random and greedy play: as White (a won start) it always wins;
    as Black, once the opponent's errors hand it a drawn or won position, it keeps at least that."""
    opponent = make_bot("random" if seed % 2 else "level:2", TELO, seed=seed)
    table = make_bot("table", TELO)
    lookup = _solved_tables("telo")[0]
    table_seat = seed % 2
    state = TELO.new_initial_state()
    best = -1
    while not state.is_terminal():
        mover = state.current_player()
        if mover == table_seat:
            best = max(best, decode(lookup.code(*own_opp(state)))[0])
        _play_turn(table if mover == table_seat else opponent, state)
    assert state.returns()[table_seat] >= best
    if table_seat == 0:
        assert state.returns() == [1.0, -1.0]


# --- 9×5 endgame tables ------------------------------------------------------------------------------
TSIVY = load_game("fanorona")


@pytest.fixture(scope="module")
def tables_dir(tmp_path_factory):
    directory = tmp_path_factory.mktemp("egtb")
    manifest = TSIVY.description.endgame_tables.build(3, directory)
    return directory, manifest


def test_tsivy_tables_of_two_and_three_stones(tables_dir):
    directory, manifest = tables_dir
    assert manifest["tsivy-1v1"] == {"positions": 1980, "wins": 592, "draws": 1288, "losses": 100, "longest": 7,
                                     "bytes": 2025, "seconds": manifest["tsivy-1v1"]["seconds"]}
    for name in ("tsivy-2v1", "tsivy-1v2"):
        assert manifest[name]["positions"] == 42570 and manifest[name]["bytes"] == 45 * 990
    assert (manifest["tsivy-2v1"]["wins"], manifest["tsivy-2v1"]["draws"], manifest["tsivy-2v1"]["losses"]) == \
        (40996, 1550, 24)
    assert (directory / "fanorona-tsivy-2v1.u8").stat().st_size == 44550
    assert json.loads((directory / egtb.MANIFEST).read_text())["tsivy-1v2"]["longest"] == 30


def test_tsivy_tables_agree_with_a_plain_search(tables_dir):
    """Sampled 2- and 3-stone positions: each table value is confirmed by a depth-limited search."""
    directory, _ = tables_dir
    tables = TableSet(TSIVY, directory)
    wins, loses = _independent(TSIVY)
    rng = random.Random(18)
    checked = 0
    for a, b in ((1, 1), (2, 1), (1, 2)):
        for _ in range(25):
            pts = rng.sample(range(45), a + b)
            own = sum(1 << p for p in pts[:a])
            opp = sum(1 << p for p in pts[a:])
            value, d = decode(tables.code(own, opp))
            if value and d <= 9:
                assert (wins if value == 1 else loses)(own, opp, d), (own, opp)
                checked += 1
            elif value == 0:
                assert not wins(own, opp, 5) and not loses(own, opp, 4)
                checked += 1
    assert checked >= 30


def test_every_table_entry_is_the_best_of_its_turns(tables_dir):
    """Bellman check on a sample: a position's code = the best over its complete turns."""
    directory, _ = tables_dir
    tables = TableSet(TSIVY, directory)
    rng = random.Random(5)
    for _ in range(200):
        a, b = rng.choice(((1, 1), (2, 1), (1, 2)))
        pts = rng.sample(range(45), a + b)
        own, opp = sum(1 << p for p in pts[:a]), sum(1 << p for p in pts[a:])
        state = FanoronaState(TSIVY, own, opp, 0)
        code = tables.code(own, opp)
        if state.is_terminal():
            assert code == 1
            continue
        ends = []
        egtb.turn_ends(state, ends)
        assert code == egtb.best_code([tables.code(o, p) for o, p in ends])


def test_levels_five_and_six_probe_the_tables(tables_dir, monkeypatch):
    directory, _ = tables_dir
    monkeypatch.setenv("ABSTRACTA_EGTB_DIR", str(directory))
    game = load_game("fanorona")  # a fresh instance: its oracle finds the tables lazily
    bot = make_bot("level:6", game)
    assert isinstance(bot, OracleBot) and game.description.levels[5].oracle is not None
    # White c3, e3 against Black a1: a tabled win; the level plays it out in the fewest turns
    state = game.state_from_text("........./........./..W.W..../........./B........ W")
    tables = TableSet(game, directory)
    value, d = decode(tables.code(*own_opp(state)))
    assert value == 1
    turns = 0
    black = make_bot("table", game)
    while not state.is_terminal():
        _play_turn(bot if state.current_player() == 0 else black, state)
        turns += 1
    assert turns == d and state.returns() == [1.0, -1.0] and bot.answered >= (d + 1) // 2


def test_a_level_that_reads_tables_is_another_player_on_the_ladder(tables_dir, tmp_path, monkeypatch):
    # levels 5-6 read whatever tables are on disk, and the ladder counted games played with and
    # without them as one player (benchmarks/levels.json): the fingerprint names the stones the
    # tables cover, and without tables it stays what the ladder recorded before
    from abstracta.ai.levels import level_fingerprint

    monkeypatch.setenv("ABSTRACTA_EGTB_DIR", str(tmp_path))
    bare = load_game("fanorona")
    assert level_fingerprint(bare, 6) == "15db0ff402ba"
    monkeypatch.setenv("ABSTRACTA_EGTB_DIR", str(tables_dir[0]))
    tabled = load_game("fanorona")
    assert level_fingerprint(tabled, 6) != "15db0ff402ba"
    assert level_fingerprint(tabled, 5) != level_fingerprint(bare, 5)
    assert level_fingerprint(tabled, 4) == level_fingerprint(bare, 4)  # level 4 reads no tables
    assert tabled.description.levels[5].evaluator.__self__.reads == "tables of 2-3 stones"
    assert bare.description.levels[5].evaluator.__self__.reads is None


def test_the_oracle_is_silent_above_the_tables(tables_dir, monkeypatch):
    directory, _ = tables_dir
    monkeypatch.setenv("ABSTRACTA_EGTB_DIR", str(directory))
    game = load_game("fanorona")
    assert game.description.levels[6].oracle(game.new_initial_state()) is None
    assert TablePlayer(TableSet(game, directory)).choose(
        game.state_from_text("B.B....../........./........./........./W.W...... W")) is None


def test_tables_refuse_vela_and_tsivy_has_no_solver():
    assert load_game("fanorona", vela=True).description.endgame_tables is None
    assert load_game("fanorona").description.solver is None
    with pytest.raises(ValueError, match="standard rules"):
        egtb.build_pair(load_game("fanorona", size="telo", vela=True), (Material(1, 1),), Lookup(9))


# --- the command line -----------------------------------------------------------------------------
def _cli(*args):
    from typer.testing import CliRunner

    from abstracta.cli import app

    return CliRunner().invoke(app, list(args))


def test_cli_solve_telo_json_is_the_last_line():
    result = _cli("solve", "fanorona", "--option", "size=telo", "--json")
    assert result.exit_code == 0, result.output
    assert "a win for the side to move in 11 turns" in result.stdout
    last = json.loads(result.stdout.strip().splitlines()[-1])
    assert (last["value"], last["distance"], last["solved"]) == (1, 11, True)
    assert last["reachable"]["total"] == 1265 and last["options"]["size"] == "telo"


def test_cli_solve_refuses_what_does_not_fit():
    result = _cli("solve", "fanorona")
    assert result.exit_code == 2
    assert "cannot be solved here" in result.stderr and "size=telo" in result.stderr
    assert _cli("solve", "fanorona", "--option", "size=telo", "--option", "vela=true").exit_code == 2


def test_cli_egtb_build_writes_the_smallest_tables(tmp_path):
    result = _cli("egtb", "build", "fanorona", "--stones", "2", "--dir", str(tmp_path), "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout.strip().splitlines()[-1])
    assert out["fanorona"]["tables"]["tsivy-1v1"]["positions"] == 1980
    assert (tmp_path / "fanorona-tsivy-1v1.u8").stat().st_size == 2025
    again = _cli("egtb", "build", "fanorona", "--stones", "2", "--dir", str(tmp_path))  # kept, not rebuilt
    assert again.exit_code == 0 and "tsivy-1v1" in again.stdout
    bad = _cli("egtb", "build", "fanorona", "--executor", "threads", "--dir", str(tmp_path))
    assert bad.exit_code == 2 and "--executor must be one of serial, process, ray, got 'threads'" in bad.stderr
    bad = _cli("egtb", "build", "fanorona", "--executor", "process", "--workers", "0", "--dir", str(tmp_path))
    assert bad.exit_code == 2


def test_cli_egtb_on_a_size_without_tables_names_the_sizes_with_tables(tmp_path):
    # Telo is solved whole (abstracta solve); a user who asks for its tables is told where
    # tables exist instead
    for command in (("build", "--dir", str(tmp_path)), ("probe",)):
        result = _cli("egtb", command[0], "fanorona", "--option", "size=telo", *command[1:])
        assert result.exit_code == 2
        assert ("fanorona with these options has no endgame tables; those with tables: "
                "--option size=tsivy, --option size=dimy") in result.stderr
    assert list(tmp_path.iterdir()) == []


def _table_bytes(directory):
    return {p.name: p.read_bytes() for p in sorted(directory.glob("*.u8"))}


def test_cli_egtb_build_on_ray_writes_the_serial_bytes(tables_dir, tmp_path):
    # the one Ray test of the tables (a local Ray takes seconds to start): the workers return
    # the tables, this process writes them, byte for byte what the serial build wrote
    pytest.importorskip("ray")
    directory, manifest = tables_dir
    result = _cli("egtb", "build", "fanorona", "--stones", "3", "--dir", str(tmp_path), "--executor", "ray",
                  "--workers", "2", "--json")
    assert result.exit_code == 0, result.output
    tables = json.loads(result.stdout.strip().splitlines()[-1])["fanorona"]["tables"]
    assert sorted(tables) == ["tsivy-1v1", "tsivy-1v2", "tsivy-2v1"]
    assert {k: {**v, "seconds": 0} for k, v in tables.items()} == \
        {k: {**manifest[k], "seconds": 0} for k in tables}
    built = _table_bytes(tmp_path)
    assert len(built) == 3 and built == _table_bytes(directory)


def test_process_built_tables_are_the_in_memory_solution(tmp_path):
    """5×5 up to 3 stones in worker processes (the smaller tables sent to them by value): the
    files hold exactly what the in-memory solver computes."""
    dimy = load_game("fanorona", size="dimy")
    egtb.build_tables(dimy, 3, tmp_path, executor="process", workers=2)
    lookup, _ = egtb.solve_in_memory(dimy, 3)
    assert len(lookup.tables) == 3
    for m, arr in lookup.tables.items():
        assert (tmp_path / f"fanorona-dimy-{m.a}v{m.b}.u8").read_bytes() == arr.tobytes()
    with pytest.raises(ValueError, match="standard rules"):
        egtb.build_tables(load_game("fanorona", size="dimy", vela=True), 2, tmp_path)


def test_search_leaves_read_tabled_values_exactly(tables_dir, monkeypatch):
    directory, _ = tables_dir
    monkeypatch.setenv("ABSTRACTA_EGTB_DIR", str(directory))
    game = load_game("fanorona")
    leaf = game.description.levels[6].evaluator
    won = game.state_from_text("........./........./..W.W..../........./B........ W")
    _, d = decode(TableSet(game, directory).code(*own_opp(won)))
    assert leaf(won, 0) == pytest.approx(0.99 - d * 1e-4) and leaf(won, 1) == pytest.approx(-(0.99 - d * 1e-4))
    drawn = game.state_from_text("W......../........./........./........./........B B")  # a5 against i1
    assert decode(TableSet(game, directory).code(*own_opp(drawn))) == (0, None)
    assert leaf(drawn, 0) == 0.0
    start = game.new_initial_state()
    assert leaf(start, 0) == game.evaluate(start, 0)  # the level's evaluator (tuned weights on 9×5)


def test_the_colours_are_symmetric_so_one_table_entry_serves_both_sides():
    """The tables store positions seen from the mover: check on every reachable Telo turn start
    that Black to move with sets (B, W) finishes its turns exactly like White with (W, B)."""
    for w, b, side in _reachable_turn_starts(TELO):
        own, opp = (w, b) if side == 0 else (b, w)
        real, as_white = FanoronaState(TELO, w, b, side), FanoronaState(TELO, own, opp, 0)
        assert real.is_terminal() == as_white.is_terminal()
        if real.is_terminal():
            assert real.returns()[side] == as_white.returns()[0]
            continue
        ends_real, ends_white = [], []
        egtb.turn_ends(real, ends_real)
        egtb.turn_ends(as_white, ends_white)
        assert ends_real == ends_white


def test_cli_egtb_probe(tables_dir):
    directory, _ = tables_dir
    won = _cli("egtb", "probe", "fanorona", "--dir", str(directory), "--position",
               "........./........./..W.W..../........./B........ W")
    assert won.exit_code == 0 and "the side to move wins in 1 turn; best: c3-b2A" in won.stdout
    drawn = _cli("egtb", "probe", "fanorona", "--dir", str(directory), "--json", "--position",
                 "........./........./..W.W..../........./B........ B")
    assert json.loads(drawn.stdout) == {"value": 0, "distance": None, "best": "a1-b2A"}
    start = _cli("egtb", "probe", "fanorona", "--dir", str(directory))
    assert start.exit_code == 2 and "do not cover" in start.stderr
