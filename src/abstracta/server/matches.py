"""Matches in play: rules, persistence and bots together (issue 7 §1–§3).

A :class:`Match` is one game being played: the Game, its initial state, the actions applied so
far and the current state, plus who sits at each seat. :class:`MatchService` keeps matches in
memory, loads them from the store by replaying their record, writes every accepted change in
one transaction *before* the in-memory match changes, and runs bot moves as jobs
(:mod:`abstracta.server.botjobs`: a fast lane for levels 1–2, a fair deep lane for searches).

Seats belong to people (issue 13): every person seat is held by whoever knows its secret token
(128 bits, ``secrets.token_urlsafe(16)``; only its SHA-256 is stored). The creator receives the
tokens of the seats it takes and one invitation code per other person seat; claiming an
invitation gives its seat's token, once. Every act names its tokens; views are computed for the
seats those tokens hold (none: a spectator, who sees public information only).

Every method raises a :class:`abstracta.server.errors.MatchError` for a refused request (the
routes map each kind to an HTTP status); the match it was aimed at is then unchanged. Any other
exception is a bug, and the match is unchanged too: every change is computed on a copy and
becomes the match only once stored.

Concurrency (issue 14 §1–§2): one lock per match (a slow match never holds up another); a
change is stored as appended move rows and a revision bump in one transaction, guarded by the
revision it started from; a conflict (another process on the same PostgreSQL database moved
first) reloads the match and runs the request again on the fresh match. Each stored change is
published to the match's subscribers (:class:`abstracta.server.push.Hub`); views are computed
once per revision and viewer and shared.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import functools
import hashlib
import hmac
import json
import logging
import secrets
import threading
import time
import weakref
import zlib
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable, Iterable, Iterator, Sequence, TypeVar

import orjson

from ..core.description import shell_english
from ..core.errors import AbstractaError, RecordError, UnknownGameError
from ..core.game import (Game, State, TurnText, action_strings, agreed_draw_returns, draw_seats, played_turns,
                         resignation_returns, seats_out, seats_out_since,
                         turn_numbers, turn_spans, turn_texts, turns_played, views_differ)
from ..core.options import seed_problem
from ..core.records import (DECIDED, DRAW_OFFERED_TAG, HINTS_TAG, OUT_OF_TIME_TAG, RESIGNED_TAG, Record, out_of_time_seats,
                             resigned_seat, tag_seats)
from ..core.records import hint_counts as record_hint_counts
from ..core.registry import game_class, load_game
from . import bots
from .errors import (Conflict, CorruptMatch, Forbidden, Gone, Hidden, IllegalMove, InvalidRequest, MatchError,
                     NotFound, NotYourTurn, StalePly, StaleRevision, StorageFailed, TooBusy, Unauthorized, Unavailable)
from .i18n import format_message
from .push import Hub
from .botjobs import FALLBACK_SPEC, BotJob, BotJobs, InfoStateError, make_job
from .storage import TURNS_VERSION, Store

log = logging.getLogger("abstracta.server.bots")


#: Longest echo of client input inside an error message.
ECHO_LIMIT = 100
#: Longest time control accepted, in seconds (a live clock's start, a turn's deadline).
CLOCK_LIMIT = 30 * 86400
#: Most remembered ``State.reveals`` answers (all matches together).
REVEAL_CACHE_LIMIT = 100_000
#: Most tokens one request may present (a browser lists its matches with all it holds).
TOKEN_LIMIT = 200
#: Limits on the strings of an imported record.
TAG_KEY_LIMIT, TAG_VALUE_LIMIT, TAG_COUNT_LIMIT = 64, 1000, 100
MOVE_TEXT_LIMIT = 1000
#: Analyses one asker may run at once (the analysis board; rate limits in general are elsewhere):
#: a browser, by the seat tokens or the session it sends, else an address that sends neither.
ANALYSIS_PER_CLIENT = 2
#: Analyses one client address may run at once, all its askers together: a club plays from
#: behind one router, so one address is a whole room (two for all of it made its people wait
#: for each other); a client inventing sessions gets no more than this.
ANALYSIS_PER_ADDRESS = 8
#: Longest wait for one analysis answer, in seconds.
ANALYSIS_TIMEOUT = 120.0
#: Seconds between two looks of a waiting analysis at whether its asker has gone.
ANALYSIS_GONE_POLL = 0.05
#: Seconds before a computer's move or a fallen flag the database refused is stored again
STORE_RETRY_SECONDS = 5.0
#: The evaluation graph: at most this many points (turn starts), each searched with this share
#: of the game's analysis budget.
GRAPH_POINTS, GRAPH_SHARE = 120, 0.02
#: Most plies one answer of GET …/positions replays (a page): a whole long game was one answer
#: (1,666 plies of Fibonacci: 26 MB, 1.1-1.3 s of CPU each time).
REPLAY_PAGE = 100
#: Bytes of encoded replay pages kept, all matches and viewers together (least recently used
#: dropped first).
REPLAY_CACHE_BYTES = 64_000_000
#: matches kept in memory, the least recently used dropped (read back from the store when next
#: used): a match is 20-110 kB at its start, and creating matches at the rate a club may (300
#: an hour per address) grew the web process by up to 33 MB an hour for ever
CACHE_MATCHES = 1000


def clip(value: Any, limit: int = ECHO_LIMIT) -> str:
    """``repr(value)`` cut to ``limit`` characters (error messages echo client input)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def cut(text: str, limit: int = 300) -> str:
    """``text`` cut to ``limit`` characters (messages that may contain client input)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def check_seed(seed: Any, field_name: str = "seed") -> None:
    """Raise InvalidRequest unless ``seed`` is None or a seed (:func:`abstracta.core.options.seed_problem`)."""
    problem = None if seed is None else seed_problem(seed)
    if problem:
        raise InvalidRequest(f"{field_name}: {problem}")


def message(key: str, **params: Any) -> dict[str, Any]:
    """A refusal in words the browser translates (a domain error's ``i18n=``, the body's ``i18n``): a key of the
    shell's catalog (``web/i18n``) and its parameters; ``error`` stays the English text."""
    return {"key": key, "params": params}


def english(said: dict[str, Any]) -> str:
    """A :func:`message` in the English of the shell's catalog, its one source where the server
    has no words of its own to say more."""
    return format_message(said, shell_english())


def refusal(exc: Exception, text: str) -> dict[str, Any]:
    """The engine's refusal of the move ``text`` in words the browser translates: its own message
    (the reason a move is not legal, in the game's catalogs) where it gives one and its English
    says it all, else "``text`` is not a legal move here"."""
    said = getattr(exc, "i18n", None)
    return said if said and str(exc) and len(str(exc)) <= 300 else message("error.illegal", move=clip(text))


def digest(secret: str) -> str:
    """SHA-256 (hex) of a token or invitation code: what the store keeps instead of it."""
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


def new_secret() -> str:
    """A fresh token or invitation code: 128 random bits, URL-safe text (22 characters)."""
    return secrets.token_urlsafe(16)


class PageCache:
    """Encoded answers (bytes) kept up to ``budget`` bytes in all, the least recently used
    dropped first; one larger than the whole budget is not kept. Thread-safe (routes run in
    worker threads)."""

    def __init__(self, budget: int):
        self.budget, self.size = budget, 0
        self._items: OrderedDict[Any, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Any) -> bytes | None:
        with self._lock:
            data = self._items.get(key)
            if data is not None:
                self._items.move_to_end(key)
            return data

    def put(self, key: Any, data: bytes) -> None:
        if len(data) > self.budget:
            return
        with self._lock:
            old = self._items.pop(key, None)
            self.size += len(data) - (len(old) if old is not None else 0)
            self._items[key] = data
            while self.size > self.budget:
                _, dropped = self._items.popitem(last=False)
                self.size -= len(dropped)


def replay_range(last_ply: int, start: Any, stop: Any) -> tuple[int, int]:
    """The plies ``start``…``stop`` (both included) of a game at ``last_ply``, at most
    :data:`REPLAY_PAGE` of them: ``start`` defaults to 0, ``stop`` to the end of the page
    (or the last ply). InvalidRequest for a range outside the game or longer than a page."""
    first = 0 if start is None else start
    for name, value in (("from", start), ("to", stop)):
        if value is not None and value > last_ply:
            raise InvalidRequest(f"{name}: {value} is past the last ply ({last_ply})")
    last = min(first + REPLAY_PAGE - 1, last_ply) if stop is None else stop
    if last < first:
        raise InvalidRequest(f"to: {last} is before from ({first})")
    if last - first + 1 > REPLAY_PAGE:
        raise InvalidRequest(f"at most {REPLAY_PAGE} plies per answer ({first}…{last} is {last - first + 1}); "
                             "ask for the others with from and to")
    return first, last


#: The turns of its own a seat plays, after its draw offer was declined, withdrawn or lapsed,
#: before it may offer one again (README "Draw offers"). lichess waits 20 plies, ten of one's own
#: chess moves, about a quarter of a game; the games here are shorter and their turns weigh more
#: (a capture chain, a Nibble take), and three turns are enough for the position to have changed
#: while leaving an honest second offer within reach.
DRAW_AGAIN_TURNS = 3


def ended(request: dict[str, Any], how: str, seat: int | None, ply: int) -> dict[str, Any]:
    """How a takeback request or draw offer ``request`` ended (``Live.draw_ended``), with the
    seats that had accepted it: a decline is told to them as well as to the seat that made it."""
    return {"by": request["by"], "how": how, "seat": seat, "at_ply": ply, "accepted": list(request["accepted"])}


def ended_by_answer(request: dict[str, Any], held: set[int], needed: Iterable[int], ply: int) -> dict[str, Any]:
    """A no to ``request`` by the seats ``held``: declined by one whose answer was ``needed``,
    else withdrawn by the seat that made it."""
    answering = sorted(set(held) & set(needed))
    if answering:
        return ended(request, "declined", answering[0], ply)
    return ended(request, "withdrawn", request["by"], ply)


@dataclass
class Live:
    """What a match has besides its record, stored as JSON beside it (``match_live``).

    Attributes:
        clock: the time control, ``None`` (no clock), ``{"initial": s, "increment": s}`` (a
            live clock: seconds per seat, seconds added after each of its turns) or
            ``{"per_turn": s}`` (correspondence: each turn within ``s`` seconds).
        remaining: seconds left per seat when ``running`` started (live clock), else None.
        running: the seat whose time runs, None while no person's time runs (the clock waits
            for every person seat to be claimed, and does not run for computer seats).
        since: when ``running`` started (Unix seconds, server time).
        takeback: a pending takeback request, ``{"by": seat, "to_ply": ply, "at_ply": ply,
            "accepted": [seats]}``, or None.
        out: seats out of a 3–4 player game on time (their moves are the computer's since).
        draw: a pending draw offer, ``{"by": seat, "at_ply": ply, "accepted": [seats]}``, or None.
        draw_ended, takeback_ended: how the last draw offer or takeback request that did not
            end the game ended, kept until the position changes or another is made (the browser's
            note): ``{"by": the seat that made it, "how", "seat", "at_ply": the ply it ended
            at, "accepted": the seats that had accepted it}``, ``how`` ``declined`` (``seat``
            answered no), ``withdrawn`` (by ``seat``, the one that made it; a takeback's asker
            playing on withdraws it too), ``lapsed`` (``seat`` moved instead: for a draw a seat
            still to answer, for a takeback any other), ``void`` (who must agree changed: a
            flag, a seat put out; ``seat`` None) or, for a takeback only, ``accepted`` (it
            happened, ``seat`` the last to accept, ``at_ply`` the ply gone back to: a move that
            vanishes from the list is said); or None.
        draw_again: per seat (``"0"``), the ply at which its last offer was declined, withdrawn or
            lapsed: it offers again after :data:`DRAW_AGAIN_TURNS` turns of its own since.
    """

    clock: dict[str, float] | None = None
    remaining: list[float] | None = None
    running: int | None = None
    since: float | None = None
    takeback: dict[str, Any] | None = None
    out: list[int] = field(default_factory=list)
    draw: dict[str, Any] | None = None
    draw_ended: dict[str, Any] | None = None
    takeback_ended: dict[str, Any] | None = None
    draw_again: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps({"clock": self.clock, "remaining": self.remaining, "running": self.running,
                           "since": self.since, "takeback": self.takeback, "out": self.out, "draw": self.draw,
                           "draw_ended": self.draw_ended, "takeback_ended": self.takeback_ended,
                           "draw_again": self.draw_again})

    @classmethod
    def from_json(cls, text: str | None) -> "Live":
        if not text:
            return cls()
        d = json.loads(text)
        return cls(d.get("clock"), d.get("remaining"), d.get("running"), d.get("since"),
                   d.get("takeback"), list(d.get("out") or []), d.get("draw"), d.get("draw_ended"),
                   d.get("takeback_ended"), dict(d.get("draw_again") or {}))

    def copy(self) -> "Live":
        return Live.from_json(self.to_json())

    def left(self, seat: int, now: float) -> float | None:
        """Seconds ``seat`` has left at ``now`` (None without a clock)."""
        if self.clock is None:
            return None
        if "per_turn" in self.clock:
            if self.running != seat or self.since is None:
                return float(self.clock["per_turn"])
            return self.clock["per_turn"] - (now - self.since)
        assert self.remaining is not None
        used = now - self.since if self.running == seat and self.since is not None else 0.0
        return self.remaining[seat] - used


