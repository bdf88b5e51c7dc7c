"""Computer players in the match service (issue 14 §3): a deleted, undone or resigned match's
job is cancelled and never plays; bot moves start no thread each."""

from __future__ import annotations

import threading
import time

from abstracta.server.matches import Match
from apiutil import pushed_elsewhere, wait_for


def service_of(client):
    return client.app.state.service


def wait_running(service, timeout: float = 10.0) -> None:
    deadline = time.time() + timeout
    while not service.jobs.summary()["running"]:
        assert time.time() < deadline, service.jobs.summary()
        time.sleep(0.01)


def wait_idle(service, timeout: float = 10.0) -> dict:
    deadline = time.time() + timeout
    while (summary := service.jobs.summary())["running"] or summary["queued_deep"] or summary["queued_fast"]:
        assert time.time() < deadline, summary
        time.sleep(0.01)
    return summary


def start_against_level6(client) -> dict:
    view = client.post("/api/matches", json={"game": "fanorona", "seats": ["human", "level:6"]}).json()
    view = client.post(f"/api/matches/{view['id']}/actions", json={"action": view["legal"][0], "ply": 0}).json()
    assert view["thinking"] and view["ply"] == 1
    wait_running(service_of(client))
    return view


def held_answer(client, monkeypatch, options: dict | None = None) -> tuple:
    """``(service, match id, held jobs)`` of toy Nim against level 1 after the person's first
    move: the computer's search is queued but never runs (``held[0]`` answers when told)."""
    service = service_of(client)
    body = {"game": "toy-nim", "seats": ["human", "level:1"]}
    if options is not None:
        body["options"] = options
    mid = client.post("/api/matches", json=body).json()["id"]
    held: list = []
    monkeypatch.setattr(service.jobs, "submit", held.append)
    client.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0})
    assert [job.ply for job in held] == [1]
    return service, mid, held


def computer_move_fails(client, monkeypatch) -> dict:
    """The view of toy Nim against level 1 once the computer's answer to the person's first move
    failed to be played (a bug while its turn was put in order)."""
    service = service_of(client)

    def broken(match):
        raise RuntimeError("a game bug")

    monkeypatch.setattr(Match, "_canonical_turn", broken)  # the session putting its turn in order
    view = client.post("/api/matches", json={"game": "toy-nim", "seats": ["human", "level:1"]}).json()
    client.post(f"/api/matches/{view['id']}/actions", json={"action": "1", "ply": 0})
    return wait_for(client, view["id"], lambda v: not v["thinking"])


def test_deleting_a_match_cancels_its_search(client):
    service = service_of(client)
    view = client.post("/api/matches", json={"game": "fanorona", "seats": ["level:6", "level:6"]}).json()
    wait_running(service)
    started = time.time()
    assert client.delete(f"/api/matches/{view['id']}").status_code == 204
    summary = wait_idle(service)
    assert time.time() - started < 2  # the 4 s search stopped early
    assert summary["cancelled"] == 1 and summary["answered"] == 0
    assert service.store.get(view["id"]) is None and view["id"] not in service.thinking


def test_undo_cancels_the_search_and_its_answer_is_never_played(client):
    service = service_of(client)
    view = start_against_level6(client)
    view = client.post(f"/api/matches/{view['id']}/undo").json()
    assert view["ply"] == 0 and not view["thinking"]
    summary = wait_idle(service)
    assert summary["cancelled"] == 1 and summary["answered"] == 0
    time.sleep(0.3)
    assert client.get(f"/api/matches/{view['id']}").json()["ply"] == 0


def test_resigning_cancels_the_search(client):
    service = service_of(client)
    view = start_against_level6(client)
    view = client.post(f"/api/matches/{view['id']}/resign", json={"seat": 0}).json()
    assert view["termination"] == "resignation"
    summary = wait_idle(service)
    assert summary["cancelled"] == 1 and summary["answered"] == 0
    assert client.get(f"/api/matches/{view['id']}").json()["ply"] == 1


def bot_threads() -> int:
    """Threads other than the web framework's request workers."""
    return sum(1 for t in threading.enumerate() if not t.name.startswith("AnyIO worker"))


