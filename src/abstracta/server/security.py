"""Abuse limits and safe defaults of the web app (issue 14 §4), as ASGI middleware around the
routes: the routes themselves know nothing of them.

Each rule is a function or a small class of its own (tested one by one); two ASGI layers apply
them in one pass each (issue 44 §1: they were eleven, a frame per request each and most a
wrapper every answer passed through), with :class:`RateLimit` between them when the limits are
on. From the outside in (:func:`install`), in this order:

* :class:`Edge` — the request id and the edge's metrics (:mod:`.ops`); every HTTP answer carries
  a Content-Security-Policy that allows only the app's own scripts and styles (``/docs``,
  FastAPI's Swagger page, is the exception: its CDN and its one inline script by hash),
  ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer``, ``X-Frame-Options: DENY``
  and ``frame-ancestors 'none'`` (:func:`security_headers`); no CORS header at all: only the
  app's own pages call the API from a browser. Then :func:`host_check`: the ``Host`` header
  (exactly one) must name a host the server serves (400 ``Invalid host header``), so a
  DNS-rebinding page cannot drive a server on localhost; :func:`socket_check` refuses a
  WebSocket so (close 1008), and one whose ``Origin`` is another site, before it is accepted (no
  view is sent). :func:`origin_check`: a state-changing API request from another origin's page
  (its ``Origin`` header) is 403: a signed-in person's cookie cannot be used by another page.
  A bug anywhere inside is answered 500 here (:func:`~.api.middleware.internal_error`).
* :class:`RateLimit` — per client IP and per seat token (and per session cookie), on creating
  and importing matches, on invitations and on acts (moves, undo, takeback, draw offers, flag,
  resign, delete): 429 with ``Retry-After`` and the app's JSON error body. Counted by
  ``limits``' moving window where :mod:`.ratelimits` says: this process's memory, or Redis
  shared by every process of a deployment (``--redis URL``).
* :class:`Gate` — at most :attr:`Security.ws_per_match` open WebSockets per match and
  :attr:`Security.ws_per_ip` per client IP (the lobby's and the notices' sockets counted too); one more is accepted
  only to be told why and closed with 1013 (try again later) (:class:`SocketCounts`). For HTTP:
  a method a path does not answer is 405 with ``Allow`` (pages and static files: GET and HEAD);
  an ``/api/`` path no route has is 404 (:class:`MethodRule`); an act sent without any seat
  token, personal API token or session cookie is 401 before its body is read, and so is any API
  request carrying a token longer than any seat token (:func:`token_check`); a body over its
  limit is 413, one that does not arrive in time 408 (:mod:`.api.middleware`); a state-changing
  request (POST, PUT, PATCH, DELETE) that sends a body must send it as ``application/json``
  (415 otherwise), so a cross-site HTML form cannot act, and a body that is not UTF-8 JSON (or
  nests too deep for the parser) is 422 (:func:`json_check`).
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import json
import math
import re
import socket
import time
from dataclasses import dataclass, field
from http.cookies import CookieError, SimpleCookie
from typing import Any, Iterable
from urllib.parse import urlsplit

from . import ops
from .api.middleware import BodyRefused, internal_error, read_body
from .api.people import COOKIE, SECURE_COOKIE
# the rate limits' counters have their module; their names are read from here too
from .ratelimits import (DEFAULT_LIMITS, LIMITED, REDIS_ENV, REDIS_SECONDS, RateLimiter,  # noqa: F401
                         limits_storage, rate_limits_from_env, redis_url_from_env, sync_limits_uri)

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
WILDCARD_BINDS = ("0.0.0.0", "::", "")

#: Acts that need a seat token: without one they are 401 before anything else is looked at
#: (the body is not validated for a stranger).
NEEDS_TOKEN: list[tuple[str, re.Pattern[str]]] = [
    ("POST", re.compile(r"/api/matches/[^/]+/(invites|actions|undo|takeback|takeback/answer|draw|draw/answer|flag|resign)/?")),
    ("DELETE", re.compile(r"/api/matches/[^/]+/?")),
]

#: Longest seat token (the server's are 22 characters).
TOKEN_CHARS = 64
#: Most credentials (bearer tokens and the session cookie) a rate-limited request, or a move over
#: a match's WebSocket, is counted under: each one's budget is spent. A request carrying more is
#: refused (:func:`crowded`): counting the first few only, made-up tokens sent before the seat's
#: own would be counted instead of it, and the seat would play past its budget.
COUNTED_CREDENTIALS = 16

SOCKET_PATH = re.compile(r"/api/matches/([^/]+)/(?:ws|room)/?")  # a match's live updates, its room (issue 43)
#: the lobby's (issue 42) and a person's notices on every page: counted per address only
LOBBY_SOCKET_PATH = re.compile(r"/api/(?:lobby|notices)/ws/?")
STATE_CHANGING = ("POST", "PUT", "PATCH", "DELETE")

#: The policy of every page but ``/docs``. ``connect-src`` adds ws/wss of the request's host,
#: which CSP level 2 browsers do not cover by 'self'.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self' {sockets}; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")

#: FastAPI's Swagger UI page loads its scripts and styles from this CDN.
DOCS_CDN = "https://cdn.jsdelivr.net"


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


#: The request headers the checks read, each by its first value (one pass over the headers).
HEADS = frozenset({b"host", b"origin", b"authorization", b"cookie", b"content-type", b"x-request-id"})
#: What a header that comes twice with different values reads as: a value its check refuses. A
#: browser sends one ``Origin`` (RFC 6454 §7.3: a user agent MUST NOT send more than one) and one
#: ``Content-Type``; a request with two that differ was made by hand, and taking either one of them
#: at its word would let the other through unread — ``null`` is an opaque origin, not this server's,
#: and a body with no type is not JSON.
CONFLICTED = {b"origin": "null", b"content-type": ""}
#: Where :func:`request_heads` keeps what it read, in the request's scope (the layers share it).
HEADS_KEY = "abstracta.heads"


def request_heads(scope: Any) -> tuple[dict[bytes, str], int]:
    """``(first value of each header of HEADS the request has, how many Host headers it has)``,
    read once per request (kept in its scope); an ``Origin`` or ``Content-Type`` sent again with
    another value reads as :data:`CONFLICTED` says. The request's one Host is the first when there
    is exactly one: several are refused as RFC 9112 §3.2 asks (a client that adds a ``Host``
    beside its own — Python's ``websockets`` does with ``additional_headers`` — sent the served
    name first and another after it, and a WebSocket so sent was accepted although HTTP refused
    that other name)."""
    kept = scope.get(HEADS_KEY)
    if kept is not None:
        return kept
    found: dict[bytes, str] = {}
    hosts = 0
    for key, value in scope.get("headers") or ():
        key = key.lower()
        if key in HEADS:
            if key == b"host":
                hosts += 1
            text = value.decode("latin-1")
            if key not in found:
                found[key] = text
            elif key in CONFLICTED and found[key] != text:
                found[key] = CONFLICTED[key]
    scope[HEADS_KEY] = kept = (found, hosts)
    return kept


def client_ip(scope: Any) -> str:
    client = scope.get("client")
    return client[0] if client else "unknown"


async def deny_socket(receive: Any, send: Any, reason: str) -> None:
    """Refuse a WebSocket before accepting it (the client sees the handshake fail: 403)."""
    message = await receive()
    if message["type"] == "websocket.connect":
        await send({"type": "websocket.close", "code": 1008, "reason": reason[:120]})


# --- the checks, each a rule of its own (the one ASGI pass, Edge and Gate, applies them) ---------
#: A refusal of an HTTP request: (status, message, headers, i18n) as :func:`reply` sends it.
Refusal = tuple[int, str, "dict[str, str] | None", "dict[str, Any] | None"]


def security_headers(policy: str) -> list[tuple[bytes, bytes]]:
    """The headers every HTTP answer carries (see the module docstring), ``policy`` its CSP."""
    return [(b"content-security-policy", policy.encode()),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"no-referrer"),
            (b"x-frame-options", b"DENY"),
            (b"cross-origin-opener-policy", b"same-origin")]


def page_policy(host: str) -> str:
    """The CSP of every answer but ``/docs``' to a request whose ``Host`` is ``host`` (its
    WebSockets allowed when ``host`` is a well-formed host)."""
    sockets = f"ws://{host} wss://{host}" if HOST_HEADER.fullmatch(host) else ""
    return CSP.format(sockets=sockets).replace("'self' ;", "'self';")


def host_check(policy: HostPolicy, host: str | None) -> Refusal | None:
    """400 for a ``Host`` the server does not serve, so that a DNS-rebinding page cannot drive a
    server on localhost. ``host``: the request's one Host header (None: none or several,
    :func:`request_heads`). The same rule refuses a WebSocket (:func:`socket_check`)."""
    return None if policy.allows(host) else (400, "Invalid host header", None, None)


def origin_check(policy: HostPolicy, method: str, path: str, origin: str | None, host: str | None) -> Refusal | None:
    """403 for a state-changing ``/api/`` request a browser sent from another origin: its
    ``Origin`` names neither this server (``host``, the first Host header) nor a host the
    administrator allowed (:meth:`HostPolicy.origin_allows`). With session cookies (issue 41)
    this is what keeps another page from acting as a signed-in person — also a page on another
    port of the same host, which ``SameSite=Lax`` counts as the same site. A request without
    ``Origin`` (a script, curl) is not a browser's cross-site request and passes."""
    if (origin is not None and method in STATE_CHANGING and path.startswith("/api/")
            and not policy.origin_allows(origin, host)):
        return 403, "cross-origin request refused: Origin is not this server", None, {"key": "error.cross_origin", "params": {}}
    return None


