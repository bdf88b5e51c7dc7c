"""Messages to every web process of a deployment (issue 44 §3): one channel for what several
``abstracta serve`` workers must all hear at once — presence, seeks, lobby and chat lines.

A :class:`Fanout` publishes ``(topic, message)`` — ``message`` a small JSON object — and calls
each subscriber of that topic, in every process of the deployment, this one included, with the
message, on the process's event loop. Delivery is at most once and in order per publisher: a
process whose connection dropped misses what was sent meanwhile, and is told so by the
``on_gap`` callbacks once it is back (a subscriber then reads the state afresh, as the match
pushes do after a lost ``LISTEN``). State that must survive lives in the database or in Redis'
own keys; the fan-out only says that it changed.

Three kinds, by what the deployment has (:func:`make_fanout`):

* ``local`` — one process (SQLite, the default): delivered in memory;
* ``redis`` — ``--redis URL``: Redis pub/sub (channel ``abstracta:<topic>``);
* ``postgres`` — PostgreSQL without Redis: ``NOTIFY abstracta_events`` on the games database
  (payload ``{"t": topic, "m": message}``, at most :data:`NOTIFY_BYTES`).

Why Redis where there is one (measured by ``benchmarks/fanout.py``, docs/club.md "Fan-out"):
a ``NOTIFY`` is queued in one cluster-wide queue and sent at commit under a lock that
serialises every notifying commit of the cluster, so messages that are not changes of stored
games would contend with the moves' own commits; Redis pub/sub costs the database nothing. The
match pushes themselves stay on ``NOTIFY abstracta`` inside each move's commit
(:mod:`.push`): delivered exactly when the move is stored, never for one rolled back, with no
window between a commit and a publish in which a crash loses the push.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from typing import Any, Callable

log = logging.getLogger("abstracta.server")

#: The longest message payload a PostgreSQL NOTIFY takes is 8,000 bytes; the topic and the
#: envelope fit in the rest.
NOTIFY_BYTES = 7900
#: Largest message any kind accepts (a presence or a seek is far smaller).
MESSAGE_BYTES = NOTIFY_BYTES
#: The PostgreSQL channel of the fan-out (the match pushes have their own: ``abstracta``).
PG_CHANNEL = "abstracta_events"
#: Redis channels are ``abstracta:<topic>``.
REDIS_PREFIX = "abstracta:"
#: Seconds before a dropped connection is tried again.
RECONNECT_SECONDS = 1.0
#: Most messages sent in one round trip (those queued while the previous trip was out).
BATCH = 500
#: Seconds a process starting waits for its shared connection before it serves without it (and
#: connects in the background; /readyz says not ready meanwhile).
CONNECT_SECONDS = 5.0

Subscriber = Callable[[dict[str, Any]], None]


class FanoutError(ValueError):
    """A message the fan-out cannot carry (not a JSON object, or too long)."""


class Fanout:
    """In-process delivery, and the base of the shared kinds.

    Use from the event loop: :meth:`start` (once the loop runs), :meth:`subscribe`,
    :meth:`close`. :meth:`publish` may be called from any thread."""

    kind = "local"
    shared = False

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self._subscribers: dict[str, list[Subscriber]] = {}
        self._gaps: list[Callable[[], None]] = []
        self._lock = threading.Lock()
        self.connected = asyncio.Event()
        #: messages received (delivered to this process's subscribers or to none)
        self.received = 0

    # --- the interface ------------------------------------------------------------------------
    async def start(self) -> None:
        """Begin delivering on the running loop (shared kinds: connect and wait until they
        listen, at most :data:`CONNECT_SECONDS`; then retried in the background)."""
        self.loop = asyncio.get_running_loop()
        self.connected.set()

    async def close(self) -> None:
        self.loop = None

    def subscribe(self, topic: str, callback: Subscriber, on_gap: Callable[[], None] | None = None
                  ) -> Callable[[], None]:
        """Call ``callback(message)`` on the loop for each message of ``topic`` (from any
        process); ``on_gap()`` after a reconnection (messages may have been missed). Returns
        the function that unsubscribes."""
        with self._lock:
            self._subscribers.setdefault(topic, []).append(callback)
            if on_gap is not None:
                self._gaps.append(on_gap)

        def unsubscribe() -> None:
            with self._lock:
                subs = self._subscribers.get(topic, [])
                if callback in subs:
                    subs.remove(callback)
                if not subs:
                    self._subscribers.pop(topic, None)
                if on_gap is not None and on_gap in self._gaps:
                    self._gaps.remove(on_gap)

        return unsubscribe

    def publish(self, topic: str, message: dict[str, Any]) -> None:
        """Send ``message`` (a JSON object) to ``topic``'s subscribers in every process. Raises
        :class:`FanoutError` for one that is not a JSON object of at most
        :data:`MESSAGE_BYTES`. Thread-safe; never blocks on the network (sent from the loop)."""
        data = encode(topic, message)
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        try:
            if _on_loop(loop):
                self._send(topic, data)
            else:
                loop.call_soon_threadsafe(self._send, topic, data)
        except RuntimeError:  # the loop is closing
            pass

    async def ping(self) -> None:
        """Raise if the shared connection does not answer (the readiness check)."""

    # --- for the kinds --------------------------------------------------------------------------
    def _send(self, topic: str, data: str) -> None:
        self._deliver(topic, data)

    def _deliver(self, topic: str, data: str) -> None:
        """On the loop: hand one received message to this process's subscribers."""
        self.received += 1
        with self._lock:
            subs = list(self._subscribers.get(topic, ()))
        if not subs:
            return
        try:
            message = json.loads(data)
        except ValueError:
            log.warning("fan-out: a message of topic %s is not JSON; dropped", topic[:60])
            return
        for callback in subs:
            try:
                callback(message)
            except Exception:  # noqa: BLE001 - one subscriber's bug must not silence the others
                log.exception("fan-out subscriber of %s failed", topic[:60])

    def _gap(self) -> None:
        with self._lock:
            gaps = list(self._gaps)
        for on_gap in gaps:
            try:
                on_gap()
            except Exception:  # noqa: BLE001
                log.exception("fan-out gap callback failed")


