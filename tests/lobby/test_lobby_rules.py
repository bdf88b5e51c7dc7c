"""The lobby's rules over its database (issue 42): time controls as players choose them; a seek
listed until taken (never by its seeker), withdrawn, or expired 60 s after its seeker's last
connection closed or 10 minutes after it was made; a rating range; quick pairing pairs two of
one pool and offers the computer after 30 s; challenges and their expiry; blocks."""

from __future__ import annotations

import pytest

from abstracta.lobby import Conflict, Gone, InvalidInput, Refused, TimeControl, Unknown
from abstracta.lobby.controls import check_spec

# (the ranges people choose a clock in, and a seek's rating range and seat, are checked where a
# request is read: tests/server/test_lobby_api.py; the lobby takes the checked values)
LIVE = TimeControl.live(300, 3)


def account(lobby, name):
    person, _codes = lobby.people.accounts.add(name, "correct horse")
    return person


def test_a_time_control_is_the_clock_the_server_keeps():
    assert TimeControl.live(300, 3).clock == {"initial": 300.0, "increment": 3.0}
    assert TimeControl.live(15).clock == {"initial": 15.0, "increment": 0.0}
    assert TimeControl.days(2).clock == {"per_turn": 172800.0}
    # one pool key however the seconds were written (a JSON 300 or 300.0)
    assert check_spec("toy-nim", {}, TimeControl.live(300, 3), False)[0].key() == \
        check_spec("toy-nim", {}, TimeControl.live(300.0, 3.0), False)[0].key()


def test_a_game_of_two_players_with_its_options_as_a_record_keeps_them():
    spec, game = check_spec("fanorona", {"size": "telo"}, LIVE, False)
    assert (spec.game, spec.options, spec.clock) == ("fanorona", {"size": "telo"}, {"initial": 300.0, "increment": 3.0})
    assert check_spec("fanorona", {}, None, True)[0].clock is None
    with pytest.raises(InvalidInput) as refused:
        check_spec("slide-checkers", {"players": 3}, None, False)
    assert refused.value.key == "lobby.error.two_players"
    with pytest.raises(InvalidInput):
        check_spec("fanorona", {"size": "huge"}, None, False)
    with pytest.raises(InvalidInput):
        check_spec("no-such-game", {}, None, False)


def test_a_seek_is_taken_once_and_never_by_its_seeker(lobby):
    anna, ben, cara = account(lobby, "anna"), account(lobby, "ben"), account(lobby, "cara")
    seek = lobby.seeks.open(anna, "toy-nim", {"stones": 9}, LIVE, False, seat=1)
    assert [s["id"] for s in lobby.seeks.listed(None)] == [seek["id"]]
    with pytest.raises(Conflict):
        lobby.seeks.take(anna, seek["id"])
    match = lobby.seeks.take(ben, seek["id"])
    spec, players, seated, source = lobby.start.games[-1]
    assert (match, players, seated, source) == ("m1", ["human", "human"], {1: anna.id, 0: ben.id}, "seek")
    assert spec.clock == {"initial": 300.0, "increment": 3.0}
    with pytest.raises(Gone):
        lobby.seeks.take(cara, seek["id"])
    assert lobby.seeks.listed(None) == []
    assert [g["id"] for g in lobby.started(anna.id)] == ["m1"] == [g["id"] for g in lobby.started(ben.id)]
    assert lobby.game("m1") == {"source": "seek", "rated": False}


def test_a_seek_expires_60_s_after_its_seekers_last_connection_or_after_10_minutes(lobby, clock):
    anna, ben = account(lobby, "anna"), account(lobby, "ben")
    gone = lobby.gone_since
    gone.online.add(anna.id)
    kept = lobby.seeks.open(anna, "toy-nim", {}, LIVE, False)
    lone = lobby.seeks.open(ben, "toy-nim", {}, LIVE, False)  # ben has no connection: 60 s from now
    clock.advance(seconds=59)
    assert {s["id"] for s in lobby.seeks.listed(None)} == {kept["id"], lone["id"]}
    clock.advance(seconds=1)
    assert [s["id"] for s in lobby.seeks.listed(None)] == [kept["id"]]
    clock.advance(seconds=300)
    gone.online.discard(anna.id)  # her page closes: 60 s more
    gone.since[anna.id] = clock.stamp()
    assert lobby.seeks.sweep() == pytest.approx(60.0)
    clock.advance(seconds=30)
    gone.online.add(anna.id)  # back within the minute: the seek stays, up to its 10 minutes
    assert lobby.seeks.sweep() == pytest.approx(600 - 390)
    clock.advance(seconds=210)
    assert lobby.seeks.listed(None) == []
    with pytest.raises(Gone):
        lobby.seeks.take(ben, kept["id"])