def socket_check(policy: HostPolicy, host: str | None, origin: str | None) -> str | None:
    """Why a WebSocket is refused before it is accepted (close 1008: no view is sent), or None:
    a ``Host`` the server does not serve — with or without ``Origin``, the rule of HTTP
    (issue 44 §7) — or an ``Origin`` of another site (:meth:`HostPolicy.origin_allows`)."""
    if not policy.allows(host):
        return "Invalid host header"
    if not policy.origin_allows(origin, host):
        return "cross-origin WebSocket refused: Origin is not this server"
    return None


def bearer_parts(auth: str | None) -> list[str]:
    """The comma-separated parts of an ``Authorization: Bearer`` value ``auth`` (none for
    another scheme: a proxy's Basic authentication is not a seat token)."""
    scheme, _, value = (auth or "").partition(" ")
    if scheme.lower() != "bearer":
        return []
    return [t for t in (p.strip() for p in value.split(",")) if t]


def too_long(tokens: Iterable[str]) -> str | None:
    """Why one of ``tokens`` cannot be a seat token (longer than :data:`TOKEN_CHARS`), or None."""
    longest = max((len(t) for t in tokens), default=0)
    if longest > TOKEN_CHARS:
        return f"a seat token is at most {TOKEN_CHARS} characters (one sent has {longest})"
    return None