def encode(topic: str, message: dict[str, Any]) -> str:
    """``message`` as compact JSON, checked; raises :class:`FanoutError`."""
    if not isinstance(topic, str) or not topic or len(topic) > 64 or ":" in topic:
        raise FanoutError(f"a fan-out topic is 1-64 characters without ':' (got {str(topic)[:70]!r})")
    if not isinstance(message, dict):
        raise FanoutError(f"a fan-out message is a JSON object, not {type(message).__name__}")
    try:
        data = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise FanoutError(f"a fan-out message must be JSON: {exc}") from None
    if len(data.encode()) > MESSAGE_BYTES:
        raise FanoutError(f"a fan-out message is at most {MESSAGE_BYTES} bytes of JSON "
                          f"(this one: {len(data.encode())})")
    return data


def _on_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


class RedisFanout(Fanout):
    """Redis pub/sub: one connection subscribed to ``abstracta:*`` and the client's pool for
    publishing (``redis.asyncio``)."""

    kind = "redis"
    shared = True

    def __init__(self, url: str):
        super().__init__()
        self.url = url
        self._client: Any = None
        self._task: asyncio.Task | None = None
        self._outbox: asyncio.Queue | None = None
        self._sender: asyncio.Task | None = None

    async def start(self) -> None:
        import redis.asyncio as redis

        self.loop = asyncio.get_running_loop()
        self._client = redis.Redis.from_url(self.url, socket_connect_timeout=2, health_check_interval=30)
        self._outbox = asyncio.Queue()
        self._task = asyncio.create_task(self._listen())
        self._sender = asyncio.create_task(self._send_loop())
        try:
            await asyncio.wait_for(self.connected.wait(), CONNECT_SECONDS)
        except asyncio.TimeoutError:
            log.warning("fan-out: Redis at %s does not answer yet; messages reach other processes once it does",
                        _shown(self.url))

    async def close(self) -> None:
        for task in (self._task, self._sender):
            if task is not None:
                task.cancel()
                try:
                    await task
                except BaseException:  # noqa: BLE001 - cancelled, or it had failed
                    pass
        if self._client is not None:
            await self._client.aclose()
        self.loop = None

    async def ping(self) -> None:
        if not self.connected.is_set():
            raise ConnectionError("not subscribed to Redis")
        await self._client.ping()

    def _send(self, topic: str, data: str) -> None:
        self._outbox.put_nowait((REDIS_PREFIX + topic, data))

    async def _send_loop(self) -> None:
        """Publish in the order given: what queued while a round trip was out goes in the next
        one (a pipeline); a lost connection drops what it held (at most once)."""
        while True:
            batch = await _batch(self._outbox)
            try:
                async with self._client.pipeline(transaction=False) as pipe:
                    for channel, data in batch:
                        pipe.publish(channel, data)
                    await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - Redis away: the messages are lost
                log.warning("fan-out: publishing to Redis failed (%s); %d message(s) dropped",
                            type(exc).__name__, len(batch))

    async def _listen(self) -> None:
        before = False
        while True:
            try:
                async with self._client.pubsub(ignore_subscribe_messages=True) as pubsub:
                    await pubsub.psubscribe(REDIS_PREFIX + "*")
                    self.connected.set()
                    if before:
                        self._gap()
                    before = True
                    async for item in pubsub.listen():
                        if item.get("type") != "pmessage":
                            continue
                        channel = _text(item["channel"])
                        self._deliver(channel[len(REDIS_PREFIX):], _text(item["data"]))
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - Redis restarted or the network hiccuped
                self.connected.clear()
                log.warning("fan-out: Redis subscription lost (%s); reconnecting", type(exc).__name__)
                await asyncio.sleep(RECONNECT_SECONDS)


