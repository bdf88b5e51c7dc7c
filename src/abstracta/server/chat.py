"""A match's chat (issue 43 §2): the players' chat and the spectators' chat, apart.

Rules (lichess keeps the same two rooms):

* There is chat only where people play at a distance (:mod:`.company`): none in a game against
  the computer alone or on one device, where nobody else could read it.
* **players**: written and read by whoever holds a person seat of the match (a seat token, or
  the session cookie of the seat's person). It is kept with the game and shown in its replay
  to its players only.
* **spectators**: written by signed-in people (a guest too) who hold no seat of the match; read
  by anyone who may watch the game — players too, when they choose to (the browser shows it
  to a player only after a tap).
* A line is 1–140 characters of text (Unicode NFC; runs of white space read as one space; no
  control or bidirectional-override characters). It is checked **before** the rate limit is
  counted, so a line too long is 422 even when the limit is near and costs nothing of it.
* Rate limits (``limits``' moving windows, per writer and per address, :data:`CHAT_LIMITS`):
  429 with ``Retry-After``.
* A person the operator banned (``abstracta moderation ban NAME``) cannot write, and their
  lines are no longer shown to anyone. A line can be reported by anyone who can read it; the
  report keeps a copy of the line for the operator (``abstracta moderation list``).
* Mute is each reader's own (the browser keeps whom it muted): nothing is stored of it here.

Who is asking comes as a :class:`Speaker`, made by the routes' one seat authorization
(``routes/deps.py``'s ``who_acts``). A new line is announced through :attr:`Chat.announce`
(``match_id``), one seam: this process's sockets by default, the cross-process fan-out in a
club deployment.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable, Sequence

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError

from ..people.errors import TooManyAttempts
from ..people.names import name_key
from ..people.tables import PersonRow
from ..people.throttle import Throttle
from ..people.values import Person
from ..core.view import message
from ..play import Event
from .company import Company
from .errors import Conflict, Forbidden, InvalidRequest, NotFound, TooBusy, Unauthorized
from .matches import Kernel, Match, MatchDeleted
from .social_tables import ChatBanRow, ChatLineRow, ChatReportRow
from .storage import Store

#: the two rooms of a match's chat
PLAYERS, SPECTATORS = "players", "spectators"
ROOMS = (PLAYERS, SPECTATORS)
#: longest line, in characters (Unicode code points after NFC)
TEXT_LIMIT = 140
#: most lines one answer gives (the newest)
LINES_LIMIT = 200
#: per writer (a person, or a seat token's seat) and per address
CHAT_LIMITS: dict[str, str] = {"chat_writer": "5/10second;30/minute", "chat_ip": "60/minute"}
#: the largest line id: the id column is an ``Integer``, 32 bits on PostgreSQL (64 on SQLite), and
#: a larger number is no line there, not an overflow answered 500
LINE_ID_MAX = 2**31 - 1
#: the catalog key of a deleted account's name (its lines' ``name_key``; their ``name`` is empty)
DELETED_KEY = "seat.deleted_player"
#: bidirectional overrides and isolates: they turn the rest of a page's line around
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
_SPACE = re.compile(r"\s+")


def now() -> datetime:
    return datetime.now(timezone.utc)


def check_text(text: str) -> str:
    """The line ``text`` as kept: NFC, white space runs as one space, stripped. InvalidRequest
    (422) for a text that is empty, is longer than :data:`TEXT_LIMIT` characters (once kept) or
    holds a control or bidirectional-override character."""
    line = _SPACE.sub(" ", unicodedata.normalize("NFC", text)).strip()
    if all(c == " " or unicodedata.category(c) == "Cf" for c in line):  # none, or only invisible ones (U+200B)
        raise InvalidRequest("a chat line needs some text", i18n=message("chat.error.empty"))
    if len(line) > TEXT_LIMIT:
        raise InvalidRequest(f"a chat line is at most {TEXT_LIMIT} characters (this one has {len(line)})",
                             i18n=message("chat.error.too_long", limit=TEXT_LIMIT, n=len(line)))
    if _BIDI.search(line) or any(unicodedata.category(c) == "Cc" for c in line):
        raise InvalidRequest("a chat line cannot hold control characters", i18n=message("chat.error.control"))
    return line


@dataclass(frozen=True)
class Speaker:
    """Who reads or writes a match's chat: ``seats`` of the match held (by seat tokens, or as
    the seats' person), ``person`` signed in (a cookie, or an API token with the ``chat``
    scope), ``credentials``: whether the request presented any (401 or 403 when they are not
    enough), ``ip``: its address (the rate limit)."""

    seats: frozenset[int] = frozenset()
    person: Person | None = None
    credentials: bool = False
    ip: str = ""

    def plays(self, match: Match) -> bool:
        return any(s in self.seats for s in match.persons)

    def writer(self, match: Match) -> str:
        """The key of a line's author: ``s<seat>`` for a player (the lowest person seat held),
        ``p<person id>`` for a spectator."""
        if self.plays(match):
            return f"s{min(s for s in self.seats if s in match.persons)}"
        return f"p{self.person.id}" if self.person is not None else ""

    def keys(self, match: Match) -> list[str]:
        """Every author key this reader writes as (its own lines carry one of them)."""
        own = [f"s{s}" for s in sorted(self.seats) if s in match.persons]
        return own + ([f"p{self.person.id}"] if self.person is not None else [])


@dataclass
class ChatLog:
    """The chat tables of a database (``store``'s): lines, reports, bans. No rules here: the
    :class:`Chat` concern checks who may do what; the operator's command uses the reports and
    bans directly."""

    store: Store
    clock: Callable[[], datetime] = field(default=now)  # the tables: Alembic's (storage.make_engine)

    # --- lines ---------------------------------------------------------------------------------
    def add(self, match_id: str, room: str, seat: int | None, person_id: int | None, name: str,
            seat_named: bool, name_key: str | None, text: str, ply: int) -> ChatLineRow:
        with self.store.writing() as s:
            row = ChatLineRow(match_id=match_id, room=room, seat=seat, person_id=person_id, name=name[:40],
                              seat_named=seat_named, name_key=name_key, text=text, ply=ply, at=self.clock())
            s.add(row)
            s.flush()
            return row

    def lines(self, match_id: str, rooms: Sequence[str], after: int = 0, limit: int = LINES_LIMIT) -> list[ChatLineRow]:
        """The newest ``limit`` lines of ``rooms`` after line id ``after``, oldest first, without
        the lines of banned people."""
        if not rooms:
            return []
        with self.store.reading() as s:
            banned = select(ChatBanRow.person_id)
            query = (select(ChatLineRow).where(ChatLineRow.match_id == match_id, ChatLineRow.room.in_(list(rooms)),
                                               ChatLineRow.id > after)
                     .where((ChatLineRow.person_id.is_(None)) | (ChatLineRow.person_id.not_in(banned)))
                     .order_by(ChatLineRow.id.desc()).limit(limit))
            return list(reversed(s.scalars(query).all()))

    def accounts(self, rows: Sequence[ChatLineRow]) -> set[int]:
        """The authors of ``rows`` who are accounts called now as their lines name them (a
        client links such a name to its profile; a guest has none, a name changed since is not
        theirs now)."""
        wanted = {r.person_id: r.name for r in rows if r.person_id is not None and not r.seat_named}
        if not wanted:
            return set()
        with self.store.reading() as s:
            found = s.execute(select(PersonRow.id, PersonRow.name).where(PersonRow.id.in_(list(wanted)),
                                                                         PersonRow.kind == "account")).all()
        return {pid for pid, name in found if name == wanted[pid]}

    def line(self, match_id: str, line_id: int) -> ChatLineRow | None:
        with self.store.reading() as s:
            row = s.get(ChatLineRow, line_id)
            return row if row is not None and row.match_id == match_id else None

    def forget(self, match_id: str) -> None:
        """A deleted match's lines go (its reports stay, with their copies of the lines)."""
        with self.store.writing() as s:
            s.execute(delete(ChatLineRow).where(ChatLineRow.match_id == match_id))

    def forget_author(self, person_id: int) -> None:
        """A deleted account's name goes from its lines (they stay, under "deleted player": the
        name is free for someone new, who did not write them)."""
        with self.store.writing() as s:
            s.execute(update(ChatLineRow).where(ChatLineRow.person_id == person_id)
                      .values(name="", name_key=DELETED_KEY))

    # --- reports and bans ------------------------------------------------------------------------
    def report(self, row: ChatLineRow, reporter: str, reporter_name: str) -> bool:
        """Keep a report of ``row`` by ``reporter``; False when they reported it already."""
        try:
            with self.store.writing() as s:
                s.add(ChatReportRow(line_id=row.id, match_id=row.match_id, room=row.room,
                                    author_person_id=row.person_id, author_name=row.name, text=row.text,
                                    reporter=reporter, reporter_name=reporter_name[:40], at=self.clock()))
        except IntegrityError:
            return False
        return True

    def reports(self) -> list[dict[str, Any]]:
        """Every report, newest first, with how many reports its line has and whether its
        author is banned: ``{id, at, match_id, room, author, author_banned, text, reporter,
        reports}``."""
        with self.store.reading() as s:
            banned = set(s.scalars(select(ChatBanRow.person_id)))
            counts = dict(s.execute(select(ChatReportRow.line_id, func.count()).group_by(ChatReportRow.line_id)).all())
            out = []
            for r in s.scalars(select(ChatReportRow).order_by(ChatReportRow.id.desc())):
                out.append({"id": r.id, "at": r.at, "match_id": r.match_id, "room": r.room, "author": r.author_name,
                            "author_banned": r.author_person_id in banned, "text": r.text,
                            "reporter": r.reporter_name, "reports": counts.get(r.line_id, 1)})
            return out

    def person_named(self, name: str) -> PersonRow:
        """The guest or account called ``name`` (any case); NotFound otherwise."""
        with self.store.reading() as s:
            row = s.scalar(select(PersonRow).where(PersonRow.name_key == name_key(name[:40])))
        if row is None:
            raise NotFound(f"nobody is called {name[:40]!r}")
        return row

    def ban(self, name: str) -> tuple[str, int]:
        """Ban the person called ``name`` from every chat: ``(their name, lines hidden)``."""
        person = self.person_named(name)
        with self.store.writing() as s:
            if s.get(ChatBanRow, person.id) is None:
                s.add(ChatBanRow(person_id=person.id, at=self.clock()))
            hidden = s.scalar(select(func.count()).select_from(ChatLineRow).where(ChatLineRow.person_id == person.id))
        return person.name or name, int(hidden or 0)

    def unban(self, name: str) -> str:
        person = self.person_named(name)
        with self.store.writing() as s:
            s.execute(delete(ChatBanRow).where(ChatBanRow.person_id == person.id))
        return person.name or name

    def banned(self, person_id: int) -> bool:
        with self.store.reading() as s:
            return s.get(ChatBanRow, person_id) is not None

    def bans(self) -> list[tuple[str, datetime]]:
        with self.store.reading() as s:
            rows = s.execute(select(PersonRow.name, ChatBanRow.at).join(PersonRow, PersonRow.id == ChatBanRow.person_id)
                             .order_by(ChatBanRow.at))
            return [(name or "deleted", at) for name, at in rows]


class Chat:
    """The chat concern of one server process (see the module's docstring)."""

    def __init__(self, kernel: Kernel, company: Company, throttle: Throttle | None = None):
        self.kernel, self.company = kernel, company
        self.log = ChatLog(kernel.store)
        self.throttle = throttle or Throttle(limits=dict(CHAT_LIMITS))
        #: tells the match's readers that a line was written: the seam of the cross-process fan-out
        self.announce: Callable[[str], None] = lambda match_id: None
        #: the ids of the people whose lines a person does not read (the lobby's blocks, issue 42:
        #: "no chat from them"); handed in by the lobby, so that this module imports nothing of it
        self.hidden: Callable[[int], set[int]] = lambda person_id: set()

    # --- who may ---------------------------------------------------------------------------------
    def is_open(self, match: Match) -> bool:
        """Whether ``match`` has a chat: people play it at a distance."""
        return self.company.apart(match)

    @staticmethod
    def readable(match: Match, speaker: Speaker) -> list[str]:
        """The rooms ``speaker`` may read: the players' when it plays, the spectators' always."""
        return [PLAYERS, SPECTATORS] if speaker.plays(match) else [SPECTATORS]

    def _may_write(self, match: Match, speaker: Speaker, room: str) -> None:
        if room == PLAYERS and not speaker.plays(match):
            if not speaker.credentials:
                raise Unauthorized("the players' chat is for the players: send a seat's token or its person's "
                                   "session", i18n=message("chat.error.players_only"))
            raise Forbidden("the players' chat is for the players of this game", i18n=message("chat.error.players_only"))
        if room == SPECTATORS:
            if speaker.plays(match):
                raise Forbidden("players write in the players' chat", i18n=message("chat.error.spectators_only"))
            if speaker.person is None:
                raise Unauthorized("sign in, or play as a guest, to chat with the other spectators",
                                   i18n=message("chat.error.sign_in"))
        if speaker.person is not None and self.log.banned(speaker.person.id):
            raise Forbidden("you may not chat: the operator of this server has banned you from chat",
                            i18n=message("chat.error.banned"))

    def _limit(self, match: Match, speaker: Speaker) -> None:
        writer = f"p{speaker.person.id}" if speaker.person is not None and not speaker.plays(match) \
            else f"{match.id}:{speaker.writer(match)}"
        try:
            self.throttle.check("chat_writer", writer)
            self.throttle.check("chat_ip", speaker.ip)
        except TooManyAttempts as exc:
            refusal = TooBusy(f"too many chat lines: wait {exc.retry_after} s", i18n=message("chat.error.too_fast",
                                                                                        seconds=exc.retry_after))
            refusal.retry_after = exc.retry_after or 1
            raise refusal from None
        self.throttle.hit("chat_writer", writer)
        self.throttle.hit("chat_ip", speaker.ip)

    def _match(self, match_id: str) -> Match:
        return self.kernel.current(match_id)  # NotFound (404) for no such match

    # --- what the routes call ------------------------------------------------------------------
    def post(self, match_id: str, speaker: Speaker, room: str, text: str) -> dict[str, Any]:
        """Write ``text`` in ``room`` of ``match_id`` as ``speaker``: the line as :meth:`line_json`
        gives it. In this order: the text and the room (422), the match (404), its chat (409
        where there is none), who may write there (401/403), then the rate limit (429)."""
        line = check_text(text)
        if room not in ROOMS:  # (the routes read only these)
            raise InvalidRequest(f"no chat room {room[:20]!r}: {' or '.join(ROOMS)}")
        match = self._match(match_id)
        if not self.is_open(match):
            raise Conflict("this game has no chat: it is played against the computer or on one device",
                           i18n=message("chat.error.closed"))
        self._may_write(match, speaker, room)
        seat = min(s for s in speaker.seats if s in match.persons) if room == PLAYERS else None
        # a person's seat is theirs in the chat however it is held (its token alone, no cookie):
        # their ban refuses the line, and the readers who block them do not read it
        author = match.people.get(seat) if seat is not None else None
        if author is None and speaker.person is not None:
            author = speaker.person.id
        if author is not None and (speaker.person is None or author != speaker.person.id) and self.log.banned(author):
            raise Forbidden("you may not chat: the operator of this server has banned you from chat",
                            i18n=message("chat.error.banned"))
        self._limit(match, speaker)
        if seat is not None:
            named = self.company.names(match)[seat]
            row = self.log.add(match.id, room, seat, author,
                               named["name"], not named["person"], named["name_key"], line, match.ply)
        else:
            assert speaker.person is not None
            row = self.log.add(match.id, room, None, speaker.person.id, speaker.person.name or "", False, None,
                               line, match.ply)
        self.announce(match.id)
        return self.line_json(row, self.log.accounts([row]))

    def read(self, match_id: str, speaker: Speaker, room: str | None = None, after: int = 0) -> dict[str, Any]:
        """The lines ``speaker`` may read: ``{"open", "rooms", "you", "lines"}`` — whether the
        game has a chat, the rooms it may read (and write: ``"write"``), its own author keys,
        and the newest lines after line id ``after`` (of ``room`` only, when given: 403 for a
        room it may not read), but for those of the people its person blocks (:attr:`hidden`)."""
        match = self._match(match_id)
        rooms = self.readable(match, speaker)
        if room is not None:
            if room not in ROOMS:  # (the routes read only these)
                raise InvalidRequest(f"no chat room {room[:20]!r}: {' or '.join(ROOMS)}")
            if room not in rooms:
                raise Forbidden("the players' chat is read by the players of this game only",
                                i18n=message("chat.error.players_only"))
            rooms = [room]
        open_ = self.is_open(match)
        hidden = self.hidden(speaker.person.id) if open_ and speaker.person is not None else set()
        rows = [r for r in self.log.lines(match.id, rooms, after)
                if r.person_id is None or r.person_id not in hidden] if open_ else []
        accounts = self.log.accounts(rows)
        return {"open": open_, "rooms": rooms, "write": self._writable(match, speaker) if open_ else None,
                "you": speaker.keys(match), "lines": [self.line_json(r, accounts) for r in rows]}

    @staticmethod
    def _writable(match: Match, speaker: Speaker) -> str | None:
        """The room ``speaker`` writes in (None: none until it signs in)."""
        if speaker.plays(match):
            return PLAYERS
        return SPECTATORS if speaker.person is not None else None

    def report(self, match_id: str, line_id: Any, speaker: Speaker) -> bool:
        """Report line ``line_id`` of ``match_id`` for the operator, by a reader who can see it
        (404 otherwise, as for no such line); False when this reader reported it already."""
        if isinstance(line_id, bool) or not isinstance(line_id, int):
            raise InvalidRequest("a line id is a number")
        match = self._match(match_id)
        row = self.log.line(match.id, line_id) if 0 < line_id <= LINE_ID_MAX else None  # no such id in the database
        if row is None or row.room not in self.readable(match, speaker):
            raise NotFound(f"no chat line {line_id} in this game")
        if not speaker.credentials:
            raise Unauthorized("sign in, or play as a guest, to report a line", i18n=message("chat.error.sign_in"))
        if speaker.person is not None:
            reporter, name = f"p{speaker.person.id}", speaker.person.name or ""
        else:
            seat = min(speaker.seats)
            reporter, name = f"s{match.id}:{seat}", self.company.names(match)[seat]["name"]
        return self.log.report(row, reporter, name)

    @staticmethod
    def line_json(row: ChatLineRow, accounts: set[int] | frozenset[int] = frozenset()) -> dict[str, Any]:
        """A line for a client: ``{id, room, seat, author, name, name_key, person, account, text,
        ply, at}`` — ``author`` the key to mute it by (``s<seat>`` a player, ``p<id>`` a
        spectator), ``name`` the name written then (a seat's name in the game where no person
        holds the seat: ``person`` false, ``name_key`` its catalog key, a client may name it its
        own way), ``account`` whether that name is an account's now (``accounts``: their ids,
        :meth:`ChatLog.accounts`): a client links it to the profile."""
        return {"id": row.id, "room": row.room, "seat": row.seat,
                "author": f"s{row.seat}" if row.seat is not None else f"p{row.person_id}",
                "name": row.name, "name_key": row.name_key,
                "person": not row.seat_named, "account": row.person_id in accounts,
                "text": row.text, "ply": row.ply,
                "at": (row.at if row.at.tzinfo else row.at.replace(tzinfo=timezone.utc)).isoformat()}

    # --- reacting to the matches' events ---------------------------------------------------------
    def react(self, match: Match, events: Sequence[Event]) -> None:
        """A deleted match's lines go with it (and its room sockets are woken: they close)."""
        if any(isinstance(e, MatchDeleted) for e in events):
            self.log.forget(match.id)
            self.announce(match.id)


__all__ = ["CHAT_LIMITS", "Chat", "ChatLog", "LINES_LIMIT", "PLAYERS", "ROOMS", "SPECTATORS", "Speaker", "TEXT_LIMIT",
           "check_text"]
