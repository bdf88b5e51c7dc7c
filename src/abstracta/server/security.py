"""Abuse limits and safe defaults of the web app (issue 14 §4), as ASGI middleware around the
routes: the routes themselves know nothing of them.

From the outside in (:func:`install`):

* :class:`SecurityHeaders` — every HTTP answer carries a Content-Security-Policy that allows
  only the app's own scripts and styles (``/docs``, FastAPI's Swagger page, is the exception:
  its CDN and its one inline script by hash), ``X-Content-Type-Options: nosniff``,
  ``Referrer-Policy: no-referrer``, ``X-Frame-Options: DENY`` and ``frame-ancestors 'none'``.
  No CORS header at all: only the app's own pages call the API from a browser.
* :class:`HostCheck` — the ``Host`` header (exactly one) must name a host the server serves (400
  ``Invalid host header``; a WebSocket: close 1008), so a DNS-rebinding page cannot drive a
  server on localhost; a WebSocket whose
  ``Origin`` is another site is refused before it is accepted (close 1008: no view is sent).
* :class:`OriginCheck` — a state-changing API request from another origin's page (its
  ``Origin`` header) is 403: a signed-in person's cookie cannot be used by another page.
* :class:`RateLimit` — per client IP and per seat token (and per session cookie), on creating
  and importing matches, on invitations and on acts (moves, undo, takeback, draw offers, flag,
  resign, delete): 429 with ``Retry-After`` and the app's JSON error body. Counted by
  ``limits``' moving window in the storage :func:`limits_storage` picks: this process's memory,
  or Redis shared by every process of a deployment (``--redis URL``), so that N processes still
  give a client one budget, not N.
* :class:`SocketBound` — at most :attr:`Security.ws_per_match` open WebSockets per match and
  :attr:`Security.ws_per_ip` per client IP (the lobby's socket counted too); one more is accepted only to be told why and closed
  with 1013 (try again later).
* :class:`RequireToken` — an act sent without any seat token, personal API token or session
  cookie is 401 before its body is read; so is any API request carrying a token longer than
  any seat token (never read as none).
* :class:`MethodCheck` — a method a path does not answer is 405 with ``Allow`` (pages and static
  files: GET and HEAD); an ``/api/`` path no route has is 404 (the static files mounted at ``/``
  would otherwise answer 405 for it).
* :class:`JsonOnly` — a state-changing request (POST, PUT, PATCH, DELETE) that sends a body must
  send it as ``application/json`` (415 otherwise), so a cross-site HTML form cannot act; a body
  that is not UTF-8 JSON (or nests too deep for the parser) is 422.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import ipaddress
import json
import logging
import math
import os
import re
import socket
import time
from dataclasses import dataclass, field
from http.cookies import CookieError, SimpleCookie
from typing import Any, Iterable
from urllib.parse import urlsplit

from limits import RateLimitItem, parse_many
from limits.aio.storage import MemoryStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.errors import ConfigurationError, StorageError

from . import metrics
from .api.people import COOKIE, SECURE_COOKIE

log = logging.getLogger("abstracta.server")

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
WILDCARD_BINDS = ("0.0.0.0", "::", "")

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

#: Acts that need a seat token: without one they are 401 before anything else is looked at
#: (the body is not validated for a stranger).
NEEDS_TOKEN: list[tuple[str, re.Pattern[str]]] = [
    ("POST", re.compile(r"/api/matches/[^/]+/(invites|actions|undo|takeback|takeback/answer|draw|draw/answer|flag|resign)/?")),
    ("DELETE", re.compile(r"/api/matches/[^/]+/?")),
]

#: Longest seat token (the server's are 22 characters).
TOKEN_CHARS = 64

SOCKET_PATH = re.compile(r"/api/matches/([^/]+)/(?:ws|room)/?")  # a match's live updates, its room (issue 43)
LOBBY_SOCKET_PATH = re.compile(r"/api/lobby/ws/?")  # the lobby's (issue 42): counted per address only
STATE_CHANGING = ("POST", "PUT", "PATCH", "DELETE")

#: The policy of every page but ``/docs``. ``connect-src`` adds ws/wss of the request's host,
#: which CSP level 2 browsers do not cover by 'self'.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self' {sockets}; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")

#: FastAPI's Swagger UI page loads its scripts and styles from this CDN.
DOCS_CDN = "https://cdn.jsdelivr.net"


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


def normalise_host(host: str) -> str:
    """A host name or IP literal as compared: lower case, IPv6 without brackets, no port
    (``'[::1]:8000'`` → ``'::1'``; ``'Example.org:80'`` → ``'example.org'``)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:host.index("]")] if "]" in host else host
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def is_loopback(bind: str) -> bool:
    """Whether a bind address is reachable only from this machine."""
    bind = normalise_host(bind)
    if bind == "localhost":
        return True
    try:
        return ipaddress.ip_address(bind).is_loopback
    except ValueError:
        return False


