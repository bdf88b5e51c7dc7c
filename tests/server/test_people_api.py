"""The people API (issue 41): accounts, sign-in, guests, sessions, API tokens, profiles,
leaderboards, deletion and export, with the contract's statuses and cookies."""

from __future__ import annotations

import logging

import pytest
from fastapi.testclient import TestClient

from apiutil import make_app

from abstracta import load_game
from abstracta.people.credentials import Passwords

PW = "correct horse"


def build(db_url: str, base_url: str = "http://testserver", **settings):
    app = make_app(db_url, **settings)
    app.state.people.passwords = Passwords.light()  # Argon2id all the same, with small parameters
    return app


@pytest.fixture
def app(db_url):
    return build(db_url, rate_limits=False)


@pytest.fixture
def web(app):
    with TestClient(app) as c:
        yield c


def browser(app, base_url: str = "http://testserver") -> TestClient:
    """Another browser (its own cookie jar) on the same app."""
    return TestClient(app, base_url=base_url)


def sign_up(c: TestClient, name: str = "anna", password: str = PW):
    r = c.post("/api/accounts", json={"username": name, "password": password})
    assert r.status_code == 201, r.text
    return r


def test_sign_up_answers_201_with_a_session_cookie(web):
    r = sign_up(web, "Anna")
    body = r.json()
    assert body["kind"] == "account" and body["name"] == "Anna" and len(body["recovery_codes"]) == 8
    cookie = r.headers["set-cookie"]
    assert cookie.startswith("abstracta=") and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert "Secure" not in cookie  # plain http://: a Secure cookie would be dropped
    assert r.headers["cache-control"] == "no-store"
    assert web.get("/api/me").json()["name"] == "Anna"


@pytest.mark.parametrize("taken", ["anna", "ANNA", "aNnA"])
def test_a_taken_name_in_any_case_is_409(web, taken):
    sign_up(web, "Anna")
    r = browser(web.app).post("/api/accounts", json={"username": taken, "password": PW})
    assert r.status_code == 409 and r.json()["i18n"]["key"] == "people.error.name_taken"


@pytest.mark.parametrize("body", [
    {"username": "anna", "password": "short"}, {"username": "a", "password": PW}, {"username": "an na", "password": PW},
    {"username": "a" * 21, "password": PW}, {"username": "anna", "password": 12345678},
    {"username": "anna"}, {"username": "anna", "password": PW, "admin": True},
])
def test_a_short_password_or_a_bad_name_is_422(web, body):
    r = web.post("/api/accounts", json=body)
    assert r.status_code == 422, r.text
    assert "set-cookie" not in r.headers


