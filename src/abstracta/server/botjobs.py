"""Computer moves as jobs (issue 14 §3): what a job is and where it runs.

A :class:`BotJob` is one computer move to find: the acting seat's information state (never the
match's seed), the seat spec and a fresh seed for the bot's own generator (:func:`make_job`), or
an analysis board's positions (:func:`make_analysis_job`); :func:`run_job` finds its answer
from the job alone, in whatever process runs it. Executors run jobs: for the deep lane ``N``
local worker processes (``--bot-workers N``, at a lower CPU priority than the web process), one
thread (``0``, for tests) or Ray tasks (``ray`` or ``ray:ADDRESS``): :func:`make_executor`; for
the fast lane one worker process of its own, a little below the web process's priority, or a
thread with ``--bot-workers 0`` (:func:`make_fast_executor`). Each executor adds up the CPU its
searches took (``searched``, where ``where`` says). The lanes that schedule jobs fairly, cancel
them and fall back to a quick search are :class:`abstracta.server.lanes.BotJobs`.

Threads: nothing per move (a process executor uses pipes and
:func:`multiprocessing.connection.wait`; Ray uses ``ray.wait``).
"""

from __future__ import annotations

import atexit
import dataclasses
import itertools
import json
import logging
import multiprocessing
import os
import queue
import random
import secrets
import threading
import time
import weakref
from dataclasses import dataclass
from multiprocessing.connection import wait as wait_connections
from typing import Any, Callable

from ..ai.analysis import analyse, analysis_budget
from ..ai.base import stoppable
from ..ai.levels import LEVELS, make_bot
from ..core.options import ascii_digits
from ..core.records import Record
from ..core.registry import load_game
from ..executors import start_ray
from . import bots

log = logging.getLogger("abstracta.server.bots")

#: Seat specs answered in the fast lane (budget-free bots).
FAST_SPECS = frozenset({"level:1", "level:2", "random", "greedy"})
#: The quick search a fallback plays.
FALLBACK_SPEC = "level:2"
#: The error of a job whose worker process died under it (the fast lane answers it in-thread).
WORKER_DIED = "its worker process died"
#: CPU priority of the fast lane's worker (``os.nice``): a little below the web process, which
#: answers people first, and well above the deep lane's workers (:data:`DEEP_NICE`).
FAST_NICE = 2
#: CPU priority of the deep lane's workers: well below the web process and the fast worker, so
#: that a person's move and a level 1-2 reply preempt a deep search at once. A level's budget is
#: CPU seconds (thread time), so a search that waits for the processor plays as well; only its
#: answer comes later on a busy machine. 10 rather than 5 (load.py, three alternating pairs of
#: runs at 100 games): people's round trips p50 19-29 against 36-55 ms, p99 131-199 against
#: 144-226 ms, level 1-2 replies p99 303-387 against 416-554 ms; level 3's answer p50 1.5-2.4
#: against 1.1-3.7 s.
DEEP_NICE = 10

#: Seconds before a worker whose start failed (``OSError``: out of file descriptors or
#: processes) is tried again: after 1, 2, 4, then every 8 s.
RESPAWN_DELAYS = (1.0, 2.0, 4.0, 8.0)

_ids = itertools.count(1)


@dataclass(frozen=True)
class BotJob:
    """One computer move to find.

    Attributes:
        id: unique in this web process.
        match_id, revision, ply: the match and the revision/ply the move is for (an answer for
            another revision is dropped by the service).
        seat: the acting seat.
        spec: seat spec of the bot (``level:N`` or any :func:`~abstracta.ai.levels.make_bot` spec).
        game: game name; ``options``: its options without ``seed``.
        record: the public record as JSON (games with perfect information and no chance), or
        position: a state drawn from the seat's information state, as position text (games with
            hidden information or chance: their record and position text hold the seed or the
            generator state, i.e. every future card).
        seed: seed of the bot's own generator (fresh, unrelated to the match).
        seconds: the bot's time budget (None: budget-free).
        note: why this job is a fallback for another one (None: a first try).
        analysis: an analysis board job instead of a move (:func:`make_analysis_job`): its
            payload as JSON; the answer is the analyses as JSON.
    """

    id: int
    match_id: str
    revision: int
    ply: int
    seat: int
    spec: str
    game: str
    options: dict[str, Any]
    record: str | None
    position: str | None
    seed: int
    seconds: float | None
    note: str | None = None
    analysis: str | None = None

    @property
    def fast(self) -> bool:
        return self.spec in FAST_SPECS

    def fallback(self, reason: str) -> "BotJob":
        """The quick search of the same information state that answers when this job cannot."""
        return dataclasses.replace(self, id=next(_ids), spec=FALLBACK_SPEC, seconds=None,
                                   note=f"{self.spec} {reason}; a quick search ({FALLBACK_SPEC}) played instead")


