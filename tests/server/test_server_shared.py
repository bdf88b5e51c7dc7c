"""Issue 44 §3: what several web processes share — rate limits in Redis (security.limits_storage)
and the fan-out (server/fanout.py) through Redis pub/sub or PostgreSQL's NOTIFY. Each test
starts its own redis-server (tests/services.py)."""

from __future__ import annotations

import asyncio

import pytest
from fastapi.testclient import TestClient

from apiutil import make_app
from services import free_port, redis_server

#: a small budget, so that twice it is a few requests
LIMITS = {"create": ("5/minute", "5/minute"), "invite": ("60/minute", "30/minute"),
          "act": ("30/second", "10/second"), "replay": ("120/minute", "60/minute")}


def alternate(apps, n: int, ip: str) -> list[int]:
    """``n`` match creations from one client address, alternating between ``apps``."""
    statuses = []
    for i in range(n):
        client = apps[i % len(apps)]
        r = client.post("/api/matches", json={"game": "nibble", "seats": ["human", "human"]},
                        headers={"X-Forwarded-For": ip})
        statuses.append(r.status_code)
    return statuses


def two_workers(db_url: str, redis_url: str | None):
    """Two apps on one database, as two workers behind a proxy (the client address comes from
    X-Forwarded-For, as uvicorn reads it behind nginx)."""
    return [make_app(db_url, limits=LIMITS, redis_url=redis_url) for _ in range(2)]


class ForwardedFor:
    """What uvicorn's proxy-headers middleware does behind nginx: the client address is the
    X-Forwarded-For the proxy set (TestClient's own address is always 'testclient')."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            for key, value in scope.get("headers") or ():
                if key == b"x-forwarded-for":
                    scope = {**scope, "client": (value.decode(), 0)}
        await self.app(scope, receive, send)


def test_a_client_alternating_between_two_workers_meets_its_budget_once(db_url):
    with redis_server() as redis_url:
        a, b = two_workers(db_url, redis_url)
        with TestClient(ForwardedFor(a)) as ca, TestClient(ForwardedFor(b)) as cb:
            statuses = alternate([ca, cb], 8, "192.0.2.10")
            assert statuses == [201] * 5 + [429] * 3
            refused = cb.post("/api/matches", json={"game": "nibble"}, headers={"X-Forwarded-For": "192.0.2.10"})
            assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
            assert refused.json()["i18n"]["key"] == "error.rate_limited"
            # another address has its own budget
            assert alternate([ca, cb], 2, "192.0.2.11") == [201, 201]


def test_without_redis_each_worker_counts_alone(db_url):
    """The reason for Redis: in each process's memory two workers give twice the budget."""
    a, b = two_workers(db_url, None)
    with TestClient(ForwardedFor(a)) as ca, TestClient(ForwardedFor(b)) as cb:
        assert alternate([ca, cb], 12, "192.0.2.12") == [201] * 10 + [429] * 2


def test_a_redis_that_does_not_answer_leaves_each_worker_counting_alone(db_url, monkeypatch):
    from test_server_ops import sample

    from abstracta.server import fanout

    monkeypatch.setattr(fanout, "CONNECT_SECONDS", 0.5)  # the start waits that long for Redis

    gone = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    app = make_app(db_url, limits=LIMITS, redis_url=gone)
    with TestClient(ForwardedFor(app)) as c:
        before = sample(c.get("/metrics").text, "abstracta_errors_total", type="RateLimitStorageUnavailable")
        # play goes on, limited by this process's own counters
        assert alternate([c], 7, "192.0.2.13") == [201] * 5 + [429] * 2
        after = sample(c.get("/metrics").text, "abstracta_errors_total", type="RateLimitStorageUnavailable")
        assert after - before == 7
        ready = c.get("/readyz")
        assert ready.status_code == 503 and ready.json()["checks"]["redis"] != "ok"
        assert ready.json()["checks"]["database"] == "ok"


def test_readiness_checks_redis(db_url):
    with redis_server() as redis_url:
        with TestClient(make_app(db_url, redis_url=redis_url)) as c:
            assert c.get("/readyz").json() == {"status": "ready", "checks": {"database": "ok", "redis": "ok"}}


def test_the_storage_choice():
    from limits.aio.storage import MemoryStorage, RedisStorage

    from abstracta.server.security import limits_storage

    assert isinstance(limits_storage(None), MemoryStorage)
    assert isinstance(limits_storage("redis://127.0.0.1:6390/0"), RedisStorage)
    assert isinstance(limits_storage("unix:///run/redis.sock"), RedisStorage)
    with pytest.raises(ValueError, match="expected redis://"):
        limits_storage("http://127.0.0.1:6390")


def test_serve_refuses_a_redis_url_of_another_scheme():
    from typer.testing import CliRunner

    from abstracta.cli import app

    result = CliRunner().invoke(app, ["serve", "--port", "0", "--redis", "mysql://x"])
    assert result.exit_code != 0 and "expected redis://" in result.output


# --- the fan-out --------------------------------------------------------------------------------
def run(coroutine) -> None:
    """``asyncio.run(coroutine)`` in a thread of its own: a browser test of the same pytest process
    may have left Playwright's event loop running in this one."""
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, coroutine).result()