def session_cookie(raw: str | None) -> str | None:
    """The session cookie of a ``Cookie`` header ``raw`` (issue 41; ``api.people``' names), or
    None. Its presence only: whether it names a session the routes find out."""
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


def crowded(auth: str | None, tokens: Iterable[str] = ()) -> str | None:
    """Why a rate-limited request (``auth``: its Authorization header), or a move over a socket
    whose first message gave ``tokens``, carries too many credentials to be counted, or None:
    more than :data:`COUNTED_CREDENTIALS` bearer tokens, or first-message tokens."""
    most = max(len(bearer_parts(auth)), len(list(tokens)))
    if most > COUNTED_CREDENTIALS:
        return (f"an act carries at most {COUNTED_CREDENTIALS} tokens (this one has {most}): "
                "send the seat's own")
    return None


def credentials(auth: str | None, cookie: str | None) -> list[str]:
    """What a request may act by (``auth``, ``cookie``: its Authorization and Cookie headers):
    its bearer tokens as the routes read them (comma-separated), and its session cookie (counted
    by the rate limits as a token is)."""
    found = session_cookie(cookie)
    tokens = [t for t in bearer_parts(auth)[:COUNTED_CREDENTIALS] if len(t) <= TOKEN_CHARS]
    return tokens + ([found] if found is not None else [])


