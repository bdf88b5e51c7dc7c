"""Matches in play: rules, persistence and bots together (issue 7 §1–§3).

A :class:`Match` is one game being played: the Game, its initial state, the actions applied so
far and the current state, plus who sits at each seat. :class:`MatchService` keeps matches in
memory, loads them from the store by replaying their record, writes every accepted change in
one transaction *before* the in-memory match changes, and runs bot moves in a process pool.

Every method raises :class:`ApiError` (status, message) for a bad request; the match it was
aimed at is then unchanged.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import secrets
import threading
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


def _check_seats(seats: Any, n: int, field_name: str = "seats") -> list[str]:
    if seats is None:
        return ["human"] + ["level:1"] * (n - 1)
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise ApiError(422, f"{field_name} must be a list of strings ('human' or 'level:1' … 'level:6')")
    if len(seats) != n:
        raise ApiError(422, f"{field_name} lists {len(seats)} entries, the game has {n} players")
    for i, spec in enumerate(seats):
        if not bots.SEAT_SPEC.match(spec.strip()):
            raise ApiError(422, f"{field_name}: seat {i}: {clip(spec)} is not 'human' or 'level:1' … 'level:6'")
    return [s.strip() for s in seats]


class MatchService:
    """All matches of one server. Thread-safe (one lock; requests are short)."""

    def __init__(self, store: Store, bot_workers: int = 2):
        self.store = store
        self.lock = threading.RLock()
        self.cache: dict[str, Match] = {}
        self.thinking: dict[str, int] = {}  # match id -> revision the bot is thinking at
        self.bot_errors: dict[str, str] = {}
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
                          row.revision, action_strings(initial, actions))
            self.cache[match_id] = match
            return match

    def _commit(self, match: Match, *, new: bool = False) -> None:
        """Write ``match`` (already updated in a trial copy) to the store; raises on failure."""
        record = match.record()
        status = "over" if match.over else "playing"
        self.store.save(match.id, match.game.name, record.to_json(indent=None), status,
                        match.revision, match.ply, None if new else match.revision - 1)

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
                     match.termination, match.revision, list(match.strings))

    # --- creating ---------------------------------------------------------------------------
    def create(self, game_name: Any, options: Any, seats: Any) -> Match:
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
        return self._store_new(match)

    def import_record(self, data: Any, seats: Any = None) -> Match:
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
            if termination == "resignation":
                raise ApiError(422, "record.termination: 'resignation', but the game ended by the rules "
                                    f"after ply {len(record.moves)}; use 'normal'")
            result, termination = [float(r) for r in state.returns()], "normal"
        elif termination == "normal":
            raise ApiError(422, "record.termination: 'normal', but the game is not over by the rules")
        elif termination == "resignation" and (result is None or -1.0 not in result):
            raise ApiError(422, "record.result: a resigned game needs a result with the loser at -1")
        elif termination != "resignation":  # abandoned or none: the game continues here
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
        return self._store_new(match)

    def _store_new(self, match: Match) -> Match:
        with self.lock:
            try:
                self._commit(match, new=True)
            except AbstractaError as exc:
                raise ApiError(422, str(exc)) from None
            self.cache[match.id] = match
            self._schedule_bot(match)
        return match

    # --- playing ----------------------------------------------------------------------------
    def play(self, match_id: str, text: Any, ply: Any, seat: Any = None) -> Match:
        """Apply the human move ``text`` chosen at ``ply``; 409 if ``ply`` is not current.

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
            match = self.load(match_id)
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
            trial = self._copy(match)
            for index, item in enumerate(texts):
                if index and trial.state.current_player() != mover:
                    raise ApiError(422, f"{clip(item)}: the turn was over after {clip(texts[index - 1])}")
                for action in self._parse(trial, item.strip()):
                    trial.strings.append(trial.state.action_to_string(action))
                    trial.state.apply_action(action)
                    trial.actions.append(action)
            self._finish_if_over(trial)
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
        if match.state.is_terminal():
            match.result = [float(r) for r in match.state.returns()]
            match.termination = "normal"

    def undo(self, match_id: str) -> Match:
        """Take back to the start of the latest turn of a human seat (before the current ply)."""
        with self.lock:
            match = self.load(match_id)
            if match.termination == "resignation":
                raise ApiError(409, "the game was resigned; it cannot be taken back")
            if "human" not in match.players:
                raise ApiError(409, "no seat is played by a person here")
            if match.over:
                raise ApiError(409, "the game is over; moves of a finished game cannot be taken back")
            movers = self._movers(match)
            target = None
            for p in range(match.ply - 1, -1, -1):
                if match.players[movers[p]] == "human" and (p == 0 or movers[p - 1] != movers[p]):
                    target = p
                    break
            if target is None:
                raise ApiError(409, "there is no earlier turn of a person to take back to")
            trial = self._copy(match)
            trial.actions = trial.actions[:target]
            trial.strings = trial.strings[:target]
            trial.state = match.state_at(target)
            trial.result = None
            trial.termination = None
            self._finish_if_over(trial)
            self.thinking.pop(match_id, None)
            match = self._replace(match, trial)
            self._schedule_bot(match)
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

    def resign(self, match_id: str, seat: Any) -> Match:
        with self.lock:
            match = self.load(match_id)
            if match.over:
                raise ApiError(409, "the game is over")
            if seat is None:
                humans = [i for i, p in enumerate(match.players) if p == "human"]
                mover = match.to_move()
                seat = mover if mover in humans else (humans[0] if len(humans) == 1 else None)
                if seat is None:
                    raise ApiError(422, "field 'seat' is required: which seat resigns")
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(match.players):
                raise ApiError(422, f"seat {clip(seat)} does not exist in this game")
            if match.players[seat] != "human":
                raise ApiError(409, f"seat {seat} is played by the computer and cannot resign")
            trial = self._copy(match)
            trial.result = resignation_returns(len(match.players), seat)
            trial.termination = "resignation"
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
        seed = (hash((match.id, match.ply)) & 0x7FFFFFFF)
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
            try:
                match = self._replace(match, trial)
            except Exception as exc:  # noqa: BLE001
                self.bot_errors[match_id] = str(exc)
                return
            self._schedule_bot(match)

    # --- views ------------------------------------------------------------------------------
    def viewer_seat(self, match: Match, seat: Any) -> int | None:
        """The seat whose eyes a view uses (hidden information), or None for the full position."""
        n = len(match.players)
        if seat is not None:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
                raise ApiError(422, f"seat {clip(seat)} does not exist in this game (0…{n - 1})")
            if match.hides_cards and match.players[seat] != "human":
                raise ApiError(403, f"seat {seat} is played by the computer: its cards stay hidden "
                                    "until the game is over")
            return seat
        if not match.game.has_hidden_information:
            return None
        humans = [i for i, p in enumerate(match.players) if p == "human"]
        if not humans or match.over:
            return None
        mover = match.to_move()
        if mover in humans:
            return mover
        return humans[0]

    def struct_viewer(self, match: Match, seat: Any) -> int | None:
        """Whose eyes the structured view uses: the seat asked for; else the person to move, or
        the only person at the match; else a spectator (``None``). Hidden information: as
        :meth:`viewer_seat` (a computer seat's view is refused)."""
        if match.game.has_hidden_information:
            return self.viewer_seat(match, seat)
        n = len(match.players)
        if seat is not None:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
                raise ApiError(422, f"seat {clip(seat)} does not exist in this game (0…{n - 1})")
            return seat
        humans = [i for i, p in enumerate(match.players) if p == "human"]
        mover = match.to_move()
        if mover in humans:
            return mover
        return humans[0] if len(humans) == 1 else None

    @staticmethod
    def position(match: Match, state: State, seat: int | None) -> str:
        if seat is None or not match.game.has_hidden_information:
            return state.to_text()
        return state.observation(seat)

    def record_json(self, match: Match) -> str:
        """The record for a client: refused (409) while hidden cards are still hidden, because
        its seed rebuilds every hand and the stock (the stored record keeps the seed)."""
        if match.hides_cards:
            raise ApiError(409, "the record of a game with hidden cards is available when it is over")
        return match.record().to_json()

    def delete(self, match_id: str) -> None:
        """Forget the match ``match_id`` (404 if absent); a bot thinking there is ignored."""
        with self.lock:
            self.load(match_id)
            self.store.delete(match_id)
            self.cache.pop(match_id, None)
            self.thinking.pop(match_id, None)
            self.bot_errors.pop(match_id, None)

    def view(self, match: Match, seat: int | None) -> dict[str, Any]:
        mover = match.to_move()
        human_to_move = mover is not None and match.players[mover] == "human"
        show_legal = human_to_move and (seat is None or seat == mover)
        legal = match.state.legal_action_strings() if show_legal else []
        viewer = self.viewer_seat(match, seat)
        game = match.game
        return {
            "id": match.id,
            "game": game.name,
            "title": game.title,
            "options": match.record().options,
            # the seed fixes every hidden card: only shown once a hidden-information game is over
            "seed": (match.initial.seed if game.has_chance and not match.hides_cards else None),
            "players": match.players,
            "num_players": len(match.players),
            "seats": [{"name": str(st.name) if st.name is not None else None, "colour": st.colour, "ink": st.ink}
                      for st in game.description.seats],
            "board": dict(game.description.board),
            "board_module": f"/games/{game.name}/board.js" if game.description.web is not None else None,
            "hidden_information": game.has_hidden_information,
            "private_views": self._private_views(match),
            "viewer": viewer,
            "ply": match.ply,
            "revision": match.revision,
            "to_move": mover,
            "human_to_move": human_to_move,
            "thinking": match.id in self.thinking,
            "position": self.position(match, match.state, viewer),
            "struct": match.state.to_struct(self.struct_viewer(match, seat)),
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
    def _private_views(match: Match) -> bool:
        """Whether the persons at this match see different things (then two people sharing a
        device need a hand-over screen)."""
        if not match.game.has_hidden_information:
            return False
        humans = [i for i, p in enumerate(match.players) if p == "human"]
        if len(humans) < 2:
            return False
        try:
            return len({match.state.observation(i) for i in humans}) > 1
        except Exception:  # noqa: BLE001
            return True

    def positions(self, match: Match, seat: int | None) -> tuple[list[str], list[dict[str, Any]]]:
        """The position text and the structured view after each ply (index 0 = start), as the
        viewer of :meth:`struct_viewer` may see them."""
        viewer = self.viewer_seat(match, seat)
        struct_viewer = self.struct_viewer(match, seat)
        state = match.initial.clone()
        texts, structs = [self.position(match, state, viewer)], [state.to_struct(struct_viewer)]
        for action in match.actions:
            state.apply_action(action)
            texts.append(self.position(match, state, viewer))
            structs.append(state.to_struct(struct_viewer))
        return texts, structs


__all__ = ["ApiError", "Match", "MatchService"]
