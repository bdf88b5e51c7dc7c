"""The play session's moves (issue 37): the ply guard, whose turn, the seats that must be taken
first (issue 38 §1), all of a list or none, the readers of the notation, and the computer's
turn written in the game's order. Each act leaves the session it was aimed at unchanged."""

from __future__ import annotations

import pytest
from sessions import T0, nim, played, session_of

from abstracta.play import (ActionsPlayed, GameEnded, IllegalMove, Invalid, NotNow, NotYourTurn, NotYours,
                            StaleMove, read_turn, read_typed)


def test_a_move_returns_a_new_session_and_its_event():
    before = nim()
    progress = before.play({0}, ["2"], 0, T0)
    after = progress.after
    assert (before.ply, before.state.to_text()) == (0, "9 0")  # never changed
    assert (after.ply, after.state.to_text(), after.strings) == (1, "7 1", ["2"])
    assert progress.events == (ActionsPlayed(seat=0, first=0, actions=(1,), moves=("2",)),)
    assert progress.before is before and after.played_by() == [0]


def test_the_ply_guard_refuses_a_move_chosen_at_another_ply():
    session = played(nim(), "1")
    with pytest.raises(StaleMove) as refused:
        session.play({1}, ["1"], 0, T0)
    assert refused.value.extra == {"ply": 1}
    assert str(refused.value) == "stale move: it was chosen at ply 0, the game is at ply 1"
    assert refused.value.i18n == {"key": "error.stale", "params": {"ply": 0, "now": 1}}


def test_only_the_seat_to_move_plays_and_only_if_it_is_held():
    session = nim()
    with pytest.raises(NotYours) as refused:
        session.play({1}, ["1"], 0, T0)
    assert refused.value.i18n == {"key": "error.not_your_seat", "params": {"mover": 0}}
    with pytest.raises(NotYourTurn) as refused:
        session.play({0, 1}, ["1"], 0, T0, seat=1)
    assert str(refused.value) == "it is seat 0's turn, not seat 1's"
    computer = nim(players=("level:1", "human"))
    with pytest.raises(NotYourTurn) as refused:
        computer.play({0, 1}, ["1"], 0, T0)
    assert refused.value.i18n["key"] == "error.computer_turn"


def test_no_move_before_every_seat_is_taken_a_persons_or_the_computers():
    # issue 38 §1: an invited friend's seat not taken yet holds the game
    session = session_of("fanorona", ["human", "human"], options={"size": "dimy"}, seated={0})
    assert session.waiting_for == [1]
    with pytest.raises(NotNow) as refused:
        session.play({0}, ["b2-c3A"], 0, T0)
    assert str(refused.value) == "waiting for Black to join: no move is played before every seat is taken"
    assert refused.value.i18n == {"key": "error.waiting_seats",
                                  "params": {"who": [{"key": "fanorona.seat.1", "params": {}}], "n": 1}}
    computer = nim(players=("level:1", "human"), seated=set())
    with pytest.raises(NotNow):
        computer.play_computer(0, T0)
    taken = computer.take_seat(1, T0).after
    assert taken.waiting_for == [] and taken.play_computer(0, T0).after.ply == 1
    # a seat without a name is said as the browser says it
    assert "waiting for Player 2 to join" in str(pytest.raises(NotNow, nim(seated={0}).play, {0}, ["1"], 0, T0).value)


def test_a_finished_game_takes_no_move():
    session = played(nim(3), "3")
    assert session.over and session.result == [1.0, -1.0] and session.termination == "normal"
    with pytest.raises(NotNow) as refused:
        session.play({1}, ["1"], 1, T0)
    assert refused.value.i18n == {"key": "error.game_over", "params": {}}


def test_the_game_ends_by_the_rules_with_its_event():
    progress = nim(2).play({0}, ["2"], 0, T0)
    assert progress.events[-1] == GameEnded(result=(1.0, -1.0), termination="normal")


def test_a_list_of_moves_is_played_whole_within_one_turn_or_not_at_all():
    session = session_of("nibble", ["human", "human"], options={"seed": "1", "first_player": "0"})
    after = session.play({0}, ["a1", "a9"], 0, T0).after  # one turn: two discs of its colour
    assert after.strings[:2] == ["a1", "a9"] and after.played_by()[:2] == [0, 0]
    with pytest.raises(Invalid) as refused:
        played(nim(), "1").play({1}, ["1", "1"], 1, T0)  # toy Nim: one action a turn
    assert str(refused.value) == "'1': the turn was over after '1'"
    with pytest.raises(IllegalMove):
        session.play({0}, ["a1", "z99"], 0, T0)  # the first is legal: neither is played
    assert session.ply == 0


def test_the_readers_of_the_notation():
    session = session_of("nibble", ["human", "human"], options={"seed": "1", "first_player": "0"})
    # typed at the prompt (and the view's whole turns): a one-disc turn takes it and ends the turn
    assert session.play({0}, ["i9"], 0, T0, read=read_typed).after.strings == ["i9", "end"]
    assert session.play({0}, ["i9"], 0, T0, read=read_turn).after.strings == ["i9", "end"]
    # one action: the take alone, the turn still open
    assert session.play({0}, ["i9"], 0, T0).after.strings == ["i9"]
    with pytest.raises(IllegalMove) as refused:
        session.play({0}, ["z99"], 0, T0)
    assert refused.value.i18n is not None
    with pytest.raises(Invalid):
        nim().play({0}, ["1"], 0, T0, read=read_turn)  # toy Nim has no whole-turn notation
    with pytest.raises(NotNow):  # a whole turn is read from its start only
        session.play({0}, ["a1"], 0, T0).after.play({0}, ["a9"], 1, T0, read=read_turn)


def test_the_computers_turn_is_written_in_the_games_order():
    # a bot takes a turn's discs in its own order; the session writes the turn as the spec does
    session = session_of("nibble", ["level:1", "human"], options={"seed": "1", "first_player": "0"})
    first = session.play_computer(session.state.string_to_action("a9"), T0)
    assert first.after.strings == ["a9"] and first.after.to_move() == 0  # the turn goes on
    assert first.events == (ActionsPlayed(seat=0, first=0, actions=tuple(first.after.actions), moves=("a9",),
                                          computer=True),)
    second = first.after.play_computer(first.after.state.string_to_action("a1"), T0)
    # both discs of the colour taken: the turn is over, written a1 then a9 (one entry, a1+a9)
    assert second.after.strings == ["a1", "a9"] and second.after.record().moves == ["a1+a9"]
    assert second.events == (ActionsPlayed(seat=0, first=0, actions=tuple(second.after.actions),
                                           moves=("a1", "a9"), computer=True),)
    assert second.after.to_move() == 1
    with pytest.raises(NotYourTurn):
        second.after.play_computer(0, T0)  # a person's turn now
    with pytest.raises(IllegalMove):
        nim(players=("level:1", "human")).play_computer(7, T0)
