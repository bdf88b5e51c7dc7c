"""Requests of the social side at the same moment, as tests/server/test_lobby_races.py holds the
lobby's seeks: a block clicked twice, "Notify me" tapped twice (or in two tabs of one browser),
a rematch accepted twice by requests that two workers answer, a seek or a challenge withdrawn as
it is taken, Play now clicked again as the first click is paired. Each runs on SQLite and, with
``ABSTRACTA_TEST_DB_URL`` (as CI sets it), on PostgreSQL, where the workers do not queue their
writes: there alone a test of a lock fails without it. The rematch's and Play now's fail on
both: an order of steps, not of transactions (the rematch's two workers are two threads of one
process here).

The moment is made deterministic by holding each transaction, its rows written, until the other
gets there too (or 1.5 s, when the database holds the other back)."""

from __future__ import annotations

from test_lobby_api import app, anna, person  # noqa: F401 - app and anna are fixtures
from test_lobby_races import HeldWrites, Meeting, at_once
from test_server_webpush import Browser

DAY = 86400


def texts(answers) -> list[str]:
    return [getattr(a, "text", repr(a)) for a in answers]


def test_a_block_clicked_twice_at_once_blocks_once(app, anna, monkeypatch):
    # each read "not blocked yet" and added the block: on PostgreSQL the second met the first's
    # key (500)
    ben = person(app, "ben")
    blocks = app.state.lobby.blocks
    monkeypatch.setattr(blocks, "db", HeldWrites(blocks.db, Meeting()))
    answers = at_once(*[lambda: anna.post("/api/blocks", json={"name": "ben"})] * 2)
    monkeypatch.undo()
    assert [getattr(a, "status_code", 0) for a in answers] == [201, 201], texts(answers)
    assert [b["name"] for b in anna.get("/api/blocks").json()] == ["ben"]
    assert ben.post("/api/challenges", json={"to": "anna", "game": "toy-nim", "options": {"stones": 9},
                                             "clock": {"initial": 300, "increment": 3}}).status_code == 403


def test_two_blocks_at_once_past_the_limit_leave_the_limit_open(app, anna, monkeypatch):
    # each counted the blocks before the other's was written: one past the limit
    from abstracta.lobby import challenges
    from abstracta.lobby.tables import BlockRow

    monkeypatch.setattr(challenges, "BLOCKS_PER_PERSON", 2)
    for name in ("ben", "cara", "dan"):
        person(app, name)
    assert anna.post("/api/blocks", json={"name": "ben"}).status_code == 201
    blocks = app.state.lobby.blocks
    monkeypatch.setattr(blocks, "db", HeldWrites(blocks.db, Meeting()))
    answers = at_once(*[lambda n=n: anna.post("/api/blocks", json={"name": n}) for n in ("cara", "dan")])
    monkeypatch.setattr(blocks, "db", blocks.db._db)
    assert sorted(getattr(a, "status_code", 0) for a in answers) == [201, 409], texts(answers)
    assert len(anna.get("/api/blocks").json()) == 2
    with app.state.lobby.db.reading() as s:
        assert len(s.query(BlockRow).all()) == 2


def test_notify_me_tapped_twice_at_once_keeps_one_subscription(app, anna, monkeypatch):
    # one browser's endpoint for one seat is kept once (a unique key): the second request's
    # delete found nothing yet, its insert met the first's key on PostgreSQL (500)
    ben = person(app, "ben")
    made = anna.post("/api/matches", json={"game": "toy-nim", "options": {"stones": 9}, "seats": ["human", "human"],
                                           "take": [0], "clock": {"per_turn": 2 * DAY}}).json()
    mid = made["id"]
    assert ben.post("/api/invites/claim", json={"code": made["invites"][0]["code"]}).status_code == 200
    push = app.state.social.webpush
    push.schemes, push.allow_local = ("https", "http"), True
    subscription = Browser("http://127.0.0.1:9/push/ben").subscription
    body = lambda lang: {"subscription": subscription, "lang": lang}  # noqa: E731
    monkeypatch.setattr(push, "store", HeldWrites(push.store, Meeting()))
    answers = at_once(lambda: ben.post(f"/api/matches/{mid}/push", json=body("fi")),
                      lambda: ben.post(f"/api/matches/{mid}/push", json=body("en")))
    monkeypatch.undo()
    assert [getattr(a, "status_code", 0) for a in answers] == [201, 201], texts(answers)
    kept = push.subscribed(mid, 1)
    assert len(kept) == 1 and kept[0].endpoint == "http://127.0.0.1:9/push/ben" and kept[0].lang in ("fi", "en")