def test_bot_moves_start_no_thread_each(client):
    service = service_of(client)
    service.jobs  # the lanes' threads exist before counting
    before = bot_threads()
    ids = [client.post("/api/matches", json={"game": "nibble", "seats": ["level:1", "level:2"]}).json()["id"]
           for _ in range(3)]
    most = before
    deadline = time.time() + 60
    while any(client.get(f"/api/matches/{mid}").json()["status"] == "playing" for mid in ids):
        most = max(most, bot_threads())
        assert time.time() < deadline
        time.sleep(0.02)
    plies = sum(client.get(f"/api/matches/{mid}").json()["ply"] for mid in ids)
    assert plies > 60
    assert most <= before + 1  # the applier thread, started with the first answer
    summary = service.jobs.summary()
    assert summary["answered"] == plies and summary["fallbacks"] == 0 and summary["random_fallbacks"] == 0


def test_bot_stats_route(client):
    view = client.post("/api/matches", json={"game": "toy-nim", "seats": ["human", "level:1"]}).json()
    client.post(f"/api/matches/{view['id']}/actions", json={"action": view["legal"][0], "ply": 0})
    wait_for(client, view["id"], lambda v: v["ply"] == 2)
    stats = client.get("/api/bots").json()
    assert stats["executor"] == "thread" and stats["answered"] == 1 and stats["random_fallbacks"] == 0
    assert stats["fast_executor"] == "thread" and stats["in_thread"] == 0  # --bot-workers 0: no processes


def test_an_answer_the_real_state_refuses_is_replaced_by_a_quick_search(client):
    from abstracta.server.botjobs import make_job

    service = service_of(client)
    view = start_against_level6(client)
    with service.locked(view["id"]):
        job = make_job(service.load(view["id"]), "level:6")
    service.computer.apply_answer(job, "z9-z8", None)  # as if a worker answered nonsense
    view = client.get(f"/api/matches/{view['id']}").json()
    assert view["ply"] >= 2 and view["movers"][1] == 1
    assert "refuses" in view["bot_error"]
    summary = service.jobs.summary()
    assert summary["fallbacks"] == 1 and summary["random_fallbacks"] == 0


def test_a_computer_whose_search_cannot_start_is_not_shown_thinking_after_a_claim(client, monkeypatch):
    # a seat claimed is a new revision with the same moves: no search starts again, so the
    # view must not say thinking: true for ever (it did: the failure was kept by revision)
    import abstracta.server.computer as computer
    from abstracta.server.botjobs import InfoStateError

    def no_draw(match, spec, rng=None):
        raise InfoStateError("toy-nim: no state drawn")

    monkeypatch.setattr(computer, "make_job", no_draw)
    service = service_of(client)
    view = client.post("/api/matches", json={"game": "toy-nim", "seats": ["level:1", "human"], "take": []}).json()
    # the computer waits for the invited person to take the seat (issue 38 §1): no search yet
    assert (view["thinking"], view["bot_error"], view["revision"], view["waiting_for"]) == (False, None, 0, [1])
    claimed = client.post("/api/invites/claim", json={"code": view["invites"][0]["code"]}).json()
    assert (claimed["revision"], claimed["ply"], claimed["thinking"]) == (1, 0, False)
    assert claimed["bot_error"] == "toy-nim: no state drawn"
    assert client.get(f"/api/matches/{view['id']}").json()["thinking"] is False
    assert client.delete(f"/api/matches/{view['id']}").status_code == 204
    assert view["id"] not in service.computer.unsearchable  # nothing kept of a deleted match


def test_a_computer_move_that_cannot_be_played_is_told_not_thought_about_for_ever(client, monkeypatch, caplog):
    # a bug while the computer's answer was played (here: putting its turn in order) was lost in
    # the applier thread: nothing logged, no move, and the view said thinking: true for ever
    view = computer_move_fails(client, monkeypatch)
    assert (view["ply"], view["to_move"], view["status"]) == (1, 1, "playing")  # nothing played
    assert view["bot_error"] == "level:1: its move could not be played (RuntimeError)"
    assert "RuntimeError" in caplog.text and "a game bug" not in view["bot_error"]
    # an undo lets the computer try again
    monkeypatch.undo()
    view = client.post(f"/api/matches/{view['id']}/undo").json()
    assert (view["ply"], view["thinking"]) == (0, False)