def test_a_rating_range_and_a_rated_seek(lobby):
    anna, ben, guest = account(lobby, "anna"), account(lobby, "ben"), lobby.people.sessions.start_guest("ip").principal.person
    seek = lobby.seeks.open(anna, "fanorona", {"size": "telo"}, LIVE, True, rating_range=(1600, None))
    assert lobby.seeks.listed(ben)[0]["refusal"] == "range"
    with pytest.raises(Conflict):
        lobby.seeks.take(ben, seek["id"])
    with pytest.raises(Refused):
        lobby.seeks.open(guest, "fanorona", {"size": "telo"}, LIVE, True)  # guests play casual games


def test_quick_pairing_pairs_two_of_one_pool_and_offers_the_computer_after_30_s(lobby, clock):
    anna, ben, cara = account(lobby, "anna"), account(lobby, "ben"), account(lobby, "cara")
    for p in (anna, ben, cara):
        lobby.gone_since.online.add(p.id)
    state = lobby.quick.wait(anna, "toy-nim", {"stones": 9}, LIVE, False)
    assert state["match"] is None and state["computer"] is None
    lobby.quick.wait(cara, "toy-nim", {"stones": 12}, LIVE, False)  # another pool
    assert lobby.quick.wait(ben, "toy-nim", {"stones": 9}, LIVE, False)["match"] == "m1"
    assert lobby.quick.state(anna)["match"] == "m1" and sorted(lobby.start.games[0][2].values()) == [anna.id, ben.id]
    assert lobby.quick.state(cara)["match"] is None
    clock.advance(seconds=30)
    offer = lobby.quick.state(cara)["computer"]
    assert offer is not None and 1 <= offer["level"] <= 6
    match = lobby.quick.play_computer(cara)
    spec, players, seated, source = lobby.start.games[-1]
    assert match == "m2" and source == "computer" and players.count("human") == 1
    assert players[1 - list(seated)[0]] == f"level:{offer['level']}" and not spec.rated
    assert lobby.quick.state(cara) is None


def test_a_wait_ends_when_its_person_has_been_gone_10_s(lobby, clock):
    anna = account(lobby, "anna")
    lobby.quick.wait(anna, "toy-nim", {}, LIVE, False)  # no connection: seen by the request only
    clock.advance(seconds=11)
    lobby.quick.pair()
    assert lobby.quick.state(anna) is None


def test_challenges_accepted_declined_and_expired(lobby, clock):
    anna, ben = account(lobby, "anna"), account(lobby, "ben")
    sent = lobby.challenges.send(anna, "BEN", "toy-nim", {}, LIVE, False, seat=0)
    assert lobby.challenges.listed(ben)["in"][0]["id"] == sent["id"]
    with pytest.raises(Unknown):
        lobby.challenges.answer(anna, sent["id"], True)  # not a challenge to her
    assert lobby.challenges.answer(ben, sent["id"], True) == {"status": "accepted", "match": "m1"}
    assert lobby.start.games[-1][2] == {0: anna.id, 1: ben.id}
    again = lobby.challenges.send(anna, "ben", "toy-nim", {}, LIVE, False)
    assert lobby.challenges.answer(ben, again["id"], False)["status"] == "declined"
    with pytest.raises(Gone):
        lobby.challenges.answer(ben, again["id"], True)
    late = lobby.challenges.send(anna, "ben", "toy-nim", {}, LIVE, False)
    clock.advance(minutes=10)
    assert lobby.challenges.listed(ben)["in"] == []
    assert {c["id"]: c["status"] for c in lobby.challenges.listed(anna)["out"]}[late["id"]] == "expired"
    slow = lobby.challenges.send(anna, "ben", "toy-nim", {}, TimeControl.days(1), False)
    clock.advance(days=2)
    assert [c["id"] for c in lobby.challenges.listed(ben)["in"]] == [slow["id"]]  # correspondence waits longer
    with pytest.raises(Conflict):
        lobby.challenges.send(anna, "anna", "toy-nim", {}, None, False)
    with pytest.raises(Unknown):
        lobby.challenges.send(anna, "nobody", "toy-nim", {}, None, False)


