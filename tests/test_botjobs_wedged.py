"""A fast-lane worker that is up (it has answered jobs) but stops answering is given up after
the fast overrun, not the startup allowance too.

Levels 1–2 search in one worker process of their own (``make_fast_executor``); a fast job still
running ``fast_overrun`` (10 s) after it started is asked to stop and given up ``kill_after``
(5 s) later. The lane allows ``startup`` (30 s) more while the executor does not say a job
began: that is for a worker still starting (its imports). A worker that has answered before and
then wedges (SIGSTOP here; a stuck process alike) must not get it: otherwise every level-1/2
game of the server waits 45 s for its move (measured on a live server: 45.5 s) instead of 15 s.
"""

import os
import signal
import time

from abstracta.server.botjobs import FAST_NICE, ProcessExecutor, ThreadExecutor
from abstracta.server.lanes import BotJobs

from test_botjobs import Collector, job_for


def test_a_warm_fast_worker_that_wedges_is_given_up_after_fast_overrun_not_startup_too():
    done = Collector()
    fast = ProcessExecutor(1, nice=FAST_NICE)
    jobs = BotJobs(ThreadExecutor(), on_done=done, fast=fast, fast_overrun=1.0, kill_after=1.0, startup=30.0)
    worker = fast._workers[0].process
    try:
        jobs.submit(job_for("level:1", "warm"))  # the worker's imports: the startup allowance's case
        done.wait(1, timeout=60)
        assert done.answers[0][1] is not None
        os.kill(worker.pid, signal.SIGSTOP)  # a worker up and warm that stops answering
        start = time.monotonic()
        jobs.submit(job_for("level:1", "person"))
        # fast_overrun + kill_after (+ slack for a loaded machine), not startup on top
        done.wait(2, timeout=8.0)
        job, text, note, at = done.answers[1]
        assert job.match_id == "person" and at - start < 8.0
    finally:
        try:
            os.kill(worker.pid, signal.SIGCONT)
        except ProcessLookupError:
            pass
        jobs.close()
    worker.join(5)
    assert not worker.is_alive()