def test_an_undo_clears_the_error_of_a_computer_move_it_took_back(client, monkeypatch):
    # the error stayed in the view after the undo, about a move no longer on the board, until
    # the computer's next clean move
    view = computer_move_fails(client, monkeypatch)
    assert view["bot_error"] == "level:1: its move could not be played (RuntimeError)"
    monkeypatch.undo()
    view = client.post(f"/api/matches/{view['id']}/undo").json()
    assert (view["ply"], view["to_move"], view["bot_error"]) == (0, 0, None)
    assert client.get(f"/api/matches/{view['id']}").json()["bot_error"] is None


def test_an_undo_clears_the_note_of_a_computer_move_played_by_the_fallback(client, monkeypatch):
    from abstracta.server.botjobs import make_job

    service = service_of(client)
    view = client.post("/api/matches", json={"game": "toy-nim", "options": {"stones": 12},
                                             "seats": ["human", "level:1"]}).json()
    held = []
    monkeypatch.setattr(service.jobs, "submit", held.append)  # the computer's search never answers
    view = client.post(f"/api/matches/{view['id']}/actions", json={"action": "1", "ply": 0}).json()
    assert view["thinking"] and [job.revision for job in held] == [1]
    service.computer.apply_answer(held[0], "9", None)  # as if the search answered a move the real state refuses
    view = client.get(f"/api/matches/{view['id']}").json()
    assert (view["ply"], view["movers"], view["human_to_move"]) == (2, [0, 1], True)
    assert view["bot_error"].startswith("level:1 answered a move the real state refuses")
    # a person's move keeps it: it is about the computer's last move, still on the board
    view = client.post(f"/api/matches/{view['id']}/actions", json={"action": "1", "ply": 2}).json()
    assert view["bot_error"].startswith("level:1 answered") and view["thinking"]
    view = client.post(f"/api/matches/{view['id']}/undo").json()
    assert view["ply"] == 2 and view["bot_error"].startswith("level:1 answered")  # its move is still there
    view = client.post(f"/api/matches/{view['id']}/undo").json()
    assert (view["ply"], view["bot_error"]) == (0, None)


def test_an_undo_while_a_failed_computer_move_is_reported_leaves_no_error(client, monkeypatch):
    # the applier let go of the match's lock between the failure and its report: an undo in
    # between took the match back to the person's turn, and the report then told a bot_error
    # (and a seat that cannot move) about that position, where nobody had failed
    service, mid, held = held_answer(client, monkeypatch)
    undone = threading.Event()
    undo = threading.Thread(target=lambda: (service.undo(mid, list(client.tokens[mid].values())), undone.set()))

    def broken(match):
        undo.start()  # a person's undo arrives while the answer is played
        raise RuntimeError("a game bug")

    report = service.computer.answer_failed

    def report_late(job, exc):
        undone.wait(1)  # the undo has the lock as soon as nobody holds it
        report(job, exc)

    monkeypatch.setattr(Match, "_canonical_turn", broken)  # the session putting its turn in order
    monkeypatch.setattr(service.computer, "answer_failed", report_late)
    service.computer.apply_answer(held[0], "1", None)
    undo.join(5)
    assert undone.is_set()
    view = client.get(f"/api/matches/{mid}").json()
    assert (view["ply"], view["to_move"], view["thinking"], view["bot_error"]) == (0, 0, False, None)
    assert mid not in service.computer.unsearchable


def test_a_computers_answer_survives_a_store_that_cannot_be_read_for_a_moment(client, monkeypatch):
    # the store busy when the answer arrived (the match re-read): the answer was dropped and the
    # search forgotten, while the view said thinking: true for ever and nothing moved
    import abstracta.server.matches as matches
    from abstracta.server.errors import StorageFailed

    monkeypatch.setattr(matches, "STORE_RETRY_SECONDS", 0.2)
    service, mid, held = held_answer(client, monkeypatch, {"stones": 12})
    load, busy = service.store.load, [True]

    def unreadable(match_id):
        if busy[0]:
            raise StorageFailed("the games database could not be read (database is locked): try again later")
        return load(match_id)

    monkeypatch.setattr(service.store, "load", unreadable)
    service.evict(mid)  # not in memory: the answer reads the match back from the store
    service.computer.apply_answer(held[0], "2", None)
    assert mid in service.thinking  # still wanted
    busy[0] = False
    view = wait_for(client, mid, lambda v: v["ply"] == 2)
    assert (view["moves"], view["thinking"], view["human_to_move"], view["bot_error"]) == (["1", "2"], False, True, None)
    assert mid not in service.thinking


