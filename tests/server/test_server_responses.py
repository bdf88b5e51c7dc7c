"""Every route's answers match what /openapi.json declares for them (issue 40 §1).

One walk over the whole API, as a client would use it: games, lessons, matches created,
imported, played (a move, several in a row, a whole turn), taken back, drawn, resigned, flagged,
invited and claimed, replayed, analysed, deleted; a match's chat, the live games and Web Push
subscriptions; a person signing up, in and out, with sessions and API tokens, profiles and
leaderboards; the lobby's seeks, quick pairing, challenges and blocks, and a game aborted,
claimed and played again; and refusals of each kind. Each answer is checked against the schema of its
route and status in /openapi.json, with every object closed (a field the schema does not name
is a failure: an answer may not carry what its model does not document). The match views, which
the routes send as the bytes the service encoded once per revision and viewer, are checked the
same way. At the end every route of the app (``app.routes``) has answered at least once with
success, and every status seen is one its route documents.

A route with a response model has its answer serialised through it, and FastAPI drops a field
the model lacks (the filtering its docs recommend: ``response_model`` limits the output to the
model, so an object with more fields, a password hash, never leaks). The answer alone would then
hide a field the route meant to send and the model forgot. So the walk also validates what each
route returned, before FastAPI's filter (:func:`record_payloads`), against the same closed
schema: the models stay permissive at runtime, and this test is where a forgotten field fails.
"""

from __future__ import annotations

import copy
import re
import json
from datetime import timedelta
from typing import Any

import fastapi.routing
import pytest
from apiutil import bearer, hand_clock, make_app, wait_for
from fastapi import FastAPI
from fastapi.encoders import jsonable_encoder
from fastapi.testclient import TestClient
from pydantic import BaseModel

jsonschema = pytest.importorskip("jsonschema")
referencing = pytest.importorskip("referencing")


def closed(schema: Any) -> Any:
    """``schema`` with every object that lists its properties closed to others."""
    if isinstance(schema, dict):
        out = {k: closed(v) for k, v in schema.items()}
        if out.get("type") == "object" and "properties" in out and "additionalProperties" not in out:
            out["additionalProperties"] = False
        return out
    if isinstance(schema, list):
        return [closed(v) for v in schema]
    return schema


#: what the routes returned, before FastAPI serialised it through their response models
PAYLOADS: list[Any] = []


@pytest.fixture
def record_payloads(monkeypatch):
    """Keep each route's returned value in :data:`PAYLOADS` (FastAPI's ``serialize_response``
    sees it first: it validates it against the response model and dumps only the model's
    fields). Routes that return a ``Response`` of their own are not serialised: the walk reads
    their bytes as sent."""
    original = fastapi.routing.serialize_response

    async def recording(**kw: Any) -> Any:
        if kw.get("field") is not None:
            PAYLOADS.append(kw["response_content"])
        return await original(**kw)

    monkeypatch.setattr(fastapi.routing, "serialize_response", recording)
    PAYLOADS.clear()
    yield PAYLOADS
    PAYLOADS.clear()