@dataclass
class Match:
    id: str
    game: Game
    initial: State
    state: State
    actions: list[int]
    players: list[str]
    start: str | None = None
    tags: dict[str, str] = field(default_factory=dict)
    result: list[float] | None = None
    termination: str | None = None
    revision: int = 0
    strings: list[str] = field(default_factory=list)  # notation of each action, as played
    tokens: dict[str, int] = field(default_factory=dict)  # SHA-256 of a seat token -> seat
    live: Live = field(default_factory=Live)
    base: int = 0  # actions the stored record holds; the others are move rows
    movers: list[int] | None = None  # the seat that played each action (None: not known yet)
    #: the rules' turn number before each action (State.turn_number), kept with ``movers``
    own_turns: list[int | None] | None = None
    #: ``(turns, ply, state, actions)``: the turns written already (:meth:`turn_texts`) up to the
    #: start of the last one, the state there and the actions up to it (shared by the copies of
    #: later revisions, never changed: a long game is not written out again at every move)
    written: tuple[list[TurnText], int, State, list[int]] | None = None

    def turn_texts(self, movers: Sequence[int], numbers: Sequence[int]) -> list[TurnText]:
        """The turns played as the terminal's replay writes them (:func:`turn_texts`), given
        ``movers`` and their turn ``numbers``; from :attr:`written` on when the actions up to
        there are unchanged (a takeback: from the start)."""
        turns, ply, state, prefix = self.written or ([], 0, self.initial, [])
        if ply > self.ply or self.actions[:ply] != prefix:
            turns, ply, state, prefix = [], 0, self.initial, []
        rest = turn_texts(state, self.actions[ply:], movers[ply:], numbers[ply:], ply=ply)
        if len(rest) > 1:  # the turns before the last are over: written once
            end = rest[-1].first
            state = state.clone()
            for action in self.actions[ply:end]:
                state.apply_action(action)
            self.written = (turns + rest[:-1], end, state, self.actions[:end])
        return turns + rest

    def play(self, action: int) -> None:
        """Apply ``action`` to the state, noting its notation and who played it."""
        if self.movers is not None and self.own_turns is not None:
            self.movers.append(self.state.current_player())
            self.own_turns.append(self.state.turn_number())
        self.strings.append(self.state.action_to_string(action))
        self.state.apply_action(action)
        self.actions.append(action)

    @property
    def persons(self) -> list[int]:
        """The seats played by people (not out on time)."""
        return [i for i, p in enumerate(self.players) if p == "human" and i not in self.live.out]

    @property
    def out_seats(self) -> set[int]:
        """Seats out of a 3–4 player game: out of time, or put out by the rules."""
        return set(self.live.out) | set(seats_out(self.state))

    @property
    def resigned(self) -> int | None:
        """The seat that resigned (None: the game did not end by resignation, or an old record
        does not tell)."""
        if self.termination != "resignation":  # every view asks: no look at the state then
            return None
        return resigned_seat(self.tags, self.result, self.termination, self.out_seats)

    @property
    def out_of_time(self) -> list[int]:
        """The seats that ran out of time, in the order their flags fell."""
        told = OUT_OF_TIME_TAG in self.tags or self.termination != "time"  # the state is not needed then
        return out_of_time_seats(self.tags, len(self.players), self.result, self.termination,
                                 () if told else seats_out(self.state))

    def note_ending(self) -> None:
        """Write the resigning seat and the seats out of time into the tags (the record keeps
        them), for a match stored or recorded before the tags existed: from the live state's
        seats out of time, else as :func:`resigned_seat` and :func:`out_of_time_seats` infer."""
        if self.termination == "resignation" and RESIGNED_TAG not in self.tags and self.resigned is not None:
            self.tags[RESIGNED_TAG] = str(self.resigned)
        if OUT_OF_TIME_TAG not in self.tags:
            seats = list(self.live.out) or self.out_of_time
            if seats:
                self.tags[OUT_OF_TIME_TAG] = ",".join(map(str, seats))

    @property
    def claimed(self) -> set[int]:
        """Seats someone holds a token of."""
        return set(self.tokens.values())

    @property
    def ply(self) -> int:
        return len(self.actions)

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def hides_cards(self) -> bool:
        """Hidden information is still hidden: the game has it and is not over."""
        return bool(self.game.has_hidden_information) and not self.over

    def to_move(self) -> int | None:
        if self.over:
            return None
        player = self.state.current_player()
        return player if player >= 0 else None

    def record(self) -> Record:
        """The match's record (cached per revision and ply)."""
        key = (self.revision, len(self.actions), self.result is None)
        cached = getattr(self, "_record_cache", None)
        if cached is not None and cached[0] == key:
            return cached[1]
        # the move list is the notation as played unless the game declares that it writes
        # whole turns (Game.format_moves then): no replay per revision for the others
        whole = self.game.description.whole_turn_notation
        record = Record.from_play(self.game, self.initial, self.actions, players=self.players,
                                  tags=self.tags, start=self.start, termination=self.termination,
                                  result=self.result, final=self.state,
                                  moves=None if whole else self.strings)
        self._record_cache = (key, record)
        return record

    def out_at(self) -> list[dict[str, int]]:
        """The seats the rules put out, each with the ply that did (:func:`seats_out_since`),
        in that order: ``[{"seat": 0, "ply": 81}]``. Cached per revision and ply; no replay
        while nobody is out."""
        key = (self.revision, len(self.actions))
        cached = getattr(self, "_out_cache", None)
        if cached is None or cached[0] != key:
            since = seats_out_since(self.initial, self.actions, self.state)
            cached = (key, [{"seat": seat, "ply": ply} for seat, ply in sorted(since.items(), key=lambda x: (x[1], x[0]))])
            self._out_cache = cached
        return cached[1]

    def reorder_turn(self, first: int, before: State, turn: list[int]) -> None:
        """Play ``turn`` from ``before`` (the state after ``first`` actions, not changed) in place
        of the actions from ``first`` on: the same turn in another order that ends in the same
        position (:meth:`Game.canonical_turn`), played by the same seat."""
        state = before.clone()
        strings, own = [], []
        for action in turn:
            strings.append(state.action_to_string(action))
            own.append(state.turn_number())
            state.apply_action(action)
        self.actions[first:] = turn
        self.strings[first:] = strings
        if self.own_turns is not None:
            self.own_turns[first:] = own
        self.state = state
        self.__dict__.pop("_record_cache", None)
        self.__dict__.pop("_out_cache", None)

    def state_at(self, ply: int) -> State:
        state = self.initial.clone()
        for action in self.actions[:ply]:
            state.apply_action(action)
        return state


def _stamp() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def ending(record: dict[str, Any]) -> dict[str, Any]:
    """``resigned`` and ``out_of_time`` of a stored record's JSON (the list of matches, which
    replays nothing: a record stored before the tags names a resigner only when one seat lost)."""
    tags = record.get("tags")
    tags = {k: v for k, v in tags.items() if isinstance(v, str)} if isinstance(tags, dict) else {}
    result, termination = record.get("result"), record.get("termination")
    if not isinstance(result, list) or not all(isinstance(r, (int, float)) for r in result):
        result = None
    n = len(result) if result else len(record.get("players") or [])
    return {"resigned": resigned_seat(tags, result, termination),
            "out_of_time": out_of_time_seats(tags, n, result, termination)}


def _flagged(tags: dict[str, str], num_players: int, result: list[float] | None) -> list[int]:
    """The seats out on time of an imported game that goes on (``result`` None): in a 3–4 player
    game they stay out (README "Clocks"). The :data:`OUT_OF_TIME_TAG` and the other ending tags
    follow the domain's rules, which :meth:`Record.replay` checked (two seats still in, a
    two-player game lost on time over, each seat out of time at -1)."""
    if result is not None:
        return []
    return tag_seats(tags.get(OUT_OF_TIME_TAG), num_players) or []


def _check_take(take: Any, players: list[str]) -> list[int]:
    """The person seats the creator takes: ``take`` (a list, or ``"all"``: every person seat),
    or the first person seat by default. A
    match without a person seat gives its creator seat 0's token (to watch it as that seat,
    find it in the list and delete it; a computer seat takes no moves from anyone)."""
    persons = [i for i, p in enumerate(players) if p == "human"]
    if take is None:
        return persons[:1] or [0]
    if take == "all":  # pass and play: one device holds every person seat
        return persons or [0]
    if not isinstance(take, list) or not all(isinstance(t, int) and not isinstance(t, bool) for t in take):
        raise InvalidRequest("field 'take' must be \"all\" or a list of person seat numbers ([0], [0, 1])")
    for t in take:
        if t not in persons:
            raise InvalidRequest(f"take: seat {clip(t)} is not a person seat of this match (person seats: "
                                f"{persons})")
    if len(set(take)) != len(take):
        raise InvalidRequest("take: a seat is listed twice")
    return sorted(take)