def test_a_rematch_accepted_twice_at_once_by_two_workers_starts_one_game(app, anna, monkeypatch):
    # each request made its new game before storing the agreement; the one whose agreement was
    # refused (the other's stored first) answered with the other's game and left its own made:
    # a third game in both players' lists, on its clock
    import threading

    from test_lobby_api import seek

    ben = person(app, "ben")
    mid = ben.post(f"/api/seeks/{seek(anna)}/accept").json()["id"]
    assert anna.post(f"/api/matches/{mid}/resign").status_code == 200
    assert ben.post(f"/api/matches/{mid}/rematch").status_code == 202
    # two workers: each its own lock of the match (one process's requests take turns on it)
    monkeypatch.setattr(app.state.service.kernel, "lock_for", lambda match_id: threading.RLock())
    rounds, meeting = app.state.rounds, Meeting()
    real = rounds._start_rematch

    def held(match, agreed):
        meeting.meet()
        return real(match, agreed)

    monkeypatch.setattr(rounds, "_start_rematch", held)
    answers = at_once(*[lambda: anna.post(f"/api/matches/{mid}/rematch")] * 2)
    monkeypatch.undo()
    assert sorted(getattr(a, "status_code", 0) for a in answers) == [200, 201], texts(answers)
    new = {a.json()["id"] for a in answers}
    assert len(new) == 1
    for who in (anna, ben):
        assert sorted(m["id"] for m in who.get("/api/matches").json()) == sorted([mid, *new])


def claimed_then(app, monkeypatch, then):
    """``then()`` run once a seek's or a challenge's claim is written, not committed (its game
    not made yet): the claim waits for it, or 1.5 s when the database holds it back. Its answer."""
    import threading

    lobby, meeting, claimed, out = app.state.lobby, Meeting(), threading.Event(), []
    real = lobby.seating

    def held(s, *args, **kwargs):
        withdrawn = real(s, *args, **kwargs)
        claimed.set()
        meeting.meet()
        return withdrawn

    def other():
        claimed.wait(10)
        out.append(then())
        meeting.meet()

    monkeypatch.setattr(lobby, "seating", held)
    return other, out


def test_a_seek_withdrawn_as_it_is_taken_is_not_told_withdrawn(app, anna, monkeypatch):
    # the withdrawal read the seek open and wrote "cancelled" over the claim once it was
    # committed: told 204, its seeker was seated in the game all the same
    from test_lobby_api import seek

    ben = person(app, "ben")
    sid = seek(anna)
    withdraw, said = claimed_then(app, monkeypatch, lambda: anna.delete(f"/api/seeks/{sid}"))
    taken, _ = at_once(lambda: ben.post(f"/api/seeks/{sid}/accept"), withdraw)
    monkeypatch.undo()
    assert (getattr(taken, "status_code", 0), said[0].status_code) == (201, 404), texts([taken, said[0]])
    assert said[0].json()["i18n"]["key"] == "lobby.error.no_seek"
    assert [m["id"] for m in anna.get("/api/matches").json()] == [taken.json()["id"]]
    assert app.state.lobby.started(app.state.people.accounts._account("anna").id)[0]["id"] == taken.json()["id"]


