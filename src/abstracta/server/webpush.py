"""Web Push notices of correspondence games (issue 43 §1): "your move", to a phone or a browser
that is closed, for games of a day or more per move.

A concern reacting to the session's events, as :mod:`.pushes` does: after a stored change whose
events moved the turn to another person's seat (a move played, the last seat taken), in a game
whose clock gives a day or more per turn (``people.pools.CORRESPONDENCE_TURN``), every browser
subscribed for that seat is sent a notice. Never called from inside another concern; the
sending runs on a small pool of threads of its own, outside the match's lock, so a slow push
service holds up nobody.

The protocol is the standard one (RFC 8030 push, RFC 8291 message encryption with RFC 8188
``aes128gcm``, RFC 8292 VAPID), done by ``pywebpush``. The server's VAPID key pair (P-256) is
made on its first start and kept with its data, in the database (``server_keys``): every
process on one database signs with the same key, which is the one the browsers subscribed to.
Whoever holds a copy of the database can send notices to its subscribers as this server.

Subscriptions: a browser holding a seat sends its ``PushSubscription`` (endpoint URL, its P-256
key ``p256dh`` and secret ``auth``) for the seats it holds; the server posts to that URL, so the
URL is checked first — ``https`` only, and no loopback, private or link-local address named
by its IP (in any form the resolver reads: ``127.1`` too) or as ``localhost`` — and again before
each post, where a name that resolves to such an address is not posted to and a redirect is
not followed (:attr:`WebPush.allow_local` lets the tests' local endpoint in).
A push service that answers 404 or 410 (the subscription is gone) has the subscription dropped.
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import json
import logging
import re
import socket
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Sequence
from urllib.parse import urlsplit

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from ..core.view import message
from ..people.pools import CORRESPONDENCE_TURN
from ..play import ActionsPlayed, Event, SeatTaken
from . import i18n
from .errors import Conflict, Forbidden, InvalidRequest
from .matches import Kernel, Match, MatchDeleted
from .social_tables import PushSubscriptionRow, ServerKeyRow
from .storage import Store

log = logging.getLogger("abstracta.server.webpush")

#: most subscriptions kept per seat (the oldest dropped): a person's phone, laptop and a few more
SUBSCRIPTIONS_PER_SEAT = 8
#: longest endpoint URL accepted (the push services' are a few hundred characters)
ENDPOINT_LIMIT = 1024
#: how long the push service keeps an undelivered notice (seconds): a correspondence move waits a day
TTL = 86_400
#: seconds the server waits for the push service's answer
SEND_TIMEOUT = 10.0


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def now() -> datetime:
    return datetime.now(timezone.utc)


def correspondence(match: Match) -> bool:
    """Whether ``match`` is a correspondence game: a clock of a day or more per turn."""
    clock = match.live.clock or {}
    return "per_turn" in clock and float(clock["per_turn"]) >= CORRESPONDENCE_TURN


class VapidKeys:
    """The server's VAPID key pair: made once, kept in ``server_keys`` (row ``vapid``, the
    private key as PKCS#8 PEM), read back by every later start and every other process."""

    NAME = "vapid"

    def __init__(self, store: Store):
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ec

        with store.reading() as s:
            row = s.get(ServerKeyRow, self.NAME)
            pem = row.value if row is not None else None
        if pem is None:
            made = ec.generate_private_key(ec.SECP256R1()).private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
            try:
                with store.writing() as s:
                    s.add(ServerKeyRow(name=self.NAME, value=made, created_at=now()))
                pem = made
            except IntegrityError:  # another process starting at the same moment made it first
                with store.reading() as s:
                    pem = s.get(ServerKeyRow, self.NAME).value
        self.pem = pem
        key = serialization.load_pem_private_key(pem.encode(), password=None)
        point = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        #: the application server key a browser subscribes with (base64url, the 65-byte point)
        self.public = b64url(point)

    def signer(self) -> Any:
        """A ``py_vapid`` signer of this key (what ``pywebpush`` takes)."""
        from py_vapid import Vapid

        return Vapid.from_pem(self.pem.encode())