class Walk:
    """A TestClient whose every answer, and every route's returned value before its response
    model filtered it, is checked against the app's OpenAPI schema (use with
    :func:`record_payloads`)."""

    def __init__(self, raw: TestClient):
        self.raw = raw
        self.app = raw.app
        self.openapi = closed(copy.deepcopy(self.app.openapi()))
        resource = referencing.Resource.from_contents(self.openapi, default_specification=referencing.jsonschema.DRAFT202012)
        self.registry = referencing.Registry().with_resource("urn:openapi", resource)
        # every route the app serves and documents: (method, path template)
        self.routes = [(method.upper(), template) for template, ops in self.openapi["paths"].items()
                       for method in ops]
        self.answered: dict[tuple[str, str], set[int]] = {}
        self.checked = 0
        self.raw_checked = 0

    def route_of(self, method: str, path: str) -> str:
        """The template of the documented route answering ``method path`` (literal segments
        before parameters, as the app's own routing has them)."""
        parts = path.split("?", 1)[0].split("/")
        found = [t for m, t in self.routes if m == method and len(t.split("/")) == len(parts) and all(
            seg.startswith("{") or seg == part for seg, part in zip(t.split("/"), parts))]
        assert found, f"{method} {path}: no route of the schema answers it"
        return min(found, key=lambda t: sum(seg.startswith("{") for seg in t.split("/")))

    def request(self, method: str, path: str, **kw: Any) -> Any:
        PAYLOADS.clear()
        response = self.raw.request(method, path, **kw)
        template = self.route_of(method, path)
        self.answered.setdefault((method, template), set()).add(response.status_code)
        declared = self.openapi["paths"][template][method.lower()]["responses"]
        status = str(response.status_code)
        assert status in declared, f"{method} {path} answered {status}, not a status it documents: {response.text[:300]}"
        content = declared[status].get("content")
        if response.status_code == 204 or not response.content:
            assert content is None or response.status_code != 204, f"{method} {path}: 204 with a body schema"
            return response
        assert content and "application/json" in content, f"{method} {path} {status}: no JSON schema declared"
        assert response.headers["content-type"].startswith("application/json")
        schema = content["application/json"]["schema"]
        self.validate(schema, response.json(), f"{method} {path} {status}")
        for payload in PAYLOADS:  # what the route returned, every field it meant to send
            self.validate(schema, jsonable_encoder(payload), f"{method} {path} {status}, as the route returned it")
            self.raw_checked += 1
        return response

    def validate(self, schema: dict[str, Any], body: Any, where: str) -> None:
        # refs of the schema point into components: resolve them in the whole document
        wrapped = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "urn:answer", **schema}
        text = json.dumps(wrapped).replace('"#/components/', '"urn:openapi#/components/')
        validator = jsonschema.Draft202012Validator(json.loads(text), registry=self.registry)
        problems = sorted(validator.iter_errors(body), key=lambda e: list(e.absolute_path))
        assert not problems, f"{where}: " + "; ".join(
            f"{'.'.join(map(str, p.absolute_path)) or 'body'}: {p.message[:200]}" for p in problems[:5])
        self.checked += 1

    def get(self, path: str, **kw: Any) -> Any:
        return self.request("GET", path, **kw)

    def post(self, path: str, **kw: Any) -> Any:
        return self.request("POST", path, **kw)

    def put(self, path: str, **kw: Any) -> Any:
        return self.request("PUT", path, **kw)

    def delete(self, path: str, **kw: Any) -> Any:
        return self.request("DELETE", path, **kw)


@pytest.fixture
def walk(db_url, monkeypatch, record_payloads):
    hand_clock(monkeypatch)
    with TestClient(make_app(db_url, bot_workers=0, rate_limits=False, analysis_scale=0.02)) as raw:
        yield Walk(raw)


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.text[:500]
    return response.json() if response.content else None


