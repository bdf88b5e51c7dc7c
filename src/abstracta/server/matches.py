"""Matches in play: rules, persistence and bots together (issue 7 §1–§3).

A :class:`Match` is one game being played: the Game, its initial state, the actions applied so
far and the current state, plus who sits at each seat. :class:`MatchService` keeps matches in
memory, loads them from the store by replaying their record, writes every accepted change in
one transaction *before* the in-memory match changes, and runs bot moves in a process pool.

Seats belong to people (issue 13): every person seat is held by whoever knows its secret token
(128 bits, ``secrets.token_urlsafe(16)``; only its SHA-256 is stored). The creator receives the
tokens of the seats it takes and one invitation code per other person seat; claiming an
invitation gives its seat's token, once. Every act names its tokens; views are computed for the
seats those tokens hold (none: a spectator, who sees public information only).

Every method raises :class:`ApiError` (status, message) for a bad request; the match it was
aimed at is then unchanged. 401: no token given; 403: no token given holds the seat.
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import hmac
import json
import multiprocessing
import secrets
import threading
import time
import zlib
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from ..core.errors import AbstractaError, RecordError
from ..core.game import Game, State, action_strings, resignation_returns
from ..core.options import seed_problem
from ..core.records import Record
from ..core.registry import load_game
from . import bots
from .storage import Store


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


def clip(value: Any, limit: int = ECHO_LIMIT) -> str:
    """``repr(value)`` cut to ``limit`` characters (error messages echo client input)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def cut(text: str, limit: int = 300) -> str:
    """``text`` cut to ``limit`` characters (messages that may contain client input)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def check_seed(seed: Any, field_name: str = "seed") -> None:
    """Raise ApiError 422 unless ``seed`` is None or a seed (:func:`abstracta.core.options.seed_problem`)."""
    problem = None if seed is None else seed_problem(seed)
    if problem:
        raise ApiError(422, f"{field_name}: {problem}")


class ApiError(Exception):
    """A refused request: HTTP ``status`` and a message naming the problem."""

    def __init__(self, status: int, message: str, **extra: Any):
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


def digest(secret: str) -> str:
    """SHA-256 (hex) of a token or invitation code: what the store keeps instead of it."""
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


def new_secret() -> str:
    """A fresh token or invitation code: 128 random bits, URL-safe text (22 characters)."""
    return secrets.token_urlsafe(16)


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
    """

    clock: dict[str, float] | None = None
    remaining: list[float] | None = None
    running: int | None = None
    since: float | None = None
    takeback: dict[str, Any] | None = None
    out: list[int] = field(default_factory=list)

    def to_json(self) -> str:
        return json.dumps({"clock": self.clock, "remaining": self.remaining, "running": self.running,
                           "since": self.since, "takeback": self.takeback, "out": self.out})

    @classmethod
    def from_json(cls, text: str | None) -> "Live":
        if not text:
            return cls()
        d = json.loads(text)
        return cls(d.get("clock"), d.get("remaining"), d.get("running"), d.get("since"),
                   d.get("takeback"), list(d.get("out") or []))

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

    @property
    def persons(self) -> list[int]:
        """The seats played by people (not out on time)."""
        return [i for i, p in enumerate(self.players) if p == "human" and i not in self.live.out]

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
        record = Record.from_play(self.game, self.initial, self.actions, players=self.players,
                                  tags=self.tags, start=self.start, termination=self.termination,
                                  result=self.result)
        if not self.game.has_chance:  # a seed only matters for chance: normalised away
            record.seed = None
        self._record_cache = (key, record)
        return record

    def state_at(self, ply: int) -> State:
        state = self.initial.clone()
        for action in self.actions[:ply]:
            state.apply_action(action)
        return state


def _stamp() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


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
        raise ApiError(422, "field 'take' must be a list of seat numbers")
    for t in take:
        if t not in persons:
            raise ApiError(422, f"take: seat {clip(t)} is not a person seat of this match (person seats: "
                                f"{persons})")
    if len(set(take)) != len(take):
        raise ApiError(422, "take: a seat is listed twice")
    return sorted(take)


