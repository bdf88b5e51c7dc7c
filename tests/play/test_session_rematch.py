"""A rematch (issue 42 §3): once the game is over either person's seat offers, the others accept,
and the rematch is agreed with the seats gone round by one (two players swap); a decline drops it,
the offerer withdraws it; an aborted game has none."""

from __future__ import annotations

import pytest
from sessions import T0, nim, played, session_of

from abstracta.play import Live, NotNow, NotYours, RematchAgreed, RematchOffered, RequestEnded
from abstracta.play.rematch import original_players, rematch_seats


def finished():
    session = nim(3)
    return played(session, "3")  # seat 0 takes the last stone and wins


def test_one_offers_the_other_accepts_and_the_seats_swap():
    over = finished()
    assert over.over
    progress = over.offer_rematch({0}, "next1")
    assert progress.events == (RematchOffered(0, (0,)),)
    offered = progress.after
    assert offered.live.rematch == {"by": 0, "accepted": [0], "next": None}
    with pytest.raises(NotNow, match="already"):
        offered.offer_rematch({0}, "next2")
    agreed = offered.offer_rematch({1}, "next2")  # an offer of the other's accepts
    assert agreed.events == (RematchAgreed("next2", (1, 0), ("human", "human")),)
    assert agreed.after.live.rematch["next"] == "next2"
    with pytest.raises(NotNow) as started:
        agreed.after.answer_rematch({0}, True, "next3")
    assert started.value.extra["next"] == "next2"


def test_a_decline_drops_it_and_the_offerer_withdraws_it():
    offered = finished().offer_rematch({0}, "x").after
    declined = offered.answer_rematch({1}, False, "x")
    assert declined.events == (RequestEnded("rematch", {"by": 0, "how": "declined", "seat": 1}),)
    with pytest.raises(NotNow):
        declined.after.answer_rematch({1}, False, "x")
    again = declined.after.offer_rematch({1}, "y").after  # a new offer, by the other this time
    assert again.live.rematch["by"] == 1
    withdrawn = again.answer_rematch({1}, False, "y").after
    assert withdrawn.live.rematch["how"] == "withdrawn"


def test_not_while_it_runs_nor_after_an_abort_nor_by_a_stranger():
    with pytest.raises(NotNow, match="over"):
        nim().offer_rematch({0}, "x")
    aborted = nim().abort({0}, T0).after
    with pytest.raises(NotNow, match="aborted"):
        aborted.offer_rematch({0}, "x")
    with pytest.raises(NotYours):
        finished().offer_rematch(set(), "x")


def test_against_the_computer_it_is_agreed_at_once_and_the_computer_changes_seat():
    over = played(nim(3, players=("human", "level:2")), "3")
    progress = over.offer_rematch({0}, "n")
    assert progress.events == (RematchAgreed("n", (1, 0), ("level:2", "human")),)


def test_three_players_go_round_and_a_seat_out_on_time_was_a_persons():
    assert rematch_seats(3) == (2, 0, 1) and rematch_seats(2) == (1, 0)
    session = session_of("slide-checkers", ["human"] * 3, "Ga1,Bl12,Rf6 M G", {"players": 3},
                         live=Live(out=[2]))
    session.players[2] = "level:1"  # as a flag leaves it
    assert original_players(session) == ["human"] * 3
