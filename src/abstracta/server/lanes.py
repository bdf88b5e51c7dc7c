"""The lanes of computer moves (issue 14 §3, issue 44 §1): fair, cancellable jobs.

:class:`BotJobs` runs :class:`~abstracta.server.botjobs.BotJob` s in two lanes, each a queue
and an executor (:mod:`abstracta.server.botjobs`), so the web process only schedules:

* the **fast lane** (levels 1–2, ``random``, ``greedy``: milliseconds) on one worker process of
  its own (:func:`~abstracta.server.botjobs.make_fast_executor`, a little below the web
  process's priority), so a level-1 reply never waits behind deep searches, and its searches
  neither take the web process's GIL from its event loop nor count in its CPU; with
  ``--bot-workers 0`` (no worker processes: tests) in a thread of the web process;
* the **deep lane** (searches) on :func:`~abstracta.server.botjobs.make_executor`'s executor.

Only as many jobs as a lane's executor has slots are handed out (the fast lane: one); the rest
wait in the lane's queue, first come first served across matches — a match has at most one job
at a time and queues again behind the others after its move, which is round robin.

Cancellation (:meth:`BotJobs.cancel`, on delete, undo, takeback, resignation, flag): a queued job
is dropped and never starts; a running one is asked to stop (its search ends at its next clock
check) and its answer is dropped; one that has not stopped ``kill_after`` seconds later is given
up (its worker replaced). Deadlines: a search is anytime — its level's seconds are its budget
and it answers the best action of its last completed iteration. A deep job still running
``overrun(seconds)`` after it started is asked to stop (then it answers its best so far); one
that still does not answer, or whose worker died or was lost, is answered by a quick search
(level 2, greedy) of the *same* information state in the fast lane — in the fast worker, like
any level-2 move, not in the web process: a counted *fallback*, never a random move. A fast job
(budget-free) still running ``fast_overrun`` seconds after it started is asked to stop, and
given up ``kill_after`` later (its worker replaced; the error told, as a failed search's).
A fast job whose worker died under it is answered at once in a thread of the web process (the
replacement worker is still starting) and counted (``in_thread``).

Metrics: ``abstracta_bot_wait_seconds{lane}``, how long a job waited in its lane's queue before
it was handed to its executor; ``abstracta_bot_search_cpu_seconds{lane, where}``, the CPU the
searches took where they ran (``web``: a thread of this web process, inside its CPU; ``worker``:
a worker process, as the worker measured its search thread); ``abstracta_errors{type=
"BotWorkerStartFailed"}``, worker processes that could not be started (out of file descriptors or
processes: the executor tries again after a back-off, the lane meanwhile runs on its workers up).

Threads: one per lane (the fast lane's, the deep lane's dispatcher), each polling its executor.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable

from . import metrics
from .botjobs import WORKER_DIED, BotJob, make_executor, make_fast_executor, overrun, run_job

log = logging.getLogger("abstracta.server.bots")


@dataclass
class _Running:
    job: BotJob
    started: float
    stop_sent: float | None = None
    cancelled: bool = False
    here: threading.Event | None = None  # the stop of its answer being found in this process


@dataclass
class _Lane:
    """One lane: its queue (match id -> job, oldest first), its executor and its jobs handed out."""

    name: str  # fast | deep (the metrics' label)
    executor: Any
    queue: "OrderedDict[str, BotJob]" = field(default_factory=OrderedDict)
    running: dict[int, _Running] = field(default_factory=dict)
    counted: float = 0.0  # the executor's ``searched`` already added to the metric
    failed: int = 0  # the executor's ``start_failures`` already added to the metric


@dataclass
class Stats:
    """Counters of one :class:`BotJobs` (since it started)."""

    submitted: int = 0
    answered: int = 0
    cancelled: int = 0
    fallbacks: int = 0
    stopped: int = 0
    random_fallbacks: int = 0
    in_thread: int = 0  # fast jobs answered in the web process: their worker died under them
    errors: list[str] = field(default_factory=list)


class BotJobs:
    """The job queue of one web process: a fast lane and a fair deep lane, each an executor.

    Args:
        workers: ``--bot-workers`` (see :func:`parse_workers`), or the deep lane's executor
            object (then the fast lane is a thread running ``run``, unless ``fast`` is given).
        on_done: called ``on_done(job, notation, note)`` from a lane thread when a job is
            answered (``note``: why a fallback answered, else None), or with notation ``None``
            and the error when not even the fallback could answer. Never for cancelled jobs.
        run: what runs a fast job in this process: the fast lane's thread (``--bot-workers 0``
            or an executor object) and a fast job whose worker died (tests inject fakes).
        overrun: seconds after its start at which a deep job of budget ``s`` is asked to stop.
        kill_after: seconds after the stop request at which it is given up (worker replaced,
            fallback played).
        startup: extra seconds allowed while the executor does not say that a job began (a
            worker still starting, a Ray task waiting for a worker); a process executor says so
            at hand-over for a worker that has answered before, so a warm worker that wedges is
            given up after the overrun alone.
        fast: the fast lane's executor (default :func:`make_fast_executor` of ``workers``).
        fast_overrun: seconds after its start at which a fast job is asked to stop.
    """

    def __init__(self, workers: int | str | Any = 2,
                 on_done: Callable[[BotJob, str | None, str | None], None] | None = None,
                 run: Callable[[BotJob, threading.Event], str] = run_job,
                 overrun: Callable[[float | None], float] = overrun, kill_after: float = 5.0,
                 startup: float = 30.0, fast: Any = None, fast_overrun: float = 10.0):
        self.executor = make_executor(workers) if isinstance(workers, (int, str)) else workers
        if fast is None:
            try:
                fast = make_fast_executor(workers if isinstance(workers, (int, str)) else 0, run)
            except BaseException:
                self.executor.close()
                raise
        self.fast_executor = fast
        self.on_done = on_done or (lambda job, text, note: None)
        self.run = run
        self.overrun = overrun
        self.kill_after = kill_after
        self.startup = startup
        self.fast_overrun = fast_overrun
        self.stats = Stats()
        self._cond = threading.Condition()
        self._fast = _Lane("fast", fast)
        self._deep = _Lane("deep", self.executor)
        self._queued_at: dict[int, float] = {}  # job id -> when it was queued (metrics.bot_waited)
        self.closed = False
        self._threads = [threading.Thread(target=self._loop, args=(lane,), name=f"bot-{lane.name}", daemon=True)
                         for lane in (self._fast, self._deep)]
        for thread in self._threads:
            thread.start()

    # --- the interface of the match service ---------------------------------------------------
    def submit(self, job: BotJob) -> None:
        """Queue ``job``; an older job of the same match (queued or running: its answer would
        be for another revision) is cancelled. Raises ``RuntimeError`` once closed."""
        lane = self._fast if job.fast else self._deep
        with self._cond:
            if self.closed:
                raise RuntimeError("the bot jobs are closed")
            self._cancel(job.match_id)
            lane.queue[job.match_id] = job
            self._queued_at[job.id] = time.monotonic()
            self.stats.submitted += 1
        lane.executor.wake()

    def cancel(self, match_id: str) -> int:
        """Drop the jobs of ``match_id``: queued ones never start, a running one is asked to
        stop and its answer is dropped (one that has not stopped ``kill_after`` seconds later is
        given up: its worker replaced, as for an overrun). Returns how many jobs were cancelled."""
        with self._cond:
            return self._cancel(match_id)

    def _cancel(self, match_id: str) -> int:
        n = 0
        for lane in (self._fast, self._deep):
            dropped = lane.queue.pop(match_id, None)
            if dropped is not None:
                self._queued_at.pop(dropped.id, None)
                n += 1
            for jid, run in lane.running.items():
                if run.job.match_id == match_id and not run.cancelled:
                    run.cancelled = True
                    if run.here is not None:  # being answered in this process: no worker to stop
                        run.here.set()
                    else:
                        lane.executor.stop(jid)
                    if run.stop_sent is None:
                        # given up kill_after seconds from now if it does not stop (_check_overruns),
                        # so a search deaf to the stop does not hold its worker
                        run.stop_sent = time.monotonic()
                    n += 1
        self.stats.cancelled += n
        return n

    def count(self, counter: str) -> None:
        """Add one to a :class:`Stats` counter (the service's own fallbacks)."""
        with self._cond:
            setattr(self.stats, counter, getattr(self.stats, counter) + 1)

    def queued(self) -> int:
        with self._cond:
            return len(self._fast.queue) + len(self._deep.queue)

    def summary(self) -> dict[str, Any]:
        """Counters and sizes for people and benchmarks (``GET /api/bots``)."""
        with self._cond:
            s = self.stats
            return {"executor": self.executor.name, "slots": self.executor.capacity,
                    "fast_executor": self._fast.executor.name,
                    "queued_fast": len(self._fast.queue), "queued_deep": len(self._deep.queue),
                    "running": len(self._fast.running) + len(self._deep.running),
                    "submitted": s.submitted, "answered": s.answered, "cancelled": s.cancelled,
                    "stopped": s.stopped, "fallbacks": s.fallbacks, "random_fallbacks": s.random_fallbacks,
                    "in_thread": s.in_thread}

    def close(self) -> None:
        """Stop both lanes: queued jobs are dropped, running ones abandoned, workers stopped."""
        with self._cond:
            if self.closed:
                return
            self.closed = True
            self._queued_at.clear()
            for lane in (self._fast, self._deep):
                lane.queue.clear()
                for run in lane.running.values():
                    if run.here is not None:
                        run.here.set()
            self._cond.notify_all()
        for lane in (self._fast, self._deep):
            lane.executor.wake()
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join(timeout=2.0)
        for lane in (self._fast, self._deep):
            lane.executor.close()

    # --- the lanes ----------------------------------------------------------------------------
    def _deliver(self, job: BotJob, text: str | None, note: str | None) -> None:
        try:
            self.on_done(job, text, note)
        except Exception:  # noqa: BLE001 - a lane must survive its callback
            log.exception("applying the bot move of match %s failed", job.match_id)

    def _loop(self, lane: _Lane) -> None:
        """A lane's thread: hand queued jobs to the executor while it has free slots, collect
        its answers, stop or give up the jobs that overran."""
        executor = lane.executor
        while True:
            with self._cond:
                if self.closed:
                    return
                free = executor.capacity - len(lane.running)
                while free > 0 and lane.queue:
                    _, job = lane.queue.popitem(last=False)
                    self._waited(lane.name, job)
                    lane.running[job.id] = _Running(job, time.monotonic())
                    executor.start(job)
                    free -= 1
            try:
                outcomes = executor.poll(0.1)
            except Exception:  # noqa: BLE001 - e.g. the executor closed under us
                if self.closed or getattr(executor, "closed", False):
                    return
                log.exception("polling the bot executor of the %s lane failed", lane.name)
                time.sleep(0.1)
                continue
            self._count_cpu(lane)
            for job_id, text, error in outcomes:
                self._finished(lane, job_id, text, error)
            self._check_overruns(lane)

    def _count_cpu(self, lane: _Lane) -> None:
        """Add the CPU the lane's searches took since the last poll to the metric."""
        searched = getattr(lane.executor, "searched", 0.0)
        if searched > lane.counted:
            metrics.bot_searched(lane.name, lane.executor.where, searched - lane.counted)
            lane.counted = searched
        failed = getattr(lane.executor, "start_failures", 0)  # worker processes that could not start
        for _ in range(failed - lane.failed):
            metrics.error("BotWorkerStartFailed")
        lane.failed = max(lane.failed, failed)

    def _waited(self, lane: str, job: BotJob) -> None:
        """(under the lock) ``job`` leaves its queue: how long it waited (a fallback: not
        timed, it is the tail of its first try's wait)."""
        queued = self._queued_at.pop(job.id, None)
        if queued is not None:
            metrics.bot_waited(lane, time.monotonic() - queued)

    def _finished(self, lane: _Lane, job_id: int, text: str | None, error: str | None) -> None:
        rescue = False
        with self._cond:
            run = lane.running.get(job_id)
            if run is None:
                return
            if run.cancelled or self.closed:
                del lane.running[job_id]
                return
            job = run.job
            if text is None and lane is self._fast and error == WORKER_DIED:
                rescue, run.here = True, threading.Event()  # stays running: cancel reaches it
            else:
                del lane.running[job_id]
                self._tally(job, text, error, stopped=run.stop_sent is not None)
        if rescue:
            self._answer_here(lane, run)
        elif text is not None:
            self._deliver(job, text, job.note)
        elif lane is self._fast or job.analysis is not None:  # no quick search stands in for these
            self._deliver(job, None, error)
        else:
            self._fall_back(job, f"did not answer ({error})")

    def _tally(self, job: BotJob, text: str | None, error: str | None, stopped: bool = False) -> None:
        """(under the lock) count an answer, or remember an error."""
        if text is not None:
            self.stats.answered += 1
            self.stats.stopped += stopped
        else:
            self.stats.errors = (self.stats.errors + [f"{job.spec}: {error}"])[-20:]

    def _answer_here(self, lane: _Lane, run: _Running) -> None:
        """A fast job whose worker died: found now in this thread (its replacement is still
        starting), counted in ``in_thread``; dropped if cancelled meanwhile."""
        job = run.job
        log.warning("the fast bot worker died under match %s's %s; answering in the web process",
                    job.match_id, job.spec)
        cpu = time.thread_time()
        try:
            text, error = self.run(job, run.here), None
        except Exception as exc:  # noqa: BLE001 - told below as the job's error
            text, error = None, f"{type(exc).__name__}: {exc}"
        metrics.bot_searched(lane.name, "web", time.thread_time() - cpu)
        with self._cond:
            lane.running.pop(job.id, None)
            if run.cancelled or self.closed:
                return
            self.stats.in_thread += 1
            self._tally(job, text, error)
        self._deliver(job, text, job.note if text is not None else error)

    def _fall_back(self, job: BotJob, reason: str) -> None:
        log.warning("bot job of match %s: %s %s; playing a quick search", job.match_id, job.spec, reason)
        with self._cond:
            if self.closed:
                return
            self.stats.fallbacks += 1
            self._fast.queue.setdefault(job.match_id, job.fallback(reason))
        self._fast.executor.wake()

    def _check_overruns(self, lane: _Lane) -> None:
        now = time.monotonic()
        lost = []
        executor = lane.executor
        with self._cond:
            for jid, run in list(lane.running.items()):
                if run.here is not None:
                    continue
                if run.stop_sent is None:
                    began = executor.began(jid)
                    since = now - began if began is not None else now - run.started - self.startup
                    limit = self.fast_overrun if lane is self._fast else self.overrun(run.job.seconds)
                    if since > limit:
                        run.stop_sent = now
                        executor.stop(jid)
                elif now - run.stop_sent > self.kill_after:
                    del lane.running[jid]
                    try:
                        executor.kill(jid)
                    except Exception:  # noqa: BLE001 - the lane and the job's answer come first
                        log.exception("giving up bot job %s of the %s lane failed", jid, lane.name)
                    if not run.cancelled:
                        lost.append(run.job)
                        self._tally(run.job, None, "did not answer in time")
        for job in lost:
            if lane is self._fast or job.analysis is not None:
                self._deliver(job, None, "did not answer in time")
            else:
                self._fall_back(job, "did not answer in time")


__all__ = ["BotJobs", "Stats"]