def spec_seconds(spec: str) -> float | None:
    """The time budget of a seat spec: a level's seconds, ``kind:SECONDS``, else None."""
    kind, _, arg = spec.partition(":")
    if kind == "level":
        level = LEVELS.get(int(arg)) if ascii_digits(arg) else None
        return level.seconds if level is not None else None
    try:
        return float(arg) if arg else None
    except ValueError:
        return None


#: States drawn from an information state before giving up on one with the real legal actions.
DRAWS = 8


class InfoStateError(ValueError):
    """A resampled information state does not have the acting seat's legal actions: the game's
    legal actions would depend on information the seat does not have."""


def make_job(match: Any, spec: str, rng: random.Random | None = None) -> BotJob:
    """The job for the seat to move in ``match`` (a :class:`~abstracta.server.matches.Match`).

    Perfect information without chance: the public record. Hidden information or chance: one
    state drawn with ``resample_from_infostate(seat, rng)`` from a fresh generator (``rng``,
    default one seeded from :mod:`secrets`), as text. The drawn state must have the seat's legal
    actions (a player knows what he may do; every game here satisfies it): up to :data:`DRAWS`
    draws are tried, then :class:`InfoStateError` — the service then plays no move and shows the
    error rather than send the real state, since a worker may be another machine.
    """
    game = match.game
    state = match.state
    seat = state.current_player()
    options = {k: v for k, v in game.non_default_options().items() if k != "seed"}
    record = position = None
    if game.has_hidden_information or game.has_chance:
        rng = rng or random.Random(secrets.randbits(64))
        legal = sorted(state.legal_actions())
        for _ in range(DRAWS):
            drawn = state.resample_from_infostate(seat, rng)
            if drawn.current_player() == seat and sorted(drawn.legal_actions()) == legal:
                break
        else:
            raise InfoStateError(f"{game.name}: {DRAWS} states drawn from seat {seat}'s information state "
                                 "all have other legal actions than the real one")
        position = drawn.to_text()
    else:
        data = json.loads(match.record().to_json(indent=None))
        data["seed"] = None
        if isinstance(data.get("options"), dict):
            data["options"].pop("seed", None)
        record = json.dumps(data)
    return BotJob(next(_ids), match.id, match.revision, match.ply, seat, spec, game.name, options,
                  record, position, secrets.randbits(31), spec_seconds(spec))


def make_analysis_job(record_json: str, points: list[tuple[int, int | None]], scale: float,
                      seconds: float) -> BotJob:
    """An analysis board job for the positions after each ``(ply, viewer)`` of ``points`` in the
    record ``record_json`` (the real game, built in the web process), carrying only what each
    viewer may know, as a move job does: perfect information without chance, the record without
    its seed; otherwise, per point, a state drawn from the viewer's information state (the mover's
    when ``viewer`` is None) — a finished position is public and goes as it is. The draw's
    generator is seeded from the point, so an analysis stays deterministic (the games draw from
    what the viewer knows only, never from the hidden order). ``seconds``: the deep lane's budget
    before the search is asked for its best so far.

    Raises :class:`abstracta.RecordError` if the record does not replay, ``ValueError`` for a
    ply outside it."""
    record = Record.from_json(record_json)
    game = record.make_game()
    options = {k: v for k, v in game.non_default_options().items() if k != "seed"}
    payload: dict[str, Any] = {"scale": scale, "points": []}
    if game.has_hidden_information or game.has_chance:
        state = record.initial_state(game)
        actions = record.replay()[1]
        at = 0
        for ply, viewer in points:
            if not 0 <= ply <= len(actions) or ply < at:
                raise ValueError(f"ply {ply} is not in the record (0…{len(actions)}, in order)")
            while at < ply:
                state.apply_action(actions[at])
                at += 1
            seat = viewer if viewer is not None else state.current_player()
            if state.is_terminal() or seat < 0:
                text = state.to_text()
            else:
                text = state.resample_from_infostate(seat, random.Random(ply * 64 + seat)).to_text()
            payload["points"].append({"ply": ply, "viewer": viewer, "position": text})
    else:
        data = json.loads(record_json)
        data["seed"] = None
        if isinstance(data.get("options"), dict):
            data["options"].pop("seed", None)
        payload["record"] = json.dumps(data)
        payload["points"] = [{"ply": p, "viewer": v} for p, v in points]
    n = next(_ids)
    return BotJob(n, f"analysis-{n}", 0, 0, 0, "analysis", game.name, options, None, None, 0,
                  seconds / 2, analysis=json.dumps(payload))