def token_check(method: str, path: str, auth: str | None, cookie: str | None) -> Refusal | None:
    """401 (``WWW-Authenticate: Bearer``) for any ``/api/`` request carrying a token too long
    to be one (it would be dropped: a read answered as a spectator's, an act told it carried no
    token); then for an act (:data:`NEEDS_TOKEN`) sent without a seat token, a personal API
    token or a session cookie — before its body is read or validated."""
    challenge = {"WWW-Authenticate": "Bearer"}
    if path.startswith("/api/"):
        problem = too_long(bearer_parts(auth))
        if problem is not None:
            return 401, problem, challenge, None
    # the path first: the cookie is parsed only for an act
    if any(m == method and p.fullmatch(path) for m, p in NEEDS_TOKEN) and not credentials(auth, cookie):
        return 401, "this needs a seat token (Authorization: Bearer <token>) or to be signed in", challenge, None
    return None


def json_check(content_type: str | None, body: bytes) -> Refusal | None:
    """415 for a body (the whole of it, read) of another type than ``application/json`` on a
    state-changing request, so that a cross-site HTML form cannot act; 422 for one that is not
    JSON (not UTF-8 either, or nested too deep for the parser). No body: no refusal."""
    ctype = (content_type or "").split(";")[0].strip().lower()
    if body and ctype != "application/json":
        return (415, "a request body must be JSON (Content-Type: application/json), not "
                     f"{ctype[:60] or 'a body without a type'}", None, None)
    if body.strip():
        try:
            json.loads(body)
        except (ValueError, RecursionError) as exc:  # not UTF-8 (UnicodeDecodeError), nested too deep
            at = f" (at character {exc.pos})" if isinstance(exc, json.JSONDecodeError) else ""
            deep = " (nested too deep)" if isinstance(exc, RecursionError) else ""
            return 422, f"the request body is not valid JSON{at}{deep}", None, None
    return None


def socket_credentials(scope: Any, tokens: Iterable[str]) -> list[str]:
    """What a match's WebSocket acts by when it plays a move (its handshake's bearer tokens and
    session cookie, and the seat ``tokens`` of its first message, as many as a request's): the
    keys its moves are counted under, those a browser's ``POST …/actions`` sends, so that a
    move over the socket spends the same budget."""
    heads = request_heads(scope)[0]
    given = credentials(heads.get(b"authorization"), heads.get(b"cookie"))
    return given + [t for t in list(tokens)[:COUNTED_CREDENTIALS] if len(t) <= TOKEN_CHARS and t not in given]


def rate_refusal(wait: float) -> tuple[int, str, dict[str, Any]]:
    """``(seconds, message, i18n)`` of a refusal by the rate limits that ``wait`` seconds end:
    the words of a 429 answer and of a refused move's frame on a WebSocket alike."""
    seconds = max(1, math.ceil(wait))
    return seconds, f"too many requests: try again in {seconds} s", {"key": "error.rate_limited",
                                                                      "params": {"seconds": seconds}}


class RateLimit:
    """429 with ``Retry-After`` once a client IP or a seat token exceeds its category's limit.
    Its own layer, between :class:`Edge` and :class:`Gate` (where the checks order it), only
    when the limits are on."""

    def __init__(self, app: Any, limiter: RateLimiter):
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            category = next((c for m, p, c in LIMITED if m == scope["method"] and p.fullmatch(scope["path"])), None)
            if category in self.limiter.items:  # (a category without limits: unlimited)
                heads = request_heads(scope)[0]
                problem = crowded(heads.get(b"authorization"))
                if problem is not None:
                    await reply(send, 422, problem)
                    return
                wait = await self.limiter.hit(category, client_ip(scope),
                                              credentials(heads.get(b"authorization"), heads.get(b"cookie")))
                if wait is not None:
                    seconds, message, i18n = rate_refusal(wait)
                    await reply(send, 429, message, {"Retry-After": str(seconds)}, i18n)
                    return
        await self.app(scope, receive, send)


