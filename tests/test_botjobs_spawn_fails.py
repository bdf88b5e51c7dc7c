"""A lane outlives a worker that cannot be replaced for a moment (the web process out of file
descriptors or processes: ``EMFILE``/``EAGAIN`` from ``Pipe()``/``Process.start()``).

A lane gives up a hung job by replacing its worker (``BotJobs._check_overruns`` →
``ProcessExecutor.kill``), and replaces a worker that died from ``ProcessExecutor.poll``, both
in the lane's thread. A failed start must neither end that thread (then no job of the lane is
ever answered again: every level-1/2 game, or every level-3–6 game and their fallbacks, shows
the computer thinking for ever) nor leave the dead worker's closed pipes to be waited on (the
idle lane spins, and the next job goes to the dead worker); the start is tried again later.
"""

import errno
import time

from abstracta.server import metrics
from abstracta.server.botjobs import FAST_NICE, ProcessExecutor, ThreadExecutor
from abstracta.server.lanes import BotJobs

from test_botjobs import Collector, in_fast_worker, job_for


def start_failed() -> float:
    """``abstracta_errors{type="BotWorkerStartFailed"}`` of this process, as /metrics serves it."""
    return metrics.REGISTRY.get_sample_value("abstracta_errors_total", {"type": "BotWorkerStartFailed"}) or 0.0


def test_a_failed_respawn_does_not_end_the_lane_for_good():
    done = Collector()
    fast = ProcessExecutor(1, nice=FAST_NICE, run=in_fast_worker)
    jobs = BotJobs(ThreadExecutor(), on_done=done, fast=fast, fast_overrun=0.5, kill_after=0.5)
    spawn = fast._spawn
    failures = []

    def spawn_fails_once():
        if not failures:
            failures.append(time.monotonic())
            raise OSError(errno.EMFILE, "Too many open files")
        return spawn()

    workers = [fast._workers[0].process]
    failed_before = start_failed()
    try:
        jobs.submit(job_for("level:1", "warm"))
        done.wait(1, timeout=60)
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
    finally:
        fast._spawn = spawn
        workers += [w.process for w in fast._workers]
        jobs.close()
    for process in workers:
        process.join(5)


def test_a_failed_respawn_after_a_worker_died_leaves_no_busy_lane_and_is_tried_again():
    """The same failure when a worker dies (``poll``): the dead worker leaves the executor, so no
    later ``poll`` meets its closed pipe and returns at once (an idle lane that spun so took
    0.55–0.75 CPU seconds a second, for ever), and the next job waits for the replacement,
    started once spawning works again, rather than being handed to the dead worker and given up
    only after startup + fast_overrun + kill_after (45 s: "did not answer in time")."""
    import os
    import signal

    done = Collector()
    fast = ProcessExecutor(1, nice=FAST_NICE)
    jobs = BotJobs(ThreadExecutor(), on_done=done, fast=fast)
    spawn = fast._spawn

    def spawn_fails():
        raise OSError(errno.EMFILE, "Too many open files")

    workers = [fast._workers[0].process]
    try:
        jobs.submit(job_for("level:1", "warm"))
        done.wait(1, timeout=60)
        fast._spawn = spawn_fails
        os.kill(workers[0].pid, signal.SIGKILL)
        time.sleep(1.0)
        fast._spawn = spawn  # spawning works again
        cpu = time.process_time()
        time.sleep(2.0)
        assert time.process_time() - cpu < 0.5, "an idle lane spins"
        jobs.submit(job_for("level:1", "next"))
        done.wait(2, timeout=15.0)
        job, text, note, _ = done.answers[1]
        assert job.match_id == "next" and text is not None, note
    finally:
        fast._spawn = spawn
        workers += [w.process for w in fast._workers]
        jobs.close()
    for process in workers:
        process.join(5)


def test_a_job_whose_worker_died_is_answered_even_when_no_worker_can_replace_it():
    """A fast job whose worker died while no replacement can start keeps its "worker died"
    outcome: answered at once in the web process, as with a replacement starting."""
    done = Collector()
    fast = ProcessExecutor(1, nice=FAST_NICE, run=in_fast_worker)
    jobs = BotJobs(ThreadExecutor(), on_done=done, fast=fast)
    spawn = fast._spawn

    def spawn_fails():
        raise OSError(errno.EAGAIN, "Resource temporarily unavailable")

    workers = [fast._workers[0].process]
    try:
        jobs.submit(job_for("level:1", "warm"))
        done.wait(1, timeout=60)
        fast._spawn = spawn_fails
        jobs.submit(job_for("level:1", "doomed"))  # its worker exits in the middle of the search
        done.wait(2, timeout=15.0)
        job, text, note, _ = done.answers[1]
        assert job.match_id == "doomed" and text is not None, note
        assert jobs.stats.in_thread == 1
        assert fast.capacity == 0 and all(t.is_alive() for t in jobs._threads)
    finally:
        fast._spawn = spawn
        workers += [w.process for w in fast._workers]
        jobs.close()
    for process in workers:
        process.join(5)