class PostgresFanout(Fanout):
    """PostgreSQL ``LISTEN abstracta_events`` / ``pg_notify`` on two autocommit connections
    (``psycopg``): one listens, one sends."""

    kind = "postgres"
    shared = True

    def __init__(self, url: str):
        super().__init__()
        self.url = url  # a libpq URL (Store.listen_url)
        self._task: asyncio.Task | None = None
        self._sender: asyncio.Task | None = None
        self._outbox: asyncio.Queue | None = None
        self._conn: Any = None

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._outbox = asyncio.Queue()
        self._task = asyncio.create_task(self._listen())
        self._sender = asyncio.create_task(self._send_loop())
        try:
            await asyncio.wait_for(self.connected.wait(), CONNECT_SECONDS)
        except asyncio.TimeoutError:
            log.warning("fan-out: LISTEN %s is not ready yet", PG_CHANNEL)

    async def close(self) -> None:
        for task in (self._task, self._sender):
            if task is not None:
                task.cancel()
                try:
                    await task
                except BaseException:  # noqa: BLE001
                    pass
        self.loop = None

    async def ping(self) -> None:
        if not self.connected.is_set():
            raise ConnectionError(f"not listening on {PG_CHANNEL}")

    def _send(self, topic: str, data: str) -> None:
        self._outbox.put_nowait(f'{{"t":{json.dumps(topic)},"m":{data}}}')

    async def _send_loop(self) -> None:
        import psycopg

        conn = None
        try:
            while True:
                # what queued while a round trip was out goes in the next, one statement (one
                # transaction: PostgreSQL folds identical payloads of a transaction into one)
                payloads = await _batch(self._outbox)
                for attempt in (1, 2):
                    try:
                        if conn is None or conn.closed:
                            conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
                        await conn.execute("SELECT pg_notify(%s, p) FROM unnest(%s::text[]) WITH ORDINALITY AS u(p, n) "
                                           "ORDER BY n", (PG_CHANNEL, payloads))
                        break
                    except asyncio.CancelledError:
                        raise
                    except Exception as exc:  # noqa: BLE001 - reconnect once, else drop them
                        conn = None
                        if attempt == 2:
                            log.warning("fan-out: NOTIFY failed (%s); %d message(s) dropped", type(exc).__name__,
                                        len(payloads))
        finally:
            if conn is not None:
                await conn.close()

    async def _listen(self) -> None:
        import psycopg

        before = False
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {PG_CHANNEL}")
                    self.connected.set()
                    if before:
                        self._gap()
                    before = True
                    async for note in conn.notifies():
                        try:
                            envelope = json.loads(note.payload)
                            topic, message = envelope["t"], envelope["m"]
                        except (ValueError, KeyError, TypeError):
                            continue
                        self._deliver(topic, json.dumps(message))
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001
                self.connected.clear()
                log.warning("fan-out: LISTEN %s lost (%s); reconnecting", PG_CHANNEL, type(exc).__name__)
                await asyncio.sleep(RECONNECT_SECONDS)


async def _batch(outbox: asyncio.Queue) -> list[Any]:
    """The next message of ``outbox`` (waiting for one) and those queued behind it."""
    batch = [await outbox.get()]
    while len(batch) < BATCH:
        try:
            batch.append(outbox.get_nowait())
        except asyncio.QueueEmpty:
            break
    return batch


def make_fanout(redis_url: str | None = None, listen_url: str | None = None) -> Fanout:
    """The deployment's fan-out: Redis pub/sub when a Redis URL is given, else PostgreSQL's
    NOTIFY when the games database is PostgreSQL (``listen_url``: a libpq URL), else in
    memory (one process)."""
    if redis_url:
        return RedisFanout(redis_url)
    if listen_url:
        return PostgresFanout(listen_url)
    return Fanout()


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _shown(url: str) -> str:
    """A URL without its password, for the log."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://…@{rest.rsplit('@', 1)[1]}"
    return url


__all__ = ["Fanout", "FanoutError", "PostgresFanout", "RedisFanout", "make_fanout"]
