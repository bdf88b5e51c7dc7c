"""The turns a play session writes: its move list (``Session.turn_texts``) and its record's
moves (``Session.record``), moved here from the server's tests (issue 37)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import abstracta
from abstracta.play import Session

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/ (toy_nim)

# nibble.md §7 example 1 (seed 1): a1, a9 (G) and i1, i9 are free
SEED1 = {"seed": "1", "first_player": "0"}


def test_a_move_list_written_before_a_takeback_is_not_reused_for_other_moves():
    # a copy of a session carries the turns written so far; once its earlier actions are others
    # (a takeback, then other turns as many actions long), the list is written from the start
    from abstracta.core.turns import played_turns, turn_numbers, turn_texts

    game = abstracta.load_game("nibble", seed=2)
    initial = game.new_initial_state()

    def random_game(seed: int) -> list[int]:
        state, rng, actions = initial.clone(), random.Random(seed), []
        while not state.is_terminal() and len(actions) < 30:
            actions.append(rng.choice(state.legal_actions()))
            state.apply_action(actions[-1])
        return actions

    def listed(match: Session) -> list:
        movers, own = played_turns(initial, match.actions)
        return match.turn_texts(movers, turn_numbers(movers, own))

    one, other = random_game(1), random_game(7)
    assert one[:3] != other[:3] and len(other) >= len(one) // 2
    match = Session.begin(game, initial, ["human", "human"])
    for action in one:
        match.push(action)
    assert listed(match) == turn_texts(initial, one) and match.written[1] > len(other) // 2
    again = Session.begin(game, initial, ["human", "human"], written=match.written)
    for action in other:
        again.push(action)
    assert listed(again) == turn_texts(initial, other)


def test_turns_written_again_along_a_line_are_those_written_afresh(monkeypatch):
    # a server describes each revision of a match: the turn in progress is written at every
    # move, and the turn just played once more when the next begins. Along a line of sessions
    # (each the last one's copy, a move on or a takeback) the ones written from the same state
    # are kept (carried): each list and record equal to a fresh session's, the writing done once
    from abstracta.core.turns import played_turns, turn_numbers
    from abstracta.play.requests import take_back

    game = abstracta.load_game("nibble", seed=3)
    initial = game.new_initial_state()
    kind = type(game)
    writes = {"format_turn": 0, "format_moves": 0}
    for name in writes:
        def counted(self, state, actions, _name=name, _real=getattr(kind, name)):
            writes[_name] += 1
            return _real(self, state, actions)
        monkeypatch.setattr(kind, name, counted)

    def written(match: Session) -> tuple[list, list[str]]:
        movers, own = played_turns(match.initial, match.actions)
        return match.turn_texts(movers, turn_numbers(movers, own)), list(match.record_moves())

    rng = random.Random(5)
    match = Session.begin(game, initial, ["human", "human"])
    moves = takebacks = 0
    after_moves = {name: 0 for name in writes}  # written for the revisions after a move
    while moves < 120:
        before = dict(writes)
        moved = not (match.state.is_terminal() or (match.ply > 4 and rng.random() < 0.1))
        if moved:
            match = match.copy()
            match.push(rng.choice(match.state.legal_actions()))
            moves += 1
        else:  # (a takeback writes the game from the start)
            match = take_back(match, match.ply - rng.choice([1, 2, 3]), 0.0).after
            takebacks += 1
        along = written(match)
        for name in writes:
            after_moves[name] += (writes[name] - before[name]) if moved else 0
        alone = written(Session.begin(game, initial, ["human", "human"], match.actions))
        assert along == alone, match.ply
    assert takebacks >= 5
    # each revision writes its turn in progress and its record's last entries; the turn just
    # played is not written again when the next begins
    assert after_moves["format_turn"] < 1.4 * moves and after_moves["format_moves"] < 1.2 * moves, after_moves


def test_a_record_is_written_by_the_games_hook_where_its_description_declares_whole_turns():
    # the server read the record's moves from the notation as played unless the game's class
    # overrode Game.format_moves (a comparison with the base class, which DESIGN rules out): an
    # instance that declares no whole-turn notation was replayed through the hook at every
    # revision; one that declares it is written by the hook (Nibble's a1+a9)
    from toy_nim import NimGame

    from abstracta.core.description import describe_basic

    class OwnRecords(NimGame):
        """Toy Nim that writes a whole-turn record only where an option declares it."""

        written = 0

        def describe(self):
            return describe_basic(self, title="Toy Nim", whole_turn_notation=self.options["stones"] == 5)

        def format_moves(self, initial, actions):
            OwnRecords.written += 1
            if not self.description.whole_turn_notation:
                return super().format_moves(initial, actions)
            return ["+".join(initial.action_to_string(a) for a in actions)]

    for stones, moves, written in ((7, ["3", "1", "2"], 0), (5, ["1+2"], 1)):
        OwnRecords.written = 0
        game = OwnRecords(stones=stones)
        initial = game.new_initial_state()
        match = Session.begin(game, initial, ["human", "human"])
        for text in moves[0].split("+") if "+" in moves[0] else moves:
            match.push(match.state.string_to_action(text))
        assert match.record().moves == moves and OwnRecords.written == written, stones
    nibble = abstracta.load_game("nibble", **SEED1)
    initial = nibble.new_initial_state()
    match = Session.begin(nibble, initial, ["human", "human"])
    for text in ("i9", "end", "a1", "a9"):
        match.push(match.state.string_to_action(text))
    assert match.strings == ["i9", "end", "a1", "a9"] and match.record().moves == ["i9", "end", "a1+a9"]


def test_the_seats_put_out_are_carried_from_session_to_session_as_counted_from_the_start():
    # out_at plays on from where the last session of its line left off (issue 44 §1); along a
    # line of 3-4 player games with takebacks and other moves played instead, it names what a
    # count from the start names
    from abstracta.core.game import seats_out_since

    met = 0
    for players in (3, 4):
        game = abstracta.load_game("slide-checkers", players=players)
        rng = random.Random(players)
        line = [Session.begin(game, game.new_initial_state(), ["human"] * players)]
        while len(line) < 260 and not line[-1].state.is_terminal():
            if len(line) > 5 and rng.random() < 0.1:
                line = line[:max(1, len(line) - rng.choice([1, 2, 7]))]  # back to an older session
            session = line[-1].copy()
            session.push(rng.choice(session.state.legal_actions()))
            line.append(session)
            since = seats_out_since(session.initial, session.actions)
            ordered = sorted(since.items(), key=lambda x: (x[1], x[0]))
            assert session.out_at() == [{"seat": s, "ply": p} for s, p in ordered]
            met += bool(since)
    assert met > 20  # seats were out along the way


@pytest.mark.parametrize("name", ["fanorona", "fibonacci", "fibonacci-cards", "nibble", "slide-checkers"])
def test_every_game_writes_along_a_line_what_it_writes_afresh(name):
    # each move is written on from the state of the session it was played on (the one copied
    # from), not replayed: with takebacks in between, the move list and the record of every
    # revision are a fresh session's
    from abstracta.core.turns import played_turns, turn_numbers
    from abstracta.play.requests import take_back

    def written(match: Session) -> tuple[list, list[str]]:
        movers, own = played_turns(match.initial, match.actions)
        return match.turn_texts(movers, turn_numbers(movers, own)), list(match.record_moves())

    game = abstracta.load_game(name)
    initial = game.new_initial_state()
    rng = random.Random(7)
    match = Session.begin(game, initial, ["human", "human"])
    takebacks = 0
    for _ in range(120):
        if match.ply > 3 and (match.state.is_terminal() or rng.random() < 0.1):
            match = take_back(match, match.ply - rng.choice([1, 2, 3]), 0.0).after
            takebacks += 1
        elif match.state.is_terminal():
            break
        else:
            match = match.copy()
            match.push(rng.choice(match.state.legal_actions()))
        assert written(match) == written(Session.begin(game, initial, ["human", "human"], match.actions)), match.ply
    assert takebacks >= 3