def test_a_challenge_withdrawn_as_it_is_accepted_is_not_told_withdrawn(app, anna, monkeypatch):
    ben = person(app, "ben")
    cid = anna.post("/api/challenges", json={"to": "ben", "game": "toy-nim", "options": {"stones": 9},
                                             "clock": {"initial": 300, "increment": 3}}).json()["id"]
    withdraw, said = claimed_then(app, monkeypatch, lambda: anna.delete(f"/api/challenges/{cid}"))
    accepted, _ = at_once(lambda: ben.post(f"/api/challenges/{cid}/accept"), withdraw)
    monkeypatch.undo()
    assert (getattr(accepted, "status_code", 0), said[0].status_code) == (201, 404), texts([accepted, said[0]])
    assert said[0].json()["i18n"]["key"] == "lobby.error.no_challenge"
    assert [c["status"] for c in anna.get("/api/challenges").json()["out"]] == ["accepted"]


def test_play_now_clicked_for_another_game_as_one_is_being_made_seats_the_player_once(app, anna, monkeypatch):
    # anna's wait was paired (its game being made) when she asked for another game: the new
    # wait replaced the claimed one, was paired at once, and she was seated in two live games
    import threading

    ben, cara = person(app, "ben"), person(app, "cara")
    nim = lambda stones: {"game": "toy-nim", "options": {"stones": stones},  # noqa: E731
                          "clock": {"initial": 300, "increment": 3}, "rated": False}
    with anna.websocket_connect("/api/lobby/ws"), ben.websocket_connect("/api/lobby/ws"), \
            cara.websocket_connect("/api/lobby/ws"):  # present: not swept
        assert anna.post("/api/quick", json=nim(9)).json()["match"] is None
        assert cara.post("/api/quick", json=nim(7)).json()["match"] is None
        lobby, meeting, making, said = app.state.lobby, Meeting(), threading.Event(), []
        real = lobby.start

        def held(*args):
            making.set()
            meeting.meet()
            return real(*args)

        def other():
            making.wait(10)
            said.append(anna.post("/api/quick", json=nim(7)))
            meeting.meet()

        monkeypatch.setattr(lobby, "start", held)
        paired, _ = at_once(lambda: ben.post("/api/quick", json=nim(9)), other)
        monkeypatch.undo()
        assert paired.json()["match"] is not None, paired.text
        assert said[0].status_code == 409 and said[0].json()["i18n"]["key"] == "lobby.error.busy", said[0].text
        assert [m["id"] for m in anna.get("/api/matches").json()] == [paired.json()["match"]]
        assert cara.get("/api/quick").json()["match"] is None and [m for m in cara.get("/api/matches").json()] == []


def test_a_wait_changed_to_another_game_as_it_is_paired_is_not_paired_into_the_first(app, anna, monkeypatch):
    # the pairing read anna waiting for one game; she asked for another before it claimed her
    # wait, and it claimed the new wait by her id alone: she was seated in the game she had left
    from abstracta.lobby import quick

    ben = person(app, "ben")
    nim = lambda stones: {"game": "toy-nim", "options": {"stones": stones},  # noqa: E731
                          "clock": {"initial": 300, "increment": 3}, "rated": False}
    with anna.websocket_connect("/api/lobby/ws"), ben.websocket_connect("/api/lobby/ws"):  # present: not swept
        assert anna.post("/api/quick", json=nim(9)).json()["match"] is None
        real, changed = quick.pairs, []

        def read_then_changed(*args):
            found = list(real(*args))
            if found and not changed:  # between the pairing's read and its claim
                changed.append(anna.post("/api/quick", json=nim(7)))
            return found

        monkeypatch.setattr(quick, "pairs", read_then_changed)
        answer = ben.post("/api/quick", json=nim(9))
        monkeypatch.undo()
        assert changed and changed[0].status_code == 200, changed
        assert answer.json()["match"] is None, answer.text
        assert anna.get("/api/matches").json() == [] and ben.get("/api/matches").json() == []
        assert anna.get("/api/quick").json()["options"] == {"stones": "7"}
        assert app.state.lobby.quick.waiting() == 2