def _check_clock(clock: Any) -> dict[str, float] | None:
    """A time control (:class:`Live` ``clock``) from a request, or None."""
    if clock is None:
        return None
    if not isinstance(clock, dict):
        raise ApiError(422, "field 'clock' must be an object: {'initial': s, 'increment': s} or {'per_turn': s}")

    def seconds(key: str, low: float) -> float:
        value = clock[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= CLOCK_LIMIT:
            raise ApiError(422, f"clock.{key}: {clip(value)} is not a number of seconds in {low:g}…{CLOCK_LIMIT}")
        return float(value)

    keys = set(clock)
    if keys == {"per_turn"}:
        return {"per_turn": seconds("per_turn", 1)}
    if keys in ({"initial"}, {"initial", "increment"}):
        return {"initial": seconds("initial", 1),
                "increment": seconds("increment", 0) if "increment" in clock else 0.0}
    raise ApiError(422, f"clock: {clip(sorted(keys))} is not a time control; give {{'initial': s, "
                        "'increment': s}} (a live clock) or {'per_turn': s} (a deadline per turn)")


def _check_seats(seats: Any, n: int, field_name: str = "seats") -> list[str]:
    if seats is None:
        return ["human"] + ["level:1"] * (n - 1)
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise ApiError(422, f"{field_name} must be a list of strings ('human' or 'level:1' … 'level:6')")
    if len(seats) != n:
        entries = "entry" if len(seats) == 1 else "entries"
        raise ApiError(422, f"{field_name} lists {len(seats)} {entries}, the game has {n} players")
    for i, spec in enumerate(seats):
        if not bots.SEAT_SPEC.match(spec.strip()):
            raise ApiError(422, f"{field_name}: seat {i}: {clip(spec)} is not 'human' or 'level:1' … 'level:6'")
    return [s.strip() for s in seats]


def seat_styles(game: Game) -> list[dict[str, Any]]:
    """Per seat of ``game``: its name in the game (or None) and colours, from the description."""
    return [{"name": str(st.name) if st.name is not None else None, "colour": st.colour, "ink": st.ink}
            for st in game.description.seats]


class MatchService:
    """All matches of one server. Thread-safe (one lock; requests are short)."""

    def __init__(self, store: Store, bot_workers: int = 2):
        self.store = store
        self.lock = threading.RLock()
        self.cache: dict[str, Match] = {}
        self.thinking: dict[str, int] = {}  # match id -> revision the bot is thinking at
        self.bot_errors: dict[str, str] = {}
        self._reveals: dict[tuple[str, int, int], bool] = {}  # (match, ply index, history hash) -> reveals
        self.bot_workers = bot_workers
        self._pool: cf.Executor | None = None
        self._applier = cf.ThreadPoolExecutor(1, thread_name_prefix="bot-apply")
        self.closed = False

    # --- lifecycle --------------------------------------------------------------------------
    def pool(self) -> cf.Executor:
        if self._pool is None:
            if self.bot_workers > 0:
                ctx = multiprocessing.get_context("spawn")
                self._pool = cf.ProcessPoolExecutor(self.bot_workers, mp_context=ctx,
                                                    initializer=bots.worker_init,
                                                    initargs=(multiprocessing.current_process().pid,))
            else:
                self._pool = cf.ThreadPoolExecutor(1, thread_name_prefix="bot")
        return self._pool

    def resume_bots(self) -> None:
        """After a start: warm up the bot workers, then let bots move in every unfinished match
        where a bot is to move."""
        if self.bot_workers > 0:
            try:
                for _ in range(self.bot_workers):
                    self.pool().submit(bots.warm_up)
            except RuntimeError:
                pass
        for mid in list(self.store.unfinished_ids()):
            try:
                with self.lock:
                    self._schedule_bot(self.load(mid))
            except ApiError:
                continue

    def close(self) -> None:
        """Stop everything this service started: queued bot moves are cancelled, worker
        processes (possibly in the middle of a search) are terminated, then killed if they do
        not stop within a second."""
        self.closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            processes = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for proc in processes:
                if proc.is_alive():
                    proc.terminate()
            for proc in processes:
                proc.join(timeout=1.0)
                if proc.is_alive():
                    proc.kill()
                    proc.join(timeout=1.0)
            manager = getattr(pool, "_executor_manager_thread", None)
            if manager is not None:  # it notices the stopped workers and releases the queues
                manager.join(timeout=2.0)
        self._applier.shutdown(wait=False, cancel_futures=True)
        self.store.dispose()

    # --- loading and saving -------------------------------------------------------------------
    def load(self, match_id: str) -> Match:
        """The match ``match_id`` (from memory, or replayed from its stored record). 404 if absent."""
        with self.lock:
            match = self.cache.get(match_id)
            if match is not None:
                return match
            row = self.store.get(match_id) if isinstance(match_id, str) and len(match_id) <= 32 else None
            if row is None:
                raise ApiError(404, f"no match with id {match_id!r}")
            try:
                record = Record.from_json(row.record)
                state, actions = record.replay()
                game = record.make_game()
                initial = record.initial_state(game)
            except AbstractaError as exc:
                raise ApiError(500, f"stored match {match_id} does not replay: {exc}") from None
            match = Match(match_id, game, initial, state, actions, list(record.players),
                          record.start, dict(record.tags), record.result, record.termination,
                          row.revision, action_strings(initial, actions),
                          dict(self.store.seat_tokens(match_id)), Live.from_json(self.store.live(match_id)))
            self.cache[match_id] = match
            return match

    def _commit(self, match: Match, *, new: bool = False, invites: list[tuple[str, int]] = ()) -> None:
        """Write ``match`` (already updated in a trial copy) to the store with its live state
        (and, when ``new``, its tokens and ``invites``); raises on failure."""
        record = match.record()
        status = "over" if match.over else "playing"
        self.store.save(match.id, match.game.name, record.to_json(indent=None), status,
                        match.revision, match.ply, None if new else match.revision - 1,
                        live=match.live.to_json(),
                        tokens=list(match.tokens.items()) if new else [], invites=invites)

    def _replace(self, old: Match, trial: Match) -> Match:
        """Persist ``trial`` (revision bumped) and make it the current match."""
        trial.revision = old.revision + 1
        self._commit(trial)
        self.cache[trial.id] = trial
        return trial

    @staticmethod
    def _copy(match: Match) -> Match:
        return Match(match.id, match.game, match.initial, match.state.clone(), list(match.actions),
                     list(match.players), match.start, dict(match.tags), match.result,
                     match.termination, match.revision, list(match.strings), dict(match.tokens),
                     match.live.copy())

    # --- creating ---------------------------------------------------------------------------
    def create(self, game_name: Any, options: Any, seats: Any, take: Any = None,
               clock: Any = None) -> tuple[Match, dict[str, list[dict[str, Any]]]]:
        """A new match, stored: ``(match, grant)`` where ``grant`` holds the secrets only the
        creator receives: ``{"tokens": [{"seat", "token"}], "invites": [{"seat", "code"}]}``
        (a token for each seat of ``take``, default the first person seat; an invitation for
        every other person seat). ``clock``: see :class:`Live`. 404 unknown game, 422 bad
        options, seats, take or clock."""
        if not isinstance(game_name, str):
            raise ApiError(422, "field 'game' must be a game name")
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise ApiError(422, "field 'options' must be an object")
        clean = {}
        for key, value in options.items():
            if len(key) > 64:
                raise ApiError(422, f"options: {clip(key)} is not an option name")
            if value is None or value == "":
                raise ApiError(422, f"option {clip(key)}: no value given (leave the option out for its default)")
            if isinstance(value, str) and len(value) > 200:
                raise ApiError(422, f"option {clip(key)}: value too long ({len(value)} characters, at most 200)")
            if isinstance(value, list) and (len(value) > 64 or not all(
                    isinstance(v, (int, str)) and not isinstance(v, bool) for v in value)):
                raise ApiError(422, f"option {clip(key)}: unsupported value {clip(value)}")
            if isinstance(value, (bool, int, str, list)):
                clean[key] = value
            else:
                raise ApiError(422, f"option {clip(key)}: unsupported value {clip(value)}")
        try:
            game = load_game(game_name, **clean)
            initial = game.new_initial_state()
        except AbstractaError as exc:
            status = 404 if type(exc).__name__ == "UnknownGameError" else 422
            raise ApiError(status, cut(str(exc))) from None
        except Exception as exc:  # noqa: BLE001 - odd option values must not become a 500
            raise ApiError(422, f"the options {clip(clean)} were refused: {cut(str(exc), 200)}") from None
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
                raise ApiError(422, f"record.game: {clip(data['game'])} is not a game name")
            if isinstance(data.get("start"), str) and len(data["start"]) > 10_000:
                raise ApiError(422, "record.start: a position text of more than 10000 characters")
            moves = data.get("moves")
            if isinstance(moves, list):
                for i, move in enumerate(moves, 1):
                    if isinstance(move, str) and len(move) > MOVE_TEXT_LIMIT:
                        raise ApiError(422, f"record.moves: ply {i} is longer than {MOVE_TEXT_LIMIT} characters",
                                       ply=i)
        try:
            record = Record.from_dict(data)
            state, actions = record.replay()
            game = record.make_game()
            initial = record.initial_state(game)
        except RecordError as exc:
            raise ApiError(422, cut(str(exc)), ply=exc.ply,
                           reason=cut(exc.reason) if exc.reason else exc.reason) from None
        except AbstractaError as exc:
            raise ApiError(422, cut(str(exc))) from None
        except Exception as exc:  # noqa: BLE001
            raise ApiError(422, f"the record does not replay: {cut(str(exc), 200)}") from None
        check_seed(record.seed, "record.seed")
        if seats is None:
            # the record's players: empty means people at every seat, otherwise one valid seat
            # spec per player
            players = (["human"] * game.num_players if not record.players
                       else _check_seats(record.players, game.num_players, "record.players"))
        else:
            players = _check_seats(seats, game.num_players)
        result, termination = record.result, record.termination
        if state.is_terminal():
            if termination in ("resignation", "time"):
                raise ApiError(422, f"record.termination: {termination!r}, but the game ended by the rules "
                                    f"after ply {len(record.moves)}; use 'normal'")
            result, termination = [float(r) for r in state.returns()], "normal"
        elif termination == "normal":
            raise ApiError(422, "record.termination: 'normal', but the game is not over by the rules")
        elif termination in ("resignation", "time") and (result is None or -1.0 not in result):
            raise ApiError(422, f"record.result: a game ended by {termination} needs a result with the loser at -1")
        elif termination not in ("resignation", "time"):  # abandoned or none: the game continues here
            result, termination = None, None
        if len(record.tags) > TAG_COUNT_LIMIT:
            raise ApiError(422, f"record.tags: {len(record.tags)} tags, at most {TAG_COUNT_LIMIT}")
        for key, value in record.tags.items():
            if len(key) > TAG_KEY_LIMIT or len(value) > TAG_VALUE_LIMIT:
                raise ApiError(422, f"record.tags: tag {clip(key)} is too long (names ≤ {TAG_KEY_LIMIT}, "
                                    f"values ≤ {TAG_VALUE_LIMIT} characters)")
        tags = dict(record.tags)
        tags.setdefault("date", _stamp())
        match = Match(secrets.token_hex(8), game, initial, state, actions, players, record.start,
                      tags, result, termination, 0, action_strings(initial, actions))
        return self._store_new(match, _check_take(take, players), _check_clock(clock))

    def _store_new(self, match: Match, take: list[int],
                   clock: dict[str, float] | None) -> tuple[Match, dict[str, list[dict[str, Any]]]]:
        tokens = {seat: new_secret() for seat in take}
        codes = {seat: new_secret() for seat in match.persons if seat not in tokens}
        match.tokens = {digest(t): seat for seat, t in tokens.items()}
        match.live = Live(clock=clock, remaining=([clock["initial"]] * len(match.players)
                                                  if clock and "initial" in clock else None))
        self._start_clock(match, time.time())
        with self.lock:
            try:
                self._commit(match, new=True, invites=[(digest(c), seat) for seat, c in codes.items()])
            except AbstractaError as exc:
                raise ApiError(422, str(exc)) from None
            self.cache[match.id] = match
            self._schedule_bot(match)
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
            raise ApiError(401, "this needs the token of a seat of this match (Authorization: Bearer <token>)")
        held = self.held(match, tokens)
        if not held:
            raise ApiError(403, "no token given is a token of this match")
        if seat is not None and seat not in held:
            raise ApiError(403, f"no token given holds seat {seat}")
        return held

    def invitation(self, code: Any) -> tuple[Match, int, bool]:
        """The invitation ``code``: ``(match, seat, claimed)``; 404 if unknown."""
        row = self.store.invite(digest(code)) if isinstance(code, str) and len(code) <= 64 else None
        if row is None:
            raise ApiError(404, "no such invitation")
        with self.lock:
            return self.load(row.match_id), row.seat, row.claimed_at is not None

    def claim(self, code: Any) -> tuple[Match, dict[str, list[dict[str, Any]]]]:
        """Claim the invitation ``code`` (once): ``(match, grant)`` with the seat's token.
        404 unknown, 410 claimed already."""
        match, seat, claimed = self.invitation(code)
        if claimed:
            raise ApiError(410, f"this invitation to seat {seat} was used already")
        token = new_secret()
        with self.lock:
            got = self.store.claim(digest(code), digest(token))
            if got is None:
                raise ApiError(410, f"this invitation to seat {seat} was used already")
            match = self.load(match.id)
            trial = self._copy(match)
            trial.tokens[digest(token)] = seat
            self._start_clock(trial, time.time())
            match = self._replace(match, trial)  # a new revision: the others see the seat taken
        return match, {"tokens": [{"seat": seat, "token": token}], "invites": []}

    def reinvite(self, match_id: str, tokens: list[str]) -> dict[str, list[dict[str, Any]]]:
        """New invitation codes for the unclaimed person seats (the old ones stop working);
        any seat's token. ``{"tokens": [], "invites": [{"seat", "code"}]}``."""
        with self.lock:
            match = self.load(match_id)
            self.authorize(match, tokens)
            codes = {seat: new_secret() for seat in match.persons if seat not in match.claimed}
            self.store.replace_invites(match.id, [(digest(c), seat) for seat, c in codes.items()])
        return {"tokens": [], "invites": [{"seat": seat, "code": c} for seat, c in sorted(codes.items())]}

    def mine(self, tokens: list[str], limit: int) -> list[tuple[Any, list[int]]]:
        """The stored rows of the matches ``tokens`` hold a seat of, most recently played
        first, each with the seats held."""
        held = self.store.matches_of([digest(t) for t in tokens[:TOKEN_LIMIT]])
        return [(row, sorted(held[row.id])) for row in self.store.rows(list(held), limit)]

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
        now on) and the game goes on; the last seat not out wins."""
        trial = self._copy(match)
        live = trial.live
        if live.remaining is not None:
            live.remaining[seat] = 0.0
        live.running, live.since, live.takeback = None, None, None
        n = len(trial.players)
        self.thinking.pop(match.id, None)
        if n == 2:
            other = 1 - seat
            wins = trial.state.could_still_win(other)
            trial.result = [0.0, 0.0] if not wins else [-1.0 if i == seat else 1.0 for i in range(2)]
            trial.termination = "time"
        else:
            live.out.append(seat)
            trial.players[seat] = "level:1"
            alive = [i for i in range(n) if i not in live.out]
            if len(alive) == 1:
                trial.result = [1.0 if i == alive[0] else -1.0 for i in range(n)]
                trial.termination = "time"
            else:
                self._start_clock(trial, now)
        match = self._replace(match, trial)
        self._schedule_bot(match)
        return match

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

    def _after_actions(self, trial: Match, now: float) -> None:
        """Clock and takeback bookkeeping after actions were added to ``trial``: a turn that
        passed to another seat (or ended the game) stops its clock with the increment and
        starts the next one; any move cancels a pending takeback request."""
        trial.live.takeback = None
        if trial.live.running is not None and (trial.over or trial.to_move() != trial.live.running):
            self._stop_clock(trial, now, increment=True)
        self._start_clock(trial, now)

    def play(self, match_id: str, text: Any, ply: Any, seat: Any = None, tokens: list[str] = ()) -> Match:
        """Apply the person's move ``text`` chosen at ``ply``, for the seat to move, which
        ``tokens`` must hold (401/403). 409 if ``ply`` is not current, the game is over (a
        fallen flag included) or a computer seat is to move.

        ``text`` is one action (or whole-turn string), or a list of them that the same seat
        plays in a row within one turn (e.g. a take and ``end``): all are applied, or none."""
        texts = text if isinstance(text, list) else [text]
        if not texts or len(texts) > 64:
            raise ApiError(422, "field 'actions' must list 1 to 64 moves")
        for item in texts:
            if not isinstance(item, str) or not item.strip() or len(item) > MOVE_TEXT_LIMIT:
                raise ApiError(422, f"field 'action' must be a non-empty move in the game's notation "
                                    f"(at most {MOVE_TEXT_LIMIT} characters)")
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise ApiError(422, f"field 'seat' must be an integer seat, got {clip(seat)}")
        if isinstance(ply, bool) or not isinstance(ply, int):
            raise ApiError(422, "field 'ply' must be the integer ply the move was chosen at")
        with self.lock:
            match = self.tick(self.load(match_id))
            if seat is not None and not 0 <= seat < len(match.players):
                raise ApiError(422, f"seat {seat} does not exist in this game (0…{len(match.players) - 1})")
            held = self.authorize(match, tokens, seat)
            if match.over:
                raise ApiError(409, "the game is over")
            if ply != match.ply:
                raise ApiError(409, f"stale move: it was chosen at ply {ply}, the game is at ply {match.ply}",
                               ply=match.ply)
            mover = match.to_move()
            if mover is None:
                raise ApiError(409, "nobody is to move")
            if match.players[mover] != "human":
                raise ApiError(409, f"seat {mover} is played by the computer ({match.players[mover]})")
            if seat is not None and seat != mover:
                raise ApiError(409, f"it is seat {mover}'s turn, not seat {seat}'s")
            if mover not in held:
                raise ApiError(403, f"it is seat {mover}'s turn and no token given holds seat {mover}")
            trial = self._copy(match)
            for index, item in enumerate(texts):
                if index and trial.state.current_player() != mover:
                    raise ApiError(422, f"{clip(item)}: the turn was over after {clip(texts[index - 1])}")
                for action in self._parse(trial, item.strip()):
                    trial.strings.append(trial.state.action_to_string(action))
                    trial.state.apply_action(action)
                    trial.actions.append(action)
            self._finish_if_over(trial)
            self._after_actions(trial, time.time())
            match = self._replace(match, trial)
            self._schedule_bot(match)
            return match

    @staticmethod
    def _parse(match: Match, text: str) -> list[int]:
        """The actions ``text`` stands for: one action's notation, or a whole-turn string
        (``Game.parse_move``). Raises ApiError 422 naming the problem."""
        state = match.state
        try:
            return [state.string_to_action(text)]
        except AbstractaError as exc:
            first: Exception = exc
        except Exception as exc:  # noqa: BLE001 - a rules bug must not crash the request
            raise ApiError(422, f"{clip(text)} could not be read: {cut(str(exc), 200)}") from None
        if not match.game.description.whole_turn_notation:
            raise ApiError(422, cut(str(first)) if str(first) else f"{clip(text)} is not a legal move here")
        try:
            actions = list(match.game.parse_move(state, text))
            check = state.clone()
            for action in actions:
                check.apply_action(action)
        except AbstractaError as exc:
            raise ApiError(422, cut(str(exc) or str(first))) from None
        except Exception as exc:  # noqa: BLE001
            raise ApiError(422, f"{clip(text)} could not be read: {cut(str(exc), 200)}") from None
        if not actions:
            raise ApiError(422, f"{clip(text)} names no action")
        return actions

    @staticmethod
    def _finish_if_over(match: Match) -> None:
        """Set the result when the rules ended the game; seats out on time lose whatever the
        rules say (termination ``time`` when that changes the rules' result)."""
        if match.state.is_terminal():
            result = [float(r) for r in match.state.returns()]
            forced = [-1.0 if i in match.live.out else r for i, r in enumerate(result)]
            match.result = forced
            match.termination = "time" if forced != result else "normal"

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
                except Exception:  # noqa: BLE001 - a game that cannot tell: never cross it
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
            raise ApiError(409, "there is no earlier turn of yours to take back to")
        barrier = self._reveal_flags(match, target)
        if barrier:
            ply, text = barrier[-1]
            raise ApiError(409, f"ply {ply} ({text}) showed hidden information or a chance outcome; "
                                "no undo goes back past it")
        return target

    def _take_back(self, match: Match, target: int) -> Match:
        """Go back to ply ``target`` (lock held): stored, the clock restarted for the seat to
        move (time used stays used), a pending takeback request cleared, bots scheduled."""
        trial = self._copy(match)
        now = time.time()
        self._stop_clock(trial, now, increment=False)
        trial.actions = trial.actions[:target]
        trial.strings = trial.strings[:target]
        trial.state = match.state_at(target)
        trial.result = None
        trial.termination = None
        trial.live.takeback = None
        self._finish_if_over(trial)
        self._start_clock(trial, now)
        self.thinking.pop(match.id, None)
        match = self._replace(match, trial)
        self._schedule_bot(match)
        return match

    def _check_undoable(self, match: Match) -> None:
        if match.termination in ("resignation", "time"):
            how = "resigned" if match.termination == "resignation" else "lost on time"
            raise ApiError(409, f"the game was {how}; it cannot be taken back")
        if not match.persons:
            raise ApiError(409, "no seat is played by a person here")
        if match.over:
            raise ApiError(409, "the game is over; moves of a finished game cannot be taken back")

    def undo(self, match_id: str, tokens: list[str] = ()) -> Match:
        """Take back at once to the start of the latest turn of a seat ``tokens`` hold, when
        they hold every person seat (against the computer, pass and play); with other people
        at the match it is 409: ask them (:meth:`request_takeback`). Never past an action that
        revealed something (409)."""
        with self.lock:
            match = self.tick(self.load(match_id))
            held = self.authorize(match, tokens)
            self._check_undoable(match)
            others = [p for p in match.persons if p not in held]
            if others:
                raise ApiError(409, f"seat{'s' if len(others) > 1 else ''} {', '.join(map(str, others))} "
                                    "also played by people: ask for a takeback (POST …/takeback)")
            return self._take_back(match, self._undo_target(match, held & set(match.persons)))

    def request_takeback(self, match_id: str, tokens: list[str] = ()) -> Match:
        """Ask the other people at the match to take back to the start of the requester's
        latest turn (done at once when nobody else needs to agree). 409 if one is pending, or
        the takeback is impossible (see :meth:`undo`). Any move cancels the request."""
        with self.lock:
            match = self.tick(self.load(match_id))
            held = self.authorize(match, tokens)
            self._check_undoable(match)
            mine = held & set(match.persons)
            target = self._undo_target(match, mine)
            if all(p in held for p in match.persons):
                return self._take_back(match, target)
            if match.live.takeback is not None:
                raise ApiError(409, f"seat {match.live.takeback['by']} already asked for a takeback")
            trial = self._copy(match)
            trial.live.takeback = {"by": min(mine), "to_ply": target, "at_ply": match.ply, "accepted": []}
            return self._replace(match, trial)

    def answer_takeback(self, match_id: str, accept: Any, tokens: list[str] = ()) -> Match:
        """Accept or decline the pending takeback for the seats ``tokens`` hold; it happens
        once every other person seat accepted, any decline drops it, and the asking seat may
        withdraw it (decline). 409 when none is pending, 403 for the asker accepting."""
        if not isinstance(accept, bool):
            raise ApiError(422, "field 'accept' must be true or false")
        with self.lock:
            match = self.tick(self.load(match_id))
            held = self.authorize(match, tokens)
            pending = match.live.takeback
            if pending is None or match.over:
                raise ApiError(409, "no takeback request is pending")
            answering = {p for p in held if p in match.persons and p != pending["by"]}
            if not answering and not (pending["by"] in held and not accept):
                raise ApiError(403, "the other players answer a takeback request, not the seat that asked")
            trial = self._copy(match)
            if not accept:
                trial.live.takeback = None
                return self._replace(match, trial)
            accepted = sorted(set(pending["accepted"]) | answering)
            if all(p in accepted for p in match.persons if p != pending["by"]):
                return self._take_back(match, self._undo_target(match, {pending["by"]}))
            trial.live.takeback = {**pending, "accepted": accepted}
            return self._replace(match, trial)

    def claim_flag(self, match_id: str, tokens: list[str] = ()) -> Match:
        """Any seat's token: apply a fallen flag now (the server also does it by itself on
        the next request or live update). 409 if no flag has fallen."""
        with self.lock:
            match = self.load(match_id)
            self.authorize(match, tokens)
            before = match.revision
            match = self.tick(match)
            if match.revision == before:
                live = match.live
                if live.clock is None:
                    raise ApiError(409, "this match has no clock")
                if live.running is None:
                    raise ApiError(409, "no clock is running")
                raise ApiError(409, f"seat {live.running} has {live.left(live.running, time.time()):.1f} s left")
            return match

    @staticmethod
    def _movers(match: Match) -> list[int]:
        state = match.initial.clone()
        out = []
        for action in match.actions:
            out.append(state.current_player())
            state.apply_action(action)
        return out

    def _movers_cached(self, match: Match) -> list[int]:
        cached = getattr(match, "_movers_cache", None)
        if cached is None or len(cached) != match.ply:
            cached = self._movers(match)
            match._movers_cache = cached  # type: ignore[attr-defined]
        return cached

    def resign(self, match_id: str, seat: Any, tokens: list[str] = ()) -> Match:
        """``seat`` (default: the person to move if ``tokens`` hold it, else the one seat they
        hold) resigns; ``tokens`` must hold it (401/403)."""
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise ApiError(422, f"seat {clip(seat)} does not exist in this game")
        with self.lock:
            match = self.tick(self.load(match_id))
            held = self.authorize(match, tokens)
            if match.over:
                raise ApiError(409, "the game is over")
            if seat is None:
                mine = sorted(held & set(match.persons))
                mover = match.to_move()
                seat = mover if mover in mine else (mine[0] if len(mine) == 1 else None)
                if seat is None:
                    raise ApiError(422, "field 'seat' is required: which seat resigns")
            if not 0 <= seat < len(match.players):
                raise ApiError(422, f"seat {clip(seat)} does not exist in this game")
            if match.players[seat] != "human":
                raise ApiError(409, f"seat {seat} is played by the computer and cannot resign")
            self.authorize(match, tokens, seat)
            trial = self._copy(match)
            self._stop_clock(trial, time.time(), increment=False)
            trial.result = resignation_returns(len(match.players), seat)
            trial.termination = "resignation"
            trial.live.takeback = None
            self.thinking.pop(match_id, None)
            return self._replace(match, trial)

    # --- bots -------------------------------------------------------------------------------
    def _schedule_bot(self, match: Match) -> None:
        """If a bot is to move, start its computation (lock held)."""
        if self.closed or match.over:
            return
        mover = match.to_move()
        if mover is None or not bots.is_bot(match.players[mover]):
            return
        if self.thinking.get(match.id) == match.revision:
            return
        self.thinking[match.id] = match.revision
        spec = match.players[mover]
        record_json = match.record().to_json(indent=None)
        # a stable seed: hash() of a str changes with every process (PYTHONHASHSEED)
        seed = zlib.crc32(f"{match.id}:{match.ply}".encode()) & 0x7FFFFFFF
        try:
            future = self.pool().submit(bots.choose_action, record_json, spec, seed)
        except cf.BrokenExecutor:  # a worker died: start a fresh pool
            self._pool = None
            try:
                future = self.pool().submit(bots.choose_action, record_json, spec, seed)
            except RuntimeError:
                self.thinking.pop(match.id, None)
                return
        except RuntimeError:  # pool shut down
            self.thinking.pop(match.id, None)
            return
        revision, ply = match.revision, match.ply

        def done(fut: cf.Future) -> None:
            if self.closed:
                return
            try:
                self._applier.submit(self._apply_bot, match.id, revision, ply, fut, spec)
            except RuntimeError:
                pass

        future.add_done_callback(done)

        def watchdog() -> None:  # a bot that never answers must not stall the game
            if not self.closed and self.thinking.get(match.id) == revision:
                try:
                    self._applier.submit(self._apply_bot, match.id, revision, ply, None, spec)
                except RuntimeError:
                    pass

        timer = threading.Timer(bots.timeout_for(spec), watchdog)
        timer.daemon = True
        timer.start()

    def _apply_bot(self, match_id: str, revision: int, ply: int, fut: cf.Future | None,
                   spec: str) -> None:
        if fut is None:
            text, error = None, f"{spec} did not answer in time"
        else:
            try:
                text, error = fut.result(timeout=0), None
            except Exception as exc:  # noqa: BLE001
                text, error = None, f"{type(exc).__name__}: {exc}"
        with self.lock:
            if self.closed or self.thinking.get(match_id) != revision:
                return
            self.thinking.pop(match_id, None)
            try:
                match = self.load(match_id)
            except ApiError:
                return
            if match.revision != revision or match.ply != ply or match.over:
                return
            trial = self._copy(match)
            try:
                if text is None:
                    raise AbstractaError(error or "no move")
                action = trial.state.string_to_action(text)
            except Exception as exc:  # noqa: BLE001 - fall back to a random legal move
                self.bot_errors[match_id] = str(exc)
                import random

                action = random.choice(trial.state.legal_actions())
            trial.strings.append(trial.state.action_to_string(action))
            trial.state.apply_action(action)
            trial.actions.append(action)
            self._finish_if_over(trial)
            self._after_actions(trial, time.time())
            try:
                match = self._replace(match, trial)
            except Exception as exc:  # noqa: BLE001
                self.bot_errors[match_id] = str(exc)
                return
            self._schedule_bot(match)

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
                raise ApiError(422, f"seat {clip(seat)} does not exist in this game (0…{n - 1})")
            if seat not in held:
                raise ApiError(403, f"no token given holds seat {seat}: a spectator sees public "
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
        """``state.to_struct`` for ``viewer``; a finished game reveals everything, but the
        struct is still the viewer's (its hooks decide what a finished game shows)."""
        return state.to_struct(viewer)

    def record_json(self, match: Match) -> str:
        """The record for a client: refused (409) while hidden cards are still hidden, because
        its seed rebuilds every hand and the stock (the stored record keeps the seed)."""
        if match.hides_cards:
            raise ApiError(409, "the record of a game with hidden cards is available when it is over")
        return match.record().to_json()

    def delete(self, match_id: str, tokens: list[str] = ()) -> None:
        """Forget the match ``match_id`` (404 if absent); ``tokens`` must hold one of its
        seats (401/403). A bot thinking there is ignored."""
        with self.lock:
            match = self.load(match_id)
            self.authorize(match, tokens)
            self.store.delete(match_id)
            self.cache.pop(match_id, None)
            self.thinking.pop(match_id, None)
            self.bot_errors.pop(match_id, None)

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
        spectator). Legal moves only for a held seat to move."""
        viewer = self.viewer(match, held, seat)
        mover = match.to_move()
        human_to_move = mover is not None and match.players[mover] == "human"
        show_legal = human_to_move and mover in held
        legal = match.state.legal_action_strings() if show_legal else []
        game = match.game
        pending = match.live.takeback
        return {
            "id": match.id,
            "game": game.name,
            "title": game.title,
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
            "thinking": match.id in self.thinking,
            "position": self.position(match, match.state, viewer),
            "struct": self.struct(match, match.state, viewer),
            "legal": legal,
            "turns": self._turns(match) if show_legal else None,
            "last_action": match.strings[-1] if match.strings else None,
            "moves": match.strings,
            "movers": self._movers_cached(match),
            "record_moves": match.record().moves,
            "result": match.result,
            "termination": match.termination,
            "status": "over" if match.over else "playing",
            "created": match.tags.get("date"),
            "clock": self.clock_view(match),
            "takeback": dict(pending) if pending is not None else None,
            # the refused move of a computer seat may name a card of its hidden hand
            "bot_error": (None if match.id not in self.bot_errors else
                          "the computer's move was refused; it played a random move instead"
                          if match.hides_cards else self.bot_errors[match.id]),
        }

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
        if not match.game.has_hidden_information:
            return False
        mine = [i for i in match.persons if i in held]
        if len(mine) < 2:
            return False
        try:
            return len({match.state.observation(i) for i in mine}) > 1
        except Exception:  # noqa: BLE001
            return True

    def positions(self, match: Match, held: set[int] = frozenset(),
                  seat: Any = None) -> tuple[list[str], list[dict[str, Any]]]:
        """The position text and the structured view after each ply (index 0 = start), as the
        viewer of :meth:`viewer` may see them."""
        viewer = self.viewer(match, held, seat)
        state = match.initial.clone()
        texts, structs = [self.position(match, state, viewer)], [self.struct(match, state, viewer)]
        for action in match.actions:
            state.apply_action(action)
            texts.append(self.position(match, state, viewer))
            structs.append(self.struct(match, state, viewer))
        return texts, structs


__all__ = ["ApiError", "Live", "Match", "MatchService", "digest"]