def _check_clock(clock: Any) -> dict[str, float] | None:
    """A time control (:class:`Live` ``clock``) from a request, or None."""
    if clock is None:
        return None
    if not isinstance(clock, dict):
        raise InvalidRequest("field 'clock' must be an object: {'initial': s, 'increment': s} or {'per_turn': s}")

    def seconds(key: str, low: float) -> float:
        value = clock[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= CLOCK_LIMIT:
            raise InvalidRequest(f"clock.{key}: {clip(value)} is not a number of seconds in {low:g}…{CLOCK_LIMIT}")
        return float(value)

    keys = set(clock)
    if keys == {"per_turn"}:
        return {"per_turn": seconds("per_turn", 1)}
    if keys in ({"initial"}, {"initial", "increment"}):
        return {"initial": seconds("initial", 1),
                "increment": seconds("increment", 0) if "increment" in clock else 0.0}
    raise InvalidRequest(f"clock: {clip(sorted(keys))} is not a time control; give {{'initial': s, "
                        "'increment': s} (a live clock) or {'per_turn': s} (a deadline per turn)")


def _check_seats(seats: Any, n: int, field_name: str = "seats") -> list[str]:
    if seats is None:
        return ["human"] + ["level:1"] * (n - 1)
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise InvalidRequest(f"{field_name} must be a list of strings ('human' or 'level:1' … 'level:6')")
    if len(seats) != n:
        entries = "entry" if len(seats) == 1 else "entries"
        raise InvalidRequest(f"{field_name} lists {len(seats)} {entries}, the game has {n} players")
    for i, spec in enumerate(seats):
        if not bots.SEAT_SPEC.match(spec.strip()):
            raise InvalidRequest(f"{field_name}: seat {i}: {clip(spec)} is not 'human' or 'level:1' … 'level:6'")
    return [s.strip() for s in seats]


def hint_counts(match: "Match") -> list[int]:
    """Hints asked per seat, from the record's ``Hints`` tag (``"2,0"``; absent: none)."""
    return record_hint_counts(match.tags, len(match.players))


def display_value_for(answer: dict[str, Any], seat: int) -> str:
    """An analysis answer's value for ``seat`` in words (``+0.42``, ``#5``)."""
    from ..ai.analysis import display_value

    mate = answer.get("mate")
    if mate is not None and answer.get("to_move") is not None:
        return display_value(answer["values"][seat], mate if answer["to_move"] == seat else -mate)
    return display_value(answer["values"][seat])


def seat_styles(game: Game) -> list[dict[str, Any]]:
    """Per seat of ``game``: its name in the game (or None) and colours, from the description."""
    return [{"name": str(st.name) if st.name is not None else None, "colour": st.colour, "ink": st.ink,
             "name_key": st.name.key if st.name is not None else None}
            for st in game.description.seats]


def variant_named(game: Game) -> dict[str, str] | None:
    """The declared variant ``game``'s options make, as its heading and its row in a list name it
    ("Fibonacci — Card variant", as lichess says "Chess960"): ``{label, label_key}``; None for the
    variant of the game's defaults (the game itself) and for options no declared variant matches."""
    variant = game.description.variant_of(game.options)
    if variant is None:
        return None
    defaults = {spec.name: spec.default for spec in game.option_specs}
    if all(defaults.get(name) == value for name, value in variant.options.items()):
        return None
    return {"label": str(variant.label), "label_key": variant.label.key}


T = TypeVar("T")


def _retrying(method: Callable[..., T]) -> Callable[..., T]:
    """A method changing the match named by its first argument, run by :meth:`MatchService._change`."""

    @functools.wraps(method)
    def wrapper(self: "MatchService", match_id: Any, *args: Any, **kwargs: Any) -> T:
        return self._change(match_id, lambda: method(self, match_id, *args, **kwargs))

    return wrapper


class MatchService:
    """All matches of one server process. Thread-safe: one lock per match; the service-wide
    dictionaries take a short lock of their own."""

    def __init__(self, store: Store, bot_workers: int | str = 2, hub: Hub | None = None,
                 analysis_scale: float = 1.0):
        self.store = store
        self.analysis_scale = analysis_scale  # × each game's analysis budget (tests: smaller)
        self._analysing: dict[str, int] = {}  # client address -> analyses running
        self._asking: dict[tuple[str, str], int] = {}  # (address, asker) -> analyses running
        self._analyses: dict[int, tuple[threading.Event, list]] = {}  # job id -> (done, answer)
        self.hub = hub or Hub()
        self._guard = threading.Lock()  # cache, locks: held for dictionary operations only
        # a lock lives while it is in use: kept for every id ever named, they grew without bound
        # with requests naming ids of no match (reads are not rate-limited)
        self._locks: weakref.WeakValueDictionary[str, threading.RLock] = weakref.WeakValueDictionary()
        self.cache: OrderedDict[str, Match] = OrderedDict()  # most recently used last
        #: match id -> (revision, actions) of the match the computer is finding a move for
        self.thinking: dict[str, tuple[int, tuple[int, ...]]] = {}
        # match id -> (revision, actions) of the match whose computer's search could not start
        self._unsearchable: dict[str, tuple[int, tuple[int, ...]]] = {}
        #: match id -> (the view's ``bot_error``, the same as a message of the catalogs, the
        #: actions it is about: a computer move played from a fallback, up to that move; a search
        #: that could not start or an answer that could not be played, up to the position it was
        #: for); an undo that removes them drops the error
        self.bot_errors: dict[str, tuple[str, dict[str, Any], tuple[int, ...]]] = {}
        #: matches the start-up could not read (:meth:`resume_bots`): resumed when next read
        self._unresumed: set[str] = set()
        self._reveals: dict[tuple[str, int, int], bool] = {}  # (match, ply index, history hash) -> reveals
        self.pages = PageCache(REPLAY_CACHE_BYTES)  # GET …/positions answers
        self.bot_workers = bot_workers  # --bot-workers: N processes, 0 (a thread), ray[:ADDRESS]
        self._jobs: BotJobs | None = None
        self._applier = cf.ThreadPoolExecutor(1, thread_name_prefix="bot-apply")
        self.closed = False

    # --- locks ------------------------------------------------------------------------------
    def lock_for(self, match_id: str) -> threading.RLock:
        """The lock of one match (created on first use; gone once nobody holds it: keep the
        lock returned while it is used)."""
        with self._guard:
            lock = self._locks.get(match_id)
            if lock is None:
                lock = self._locks[match_id] = threading.RLock()
            return lock

    @contextlib.contextmanager
    def locked(self, match_id: Any) -> Iterator[None]:
        """Hold the lock of ``match_id`` (no lock for what cannot be a match id)."""
        if not isinstance(match_id, str) or len(match_id) > 32:
            yield
            return
        with self.lock_for(match_id):
            yield

    def _change(self, match_id: Any, attempt: Callable[[], T]) -> T:
        """Run ``attempt`` (a change of ``match_id``) under the match's lock; when the store says
        the match moved on meanwhile (another process), reload it and run the change again on
        the fresh match, so a stale cache answers as a fresh one would (never a 500)."""
        for _ in range(5):
            try:
                with self.locked(match_id):
                    return attempt()
            except StaleRevision:
                self.evict(match_id)
        raise Conflict("the match changed too often while this request was answered; send it again")

    def _keep(self, match: Match) -> None:
        """Make ``match`` the cached copy of its id, and the most recently used."""
        with self._guard:
            self.cache[match.id] = match
            self.cache.move_to_end(match.id)
            while len(self.cache) > CACHE_MATCHES:
                self.cache.popitem(last=False)

    def evict(self, match_id: str) -> None:
        """Forget the cached copy of a match (it is reloaded from the store when next used)."""
        with self._guard:
            self.cache.pop(match_id, None)

    def changed_elsewhere(self, match_id: str, revision: int) -> None:
        """Another process stored ``revision`` of ``match_id`` (-1: deleted it): drop a cached
        copy that is older, and tell this process's subscribers. Called on the event loop."""
        with self._guard:
            cached = self.cache.get(match_id)
            if cached is not None:
                if 0 <= revision <= cached.revision:  # this process's own commit, or older news
                    return
                del self.cache[match_id]
        self.hub.publish(match_id)

    def forget_all(self) -> None:
        """Drop every cached match and wake every subscriber: changes by other processes may
        have been missed (the LISTEN connection was lost for a while). Called on the event loop."""
        with self._guard:
            self.cache.clear()
        for match_id in self.hub.subscribed():
            self.hub.publish(match_id)

    # --- lifecycle --------------------------------------------------------------------------
    @property
    def jobs(self) -> BotJobs:
        """The bot job queue (started on first use)."""
        if self._jobs is None:
            with self._guard:
                if self._jobs is None:
                    if self.closed:
                        raise RuntimeError("the match service is closed")
                    self._jobs = BotJobs(self.bot_workers, on_done=self._bot_answered)
        return self._jobs

    def resume_bots(self) -> None:
        """After a start: start the bot workers, then let bots move in every unfinished match
        where a bot is to move."""
        self.jobs  # the lanes and workers start now, not with the first computer move
        for mid in list(self.store.unfinished_ids()):
            try:
                with self.locked(mid):
                    match = self.load(mid)
                    self._resume(match)
            except NotFound:  # deleted meanwhile
                continue
            except (MatchError, CorruptMatch) as exc:
                # most often passing (the database busy, a connection dropped): the match resumes
                # when it is next read, which is when a player or a spectator asks for it; its
                # view says the computer thinks, and it will
                log.warning("match %s could not be read at start-up (%s); it resumes when it is next read",
                            mid, type(exc).__name__)
                with self._guard:
                    self._unresumed.add(mid)

    def _resume(self, match: Match) -> None:
        """Start what runs by itself in ``match`` as it is stored (lock held): its computer's
        search, its clock's timer."""
        self._schedule_bot(match)
        self._arm_clock(match)

    def close(self) -> None:
        """Stop everything this service started: queued bot moves are dropped, worker processes
        (possibly in the middle of a search) are stopped, then killed if they do not stop within
        a second."""
        self.closed = True
        jobs, self._jobs = self._jobs, None
        if jobs is not None:
            jobs.close()
        self._applier.shutdown(wait=False, cancel_futures=True)
        self.hub.detach()
        self.store.dispose()

    # --- loading and saving -------------------------------------------------------------------
    def load(self, match_id: str, fresh: bool = False) -> Match:
        """The match ``match_id``: from memory, or rebuilt from the store (its record, then its
        move rows). NotFound if absent. ``fresh``: when other processes share the database,
        first check the cached copy against the stored revision (one indexed read), so an act
        is judged on the match as it is. Call with the match's lock held."""
        if not isinstance(match_id, str) or len(match_id) > 32:
            raise NotFound(f"no match with id {clip(match_id)}")
        match = self.cache.get(match_id)
        if match is not None:
            if not (fresh and self.store.shared and self.store.revision(match_id) != match.revision):
                with self._guard:
                    if match_id in self.cache:
                        self.cache.move_to_end(match_id)
                return match
            self.evict(match_id)
        stored = self.store.load(match_id)
        if stored is None:
            raise NotFound(f"no match with id {match_id!r}")
        row = stored.row
        try:
            record = Record.from_json(row.record)
            state, actions = record.replay()
            game = record.make_game()
            initial = record.initial_state(game)
            base = len(actions)
            strings = action_strings(initial, actions)
            for ply, text in stored.moves:
                if ply <= base:  # rows the record holds already (a crash between two writes cannot
                    continue     # leave them: both are one transaction; kept for robustness)
                if ply != len(actions) + 1:
                    raise RecordError(f"move row {ply} follows ply {len(actions)}")
                action = state.string_to_action(text)
                strings.append(state.action_to_string(action))
                state.apply_action(action)
                actions.append(action)
        except AbstractaError as exc:
            raise CorruptMatch(f"stored match {match_id} does not replay: {exc}") from None
        match = Match(match_id, game, initial, state, actions, list(record.players),
                      record.start, dict(record.tags), record.result, record.termination,
                      row.revision, strings, dict(stored.tokens), Live.from_json(stored.live), base=base)
        match.note_ending()  # a match stored before the tags: written with its next record
        self._keep(match)
        if match_id in self._unresumed:
            with self._guard:
                self._unresumed.discard(match_id)
            self._resume(match)
        return match

    def _commit(self, old: Match, trial: Match) -> None:
        """Store ``trial`` (the next revision of ``old``) in one transaction: the actions after
        their common prefix as move rows, or the whole record when what it holds besides the
        moves changed (players, result, termination, tags: a hint counted) or a takeback reached
        into it. Raises
        StaleRevision when the stored match is no longer ``old``."""
        keep = 0
        limit = min(old.ply, trial.ply)
        while keep < limit and old.actions[keep] == trial.actions[keep]:
            keep += 1
        header_changed = (trial.players != old.players or trial.result != old.result
                          or trial.termination != old.termination or trial.tags != old.tags)
        record_json = None
        if header_changed or keep < old.base:
            trial.base = trial.ply
            record_json = self._base_record(trial).to_json(indent=None)
        else:
            trial.base = old.base
        live = trial.live.to_json()
        self.store.commit(trial.id, old.revision, status="over" if trial.over else "playing",
                          plies=trial.ply, turns=self._turns_played(trial), keep=keep, to_move=trial.to_move(),
                          add=[(p + 1, trial.strings[p]) for p in range(keep, trial.ply)] if record_json is None else [],
                          record_json=record_json, live=live if live != old.live.to_json() else None,
                          before=old.ply)

    @staticmethod
    def _base_record(match: Match) -> Record:
        """The record the match row holds: every move up to ``match.base``."""
        if match.base == match.ply:
            return match.record()
        return Record.from_play(match.game, match.initial, match.actions[: match.base], players=match.players,
                                tags=match.tags, start=match.start)

    def _replace(self, old: Match, trial: Match, then: Sequence[Callable[[Match], Any]] = ()) -> Match:
        """Persist ``trial`` (revision bumped) and make it the current match; its subscribers
        are told, its clock timer re-armed, then ``then`` run on it (:meth:`_follow`: the change
        stands whatever they do). StaleRevision, StorageFailed: nothing changed."""
        self._store(old, trial)
        self._follow(trial, (self._announce, *then), "after the change was stored (it stands)")
        return trial

    def _store(self, old: Match, trial: Match) -> Match:
        """Persist ``trial`` (revision bumped) and make it the current match, untold.
        StaleRevision, StorageFailed: nothing changed."""
        trial.revision = old.revision + 1
        self._commit(old, trial)
        self._keep(trial)
        return trial

    def _announce(self, match: Match) -> None:
        """Tell the subscribers of ``match`` just stored, and re-arm its clock timer."""
        if not self._mid_computer_turn(match):
            self.hub.publish(match.id)
        self._arm_clock(match)

    def _follow(self, match: Match, steps: Sequence[Callable[[Match], Any]], when: str) -> None:
        """Run ``steps`` on ``match`` just stored (lock held). The change stands whatever they do:
        a failing step (a bug) is logged as a 500 is and the next still runs, and the match is
        announced again :data:`STORE_RETRY_SECONDS` later (:meth:`_announce_again`), since its
        watchers hear of a change only when it is pushed. Raising here would answer a 500 for a
        change that was made, and a client sending it again would be refused."""
        failed = False
        for step in steps:
            try:
                step(match)
            except Exception as exc:  # noqa: BLE001 - a bug: logged; the change stands
                self._log_bug(match.id, exc, when)
                failed = True
        if failed and not self.closed:
            retry = threading.Timer(STORE_RETRY_SECONDS, self._announce_again, (match.id,))
            retry.daemon = True
            retry.start()

    def _announce_again(self, match_id: str) -> None:
        """Push ``match_id`` as it is now and arm its clock timer, once more after that failed.
        A second failure is logged only (a bug would fail for ever): the match's next change,
        or a look at it (a page polling or reloaded, a flag claimed), brings watchers up to date."""
        if self.closed:
            return
        try:
            with self.locked(match_id):
                self._announce(self.load(match_id))
        except (MatchError, CorruptMatch):  # deleted meanwhile, or the store busy: read when next asked
            return
        except Exception as exc:  # noqa: BLE001 - a timer thread has nobody to answer
            self._log_bug(match_id, exc, "when the change was pushed again")

    def _mid_computer_turn(self, match: Match) -> bool:
        """A computer seat played the last action and is to move again (a capture chain, a
        multi-action turn): its turn is pushed once, whole, when it ends. Not when its next
        search could not start: that turn never ends, and the half-played turn is what there
        is to see (with its ``bot_error``)."""
        mover = match.to_move()
        if mover is None or not match.actions or not bots.is_bot(match.players[mover]):
            return False
        return (self._movers_cached(match)[-1] == mover
                and not self._same_moves(self._unsearchable.get(match.id), match))

    def _arm_clock(self, match: Match) -> None:
        """A timer that applies the running clock's flag when it falls (none: no clock runs)."""
        live = match.live
        if live.clock is None:
            return
        if live.running is None or match.over:
            self.hub.set_timer(match.id, None, self._flag_due)
            return
        left = live.left(live.running, time.time()) or 0.0
        self.hub.set_timer(match.id, left + 0.02, self._flag_due)

    def _flag_due(self, match_id: str) -> None:
        """A clock timer fired: apply the fallen flag (if the match still has it)."""
        if self.closed:
            return
        try:
            self.current(match_id)
        except (NotFound, Conflict):
            pass
        except StorageFailed:  # the flag falls once the database takes it
            self.hub.set_timer(match_id, STORE_RETRY_SECONDS, self._flag_due)

    @_retrying
    def current(self, match_id: str) -> Match:
        """The match ``match_id`` with a fallen flag applied (NotFound if absent)."""
        return self.tick(self.load(match_id))

    @staticmethod
    def _copy(match: Match) -> Match:
        return Match(match.id, match.game, match.initial, match.state.clone(), list(match.actions),
                     list(match.players), match.start, dict(match.tags), match.result,
                     match.termination, match.revision, list(match.strings), dict(match.tokens),
                     match.live.copy(), base=match.base,
                     movers=list(match.movers) if match.movers is not None else None,
                     own_turns=list(match.own_turns) if match.own_turns is not None else None,
                     written=match.written)

    # --- creating ---------------------------------------------------------------------------
    def create(self, game_name: Any, options: Any, seats: Any, take: Any = None,
               clock: Any = None) -> tuple[Match, dict[str, list[dict[str, Any]]]]:
        """A new match, stored: ``(match, grant)`` where ``grant`` holds the secrets only the
        creator receives: ``{"tokens": [{"seat", "token"}], "invites": [{"seat", "code"}]}``
        (a token for each seat of ``take``, default the first person seat; an invitation for
        every other person seat). ``clock``: see :class:`Live`. 404 unknown game, 422 bad
        options, seats, take or clock."""
        if not isinstance(game_name, str):
            raise InvalidRequest("field 'game' must be a game name")
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise InvalidRequest("field 'options' must be an object")
        try:
            specs = {spec.name: spec for spec in game_class(game_name).option_specs}
        except UnknownGameError as exc:
            raise NotFound(cut(str(exc))) from None
        except AbstractaError as exc:  # a plug-in that does not load
            raise InvalidRequest(cut(str(exc))) from None

        def refused(key: str, problem: str) -> InvalidRequest:
            # a known option's message names it and the values it allows, as the rules' own do
            spec = specs.get(key)
            return InvalidRequest(str(spec.refused(problem)) if spec is not None else f"option {clip(key)}: {problem}")

        clean = {}
        for key, value in options.items():
            if len(key) > 64:
                raise InvalidRequest(f"options: {clip(key)} is not an option name")
            if value is None or value == "":
                raise refused(key, "no value given (leave the option out for its default)")
            if isinstance(value, str) and len(value) > 200:
                raise refused(key, f"value too long ({len(value)} characters, at most 200)")
            if isinstance(value, list) and (len(value) > 64 or not all(
                    isinstance(v, (int, str)) and not isinstance(v, bool) for v in value)):
                raise refused(key, f"unsupported value {clip(value)}")
            if isinstance(value, (bool, int, str, list)):
                clean[key] = value
            else:
                raise refused(key, f"unsupported value {clip(value)}")
        try:
            game = load_game(game_name, **clean)
            initial = game.new_initial_state()
        except UnknownGameError as exc:
            raise NotFound(cut(str(exc))) from None
        except AbstractaError as exc:
            raise InvalidRequest(cut(str(exc))) from None
        check_seed(game.options.get("seed"), "option seed")
        players = _check_seats(seats, game.num_players)
        match = Match(secrets.token_hex(8), game, initial, initial.clone(), [], players,
                      tags={"date": _stamp(), "site": "abstracta web"})
        return self._store_new(match, _check_take(take, players), _check_clock(clock))

    def import_record(self, data: Any, seats: Any = None, take: Any = None,
                      clock: Any = None) -> tuple[Match, dict[str, list[dict[str, Any]]]]:
        """A match continuing the record ``data`` (validated by replay), as :meth:`create`."""
        if isinstance(data, dict):  # sizes first: error messages below echo these strings
            if isinstance(data.get("game"), str) and len(data["game"]) > 64:
                raise InvalidRequest(f"record.game: {clip(data['game'])} is not a game name")
            if isinstance(data.get("start"), str) and len(data["start"]) > 10_000:
                raise InvalidRequest("record.start: a position text of more than 10000 characters")
            moves = data.get("moves")
            if isinstance(moves, list):
                for i, move in enumerate(moves, 1):
                    if isinstance(move, str) and len(move) > MOVE_TEXT_LIMIT:
                        raise InvalidRequest(f"record.moves: ply {i} is longer than {MOVE_TEXT_LIMIT} characters",
                                       ply=i)
        try:
            record = Record.from_dict(data)
            game_class(record.game)  # an unknown game is 404 here as everywhere, not a bad record
        except UnknownGameError as exc:
            raise NotFound(cut(str(exc))) from None
        except RecordError as exc:
            raise InvalidRequest(cut(str(exc)), ply=exc.ply,
                           reason=cut(exc.reason) if exc.reason else exc.reason) from None
        try:
            state, actions = record.replay()
            game = record.make_game()
            initial = record.initial_state(game)
        except RecordError as exc:
            raise InvalidRequest(cut(str(exc)), ply=exc.ply,
                           reason=cut(exc.reason) if exc.reason else exc.reason) from None
        except AbstractaError as exc:
            raise InvalidRequest(cut(str(exc))) from None
        check_seed(record.seed, "record.seed")
        if seats is None:
            # the record's players: empty means people at every seat, otherwise one valid seat
            # spec per player
            players = (["human"] * game.num_players if not record.players
                       else _check_seats(record.players, game.num_players, "record.players"))
        else:
            players = _check_seats(seats, game.num_players)
        result, termination = record.result, record.termination
        # what an ending may be (resignation, time, agreement; their tags) is the domain's rule,
        # Record.replay's, checked above; here only what the import makes of it
        if state.is_terminal():
            if termination != "time":
                result, termination = [float(r) for r in state.returns()], "normal"
        elif termination == "normal":
            raise InvalidRequest("record.termination: 'normal', but the game is not over by the rules")
        elif termination not in DECIDED:  # abandoned or none: the game continues here
            result, termination = None, None
        if len(record.tags) > TAG_COUNT_LIMIT:
            raise InvalidRequest(f"record.tags: {len(record.tags)} tags, at most {TAG_COUNT_LIMIT}")
        for key, value in record.tags.items():
            if len(key) > TAG_KEY_LIMIT or len(value) > TAG_VALUE_LIMIT:
                raise InvalidRequest(f"record.tags: tag {clip(key)} is too long (names ≤ {TAG_KEY_LIMIT}, "
                                    f"values ≤ {TAG_VALUE_LIMIT} characters)")
        tags = dict(record.tags)
        tags.setdefault("date", _stamp())
        flagged = _flagged(tags, game.num_players, result)
        for seat in flagged:  # out on time: the computer's moves from now on, as after a flag here
            players[seat] = "level:1"
        match = Match(secrets.token_hex(8), game, initial, state, actions, players, record.start,
                      tags, result, termination, 0, action_strings(initial, actions), base=len(actions))
        match.note_ending()  # a record written before the tags: as far as it tells
        return self._store_new(match, _check_take(take, players), _check_clock(clock), out=flagged)

    def _store_new(self, match: Match, take: list[int], clock: dict[str, float] | None,
                   out: Sequence[int] = ()) -> tuple[Match, dict[str, list[dict[str, Any]]]]:
        match.live = Live(clock=clock, remaining=([clock["initial"]] * len(match.players)
                                                  if clock and "initial" in clock else None), out=list(out))
        tokens = {seat: new_secret() for seat in take}
        codes = {seat: new_secret() for seat in match.persons if seat not in tokens}
        match.tokens = {digest(t): seat for seat, t in tokens.items()}
        self._start_clock(match, time.time())
        match.base = match.ply
        with self.locked(match.id):
            record = match.record()
            self.store.create(match.id, match.game.name, record.to_json(indent=None),
                              "over" if match.over else "playing", match.ply, self._turns_played(match),
                              live=match.live.to_json(), to_move=match.to_move(), tokens=list(match.tokens.items()),
                              invites=[(digest(c), seat) for seat, c in codes.items()])
            self._keep(match)
            # the match exists from here: a 500 would have its creator create it again
            self._follow(match, (self._resume,), "after the new match was stored (it stands)")
        grant = {"tokens": [{"seat": seat, "token": t} for seat, t in sorted(tokens.items())],
                 "invites": [{"seat": seat, "code": c} for seat, c in sorted(codes.items())]}
        return match, grant

    # --- seats and tokens -------------------------------------------------------------------
    @staticmethod
    def held(match: Match, tokens: list[str]) -> set[int]:
        """The seats of ``match`` that ``tokens`` hold (constant-time comparison of digests)."""
        seats = set()
        for token in tokens:
            d = digest(token)
            for stored, seat in match.tokens.items():
                if hmac.compare_digest(stored, d):
                    seats.add(seat)
        return seats

    def authorize(self, match: Match, tokens: list[str], seat: int | None = None) -> set[int]:
        """The seats ``tokens`` hold in ``match``, for an act: 401 without any token, 403 when
        none of them is a token of this match, or (``seat`` given) none holds ``seat``."""
        if not tokens:
            raise Unauthorized("this needs the token of a seat of this match (Authorization: Bearer <token>)")
        held = self.held(match, tokens)
        if not held:
            raise Forbidden("no token given is a token of this match")
        if seat is not None and seat not in held:
            raise Forbidden(f"no token given holds seat {seat}")
        return held

    def invitation(self, code: Any) -> tuple[Match, int, bool]:
        """The invitation ``code``: ``(match, seat, claimed)``; 404 if unknown."""
        row = self.store.invite(digest(code)) if isinstance(code, str) and len(code) <= 64 else None
        if row is None:
            raise NotFound("no such invitation")
        with self.locked(row.match_id):
            return self.load(row.match_id), row.seat, row.claimed_at is not None

    def claim(self, code: Any) -> tuple[Match, dict[str, list[dict[str, Any]]]]:
        """Claim the invitation ``code`` (once): ``(match, grant)`` with the seat's token.
        404 unknown, 410 claimed already."""
        match, seat, claimed = self.invitation(code)
        if claimed:
            raise Gone(f"this invitation to seat {seat} was used already")
        token = new_secret()
        with self.locked(match.id):
            got = self.store.claim(digest(code), digest(token))
            if got is None:
                raise Gone(f"this invitation to seat {seat} was used already")
        match = self._seat_taken(match.id, digest(token), seat)
        return match, {"tokens": [{"seat": seat, "token": token}], "invites": []}

    @_retrying
    def _seat_taken(self, match_id: str, token_hash: str, seat: int) -> Match:
        """A new revision after a claimed invitation (the token is stored already): the
        others see the seat taken, and a clock waiting for it starts."""
        match = self.load(match_id, fresh=True)
        trial = self._copy(match)
        trial.tokens[token_hash] = seat
        self._start_clock(trial, time.time())
        return self._replace(match, trial)

    def reinvite(self, match_id: str, tokens: list[str]) -> dict[str, list[dict[str, Any]]]:
        """New invitation codes for the unclaimed person seats (the old ones stop working);
        any seat's token. ``{"tokens": [], "invites": [{"seat", "code"}]}``."""
        with self.locked(match_id):
            match = self.load(match_id, fresh=True)
            self.authorize(match, tokens)
            codes = {seat: new_secret() for seat in match.persons if seat not in match.claimed}
            self.store.replace_invites(match.id, [(digest(c), seat) for seat, c in codes.items()])
        return {"tokens": [], "invites": [{"seat": seat, "code": c} for seat, c in sorted(codes.items())]}

    def mine(self, tokens: list[str], limit: int) -> list[tuple[Any, list[int]]]:
        """The stored rows of the matches ``tokens`` hold a seat of, most recently played
        first, each with the seats held."""
        held = self.store.matches_of([digest(t) for t in tokens[:TOKEN_LIMIT]])
        rows = self.store.rows(list(held), limit)
        for row in rows:
            if row.turns_version is None or row.turns_version < TURNS_VERSION:
                self._recount(row)
        return [(row, sorted(held[row.id])) for row in rows]

    def _recount(self, row: Any) -> None:
        """Count the turns of the stored ``row`` as this version counts them (an earlier one
        counted otherwise: a finished game has no next move to count them again) and store
        them, once. A match that does not load keeps the count it has."""
        try:
            with self.locked(row.id):
                cached = row.id in self.cache
                match = self.load(row.id)
                if match.revision == row.revision:
                    turns, mover = self._turns_played(match), match.to_move()
                    if self.store.recount(row.id, row.revision, turns, mover):
                        row.turns, row.turns_version, row.to_move = turns, TURNS_VERSION, mover
                if not cached:  # listed, not played: no need to keep it in memory
                    self.evict(row.id)
        except (MatchError, CorruptMatch, StorageFailed):
            return

    # --- playing ----------------------------------------------------------------------------
    def tick(self, match: Match) -> Match:
        """``match`` after its clock's flag, if one has fallen (lock held): see :meth:`_flag`."""
        live = match.live
        if live.clock is None or live.running is None or match.over:
            return match
        now = time.time()
        left = live.left(live.running, now)
        if left is None or left > 0:
            return match
        return self._flag(match, live.running, now)

    def _flag(self, match: Match, seat: int, now: float) -> Match:
        """``seat``'s time ran out (README "Clocks"). Two players: it loses and the other wins,
        or a draw where the other could not still win (``State.could_still_win``). Three or
        four: it is out (result −1 whatever happens, its moves the computer's at level 1 from
        now on) and the game goes on; the last seat neither out of time nor eliminated by the
        rules wins."""
        trial = self._copy(match)
        live = trial.live
        if live.remaining is not None:
            live.remaining[seat] = 0.0
        # a seat going out changes who would have to agree, and who answers a takeback (its
        # moves are the computer's): a pending request of either kind is void, no seat's doing
        if live.draw is not None:
            live.draw_ended = ended(live.draw, "void", None, trial.ply)
        if live.takeback is not None:
            live.takeback_ended = ended(live.takeback, "void", None, trial.ply)
        live.running, live.since, live.takeback, live.draw = None, None, None, None
        n = len(trial.players)
        if n == 2:
            other = 1 - seat
            wins = trial.state.could_still_win(other)
            trial.result = [0.0, 0.0] if not wins else [-1.0 if i == seat else 1.0 for i in range(2)]
            trial.termination = "time"
            trial.tags[OUT_OF_TIME_TAG] = str(seat)  # a draw on time has no loser to tell it
        else:
            live.out.append(seat)
            trial.tags[OUT_OF_TIME_TAG] = ",".join(map(str, live.out))
            trial.players[seat] = "level:1"
            out = trial.out_seats
            alive = [i for i in range(n) if i not in out]
            if len(alive) == 1:
                trial.result = [1.0 if i == alive[0] else -1.0 for i in range(n)]
                trial.termination = "time"
            else:
                self._start_clock(trial, now)
        return self._replace(match, trial, then=(self._cancel_bot_of, self._schedule_bot))

    def _start_clock(self, match: Match, now: float) -> None:
        """Let the clock of the person to move run, once every person seat is claimed (a
        clock waits for the invited players; computer seats have no clock)."""
        live = match.live
        if live.clock is None or live.running is not None or match.over:
            return
        mover = match.to_move()
        persons = match.persons
        if mover in persons and all(p in match.claimed for p in persons):
            live.running, live.since = mover, now

    def _stop_clock(self, match: Match, now: float, increment: bool) -> None:
        """Stop the running clock (its time used is gone), adding the increment if asked."""
        live = match.live
        if live.clock is None or live.running is None:
            return
        seat = live.running
        if live.remaining is not None:
            left = live.left(seat, now) or 0.0
            live.remaining[seat] = left + (live.clock.get("increment", 0.0) if increment else 0.0)
        live.running, live.since = None, None

    def _after_actions(self, old: Match, trial: Match, now: float) -> None:
        """Clock, takeback and draw bookkeeping after actions were added to ``old``, giving
        ``trial``: a turn that passed to another seat (or ended the game) stops its clock with
        the increment and starts the next one; any move cancels a pending takeback request; a
        move by a seat that had still to answer a draw offer declines it (as on lichess: the
        offerer's own moves, and those of seats that accepted, leave it standing), as does a
        move that put a seat out (who must agree changed) or ended the game."""
        live = trial.live
        mover = old.to_move()
        # the notes of requests ended at the old position are said no more
        live.draw_ended = live.takeback_ended = None
        if live.takeback is not None:  # any move cancels it: the asker's own is a withdrawal
            how = "withdrawn" if mover == live.takeback["by"] else "lapsed"
            live.takeback_ended = ended(live.takeback, how, mover, trial.ply)
        live.takeback = None
        offer = live.draw
        if offer is not None:
            if mover in self._draw_waiting(old, offer):
                live.draw_ended = ended(offer, "lapsed", mover, trial.ply)
                live.draw_again[str(offer["by"])] = trial.ply
                live.draw = None
            elif trial.over or trial.out_seats != old.out_seats:
                live.draw_ended = ended(offer, "void", None, trial.ply)
                live.draw = None
        if trial.live.running is not None and (trial.over or trial.to_move() != trial.live.running):
            self._stop_clock(trial, now, increment=True)
        self._start_clock(trial, now)

    def play(self, match_id: str, text: Any, ply: Any, seat: Any = None, tokens: list[str] = (),
             whole: bool = False) -> Match:
        """Apply the person's move ``text`` chosen at ``ply``, for the seat to move, which
        ``tokens`` must hold (401/403). 409 if ``ply`` is not current, the game is over (a
        fallen flag included) or a computer seat is to move.

        ``text`` is one action (or whole-turn string), or a list of them that the same seat
        plays in a row within one turn (e.g. a take and ``end``): all are applied, or none.
        With ``whole``, ``text`` is one whole turn in the game's whole-turn notation, as the
        view's ``turns`` lists it (:meth:`_parse_whole_turn`)."""
        field = "turn" if whole else "action"
        texts = text if isinstance(text, list) and not whole else [text]
        if not texts or len(texts) > 64:
            raise InvalidRequest("field 'actions' must list 1 to 64 moves")
        for item in texts:
            if not isinstance(item, str) or not item.strip() or len(item) > MOVE_TEXT_LIMIT:
                raise InvalidRequest(f"field '{field}' must be a non-empty move in the game's notation "
                                    f"(at most {MOVE_TEXT_LIMIT} characters)")
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise InvalidRequest(f"field 'seat' must be an integer seat, got {clip(seat)}")
        if isinstance(ply, bool) or not isinstance(ply, int):
            raise InvalidRequest("field 'ply' must be the integer ply the move was chosen at")

        def attempt() -> Match:
            match = self.tick(self.load(match_id, fresh=True))
            if seat is not None and not 0 <= seat < len(match.players):
                raise InvalidRequest(f"seat {seat} does not exist in this game (0…{len(match.players) - 1})")
            held = self.authorize(match, tokens, seat)
            if match.over:
                raise Conflict("the game is over", i18n=message("error.game_over"))
            if ply != match.ply:
                raise StalePly(f"stale move: it was chosen at ply {ply}, the game is at ply {match.ply}",
                               i18n=message("error.stale", ply=ply, now=match.ply), ply=match.ply)
            mover = match.to_move()
            if mover is None:
                raise Conflict("nobody is to move", i18n=message("error.nobody_to_move"))
            if match.players[mover] != "human":
                raise NotYourTurn(f"seat {mover} is played by the computer ({match.players[mover]})",
                                  i18n=message("error.computer_turn", seat=mover, players=match.players[mover]))
            if seat is not None and seat != mover:
                raise NotYourTurn(f"it is seat {mover}'s turn, not seat {seat}'s",
                                  i18n=message("error.not_your_turn", mover=mover, seat=seat))
            if mover not in held:
                raise Forbidden(f"it is seat {mover}'s turn and no token given holds seat {mover}",
                                i18n=message("error.not_your_seat", mover=mover))
            trial = self._copy(match)
            if whole:
                for action in self._parse_whole_turn(trial, texts[0].strip(), mover):
                    trial.play(action)
            for index, item in enumerate(() if whole else texts):
                if index and trial.state.current_player() != mover:
                    raise InvalidRequest(f"{clip(item)}: the turn was over after {clip(texts[index - 1])}")
                for action in self._parse(trial, item.strip()):
                    trial.play(action)
            self._finish_if_over(trial)
            self._after_actions(match, trial, time.time())
            return self._replace(match, trial, then=(self._schedule_bot,))

        return self._change(match_id, attempt)

    @staticmethod
    def _parse(match: Match, text: str) -> list[int]:
        """The actions ``text`` stands for: one action's notation, or a whole-turn string
        (``Game.parse_move``). Raises IllegalMove naming the problem; any other exception
        from the engine is a bug (the request fails with 500, the match is unchanged)."""
        state = match.state
        try:
            return [state.string_to_action(text)]
        except AbstractaError as exc:
            first: Exception = exc
        if not match.game.description.whole_turn_notation:
            raise IllegalMove(cut(str(first)) if str(first) else f"{clip(text)} is not a legal move here",
                              i18n=refusal(first, text))
        try:
            actions = list(match.game.parse_move(state, text))
            check = state.clone()
            for action in actions:
                check.apply_action(action)
        except AbstractaError as exc:
            said = exc if str(exc) else first
            raise IllegalMove(cut(str(said)), i18n=refusal(said, text)) from None
        if not actions:
            raise IllegalMove(f"{clip(text)} names no action")
        return actions

    @staticmethod
    def _parse_whole_turn(match: Match, text: str, mover: int) -> list[int]:
        """The actions of the whole turn ``text`` (the view's ``turns`` notation) for ``mover``.

        Read with ``Game.parse_turn``, as the terminal reads a typed move: ``parse_move`` reads
        a one-cell entry (Nibble's ``i9``) as the single engine action and may leave the turn
        open, while the view lists it as the whole turn "take i9, then end". Only at a turn
        boundary (where ``Game.turn_strings`` lists turns; 409 in the middle of a turn) and only
        in a game with a whole-turn notation (422 otherwise); the actions must end ``mover``'s
        turn (or the game), else 422."""
        game, state = match.game, match.state
        if not game.description.whole_turn_notation:
            raise InvalidRequest(f"{game.name} has no whole-turn notation: send the move as 'action' "
                                 "(one action) or 'actions' (the actions of the turn in a row)")
        try:
            game.turn_strings(state)
        except AbstractaError:
            raise Conflict(f"seat {mover}'s turn is under way (its first actions are played): 'turn' "
                           "plays a whole turn from its start; play on with 'action' or 'actions' "
                           "(the view's 'legal')") from None
        try:
            actions = list(game.parse_turn(state, text))
            check = state.clone()
            for action in actions:
                check.apply_action(action)
        except AbstractaError as exc:
            # the engine's reason alone: the browser shows it to the player who typed the move,
            # who has no "view" (the API reference says where the legal turns are listed)
            raise IllegalMove(cut(str(exc)) or f"{clip(text)} is not a legal move here",
                              i18n=refusal(exc, text)) from None
        if not actions or not (check.is_terminal() or check.current_player() != mover):
            raise IllegalMove(f"{clip(text)} is not a whole turn", i18n=message("error.illegal", move=clip(text)))
        return actions

    @staticmethod
    def _finish_if_over(match: Match) -> None:
        """Set the result when the rules ended the game; seats out on time lose whatever the
        rules say (termination ``time`` when that changes the rules' result). A 3-4 player game
        with seats out on time also ends when a move leaves one seat neither out of time nor
        without pieces (it wins, as when a flag leaves it alone: :meth:`_flag`), or none: the
        rules know nothing of the clock and would have it play on against the computer moves of
        the seats out."""
        if match.state.is_terminal():
            result = [float(r) for r in match.state.returns()]
            forced = [-1.0 if i in match.live.out else r for i, r in enumerate(result)]
            match.result = forced
            match.termination = "time" if forced != result else "normal"
        elif match.live.out and len(match.players) > 2:
            alive = [i for i in range(len(match.players)) if i not in match.out_seats]
            if len(alive) <= 1:
                match.result = [1.0 if i in alive else -1.0 for i in range(len(match.players))]
                match.termination = "time"

    def _reveal_flags(self, match: Match, start: int) -> list[tuple[int, str]]:
        """``(ply, notation)`` of each action from ply ``start`` on that revealed something
        (``State.reveals``): no undo may cross one. Cached per match and history prefix."""
        out = []
        state = match.state_at(start)
        for i in range(start, match.ply):
            action = match.actions[i]
            key = (match.id, i, hash(tuple(match.actions[: i + 1])))
            flag = self._reveals.get(key)
            if flag is None:
                try:
                    flag = bool(state.reveals(action))
                except (AbstractaError, NotImplementedError):  # a game that cannot tell: never cross it
                    flag = True
                if len(self._reveals) > REVEAL_CACHE_LIMIT:  # a bound, not an LRU: recomputing is cheap
                    self._reveals.clear()
                self._reveals[key] = flag
            if flag:
                out.append((i + 1, match.strings[i]))
            state.apply_action(action)
        return out

    def _undo_target(self, match: Match, seats: set[int]) -> int:
        """The ply to go back to: the start of the latest turn of one of ``seats`` (a turn in
        progress included). 409 if there is none, or if an action since then revealed hidden
        information or a chance outcome (undo would show it twice)."""
        movers = self._movers(match)
        target = None
        for p in range(match.ply - 1, -1, -1):
            if movers[p] in seats and (p == 0 or movers[p - 1] != movers[p]):
                target = p
                break
        if target is None:
            raise Conflict("there is no earlier turn of yours to take back to", i18n=message("error.no_takeback"))
        barrier = self._reveal_flags(match, target)
        if barrier:
            ply, text = barrier[-1]
            raise Conflict(f"ply {ply} ({text}) showed hidden information or a chance outcome; "
                                "no undo goes back past it")
        return target

    def _take_back(self, match: Match, target: int, note: dict[str, Any] | None = None) -> Match:
        """Go back to ply ``target`` (lock held): stored, the clock restarted for the seat to
        move (time used stays used), a pending takeback request cleared (``note``: the
        ``takeback_ended`` of one the others accepted), bots scheduled."""
        trial = self._copy(match)
        now = time.time()
        self._stop_clock(trial, now, increment=False)
        trial.actions = trial.actions[:target]
        trial.strings = trial.strings[:target]
        trial.movers = trial.movers[:target] if trial.movers is not None else None
        trial.own_turns = trial.own_turns[:target] if trial.own_turns is not None else None
        trial.state = match.state_at(target)
        trial.result = None
        trial.termination = None
        trial.live.takeback = None
        trial.live.draw = None  # offered for a position that is gone
        trial.live.draw_ended, trial.live.takeback_ended = None, note
        # a wait counts from a ply that is gone: from the position gone back to
        trial.live.draw_again = {k: min(v, target) for k, v in trial.live.draw_again.items()}
        self._finish_if_over(trial)
        self._start_clock(trial, now)
        return self._replace(match, trial, then=(self._cancel_bot_of, self._drop_bot_error_taken_back,
                                                 self._schedule_bot))

    def _drop_bot_error_taken_back(self, match: Match) -> None:
        if self._bot_error(match) is None:  # the computer's move it was about is taken back
            self._forget_bot_error(match.id)

    def _check_undoable(self, match: Match) -> None:
        if match.termination in DECIDED:
            how = {"resignation": "resigned", "time": "lost on time", "agreement": "drawn by agreement"}[match.termination]
            raise Conflict(f"the game was {how}; it cannot be taken back")
        if not match.persons:
            raise Conflict("no seat is played by a person here")
        if match.over:
            raise Conflict("the game is over; moves of a finished game cannot be taken back")

    def undo(self, match_id: str, tokens: list[str] = ()) -> Match:
        """Take back at once to the start of the latest turn of a seat ``tokens`` hold, when
        they hold every person seat (against the computer, pass and play); with other people
        at the match it is 409: ask them (:meth:`request_takeback`). Never past an action that
        revealed something (409)."""

        def attempt() -> Match:
            match = self.tick(self.load(match_id, fresh=True))
            held = self.authorize(match, tokens)
            self._check_undoable(match)
            others = [p for p in match.persons if p not in held]
            if others:
                raise Conflict(f"seat{'s' if len(others) > 1 else ''} {', '.join(map(str, others))} "
                                    "also played by people: ask for a takeback (POST …/takeback)")
            return self._take_back(match, self._undo_target(match, held & set(match.persons)))

        return self._change(match_id, attempt)

    def request_takeback(self, match_id: str, tokens: list[str] = ()) -> Match:
        """Ask the other people at the match to take back to the start of the requester's
        latest turn (done at once when nobody else needs to agree). 409 if one is pending, or
        the takeback is impossible (see :meth:`undo`). Any move cancels the request."""

        def attempt() -> Match:
            match = self.tick(self.load(match_id, fresh=True))
            held = self.authorize(match, tokens)
            self._check_undoable(match)
            mine = held & set(match.persons)
            target = self._undo_target(match, mine)
            if all(p in held for p in match.persons):
                return self._take_back(match, target)
            if match.live.takeback is not None:
                raise Conflict(f"seat {match.live.takeback['by']} already asked for a takeback")
            trial = self._copy(match)
            trial.live.takeback = {"by": min(mine), "to_ply": target, "at_ply": match.ply, "accepted": []}
            trial.live.takeback_ended = None
            return self._replace(match, trial)

        return self._change(match_id, attempt)

    def answer_takeback(self, match_id: str, accept: Any, tokens: list[str] = ()) -> Match:
        """Accept or decline the pending takeback for the seats ``tokens`` hold; it happens
        once every other person seat accepted, any decline drops it, and the asking seat may
        withdraw it (decline). 409 when none is pending, 403 for the asker accepting."""
        if not isinstance(accept, bool):
            raise InvalidRequest("field 'accept' must be true or false")

        def attempt() -> Match:
            match = self.tick(self.load(match_id, fresh=True))
            held = self.authorize(match, tokens)
            pending = match.live.takeback
            if pending is None or match.over:
                raise Conflict("no takeback request is pending")
            needed = [p for p in match.persons if p != pending["by"]]
            # a seat out of time (the computer's) is told so, not that it asked
            refused = (Forbidden("the other players answer a takeback request, not the seat that asked",
                                 i18n=message("error.takeback_not_yours")) if pending["by"] in held
                       else Forbidden("a seat the computer plays (one out of time) does not answer a takeback request",
                                      i18n=message("error.takeback_out")))
            accepted = self._answer(pending, held, accept, needed, refused)
            trial = self._copy(match)
            if accepted is None:
                trial.live.takeback = None
                trial.live.takeback_ended = ended_by_answer(pending, held, needed, match.ply)
                return self._replace(match, trial)
            if all(p in accepted for p in needed):
                target = self._undo_target(match, {pending["by"]})
                last = min(p for p in held if p in needed)
                note = ended({**pending, "accepted": accepted}, "accepted", last, target)
                return self._take_back(match, target, note)
            trial.live.takeback = {**pending, "accepted": accepted}
            return self._replace(match, trial)

        return self._change(match_id, attempt)

    @staticmethod
    def _answer(pending: dict[str, Any], held: set[int], accept: bool, needed: Iterable[int],
                refused: MatchError) -> list[int] | None:
        """The seats that have accepted the request ``pending`` (a takeback or a draw offer,
        ``{"by", "accepted", …}``) once the seats ``held`` answered ``accept``: each of them
        whose answer is ``needed`` agrees; None when the request is dropped (declined, or
        withdrawn by the seat that made it). Raises ``refused`` for tokens with nothing to
        answer (the asker accepting its own request, a seat whose answer is not asked)."""
        answering = {p for p in held if p in set(needed)}
        if not answering and not (pending["by"] in held and not accept):
            raise refused
        if not accept:
            return None
        return sorted(set(pending["accepted"]) | answering)

    # --- draw offers (README "Draw offers") ---------------------------------------------------
    @staticmethod
    def _draw_seats(match: Match) -> list[int]:
        """The seats whose agreement a draw needs (:func:`~abstracta.core.game.draw_seats`): not
        those out by the rules or on time."""
        return draw_seats(len(match.players), match.out_seats)

    def _draw_waiting(self, match: Match, offer: dict[str, Any]) -> list[int]:
        """The seats still to accept the draw ``offer``."""
        return [i for i in self._draw_seats(match) if i != offer["by"] and i not in offer["accepted"]]

    def _draw_refusal(self, match: Match, held: set[int]) -> tuple[set[int], MatchError | None]:
        """``(seats, why not)``: the seats still in that ``held`` would offer a draw for, and the
        refusal of an offer by them now (None: they may offer). The computer never agrees to a
        draw (as lichess's computer opponents do not), so no draw is offered where one still in
        would have to."""
        if match.over:
            return set(), Conflict("the game is over", i18n=message("error.game_over"))
        seats = self._draw_seats(match)
        mine = {i for i in held if i in seats and match.players[i] == "human"}
        if not mine:
            return mine, Forbidden("only a person's seat still in the game offers or answers a draw",
                                   i18n=message("error.draw_out"))
        computer = [i for i in seats if i not in mine and match.players[i] != "human"]
        if computer:
            return mine, Conflict(f"seat {computer[0]} is played by the computer, which does not agree to draws",
                                  i18n=message("error.draw_computer", seat=computer[0]))
        wait = self._draw_again_in(match, min(mine))
        if wait:
            said = message("error.draw_again", n=wait)
            return mine, Conflict(english(said), i18n=said)
        return mine, None

    def _draw_again_in(self, match: Match, seat: int) -> int:
        """The turns of its own ``seat`` still plays before it may offer a draw again, after its
        last offer was declined, withdrawn or lapsed (0: none). Counted in its own turns, not in
        plies: with 3–4 players or turns of many actions (a capture chain, a Nibble take) plies
        say nothing of how much the position has changed for it."""
        since = match.live.draw_again.get(str(seat))
        if since is None or match.over:
            return 0
        movers = self._movers_cached(match)
        now = match.to_move()
        done = sum(1 for q in range(since, match.ply)
                   if movers[q] == seat and (movers[q + 1] != seat if q + 1 < match.ply else now != seat))
        return max(0, DRAW_AGAIN_TURNS - done)

    def offer_draw(self, match_id: str, tokens: list[str] = ()) -> Match:
        """Offer the other seats still in a draw, for the seats ``tokens`` hold; drawn at once when
        nobody else must agree (they hold every such seat), and an offer made while another
        seat's offer waits for these seats' answer accepts it. Returns the match as stored, the
        offer in ``live.draw``. 409 (Conflict) when the game is over, an offer is pending, the
        computer would have to agree, or these seats' last offer ended fewer than
        :data:`DRAW_AGAIN_TURNS` turns of their own ago (``error.draw_again``); 403 (Forbidden)
        for tokens that hold no person's seat still in."""

        def attempt() -> Match:
            match = self.tick(self.load(match_id, fresh=True))
            held = self.authorize(match, tokens)
            pending = match.live.draw
            if pending is not None and not match.over and set(self._draw_waiting(match, pending)) & held:
                return self._answer_draw(match, held, True)
            mine, refused = self._draw_refusal(match, held)
            if refused is not None:
                raise refused
            if pending is not None:
                raise Conflict(f"seat {pending['by']} offered a draw already",
                               i18n=message("error.draw_pending", seat=pending["by"]))
            by = min(mine)
            offer = {"by": by, "at_ply": match.ply, "accepted": sorted(mine - {by})}
            if not self._draw_waiting(match, offer):
                return self._draw(match, by)
            trial = self._copy(match)
            trial.live.draw = offer
            trial.live.draw_ended = None
            return self._replace(match, trial)

        return self._change(match_id, attempt)

    def answer_draw(self, match_id: str, accept: Any, tokens: list[str] = ()) -> Match:
        """Accept or decline the pending draw offer for the seats ``tokens`` hold; drawn once
        every other seat still in accepted, any decline drops it, and the offering seat may
        withdraw it (decline). Returns the match as stored. InvalidRequest (422) for an ``accept``
        that is not a bool; 409 (Conflict) when none is pending or the game is over; 403
        (Forbidden) for the offerer accepting or a seat whose answer is not asked."""
        if not isinstance(accept, bool):
            raise InvalidRequest("field 'accept' must be true or false")

        def attempt() -> Match:
            match = self.tick(self.load(match_id, fresh=True))
            held = self.authorize(match, tokens)
            if match.over:
                raise Conflict("the game is over", i18n=message("error.game_over"))
            if match.live.draw is None:
                raise Conflict("no draw offer is pending", i18n=message("error.no_draw_offer"))
            return self._answer_draw(match, held, accept)

        return self._change(match_id, attempt)

    def _answer_draw(self, match: Match, held: set[int], accept: bool) -> Match:
        offer = match.live.draw
        assert offer is not None
        needed = [i for i in self._draw_seats(match) if i != offer["by"]]
        # 403 as for a takeback's asker accepting its own request: no later state of the game
        # lets these seats answer (409 says "not now"); the words say which seat is refused
        refused = (Forbidden("the other players answer a draw offer, not the seat that offered it",
                             i18n=message("error.draw_not_yours")) if offer["by"] in held
                   else Forbidden("only a person's seat still in the game offers or answers a draw",
                                  i18n=message("error.draw_out")))
        accepted = self._answer(offer, held, accept, needed, refused)
        trial = self._copy(match)
        if accepted is None:
            trial.live.draw = None
            trial.live.draw_ended = ended_by_answer(offer, held, needed, match.ply)
            trial.live.draw_again[str(offer["by"])] = match.ply
            return self._replace(match, trial)
        if all(i in accepted for i in needed):
            return self._draw(match, offer["by"])
        trial.live.draw = {**offer, "accepted": accepted}
        return self._replace(match, trial)

    def _draw(self, match: Match, by: int) -> Match:
        """End ``match`` drawn by agreement (lock held): 0 for each seat still in, the seats out
        keep their loss; the record's termination ``agreement`` and :data:`DRAW_OFFERED_TAG`
        naming the seat that offered it."""
        trial = self._copy(match)
        self._stop_clock(trial, time.time(), increment=False)
        trial.result = agreed_draw_returns(len(match.players), match.out_seats)
        trial.termination = "agreement"
        trial.tags[DRAW_OFFERED_TAG] = str(by)
        trial.live.draw = None
        trial.live.takeback = None
        return self._replace(match, trial, then=(self._cancel_bot_of,))

    def claim_flag(self, match_id: str, tokens: list[str] = ()) -> Match:
        """Any seat's token: apply a fallen flag now (the server also does it by itself when
        it falls: a claim a moment later finds it applied, and answers with the match as
        well). 409 if no flag has fallen."""

        def attempt() -> Match:
            match = self.load(match_id, fresh=True)
            self.authorize(match, tokens)
            before = match.revision
            match = self.tick(match)
            if match.termination == "time":
                return match
            if match.revision == before:
                live = match.live
                if live.clock is None:
                    raise Conflict("this match has no clock")
                if live.running is None:
                    raise Conflict("no clock is running")
                raise Conflict(f"seat {live.running} has {live.left(live.running, time.time()):.1f} s left")
            return match

        return self._change(match_id, attempt)

    @staticmethod
    def _movers(match: Match) -> list[int]:
        return played_turns(match.initial, match.actions)[0]

    def _turns_played(self, match: Match) -> int:
        """The turns played as the move list lists them (:func:`turns_played`: the turns the
        list numbers, the rules' numbers else a seat's actions in a row, and each seat's entry
        before the rules' first turn, a placement phase); a record's entries are not turns
        (Nibble writes ``i9``, ``end``)."""
        return turns_played(self._movers_cached(match), self._turn_numbers(match))

    def _turn_numbers(self, match: Match) -> list[int]:
        """The number of the turn each action of ``match`` belongs to (:func:`turn_numbers`)."""
        movers = self._movers_cached(match)
        assert match.own_turns is not None
        return turn_numbers(movers, match.own_turns)

    def _movers_cached(self, match: Match) -> list[int]:
        """``match.movers`` (and ``own_turns``), replayed once if not known (then kept up by
        :meth:`Match.play`)."""
        if match.movers is None or match.own_turns is None or len(match.movers) != match.ply \
                or len(match.own_turns) != match.ply:
            match.movers, match.own_turns = played_turns(match.initial, match.actions)
        return match.movers

    def resign(self, match_id: str, seat: Any, tokens: list[str] = ()) -> Match:
        """``seat`` (default: the person to move if ``tokens`` hold it, else the one seat they
        hold) resigns; ``tokens`` must hold it (401/403)."""
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise InvalidRequest(f"seat {clip(seat)} does not exist in this game")

        asked = seat

        def attempt() -> Match:
            seat = asked
            match = self.tick(self.load(match_id, fresh=True))
            held = self.authorize(match, tokens)
            if match.over:
                raise Conflict("the game is over", i18n=message("error.game_over"))
            if seat is None:
                mine = sorted(held & set(match.persons))
                mover = match.to_move()
                seat = mover if mover in mine else (mine[0] if len(mine) == 1 else None)
                if seat is None:
                    raise InvalidRequest("field 'seat' is required: which seat resigns")
            if not 0 <= seat < len(match.players):
                raise InvalidRequest(f"seat {clip(seat)} does not exist in this game")
            if match.players[seat] != "human":
                raise Conflict(f"seat {seat} is played by the computer and cannot resign")
            self.authorize(match, tokens, seat)
            if seat in match.out_seats:
                # it lost already; its 'resignation' would end the game for the seats still in
                # (Record.replay refuses such a record: the resigner is a seat still in)
                raise Conflict(f"seat {seat} is already out of the game: it has lost and cannot resign",
                               i18n=message("error.resign_out"))
            trial = self._copy(match)
            self._stop_clock(trial, time.time(), increment=False)
            trial.result = resignation_returns(len(match.players), seat, match.out_seats)
            trial.termination = "resignation"
            # the result does not tell: the seats already out lost as well
            trial.tags[RESIGNED_TAG] = str(seat)
            trial.live.takeback = None
            trial.live.draw = None
            return self._replace(match, trial, then=(self._cancel_bot_of,))

        return self._change(match_id, attempt)

    # --- bots -------------------------------------------------------------------------------
    def _cancel_bot(self, match_id: str) -> None:
        """The computer's move being found for ``match_id`` is no longer wanted (lock held)."""
        self.thinking.pop(match_id, None)
        self._unsearchable.pop(match_id, None)
        if self._jobs is not None:
            self._jobs.cancel(match_id)

    def _cancel_bot_of(self, match: Match) -> None:
        self._cancel_bot(match.id)

    def _schedule_bot(self, match: Match) -> None:
        """If a bot is to move, queue its job (lock held). The job carries the acting seat's
        information state only (:func:`~abstracta.server.botjobs.make_job`)."""
        if self.closed or match.over:
            return
        mover = match.to_move()
        if mover is None or not bots.is_bot(match.players[mover]):
            return
        if self._thinking_on(match):
            return
        spec = match.players[mover]
        try:
            job = make_job(match, spec)
        except InfoStateError as exc:  # a game bug: the seat cannot know its legal actions
            log.error("match %s: %s", match.id, exc)
            self._tell_bot_error(match, str(exc), message("error.bot_no_state", spec=spec))
            self._unsearchable[match.id] = (match.revision, tuple(match.actions))
            self.hub.publish(match.id)  # in the middle of its turn, the change was not pushed
            return
        except Exception as exc:  # noqa: BLE001 - a bug: told as a search that cannot start
            self._search_failed(match, spec, exc)
            return
        self._unsearchable.pop(match.id, None)
        self.thinking[match.id] = (match.revision, tuple(match.actions))
        try:
            self.jobs.submit(job)
        except Exception as exc:  # noqa: BLE001 - thinking with no job would be said for ever
            self.thinking.pop(match.id, None)
            if not self.closed:
                self._search_failed(match, spec, exc)
            return
        if not self._mid_computer_turn(match):
            self.hub.publish(match.id)

    def _search_failed(self, match: Match, spec: str, exc: Exception) -> None:
        """A bug kept the computer's search for ``match`` from being queued (lock held): no job
        runs, so the view must not say it thinks; ``bot_error`` says why, and an undo or a
        takeback lets it try again."""
        self._log_bug(match.id, exc, "while the computer's search was queued")
        if self._jobs is not None:
            self._jobs.cancel(match.id)  # half queued: its answer would come for nobody
        self._unsearchable[match.id] = (match.revision, tuple(match.actions))
        self._tell_bot_error(match, f"{spec}: its search could not start ({type(exc).__name__})",
                             message("error.bot_search_failed", spec=spec, error=type(exc).__name__))
        self.hub.publish(match.id)

    def _tell_bot_error(self, match: Match, text: str, said: dict[str, Any]) -> None:
        """Show ``text`` as the view's ``bot_error`` of ``match`` (lock held), about its actions
        as they are now, and ``said`` (:func:`message`) as its ``bot_error_i18n``: the same in
        words the browser translates, ``text`` being the English that may say more (an
        exception's text, the engine's reason), as a refusal's ``error`` and ``i18n``."""
        self.bot_errors[match.id] = (text, said, tuple(match.actions))

    def _forget_bot_error(self, match_id: str) -> None:
        self.bot_errors.pop(match_id, None)

    def _bot_error(self, match: Match) -> tuple[str, dict[str, Any]] | None:
        """The ``bot_error`` of ``match`` as it is, with its message: none once the actions it was
        about are no longer all played (an undo or takeback removed them, here or in another
        process)."""
        entry = self.bot_errors.get(match.id)
        if entry is None:
            return None
        text, said, at = entry
        return (text, said) if len(at) <= match.ply and tuple(match.actions[:len(at)]) == at else None

    def _shows_thinking(self, match: Match) -> bool:
        """What a view says of the computer: thinking while its search runs here, and also
        whenever a computer seat is to move in a match that goes on, since a search is queued
        for it under the match's lock right after the change that made it so (the change is
        readable a moment before), or by the process that made it. Not for a seat whose search
        could not start (:class:`InfoStateError`, told in ``bot_error``) or once the service
        closes."""
        if self._thinking_on(match):
            return True
        mover = match.to_move()
        return (not self.closed and not match.over and mover is not None
                and bots.is_bot(match.players[mover])
                and not self._same_moves(self._unsearchable.get(match.id), match))

    def _thinking_on(self, match: Match) -> bool:
        """Whether the computer is finding a move for ``match`` as it is: a search started at
        its revision, or at an earlier one with the same moves (a seat claimed, a takeback
        asked for since: a new revision, the same position)."""
        return self._same_moves(self.thinking.get(match.id), match)

    @staticmethod
    def _same_moves(at: tuple[int, tuple[int, ...]] | None, match: Match) -> bool:
        """Whether ``at`` (a revision and its actions) is ``match`` as it is, or an earlier
        revision of it that changed no move (a seat claimed, a takeback asked for): nothing that
        would start a search again."""
        return at is not None and (at[0] == match.revision or at[1] == tuple(match.actions))

    def _bot_answered(self, job: BotJob, text: str | None, note: str | None) -> None:
        """A lane's answer (its thread): applied by the one applier thread, in order; an
        analysis's answer goes to the request waiting for it."""
        if job.analysis is not None:
            self._analysis_answered(job, text, note)
            return
        try:
            self._applier.submit(self._apply_bot, job, text, note)
        except RuntimeError:  # shut down
            pass

    def _apply_bot(self, job: BotJob, text: str | None, note: str | None) -> None:
        """Play the answer of ``job`` if it is still wanted (not cancelled or superseded) and
        its match still has the moves it was found for: the same revision, or a later one that
        changed no move (a seat claimed, a takeback asked for). An answer for moves that are
        gone (taken back, or played on by another process) is dropped, and so is the thinking.
        An answer that is not legal in the real state (or none: even the fallback failed) is
        replaced by a quick search of the seat's information state; only if that fails too
        (an engine bug) is a random legal action played, counted in ``random_fallbacks``. Any
        other failure (a bug) plays nothing, is logged and told in the view's ``bot_error``: the
        computer no longer thinks there, until a change (an undo) starts its search again; one
        after the move was stored (pushing it) is logged only: the move stands. A store that
        cannot read or write for a moment plays the answer again later."""
        # one hold of the lock for the answer and the report of its failure: let go in between,
        # an undo there took the match back to a person's turn, and the report told a bot_error
        # about that position
        with self.locked(job.match_id):
            try:
                self._play_answer(job, text, note)
            except Exception as exc:  # noqa: BLE001 - the applier thread would drop it without a word
                self._answer_failed(job, exc)

    def _answer_failed(self, job: BotJob, exc: Exception) -> None:
        """A bug while ``job``'s answer was played: logged as a 500 is (its type and place, not
        its message, which may quote hidden cards), nothing played, the search given up."""
        self._log_bug(job.match_id, exc, "while the computer's move was played")
        match_id = job.match_id
        with self.locked(match_id):
            wanted = self.thinking.get(match_id)
            if wanted is not None and wanted[0] == job.revision:
                self.thinking.pop(match_id, None)
            try:
                match = self.load(match_id)
            except Exception:  # noqa: BLE001 - gone or unreadable: nothing to show
                return
            mover = match.to_move()
            if (self._thinking_on(match) or match.over or mover is None
                    or not bots.is_bot(match.players[mover]) or match.ply != job.ply):
                return  # not the position the answer was for: nothing failed there
            self._unsearchable[match_id] = (match.revision, tuple(match.actions))
            self._tell_bot_error(match, f"{job.spec}: its move could not be played ({type(exc).__name__})",
                                 message("error.bot_move_failed", spec=job.spec, error=type(exc).__name__))
        self.hub.publish(match_id)

    @staticmethod
    def _log_bug(match_id: str, exc: Exception, when: str) -> None:
        """Log ``exc`` (a bug) as a 500 is: its type and place, not its message, which may
        quote hidden cards."""
        tb = exc.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        where = f" at {tb.tb_frame.f_code.co_filename.rsplit('/', 1)[-1]}:{tb.tb_lineno}" if tb is not None else ""
        log.error("match %s: internal error %s%s %s", match_id, type(exc).__name__, where, when)

    def _play_answer(self, job: BotJob, text: str | None, note: str | None) -> None:
        match_id, revision = job.match_id, job.revision
        with self.locked(match_id):
            wanted = self.thinking.get(match_id)
            if self.closed or wanted is None or wanted[0] != revision:
                return
            try:
                match = self.load(match_id, fresh=True)
            except StorageFailed:  # the store busy for a moment: the answer is played once it reads
                self._answer_again(job, text, note)
                return
            except (MatchError, CorruptMatch):
                self.thinking.pop(match_id, None)
                return
            self.thinking.pop(match_id, None)
            if match.over or tuple(match.actions) != wanted[1]:
                # changed by another process, which also started whatever search its change
                # needs; subscribers here last heard that this one thinks
                self.hub.publish(match_id)
                return
            trial = self._copy(match)
            state = trial.state
            action, given_note = None, note  # a retry gets the note as the worker gave it
            # a note comes with a fallback's answer, whose job.spec is the fallback's: the seat's
            # own spec is the one whose search did not answer
            said = message("error.bot_fallback", spec=match.players[job.seat], fallback=FALLBACK_SPEC)
            if text is not None:
                try:
                    action = state.string_to_action(text)
                    if action not in state.legal_actions():
                        raise AbstractaError(f"{text!r} is not legal here")
                except Exception as exc:  # noqa: BLE001 - the answer is refused, see below
                    action, note = None, f"{job.spec} answered a move the real state refuses ({exc})"
                    said = message("error.bot_refused", spec=job.spec, fallback=FALLBACK_SPEC)
            else:
                note = f"{job.spec}: {note}"
            if action is None:
                action = self._quick_action(match, job, note or "")
            trial.play(action)
            self._canonical_turn(trial)
            self._finish_if_over(trial)
            self._after_actions(match, trial, time.time())
            try:
                match = self._store(match, trial)
            except StaleRevision:  # another process moved first: its move stands
                self.evict(match_id)
                return
            except StorageFailed:
                self.thinking[match_id] = wanted
                self._answer_again(job, text, given_note)
                return
            # the move stands from here: what fails after this is not a move that was not played
            if note is not None:  # about the move just played, from where it was played
                self._tell_bot_error(match, note, said)
            else:
                self._forget_bot_error(match_id)
            self._follow(match, (self._announce, self._schedule_bot),
                         "after the computer's move was stored (the move stands)")

    def _answer_again(self, job: BotJob, text: str | None, note: str | None) -> None:
        """The store refused to read or write while ``job``'s answer was played (lock held):
        the answer stays wanted (the view says the computer thinks, and it does) and is played
        again in ``STORE_RETRY_SECONDS``, as the worker gave it, on the match as it is then."""
        log.warning("match %s: the games database did not take the computer's move; it is tried again in %g s",
                    job.match_id, STORE_RETRY_SECONDS)
        retry = threading.Timer(STORE_RETRY_SECONDS, self._bot_answered, (job, text, note))
        retry.daemon = True
        retry.start()

    def _canonical_turn(self, match: Match) -> None:
        """Once the computer's last action ends its turn, that turn in the game's canonical
        order (:meth:`Game.canonical_turn`), in a game that declares a whole-turn notation: a
        bot takes a turn's discs in its own order (c1, then a1), which the move list and the
        record would write take by take, where ``play`` and ``match`` write the turn as the
        spec does (Nibble's ``a1+c1``). The bot plays as it found its moves, one job per action;
        only the order stored changes, and the turn ends in the same position."""
        if not match.game.description.whole_turn_notation or not match.actions:
            return
        number, seat, first, stop = turn_spans(self._movers_cached(match), self._turn_numbers(match))[-1]
        state = match.state
        if not state.is_terminal() and state.current_player() == seat and state.turn_number() in (None, number):
            return  # the turn goes on
        if stop - first < 2:
            return
        before = match.state_at(first)
        turn = match.actions[first:]
        ordered = match.game.canonical_turn(before, turn)
        if ordered != turn:
            match.reorder_turn(first, before, ordered)

    def _quick_action(self, match: Match, job: BotJob, why: str) -> int:
        """A level-2 action for the seat to move, searched here on a fresh draw of its
        information state (lock held); a random legal action only if that fails."""
        import dataclasses
        import random

        from .botjobs import FALLBACK_SPEC, run_job

        state = match.state
        try:
            quick = dataclasses.replace(make_job(match, FALLBACK_SPEC), note=why)
            action = state.string_to_action(run_job(quick))
            if action in state.legal_actions():
                self.jobs.count("fallbacks")
                return action
        except Exception:  # noqa: BLE001 - an engine bug: logged, the game goes on
            log.exception("match %s: the quick search failed too", match.id)
        self.jobs.count("random_fallbacks")
        return random.choice(state.legal_actions())

    # --- analysis board (issue 16 §1) -------------------------------------------------------
    def analyse(self, *, match_id: Any = None, ply: Any = None, game: Any = None, options: Any = None,
                position: Any = None, seat: Any = None, hint: bool = False, graph: bool = False,
                scale: Any = None, tokens: list[str] = (), client: str = "", asker: str = "",
                gone: threading.Event | None = None) -> dict[str, Any]:
        """The analysis board: a position's evaluation and best line, or a finished match's
        evaluation graph, computed as one bot job (:func:`~abstracta.server.botjobs.make_analysis_job`).

        Sources: ``match_id`` and ``ply`` (default: the last), or ``game``/``options`` and a
        pasted ``position`` text (``seat``: whose information, default the seat to move).
        Allowed: any ply of a finished match, for anyone who may view it (hidden information:
        each position from what its seat to move knew then); in a running match against the
        computer, the current position or an earlier one for a person seat the ``tokens``
        hold (all of the match's person seats must be theirs); a pasted position. ``hint``: the
        current position on the held seat's turn, counted in the record's ``Hints`` tag.
        ``graph``: per turn start of a finished match, the values per seat on a small budget.
        ``scale`` in (0, 1]: a share of the fixed budget (quick looks, tests). ``gone``: set
        once nobody waits for the answer any more (the asker has gone): the search is cancelled
        and no longer counts among the client's analyses. ``client``: the address asking;
        ``asker``: who asks from there (a browser's session or seat tokens, "" for nobody
        known): each may run ANALYSIS_PER_CLIENT at once, an address ANALYSIS_PER_ADDRESS.

        Returns ``Analysis.to_dict()`` plus ``ply`` (and ``hints``), or for ``graph``
        ``{"points": [{"ply", "values", "display"}], "search"}``.
        Raises (domain errors): 401/403 tokens, 404 no match or game, 409 a running game between
        people (or a hint/graph where none is offered), 422 bad ply, seat, options or position
        text, 429 too many analyses of this asker or address at once (ask again after
        ``retry_after`` seconds), 503 no answer in time (or ``gone``)."""
        if scale is None:
            scale = 1.0
        if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not 0 < scale <= 1:
            raise InvalidRequest(f"scale {clip(scale)} is not a share of the budget in (0, 1]")
        if hint and graph:
            raise InvalidRequest("ask for a hint or for a graph, not both")
        if (match_id is None) == (position is None):
            raise InvalidRequest("give either 'match_id' (a match and its 'ply') or 'game' and 'position' "
                                "(a pasted position text)")
        if position is not None:
            if hint or graph:
                raise InvalidRequest("hints and graphs are for matches; a pasted position gets its analysis")
            record_json, points, struct = self._pasted(game, options, position, seat)
            match = None
        else:
            with self.locked(match_id):
                match = self.tick(self.load(match_id, fresh=True))
                record_json, points = self._match_points(match, ply, seat, hint, graph, tokens)
                asked_on = tuple(match.actions)
        share = GRAPH_SHARE if graph else 1.0
        answers = self._run_analysis(record_json, points, self.analysis_scale * scale * share, client, gone, asker)
        if graph:
            n = len(match.players)
            return {"points": [{"ply": p, "values": a["values"], "terminal": a["terminal"],
                                "display": [display_value_for(a, i) for i in range(n)]}
                               for (p, _), a in zip(points, answers)],
                    "search": next((a["search"] for a in answers if a["search"]), "")}
        answer = {**answers[0], "ply": points[0][0]}
        if position is not None:  # the page draws the pasted position from its structured view
            answer["struct"] = struct
        if hint:
            seat = points[0][1]
            line = answer.get("line") or []
            # an answer without a turn for the seat is no hint given, and is not counted (as in the terminal)
            given = bool(line) and line[0]["player"] == seat
            answer["hints"] = self._count_hint(match_id, seat, asked_on, given)
        return answer

    def _pasted(self, game_name: Any, options: Any, position: Any, seat: Any) -> tuple[str, list, dict]:
        if not isinstance(game_name, str) or len(game_name) > 64:
            raise InvalidRequest("field 'game' must be a game name")
        if not isinstance(position, str) or not position.strip():
            raise InvalidRequest("field 'position' must be a position text")
        if len(position) > 10_000:
            raise InvalidRequest(f"the position text is {len(position)} characters long, at most 10000")
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise InvalidRequest("field 'options' must be an object")
        try:
            game = load_game(game_name, **options)
        except UnknownGameError as exc:
            raise NotFound(cut(str(exc))) from None
        except (AbstractaError, ValueError, TypeError) as exc:
            raise InvalidRequest(f"the options {clip(options)} were refused: {cut(str(exc), 200)}") from None
        try:
            state = game.state_from_text(position.strip())
        except (AbstractaError, ValueError) as exc:
            raise InvalidRequest(f"the position text is not a {game.name} position: {cut(str(exc), 200)}") from None
        n = game.num_players
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
            raise InvalidRequest(f"seat {clip(seat)} does not exist in this game (0…{n - 1})")
        mover = state.current_player()
        if not state.is_terminal() and mover < 0:
            raise InvalidRequest("the position is a chance node: nothing to choose there")
        viewer = seat if seat is not None else (mover if mover >= 0 else None)
        record = Record.from_play(game, state, [], start=state.to_text())
        return record.to_json(indent=None), [(0, viewer)], state.to_struct(viewer)

    def _match_points(self, match: Match, ply: Any, seat: Any, hint: bool, graph: bool,
                      tokens: list[str]) -> tuple[str, list]:
        """The record and the ``(ply, viewer)`` points to analyse in ``match`` (lock held)."""
        if ply is None:
            ply = match.ply
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= match.ply:
            raise InvalidRequest(f"ply {clip(ply)} is not a ply of this match (0…{match.ply})")
        n = len(match.players)
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
            raise InvalidRequest(f"seat {clip(seat)} does not exist in this game (0…{n - 1})")
        hidden = match.game.has_hidden_information
        movers = self._movers_cached(match)
        mover_at = lambda p: (movers[p] if p < len(movers) else match.state.current_player())  # noqa: E731
        if match.over:
            if hint:
                raise Conflict("the game is over: no hints, but every position can be analysed")
            held = self.held(match, tokens)
            # everything is shown once the game is over; each position is still searched from
            # what its seat to move knew then
            if hidden:
                view_of = lambda p: (mover_at(p) if mover_at(p) >= 0 else None)  # noqa: E731
            else:
                default = seat if seat is not None else (min(held) if len(held) == 1 else None)
                view_of = lambda p: default  # noqa: E731
            if graph:
                spans = turn_spans(movers, self._turn_numbers(match))
                starts = ([first for _, _, first, _ in spans] or [0]) + [match.ply]
                if len(starts) > GRAPH_POINTS:  # evenly spread, the first and last kept
                    step = (len(starts) - 1) / (GRAPH_POINTS - 1)
                    starts = sorted({starts[round(i * step)] for i in range(GRAPH_POINTS)})
                return self._record_for_analysis(match), [(p, view_of(p)) for p in starts]
            return self._record_for_analysis(match), [(ply, view_of(ply))]
        if graph:
            raise Conflict("the evaluation graph is shown once the game is over")
        held = self.authorize(match, tokens)
        persons = match.persons
        if not any(p != "human" for p in match.players) or any(p not in held for p in persons):
            raise Conflict("analysis is not offered in a running game between people; "
                                "it opens when the game is over")
        mine = sorted(held & set(persons))
        if not mine and hidden:  # a computer seat's cards stay hidden, even from its creator
            raise Forbidden("no token given holds a person seat of this match")
        if seat is not None and seat not in mine:
            raise Forbidden(f"no token given holds a person seat {seat}")
        mover = match.to_move()
        viewer = seat if seat is not None else (mover if mover in mine else mine[0] if mine else None)
        if hint:
            if ply != match.ply:
                raise Conflict(f"a hint is for the current position (ply {match.ply}), not ply {ply}")
            if mover != viewer:
                raise Conflict("a hint is for your own turn")
        return self._record_for_analysis(match), [(ply, viewer)]

    @staticmethod
    def _record_for_analysis(match: Match) -> str:
        """The full record (seed included) for the worker: it replays the real game and
        searches from the viewer's information state; its hidden cards never leave the worker.
        The match's own record (``Match.record``, cached per revision), its ending with it: its
        tags (``Resigned``, ``OutOfTime``, ``DrawOffered``) are read with its termination and
        result by ``Record.replay``, which refuses them apart."""
        return match.record().to_json(indent=None)

    def _run_analysis(self, record_json: str, points: list, scale: float, client: str,
                      gone: threading.Event | None = None, asker: str = "") -> list[dict]:
        """Run one analysis job in the bot jobs' deep lane (fair with the computer players'
        searches; :func:`~abstracta.server.botjobs.analysis_payload` sends each point as what its
        viewer may know) and wait for its answer, or until ``gone`` is set: then the job is
        cancelled, as a search nobody waits for would hold a worker and count against its client
        (a page reloaded mid-analysis had its next analysis refused) until ANALYSIS_TIMEOUT."""
        from .botjobs import make_analysis_job

        who = (client, asker)
        with self._guard:
            mine, here = self._asking.get(who, 0), self._analysing.get(client, 0)
            if mine >= ANALYSIS_PER_CLIENT:
                raise TooBusy(f"{mine} analyses of yours are running; wait for one to finish",
                              i18n=message("error.analyses_busy", n=mine))
            if here >= ANALYSIS_PER_ADDRESS:
                raise TooBusy(f"{here} analyses from your network address are running; wait for one to finish",
                              i18n=message("error.analyses_busy_address", n=here))
            self._asking[who] = mine + 1
            self._analysing[client] = here + 1
        try:
            try:
                job = make_analysis_job(record_json, points, scale, ANALYSIS_TIMEOUT)
            except (AbstractaError, ValueError) as exc:
                raise InvalidRequest(cut(str(exc), 200)) from None
            done = threading.Event()
            answer: list[Any] = []
            with self._guard:
                self._analyses[job.id] = (done, answer)
            try:
                self.jobs.submit(job)
            except RuntimeError:
                raise Unavailable("the server is stopping") from None
            try:
                deadline = time.monotonic() + ANALYSIS_TIMEOUT
                while not done.wait(ANALYSIS_GONE_POLL if gone is not None else ANALYSIS_TIMEOUT):
                    if gone is not None and gone.is_set():
                        self.jobs.cancel(job.match_id)
                        raise Unavailable("the analysis was stopped: nobody waits for its answer")
                    if time.monotonic() >= deadline:
                        self.jobs.cancel(job.match_id)
                        raise Unavailable(f"the analysis took longer than {ANALYSIS_TIMEOUT:g} s; try again later")
            finally:
                with self._guard:
                    self._analyses.pop(job.id, None)
            text, note = answer[0]
            if text is None:
                raise InvalidRequest(cut(note or "the analysis failed", 200))
            return json.loads(text)
        finally:
            with self._guard:
                for table, key in ((self._analysing, client), (self._asking, who)):
                    left = table.get(key, 1) - 1
                    if left > 0:
                        table[key] = left
                    else:
                        table.pop(key, None)

    def analyses_running(self, client: str | None = None) -> int:
        """Analyses asked by ``client`` (None: by anyone) and not yet answered nor given up (their
        asker gone, their time over): queued, searched, or found and on their way back to the request. An address may have
        ``ANALYSIS_PER_ADDRESS`` at once (each asker there ``ANALYSIS_PER_CLIENT``); tests
        sharing one server wait for none before the next."""
        with self._guard:
            return sum(self._analysing.values()) if client is None else self._analysing.get(client, 0)

    def _analysis_answered(self, job: BotJob, text: str | None, note: str | None) -> None:
        with self._guard:
            waiting = self._analyses.get(job.id)
        if waiting is not None:
            done, answer = waiting
            answer.append((text, note))
            done.set()

    def _count_hint(self, match_id: str, seat: int, asked_on: tuple[int, ...], given: bool) -> list[int]:
        """Add one hint for ``seat`` to the match's ``Hints`` tag (stored) if ``given``; the counts
        per seat. Conflict when the match is no longer at the actions ``asked_on`` the hint was
        searched for (a move from another tab, an undo) or is over: that hint answers a position
        that is gone, and is neither counted nor given (the browser would draw it on the board
        of a later position that happens to have the same ply)."""
        def attempt() -> list[int]:
            match = self.tick(self.load(match_id, fresh=True))
            if match.over:
                raise Conflict("the game is over", i18n=message("error.game_over"))
            if tuple(match.actions) != asked_on:
                raise Conflict(f"the position changed while the hint was searched (now at ply {match.ply}): "
                               "it was not counted; ask again",
                               i18n=message("error.hint_stale", ply=match.ply), ply=match.ply)
            counts = hint_counts(match)
            if not given:
                return counts
            counts[seat] += 1
            trial = self._copy(match)
            trial.tags[HINTS_TAG] = ",".join(map(str, counts))
            self._replace(match, trial)
            return counts

        return self._change(match_id, attempt)

    # --- views ------------------------------------------------------------------------------
    def viewer(self, match: Match, held: set[int], seat: Any = None) -> int | None:
        """Whose eyes a view uses: ``seat`` (``?seat=``; the tokens must hold it, else 403),
        else the held seat to move, else the one held seat; holding several seats and none to
        move (pass and play while the computer moves, or over): the lowest of them while a
        hidden-information game runs, else ``None``, which shows every seat's last turn.
        ``None`` too (a spectator: public information only) when the tokens hold no seat of
        this match. While a game hides cards only person seats count."""
        n = len(match.players)
        if match.hides_cards:  # a computer seat's cards stay hidden, even from its match's creator
            held = {s for s in held if match.players[s] == "human"}
        if seat is not None:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
                raise InvalidRequest(f"seat {clip(seat)} does not exist in this game (0…{n - 1})")
            if seat not in held:
                raise Forbidden(f"no token given holds seat {seat}: a spectator sees public "
                                    "information only (leave out ?seat=)")
            return seat
        if not held:
            return None
        mover = match.to_move()
        if mover in held:
            return mover
        if len(held) == 1 or (match.hides_cards and match.persons):
            return min(held)
        return None

    @staticmethod
    def position(match: Match, state: State, viewer: int | None) -> str:
        """The position text ``viewer`` may see: everything once the game is over or without
        hidden information; a seat's observation; a spectator's public observation (``""``
        when the game has no public text)."""
        if not match.game.has_hidden_information or match.over:
            return state.to_text()
        if viewer is None:
            return state.public_observation() or ""
        return state.observation(viewer)

    @staticmethod
    def struct(match: Match, state: State, viewer: int | None) -> dict[str, Any]:
        """``state.to_struct`` for ``viewer``. Once the match is over every hidden card is shown
        at every ply, to everyone who may view it (its record, whose seed rebuilds the deal, is
        public then too); the struct is still the viewer's (its legal moves, its recent turns)."""
        return state.to_struct(viewer, reveal=match.over)

    def record_json(self, match: Match) -> str:
        """The record for a client: refused (409) while hidden cards are still hidden, because
        its seed rebuilds every hand and the stock (the stored record keeps the seed)."""
        if match.hides_cards:
            raise Hidden("the record of a game with hidden cards is available when it is over")
        return match.record().to_json()

    def delete(self, match_id: str, tokens: list[str] = ()) -> None:
        """Forget the match ``match_id`` (404 if absent); ``tokens`` must hold one of its
        seats (401/403). A bot thinking there is ignored."""
        with self.locked(match_id):
            match = self.load(match_id, fresh=True)
            self.authorize(match, tokens)
            self.store.delete(match_id)
            self.evict(match_id)
            self._cancel_bot(match_id)
            self._forget_bot_error(match_id)
            self.hub.set_timer(match_id, None, self._flag_due)
        self.hub.publish(match_id)

    def clock_view(self, match: Match) -> dict[str, Any] | None:
        """The clock for a client (None: no clock): the time control, seconds left per seat at
        ``now`` (server Unix time), the seat whose time runs (None: none), seats out."""
        live = match.live
        if live.clock is None:
            return None
        now = time.time()
        return {"control": dict(live.clock),
                "left": [max(0.0, round(live.left(i, now) or 0.0, 3)) for i in range(len(match.players))],
                "running": None if match.over else live.running,
                "now": round(now, 3),
                "out": list(live.out)}

    def view(self, match: Match, held: set[int] = frozenset(), seat: Any = None) -> dict[str, Any]:
        """The match as the seats ``held`` may see it (``seat``: which of them; none held: a
        spectator). Legal moves only for a held seat to move.

        Computed once per revision and viewer (``to_struct`` is the costly part) and shared by
        every request and subscriber asking for it; only the clock is fresh each time. The
        answer is shared: callers must not change it."""
        return self._cached_view(match, held, seat)[0]

    def view_json(self, match: Match, held: set[int] = frozenset(), seat: Any = None) -> bytes:
        """:meth:`view` as JSON (UTF-8), encoded once per revision and viewer (a match with a
        clock: each time, since the clock's figures are of the moment)."""
        entry = self._cached_view(match, held, seat)
        if entry[1] is None:
            encoded = orjson.dumps(entry[0], option=orjson.OPT_NON_STR_KEYS)
            if match.live.clock is None:
                entry[1] = encoded
            return encoded
        return entry[1]

    def _cached_view(self, match: Match, held: set[int], seat: Any) -> list[Any]:
        """``[view, its JSON or None]`` from the match's cache of views (per revision: a new
        revision is a new Match object), the clock fresh."""
        bot_error = self._bot_error(match)
        key = (frozenset(held), seat, self._shows_thinking(match), bot_error and bot_error[0])
        views = match.__dict__.setdefault("_views", {})
        entry = views.get(key)
        if entry is None:
            entry = views[key] = [self._view(match, held, seat), None]
        if match.live.clock is None:
            return entry
        return [{**entry[0], "clock": self.clock_view(match)}, None]

    # --- what the routes ask for (each under the match's lock) -----------------------------------
    def snapshot(self, match_id: str, tokens: list[str], seat: Any = None) -> bytes:
        """The view of ``match_id`` for ``tokens`` (a fallen flag applied first), as JSON."""
        match = self.current(match_id)
        with self.locked(match_id):
            return self.view_json(match, self.held(match, tokens), seat)

    def act_view(self, match: Match, tokens: list[str], seat: Any = None) -> bytes:
        """The view of ``match`` (just changed) for ``tokens``, as JSON."""
        with self.locked(match.id):
            return self.view_json(match, self.held(match, tokens), seat)

    def positions_page(self, match_id: str, tokens: list[str], seat: Any = None,
                       start: int | None = None, stop: int | None = None) -> bytes:
        """The plies ``start``…``stop`` of the replay (see :func:`replay_range`) as JSON:
        ``{"ply", "revision", "viewer", "from", "to", "moves", "positions", "structs"}``, the
        position text and the structured view after each of those plies as :meth:`viewer` may
        see them (``revision`` and ``viewer``: which state and whose eyes, so a client can tell
        an answer for a view it no longer shows). Computed
        once per revision, viewer and range and kept in :attr:`pages`. The replay runs outside
        the match's lock, on the match as it was asked for (a change makes a new
        :class:`Match`, never alters the one stored), so a spectator asking for it again and
        again never holds up the players."""
        match = self.current(match_id)
        with self.locked(match_id):
            viewer = self.viewer(match, self.held(match, tokens), seat)
        first, last = replay_range(match.ply, start, stop)
        key = (match.id, match.revision, match.ply, match.over, viewer, first, last)
        page = self.pages.get(key)
        if page is None:
            texts, structs = self._replay(match, viewer, first, last)
            page = orjson.dumps({"ply": match.ply, "revision": match.revision, "viewer": viewer,
                                 "from": first, "to": last, "moves": match.strings,
                                 "positions": texts, "structs": structs}, option=orjson.OPT_NON_STR_KEYS)
            self.pages.put(key, page)
        return page

    def record_of(self, match_id: str) -> tuple[Match, str]:
        """``(match, record JSON)``: see :meth:`record_json`."""
        with self.locked(match_id):
            match = self.load(match_id)
            return match, self.record_json(match)

    def seats_of(self, match_id: str, tokens: list[str]) -> set[int]:
        """The seats ``tokens`` hold in ``match_id`` (NotFound if absent)."""
        with self.locked(match_id):
            return self.held(self.load(match_id), tokens)

    def push_view(self, match_id: str, held: set[int]) -> tuple[tuple[int, bool] | None, bytes]:
        """For a subscriber: ``(key, view as JSON)``, the key changing exactly when the view
        does (revision, a computer thinking); key None in the middle of a computer's turn (a
        subscriber that has a view already waits for the whole turn). NotFound once the match
        is deleted."""
        match = self.current(match_id)
        with self.locked(match_id):
            key = None if self._mid_computer_turn(match) else (match.revision, self._shows_thinking(match))
            return key, self.view_json(match, held)

    def _view(self, match: Match, held: set[int], seat: Any) -> dict[str, Any]:
        viewer = self.viewer(match, held, seat)
        mover = match.to_move()
        human_to_move = mover is not None and match.players[mover] == "human"
        show_legal = human_to_move and mover in held
        legal = match.state.legal_action_strings() if show_legal else []
        game = match.game
        pending = match.live.takeback
        offer = match.live.draw
        # the one rule an offer meets: the seats these tokens would offer a draw for, and why not now
        mine_draw, draw_refused = self._draw_refusal(match, held)
        bot_error = self._bot_error(match)
        return {
            "id": match.id,
            "game": game.name,
            "title": game.title,
            "title_key": game.description.title.key,
            "variant": variant_named(game),
            "options": match.record().options,
            # the seed fixes every hidden card: only shown once a hidden-information game is over
            "seed": (match.initial.seed if game.has_chance and not match.hides_cards else None),
            "players": match.players,
            "num_players": len(match.players),
            "seats": seat_styles(game),
            "board": dict(game.description.board),
            "board_module": f"/games/{game.name}/board.js" if game.description.web is not None else None,
            "hidden_information": game.has_hidden_information,
            "private_views": self._private_views(match, held),
            "viewer": viewer,
            "my_seats": sorted(held),
            "claimed": [i in match.claimed for i in range(len(match.players))],
            "ply": match.ply,
            "revision": match.revision,
            "to_move": mover,
            "human_to_move": human_to_move,
            "thinking": self._shows_thinking(match),
            "position": self.position(match, match.state, viewer),
            "struct": self.struct(match, match.state, viewer),
            "legal": legal,
            "turns": self._turns(match) if show_legal else None,
            "last_action": match.strings[-1] if match.strings else None,
            "moves": match.strings,
            "movers": self._movers_cached(match),
            "turn_numbers": self._turn_numbers(match),
            # the count Your games stores and lists, so that a page says it rather than counts it
            "turns_played": self._turns_played(match),
            "record_moves": match.record().moves,
            "move_list": self._move_list(match),
            "result": match.result,
            "termination": match.termination,
            "resigned": match.resigned,
            "out_of_time": match.out_of_time,
            "out_at": match.out_at(),
            "hints": hint_counts(match) if HINTS_TAG in match.tags else None,
            "status": "over" if match.over else "playing",
            "created": match.tags.get("date"),
            "clock": self.clock_view(match),
            "takeback": dict(pending) if pending is not None else None,
            "draw_offer": ({**offer, "waiting": self._draw_waiting(match, offer)}
                           if offer is not None and not match.over else None),
            # whether these tokens may offer a draw now (README "Draw offers")
            "draw_offerable": offer is None and draw_refused is None,
            # how the last offer and takeback request that did not happen ended, at this position
            "draw_offer_ended": match.live.draw_ended if not match.over else None,
            "takeback_ended": match.live.takeback_ended if not match.over else None,
            # the turns of its own the seat these tokens offer for still plays before offering again
            "draw_again_in": self._draw_again_in(match, min(mine_draw)) if mine_draw else 0,
            # the refused move of a computer seat may name a card of its hidden hand
            "bot_error": (None if bot_error is None else english(message("error.bot_hidden"))
                          if match.hides_cards else bot_error[0]),
            "bot_error_i18n": (None if bot_error is None else message("error.bot_hidden")
                               if match.hides_cards else bot_error[1]),
        }

    def _move_list(self, match: Match) -> list[dict[str, Any]]:
        """The turns played as the terminal's replay writes them (``Game.format_turn``: Nibble's
        ``b2+i8`` and ``a1``), each with the ply after each of its entries, where a click on it
        goes (an entry that writes the turn whole goes to its end)."""
        turns = match.turn_texts(self._movers_cached(match), self._turn_numbers(match))
        return [{"number": t.number, "seat": t.seat, "from": t.first, "to": t.stop, "moves": t.moves,
                 "plies": t.plies} for t in turns]

    @staticmethod
    def _turns(match: Match) -> list[str] | None:
        """The legal whole turns in the game's whole-turn notation (``Game.turn_strings``), or
        None for games without one and in the middle of a turn."""
        if not match.game.description.whole_turn_notation:
            return None
        try:
            return list(match.game.turn_strings(match.state)) or None
        except AbstractaError:  # in the middle of a turn there are no whole turns to list
            return None

    @staticmethod
    def _private_views(match: Match, held: set[int]) -> bool:
        """Whether the persons whose seats ``held`` holds see different things (then people
        sharing a device need a hand-over screen)."""
        return views_differ(match.state, [i for i in match.persons if i in held])

    def positions(self, match: Match, held: set[int] = frozenset(),
                  seat: Any = None) -> tuple[list[str], list[dict[str, Any]]]:
        """The position text and the structured view after each ply (index 0 = start), as the
        viewer of :meth:`viewer` may see them."""
        return self._replay(match, self.viewer(match, held, seat))

    def _replay(self, match: Match, viewer: int | None, first: int = 0,
                last: int | None = None) -> tuple[list[str], list[dict[str, Any]]]:
        """The texts and structs of plies ``first``…``last`` (default: every ply). Playing an
        action costs little beside describing a position (``to_struct``), so only the plies
        asked for are described."""
        last = match.ply if last is None else last
        state = match.initial.clone()
        texts: list[str] = []
        structs: list[dict[str, Any]] = []
        for ply in range(last + 1):
            if ply:
                state.apply_action(match.actions[ply - 1])
            if ply >= first:
                texts.append(self.position(match, state, viewer))
                structs.append(self.struct(match, state, viewer))
        return texts, structs


__all__ = ["Live", "Match", "MatchService", "digest"]