class SocketCounts:
    """The open WebSockets per match and per client IP, and the bound on them: at most
    ``per_match`` per match and ``per_ip`` per IP (``None``: no bound; the lobby's socket counts
    against its IP only)."""

    def __init__(self, per_match: int | None, per_ip: int | None):
        self.per_match, self.per_ip = per_match, per_ip
        self.by_match: dict[str, int] = {}
        self.by_ip: dict[str, int] = {}

    def refusal(self, match_id: str | None, ip: str) -> str | None:
        """Why one more socket (of match ``match_id``, None: the lobby's) from ``ip`` is one too
        many, or None."""
        if match_id is not None and self.per_match is not None and self.by_match.get(match_id, 0) >= self.per_match:
            return f"too many connections to this match (at most {self.per_match})"
        if self.per_ip is not None and self.by_ip.get(ip, 0) >= self.per_ip:
            return f"too many connections from your address (at most {self.per_ip})"
        return None

    def counted(self, match_id: str | None, ip: str) -> list[tuple[dict[str, int], str]]:
        """Count one more socket; the counters to give back (:meth:`release`) when it closes."""
        counted = [(self.by_ip, ip)] if match_id is None else [(self.by_match, match_id), (self.by_ip, ip)]
        for table, key in counted:
            table[key] = table.get(key, 0) + 1
        return counted

    @staticmethod
    def release(counted: list[tuple[dict[str, int], str]]) -> None:
        for table, key in counted:
            table[key] -= 1
            if not table[key]:
                del table[key]


class MethodRule:
    """405 with ``Allow`` for a method a route's path does not answer; 404 for an ``/api/``
    path no route has (the static files mounted at ``/`` would otherwise answer 405 for it).
    Other paths belong to the shell's pages, the static files, the schema and /docs: GET and
    HEAD only."""

    #: (method, path) decisions kept: a route scan per request was 2 % of a move's CPU (py-spy)
    KEPT = 4096

    def __init__(self, routes: Any):
        self.routes = routes
        self._decided: dict[tuple[str, str], Refusal | None] = {}

    def check(self, scope: Any, method: str, path: str) -> Refusal | None:
        if not (path == "/api" or path.startswith("/api/")):
            if method in ("GET", "HEAD"):
                return None
            return 405, f"method {method[:10]} not allowed here; allowed: GET, HEAD", {"Allow": "GET, HEAD"}, None
        key = (method, path)
        if key in self._decided:
            return self._decided[key]
        refusal = self._decide(scope, method, path)
        if len(self._decided) >= self.KEPT:  # the oldest decision goes (ids make paths many)
            del self._decided[next(iter(self._decided))]
        self._decided[key] = refusal
        return refusal

    def _decide(self, scope: Any, method: str, path: str) -> Refusal | None:
        """None: a route answers ``method`` at ``path``; else the refusal. The routes do not
        change while the app runs: decided once per method and path."""
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
            return 404, f"no such endpoint: {path[:100]}", None, None
        fewest = min(p for p, _, _ in fitting)
        if any(full for p, full, _ in fitting if p == fewest):
            return None
        allowed = ", ".join(sorted(set().union(*(m for p, _, m in fitting if p == fewest))))
        return 405, f"method {method[:10]} not allowed here; allowed: {allowed}", {"Allow": allowed}, None


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


