"""Helpers shared by the API tests."""

from __future__ import annotations

import time as time_module

import contextlib
import inspect
import time


def wait_for(client, mid, pred, timeout=10.0):
    """Poll the match view until ``pred(view)`` holds; return that view."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        view = client.get(f"/api/matches/{mid}").json()
        if pred(view):
            return view
        time.sleep(0.02)
    raise AssertionError(f"timed out: {view}")


class Creator:
    """A TestClient that acts as the creator's browser: it keeps the tokens of every answer that
    carries some (creating, importing, claiming) and sends those of the match a request names
    (all of them for ``GET /api/matches``) unless the request sets its own ``headers``.
    ``.raw`` is the bare client (no token: a stranger, or a spectator)."""

    def __init__(self, raw):
        self.raw = raw
        self.tokens: dict[str, dict[int, str]] = {}

    def keep(self, response):
        try:
            body = response.json()
        except ValueError:
            return response
        if isinstance(body, dict) and body.get("tokens") and body.get("id"):
            mine = self.tokens.setdefault(body["id"], {})
            for t in body["tokens"]:
                mine[t["seat"]] = t["token"]
        return response

    def auth(self, url: str) -> dict[str, str]:
        path = url.split("?", 1)[0].rstrip("/")
        parts = path.split("/")
        if path == "/api/matches":
            tokens = [t for seats in self.tokens.values() for t in seats.values()]
        elif len(parts) >= 4 and parts[1:3] == ["api", "matches"]:
            tokens = list(self.tokens.get(parts[3], {}).values())
        else:
            tokens = []
        return {"Authorization": "Bearer " + ",".join(tokens)} if tokens else {}

    def request(self, method, url, **kw):
        body = kw.get("json")
        pass_and_play = (method == "POST" and url in ("/api/matches", "/api/matches/import")
                         and isinstance(body, dict) and "take" not in body)
        if pass_and_play and isinstance(body.get("seats"), list) and "human" in body["seats"]:
            kw["json"] = {**body, "take": [i for i, p in enumerate(body["seats"]) if p == "human"]}
        if "headers" not in kw:
            kw["headers"] = self.auth(url)
        response = self.keep(self.raw.request(method, url, **kw))
        if pass_and_play and response.status_code == 201:  # one device: claim the other seats too
            for invite in response.json()["invites"]:
                self.keep(self.raw.post("/api/invites/claim", json={"code": invite["code"]}))
        return response

    def get(self, url, **kw):
        return self.request("GET", url, **kw)

    def post(self, url, **kw):
        return self.request("POST", url, **kw)

    def delete(self, url, **kw):
        return self.request("DELETE", url, **kw)

    @contextlib.contextmanager
    def websocket_connect(self, url, **kw):
        """A WebSocket whose first message carries the match's tokens, as the shell sends it."""
        path = url.split("?", 1)[0].split("/")
        tokens = list(self.tokens.get(path[3], {}).values()) if len(path) > 3 else []
        with self.raw.websocket_connect(url, **kw) as ws:
            ws.send_json({"tokens": tokens})
            yield ws

    def __getattr__(self, name):
        return getattr(self.raw, name)


def make_app(db_url: str, bot_workers: int = 0, analysis_scale: float = 1.0, **settings):
    """The app as ``abstracta serve`` builds it on localhost, also answering the Host name
    ``testserver`` that Starlette's TestClient sends (rate limits on unless ``settings`` say;
    ``analysis_scale``: a share of the analysis budgets)."""
    from abstracta.server import security
    from abstracta.server.app import create_app

    hosts = security.HostPolicy.for_bind("127.0.0.1", ["testserver"])
    return create_app(db_url, bot_workers=bot_workers, security_settings=security.Security(hosts=hosts, **settings),
                      analysis_scale=analysis_scale)


def bearer(*tokens: str) -> dict[str, str]:
    return {"Authorization": "Bearer " + ",".join(tokens)}



def pushed_elsewhere() -> bool:
    """Whether the push being made passes on another process's change (on PostgreSQL the store's
    own NOTIFY comes back through LISTEN: ``changed_elsewhere``), not the service's own push a
    test breaks."""
    return any(frame.function in ("changed_elsewhere", "forget_all") for frame in inspect.stack(0))


class FakeTime:
    """``time.time`` for the match service, moved by hand (the flags fall when told)."""

    def __init__(self):
        self.now = 1_000_000.0

    def time(self):
        return self.now

    # the kernel times its lock waits and commits (metrics): those run on the real clock
    perf_counter = staticmethod(time_module.perf_counter)
    monotonic = staticmethod(time_module.monotonic)


def hand_clock(monkeypatch) -> FakeTime:
    """The match service's clock, moved by hand (``clock.now += 61``)."""
    from abstracta.server import matches

    fake = FakeTime()
    monkeypatch.setattr(matches, "time", fake)
    return fake


def three_on_a_clock(raw, start: str = "Ga1,Bl12,Rf6 M G", initial: int = 60) -> tuple[str, dict[int, str]]:
    """A 3-player Slide Checkers match from ``start`` on a clock of ``initial`` seconds, every
    seat claimed by its own person: (match id, {seat: token})."""
    record = {"format": "abstracta-record", "version": 1, "game": "slide-checkers", "options": {"players": 3},
              "players": ["human"] * 3, "start": start, "moves": []}
    view = raw.post("/api/matches/import", json={"record": record, "clock": {"initial": initial}}).json()
    tokens = {x["seat"]: x["token"] for x in view["tokens"]}
    for invite in view["invites"]:
        tokens[invite["seat"]] = raw.post("/api/invites/claim", json={"code": invite["code"]}).json()["tokens"][0]["token"]
    return view["id"], tokens