def test_a_block_ends_challenges_and_pairing_between_two_and_is_undone(lobby):
    anna, ben = account(lobby, "anna"), account(lobby, "ben")
    open_one = lobby.challenges.send(anna, "ben", "toy-nim", {}, None, False)
    lobby.blocks.block(ben, "Anna")
    assert lobby.blocks.blocks(ben.id, anna.id) and not lobby.blocks.blocks(anna.id, ben.id)
    assert lobby.blocks.between(anna.id, ben.id) and lobby.blocks.either_of(anna.id) == {ben.id}
    assert lobby.challenges.listed(ben)["in"] == []
    assert {c["id"]: c["status"] for c in lobby.challenges.listed(anna)["out"]}[open_one["id"]] == "cancelled"
    with pytest.raises(Refused):
        lobby.challenges.send(anna, "ben", "toy-nim", {}, None, False)
    with pytest.raises(Refused):
        lobby.challenges.send(ben, "anna", "toy-nim", {}, None, False)  # the blocker cannot either
    seek = lobby.seeks.open(anna, "toy-nim", {}, None, False)
    assert lobby.seeks.listed(ben) == []
    with pytest.raises(Refused):
        lobby.seeks.take(ben, seek["id"])
    with pytest.raises(InvalidInput):
        lobby.blocks.block(ben, "ben")
    lobby.blocks.unblock(ben, "anna")
    assert lobby.blocks.listed(ben) == [] and lobby.seeks.take(ben, seek["id"]) == "m1"


def test_a_live_game_begun_ends_the_players_quick_wait_and_live_seeks_not_correspondence_ones(lobby):
    anna, ben = account(lobby, "anna"), account(lobby, "ben")
    lobby.gone_since.online |= {anna.id, ben.id}
    daily = lobby.seeks.open(anna, "toy-nim", {}, TimeControl.days(1), False)
    other = lobby.seeks.open(anna, "toy-nim", {"stones": 7}, LIVE, False)
    taken = lobby.seeks.open(anna, "toy-nim", {"stones": 9}, LIVE, False)
    lobby.quick.wait(anna, "toy-nim", {"stones": 11}, LIVE, False)
    assert lobby.quick.state(anna)["match"] is None
    heard = []
    lobby.listeners.append(heard.append)
    lobby.seeks.take(ben, taken["id"])
    assert lobby.quick.state(anna) is None  # not paired into a second game while she plays this one
    assert [s["id"] for s in lobby.seeks.listed(None)] == [daily["id"]]
    assert None in heard and any(h and anna.id in h for h in heard)  # everyone's lobby, and hers
    with pytest.raises(Gone):
        lobby.seeks.take(ben, other["id"])


def test_a_list_of_seeks_reads_its_ratings_in_one_query(lobby, clock):
    # the list is made for every open lobby at every change: one read per seek would be
    # (lobbies x seeks) reads a change
    from sqlalchemy import event

    from abstracta.people.tables import RatingRow

    anna, ben, cara, dora = (account(lobby, n) for n in ("anna", "ben", "cara", "dora"))
    for who, how in ((anna, (None, None)), (ben, (1600, None)), (cara, (None, None))):
        lobby.seeks.open(who, "fanorona", {"size": "telo"}, LIVE, True, rating_range=how)
        lobby.seeks.open(who, "fanorona", {"size": "telo"}, TimeControl.days(2), False)
        lobby.seeks.open(who, "toy-nim", {}, LIVE, False)  # no pool: nothing to read
    pool = lobby._pool(check_spec("fanorona", {"size": "telo"}, LIVE, True)[0])
    with lobby.db.writing() as s:
        for who, rating in ((anna, 1720.0), (dora, 1650.0)):
            s.add(RatingRow(person_id=who.id, pool=pool, rating=rating, deviation=60.0, volatility=0.06,
                            games=30, rated_at=clock()))
    reads: list[str] = []

    def note(conn, cursor, statement, parameters, context, executemany):
        if " ratings" in statement.lower():
            reads.append(statement)

    event.listen(lobby.db.engine, "before_cursor_execute", note)
    try:
        seen = lobby.seeks.listed(dora)
    finally:
        event.remove(lobby.db.engine, "before_cursor_execute", note)
    assert len(seen) == 9
    assert len(reads) == 1
    live = [(s["player"], s["rating"], s["provisional"], s["refusal"]) for s in seen
            if s["game"] == "fanorona" and s["rated"]]
    # anna's rating now; ben's range admits dora's 1650; nobody rated yet is 1500?
    assert live == [("anna", 1720, False, None), ("ben", 1500, True, None), ("cara", 1500, True, None)]
