"""Web Push notices of correspondence games (issue 43 §1): a move in a game of days per move
sends the seat to move a notice that a local push endpoint decrypts with the subscription's own
keys (RFC 8291, aes128gcm), signed with the server's VAPID key, which the server made on its
first start and keeps in its database. No outside push service is reachable here: the endpoint
is a small HTTP server of the test, holding the private key a browser would."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from apiutil import bearer, make_app
from fastapi.testclient import TestClient

DAY = 86400


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushEndpoint:
    """A push service of the test on 127.0.0.1: keeps what is posted to it; answers ``status``."""

    def __init__(self, status: int = 201, location: str | None = None):
        self.received: list[tuple[str, dict[str, str], bytes]] = []
        self.status, self.location = status, location
        self.arrived = threading.Condition()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with owner.arrived:
                    owner.received.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                    owner.arrived.notify_all()
                self.send_response(owner.status)
                if owner.location:
                    self.send_header("Location", owner.location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def wait(self, count: int, timeout: float = 10.0) -> None:
        with self.arrived:
            if not self.arrived.wait_for(lambda: len(self.received) >= count, timeout):
                raise AssertionError(f"{len(self.received)} notices arrived, not {count}")

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Browser:
    """A subscription's keys, as a browser holds them: a P-256 key pair and a 16-byte secret."""

    def __init__(self, endpoint: str):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        point = self.key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        self.subscription = {"endpoint": endpoint, "keys": {"p256dh": b64(point), "auth": b64(self.auth)}}

    def decrypt(self, body: bytes) -> dict:
        return json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"))


@pytest.fixture
def endpoint():
    service = PushEndpoint()
    yield service
    service.close()


@pytest.fixture
def local_client(client):
    """The API client, its server allowed to post to the test's local endpoint (http, 127.0.0.1)."""
    push = client.raw.app.state.social.webpush
    push.schemes, push.allow_local = ("https", "http"), True
    return client


def apart(raw, clock=None):
    body = {"game": "toy-nim", "options": {"stones": 9}, "seats": ["human", "human"], "take": [0]}
    if clock:
        body["clock"] = clock
    view = raw.post("/api/matches", json=body).json()
    t1 = raw.post("/api/invites/claim", json={"code": view["invites"][0]["code"]}).json()["tokens"][0]["token"]
    return view["id"], view["tokens"][0]["token"], t1


def play(raw, mid, token):
    view = raw.get(f"/api/matches/{mid}", headers=bearer(token)).json()
    answer = raw.post(f"/api/matches/{mid}/actions", json={"action": view["legal"][0], "ply": view["ply"]},
                      headers=bearer(token))
    assert answer.status_code == 200, answer.text
    return answer.json()


def verify_vapid(headers: dict[str, str], server_key: str, audience: str) -> dict:
    """The VAPID header (RFC 8292; ``headers`` by lower-case name): ``vapid t=<JWT>, k=<key>``, the key the server's, the JWT
    signed by it (ES256) for the push service's origin. Its claims."""
    auth = headers["authorization"]
    assert auth.startswith("vapid ")
    parts = dict(p.strip().split("=", 1) for p in auth[len("vapid "):].split(","))
    assert parts["k"] == server_key
    head, claims, signature = parts["t"].split(".")
    raw = unb64(signature)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(server_key))
    public.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
                  f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    decoded = json.loads(unb64(claims))
    assert decoded["aud"] == audience and decoded["exp"] > time.time()
    return decoded


