"""No hidden card reaches a client that may not see it (issue 13 §2, §5): two people play a whole
card game through an invitation while a spectator watches over a WebSocket; every HTTP body and
every WebSocket message each of them receives is checked against the cards hidden from them at
that revision, undo and takeback attempts included."""

from __future__ import annotations

import random
import re

from apiutil import bearer

CARD = re.compile(r"\b(?:[2-9TJQKA][cdhs])\b")
#: the card game's notation help quotes these two cards in every "not a move" error
EXAMPLE = "expected e.g. '7h>1', '5s/2'"


def cards_in(body) -> set[str]:
    return set(CARD.findall(str(body).replace(EXAMPLE, "")))


def secrets_by_viewer(state) -> dict[object, set[str]]:
    """The cards each seat (and a spectator, None) must not see in ``state``."""
    _piles, hand0, hand1, stock, _ = [p.strip() for p in state.to_text().split("|")]
    h0, h1, st = set(CARD.findall(hand0)), set(CARD.findall(hand1)), set(CARD.findall(stock))
    return {0: h1 | st, 1: h0 | st, None: h0 | h1 | st}


def test_a_whole_card_game_leaks_no_hidden_card(client):
    raw, service = client.raw, client.app.state.service
    hidden: dict[int, dict[object, set[str]]] = {}  # revision -> viewer -> cards hidden from it
    view = raw.post("/api/matches", json={"game": "fibonacci-cards", "options": {"first_player": "0", "seed": "21"},
                                          "seats": ["human", "human"]}).json()
    mid = view["id"]
    hidden[0] = secrets_by_viewer(service.load(mid).state)
    tokens = {0: view["tokens"][0]["token"]}
    joined = raw.post("/api/invites/claim", json={"code": view["invites"][0]["code"]}).json()
    tokens[1] = joined["tokens"][0]["token"]

    def note():
        with service.locked(mid):
            match = service.load(mid)
            if not match.over:
                hidden[match.revision] = secrets_by_viewer(match.state)

    note()
    received: list[tuple[object, int, object]] = [(0, 0, view), (1, 1, joined)]

    def now():
        with service.locked(mid):
            return service.load(mid).revision

    rng = random.Random(13)
    tried = {"undo": 0, "takeback": 0, "taken back": 0}
    with raw.websocket_connect(f"/api/matches/{mid}/ws") as ws:
        ws.send_json({"tokens": []})  # a spectator; its pushes queue up and are read at the end
        for i in range(600):
            current = raw.get(f"/api/matches/{mid}", headers=bearer(tokens[0])).json()
            received.append((0, current["revision"], current))
            if current["status"] == "over":
                break
            mover = current["to_move"]
            me = raw.get(f"/api/matches/{mid}", headers=bearer(tokens[mover])).json()
            other = raw.get(f"/api/matches/{mid}", headers=bearer(tokens[1 - mover])).json()
            spectator = raw.get(f"/api/matches/{mid}").json()
            positions = raw.get(f"/api/matches/{mid}/positions?from={max(0, current['ply'] - 99)}").json()
            rev = now()
            received += [(mover, rev, me), (1 - mover, rev, other), (None, rev, spectator), (None, rev, positions)]
            if i % 5 == 4:  # undo between people is refused; a takeback may be asked for
                r = raw.post(f"/api/matches/{mid}/undo", headers=bearer(tokens[mover]))
                received.append((mover, now(), r.json()))
                tried["undo"] += 1
                r = raw.post(f"/api/matches/{mid}/takeback", headers=bearer(tokens[mover]))
                received.append((mover, now(), r.json()))
                tried["takeback"] += 1
                if r.status_code == 200:
                    note()
                    r = raw.post(f"/api/matches/{mid}/takeback/answer", json={"accept": True},
                                 headers=bearer(tokens[1 - mover]))
                    note()
                    received.append((1 - mover, now(), r.json()))
                    tried["taken back"] += r.status_code == 200
                continue
            r = raw.post(f"/api/matches/{mid}/actions", json={"action": rng.choice(me["legal"]), "ply": me["ply"]},
                         headers=bearer(tokens[mover]))
            assert r.status_code == 200, r.text
            note()
            played = r.json()
            received.append((mover, now(), played))
            # a refused move is answered without naming a hidden card either
            for token in tokens.values():
                r = raw.post(f"/api/matches/{mid}/actions", json={"action": "9z>1", "ply": played["ply"]},
                             headers=bearer(token))
                received.append((None, now(), r.json()))
            r = raw.get(f"/api/matches/{mid}/record")
            received.append((None, now(), r.json()))
        pushed = []
        while not pushed or pushed[-1]["status"] != "over":
            pushed.append(ws.receive_json())
    assert pushed[-1]["status"] == "over", "the game did not end"
    assert tried["undo"] and tried["takeback"] and tried["taken back"], tried
    assert len(pushed) >= 2 and pushed[0]["status"] == "playing"  # pushes coalesce under load
    for viewer, revision, body in received:
        if isinstance(body, dict) and body.get("status") == "over":
            continue  # a finished game reveals everything
        secret = hidden.get(body["revision"] if isinstance(body, dict) and "revision" in body else revision)
        if secret is None:  # received once the game was over
            continue
        assert not cards_in(body) & secret[viewer], (viewer, body)
    for message in pushed[:-1]:
        assert message["viewer"] is None
        assert not cards_in(message) & hidden[message["revision"]][None], message
    # and the views were not empty: each seat saw its own hand
    assert any(cards_in(b) & hidden[r][1 - v] for v, r, b in received
               if v in (0, 1) and isinstance(b, dict) and b.get("status") == "playing")