HOST_HEADER = re.compile(r"(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+)(:[0-9]{1,5})?")


@dataclass
class HostPolicy:
    """Which ``Host`` headers the server answers.

    ``names``: exact names or IPs (normalised) and ``*.example.org`` patterns; ``'*'`` allows
    every host. ``any_ip``: any IP literal is allowed too (a server bound to every interface:
    a rebinding page always comes by a *name*, never by an IP literal). ``explicit``: the names
    the administrator gave (``--allowed-host``), which a WebSocket ``Origin`` may also name
    (a proxy in front that rewrites ``Host``)."""

    names: set[str]
    any_ip: bool = False
    explicit: set[str] = field(default_factory=set)

    @classmethod
    def for_bind(cls, bind: str = "127.0.0.1", allowed: Iterable[str] = ()) -> "HostPolicy":
        """The default for a server bound to ``bind``: the bind address, ``localhost``,
        ``127.0.0.1`` and ``::1`` (any port), plus ``allowed``. Bound to every interface
        (``0.0.0.0``, ``::``) it also answers any IP literal and this machine's own names."""
        explicit = {normalise_host(a) if a != "*" else "*" for a in allowed}
        names = set(LOOPBACK_NAMES) | explicit
        wildcard = normalise_host(bind) in WILDCARD_BINDS
        if wildcard:
            for name in (socket.gethostname(), socket.getfqdn()):
                if name:
                    names.add(normalise_host(name))
        else:
            names.add(normalise_host(bind))
        return cls(names=names, any_ip=wildcard, explicit=explicit)

    def allows(self, host: str | None) -> bool:
        if host is None or not HOST_HEADER.fullmatch(host.strip()):
            return False
        name = normalise_host(host)
        return self._matches(name, self.names) or (self.any_ip and is_ip(name))

    @staticmethod
    def _matches(name: str, patterns: set[str]) -> bool:
        if "*" in patterns or name in patterns:
            return True
        return any(p.startswith("*.") and name.endswith(p[1:]) for p in patterns)

    def origin_allows(self, origin: str | None, host: str | None) -> bool:
        """A WebSocket ``Origin`` the server accepts: none (not a browser), the same host and
        port as ``Host``, or a host the administrator named with ``--allowed-host``."""
        if origin is None:
            return True
        try:
            parts = urlsplit(origin.strip())
            port = parts.port
        except ValueError:
            return False
        if parts.scheme not in ("http", "https") or not parts.hostname:
            return False  # 'null' (a sandboxed frame, a file: page) and anything odd
        default = 443 if parts.scheme == "https" else 80
        origin_at = (normalise_host(parts.hostname), port or default)
        if host is not None and HOST_HEADER.fullmatch(host.strip()):
            host_port = host.strip().rsplit(":", 1)[1] if re.search(r":[0-9]+$", host.strip()) else None
            if origin_at == (normalise_host(host), int(host_port) if host_port else default):
                return True
        return self._matches(origin_at[0], self.explicit)


@dataclass
class Security:
    """The settings :func:`install` applies (``abstracta serve`` options)."""

    hosts: HostPolicy = field(default_factory=HostPolicy.for_bind)
    rate_limits: bool = True
    #: the Redis the rate limits count in (None: this process's memory); see :func:`limits_storage`
    redis_url: str | None = None
    limits: dict[str, tuple[str, str]] = field(default_factory=lambda: dict(DEFAULT_LIMITS))
    ws_per_match: int = 64
    ws_per_ip: int = 32


