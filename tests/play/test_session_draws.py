"""Draw offers of a play session (README "Draw offers"): every seat still in must agree (a seat
out keeps its loss), the computer never agrees, a seat that had to answer and moves instead
lets the offer lapse, and a seat whose offer ended waits three turns of its own to offer again."""

from __future__ import annotations

import pytest
from sessions import T0, nim, played, session_of

from abstracta.play import DRAW_AGAIN_TURNS, DrawAccepted, DrawOffered, GameEnded, NotNow, NotYours, RequestEnded


def test_an_offer_accepted_draws_the_game_and_the_record_says_who_offered():
    session = played(nim(), "1")
    offered = session.offer_draw({1}, T0)
    assert offered.events == (DrawOffered(by=1, accepted=()),)
    assert offered.after.live.draw == {"by": 1, "at_ply": 1, "accepted": []}
    assert offered.after.draw_waiting(offered.after.live.draw) == [0]
    with pytest.raises(NotNow) as refused:
        offered.after.offer_draw({1}, T0)
    assert refused.value.i18n == {"key": "error.draw_pending", "params": {"seat": 1}}
    with pytest.raises(NotYours) as refused:
        offered.after.answer_draw({1}, True, T0)
    assert refused.value.i18n["key"] == "error.draw_not_yours"
    drawn = offered.after.answer_draw({0}, True, T0)
    assert drawn.events == (GameEnded(result=(0.0, 0.0), termination="agreement"),)
    after = drawn.after
    assert (after.result, after.termination, after.tags["DrawOffered"]) == ([0.0, 0.0], "agreement", "1")
    record = after.record()
    assert record.termination == "agreement" and record.tags["DrawOffered"] == "1"
    record.replay()  # the one rule of an agreed ending (Record._check_agreement)


def test_an_offer_made_while_the_others_offer_waits_accepts_it_and_one_device_draws_at_once():
    offered = played(nim(), "1").offer_draw({1}, T0).after
    assert offered.offer_draw({0}, T0).after.termination == "agreement"
    assert nim().offer_draw({0, 1}, T0).after.termination == "agreement"  # nobody else to ask


def test_the_computer_never_agrees_so_no_draw_is_offered_to_it():
    session = nim(players=("human", "level:1"))
    mine, refused = session.draw_refusal({0})
    assert mine == {0} and refused.i18n == {"key": "error.draw_computer", "params": {"seat": 1}}
    with pytest.raises(NotNow, match="seat 1 is played by the computer, which does not agree to draws"):
        session.offer_draw({0}, T0)
    with pytest.raises(NotYours):  # a seat held by nobody here offers nothing
        nim().offer_draw(set(), T0)


def test_declined_withdrawn_and_the_wait_of_three_turns_of_ones_own():
    session = played(nim(30), "1")
    offered = session.offer_draw({1}, T0).after
    declined = offered.answer_draw({0}, False, T0)
    note = declined.after.live.draw_ended
    assert note == {"by": 1, "how": "declined", "seat": 0, "at_ply": 1, "accepted": []}
    assert declined.events == (RequestEnded("draw", note),)
    assert offered.answer_draw({1}, False, T0).after.live.draw_ended["how"] == "withdrawn"
    waiting = declined.after
    assert waiting.draw_again_in(1) == DRAW_AGAIN_TURNS and waiting.draw_again_in(0) == 0
    with pytest.raises(NotNow) as refused:
        waiting.offer_draw({1}, T0)
    assert str(refused.value) == "you may offer a draw again after 3 more turns of yours"
    assert refused.value.i18n == {"key": "error.draw_again", "params": {"n": 3}}
    assert waiting.offer_draw({0}, T0).after.live.draw["by"] == 0  # the other seat does not wait
    for turn in range(DRAW_AGAIN_TURNS):  # counted in turns of its own
        waiting = played(waiting, "1", "1")
        assert waiting.draw_again_in(1) == DRAW_AGAIN_TURNS - turn - 1
    assert waiting.offer_draw({1}, T0).after.live.draw["by"] == 1


def test_the_offer_lapses_when_a_seat_to_answer_moves_not_when_the_offerer_does():
    offered = nim().offer_draw({0}, T0).after  # seat 0 offers on its own turn
    stands = offered.play({0}, ["1"], 0, T0).after
    assert stands.live.draw == {"by": 0, "at_ply": 0, "accepted": []}
    lapsed = stands.play({1}, ["1"], 1, T0)
    assert lapsed.after.live.draw is None
    assert lapsed.after.live.draw_ended == {"by": 0, "how": "lapsed", "seat": 1, "at_ply": 2, "accepted": []}
    assert lapsed.after.live.draw_again == {"0": 2}


