"""Push, not poll (issue 14 §2): per-match publish/subscribe on the server's event loop, and
timers for running clocks.

The match service runs in worker threads; :meth:`Hub.publish` may be called from any thread
and wakes the match's subscribers (WebSocket handlers) on the loop. A subscriber is an
``asyncio.Event``: bursts of changes coalesce into one wake-up, after which the handler sends
the view of the match as it is then (never a stale intermediate one).

With several processes on one PostgreSQL database, :func:`listen` receives the other
processes' ``NOTIFY abstracta, '<match id>:<revision>'`` and hands them to a callback (which
drops the stale cached match and publishes).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from typing import Any, Callable, Iterator

log = logging.getLogger("abstracta.server")


class Hub:
    """Subscribers per match id, and one clock timer per match (``call_later`` on the loop)."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self._subscribers: dict[str, set[asyncio.Event]] = {}
        self._loops: dict[asyncio.Event, asyncio.AbstractEventLoop] = {}  # the loop each waits on
        # spectators' subscriptions per match (issue 43: "a game shows how many watch it"): this
        # process's, and the other processes' as they announced them (process -> (count, until))
        self._watching: dict[str, int] = {}
        self._elsewhere: dict[str, dict[str, tuple[int, float]]] = {}
        #: called on the loop with (match id, this process's count) when that count changes: the
        #: seam through which the other processes hear of it (social.py, over fanout.py)
        self.on_watchers: Callable[[str, int], None] | None = None
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._lock = threading.Lock()  # the timers' dict is touched from the loop and from threads

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Deliver on ``loop`` from now on (the app's lifespan calls this)."""
        self.loop = loop

    def detach(self) -> None:
        with self._lock:
            for handle in self._timers.values():
                handle.cancel()
            self._timers.clear()
        self.loop = None

    # --- publish / subscribe ----------------------------------------------------------------
    def publish(self, match_id: str) -> None:
        """Wake every subscriber of ``match_id`` (thread-safe; no-op without a loop)."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        try:
            if _on_loop(loop):
                self._wake(match_id)
            else:
                loop.call_soon_threadsafe(self._wake, match_id)
        except RuntimeError:  # the loop is shutting down
            pass

    def _wake(self, match_id: str) -> None:
        for event in list(self._subscribers.get(match_id, ())):
            loop = self._loops.get(event)
            if loop is None or _on_loop(loop):
                event.set()
                continue
            # a subscriber on another event loop than the hub's (a test client's socket runs on
            # a loop of its own): an Event set from a foreign thread wakes nobody there
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:  # that loop is closed: its subscriber is gone
                pass

    @contextlib.contextmanager
    def subscribe(self, match_id: str, spectator: bool = False) -> Iterator[asyncio.Event]:
        """An event set on each change of ``match_id`` (set at once: send the first view).
        ``spectator``: a subscriber holding no seat, counted by :meth:`watchers` (whose change
        wakes the subscribers of :func:`room_key`). Call on the loop."""
        event = asyncio.Event()
        event.set()
        try:
            self._loops[event] = asyncio.get_running_loop()
        except RuntimeError:  # not on a loop: woken where it is set
            pass
        self._subscribers.setdefault(match_id, set()).add(event)
        if spectator:
            self._count_watcher(match_id, +1)
        try:
            yield event
        finally:
            self._loops.pop(event, None)
            subs = self._subscribers.get(match_id)
            if subs is not None:
                subs.discard(event)
                if not subs:
                    del self._subscribers[match_id]
            if spectator:
                self._count_watcher(match_id, -1)

    def _count_watcher(self, match_id: str, step: int) -> None:
        with self._lock:  # read from worker threads (the live list)
            count = self._watching.get(match_id, 0) + step
            if count > 0:
                self._watching[match_id] = count
            else:
                self._watching.pop(match_id, None)
        self._wake(room_key(match_id))
        if self.on_watchers is not None:
            try:
                self.on_watchers(match_id, max(count, 0))
            except Exception:  # noqa: BLE001 - the count here stands; the others hear it at the next announcement
                log.exception("announcing the watchers of %s failed", match_id)

    def watchers_elsewhere(self, match_id: str, process: str, count: int, seconds: float) -> None:
        """Another process of the deployment says ``count`` of its subscribers watch
        ``match_id`` (kept ``seconds``, unless said again: a process that went away without a
        word stops counting). Call on the loop: the match's room is woken."""
        with self._lock:
            there = self._elsewhere.setdefault(match_id, {})
            if count > 0:
                there[process] = (count, time.monotonic() + seconds)
            else:
                there.pop(process, None)
            if not there:
                del self._elsewhere[match_id]
        self._wake(room_key(match_id))

    def watchers(self, match_id: str) -> int:
        """How many watch ``match_id`` now: its live updates' subscribers that hold no seat, in
        this process and, as they last announced them, in the deployment's others."""
        now = time.monotonic()
        with self._lock:
            return self._watching.get(match_id, 0) + sum(
                n for n, until in self._elsewhere.get(match_id, {}).values() if until > now)

    def watched(self) -> dict[str, int]:
        """Match id -> :meth:`watchers`, for the matches someone watches now."""
        with self._lock:
            ids = set(self._watching) | set(self._elsewhere)
        counts = {mid: self.watchers(mid) for mid in ids}
        return {mid: n for mid, n in counts.items() if n > 0}

    def watched_here(self) -> dict[str, int]:
        """Match id -> this process's own spectators (what it announces to the others)."""
        with self._lock:
            return dict(self._watching)

    def subscribers(self, match_id: str) -> int:
        return len(self._subscribers.get(match_id, ()))

    def subscribed(self) -> list[str]:
        """The matches that have subscribers now."""
        return list(self._subscribers)

    # --- clock timers -----------------------------------------------------------------------
    def set_timer(self, match_id: str, delay: float | None, callback: Callable[[str], Any]) -> None:
        """Run ``callback(match_id)`` in a worker thread after ``delay`` seconds, replacing
        the match's earlier timer (``delay`` None: just cancel it). Thread-safe."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return

        def arm() -> None:
            with self._lock:
                old = self._timers.pop(match_id, None)
                if old is not None:
                    old.cancel()
                if delay is not None and self.loop is loop:
                    self._timers[match_id] = loop.call_later(max(0.0, delay), fire)

        def fire() -> None:
            with self._lock:
                self._timers.pop(match_id, None)
            loop.run_in_executor(None, _guarded, callback, match_id)

        try:
            if _on_loop(loop):
                arm()
            else:
                loop.call_soon_threadsafe(arm)
        except RuntimeError:
            pass

    def timers(self) -> int:
        return len(self._timers)


def room_key(match_id: str) -> str:
    """The subscription key of a match's room (its chat lines, how many watch it): woken when
    a line is written or a spectator comes or goes, apart from the match's own changes."""
    return f"room:{match_id}"


def _on_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


def _guarded(callback: Callable[[str], Any], match_id: str) -> None:
    try:
        callback(match_id)
    except Exception:  # noqa: BLE001 - a timer has nobody to answer; the bug is logged
        log.exception("clock timer of match %s failed", match_id)


async def listen(url: str, on_change: Callable[[str, int], None], ready: asyncio.Event | None = None,
                 on_gap: Callable[[], None] | None = None) -> None:
    """``LISTEN abstracta`` on the PostgreSQL database at ``url`` (libpq URL) and call
    ``on_change(match_id, revision)`` for every notification (revision -1: deleted), until
    cancelled. A lost connection is reopened after a second, then ``on_gap()`` is called
    (notifications sent meanwhile are lost: every cached match may be stale); ``ready`` is set
    once listening."""
    import psycopg

    connected_before = False
    while True:
        try:
            async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
                await conn.execute("LISTEN abstracta")
                if connected_before and on_gap is not None:
                    on_gap()
                connected_before = True
                if ready is not None:
                    ready.set()
                async for note in conn.notifies():
                    match_id, _, revision = note.payload.rpartition(":")
                    try:
                        on_change(match_id, int(revision))
                    except ValueError:
                        continue
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - the database restarted or the network hiccuped
            log.warning("LISTEN connection lost (%s); reconnecting", type(exc).__name__)
            await asyncio.sleep(1.0)


__all__ = ["Hub", "listen", "room_key"]