def test_every_route_answers_as_its_schema_says(walk, monkeypatch):
    w = walk
    # --- games, lessons, catalogs
    games = ok(w.get("/api/games"))
    assert {"fanorona", "nibble", "toy-nim"} <= {g["name"] for g in games}
    ok(w.get("/api/games/fanorona?size=dimy&lang=fi"))
    ok(w.get("/api/games/nope"), 404)
    ok(w.get("/api/games/fanorona?size=huge"), 422)
    ok(w.get("/api/i18n"))
    ok(w.get("/api/i18n/fi"))
    ok(w.get("/api/i18n/xx"), 404)
    ok(w.get("/api/games/fanorona/rules?lang=fi"))
    lessons = ok(w.get("/api/games/fanorona/lessons"))
    lesson = lessons[0]
    step = lesson["steps"][0]
    ok(w.post(f"/api/games/fanorona/lessons/{lesson['id']}/{step['id']}", json={"moves": ["zz"]}), 422)
    assert ok(w.post(f"/api/games/fanorona/lessons/{lesson['id']}/{step['id']}", json={"moves": []}))["status"] == "continue"
    ok(w.get("/api/bots"))

    # --- a match between two people at a distance: created, looked up, claimed, played
    created = ok(w.post("/api/matches", json={"game": "fanorona", "options": {"size": "dimy"},
                                              "seats": ["human", "human"], "clock": {"initial": 300, "increment": 3.0}}),
                 201)
    mid, t0 = created["id"], created["tokens"][0]["token"]
    code = created["invites"][0]["code"]
    ok(w.post("/api/invites/lookup", json={"code": code}))
    again = ok(w.post(f"/api/matches/{mid}/invites", headers=bearer(t0)))
    code = again["invites"][0]["code"]
    claimed = ok(w.post("/api/invites/claim", json={"code": code}))
    t1 = claimed["tokens"][0]["token"]
    ok(w.post("/api/invites/claim", json={"code": code}), 410)
    ok(w.post("/api/invites/lookup", json={"code": "nope"}), 404)
    view = ok(w.get(f"/api/matches/{mid}", headers=bearer(t0)))
    spectator = ok(w.get(f"/api/matches/{mid}"))
    assert spectator["viewer"] is None and view["viewer"] == 0
    ok(w.get(f"/api/matches/{mid}?seat=1", headers=bearer(t0)), 403)
    ok(w.get("/api/matches/nope"), 404)
    moved = ok(w.post(f"/api/matches/{mid}/actions", json={"action": view["legal"][0], "ply": 0}, headers=bearer(t0)))
    ok(w.post(f"/api/matches/{mid}/actions", json={"action": moved["legal"][0] if moved["legal"] else "x", "ply": 0},
              headers=bearer(t1)), 409)  # a stale ply: the answer names the current one
    ok(w.post(f"/api/matches/{mid}/actions", json={"action": "x", "ply": 1}), 401)
    ok(w.post(f"/api/matches/{mid}/actions", json={"action": "x", "ply": 1.5}, headers=bearer(t1)), 422)
    view = ok(w.get(f"/api/matches/{mid}", headers=bearer(t1)))
    if view["to_move"] == 1:
        view = ok(w.post(f"/api/matches/{mid}/actions", json={"actions": view["legal"][:1], "ply": view["ply"]},
                         headers=bearer(t1)))
    ok(w.post(f"/api/matches/{mid}/takeback", headers=bearer(t0)))
    ok(w.post(f"/api/matches/{mid}/takeback/answer", json={"accept": False}, headers=bearer(t1)))
    ok(w.post(f"/api/matches/{mid}/undo", headers=bearer(t0)), 409)  # another person must agree
    ok(w.post(f"/api/matches/{mid}/draw", headers=bearer(t0)))
    ok(w.post(f"/api/matches/{mid}/draw/answer", json={"accept": False}, headers=bearer(t1)))
    ok(w.post(f"/api/matches/{mid}/flag", headers=bearer(t0)), 409)  # no flag has fallen
    ok(w.get(f"/api/matches/{mid}/positions?from=0&to=1", headers=bearer(t0)))
    ok(w.get(f"/api/matches/{mid}/positions?from=99"), 422)
    ok(w.get(f"/api/matches/{mid}/record"))
    listed = ok(w.get("/api/matches", headers=bearer(t0, t1)))
    assert [m["id"] for m in listed] == [mid]
    ok(w.post(f"/api/matches/{mid}/resign", json={"seat": 1}, headers=bearer(t1)))
    ok(w.get(f"/api/matches/{mid}/record?download=true"))
    graph = ok(w.post("/api/analysis/graph", json={"match_id": mid, "scale": 0.05}))
    assert graph["points"]
    ok(w.post("/api/analysis", json={"match_id": mid, "ply": 1, "scale": 0.05}))

    # --- against the computer: a whole turn, a hint, an undo; the card game's hidden record
    nibble = ok(w.post("/api/matches", json={"game": "nibble", "seats": ["human", "level:1"]}), 201)
    nid, tn = nibble["id"], nibble["tokens"][0]["token"]
    view = wait_for(w.raw, nid, lambda v: v["to_move"] == 0 and not v["thinking"])
    view = ok(w.get(f"/api/matches/{nid}", headers=bearer(tn)))
    ok(w.post(f"/api/matches/{nid}/actions", json={"turn": view["turns"][0], "ply": view["ply"]}, headers=bearer(tn)))
    view = wait_for(w.raw, nid, lambda v: v["to_move"] == 0 and not v["thinking"])
    hint = ok(w.post("/api/analysis", json={"match_id": nid, "hint": True, "scale": 0.05}, headers=bearer(tn)))
    assert hint["hints"] == [1, 0]
    ok(w.post(f"/api/matches/{nid}/undo", headers=bearer(tn)))
    cards = ok(w.post("/api/matches", json={"game": "fibonacci-cards", "options": {"seed": 3}}), 201)
    ok(w.get(f"/api/matches/{cards['id']}/record"), 409)
    ok(w.delete(f"/api/matches/{cards['id']}", headers=bearer(cards["tokens"][0]["token"])), 204)
    ok(w.delete(f"/api/matches/{cards['id']}", headers=bearer(cards["tokens"][0]["token"])), 404)

    # --- an imported record, refusals of bodies, a pasted position
    record = ok(w.get(f"/api/matches/{mid}/record"))
    imported = ok(w.post("/api/matches/import", json={"record": {**record, "result": None, "termination": None,
                                                                 "tags": {}}, "take": "all"}), 201)
    assert imported["ply"] == len(record["moves"]) and imported["status"] == "playing"
    bad = {"format": "abstracta-record", "version": 1, "game": "fanorona", "moves": ["a1-a1"]}
    refused = ok(w.post("/api/matches/import", json={"record": bad}), 422)
    assert refused["ply"] == 1
    ok(w.post("/api/matches", json={"game": "fanorona", "take": [0, 0]}), 422)
    ok(w.post("/api/matches", json={"game": "fanorona", "clock": {"minutes": 5}}), 422)
    ok(w.post("/api/matches", json={"game": "fanorona", "seats": ["human"]}), 422)
    ok(w.post("/api/matches", json={"game": "nope"}), 404)
    ok(w.post("/api/matches", content=b"game=fanorona", headers={"Content-Type": "text/plain"}), 415)
    ok(w.post("/api/matches", json={"game": "fanorona", "take": "all", "seats": ["human", "human"]}), 201)
    position = ok(w.get(f"/api/matches/{nid}", headers=bearer(tn)))["position"]
    ok(w.post("/api/analysis", json={"game": "nibble", "position": position, "scale": 0.05}))
    ok(w.post("/api/analysis", json={"game": "nibble"}), 422)

    # --- a live clock whose flag falls: claimed
    clocked = ok(w.post("/api/matches", json={"game": "toy-nim", "seats": ["human", "human"], "take": "all",
                                              "clock": {"per_turn": 60}}), 201)
    cid = clocked["id"]
    tokens = [t["token"] for t in clocked["tokens"]]
    for _ in range(2):  # the clock starts once each side has made its first move (issue 42)
        view = ok(w.get(f"/api/matches/{cid}", headers=bearer(*tokens)))
        ok(w.post(f"/api/matches/{cid}/actions", json={"action": view["legal"][0], "ply": view["ply"]},
                  headers=bearer(*tokens)))
    import abstracta.server.matches as served

    served.time.now += 61
    flagged = ok(w.post(f"/api/matches/{cid}/flag", headers=bearer(*tokens)))
    assert flagged["status"] == "over" and flagged["termination"] == "time"

    # --- a match's company: its chat, the live games, Web Push notices of a correspondence game
    from test_server_webpush import Browser

    talk = ok(w.post("/api/matches", json={"game": "fanorona", "seats": ["human", "human"],
                                           "clock": {"per_turn": 86400}}), 201)
    tid, ta = talk["id"], talk["tokens"][0]["token"]
    tb = ok(w.post("/api/invites/claim", json={"code": talk["invites"][0]["code"]}))["tokens"][0]["token"]
    line = ok(w.post(f"/api/matches/{tid}/chat", json={"text": "good luck"}, headers=bearer(ta)), 201)
    assert ok(w.get(f"/api/matches/{tid}/chat", headers=bearer(tb)))["lines"][0]["text"] == "good luck"
    ok(w.post(f"/api/matches/{tid}/chat", json={"text": ""}, headers=bearer(ta)), 422)
    ok(w.post(f"/api/matches/{tid}/chat/{line['id']}/report", headers=bearer(tb)), 201)
    ok(w.get("/api/live"))
    ok(w.get(f"/api/matches/{tid}/watchers"))
    ok(w.get("/api/matches/nope/watchers"), 404)
    ok(w.get("/api/push/key"))
    subscription = Browser("https://push.example.net/send/walk").subscription
    ok(w.post(f"/api/matches/{tid}/push", json={"subscription": subscription}, headers=bearer(ta)), 201)
    ok(w.post(f"/api/matches/{tid}/push", json={"subscription": subscription}), 403)  # no seat of it
    ok(w.request("DELETE", f"/api/matches/{tid}/push", json={"endpoint": subscription["endpoint"]},
                 headers=bearer(ta)), 204)

    # --- people: a guest, an account, sessions, API tokens, profiles, leaderboards
    ok(w.get("/api/me"))
    ok(w.post("/api/guests"), 201)
    ok(w.put("/api/me/name", json={"name": "guest_walker"}))
    ok(w.delete("/api/session"), 204)
    signed = ok(w.post("/api/accounts", json={"username": "walker", "password": "correct horse battery"}), 201)
    codes = signed["recovery_codes"]
    ok(w.post("/api/accounts", json={"username": "WALKER", "password": "correct horse battery"}), 409)
    ok(w.get("/api/me"))
    sessions = ok(w.get("/api/me/sessions"))
    ok(w.post("/api/session", json={"username": "walker", "password": "wrong password!"}), 401)
    ok(w.delete("/api/session"), 204)
    ok(w.post("/api/session", json={"username": "walker", "password": "correct horse battery"}))
    elsewhere = TestClient(w.app)  # another browser signing in: a second session
    ok(elsewhere.post("/api/session", json={"username": "walker", "password": "correct horse battery"}))
    sessions = ok(w.get("/api/me/sessions"))
    other = next(s for s in sessions if not s["current"])
    ok(w.delete(f"/api/me/sessions/{other['id']}"), 204)
    ok(w.delete("/api/me/sessions/nope"), 404)
    ok(w.delete("/api/me/sessions"))
    made = ok(w.post("/api/me/tokens", json={"description": "walk", "scopes": ["read"]}), 201)
    tokens_listed = ok(w.get("/api/me/tokens"))
    assert tokens_listed
    ok(w.delete(f"/api/me/tokens/{tokens_listed[0]['id']}"), 204)
    assert made
    ok(w.post("/api/me/password", json={"current": "correct horse battery", "new": "another horse battery"}), 204)
    ok(w.get("/api/me/recovery-codes"))
    codes_now = ok(w.post("/api/me/recovery-codes", json={"password": "another horse battery"}), 201)["recovery_codes"]
    ok(w.get("/api/me/export"))
    ok(w.get("/api/players/walker"))
    ok(w.get("/api/players/nobody"), 404)
    pools = ok(w.get("/api/leaderboards"))
    ok(w.get(f"/api/leaderboards/{pools[0]['pool']}"))
    ok(w.get("/api/leaderboards/nope"), 404)
    ok(w.get("/api/levels"))
    ok(w.get("/api/levels/nibble"))
    ok(w.delete("/api/session"), 204)
    ok(w.post("/api/accounts/recover", json={"username": "walker", "code": codes[0], "password": "a third horse"}),
       401)  # the codes were replaced
    ok(w.post("/api/accounts/recover", json={"username": "walker", "code": codes_now[0], "password": "a third horse"}))

    # --- the lobby: seeks, quick pairing, challenges, blocks; a game's abort, claim, rematch, presence
    other = Walk(TestClient(w.app))  # another browser, its answers checked and counted with these
    other.answered = w.answered
    ok(other.post("/api/accounts", json={"username": "other", "password": "correct horse battery"}), 201)
    game = {"game": "toy-nim", "options": {"stones": 9}, "clock": {"initial": 300, "increment": 3}}
    ok(w.get("/api/lobby"))
    sid = ok(w.post("/api/seeks", json={**game, "seat": 0}), 201)["id"]
    assert [s["id"] for s in ok(other.get("/api/seeks"))] == [sid]
    ok(w.post(f"/api/seeks/{sid}/accept"), 409)  # one's own
    ok(w.delete(f"/api/seeks/{sid}"), 204)
    sid = ok(w.post("/api/seeks", json={**game, "seat": 0}), 201)["id"]
    lid = ok(other.post(f"/api/seeks/{sid}/accept"), 201)["id"]
    assert ok(w.get(f"/api/matches/{lid}/presence"))["presence"]["claim_at"] is None
    assert ok(w.post(f"/api/matches/{lid}/abort"))["termination"] == "aborted"
    sid = ok(w.post("/api/seeks", json={**game, "seat": 0}), 201)["id"]
    lid = ok(other.post(f"/api/seeks/{sid}/accept"), 201)["id"]
    for player in (w, other, w):
        view = ok(player.get(f"/api/matches/{lid}"))
        ok(player.post(f"/api/matches/{lid}/actions", json={"action": view["legal"][0], "ply": view["ply"]}))
    ok(other.post(f"/api/matches/{lid}/claim"), 403)  # against itself: it is to move
    ok(w.post(f"/api/matches/{lid}/claim"), 409)  # the other was seen just now
    served.time.now += 60  # the other, to move, gone for 60 s: the game is claimed
    assert ok(w.post(f"/api/matches/{lid}/claim", json={"draw": False}))["termination"] == "left"
    ok(w.post(f"/api/matches/{lid}/rematch"), 202)
    again = ok(other.post(f"/api/matches/{lid}/rematch"), 201)
    assert ok(w.post(f"/api/matches/{lid}/rematch"))["id"] == again["id"]
    # the lobby's socket open: a wait whose person has no connection ends after 10 s, and the
    # lobby's own sweep, reading the clock moved on below, may run at any moment (it did, once)
    with w.raw.websocket_connect("/api/lobby/ws"):
        ok(w.post("/api/quick", json=game))
        ok(w.post("/api/quick/computer"), 409)  # not before 30 s alone
        db = w.app.state.people.db
        later = db.now() + timedelta(seconds=31)
        monkeypatch.setattr(db, "now", lambda: later)
        assert ok(w.get("/api/quick"))["computer"]
        ok(w.post("/api/quick/computer"), 201)
    ok(w.post("/api/quick", json=game))
    ok(w.delete("/api/quick"), 204)
    cid = ok(w.post("/api/challenges", json={**game, "to": "other"}), 201)["id"]
    assert [c["id"] for c in ok(other.get("/api/challenges"))["in"]] == [cid]
    ok(other.post(f"/api/challenges/{cid}/decline"))
    cid = ok(w.post("/api/challenges", json={**game, "to": "other"}), 201)["id"]
    ok(w.delete(f"/api/challenges/{cid}"), 204)
    cid = ok(w.post("/api/challenges", json={**game, "to": "other"}), 201)["id"]
    ok(other.post(f"/api/challenges/{cid}/accept"), 201)
    ok(w.post("/api/challenges", json={**game, "to": "nobody"}), 404)
    ok(w.post("/api/blocks", json={"name": "other"}), 201)
    assert [b["name"] for b in ok(w.get("/api/blocks"))] == ["other"]
    ok(w.delete("/api/blocks/other"), 204)
    ok(w.request("DELETE", "/api/me", json={"password": "a third horse"}), 204)

    # every route of the app has answered with success at least once
    missing = [f"{m} {t}" for m, t in w.routes if not any(200 <= s < 300 for s in w.answered.get((m, t), ()))]
    assert not missing, missing
    # ... and the app serves nothing the schema leaves out but its own pages and files
    assert len(w.routes) == len({(m, t) for m, t in w.routes}) >= 50
    assert w.checked > 80
    assert w.raw_checked > 60  # the answers of routes with a response model, as their routes returned them