def test_a_correspondence_move_sends_a_notice_the_endpoint_decrypts(local_client, endpoint):
    raw = local_client.raw
    key = raw.get("/api/push/key").json()["key"]
    assert len(unb64(key)) == 65
    mid, t0, t1 = apart(raw, clock={"per_turn": 2 * DAY})
    browser = Browser(f"{endpoint.url}/push/seat-1")
    answer = raw.post(f"/api/matches/{mid}/push", json={"subscription": browser.subscription, "lang": "fi"},
                      headers=bearer(t1))
    assert answer.status_code == 201 and answer.json() == {"seats": [1]}
    play(raw, mid, t0)  # seat 0 moves: seat 1's turn
    endpoint.wait(1)
    path, headers, body = endpoint.received[0]
    assert path == "/push/seat-1"
    assert headers["content-encoding"] == "aes128gcm" and int(headers["ttl"]) == DAY
    notice = browser.decrypt(body)
    assert notice["title"] == "Sinun vuorosi — Toy Nim"  # the subscriber's language
    assert notice["url"] == f"/#/match/{mid}" and "1" in notice["body"]
    verify_vapid(headers, key, endpoint.url)
    # a key that is not the subscription's reads nothing of it
    with pytest.raises(Exception):
        Browser(endpoint.url).decrypt(body)
    # seat 1 plays: seat 0 has no subscription, nothing is sent; seat 0 subscribes, and the next
    # move of seat 1 reaches it (in English)
    play(raw, mid, t1)
    other = Browser(f"{endpoint.url}/push/seat-0")
    assert raw.post(f"/api/matches/{mid}/push", json={"subscription": other.subscription},
                    headers=bearer(t0)).status_code == 201
    play(raw, mid, t0)
    play(raw, mid, t1)
    endpoint.wait(3)
    # (two notices may be on their way at once: in any order)
    notices = sorted((p, (browser if p.endswith("seat-1") else other).decrypt(b)["title"]) for p, _, b in endpoint.received)
    assert notices == [("/push/seat-0", "Your move — Toy Nim"), ("/push/seat-1", "Sinun vuorosi — Toy Nim"),
                       ("/push/seat-1", "Sinun vuorosi — Toy Nim")]
    counts = raw.app.state.social.webpush.counts
    deadline = time.time() + 5
    while counts["sent"] < 3 and time.time() < deadline:  # counted once the endpoint has answered
        time.sleep(0.02)
    assert counts == {"sent": 3, "failed": 0, "gone": 0}


def test_the_vapid_key_is_made_once_and_kept_with_the_data(db_url):
    with TestClient(make_app(db_url, rate_limits=False)) as first:
        key = first.get("/api/push/key").json()["key"]
    with TestClient(make_app(db_url, rate_limits=False)) as again:
        assert again.get("/api/push/key").json()["key"] == key
    from abstracta.server.social_tables import ServerKeyRow
    from abstracta.server.storage import Store
    store = Store(db_url)
    with store.reading() as s:
        assert s.get(ServerKeyRow, "vapid").value.startswith("-----BEGIN PRIVATE KEY-----")
    store.dispose()


def test_only_correspondence_games_and_only_their_players_subscribe(local_client, endpoint):
    raw = local_client.raw
    browser = Browser(f"{endpoint.url}/push/x")
    live, t0, _ = apart(raw, clock={"initial": 300, "increment": 3})
    refused = raw.post(f"/api/matches/{live}/push", json={"subscription": browser.subscription}, headers=bearer(t0))
    assert refused.status_code == 409
    mid, t0, _ = apart(raw, clock={"per_turn": DAY})
    assert raw.post(f"/api/matches/{mid}/push", json={"subscription": browser.subscription}).status_code == 403
    guest = TestClient(raw.app)
    guest.post("/api/guests")
    assert guest.post(f"/api/matches/{mid}/push", json={"subscription": browser.subscription}).status_code == 403