def test_a_refused_card_says_why_without_naming_a_hidden_card(client):
    # The refusal's reason is shown to the mover (the browser's move box): it may echo the card
    # typed and the mover's own hand and the table, never the opponent's hand or the stock, and a
    # card not in the mover's hand is refused in the same words wherever it lies
    raw, service = client.raw, client.app.state.service
    view = raw.post("/api/matches", json={"game": "fibonacci-cards", "options": {"first_player": "0", "seed": "21"},
                                          "seats": ["human", "human"]}).json()
    mid = view["id"]
    tokens = {0: view["tokens"][0]["token"],
              1: raw.post("/api/invites/claim", json={"code": view["invites"][0]["code"]}).json()["tokens"][0]["token"]}
    deck = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]
    rng = random.Random(5)
    reasons = 0
    for _ in range(6):
        me = raw.get(f"/api/matches/{mid}", headers=bearer(tokens[0])).json()
        if me["status"] != "playing":
            break
        mover = me["to_move"]
        me = raw.get(f"/api/matches/{mid}", headers=bearer(tokens[mover])).json()
        secret = secrets_by_viewer(service.load(mid).state)[mover]
        hidden_words: set[str] = set()
        for card in deck:
            for move in (f"{card}>1", f"{card}/2"):
                if move in me["legal"]:
                    continue
                r = raw.post(f"/api/matches/{mid}/actions", json={"action": move, "ply": me["ply"]},
                             headers=bearer(tokens[mover]))
                assert r.status_code == 422, r.text
                error = r.json()["error"]
                assert "is not legal here: " in error, error
                assert not cards_in(error) - {card} & secret, (move, error)
                if card in secret:
                    hidden_words.add(error.replace(move, "MOVE").replace(card, "CARD"))
                reasons += 1
        assert len(hidden_words) == 1, hidden_words  # "CARD is not in your hand", or after a draw its card
        r = raw.post(f"/api/matches/{mid}/actions", json={"action": rng.choice(me["legal"]), "ply": me["ply"]},
                     headers=bearer(tokens[mover]))
        assert r.status_code == 200, r.text
    assert reasons > 300
