"""Undo and takebacks of a play session (README "Takebacks"): at once when the acting seats
hold every person seat, else asked of the others and done once all accept; never back past an
action that revealed something (its words are the session's alone)."""

from __future__ import annotations

import pytest
from sessions import T0, nim, played, session_of

from abstracta.core.registry import load_game
from abstracta.play import (NotNow, NotYours, RequestEnded, TakebackAccepted, TakebackAsked, TakenBack)


def test_reveals_marks_a_draw_and_not_a_play():
    # the barrier's ground (State.reveals); moved here from the server's tests
    state = load_game("fibonacci-cards", seed=3, first_player=0).new_initial_state()
    assert state.legal_action_strings() == ["draw"]
    assert state.reveals(state.legal_actions()[0]) is True  # the drawer sees the 4s
    state.apply_action(state.legal_actions()[0])
    play = state.string_to_action("Jc/3")
    assert state.reveals(play) is False  # the card played is named by its notation
    nim_state = load_game("toy-nim").new_initial_state()
    assert nim_state.reveals(0) is False  # perfect information, no chance


def test_undo_against_the_computer_goes_back_to_the_persons_turn():
    session = nim(players=("human", "level:1"))
    session = session.play({0}, ["1"], 0, T0).after
    session = session.play_computer(0, T0).after
    progress = session.undo({0}, T0)
    assert progress.after.ply == 0 and progress.after.state.to_text() == "9 0"
    assert progress.events == (TakenBack(to_ply=0, from_ply=2),)


def test_undo_never_goes_back_past_a_drawn_card():
    session = session_of("fibonacci-cards", ["human", "level:1"], options={"seed": "3", "first_player": "0"})
    session = session.play({0}, ["draw"], 0, T0).after
    if session.to_move() == 1:
        session = session.play_computer(session.state.legal_actions()[0], T0).after
    with pytest.raises(NotNow) as refused:
        session.undo({0}, T0)
    assert str(refused.value) == "ply 1 (draw) showed hidden information or a chance outcome; no undo goes back past it"
    assert refused.value.i18n == {"key": "error.undo_barrier", "params": {"ply": 1, "move": "draw"}}
    with pytest.raises(NotNow):  # nor a takeback asked for
        session.ask_takeback({0}, T0)


def test_undo_refusals():
    with pytest.raises(NotNow, match="no earlier turn of yours"):
        nim(players=("human", "level:1")).undo({0}, T0)
    between_people = played(nim(), "1")
    with pytest.raises(NotNow, match="seat 1 also played by people: ask for a takeback"):
        between_people.undo({0}, T0)
    assert between_people.undo({0, 1}, T0).after.ply == 0  # one device holding both: at once
    with pytest.raises(NotNow, match="no seat is played by a person"):
        nim(players=("level:1", "level:1")).undo({0}, T0)
    resigned = between_people.resign(0, T0).after
    with pytest.raises(NotNow, match="the game was resigned; it cannot be taken back"):
        resigned.undo({0, 1}, T0)
    over = played(nim(3), "3")
    with pytest.raises(NotNow, match="moves of a finished game cannot be taken back"):
        over.undo({0, 1}, T0)


def test_a_takeback_between_people_needs_the_others_consent():
    session = played(nim(), "1", "2")
    progress = session.ask_takeback({1}, T0)
    assert progress.events == (TakebackAsked(by=1, to_ply=1),)
    asked = progress.after
    assert asked.live.takeback == {"by": 1, "to_ply": 1, "at_ply": 2, "accepted": []}
    with pytest.raises(NotNow, match="seat 1 already asked for a takeback"):
        asked.ask_takeback({1}, T0)
    with pytest.raises(NotYours) as refused:
        asked.answer_takeback({1}, True, T0)  # the asker accepting its own request
    assert refused.value.i18n["key"] == "error.takeback_not_yours"
    done = asked.answer_takeback({0}, True, T0)
    assert done.after.ply == 1 and done.after.live.takeback is None
    assert done.after.live.takeback_ended == {"by": 1, "how": "accepted", "seat": 0, "at_ply": 1, "accepted": [0]}
    assert isinstance(done.events[0], TakenBack) and done.events[1].how == "accepted"
    declined = asked.answer_takeback({0}, False, T0)
    assert declined.after.ply == 2 and declined.after.live.takeback_ended["how"] == "declined"
    withdrawn = asked.answer_takeback({1}, False, T0)
    assert withdrawn.after.live.takeback_ended == {"by": 1, "how": "withdrawn", "seat": 1, "at_ply": 2, "accepted": []}
    with pytest.raises(NotNow, match="no takeback request is pending"):
        session.answer_takeback({0}, True, T0)


def test_any_move_ends_a_takeback_request():
    asked = played(nim(), "1", "2").ask_takeback({1}, T0).after  # seat 0 to move
    lapsed = asked.play({0}, ["1"], 2, T0)
    assert lapsed.after.live.takeback is None and lapsed.after.live.takeback_ended["how"] == "lapsed"
    assert RequestEnded("takeback", lapsed.after.live.takeback_ended) in lapsed.events
    # the asker playing on withdraws it
    mine = played(nim(), "1").ask_takeback({0}, T0).after  # seat 1 to move; seat 0 asks
    assert mine.live.takeback["by"] == 0
    withdrawn = mine.answer_takeback({1}, True, T0).after
    assert withdrawn.ply == 0


def test_three_people_every_other_must_accept_and_a_seat_out_of_time_does_not_answer():
    from abstracta.play import Live

    session = session_of("slide-checkers", ["human"] * 3, "Ga1,Bl12,Rf6 M G", {"players": 3},
                         live=Live.with_clock({"initial": 60.0}, 3, started=True))
    session.start_clock(T0)
    session = session.play({0}, [session.state.legal_action_strings()[0]], 0, T0).after
    asked = session.ask_takeback({0}, T0).after
    partly = asked.answer_takeback({1}, True, T0)
    assert partly.events == (TakebackAccepted(seats=(1,)),) and partly.after.ply == 1
    assert partly.after.answer_takeback({2}, True, T0).after.ply == 0
    # Blue's flag falls (its clock ran since Green's move): the request is void, no seat's doing,
    # and Blue, the computer's since, has no say in the next one
    flagged = asked.flag(T0 + 60)
    blue_out = flagged.after
    assert blue_out.live.out == [1] and blue_out.live.takeback is None
    assert blue_out.live.takeback_ended == {"by": 0, "how": "void", "seat": None, "at_ply": 1, "accepted": []}
    again = blue_out.play_computer(blue_out.state.legal_actions()[0], T0 + 61).after
    again = again.play({2}, [again.state.legal_action_strings()[0]], again.ply, T0 + 62).after
    asked = again.ask_takeback({0}, T0 + 63).after
    with pytest.raises(NotYours) as refused:
        asked.answer_takeback({1}, True, T0 + 64)
    assert refused.value.i18n["key"] == "error.takeback_out"
    assert asked.answer_takeback({2}, True, T0 + 64).after.ply == 0  # Red alone answers now: back to Green's turn