def test_a_subscription_is_checked_before_the_server_posts_to_it(client):
    raw = client.raw
    mid, t0, _ = apart(raw, clock={"per_turn": DAY})
    good = Browser("https://push.example.net/send/abc").subscription

    def sub(**change):
        return {**good, **change}

    cases = [sub(endpoint="http://push.example.net/x"),        # https only
             sub(endpoint="https://127.0.0.1:6379/x"),          # not a local address
             sub(endpoint="https://10.1.2.3/x"), sub(endpoint="https://localhost/x"),
             sub(endpoint="https://[::1]/x"), sub(endpoint="ftp://push.example.net/x"), sub(endpoint=None),
             # the forms of 127.0.0.1 and 10.0.0.1 the resolver reads and ipaddress does not
             sub(endpoint="https://127.1/x"), sub(endpoint="https://2130706433/x"),
             sub(endpoint="https://0x7f000001/x"), sub(endpoint="https://10.1/x"),
             sub(endpoint="https://[::ffff:127.0.0.1]/x"), sub(endpoint="https://0.0.0.0/x"),
             sub(keys={"p256dh": b64(b"\x04" + b"\x01" * 64), "auth": good["keys"]["auth"]}),  # not on the curve
             sub(keys={"p256dh": good["keys"]["p256dh"], "auth": b64(b"short")}), sub(keys=None)]
    for case in cases:
        answer = raw.post(f"/api/matches/{mid}/push", json={"subscription": case}, headers=bearer(t0))
        assert answer.status_code == 422, case
    assert raw.post(f"/api/matches/{mid}/push", json={"subscription": good}, headers=bearer(t0)).status_code == 201
    # (no move is played: nothing is sent to that address, which is no test's)
    assert raw.app.state.social.webpush.subscribed(mid, 0)[0].endpoint == good["endpoint"]
    assert raw.request("DELETE", f"/api/matches/{mid}/push", json={"endpoint": good["endpoint"]},
                       headers=bearer(t0)).status_code == 204
    assert raw.app.state.social.webpush.subscribed(mid, 0) == []


def test_a_subscription_the_push_service_forgot_is_dropped(local_client):
    gone = PushEndpoint(status=410)
    try:
        raw = local_client.raw
        mid, t0, t1 = apart(raw, clock={"per_turn": DAY})
        browser = Browser(f"{gone.url}/push/old")
        assert raw.post(f"/api/matches/{mid}/push", json={"subscription": browser.subscription},
                        headers=bearer(t1)).status_code == 201
        push = raw.app.state.social.webpush
        play(raw, mid, t0)
        gone.wait(1)
        deadline = time.time() + 5
        while push.subscribed(mid, 1) and time.time() < deadline:
            time.sleep(0.02)
        assert push.subscribed(mid, 1) == [] and push.counts["gone"] == 1
    finally:
        gone.close()


def test_a_push_service_that_redirects_is_not_followed(local_client, endpoint):
    """A push service answers; its redirect (to an address inside the server's network, say) is
    not followed: the notice fails there, and nothing reaches where it pointed."""
    mover = PushEndpoint(status=307, location=f"{endpoint.url}/inside")
    try:
        raw = local_client.raw
        mid, t0, t1 = apart(raw, clock={"per_turn": DAY})
        assert raw.post(f"/api/matches/{mid}/push", json={"subscription": Browser(f"{mover.url}/push").subscription},
                        headers=bearer(t1)).status_code == 201
        push = raw.app.state.social.webpush
        play(raw, mid, t0)
        mover.wait(1)
        deadline = time.time() + 5
        while push.counts["failed"] == 0 and time.time() < deadline:
            time.sleep(0.02)
        assert push.counts == {"sent": 0, "failed": 1, "gone": 0}
        assert endpoint.received == []
    finally:
        mover.close()


def test_a_name_that_resolves_to_a_local_address_is_not_posted_to(client, monkeypatch):
    """The name of an endpoint is resolved before each post: one that leads to a loopback or
    private address (a DNS record of the subscriber's) is not posted to."""
    import socket

    from abstracta.server import webpush

    raw = client.raw
    mid, t0, t1 = apart(raw, clock={"per_turn": DAY})
    assert raw.post(f"/api/matches/{mid}/push", json={"subscription": Browser("https://push.example.net/x").subscription},
                    headers=bearer(t1)).status_code == 201
    asked: list[str] = []

    def resolve(host, port, *args, **kwargs):
        asked.append(host)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.7", port))]

    def post(*args, **kwargs):  # pragma: no cover - the defect this test is about
        raise AssertionError("posted to a local address")

    monkeypatch.setattr(webpush.socket, "getaddrinfo", resolve)
    monkeypatch.setattr("requests.Session.post", post)
    push = raw.app.state.social.webpush
    row = push.subscribed(mid, 1)[0]
    assert push.send(row, b"{}") is False
    assert asked == ["push.example.net"] and push.counts["failed"] == 1