def run_analysis(job: BotJob, stop: threading.Event | None = None) -> str:
    """The analyses of an analysis job (what a worker runs), as JSON: one
    ``Analysis.to_dict()`` per point (``abstracta.ai.analysis.analyse``)."""
    payload = json.loads(job.analysis)
    game = load_game(job.game, **job.options)
    budget = max(1, int(round(analysis_budget(game) * payload["scale"])))
    out = []
    with stoppable(stop if stop is not None else threading.Event()):
        if "record" in payload:
            record = Record.from_json(payload["record"])
            state = record.initial_state(game)
            actions = record.replay()[1]
            at = 0
            for point in payload["points"]:
                ply = point["ply"]
                if not 0 <= ply <= len(actions) or ply < at:
                    raise ValueError(f"ply {ply} is not in the record (0…{len(actions)}, in order)")
                while at < ply:
                    state.apply_action(actions[at])
                    at += 1
                out.append(analyse(state, point["viewer"], budget).to_dict())
        else:
            for point in payload["points"]:
                state = game.state_from_text(point["position"])
                out.append(analyse(state, point["viewer"], budget).to_dict())
    return json.dumps(out)


def job_state(job: BotJob):
    """The state a job's bot searches from (rebuilt from the job alone)."""
    if job.record is not None:
        state, _ = Record.from_json(job.record).replay()
        return state
    game = load_game(job.game, **job.options)
    return game.state_from_text(job.position)


def run_job(job: BotJob, stop: threading.Event | None = None) -> str:
    """Find the job's move: the notation of the action its bot plays (what a worker runs).

    ``stop``: once set, a search answers its best action so far. Raises ``ValueError`` when the
    job's state is over or not the seat's turn, or the bot answers an illegal action. An
    analysis job answers its analyses (:func:`run_analysis`)."""
    if job.analysis is not None:
        return run_analysis(job, stop)
    state = job_state(job)
    if state.is_terminal() or state.current_player() != job.seat:
        raise ValueError(f"seat {job.seat} is not to move in the job's state")
    bot = make_bot(job.spec, state.game, seed=job.seed)
    if bot is None:
        raise ValueError(f"seat spec {job.spec!r} is not a computer player")
    with stoppable(stop if stop is not None else threading.Event()):
        action = bot.step(state.clone())
    if action not in state.legal_actions():
        raise ValueError(f"{job.spec} chose action {action!r}, which is not legal here")
    return state.action_to_string(action)


def overrun(seconds: float | None) -> float:
    """Seconds after a deep job began at which it is asked to stop (its budget plus a margin
    for a loaded machine)."""
    budget = seconds or 0.0
    return budget + max(3.0, budget)


# --------------------------------------------------------------------------- executors
Outcome = tuple[int, "str | None", "str | None"]  # (job id, notation or None, error or None)