@dataclass(frozen=True)
class Subscription:
    """A browser's push subscription: its ``endpoint`` URL, its P-256 public key ``p256dh``
    (the 65-byte uncompressed point) and its 16-byte secret ``auth``, both base64url without
    padding. Read from a request (``server.api.bodies.PushSubscription``), which checks those
    shapes; whether the server posts to the endpoint is :func:`check_endpoint`'s rule."""

    endpoint: str
    p256dh: str
    auth: str


def check_endpoint(url: str, schemes: Sequence[str], allow_local: bool) -> str:
    """``url`` if the server may post to it (see the module's docstring): its scheme one of
    ``schemes``, and no local address unless ``allow_local``; InvalidRequest otherwise."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.scheme not in schemes or not host:
        raise InvalidRequest(f"a push endpoint must be an {' or '.join(schemes)} URL")
    if not allow_local and (host == "localhost" or host.endswith(".localhost") or is_local(literal_ip(host))):
        raise InvalidRequest("the push endpoint names a local address: not a push service")
    return url


def literal_ip(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address ``host`` names by itself, without DNS — also in the forms the resolver
    reads as IPv4 and :mod:`ipaddress` does not (``127.1``, ``2130706433``, ``0x7f000001``) —
    or None for a name."""
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    if re.fullmatch(r"[0-9a-fA-FxX.]+", host):
        try:
            return ipaddress.IPv4Address(socket.inet_aton(host))
        except OSError:
            return None
    return None


def is_local(ip: ipaddress.IPv4Address | ipaddress.IPv6Address | None) -> bool:
    """Whether ``ip`` is an address of this machine or its networks (not a push service's)."""
    if ip is None:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_reserved or ip.is_multicast or ip.is_unspecified