# --- the one pass -----------------------------------------------------------------------------
class Edge:
    """The outer ASGI layer (the first of the app's own): the request id, the edge's metrics and
    log context (:mod:`.ops`), the security headers, the Host and Origin rules, and the last
    catch of a bug. One ``send`` wrapper adds the headers (made once per Host) and sees the
    status for the metrics. Until issue 44 these were five layers (ops.Observe, SecurityHeaders,
    HostCheck, OriginCheck and the innermost CatchAll), each a coroutine frame per request and
    most a closure every answer's messages passed through (py-spy: the chain was ~17 % of the
    server's CPU per move). What a request is checked for, and in which order, is unchanged:
    Host, then Origin; the rate limits (:class:`RateLimit`) and :class:`Gate` inside."""

    #: Hosts whose headers are kept (:attr:`_kept`): a server answers a few names; a client
    #: sending ever new ones (refused, but answered with the headers) has them made each time.
    KEPT_HOSTS = 64

    def __init__(self, app: Any, policy: HostPolicy, docs_csp: str | None = None):
        self.app = app
        self.policy = policy
        self._docs = security_headers(docs_csp) if docs_csp else None
        self._kept: dict[str, list[tuple[bytes, bytes]]] = {}  # Host -> the headers of its answers

    def _headers(self, path: str, host: str) -> list[tuple[bytes, bytes]]:
        if self._docs is not None and path in ("/docs", "/docs/oauth2-redirect"):
            return self._docs  # FastAPI's Swagger page: its CDN and its inline script (docs_policy)
        extra = self._kept.get(host)
        if extra is None:
            extra = security_headers(page_policy(host))
            if len(self._kept) < self.KEPT_HOSTS:
                self._kept[host] = extra
        return extra

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind != "http" and kind != "websocket":
            await self.app(scope, receive, send)
            return
        heads, hosts = request_heads(scope)
        rid = ops.request_id_of(heads.get(b"x-request-id"))
        token = ops.enter_request(rid)
        try:
            if kind == "http":
                await self._http(scope, receive, send, heads, hosts, rid)
            else:
                await self._socket(scope, receive, send, heads, hosts)
        finally:
            ops.leave_request(token)

    async def _http(self, scope: Any, receive: Any, send: Any, heads: dict[bytes, str], hosts: int, rid: str) -> None:
        started = time.perf_counter()
        method, path = scope["method"], scope["path"]
        host = heads.get(b"host")
        extra = self._headers(path, host or "")  # (the first Host's: refusals carry them too)
        tail = (b"x-request-id", rid.encode())
        status: int | None = None

        async def sending(message: Any) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                raw = list(message.get("headers") or ())
                names = {k.lower() for k, _ in raw}
                message = {**message, "headers": [*raw, *(h for h in extra if h[0] not in names), tail]}
            await send(message)

        try:
            refusal = (host_check(self.policy, host if hosts == 1 else None)
                       or origin_check(self.policy, method, path, heads.get(b"origin"), host))
            if refusal is not None:
                await reply(sending, *refusal)
            else:
                await self.app(scope, receive, sending)
        except Exception as exc:  # noqa: BLE001 - a bug: answered and logged here, not re-raised
            # Starlette's handler of Exception would answer and then re-raise it to the server,
            # which logs the whole traceback, message included, and drops the connection
            response = internal_error(method, path, exc)
            if status is None:  # else the answer is cut short: the client sees a broken response
                await response(scope, receive, sending)
        finally:
            ops.observe_http(scope, method, path, 500 if status is None else status, started)

    async def _socket(self, scope: Any, receive: Any, send: Any, heads: dict[bytes, str], hosts: int) -> None:
        reason = socket_check(self.policy, heads.get(b"host") if hosts == 1 else None, heads.get(b"origin"))
        if reason is not None:
            await deny_socket(receive, send, reason)
            return
        opened = False
        gauge = ops.socket_gauge(scope)

        async def sending(message: Any) -> None:
            nonlocal opened
            if not opened and message["type"] == "websocket.accept":
                opened = True
                gauge.inc()
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            if opened:
                gauge.dec()