def test_a_takeback_or_a_resignation_ends_the_offer():
    offered = played(nim(), "1", "1").offer_draw({0}, T0).after
    assert offered.undo({0, 1}, T0).after.live.draw is None
    resigned = offered.resign(1, T0).after
    assert resigned.live.draw is None and resigned.termination == "resignation"
    # a wait counts from the position gone back to
    waiting = played(nim(), "1", "1", "1")
    waiting = waiting.offer_draw({1}, T0).after.answer_draw({0}, False, T0).after
    assert waiting.live.draw_again == {"1": 3}
    assert waiting.undo({0, 1}, T0).after.live.draw_again == {"1": 2}


def test_three_players_every_other_seat_still_in_must_accept():
    session = session_of("slide-checkers", ["human"] * 3, options={"players": 3})
    offered = session.offer_draw({0}, T0).after
    partly = offered.answer_draw({1}, True, T0)
    assert partly.events == (DrawAccepted(seats=(1,)),) and partly.after.live.draw["accepted"] == [1]
    declined = partly.after.answer_draw({2}, False, T0).after
    assert declined.live.draw_ended == {"by": 0, "how": "declined", "seat": 2, "at_ply": 0, "accepted": [1]}
    assert partly.after.answer_draw({2}, True, T0).after.result == [0.0, 0.0, 0.0]


def test_a_seat_the_rules_put_out_is_not_asked_and_keeps_its_loss():
    session = session_of("slide-checkers", ["human"] * 3, "Ga1,Bl12 M G", {"players": 3})
    assert session.out_seats == {2} and session.draw_seats() == [0, 1]
    offered = session.offer_draw({0}, T0).after
    assert offered.draw_waiting(offered.live.draw) == [1]
    with pytest.raises(NotYours) as refused:
        offered.answer_draw({2}, True, T0)
    assert refused.value.i18n["key"] == "error.draw_out"
    after = offered.answer_draw({1}, True, T0).after
    assert after.result == [0.0, 0.0, -1.0]
    after.record().replay()


def test_a_move_that_puts_a_seat_out_or_ends_the_game_voids_the_offer():
    offered = nim(2).offer_draw({1}, T0).after  # seat 0 (to move) must answer...
    over = offered.play({0}, ["2"], 0, T0)  # ...and its move ends the game: lapsed as it moved
    assert over.after.over and over.after.live.draw is None
    assert over.after.live.draw_ended["how"] == "lapsed"
    offered = session_of("slide-checkers", ["human"] * 3, "Rc3,Bb2,Bk11,Gl12,Gk12 M G",
                         {"players": 3}).offer_draw({1, 2}, T0).after  # Blue, with Red's agreement
    assert offered.live.draw == {"by": 1, "at_ply": 0, "accepted": [2]}
    offered = offered.answer_draw({0}, True, T0)
    assert offered.after.termination == "agreement"


def test_a_game_whose_rules_have_no_draws_offers_none_and_agrees_none():
    # nibble.md §5 "there are no draws": no offer, even from a device holding both seats
    session = session_of("nibble", ("human", "human"), options={"seed": 1})
    assert session.game.description.draws is False
    for held in ({0}, {1}, {0, 1}):
        mine, refused = session.draw_refusal(held)
        assert mine == set() and isinstance(refused, NotNow)
        assert refused.i18n == {"key": "error.draw_none", "params": {}}
        with pytest.raises(NotNow, match="this game has no draws: its rules always decide a winner"):
            session.offer_draw(held, T0)
    # an offer stored before the game said so is declined or withdrawn, never agreed
    stale = session.copy()
    stale.live.draw = {"by": 0, "at_ply": 0, "accepted": []}
    with pytest.raises(NotNow) as refused:
        stale.answer_draw({1}, True, T0)
    assert refused.value.i18n["key"] == "error.draw_none" and stale.result is None
    declined = stale.answer_draw({1}, False, T0).after
    assert declined.live.draw is None and declined.result is None and not declined.over
    # a game with draws still offers one
    assert session_of("fanorona", ("human", "human"), options={"size": "telo"}).draw_refusal({0}) == ({0}, None)