def resolves_locally(url: str) -> bool:
    """Whether the host of ``url`` resolves (now) to a local address, or not at all: a name
    that passed :func:`check_endpoint` may still lead into the server's own network."""
    parts = urlsplit(url)
    try:
        found = socket.getaddrinfo(parts.hostname or "", parts.port or 443, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return True
    return not found or any(is_local(ipaddress.ip_address(info[4][0].split("%", 1)[0])) for info in found)


class WebPush:
    """The Web Push notices of one server process (see the module's docstring).

    ``schemes``: the endpoint URL schemes accepted (``https``); ``allow_local``: accept
    loopback and private addresses (tests); ``contact``: the VAPID ``sub`` claim, how a push
    service reaches the operator (``mailto:`` or ``https:``)."""

    def __init__(self, kernel: Kernel, *, schemes: Sequence[str] = ("https",), allow_local: bool = False,
                 contact: str = "mailto:operator@abstracta.invalid", workers: int = 2):
        self.kernel, self.store = kernel, kernel.store  # its tables: Alembic's (storage.make_engine)
        self.keys = VapidKeys(self.store)
        self.schemes, self.allow_local, self.contact = tuple(schemes), allow_local, contact
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="webpush")
        self._lock = threading.Lock()
        #: notices sent and refused, since the start (``{"sent", "failed", "gone"}``)
        self.counts = {"sent": 0, "failed": 0, "gone": 0}
        self.closed = False

    # --- subscriptions ---------------------------------------------------------------------------
    def subscribe(self, match: Match, seats: set[int], subscription: Subscription, lang: str = i18n.BASE) -> list[int]:
        """Keep ``subscription`` for the person seats of ``match`` in ``seats``, its notices in
        ``lang`` (a language without catalogs: English): the seats it is kept for. Forbidden
        without a person seat, Conflict for a game that is not correspondence, InvalidRequest
        for an endpoint the server will not post to (:func:`check_endpoint`)."""
        mine = sorted(s for s in seats if s in match.persons)
        if not mine:
            raise Forbidden("push notices are for the players of this game")
        if not correspondence(match):
            raise Conflict("push notices are sent in correspondence games (a day or more per move)",
                           i18n=message("notice.push_correspondence_only"))
        endpoint = check_endpoint(subscription.endpoint, self.schemes, self.allow_local)
        p256dh, auth = subscription.p256dh, subscription.auth
        lang = lang if lang in i18n.languages() else i18n.BASE
        hashed = hashlib.sha256(endpoint.encode()).hexdigest()
        try:
            self._keep(match.id, mine, endpoint, hashed, p256dh, auth, lang)
        except IntegrityError:
            # the same browser subscribed at the same moment ("Notify me" tapped twice, two tabs;
            # two workers): its row was not there to replace yet, and the unique key refused the
            # second (PostgreSQL). Replaced now: the latest request's keys and language are kept
            self._keep(match.id, mine, endpoint, hashed, p256dh, auth, lang)
        return mine

    def _keep(self, match_id: str, mine: Sequence[int], endpoint: str, hashed: str, p256dh: str, auth: str,
              lang: str) -> None:
        with self.store.writing() as s:
            for seat in mine:
                s.execute(delete(PushSubscriptionRow).where(PushSubscriptionRow.match_id == match_id,
                                                            PushSubscriptionRow.seat == seat,
                                                            PushSubscriptionRow.endpoint_hash == hashed))
                s.add(PushSubscriptionRow(match_id=match_id, seat=seat, endpoint=endpoint, endpoint_hash=hashed,
                                          p256dh=p256dh, auth=auth, lang=lang, created_at=now()))
                s.flush()
                kept = s.scalars(select(PushSubscriptionRow.id).where(PushSubscriptionRow.match_id == match_id,
                                                                      PushSubscriptionRow.seat == seat)
                                 .order_by(PushSubscriptionRow.id.desc())).all()
                if len(kept) > SUBSCRIPTIONS_PER_SEAT:
                    s.execute(delete(PushSubscriptionRow).where(PushSubscriptionRow.id.in_(kept[SUBSCRIPTIONS_PER_SEAT:])))

    def unsubscribe(self, match: Match, seats: set[int], endpoint: str) -> int:
        """Drop the subscriptions of ``endpoint`` for the seats held: how many went."""
        hashed = hashlib.sha256(endpoint.encode()).hexdigest()
        with self.store.writing() as s:
            done = s.execute(delete(PushSubscriptionRow).where(PushSubscriptionRow.match_id == match.id,
                                                               PushSubscriptionRow.seat.in_(sorted(seats)),
                                                               PushSubscriptionRow.endpoint_hash == hashed))
            return done.rowcount or 0

    def subscribed(self, match_id: str, seat: int) -> list[PushSubscriptionRow]:
        with self.store.reading() as s:
            return list(s.scalars(select(PushSubscriptionRow).where(PushSubscriptionRow.match_id == match_id,
                                                                    PushSubscriptionRow.seat == seat)))

    # --- reacting to the matches' events ---------------------------------------------------------
    def react(self, match: Match, events: Sequence[Event]) -> None:
        """After a stored change (lock held): a correspondence game whose turn has just passed
        to a person's seat sends that seat's subscribers a notice; a deleted match's
        subscriptions go."""
        if any(isinstance(e, MatchDeleted) for e in events):
            with self.store.writing() as s:
                s.execute(delete(PushSubscriptionRow).where(PushSubscriptionRow.match_id == match.id))
            return
        seat = self.turn_passed(match, events)
        if seat is None or self.closed:
            return
        # the subscribers as the turn passes (read here, not when the pool gets to it: a browser
        # subscribing meanwhile is told of the next turn, not of this one late)
        rows = self.subscribed(match.id, seat)
        if rows:
            last = match.strings[-1] if match.strings else ""
            self._pool.submit(self._notify, match.id, rows, match.game.description.title.key,
                              str(match.game.description.title), last)

    @staticmethod
    def turn_passed(match: Match, events: Sequence[Event]) -> int | None:
        """The person seat the turn passed to with ``events`` in a correspondence game, or None
        (a seat playing on in its own turn, the game over, a seat not yet taken)."""
        if match.over or match.waiting_for or not correspondence(match):
            return None
        seat = match.to_move()
        if seat is None or seat not in match.persons:
            return None
        for event in events:
            if isinstance(event, ActionsPlayed) and event.seat != seat:
                return seat
            if isinstance(event, SeatTaken) and event.seat != seat:  # the last seat taken: the game starts
                return seat
        return None

    # --- sending ---------------------------------------------------------------------------------
    def payload(self, match_id: str, lang: str, title_key: str, title: str, last: str) -> bytes:
        """The notice for a subscriber reading ``lang``: ``{"title", "body", "url", "tag"}``
        (JSON, UTF-8), in the words of the browser's catalogs."""
        words = i18n.catalog(lang)
        game = words.get(title_key, title)
        head = str(words.get("notice.push_title", "Your move — {game}")).replace("{game}", str(game))
        body = str(words.get("notice.push_body", "The last move: {move}")).replace("{move}", last)
        return json.dumps({"title": head, "body": body, "url": f"/#/match/{match_id}", "tag": f"abstracta-{match_id}"},
                          ensure_ascii=False).encode()

    def _notify(self, match_id: str, rows: Sequence[PushSubscriptionRow], title_key: str, title: str,
                last: str) -> None:
        for row in rows:
            self.send(row, self.payload(match_id, row.lang, title_key, title, last))

    def send(self, row: PushSubscriptionRow, data: bytes) -> bool:
        """Post ``data`` to one subscription, encrypted to its keys and signed with the server's
        VAPID key (``pywebpush``); a subscription the push service no longer knows is dropped.
        True when the push service took it."""
        import requests
        from pywebpush import WebPushException, webpush

        info = {"endpoint": row.endpoint, "keys": {"p256dh": row.p256dh, "auth": row.auth}}
        if not self.allow_local and resolves_locally(row.endpoint):
            log.warning("a push endpoint resolves to a local address: not posted to")
            self._count("failed")
            return False
        session = requests.Session()
        session.max_redirects = 0  # a push service answers; a redirect (to anywhere) is not followed
        try:
            webpush(info, data, vapid_private_key=self.keys.signer(), vapid_claims={"sub": self.contact},
                    content_encoding="aes128gcm", ttl=TTL, timeout=SEND_TIMEOUT,
                    headers={"Urgency": "normal", "Topic": f"m{row.match_id}"[:32]}, requests_session=session)
        except WebPushException as exc:
            status = exc.response.status_code if exc.response is not None else None
            if status in (404, 410):
                with self.store.writing() as s:
                    s.execute(delete(PushSubscriptionRow).where(PushSubscriptionRow.id == row.id))
                self._count("gone")
            else:
                log.warning("a push service refused a notice (%s)", status or type(exc).__name__)
                self._count("failed")
            return False
        except Exception as exc:  # noqa: BLE001 - a push service unreachable: logged, the game goes on
            log.warning("a push service could not be reached (%s)", type(exc).__name__)
            self._count("failed")
            return False
        finally:
            session.close()
        self._count("sent")
        return True

    def _count(self, what: str) -> None:
        with self._lock:
            self.counts[what] += 1

    def close(self) -> None:
        """Stop taking notices; those being sent finish (each within :data:`SEND_TIMEOUT`)."""
        self.closed = True
        self._pool.shutdown(wait=False, cancel_futures=True)


__all__ = ["ENDPOINT_LIMIT", "Subscription", "TTL", "VapidKeys", "WebPush", "b64url", "check_endpoint", "correspondence",
           "is_local", "literal_ip", "resolves_locally", "unb64url"]
