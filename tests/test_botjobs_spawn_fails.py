"""A lane outlives a worker that cannot be replaced for a moment (the web process out of file
descriptors or processes: ``EMFILE``/``EAGAIN`` from ``Pipe()``/``Process.start()``).

A lane gives up a hung job by replacing its worker (``BotJobs._check_overruns`` →
``ProcessExecutor.kill``), and replaces a worker that died from ``ProcessExecutor.poll``, both
in the lane's thread. A failed start must neither end that thread (then no job of the lane is
ever answered again: every level-1/2 game, or every level-3–6 game and their fallbacks, shows
the computer thinking for ever) nor leave the dead worker's closed pipes to be waited on (the
idle lane spins, and the next job goes to the dead worker); the start is tried again later.
"""

import contextlib
import errno
import os
import signal
import time
from typing import Iterator

from abstracta.server import metrics
from abstracta.server.botjobs import FAST_NICE, ProcessExecutor, ThreadExecutor, run_job
from abstracta.server.lanes import BotJobs

from test_botjobs import Collector, in_fast_worker, job_for


def start_failed() -> float:
    """``abstracta_errors{type="BotWorkerStartFailed"}`` of this process, as /metrics serves it."""
    return metrics.REGISTRY.get_sample_value("abstracta_errors_total", {"type": "BotWorkerStartFailed"}) or 0.0


@contextlib.contextmanager
def warm_fast_lane(run=run_job, **lane: float) -> Iterator[tuple[Collector, ProcessExecutor, BotJobs]]:
    """Lanes whose fast worker (``run``: what it runs for a job) has answered one job
    ("warm"); afterwards its spawning is restored, the lanes closed and every worker process
    that ran joined."""
    done = Collector()
    fast = ProcessExecutor(1, nice=FAST_NICE, run=run)
    jobs = BotJobs(ThreadExecutor(), on_done=done, fast=fast, **lane)
    spawn = fast._spawn
    workers = [fast._workers[0].process]
    try:
        jobs.submit(job_for("level:1", "warm"))
        done.wait(1, timeout=60)
        yield done, fast, jobs
    finally:
        fast._spawn = spawn
        workers += [w.process for w in fast._workers]
        jobs.close()
    for process in workers:
        process.join(5)


def test_a_failed_respawn_does_not_end_the_lane_for_good():
    failures = []
    failed_before = start_failed()
    with warm_fast_lane(in_fast_worker, fast_overrun=0.5, kill_after=0.5) as (done, fast, jobs):
        spawn = fast._spawn

        def spawn_fails_once():
            if not failures:
                failures.append(time.monotonic())
                raise OSError(errno.EMFILE, "Too many open files")
            return spawn()

        fast._spawn = spawn_fails_once
        jobs.submit(job_for("level:1", "hung"))  # ignores its stop: given up, its worker replaced
        deadline = time.monotonic() + 30
        while not failures:
            assert time.monotonic() < deadline, "the hung job was never given up"
            time.sleep(0.05)
        # spawning works again; the next person's move against level 1 must still be answered
        jobs.submit(job_for("level:1", "next"))
        deadline = time.monotonic() + 40
        while "next" not in done.matches():
            assert time.monotonic() < deadline, f"level 1 never answered again: {done.matches()}"
            time.sleep(0.05)
        assert all(t.is_alive() for t in jobs._threads), "a lane's thread ended"
        assert start_failed() - failed_before == 1


def test_a_failed_respawn_after_a_worker_died_leaves_no_busy_lane_and_is_tried_again():
    """The same failure when a worker dies (``poll``): the dead worker leaves the executor, so no
    later ``poll`` meets its closed pipe and returns at once (an idle lane that spun so took
    0.55–0.75 CPU seconds a second, for ever), and the next job waits for the replacement,
    started once spawning works again, rather than being handed to the dead worker and given up
    only after startup + fast_overrun + kill_after (45 s: "did not answer in time")."""
    def spawn_fails():
        raise OSError(errno.EMFILE, "Too many open files")

    with warm_fast_lane() as (done, fast, jobs):
        spawn, worker = fast._spawn, fast._workers[0].process
        fast._spawn = spawn_fails
        os.kill(worker.pid, signal.SIGKILL)
        time.sleep(1.0)
        fast._spawn = spawn  # spawning works again
        cpu = time.process_time()
        time.sleep(2.0)
        assert time.process_time() - cpu < 0.5, "an idle lane spins"
        jobs.submit(job_for("level:1", "next"))
        done.wait(2, timeout=15.0)
        job, text, note, _ = done.answers[1]
        assert job.match_id == "next" and text is not None, note


def test_a_job_whose_worker_died_is_answered_even_when_no_worker_can_replace_it():
    """A fast job whose worker died while no replacement can start keeps its "worker died"
    outcome: answered at once in the web process, as with a replacement starting."""
    def spawn_fails():
        raise OSError(errno.EAGAIN, "Resource temporarily unavailable")

    with warm_fast_lane(in_fast_worker) as (done, fast, jobs):
        fast._spawn = spawn_fails
        jobs.submit(job_for("level:1", "doomed"))  # its worker exits in the middle of the search
        done.wait(2, timeout=15.0)
        job, text, note, _ = done.answers[1]
        assert job.match_id == "doomed" and text is not None, note
        assert jobs.stats.in_thread == 1
        assert fast.capacity == 0 and all(t.is_alive() for t in jobs._threads)