# --- answers ---------------------------------------------------------------------------------
async def reply(send: Any, status: int, message: str, headers: dict[str, str] | None = None,
                i18n: dict[str, Any] | None = None) -> None:
    """An HTTP answer with the app's JSON error body (``i18n``: the refusal as a catalog key and
    its parameters, for the browser to say in its reader's language)."""
    data = json.dumps({"error": message, **({"i18n": i18n} if i18n else {})}).encode()
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]
    raw += [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": data})


def header(scope: Any, name: bytes) -> str | None:
    for key, value in scope.get("headers") or []:
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def the_host(scope: Any) -> str | None:
    """The request's one ``Host`` header, or None when it has none or several. Several are
    refused as RFC 9112 §3.2 asks: a client that adds a ``Host`` beside its own (Python's
    ``websockets`` does with ``additional_headers``) sent the served name first and another
    after it, and a WebSocket so sent was accepted although HTTP refused that other name."""
    hosts = [value for key, value in scope.get("headers") or [] if key.lower() == b"host"]
    return hosts[0].decode("latin-1") if len(hosts) == 1 else None


def client_ip(scope: Any) -> str:
    client = scope.get("client")
    return client[0] if client else "unknown"


async def deny_socket(receive: Any, send: Any, reason: str) -> None:
    """Refuse a WebSocket before accepting it (the client sees the handshake fail: 403)."""
    message = await receive()
    if message["type"] == "websocket.connect":
        await send({"type": "websocket.close", "code": 1008, "reason": reason[:120]})


# --- middleware ------------------------------------------------------------------------------
class SecurityHeaders:
    """Adds the security headers to every HTTP answer (see the module docstring)."""

    #: Hosts whose headers are kept (:attr:`_kept`): a server answers a few names; a client
    #: sending ever new ones (refused by HostCheck, inside) has its headers made each time.
    KEPT_HOSTS = 64

    def __init__(self, app: Any, docs_csp: str | None = None):
        self.app = app
        self.docs_csp = docs_csp
        self._kept: dict[str, list[tuple[bytes, bytes]]] = {}  # Host -> the headers of its answers

    @staticmethod
    def _headers(policy: str) -> list[tuple[bytes, bytes]]:
        return [(b"content-security-policy", policy.encode()),
                (b"x-content-type-options", b"nosniff"),
                (b"referrer-policy", b"no-referrer"),
                (b"x-frame-options", b"DENY"),
                (b"cross-origin-opener-policy", b"same-origin")]

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope.get("path") in ("/docs", "/docs/oauth2-redirect") and self.docs_csp:
            extra = self._headers(self.docs_csp)
        else:
            host = header(scope, b"host") or ""
            extra = self._kept.get(host)  # the same for every answer to a Host: made once
            if extra is None:
                sockets = f"ws://{host} wss://{host}" if HOST_HEADER.fullmatch(host) else ""
                extra = self._headers(CSP.format(sockets=sockets).replace("'self' ;", "'self';"))
                if len(self._kept) < self.KEPT_HOSTS:
                    self._kept[host] = extra

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers") or []}
                message = {**message, "headers": list(message.get("headers") or [])
                           + [(k, v) for k, v in extra if k not in names]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class HostCheck:
    """Refuses a ``Host`` the server does not serve (400), and a WebSocket from another
    site's page (``Origin``; refused before it is accepted, close code 1008)."""

    def __init__(self, app: Any, policy: HostPolicy):
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = the_host(scope)  # one rule for HTTP and WebSocket: exactly one Host, a served one
        if not self.policy.allows(host):
            if scope["type"] == "http":
                await reply(send, 400, "Invalid host header")
            else:
                await deny_socket(receive, send, "Invalid host header")
            return
        if scope["type"] == "websocket" and not self.policy.origin_allows(header(scope, b"origin"), host):
            await deny_socket(receive, send, "cross-origin WebSocket refused: Origin is not this server")
            return
        await self.app(scope, receive, send)


class OriginCheck:
    """Refuses (403) a state-changing ``/api/`` request a browser sent from another origin:
    its ``Origin`` header names neither this server (the ``Host``) nor a host the
    administrator allowed (:meth:`HostPolicy.origin_allows`). With session cookies (issue 41)
    this is what keeps another page from acting as a signed-in person — also a page on
    another port of the same host, which ``SameSite=Lax`` counts as the same site. A request
    without ``Origin`` (a script, curl) is not a browser's cross-site request and passes."""

    def __init__(self, app: Any, policy: HostPolicy):
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if (scope["type"] == "http" and scope["method"] in STATE_CHANGING and scope["path"].startswith("/api/")):
            origin = header(scope, b"origin")
            if origin is not None and not self.policy.origin_allows(origin, header(scope, b"host")):
                await reply(send, 403, "cross-origin request refused: Origin is not this server",
                            i18n={"key": "error.cross_origin", "params": {}})
                return
        await self.app(scope, receive, send)


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


def bearer_parts(scope: Any) -> list[str]:
    """The comma-separated parts of a request's ``Authorization: Bearer`` value (none for
    another scheme: a proxy's Basic authentication is not a seat token)."""
    auth = header(scope, b"authorization") or ""
    scheme, _, value = auth.partition(" ")
    if scheme.lower() != "bearer":
        return []
    return [t for t in (p.strip() for p in value.split(",")) if t]


def too_long(tokens: Iterable[str]) -> str | None:
    """Why one of ``tokens`` cannot be a seat token (longer than :data:`TOKEN_CHARS`), or None."""
    longest = max((len(t) for t in tokens), default=0)
    if longest > TOKEN_CHARS:
        return f"a seat token is at most {TOKEN_CHARS} characters (one sent has {longest})"
    return None


def request_tokens(scope: Any) -> list[str]:
    """The bearer tokens a request carries (as the routes read them: comma-separated)."""
    return [t for t in bearer_parts(scope)[:16] if len(t) <= TOKEN_CHARS]


def session_cookie(scope: Any) -> str | None:
    """The session cookie a request carries (issue 41; ``api.people``' names), or None. Its
    presence only: whether it names a session the routes find out."""
    raw = header(scope, b"cookie")
    if not raw:
        return None
    cookies = SimpleCookie()
    try:
        cookies.load(raw)
    except CookieError:
        return None
    for name in (SECURE_COOKIE, COOKIE):
        if name in cookies and cookies[name].value:
            return cookies[name].value
    return None


def credentials(scope: Any) -> list[str]:
    """What a request may act by: its bearer tokens, and its session cookie (counted by the
    rate limits as a token is)."""
    cookie = session_cookie(scope)
    return request_tokens(scope) + ([cookie] if cookie is not None else [])


def socket_credentials(scope: Any, tokens: Iterable[str]) -> list[str]:
    """What a match's WebSocket acts by when it plays a move (its handshake's bearer tokens and
    session cookie, and the seat ``tokens`` of its first message, as many as a request's): the
    keys its moves are counted under, those a browser's ``POST …/actions`` sends, so that a
    move over the socket spends the same budget."""
    given = credentials(scope)
    return given + [t for t in list(tokens)[:16] if len(t) <= TOKEN_CHARS and t not in given]


def rate_refusal(wait: float) -> tuple[int, str, dict[str, Any]]:
    """``(seconds, message, i18n)`` of a refusal by the rate limits that ``wait`` seconds end:
    the words of a 429 answer and of a refused move's frame on a WebSocket alike."""
    seconds = max(1, math.ceil(wait))
    return seconds, f"too many requests: try again in {seconds} s", {"key": "error.rate_limited",
                                                                      "params": {"seconds": seconds}}


class RateLimit:
    """429 with ``Retry-After`` once a client IP or a seat token exceeds its category's limit."""

    def __init__(self, app: Any, limiter: RateLimiter):
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            category = next((c for m, p, c in LIMITED if m == scope["method"] and p.fullmatch(scope["path"])), None)
            if category in self.limiter.items:  # (a category without limits: unlimited)
                wait = await self.limiter.hit(category, client_ip(scope), credentials(scope))
                if wait is not None:
                    seconds, message, i18n = rate_refusal(wait)
                    await reply(send, 429, message, {"Retry-After": str(seconds)}, i18n)
                    return
        await self.app(scope, receive, send)


class RequireToken:
    """401 (``WWW-Authenticate: Bearer``) for an act (:data:`NEEDS_TOKEN`) sent without a
    seat token, a personal API token or a session cookie, before its body is read or
    validated; and for any API request carrying a token too long to be one (it was dropped: a
    read answered as a spectator's, an act told it carried no token)."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"].startswith("/api/"):
            problem = too_long(bearer_parts(scope))
            if problem is not None:
                await reply(send, 401, problem, {"WWW-Authenticate": "Bearer"})
                return
        if (scope["type"] == "http" and not credentials(scope)
                and any(m == scope["method"] and p.fullmatch(scope["path"]) for m, p in NEEDS_TOKEN)):
            await reply(send, 401, "this needs a seat token (Authorization: Bearer <token>) or to be signed in",
                        {"WWW-Authenticate": "Bearer"})
            return
        await self.app(scope, receive, send)


class SocketBound:
    """At most ``per_match`` open WebSockets per match and ``per_ip`` per client IP (``None``:
    no bound); one more is accepted, told why (``{"error": ...}``) and closed with 1013."""

    def __init__(self, app: Any, per_match: int | None, per_ip: int | None):
        self.app = app
        self.per_match, self.per_ip = per_match, per_ip
        self.by_match: dict[str, int] = {}
        self.by_ip: dict[str, int] = {}

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        path = scope.get("path", "")
        found = SOCKET_PATH.fullmatch(path) if scope["type"] == "websocket" else None
        if found is None and not (scope["type"] == "websocket" and LOBBY_SOCKET_PATH.fullmatch(path)):
            await self.app(scope, receive, send)
            return
        match_id, ip = found.group(1) if found else None, client_ip(scope)
        reason = None
        if match_id is not None and self.per_match is not None and self.by_match.get(match_id, 0) >= self.per_match:
            reason = f"too many connections to this match (at most {self.per_match})"
        elif self.per_ip is not None and self.by_ip.get(ip, 0) >= self.per_ip:
            reason = f"too many connections from your address (at most {self.per_ip})"
        if reason is not None:
            message = await receive()
            if message["type"] == "websocket.connect":
                await send({"type": "websocket.accept"})
                await send({"type": "websocket.send", "text": json.dumps({"error": reason})})
                await send({"type": "websocket.close", "code": 1013, "reason": reason})
            return
        if match_id is not None:
            self.by_match[match_id] = self.by_match.get(match_id, 0) + 1
        self.by_ip[ip] = self.by_ip.get(ip, 0) + 1
        try:
            await self.app(scope, receive, send)
        finally:
            counted = ((self.by_match, match_id), (self.by_ip, ip)) if match_id is not None else ((self.by_ip, ip),)
            for table, key in counted:
                table[key] -= 1
                if not table[key]:
                    del table[key]


class MethodCheck:
    """405 with ``Allow`` for a method a route's path does not answer; 404 for an ``/api/``
    path no route has. Other paths belong to the static files (GET and HEAD)."""

    #: (method, path) decisions kept: a route scan per request was 2 % of a move's CPU (py-spy)
    KEPT = 4096

    def __init__(self, app: Any, routes: Any):
        self.app = app
        self.routes = routes
        self._decided: dict[tuple[str, str], tuple[int, str, dict[str, str] | None] | None] = {}

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path, method = scope["path"], scope["method"]
        if not (path == "/api" or path.startswith("/api/")):
            # the shell's pages, the static files, the schema and /docs: read-only
            if method in ("GET", "HEAD"):
                await self.app(scope, receive, send)
            else:
                await reply(send, 405, f"method {method[:10]} not allowed here; allowed: GET, HEAD",
                            {"Allow": "GET, HEAD"})
            return
        key = (method, path)
        if key in self._decided:
            refusal = self._decided[key]
        else:
            refusal = self._decide(scope, method, path)
            if len(self._decided) >= self.KEPT:  # the oldest decision goes (ids make paths many)
                del self._decided[next(iter(self._decided))]
            self._decided[key] = refusal
        if refusal is None:
            await self.app(scope, receive, send)
        else:
            await reply(send, *refusal)

    def _decide(self, scope: Any, method: str, path: str) -> tuple[int, str, dict[str, str] | None] | None:
        """None: a route answers ``method`` at ``path``; else the refusal ``(status, message,
        headers)``. The routes do not change while the app runs: decided once per method and path."""
        from starlette.routing import Match, Mount

        # the routes whose template fits the path with the fewest parameters decide: a POST-only
        # /api/matches/import is not also GET /api/matches/{match_id} with id "import"
        fitting: list[tuple[int, bool, set[str]]] = []
        for route in flat_routes(self.routes()):
            if isinstance(route, Mount):
                continue
            found, _ = route.matches(scope)
            if found is not Match.NONE:
                params = len(getattr(route, "param_convertors", None) or ())
                fitting.append((params, found is Match.FULL, set(getattr(route, "methods", None) or ())))
        if not fitting:
            return 404, f"no such endpoint: {path[:100]}", None
        fewest = min(p for p, _, _ in fitting)
        if any(full for p, full, _ in fitting if p == fewest):
            return None
        allowed = ", ".join(sorted(set().union(*(m for p, _, m in fitting if p == fewest))))
        return 405, f"method {method[:10]} not allowed here; allowed: {allowed}", {"Allow": allowed}


def flat_routes(routes: Any) -> Any:
    """Every route of ``routes``, those of included routers too (FastAPI keeps an included
    ``APIRouter`` as one entry holding its routes; the app includes its routers without a
    prefix, so their templates are the paths)."""
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            yield from flat_routes(inner.routes)
        else:
            yield route


class JsonOnly:
    """415 for a body of another type than ``application/json`` on a state-changing request,
    422 for one that is not JSON (not UTF-8 either) — placed inside
    :class:`~abstracta.server.api.middleware.BodyLimit`, which has read the body already."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] not in STATE_CHANGING:
            await self.app(scope, receive, send)
            return
        first = await receive()
        body = first.get("body", b"") if first["type"] == "http.request" else b""
        ctype = (header(scope, b"content-type") or "").split(";")[0].strip().lower()
        if (body or first.get("more_body")) and ctype != "application/json":
            await reply(send, 415, "a request body must be JSON (Content-Type: application/json), not "
                                   f"{ctype[:60] or 'a body without a type'}")
            return
        if body.strip() and not first.get("more_body"):
            try:
                json.loads(body)
            except (ValueError, RecursionError) as exc:  # not UTF-8 (UnicodeDecodeError), nested too deep
                at = f" (at character {exc.pos})" if isinstance(exc, json.JSONDecodeError) else ""
                deep = " (nested too deep)" if isinstance(exc, RecursionError) else ""
                await reply(send, 422, f"the request body is not valid JSON{at}{deep}")
                return
        delivered = False

        async def replay() -> Any:
            nonlocal delivered
            if not delivered:
                delivered = True
                return first
            return await receive()

        await self.app(scope, replay, send)


def docs_policy(html: str) -> str:
    """The CSP of FastAPI's Swagger page ``html``: its CDN and its inline scripts by hash."""
    hashes = []
    for script in re.findall(r"<script>(.*?)</script>", html, flags=re.S):
        digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
        hashes.append(f"'sha256-{digest}'")
    return (f"default-src 'none'; script-src {DOCS_CDN} {' '.join(hashes)}; style-src {DOCS_CDN} 'unsafe-inline'; "
            f"img-src 'self' data: https://fastapi.tiangolo.com; connect-src 'self'; "
            f"base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


def install(app: Any, security: Security) -> None:
    """Wrap ``app`` (a FastAPI app whose :class:`BodyLimit` is added already) in the
    middleware of this module, outermost first: headers, host, origin, rate limits (unless off;
    counted where :func:`limits_storage` of ``security.redis_url`` says), socket bound, method
    check, token presence, (body limit), JSON only."""
    from fastapi.openapi.docs import get_swagger_ui_html

    docs = None
    if app.docs_url:
        page = get_swagger_ui_html(openapi_url=app.openapi_url, title=app.title + " - Swagger UI",
                                   oauth2_redirect_url=app.swagger_ui_oauth2_redirect_url,
                                   init_oauth=app.swagger_ui_init_oauth,
                                   swagger_ui_parameters=app.swagger_ui_parameters)
        docs = docs_policy(page.body.decode())
    from starlette.middleware import Middleware

    # user_middleware[0] is the outermost; add_middleware puts each new one outside the others.
    # JsonOnly goes just inside BodyLimit (added by create_app), which has read the body by then.
    inner = next((i for i, m in enumerate(app.user_middleware) if m.cls.__name__ == "BodyLimit"), -1)
    app.user_middleware.insert(inner + 1, Middleware(JsonOnly))
    app.add_middleware(RequireToken)
    app.add_middleware(MethodCheck, routes=lambda: app.router.routes)
    app.add_middleware(SocketBound, per_match=security.ws_per_match,
                       per_ip=security.ws_per_ip if security.rate_limits else None)
    # the limiter is the app's too: a move over a match's WebSocket spends the budget of a
    # POST …/actions (api.routes.live_moves), or a socket would be a way around the limits
    app.state.rate_limiter = None
    if security.rate_limits:
        app.state.rate_limiter = RateLimiter(security.limits, limits_storage(security.redis_url))
        app.add_middleware(RateLimit, limiter=app.state.rate_limiter)
    app.add_middleware(OriginCheck, policy=security.hosts)
    app.add_middleware(HostCheck, policy=security.hosts)
    app.add_middleware(SecurityHeaders, docs_csp=docs)