def test_sign_in_200_wrong_401_sign_out(app, web):
    sign_up(web)
    other = browser(app)
    r = other.post("/api/session", json={"username": "ANNA", "password": PW})
    assert r.status_code == 200 and r.json()["name"] == "anna" and "HttpOnly" in r.headers["set-cookie"]
    assert other.get("/api/me").json()["kind"] == "account"
    wrong = browser(app).post("/api/session", json={"username": "anna", "password": "wrong horse"})
    unknown = browser(app).post("/api/session", json={"username": "nobody", "password": "wrong horse"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()
    assert other.delete("/api/session").status_code == 204
    assert other.get("/api/me").json() == {"kind": None, "name": None}
    assert web.get("/api/me").json()["name"] == "anna"  # the other browser's session is its own


def test_more_than_ten_wrong_attempts_a_minute_is_429(db_url):
    app = build(db_url)  # rate limits on, as abstracta serve has them
    with TestClient(app) as c:
        sign_up(c)
        statuses = [browser(app).post("/api/session", json={"username": "anna", "password": f"wrong {i:04}"}).status_code
                    for i in range(11)]
        assert statuses == [401] * 10 + [429]
        refused = browser(app).post("/api/session", json={"username": "anna", "password": PW})
        assert refused.status_code == 429 and 1 <= int(refused.headers["retry-after"]) <= 60
        # another account from the same address is not locked out
        sign_up(browser(app), "ben")
        assert browser(app).post("/api/session", json={"username": "ben", "password": PW}).status_code == 200


def test_over_https_the_cookie_is_secure_and_host_prefixed(app):
    with TestClient(app, base_url="https://testserver") as c:
        r = sign_up(c)
        cookie = r.headers["set-cookie"]
        assert cookie.startswith("__Host-abstracta=") and "Secure" in cookie and "Path=/" in cookie
        assert c.get("/api/me").json()["name"] == "anna"


def test_behind_a_trusted_https_proxy_the_cookie_is_secure(app):
    from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

    # uvicorn reads X-Forwarded-Proto from the proxies it trusts (--forwarded-allow-ips)
    # (no lifespan: the people routes need none)
    trusted = TestClient(ProxyHeadersMiddleware(app, trusted_hosts="testclient"))
    r = trusted.post("/api/accounts", json={"username": "anna", "password": PW}, headers={"X-Forwarded-Proto": "https"})
    assert r.status_code == 201 and "Secure" in r.headers["set-cookie"]
    untrusted = TestClient(ProxyHeadersMiddleware(app, trusted_hosts="10.9.9.9"))  # another sender's header
    r = untrusted.post("/api/accounts", json={"username": "ben", "password": PW}, headers={"X-Forwarded-Proto": "https"})
    assert r.status_code == 201 and "Secure" not in r.headers["set-cookie"]


def test_guest_session_name_change_and_sign_up_keeps_the_person(app, web):
    r = web.post("/api/guests")
    assert r.status_code == 201 and r.json()["kind"] == "guest" and r.json()["name"].startswith("Guest")
    assert web.post("/api/guests").status_code == 200  # already a guest: the same one
    assert web.put("/api/me/name", json={"name": "Kalle"}).json()["name"] == "Kalle"
    other = browser(app)
    other.post("/api/guests")
    assert other.put("/api/me/name", json={"name": "kalle"}).status_code == 409
    assert other.put("/api/me/name", json={"name": "x"}).status_code == 422
    people = app.state.people
    guest_id = people.sessions.authenticate(secret=web.cookies["abstracta"]).person.id
    people.standings.take_seat("m1", 1, guest_id)
    sign_up(web, "Kalle")
    me = people.sessions.authenticate(secret=web.cookies["abstracta"])
    assert me.person.id == guest_id and me.person.kind == "account"
    assert people.standings.seats_of(guest_id) == {"m1": {1}}
    assert web.put("/api/me/name", json={"name": "Other"}).status_code == 409
    assert browser(app).put("/api/me/name", json={"name": "Nobody"}).status_code == 401


def test_sessions_are_listed_and_ended(app, web):
    sign_up(web)
    phone = browser(app)
    phone.post("/api/session", json={"username": "anna", "password": PW}, headers={"User-Agent": "Phone"})
    listed = web.get("/api/me/sessions").json()
    assert len(listed) == 2 and [s["current"] for s in listed].count(True) == 1
    phone_id = next(s["id"] for s in listed if s["user_agent"] == "Phone")
    assert web.delete(f"/api/me/sessions/{phone_id}").status_code == 204
    assert phone.get("/api/me").json()["kind"] is None
    assert web.delete("/api/me/sessions/nonexistent").status_code == 404
    phone.post("/api/session", json={"username": "anna", "password": PW})
    assert web.delete("/api/me/sessions").json() == {"ended": 1}
    assert phone.get("/api/me").json()["kind"] is None and web.get("/api/me").json()["name"] == "anna"
    assert browser(app).get("/api/me/sessions").status_code == 401


def test_api_tokens_scoped_and_revocable(app, web):
    sign_up(web)
    r = web.post("/api/me/tokens", json={"description": "my bot", "scopes": ["read", "play"]})
    assert r.status_code == 201
    made = r.json()
    token = made["token"]
    assert token.startswith("abst_") and made["hint"] == token[:9] and made["scopes"] == ["play", "read"]
    listed = web.get("/api/me/tokens").json()
    assert [t["id"] for t in listed] == [made["id"]] and "token" not in listed[0]
    script = browser(app)
    auth = {"Authorization": f"Bearer {token}"}
    assert script.get("/api/me", headers=auth).json()["token"] == {"id": made["id"], "scopes": ["play", "read"]}
    assert script.get("/api/me/export", headers=auth).status_code == 200
    # a token manages nothing of the account
    assert script.post("/api/me/tokens", json={"description": "x", "scopes": ["read"]}, headers=auth).status_code == 403
    assert script.get("/api/me/sessions", headers=auth).status_code == 403
    assert script.request("DELETE", "/api/me", json={"password": PW}, headers=auth).status_code == 403
    assert web.post("/api/me/tokens", json={"description": "x", "scopes": ["root"]}).status_code == 422
    no_read = web.post("/api/me/tokens", json={"description": "player", "scopes": ["play"]}).json()["token"]
    assert script.get("/api/me/export", headers={"Authorization": f"Bearer {no_read}"}).status_code == 403
    assert web.delete(f"/api/me/tokens/{made['id']}").status_code == 204
    assert script.get("/api/me", headers=auth).json()["kind"] is None
    assert web.delete(f"/api/me/tokens/{made['id']}").status_code == 404


def test_recovery_codes_sign_in_once(app, web):
    codes = sign_up(web).json()["recovery_codes"]
    lost = browser(app)
    r = lost.post("/api/accounts/recover", json={"username": "anna", "code": codes[0], "password": "new password"})
    assert r.status_code == 200 and "HttpOnly" in r.headers["set-cookie"]
    assert web.get("/api/me").json()["kind"] is None  # every other session ended
    again = browser(app).post("/api/accounts/recover", json={"username": "anna", "code": codes[0], "password": "newer pw!"})
    assert again.status_code == 401
    assert lost.get("/api/me/recovery-codes").json() == {"left": 7}
    fresh = lost.post("/api/me/recovery-codes", json={"password": "new password"})
    assert fresh.status_code == 201 and len(fresh.json()["recovery_codes"]) == 8


def test_password_change(app, web):
    sign_up(web)
    assert web.post("/api/me/password", json={"current": "wrong horse", "new": "battery staple"}).status_code == 401
    assert web.post("/api/me/password", json={"current": PW, "new": "short"}).status_code == 422
    assert web.post("/api/me/password", json={"current": PW, "new": "battery staple"}).status_code == 204
    assert browser(app).post("/api/session", json={"username": "anna", "password": "battery staple"}).status_code == 200


def rated_game(app, winner: str, loser: str, match_id: str, clock=None):
    people = app.state.people
    ids = {n: people.standings.profile(n)["username"] and people.accounts._account(n).id for n in (winner, loser)}
    return people.standings.record_game(match_id, load_game("nibble", variant="hex"), clock, [1, -1],
                                        {0: ids[winner], 1: ids[loser]}, rated=True)


def test_player_profile_has_ratings_by_pool(app, web):
    sign_up(web, "anna")
    sign_up(browser(app), "ben")
    profile = web.get("/api/players/anna").json()
    assert profile["ratings"] == {} and profile["recent_games"] == [] and profile["username"] == "anna"
    rated_game(app, "anna", "ben", "g1", {"initial": 300, "increment": 3})
    anna, ben = web.get("/api/players/ANNA").json(), web.get("/api/players/ben").json()
    pool = "nibble.hex.blitz"
    assert set(anna["ratings"][pool]) >= {"rating", "rd", "games"}
    assert anna["ratings"][pool]["rating"] > 1500 > ben["ratings"][pool]["rating"]
    assert anna["ratings"][pool]["games"] == 1 and anna["ratings"][pool]["label_key"] == "nibble.variant.hex"
    assert anna["recent_games"][0]["id"] == "g1" and anna["recent_games"][0]["outcome"] == "win"
    assert web.get("/api/players/nobody").status_code == 404


def test_leaderboards(app, web):
    pools = web.get("/api/leaderboards").json()
    assert {"pool": "nibble.hex.blitz", "game": "nibble", "variant": "hex", "speed": "blitz",
            "label_key": "nibble.variant.hex", "label": "Hexagon", "players": 0} in pools
    sign_up(web, "anna")
    sign_up(browser(app), "ben")
    for i in range(10):
        rated_game(app, "anna", "ben", f"g{i}", {"initial": 300, "increment": 3})
    board = web.get("/api/leaderboards/nibble.hex.blitz").json()
    assert [p["username"] for p in board["players"]] == ["anna", "ben"] and board["players"][0]["rank"] == 1
    assert web.get("/api/leaderboards/nibble.hex.rapid").json()["players"] == []
    assert web.get("/api/leaderboards/nope").status_code == 404
    assert web.get("/api/leaderboards/chess.standard.blitz").status_code == 404


def test_levels_have_approximate_ratings(web):
    levels = web.get("/api/levels").json()
    tsivy = {x["level"]: x for x in levels["fanorona.tsivy"]}
    assert tsivy[1]["rating"] == 800 and tsivy[1]["games"] == 0
    assert all(tsivy[n]["rating"] > tsivy[1]["rating"] for n in tsivy if n > 1)


def test_delete_account_keeps_games_under_deleted_player(app, web):
    sign_up(web, "anna")
    sign_up(browser(app), "ben")
    rated_game(app, "anna", "ben", "g1")
    app.state.people.standings.take_seat("g1", 0, app.state.people.accounts._account("anna").id)
    assert web.request("DELETE", "/api/me", json={"password": "wrong horse"}).status_code == 401
    r = web.request("DELETE", "/api/me", json={"password": PW})
    assert r.status_code == 204 and 'abstracta=""' in r.headers["set-cookie"]
    assert web.get("/api/players/anna").status_code == 404
    assert app.state.people.standings.people_of("g1")[0] == {"name": None, "kind": "deleted"}
    assert web.get("/api/players/ben").json()["results"]["nibble"]["losses"] == 1
    assert browser(app).post("/api/session", json={"username": "anna", "password": PW}).status_code == 401


def test_export_is_ones_own_data_and_no_secret(app, web):
    r = sign_up(web)
    codes = r.json()["recovery_codes"]
    token = web.post("/api/me/tokens", json={"description": "bot", "scopes": ["read"]}).json()["token"]
    exported = web.get("/api/me/export")
    assert exported.status_code == 200 and "attachment" in exported.headers["content-disposition"]
    data = exported.json()
    assert data["person"]["name"] == "anna" and data["api_tokens"][0]["description"] == "bot"
    for secret in (PW, token, web.cookies["abstracta"], *codes, "argon2"):
        assert secret not in exported.text
    assert browser(app).get("/api/me/export").status_code == 401


def test_no_password_hash_or_secret_in_any_answer_or_log(app, web, caplog):
    caplog.set_level(logging.DEBUG)
    answers = [sign_up(web), web.get("/api/me"), web.get("/api/me/sessions"), web.get("/api/players/anna"),
               browser(app).post("/api/session", json={"username": "anna", "password": "wrong horse"}),
               web.post("/api/me/tokens", json={"description": "bot", "scopes": ["read"]}), web.get("/api/me/tokens"),
               web.get("/api/me/export")]
    secret = web.cookies["abstracta"]
    for r in answers:
        for bad in (PW, "wrong horse", "argon2", "$m=", secret):
            assert bad not in r.text, (r.request.url, bad)
    for bad in (PW, "wrong horse", "argon2", secret):
        assert bad not in caplog.text


# --- cross-site request forgery --------------------------------------------------------------
@pytest.mark.parametrize("origin", ["http://evil.example", "http://testserver.evil.example", "null",
                                    "http://localhost:9999", "http://127.0.0.1:8000"])
def test_a_state_changing_request_from_another_origin_is_403(app, web, origin):
    sign_up(web)
    r = web.post("/api/me/tokens", json={"description": "stolen", "scopes": ["read"]}, headers={"Origin": origin})
    assert r.status_code == 403 and r.json()["i18n"]["key"] == "error.cross_origin"
    assert web.get("/api/me/tokens").json() == []
    # login CSRF: signing a browser in to another's account
    r = browser(app).post("/api/session", json={"username": "anna", "password": PW}, headers={"Origin": origin})
    assert r.status_code == 403 and "set-cookie" not in r.headers


def test_this_servers_own_origin_passes(web):
    r = web.post("/api/accounts", json={"username": "anna", "password": PW}, headers={"Origin": "http://testserver"})
    assert r.status_code == 201


def test_a_form_body_is_refused_before_it_acts(app, web):
    sign_up(web)
    r = web.post("/api/me/tokens", content=b'{"description": "x", "scopes": ["read"]}',
                 headers={"Content-Type": "text/plain"})
    assert r.status_code == 415
    r = web.post("/api/session", content=b"username=anna&password=correct+horse",
                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 415
    assert web.get("/api/me/tokens").json() == []


def test_a_foreign_host_is_400(web):
    assert web.post("/api/accounts", json={"username": "anna", "password": PW},
                    headers={"Host": "evil.example"}).status_code == 400


def test_a_deleted_accounts_chat_lines_lose_its_name(app, web):
    """The name goes with the account, from its chat lines too (they stay, as "deleted
    player"): someone new who takes the name is not shown as their author."""
    sign_up(web, "anna")
    ben = browser(app)
    sign_up(ben, "ben")
    made = web.post("/api/matches", json={"game": "nibble", "seats": ["human", "human"], "take": [0]}).json()
    mid = made["id"]
    assert ben.post("/api/invites/claim", json={"code": made["invites"][0]["code"]}).status_code == 200
    assert web.post(f"/api/matches/{mid}/chat", json={"text": "hello ben"}).status_code == 201
    assert web.request("DELETE", "/api/me", json={"password": PW}).status_code == 204
    sign_up(browser(app), "anna")  # the name is free: someone new takes it
    lines = ben.get(f"/api/matches/{mid}/chat").json()["lines"]
    assert [(x["name"], x["name_key"], x["person"], x["text"]) for x in lines] == [
        ("", "seat.deleted_player", True, "hello ben")]