def test_a_computers_answer_stored_again_keeps_its_note_as_it_was(client, monkeypatch):
    # the retry after a refused write passed on the note already prefixed: "level:1: level:1: …"
    import abstracta.server.matches as matches
    from abstracta.server.errors import StorageFailed

    monkeypatch.setattr(matches, "STORE_RETRY_SECONDS", 0.2)
    service, mid, held = held_answer(client, monkeypatch, {"stones": 12})
    commit, refusals = service.store.commit, [1]

    def refuse_once(*args, **kwargs):
        if refusals[0]:
            refusals[0] -= 1
            raise StorageFailed("the games database refused to store this (disk full): nothing was changed; "
                                "try again later")
        return commit(*args, **kwargs)

    monkeypatch.setattr(service.store, "commit", refuse_once)
    service.computer.apply_answer(held[0], None, "its search failed")  # no answer: a quick search plays
    view = wait_for(client, mid, lambda v: v["ply"] == 2)
    assert (view["human_to_move"], view["bot_error"]) == (True, "level:1: its search failed")


def test_a_failure_after_the_computers_move_is_stored_puts_no_error_on_the_persons_turn(client, monkeypatch, caplog):
    # the push failed after the move was stored: the report said "its move could not be played"
    # (it had been), on the person's turn, and marked the computer as unable to move
    import abstracta.server.matches as matches

    monkeypatch.setattr(matches, "STORE_RETRY_SECONDS", 0.05)
    service, mid, held = held_answer(client, monkeypatch, {"stones": 12})
    publish, broken, pushed = service.hub.publish, [1], threading.Event()

    def publish_once_broken(match_id):
        # on PostgreSQL a NOTIFY coming back through LISTEN is pushed too; not the push under test
        if pushed_elsewhere():
            return publish(match_id)
        if broken[0]:
            broken[0] -= 1
            raise RuntimeError("a push bug")
        pushed.set()
        return publish(match_id)

    monkeypatch.setattr(service.hub, "publish", publish_once_broken)
    service.computer.apply_answer(held[0], "2", None)
    view = client.get(f"/api/matches/{mid}").json()
    assert (view["moves"], view["human_to_move"], view["thinking"], view["bot_error"]) == (["1", "2"], True, False, None)
    assert mid not in service.computer.unsearchable
    assert "RuntimeError" in caplog.text and "after the computer's move was stored" in caplog.text
    assert "could not be played" not in caplog.text
    assert pushed.wait(5)  # pushed again a moment later: a watcher sees the move without a change
    view = client.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 2}).json()
    assert (view["ply"], view["thinking"]) == (3, True)  # the game goes on


def test_a_computers_next_search_that_cannot_be_queued_is_told_not_thought_about(client, monkeypatch):
    # computer against computer: the move was stored, then queuing the other seat's search
    # failed after it was marked as thinking; the report then found it "thinking" and said
    # nothing, and the view said thinking: true with no search anywhere
    service = service_of(client)
    held = []
    monkeypatch.setattr(service.jobs, "submit", held.append)
    view = client.post("/api/matches", json={"game": "toy-nim", "options": {"stones": 12},
                                             "seats": ["level:1", "level:1"]}).json()
    mid = view["id"]
    assert [job.ply for job in held] == [0]

    def no_worker(job):
        raise OSError("no worker could be started")

    monkeypatch.setattr(service.jobs, "submit", no_worker)
    service.computer.apply_answer(held[0], "2", None)
    view = client.get(f"/api/matches/{mid}").json()
    assert (view["moves"], view["to_move"], view["thinking"]) == (["2"], 1, False)
    assert view["bot_error"] == "level:1: its search could not start (OSError)"
    assert mid not in service.thinking