async def _two_processes(make) -> None:
    """Two fan-outs as two workers' would be: a message published by one reaches the
    subscribers of its topic in both, and nobody else's."""
    a, b = make(), make()
    await a.start()
    await b.start()
    try:
        got_a: list[dict] = []
        got_b: list[dict] = []
        other: list[dict] = []
        both = asyncio.Event()

        def on_b(message):
            got_b.append(message)
            if got_a and got_b:
                both.set()

        def on_a(message):
            got_a.append(message)
            if got_a and got_b:
                both.set()

        a.subscribe("presence", on_a)
        b.subscribe("presence", on_b)
        b.subscribe("seeks", other.append)
        a.publish("presence", {"user": "aino", "online": True})
        await asyncio.wait_for(both.wait(), 10)
        assert got_a == got_b == [{"user": "aino", "online": True}]
        # from another thread too, in order
        await asyncio.to_thread(lambda: [b.publish("presence", {"n": i}) for i in range(20)])
        for _ in range(200):
            if len(got_a) == 21 and len(got_b) == 21:
                break
            await asyncio.sleep(0.05)
        assert got_a[1:] == got_b[1:] == [{"n": i} for i in range(20)]
        assert other == []
    finally:
        await a.close()
        await b.close()


def test_fanout_through_redis():
    from abstracta.server.fanout import RedisFanout

    with redis_server() as url:
        run(_two_processes(lambda: RedisFanout(url)))


def test_fanout_through_postgresql_notify(db_url):
    if not db_url.startswith("postgresql"):
        pytest.skip("needs ABSTRACTA_TEST_DB_URL=postgresql…")
    from abstracta.server.fanout import PostgresFanout
    from abstracta.server.storage import Store

    store = Store(db_url)
    url = store.listen_url()
    store.dispose()
    run(_two_processes(lambda: PostgresFanout(url)))


def test_fanout_in_one_process():
    from abstracta.server.fanout import Fanout

    async def one() -> None:
        fanout = Fanout()
        await fanout.start()
        got: list[dict] = []
        unsubscribe = fanout.subscribe("seeks", got.append)
        fanout.publish("seeks", {"id": 1})
        await asyncio.sleep(0)
        unsubscribe()
        fanout.publish("seeks", {"id": 2})
        await asyncio.sleep(0)
        assert got == [{"id": 1}]
        await fanout.close()

    run(one())


def test_fanout_refuses_what_it_cannot_carry():
    from abstracta.server.fanout import Fanout, FanoutError

    fanout = Fanout()
    with pytest.raises(FanoutError, match="JSON object"):
        fanout.publish("seeks", ["not", "an", "object"])
    with pytest.raises(FanoutError, match="at most 7900 bytes"):
        fanout.publish("seeks", {"text": "x" * 8000})
    with pytest.raises(FanoutError, match="topic"):
        fanout.publish("a:b", {})


def test_the_fanout_a_deployment_gets(db_url):
    from abstracta.server.fanout import Fanout, PostgresFanout, RedisFanout, make_fanout

    assert type(make_fanout(None, None)) is Fanout
    assert isinstance(make_fanout("redis://127.0.0.1:1/0", "postgresql://x@y/z"), RedisFanout)
    assert isinstance(make_fanout(None, "postgresql://x@y/z"), PostgresFanout)
    app = make_app(db_url)
    expected = PostgresFanout if db_url.startswith("postgresql") else Fanout
    assert type(app.state.fanout) is expected


def test_a_sign_out_on_one_worker_closes_the_persons_socket_on_the_other(db_url):
    """anna's socket on worker B trusts its reading of her session (no database read at every
    push, server/signed_in.py); she signs out on worker A: B hears it through Redis, which wakes
    the socket: it reads again and closes, with no change of the game needed."""
    import time

    from test_signed_in_ends import closed_within

    from abstracta.people.credentials import Passwords

    with redis_server() as redis_url:
        a, b = (make_app(db_url, rate_limits=False, redis_url=redis_url) for _ in range(2))
        for app in (a, b):
            app.state.people.passwords = Passwords.light()
        with TestClient(a) as ca, TestClient(b) as cb:
            r = ca.post("/api/accounts", json={"username": "anna", "password": "correct horse"})
            assert r.status_code == 201
            anna = a.state.people.accounts._named("anna").id
            cb.cookies.update(ca.cookies)  # the same browser, its requests sent to the other worker
            made = cb.post("/api/matches", json={"game": "nibble", "seats": ["human", "human"], "take": [0, 1]}).json()
            assert made["my_seats"] == [0, 1]
            with cb.websocket_connect(f"/api/matches/{made['id']}/ws") as ws:
                ws.send_json({"tokens": []})
                view = ws.receive_json()
                ws.send_json({"move": {"action": view["legal"][0], "ply": 0}, "id": 1})
                frames = [ws.receive_json(), ws.receive_json()]
                assert {"ack": 1, "ply": 1} in frames
                assert b.state.signed_in.remembered() == 0
                assert ca.delete("/api/session").status_code == 204
                deadline = time.monotonic() + 10
                while b.state.signed_in.remembered() == 0 and time.monotonic() < deadline:
                    time.sleep(0.02)
                assert anna in b.state.signed_in._ended_at, "worker B never heard of the sign-out"
                assert closed_within(ws) == 4401
