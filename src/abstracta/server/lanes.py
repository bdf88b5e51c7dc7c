"""The lanes of computer moves (issue 14 §3): fair, cancellable jobs.

:class:`BotJobs` runs :class:`~abstracta.server.botjobs.BotJob` s in two lanes:

* the **fast lane** (levels 1–2, ``random``, ``greedy``: milliseconds) in one thread of the web
  process, so a level-1 reply never waits behind deep searches;
* the **deep lane** (searches) on an executor (:func:`~abstracta.server.botjobs.make_executor`).
  Only as many jobs as the executor has slots are handed out; the rest wait in one queue, first
  come first served across matches — a match has at most one job at a time and queues again
  behind the others after its move, which is round robin.

Cancellation (:meth:`BotJobs.cancel`, on delete, undo, takeback, resignation, flag): a queued job
is dropped and never starts; a running one is asked to stop (its search ends at its next clock
check) and its answer is dropped. Deadlines: a search is anytime — its level's seconds are its
budget and it answers the best action of its last completed iteration. A job still running
``overrun(seconds)`` after it started is asked to stop (then it answers its best so far); one
that still does not answer, or whose worker died or was lost, is answered by a quick search
(level 2, greedy) of the *same* information state in the fast lane: a counted *fallback*, never
a random move.

Threads: the fast lane and the deep-lane dispatcher.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable

from . import metrics
from .botjobs import BotJob, make_executor, overrun, run_job

log = logging.getLogger("abstracta.server.bots")


@dataclass
class _Running:
    job: BotJob
    started: float
    stop_sent: float | None = None
    cancelled: bool = False


@dataclass
class Stats:
    """Counters of one :class:`BotJobs` (since it started)."""

    submitted: int = 0
    answered: int = 0
    cancelled: int = 0
    fallbacks: int = 0
    stopped: int = 0
    random_fallbacks: int = 0
    errors: list[str] = field(default_factory=list)


class BotJobs:
    """The job queue of one web process: a fast lane (thread) and a fair deep lane (executor).

    Args:
        workers: ``--bot-workers`` (see :func:`parse_workers`), or an executor object.
        on_done: called ``on_done(job, notation, note)`` from a lane thread when a job is
            answered (``note``: why a fallback answered, else None), or with notation ``None``
            and the error when not even the fallback could answer. Never for cancelled jobs.
        run: what the fast lane runs (tests inject slow fakes).
        overrun: seconds after its start at which a deep job of budget ``s`` is asked to stop.
        kill_after: seconds after the stop request at which it is given up (worker replaced,
            fallback played).
        startup: extra seconds allowed while the executor does not say that a job began (a
            worker still starting, a Ray task waiting for a worker).
    """

    def __init__(self, workers: int | str | Any = 2,
                 on_done: Callable[[BotJob, str | None, str | None], None] | None = None,
                 run: Callable[[BotJob, threading.Event], str] = run_job,
                 overrun: Callable[[float | None], float] = overrun, kill_after: float = 5.0,
                 startup: float = 30.0):
        self.executor = make_executor(workers) if isinstance(workers, (int, str)) else workers
        self.on_done = on_done or (lambda job, text, note: None)
        self.run = run
        self.overrun = overrun
        self.kill_after = kill_after
        self.startup = startup
        self.stats = Stats()
        self._cond = threading.Condition()
        self._fast: OrderedDict[str, BotJob] = OrderedDict()  # match id -> job, oldest first
        self._deep: OrderedDict[str, BotJob] = OrderedDict()
        self._running: dict[int, _Running] = {}
        self._queued_at: dict[int, float] = {}  # job id -> when it was queued (metrics.bot_waited)
        self._fast_job: BotJob | None = None
        self._fast_stop = threading.Event()
        self._fast_cancelled = False
        self.closed = False
        self._threads = [threading.Thread(target=self._fast_loop, name="bot-fast", daemon=True),
                         threading.Thread(target=self._deep_loop, name="bot-deep", daemon=True)]
        for thread in self._threads:
            thread.start()

    # --- the interface of the match service ---------------------------------------------------
    def submit(self, job: BotJob) -> None:
        """Queue ``job``; an older job of the same match (queued or running: its answer would
        be for another revision) is cancelled. Raises ``RuntimeError`` once closed."""
        with self._cond:
            if self.closed:
                raise RuntimeError("the bot jobs are closed")
            self._cancel(job.match_id)
            (self._fast if job.fast else self._deep)[job.match_id] = job
            self._queued_at[job.id] = time.monotonic()
            self.stats.submitted += 1
            self._cond.notify_all()
        if not job.fast:
            self.executor.wake()

    def cancel(self, match_id: str) -> int:
        """Drop the jobs of ``match_id``: queued ones never start, a running one is asked to
        stop and its answer is dropped (one that has not stopped ``kill_after`` seconds later is
        given up: its worker replaced, as for an overrun). Returns how many jobs were cancelled."""
        with self._cond:
            return self._cancel(match_id)

    def _cancel(self, match_id: str) -> int:
        n = 0
        for q in (self._fast, self._deep):
            dropped = q.pop(match_id, None)
            if dropped is not None:
                self._queued_at.pop(dropped.id, None)
                n += 1
        for jid, run in self._running.items():
            if run.job.match_id == match_id and not run.cancelled:
                run.cancelled = True
                self.executor.stop(jid)
                if run.stop_sent is None:
                    # given up kill_after seconds from now if it does not stop (_check_overruns),
                    # so a search deaf to the stop does not hold its worker
                    run.stop_sent = time.monotonic()
                n += 1
        if self._fast_job is not None and self._fast_job.match_id == match_id and not self._fast_cancelled:
            self._fast_cancelled = True
            self._fast_stop.set()
            n += 1
        self.stats.cancelled += n
        return n

    def count(self, counter: str) -> None:
        """Add one to a :class:`Stats` counter (the service's own fallbacks)."""
        with self._cond:
            setattr(self.stats, counter, getattr(self.stats, counter) + 1)

    def queued(self) -> int:
        with self._cond:
            return len(self._fast) + len(self._deep)

    def summary(self) -> dict[str, Any]:
        """Counters and sizes for people and benchmarks (``GET /api/bots``)."""
        with self._cond:
            s = self.stats
            return {"executor": self.executor.name, "slots": self.executor.capacity,
                    "queued_fast": len(self._fast), "queued_deep": len(self._deep),
                    "running": len(self._running) + (self._fast_job is not None),
                    "submitted": s.submitted, "answered": s.answered, "cancelled": s.cancelled,
                    "stopped": s.stopped, "fallbacks": s.fallbacks, "random_fallbacks": s.random_fallbacks}

    def close(self) -> None:
        """Stop both lanes: queued jobs are dropped, running ones abandoned, workers stopped."""
        with self._cond:
            if self.closed:
                return
            self.closed = True
            self._fast.clear()
            self._deep.clear()
            self._queued_at.clear()
            self._fast_stop.set()
            self._cond.notify_all()
        self.executor.wake()
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join(timeout=2.0)
        self.executor.close()

    # --- the lanes ----------------------------------------------------------------------------
    def _deliver(self, job: BotJob, text: str | None, note: str | None) -> None:
        try:
            self.on_done(job, text, note)
        except Exception:  # noqa: BLE001 - a lane must survive its callback
            log.exception("applying the bot move of match %s failed", job.match_id)

    def _fast_loop(self) -> None:
        while True:
            with self._cond:
                while not self._fast and not self.closed:
                    self._cond.wait()
                if self.closed:
                    return
                _, job = self._fast.popitem(last=False)
                self._waited("fast", job)
                self._fast_job, self._fast_cancelled = job, False
                self._fast_stop = stop = threading.Event()
            searched = time.thread_time()
            try:
                text, error = self.run(job, stop), None
            except Exception as exc:  # noqa: BLE001 - reported below
                text, error = None, f"{type(exc).__name__}: {exc}"
            metrics.BOT_CPU.inc(time.thread_time() - searched)
            with self._cond:
                cancelled = self._fast_cancelled or self.closed
                self._fast_job = None
                if not cancelled:
                    self.stats.answered += text is not None
                    if error is not None:
                        self.stats.errors = (self.stats.errors + [error])[-20:]
            if cancelled:
                continue
            self._deliver(job, text, job.note if text is not None else error)

    def _deep_loop(self) -> None:
        while True:
            with self._cond:
                if self.closed:
                    return
                free = self.executor.capacity - len(self._running)
                while free > 0 and self._deep:
                    _, job = self._deep.popitem(last=False)
                    self._waited("deep", job)
                    self._running[job.id] = _Running(job, time.monotonic())
                    self.executor.start(job)
                    free -= 1
            try:
                outcomes = self.executor.poll(0.1)
            except Exception:  # noqa: BLE001 - e.g. the executor closed under us
                if self.closed or getattr(self.executor, "closed", False):
                    return
                log.exception("polling the bot executor failed")
                time.sleep(0.1)
                continue
            for job_id, text, error in outcomes:
                self._finished(job_id, text, error)
            self._check_overruns()

    def _waited(self, lane: str, job: BotJob) -> None:
        """(under the lock) ``job`` leaves its queue: how long it waited (a fallback: not
        timed, it is the tail of its first try's wait)."""
        queued = self._queued_at.pop(job.id, None)
        if queued is not None:
            metrics.bot_waited(lane, time.monotonic() - queued)

    def _finished(self, job_id: int, text: str | None, error: str | None) -> None:
        with self._cond:
            run = self._running.pop(job_id, None)
            if run is None or run.cancelled or self.closed:
                return
            job = run.job
            if text is not None:
                self.stats.answered += 1
                self.stats.stopped += run.stop_sent is not None
            else:
                self.stats.errors = (self.stats.errors + [f"{job.spec}: {error}"])[-20:]
        if text is not None:
            self._deliver(job, text, None)
        elif job.analysis is not None:  # no quick search stands in for an analysis
            self._deliver(job, None, error)
        else:
            self._fall_back(job, f"did not answer ({error})")

    def _fall_back(self, job: BotJob, reason: str) -> None:
        log.warning("bot job of match %s: %s %s; playing a quick search", job.match_id, job.spec, reason)
        with self._cond:
            if self.closed:
                return
            self.stats.fallbacks += 1
            self._fast.setdefault(job.match_id, job.fallback(reason))
            self._cond.notify_all()

    def _check_overruns(self) -> None:
        now = time.monotonic()
        lost = []
        with self._cond:
            for jid, run in list(self._running.items()):
                if run.stop_sent is None:
                    began = self.executor.began(jid)
                    since = now - began if began is not None else now - run.started - self.startup
                    if since > self.overrun(run.job.seconds):
                        run.stop_sent = now
                        self.executor.stop(jid)
                elif now - run.stop_sent > self.kill_after:
                    del self._running[jid]
                    self.executor.kill(jid)
                    if not run.cancelled:
                        lost.append(run.job)
        for job in lost:
            if job.analysis is not None:
                self._deliver(job, None, "did not answer in time")
            else:
                self._fall_back(job, "did not answer in time")


__all__ = ["BotJobs", "Stats"]