def test_the_walk_sees_a_field_a_route_returns_and_its_model_lacks(record_payloads):
    app = FastAPI()

    class Out(BaseModel):
        kept: int

    @app.get("/thing", response_model=Out, responses={200: {"description": "a thing"}})
    def thing() -> dict[str, Any]:
        return {"kept": 1, "forgotten": 2}

    w = Walk(TestClient(app))
    with pytest.raises(AssertionError, match="as the route returned it: .*'forgotten' was unexpected"):
        w.get("/thing")
    # ... which the answer alone hides: FastAPI's filter drops it
    assert TestClient(app).get("/thing").json() == {"kept": 1}


def test_every_status_the_edge_answers_is_one_the_operation_documents(db_url, record_payloads):
    # the middleware answers before any route runs, whichever route the request was for: each of
    # its refusals, provoked on every operation of the schema, is a status that operation documents
    # (with the error body), as Walk.request checks
    with TestClient(make_app(db_url, bot_workers=0, rate_limits=False)) as raw:
        w = Walk(raw)
        seen: dict[int, int] = {}

        def expect(status: int, method: str, path: str, **kw: Any) -> None:
            r = w.request(method, path, **kw)
            assert r.status_code == status, (method, path, status, r.text[:200])
            seen[status] = seen.get(status, 0) + 1

        for method, template in w.routes:
            path = re.sub(r"\{[^}/]+\}", "x1", template)
            expect(400, method, path, headers={"Host": "elsewhere.example"})
            expect(401, method, path, headers={"Authorization": "Bearer " + "t" * 65})
            if method in ("POST", "PUT", "PATCH", "DELETE"):
                token = {"Authorization": "Bearer unknown"}  # past the acts' check that a token is there
                expect(403, method, path, headers={"Origin": "https://elsewhere.example"}, json={})
                expect(413, method, path, content=b"{" + b" " * 2_100_000 + b"}",
                       headers={"Content-Type": "application/json", **token})
                expect(415, method, path, content=b"a=1",
                       headers={"Content-Type": "application/x-www-form-urlencoded", **token})
                expect(422, method, path, content=b"{not json", headers={"Content-Type": "application/json", **token})
        assert seen[400] == seen[401] == len(w.routes) and seen[415] == seen[413] >= 30, seen