def test_a_persons_move_stands_when_the_computers_reply_cannot_be_queued(client, monkeypatch):
    # the person's move was stored, then queuing the computer's search failed: a 500 for a move
    # that was played, and a view saying the computer thought, for ever
    service = service_of(client)
    view = client.post("/api/matches", json={"game": "toy-nim", "options": {"stones": 12},
                                             "seats": ["human", "level:1"]}).json()
    mid = view["id"]

    def no_worker(job):
        raise OSError("no worker could be started")

    monkeypatch.setattr(service.jobs, "submit", no_worker)
    r = client.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0})
    assert r.status_code == 200, r.text
    assert (r.json()["ply"], r.json()["thinking"]) == (1, False)
    assert r.json()["bot_error"] == "level:1: its search could not start (OSError)"
    monkeypatch.undo()  # an undo lets it try again
    view = client.post(f"/api/matches/{mid}/undo").json()
    assert (view["ply"], view["bot_error"]) == (0, None)
    client.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0})
    view = wait_for(client, mid, lambda v: v["ply"] == 2)
    assert (view["human_to_move"], view["bot_error"]) == (True, None)


def _said(view, lang):
    from abstracta.server import i18n

    return i18n.format_message(view["bot_error_i18n"], i18n.catalog(lang), lang)


def test_a_computer_move_that_cannot_be_played_is_told_in_finnish(client, monkeypatch):
    # bot_error was English only, where every refusal of a request reaches a Finnish page in Finnish
    view = computer_move_fails(client, monkeypatch)
    assert view["bot_error"] == "level:1: its move could not be played (RuntimeError)"
    assert view["bot_error_i18n"] == {"key": "error.bot_move_failed",
                                      "params": {"spec": "level:1", "error": "RuntimeError"}}
    # a player reads the catalogue's words (no seat spec, no exception type); the API keeps them
    assert _said(view, "en") == "The computer's move could not be played: an error on the server (it is logged)."
    assert _said(view, "fi") == "Tietokoneen siirtoa ei voitu pelata: palvelimella tapahtui virhe (se on kirjattu lokiin)."


def test_a_computer_move_played_by_the_quick_search_is_told_in_finnish(client, monkeypatch):
    service, mid, held = held_answer(client, monkeypatch, {"stones": 12})
    service.computer.apply_answer(held[0], None, "did not answer in time")  # its search gave nothing
    view = client.get(f"/api/matches/{mid}").json()
    assert (view["ply"], view["bot_error"]) == (2, "level:1: did not answer in time")
    assert view["bot_error_i18n"] == {"key": "error.bot_fallback", "params": {"spec": "level:1", "fallback": "level:2"}}
    assert _said(view, "fi") == "Tietokoneen oma haku ei vastannut; sen siirron pelasi nopea haku."
    # an answer the real state refuses
    view = client.post(f"/api/matches/{mid}/undo").json()
    assert (view["ply"], view["bot_error"], view["bot_error_i18n"]) == (0, None, None)
    held.clear()
    client.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0})
    service.computer.apply_answer(held[0], "9", None)
    view = client.get(f"/api/matches/{mid}").json()
    assert view["bot_error"].startswith("level:1 answered a move the real state refuses")
    assert view["bot_error_i18n"] == {"key": "error.bot_refused", "params": {"spec": "level:1", "fallback": "level:2"}}
    assert _said(view, "fi") == ("Tietokoneen haku valitsi siirron, jota todellinen asema ei salli; "
                                 "sen sijaan pelasi nopea haku.")


def test_a_computers_search_that_cannot_start_is_told_in_finnish(client, monkeypatch):
    import abstracta.server.computer as computer
    from abstracta.server.botjobs import InfoStateError

    service = service_of(client)

    def no_worker(job):
        raise OSError("no worker could be started")

    monkeypatch.setattr(service.jobs, "submit", no_worker)
    view = client.post("/api/matches", json={"game": "toy-nim", "seats": ["level:1", "human"], "take": "all"}).json()
    assert view["bot_error_i18n"] == {"key": "error.bot_search_failed", "params": {"spec": "level:1", "error": "OSError"}}
    assert _said(view, "fi") == "Tietokoneen haku ei käynnistynyt: palvelimella tapahtui virhe (se on kirjattu lokiin)."

    def no_draw(match, spec, rng=None):
        raise InfoStateError("toy-nim: no state drawn")

    monkeypatch.setattr(computer, "make_job", no_draw)
    view = client.post("/api/matches", json={"game": "toy-nim", "seats": ["level:1", "human"], "take": "all"}).json()
    assert view["bot_error"] == "toy-nim: no state drawn"
    assert view["bot_error_i18n"] == {"key": "error.bot_no_state", "params": {"spec": "level:1"}}
    assert _said(view, "fi") == "Tietokoneen haku ei käynnistynyt: mikään asema ei sovi siihen, mitä sen paikka tietää."
