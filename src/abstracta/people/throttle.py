"""Limits on signing in and signing up (issue 41 §1), with the ``limits`` library's moving
windows, as ``abstracta.server.security`` limits requests.

* per account: 10 wrong passwords (or recovery codes) a minute; the 11th attempt within the
  minute is refused before the password is checked (so the limit cannot be used to try more);
* per address: 30 sign-in attempts a minute (right or wrong: a club behind one router signs in
  together), 20 sign-ups an hour, 120 new guests an hour.

The counters live in a ``limits`` storage named by a URI: ``memory://`` (this process, the
default) or ``redis://host:6379`` (shared by several ``abstracta serve`` processes, needs the
``redis`` package) — :func:`limits.storage.storage_from_string`. Keys are digests: the storage
never holds a name or an address in clear.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass, field

from limits import RateLimitItem, parse_many
from limits.storage import Storage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

from .errors import TooManyAttempts

DEFAULT_LIMITS: dict[str, str] = {
    "signin_account": "10/minute",   # wrong attempts per account
    "signin_ip": "30/minute;300/hour",
    "signup_ip": "20/hour",
    "guest_ip": "120/hour",
}


def _key(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8", "replace")).hexdigest()[:32]


@dataclass
class Throttle:
    """The counters of :data:`DEFAULT_LIMITS` (or ``limits``) in the storage at ``storage``
    (a URI, or a ``limits`` storage). ``enabled=False``: nothing is counted (benchmarks)."""

    storage: str | Storage = "memory://"
    limits: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_LIMITS))
    enabled: bool = True

    def __post_init__(self) -> None:
        store = storage_from_string(self.storage) if isinstance(self.storage, str) else self.storage
        self.strategy = MovingWindowRateLimiter(store)
        self.items: dict[str, list[RateLimitItem]] = {name: parse_many(text) for name, text in self.limits.items()}

    def _wait(self, name: str, value: str) -> float:
        """Seconds until ``value`` may be counted under ``name`` again (0: now)."""
        wait = 0.0
        for item in self.items.get(name, ()):
            if not self.strategy.test(item, name, _key(value)):
                stats = self.strategy.get_window_stats(item, name, _key(value))
                wait = max(wait, stats.reset_time - time.time(), 1.0)
        return wait

    def check(self, name: str, value: str) -> None:
        """:class:`TooManyAttempts` if ``value`` (an account key, an address) has used up its
        ``name`` limit; nothing is counted."""
        if not self.enabled:
            return
        wait = self._wait(name, value)
        if wait > 0:
            seconds = max(1, math.ceil(wait))
            raise TooManyAttempts(f"too many attempts: try again in {seconds} s", key="error.rate_limited",
                                  retry_after=seconds, seconds=seconds)

    def hit(self, name: str, value: str) -> None:
        """Count one attempt of ``value`` under ``name``."""
        if not self.enabled:
            return
        for item in self.items.get(name, ()):
            self.strategy.hit(item, name, _key(value))

    def take(self, name: str, value: str) -> None:
        """:meth:`check`, then :meth:`hit`: one attempt, refused when none is left."""
        self.check(name, value)
        self.hit(name, value)


__all__ = ["DEFAULT_LIMITS", "Throttle"]