class ThreadExecutor:
    """Jobs in one thread of the web process (``--bot-workers 0``: tests; and the fast lane with
    an executor object given). ``searched``: CPU seconds its jobs took (the thread's)."""

    name = "thread"
    where = "web"

    def __init__(self, run: Callable[[BotJob, threading.Event], str] = run_job, thread: str = "bot-deep-thread"):
        self.capacity = 1
        self.run = run
        self.searched = 0.0
        self._jobs: queue.Queue = queue.Queue()
        self._done: queue.Queue = queue.Queue()
        self._stops: dict[int, threading.Event] = {}
        self._began: dict[int, float] = {}
        self._thread = threading.Thread(target=self._loop, name=thread, daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            stop = self._stops.get(job.id) or threading.Event()
            self._began[job.id] = time.monotonic()
            cpu = time.thread_time()
            try:
                outcome = (job.id, self.run(job, stop), None)
            except Exception as exc:  # noqa: BLE001 - reported as the job's error
                outcome = (job.id, None, f"{type(exc).__name__}: {exc}")
            self.searched += time.thread_time() - cpu  # before the outcome: a poll that sees it sees this
            self._done.put(outcome)

    def start(self, job: BotJob) -> None:
        self._stops[job.id] = threading.Event()
        self._jobs.put(job)

    def stop(self, job_id: int) -> None:
        event = self._stops.get(job_id)
        if event is not None:
            event.set()

    def kill(self, job_id: int) -> None:
        self.stop(job_id)  # a thread cannot be killed; its answer will be dropped

    def began(self, job_id: int) -> float | None:
        return self._began.get(job_id)

    def wake(self) -> None:
        self._done.put(None)

    def poll(self, timeout: float) -> list[Outcome]:
        out = []
        try:
            item = self._done.get(timeout=timeout)
            while True:
                if item is not None:
                    self._stops.pop(item[0], None)
                    self._began.pop(item[0], None)
                    out.append(item)
                item = self._done.get_nowait()
        except queue.Empty:
            return out

    def close(self) -> None:
        for event in list(self._stops.values()):
            event.set()
        self._jobs.put(None)


def _worker_main(jobs, results, parent_pid: int, nice: int = DEEP_NICE,
                 run: Callable[[BotJob, threading.Event], str] = run_job) -> None:
    """A bot worker process: run the jobs it is sent, one at a time, with ``run`` (tests send a
    module-level fake); ``("stop", id)`` makes the running search answer its best so far. Each
    answer goes back as ``("done", (id, notation, error), cpu_seconds)``, the search thread's CPU."""
    bots.worker_init(parent_pid)
    try:
        os.nice(nice)  # the web process answers people first
    except OSError:
        pass
    todo: queue.Queue = queue.Queue()
    stops: dict[int, threading.Event] = {}

    def listen() -> None:
        while True:
            try:
                message = jobs.recv()
            except (EOFError, OSError):
                todo.put(None)
                return
            if message is None:
                todo.put(None)
                return
            kind, payload = message
            if kind == "job":
                stops[payload.id] = threading.Event()
                todo.put(payload)
            elif kind == "stop" and payload in stops:
                stops[payload].set()

    threading.Thread(target=listen, name="bot-listen", daemon=True).start()  # before the slow imports
    bots.warm_up()
    while True:
        job = todo.get()
        if job is None:
            return
        try:
            results.send(("started", job.id))
        except (OSError, ValueError):
            return
        cpu = time.thread_time()
        try:
            outcome = (job.id, run(job, stops[job.id]), None)
        except Exception as exc:  # noqa: BLE001 - reported to the server
            outcome = (job.id, None, f"{type(exc).__name__}: {exc}")
        cpu = time.thread_time() - cpu
        stops.pop(job.id, None)
        try:
            results.send(("done", outcome, cpu))
        except (OSError, ValueError):
            return


class _Worker:
    """One worker process and its pipes. Raises ``OSError`` when it cannot be started (out of
    file descriptors or processes), with nothing left open."""

    def __init__(self, ctx: Any, name: str, nice: int, run: Callable[[BotJob, threading.Event], str]):
        opened: list[Any] = []
        try:
            jobs_r, self.jobs = ctx.Pipe(duplex=False)
            opened += [jobs_r, self.jobs]
            self.results, results_w = ctx.Pipe(duplex=False)
            opened += [self.results, results_w]
            self.process = ctx.Process(target=_worker_main, name=name,
                                       args=(jobs_r, results_w, os.getpid(), nice, run), daemon=True)
            self.process.start()
        except BaseException:
            for conn in opened:
                conn.close()
            raise
        jobs_r.close()
        results_w.close()
        self.job: int | None = None
        self.began: float | None = None  # when the worker started self.job (monotonic)
        # whether it has sent anything since it was spawned: then it is up (its imports done), and
        # a job handed to it while idle begins at once (no startup allowance: a wedged worker is
        # given up after the lane's overrun)
        self.warm = False

    def end(self, kill: bool = False) -> None:
        try:
            self.jobs.send(None)
        except (OSError, ValueError):
            pass
        if kill and self.process.is_alive():
            self.process.kill()
        for conn in (self.jobs, self.results):
            conn.close()


#: the process executors alive in this process, closed when the interpreter exits
_LIVE: "weakref.WeakSet[ProcessExecutor]" = weakref.WeakSet()
_exiting = False


@atexit.register
def _close_at_exit() -> None:
    """Close every process executor before multiprocessing's own exit handler (registered
    earlier, so run later) terminates the daemonic workers and joins the rest: a lane thread
    that saw a worker terminated would start another, which that join then waits on forever
    (a test run on PostgreSQL hung after its summary so)."""
    global _exiting
    _exiting = True
    for executor in list(_LIVE):
        executor.close()


class ProcessExecutor:
    """Jobs in ``n`` worker processes (spawned), one job each at a time: the deep lane's
    (``--bot-workers N``) and the fast lane's one (:func:`make_fast_executor`).

    Args:
        n: worker processes.
        nice: added to the workers' niceness (:data:`DEEP_NICE`, :data:`FAST_NICE`).
        name: the workers' process name (``multiprocessing``'s, in logs).
        run: what a worker runs for a job: a module-level function (pickled by reference).

    A worker that dies is replaced; its job is reported with the error :data:`WORKER_DIED`. A
    worker that cannot be started then (``OSError``: out of file descriptors or processes) is
    tried again from :meth:`poll` after :data:`RESPAWN_DELAYS` (logged once a streak, counted in
    ``start_failures``); meanwhile ``capacity`` (the workers up) is smaller, so the lane keeps
    the jobs queued. ``searched``: CPU seconds the workers' searches took (as each measured its
    search thread).
    """

    name = "process"
    where = "worker"

    def __init__(self, n: int, nice: int = DEEP_NICE, name: str = "abstracta-bot",
                 run: Callable[[BotJob, threading.Event], str] = run_job):
        self.searched = 0.0
        self.start_failures = 0  # workers that could not be started (OSError), since it began
        self._ctx = multiprocessing.get_context("spawn")
        self._spawn = lambda: _Worker(self._ctx, name, nice, run)
        self._workers = [self._spawn() for _ in range(n)]
        self._missing = 0  # workers to start again (their start failed)
        self._failures = 0  # failed starts in a row (the back-off's index)
        self._retry_at = 0.0  # when to try again (monotonic)
        self._closed = False
        self._wake_r, self._wake_w = self._ctx.Pipe(duplex=False)
        _LIVE.add(self)

    @property
    def capacity(self) -> int:
        """Jobs it runs at once: its workers up (fewer while a start fails)."""
        return len(self._workers)

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has run (or the interpreter is exiting)."""
        return _exiting or self._closed

    def _of(self, job_id: int) -> _Worker | None:
        return next((w for w in self._workers if w.job == job_id), None)

    def start(self, job: BotJob) -> None:
        worker = next(w for w in self._workers if w.job is None)
        # a warm worker is idle: it begins the job now; a new one says when ("started")
        worker.job, worker.began = job.id, time.monotonic() if worker.warm else None
        try:
            worker.jobs.send(("job", job))
        except (OSError, ValueError):
            pass  # a dead worker: poll reports it

    def stop(self, job_id: int) -> None:
        worker = self._of(job_id)
        if worker is not None:
            try:
                worker.jobs.send(("stop", job_id))
            except (OSError, ValueError):
                pass

    def kill(self, job_id: int) -> None:
        """Give up on ``job_id``: its worker is killed and replaced (no answer comes)."""
        worker = self._of(job_id)
        if worker is not None:
            self._replace(worker)

    def _replace(self, worker: _Worker) -> None:
        worker.end(kill=True)
        worker.process.join(timeout=1.0)
        if _exiting or self._closed or worker not in self._workers:  # closing: no new worker to outlive us
            return
        self._workers.remove(worker)  # its pipes are closed: never waited on again
        self._missing += 1
        self._respawn()

    def _respawn(self) -> None:
        """Start the missing workers; on ``OSError`` try again after a back-off (never raises it:
        the lane's thread calls this and must survive)."""
        while self._missing and not (_exiting or self._closed):
            try:
                worker = self._spawn()
            except OSError as exc:
                self.start_failures += 1
                delay = RESPAWN_DELAYS[min(self._failures, len(RESPAWN_DELAYS) - 1)]
                if not self._failures:
                    log.warning("could not start a bot worker process (%s); trying again every %s-%s s "
                                "until one starts", exc, RESPAWN_DELAYS[0], RESPAWN_DELAYS[-1])
                self._failures += 1
                self._retry_at = time.monotonic() + delay
                return
            if self._closed:  # closed meanwhile (from another thread): nothing may outlive it
                worker.end(kill=True)
                return
            self._workers.append(worker)
            self._missing -= 1
            if self._failures:
                log.warning("a bot worker process started again after %d failed starts", self._failures)
                self._failures = 0

    def began(self, job_id: int) -> float | None:
        worker = self._of(job_id)
        return worker.began if worker is not None else None

    def wake(self) -> None:
        try:
            self._wake_w.send_bytes(b"")
        except (OSError, ValueError):
            pass

    def poll(self, timeout: float) -> list[Outcome]:
        if self.closed:  # (at exit: under the lane's thread)
            time.sleep(timeout)
            return []
        if self._missing:
            if time.monotonic() >= self._retry_at:
                self._respawn()
            if self._missing:  # wake up to try again
                timeout = max(0.0, min(timeout, self._retry_at - time.monotonic()))
        by_conn = {w.results: w for w in self._workers}
        by_sentinel = {w.process.sentinel: w for w in self._workers}
        try:
            ready = wait_connections([*by_conn, *by_sentinel, self._wake_r], timeout)
        except (OSError, ValueError):  # closed under us (the executor, or the interpreter exiting)
            return []
        out: list[Outcome] = []
        lost: list[_Worker] = []
        for item in ready:
            if item is self._wake_r:
                try:
                    while self._wake_r.poll():
                        self._wake_r.recv_bytes()
                except (OSError, ValueError, EOFError):  # closed meanwhile (close() from another thread)
                    return []
            elif item in by_conn:
                worker = by_conn[item]
                try:
                    kind, payload, *cpu = worker.results.recv()
                except (EOFError, OSError):
                    lost.append(worker)
                    continue
                worker.warm = True
                if kind == "started":
                    if payload == worker.job:
                        worker.began = time.monotonic()
                    continue
                outcome = payload
                self.searched += cpu[0] if cpu else 0.0
                if outcome[0] == worker.job:
                    worker.job = None
                    out.append(outcome)
            elif item in by_sentinel:
                lost.append(by_sentinel[item])
        for worker in dict.fromkeys(lost):
            if worker not in self._workers:
                continue
            if worker.job is not None:
                out.append((worker.job, None, WORKER_DIED))
            log.warning("a bot worker process died (exit code %s); starting another", worker.process.exitcode)
            self._replace(worker)
        return out

    def close(self) -> None:
        _LIVE.discard(self)
        self._closed = True
        workers, self._workers = self._workers, []
        for worker in workers:
            worker.end()
            if worker.process.is_alive():
                worker.process.terminate()
        for worker in workers:
            worker.process.join(timeout=1.0)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(timeout=1.0)
        self._wake_r.close()
        self._wake_w.close()


class RayExecutor:
    """Deep jobs as Ray tasks on the cluster at ``address`` (None: ``ray.init()``, a local one
    this executor shuts down when closed); cancellation by ``ray.cancel``."""

    name = "ray"
    where = "ray"  # not measured: a task answers its notation only (``searched`` stays 0)

    def __init__(self, address: str | None = None):
        self.searched = 0.0
        ray, self.started = start_ray(address=address)
        self.ray = ray
        self.capacity = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._remote = ray.remote(num_cpus=1, max_retries=0)(_ray_run)
        self._refs: dict[Any, int] = {}  # running task -> job id
        self._lock = threading.Lock()  # _refs: the dispatcher adds and removes, cancel looks up
        self._wake = threading.Event()

    def start(self, job: BotJob) -> None:
        ref = self._remote.remote(job)
        with self._lock:
            self._refs[ref] = job.id

    def _ref(self, job_id: int) -> Any:
        with self._lock:
            return next((ref for ref, jid in self._refs.items() if jid == job_id), None)

    def stop(self, job_id: int) -> None:
        ref = self._ref(job_id)
        if ref is not None:
            self.ray.cancel(ref)  # KeyboardInterrupt in the task: the search stops there

    def kill(self, job_id: int) -> None:
        ref = self._ref(job_id)
        if ref is not None:
            with self._lock:
                self._refs.pop(ref, None)
            self.ray.cancel(ref, force=True)

    def began(self, job_id: int) -> float | None:
        return None  # not known: a task may wait for a Ray worker to start

    def wake(self) -> None:
        self._wake.set()

    def poll(self, timeout: float) -> list[Outcome]:
        with self._lock:
            refs = list(self._refs)
        if not refs:
            self._wake.wait(timeout)
            self._wake.clear()
            return []
        ready, _ = self.ray.wait(refs, num_returns=len(refs), timeout=0)
        if not ready:
            ready, _ = self.ray.wait(refs, num_returns=1, timeout=timeout)
        out: list[Outcome] = []
        for ref in ready:
            with self._lock:
                job_id = self._refs.pop(ref, None)
            if job_id is None:
                continue
            try:
                text, error = self.ray.get(ref), None
            except Exception as exc:  # noqa: BLE001 - a cancelled, failed or lost task
                text, error = None, f"{type(exc).__name__}: {exc}"
            out.append((job_id, text, error))
        return out

    def close(self) -> None:
        with self._lock:
            refs = list(self._refs)
        for ref in refs:
            try:
                self.ray.cancel(ref, force=True)
            except Exception:  # noqa: BLE001
                pass
        self._refs.clear()
        if self.started:
            self.ray.shutdown()


def _ray_run(job: BotJob) -> str:
    return run_job(job)


def parse_workers(value: int | str) -> tuple[str, int | str | None]:
    """``--bot-workers``: ``N`` (N ≥ 0 local processes; 0: one thread), ``ray`` or
    ``ray:ADDRESS``. Returns ``("process", N)``, ``("thread", 0)`` or ``("ray", address)``.
    Raises ``ValueError`` naming the value."""
    if isinstance(value, int) and not isinstance(value, bool):
        n = value
    else:
        text = str(value).strip()
        if text == "ray" or text.startswith("ray:"):
            address = text[4:].strip() or None
            return "ray", address
        if not ascii_digits(text):
            raise ValueError(f"--bot-workers {value!r}: expected a number of processes, ray or ray:ADDRESS")
        n = int(text)
    if not 0 <= n <= 64:
        raise ValueError(f"--bot-workers {value!r}: expected 0 to 64 processes")
    return ("thread", 0) if n == 0 else ("process", n)


def make_executor(value: int | str):
    """The deep lane's executor for ``--bot-workers`` ``value`` (:func:`parse_workers`)."""
    kind, arg = parse_workers(value)
    if kind == "ray":
        return RayExecutor(arg)  # type: ignore[arg-type]
    if kind == "thread":
        return ThreadExecutor()
    return ProcessExecutor(arg)  # type: ignore[arg-type]


def make_fast_executor(value: int | str, run: Callable[[BotJob, threading.Event], str] = run_job):
    """The fast lane's executor for ``--bot-workers`` ``value``: one worker process of its own
    (``N`` ≥ 1 or Ray: a level-1 reply never waits behind a deep search, nor for a Ray task to
    be scheduled, and its search does not take the web process's GIL from the event loop), at
    :data:`FAST_NICE`; with ``0`` (no worker processes at all: tests, a tiny install) a thread
    running ``run``."""
    kind, _ = parse_workers(value)
    if kind == "thread":
        return ThreadExecutor(run, thread="bot-fast-thread")
    return ProcessExecutor(1, nice=FAST_NICE, name="abstracta-bot-fast")


__all__ = ["BotJob", "InfoStateError", "make_job", "make_analysis_job", "run_analysis", "run_job", "job_state",
           "make_executor", "make_fast_executor", "overrun", "parse_workers", "ProcessExecutor", "RayExecutor", "ThreadExecutor", "FAST_SPECS",
           "FALLBACK_SPEC", "WORKER_DIED", "FAST_NICE", "DEEP_NICE"]
