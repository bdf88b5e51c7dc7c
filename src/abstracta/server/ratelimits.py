"""The rate limits' counters (issue 14 §4, issue 44 §3): which requests count in which category,
the default limits, and where ``limits``' moving windows live — this process's memory, or a Redis
every process of a deployment shares (``--redis URL``), so that N processes still give a client
one budget, not N. :class:`abstracta.server.security.RateLimit` applies them to requests."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import re
import time
from typing import Iterable

from limits import RateLimitItem, parse_many
from limits.aio.storage import MemoryStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.errors import ConfigurationError, StorageError

from . import metrics

log = logging.getLogger("abstracta.server")

#: Default limits (``limits`` notation), per category: (per client IP, per seat token). A club
#: plays from behind one router, so a whole room shares one IP: the IP limits are the roomy
#: ones; a token (one person's seat) gets the tighter budget.
DEFAULT_LIMITS: dict[str, tuple[str, str]] = {
    "create": ("30/minute;300/hour", "10/minute;100/hour"),
    "invite": ("60/minute;600/hour", "30/minute"),
    "act": ("30/second;1200/minute", "10/second;300/minute"),
    # a page of a long game's replay costs up to ~0.1 s of CPU (once; kept after): a club
    # stepping through games stays far below, a scraper does not
    "replay": ("120/minute;1200/hour", "60/minute"),
}

#: Which requests count against which category (method, path pattern).
LIMITED: list[tuple[str, re.Pattern[str], str]] = [
    ("POST", re.compile(r"/api/matches/?"), "create"),
    ("POST", re.compile(r"/api/matches/import/?"), "create"),
    ("POST", re.compile(r"/api/invites/(lookup|claim)/?"), "invite"),
    ("POST", re.compile(r"/api/matches/[^/]+/invites/?"), "invite"),
    ("POST", re.compile(r"/api/matches/[^/]+/(actions|undo|takeback|takeback/answer|draw|draw/answer|flag|resign)/?"), "act"),
    ("POST", re.compile(r"/api/matches/[^/]+/(abort|claim|rematch|tokens)/?"), "act"),
    ("POST", re.compile(r"/api/(seeks|challenges|quick)(/[^/]+)*/?"), "create"),
    ("DELETE", re.compile(r"/api/matches/[^/]+/?"), "act"),
    ("GET", re.compile(r"/api/matches/[^/]+/positions/?"), "replay"),
]

def rate_limits_from_env(default: bool = True) -> bool:
    """``ABSTRACTA_RATE_LIMITS=off`` (or 0, false, no) switches the rate limits off."""
    value = os.environ.get("ABSTRACTA_RATE_LIMITS")
    if value is None:
        return default
    return value.strip().lower() not in ("off", "0", "false", "no")


#: The environment variable that names the Redis of a deployment when ``--redis`` is not given.
REDIS_ENV = "ABSTRACTA_REDIS_URL"
#: Seconds a rate-limit lookup in Redis may take before the process counts in its own memory.
REDIS_SECONDS = 0.5


def redis_url_from_env() -> str | None:
    """``ABSTRACTA_REDIS_URL``, or None when unset or empty."""
    return os.environ.get(REDIS_ENV, "").strip() or None


def sync_limits_uri(redis_url: str | None) -> str:
    """The URI of :func:`limits.storage.storage_from_string` for the synchronous counters (the
    people's sign-in limits) in the same place as :func:`limits_storage`'s: this process's
    memory, or the Redis of ``redis_url`` (``unix://`` as ``redis+unix://``)."""
    if not redis_url:
        return "memory://"
    scheme, rest = redis_url.split("://", 1)
    return {"unix": "redis+unix", "valkey": "redis", "valkeys": "rediss"}.get(scheme.lower(), scheme) + "://" + rest


def limits_storage(redis_url: str | None = None) -> Storage:
    """Where ``limits``' counters live: a ``limits.aio`` storage for
    :class:`limits.aio.strategies.MovingWindowRateLimiter` (or any other ``limits.aio``
    strategy). ``redis_url`` None: this process's memory (one process: SQLite's default
    deployment, no Redis needed); ``redis://[:password@]host:port/db``, ``rediss://…``,
    ``unix:///path/to/redis.sock`` (or ``valkey://…``): that Redis, shared by every process
    pointed at it, so a client alternating between two workers meets its budget once. The
    connection is opened on first use, on the event loop that uses it; a Redis that does not
    answer raises ``limits.errors.StorageError`` from the strategy's calls (timeouts of
    :data:`REDIS_SECONDS`). Raises ``ValueError`` without the ``redis``
    package (``pip install 'abstracta[redis]'``) or for another scheme."""
    if not redis_url:
        return MemoryStorage()
    from limits.aio.storage import RedisStorage

    scheme = redis_url.split("://", 1)[0].lower()
    if scheme not in ("redis", "rediss", "unix", "valkey", "valkeys"):
        raise ValueError(f"--redis {redis_url[:100]!r}: expected redis://host:port/db, rediss://… or "
                         "unix:///path/to/redis.sock")
    uri = "async+redis+unix://" + redis_url.split("://", 1)[1] if scheme == "unix" else "async+" + redis_url
    try:
        return RedisStorage(uri, wrap_exceptions=True, implementation="redispy", key_prefix="abstracta",
                            socket_timeout=REDIS_SECONDS, socket_connect_timeout=REDIS_SECONDS)
    except ConfigurationError as exc:  # the redis package is missing (or too old)
        raise ValueError(f"--redis needs the redis package: pip install 'abstracta[redis]' ({exc})") from None

class RateLimiter:
    """Moving-window counters per (category, client IP) and (category, seat token), in the
    storage :func:`limits_storage` gives: this process's memory, or a Redis every process of a
    deployment shares. While that Redis does not answer, the process counts in its own memory
    (each process then limits on its own, as without Redis) and says so in its log; it never
    refuses play because the counters are away."""

    def __init__(self, limits: dict[str, tuple[str, str]], storage: Storage | None = None):
        self.storage = storage if storage is not None else MemoryStorage()
        self.strategy = MovingWindowRateLimiter(self.storage)
        self.shared = not isinstance(self.storage, MemoryStorage)
        self._local = MovingWindowRateLimiter(MemoryStorage()) if self.shared else self.strategy
        self._warned = 0.0  # when the log last said that the shared counters were away
        self.items: dict[str, tuple[list[RateLimitItem], list[RateLimitItem]]] = {
            category: (parse_many(per_ip), parse_many(per_token)) for category, (per_ip, per_token) in limits.items()}

    async def hit(self, category: str, ip: str, tokens: Iterable[str]) -> float | None:
        """Count one request; ``None`` if it is within every limit, else the seconds until it
        would be (the request is then not counted, but for a race: see below)."""
        per_ip, per_token = self.items[category]
        keys = [(item, ("ip", ip)) for item in per_ip]
        for token in tokens:
            # the key is a digest: the limiter never holds a usable token
            digest = hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()[:32]
            keys += [(item, ("token", digest)) for item in per_token]
        if not self.shared:
            return await self._hit(self.strategy, category, keys)
        try:
            return await self._hit_shared(category, keys)
        except StorageError as exc:
            self._unshared(exc)
            return await self._hit(self._local, category, keys)

    async def _hit_shared(self, category: str, keys: list[tuple[RateLimitItem, tuple[str, str]]]) -> float | None:
        """In Redis every call is a round trip that costs the worker's CPU too: each window is
        hit at once (its hit is atomic: one script that takes a place only if one is free), all
        windows together, with no test before. A refused request may so count in the windows it
        fitted in — a client over one limit waits a little longer — where one test and one hit
        per window would cost twice the calls and their round trips in turn."""
        strategy = self.strategy
        taken = await asyncio.gather(*(strategy.hit(item, category, *ident) for item, ident in keys))
        if all(taken):
            return None
        longest = 1.0
        for (item, ident), ok in zip(keys, taken):
            if not ok:
                stats = await strategy.get_window_stats(item, category, *ident)
                longest = max(longest, stats.reset_time - time.time())
        return longest

    @staticmethod
    async def _hit(strategy: MovingWindowRateLimiter, category: str,
                   keys: list[tuple[RateLimitItem, tuple[str, str]]]) -> float | None:
        """Each window tested, then each hit only if every one has room: a refused request is
        not counted (in memory a call costs microseconds)."""
        async def wait() -> float:
            longest = 0.0
            for item, ident in keys:
                if not await strategy.test(item, category, *ident):
                    stats = await strategy.get_window_stats(item, category, *ident)
                    longest = max(longest, stats.reset_time - time.time(), 1.0)
            return longest

        longest = await wait()
        if longest > 0:
            return longest
        # each hit is atomic in the storage, so two tasks that both passed the test above
        # cannot both take a window's last place: the one that finds it taken refuses
        for item, ident in keys:
            if not await strategy.hit(item, category, *ident):
                return max(await wait(), 1.0)
        return None

    def _unshared(self, exc: BaseException) -> None:
        metrics.error("RateLimitStorageUnavailable")
        now = time.monotonic()
        if now - self._warned > 60:
            self._warned = now
            log.warning("the shared rate-limit counters (Redis) do not answer (%s): counting in this "
                        "process's memory until they do", type(exc.__cause__ or exc).__name__)


__all__ = ["DEFAULT_LIMITS", "LIMITED", "REDIS_ENV", "REDIS_SECONDS", "RateLimiter", "limits_storage",
           "rate_limits_from_env", "redis_url_from_env", "sync_limits_uri"]