class Gate:
    """The inner ASGI layer, right around FastAPI's: the WebSocket bounds (:class:`SocketCounts`),
    then for HTTP the method rule (:class:`MethodRule`), the token rule (:func:`token_check`),
    the body limit (:func:`~abstracta.server.api.middleware.read_body`: 400, 413, 408) and the
    JSON rule (:func:`json_check`), in this order, in one frame (until issue 44 five layers:
    SocketBound, MethodCheck, RequireToken, BodyLimit, JsonOnly). A body that passes is handed
    on whole, as its one ``http.request`` message."""

    def __init__(self, app: Any, routes: Any, per_match: int | None, per_ip: int | None):
        self.app = app
        self.methods = MethodRule(routes)
        self.sockets = SocketCounts(per_match, per_ip)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind == "http":
            await self._http(scope, receive, send)
        elif kind == "websocket":
            await self._socket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _http(self, scope: Any, receive: Any, send: Any) -> None:
        method, path = scope["method"], scope["path"]
        heads = request_heads(scope)[0]
        refusal = (self.methods.check(scope, method, path)
                   or token_check(method, path, heads.get(b"authorization"), heads.get(b"cookie")))
        if refusal is not None:
            await reply(send, *refusal)
            return
        if method in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        try:
            body = await read_body(scope, receive)
        except BodyRefused as refused:
            await reply(send, refused.status, refused.message, {"Connection": "close"})
            return
        if body is None:  # the client went away
            return
        if method in STATE_CHANGING:
            refusal = json_check(heads.get(b"content-type"), body)
            if refusal is not None:
                await reply(send, *refusal)
                return
        delivered = False

        async def replay() -> Any:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _socket(self, scope: Any, receive: Any, send: Any) -> None:
        path = scope.get("path", "")
        found = SOCKET_PATH.fullmatch(path)
        if found is None and not LOBBY_SOCKET_PATH.fullmatch(path):
            await self.app(scope, receive, send)
            return
        match_id, ip = found.group(1) if found else None, client_ip(scope)
        reason = self.sockets.refusal(match_id, ip)
        if reason is not None:  # accepted only to be told why, then closed: try again later
            message = await receive()
            if message["type"] == "websocket.connect":
                await send({"type": "websocket.accept"})
                await send({"type": "websocket.send", "text": json.dumps({"error": reason})})
                await send({"type": "websocket.close", "code": 1013, "reason": reason})
            return
        counted = self.sockets.counted(match_id, ip)
        try:
            await self.app(scope, receive, send)
        finally:
            self.sockets.release(counted)



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
    """Wrap ``app`` (a FastAPI app) in the layers of this module, outermost first: :class:`Edge`
    (request ids, metrics, headers, Host, Origin, the last catch), :class:`RateLimit` (unless the
    limits are off; counted where :func:`limits_storage` of ``security.redis_url`` says) and
    :class:`Gate` (socket bounds, methods, tokens, body limit, JSON only), which is right around
    FastAPI's own exception handling and routes."""
    from fastapi.openapi.docs import get_swagger_ui_html

    docs = None
    if app.docs_url:
        page = get_swagger_ui_html(openapi_url=app.openapi_url, title=app.title + " - Swagger UI",
                                   oauth2_redirect_url=app.swagger_ui_oauth2_redirect_url,
                                   init_oauth=app.swagger_ui_init_oauth,
                                   swagger_ui_parameters=app.swagger_ui_parameters)
        docs = docs_policy(page.body.decode())
    # add_middleware puts each new one outside the others
    app.add_middleware(Gate, routes=lambda: app.router.routes, per_match=security.ws_per_match,
                       per_ip=security.ws_per_ip if security.rate_limits else None)
    # the limiter is the app's too: a move over a match's WebSocket spends the budget of a
    # POST …/actions (api.routes.live_moves), or a socket would be a way around the limits
    app.state.rate_limiter = None
    if security.rate_limits:
        app.state.rate_limiter = RateLimiter(security.limits, limits_storage(security.redis_url))
        app.add_middleware(RateLimit, limiter=app.state.rate_limiter)
    app.add_middleware(Edge, policy=security.hosts, docs_csp=docs)
