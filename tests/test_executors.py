"""The executor layer shared by the tournament and the table builders (abstracta.executors).

Serial and process here; the Ray path is exercised by one test each in the tournament and the
endgame-table tests (a local Ray takes seconds to start)."""

from __future__ import annotations

import math
import operator

import numpy as np
import pytest

from abstracta.executors import EXECUTORS, as_finished, check_executor, map_unordered, session


@pytest.mark.parametrize("executor", ["serial", "process"])
def test_results_come_back_in_the_items_order_and_each_arrives_once(executor):
    items = [7, 0, 3, 12, 5]
    seen: dict[int, int] = {}
    out = map_unordered(math.factorial, items, executor, workers=2,
                        on_done=lambda i, r: seen.__setitem__(i, r))
    assert out == [5040, 1, 6, 479001600, 120]
    assert seen == {0: 5040, 1: 1, 2: 6, 3: 479001600, 4: 120}


@pytest.mark.parametrize("executor", ["serial", "process"])
def test_the_shared_value_is_every_job_first_argument(executor):
    table = np.arange(100, 110, dtype=np.int64)
    out = map_unordered(operator.getitem, [9, 0, 4], executor, workers=2, shared=table)
    assert [int(x) for x in out] == [109, 100, 104]


@pytest.mark.parametrize("executor", ["serial", "process"])
def test_a_job_error_reaches_the_caller(executor):
    with pytest.raises(ValueError, match="negative"):
        map_unordered(math.factorial, [3, -1], executor, workers=1)


def test_no_items_no_work_and_bad_executors_are_refused():
    assert map_unordered(math.factorial, [], "process") == []
    assert EXECUTORS == ("serial", "process", "ray")
    with pytest.raises(ValueError, match="serial, process, ray.*'threads'"):
        map_unordered(math.factorial, [1], "threads")
    with pytest.raises(ValueError, match="workers must be >= 1"):
        check_executor("process", 0)
    with pytest.raises(ValueError, match="serial, process, ray"):
        with session("threads"):
            pass
    with session("process", 2):  # nothing to start for the local executors
        assert map_unordered(abs, [-2], "process", 1) == [2]


def test_a_ray_address_where_nothing_answers_is_refused_at_once():
    # ray.init(address=…) retried for minutes, printing Ray's connection warnings, before
    # giving up (if ever): a wrong --ray-address looked like a hang
    import socket
    import time

    pytest.importorskip("ray")
    from abstracta.executors import start_ray

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    began = time.monotonic()
    with pytest.raises(ValueError, match=rf"no Ray cluster answers at 127\.0\.0\.1:{port}"):
        start_ray(address=f"127.0.0.1:{port}")
    assert time.monotonic() - began < 10
    import ray

    assert not ray.is_initialized()
    with pytest.raises(ValueError, match="host:port"):
        start_ray(address="127.0.0.1")


def _sleep_then(item):
    import time

    seconds, value = item
    time.sleep(seconds)
    return value


@pytest.mark.parametrize("executor", ["serial", "process"])
def test_as_finished_yields_each_job_once_and_takes_items_only_as_workers_free(executor):
    taken: list[int] = []

    def items():
        for n in [7, 0, 3, 12, 5]:
            taken.append(n)
            yield n

    stream = as_finished(math.factorial, items(), executor, workers=2)
    first = next(stream)
    # one result back: at most the two running and the one started in its place were taken
    assert len(taken) <= 3
    rest = list(stream)
    assert sorted([first, *rest]) == [(0, 5040), (1, 1), (2, 6), (3, 479001600), (4, 120)]


def test_as_finished_comes_back_in_the_order_jobs_finish_and_closing_stops_the_rest():
    import time

    # the first job is slow: with two workers the second and third finish before it
    stream = as_finished(_sleep_then, [(30.0, "slow"), (0.0, "a"), (0.0, "b")], "process", workers=2)
    order = [next(stream)[1], next(stream)[1]]
    assert order == ["a", "b"]
    started = time.monotonic()
    stream.close()  # the slow job is stopped, not waited for
    assert time.monotonic() - started < 10


@pytest.mark.parametrize("executor", ["serial", "process"])
def test_as_finished_passes_a_job_error_on(executor):
    with pytest.raises(ValueError, match="negative"):
        list(as_finished(math.factorial, [3, -1], executor, workers=1))
    with pytest.raises(ValueError, match="workers must be >= 1"):
        next(as_finished(math.factorial, [3], "process", workers=0))


def _die_on_one(n):
    import os
    import signal

    if n == 1:
        os.kill(os.getpid(), signal.SIGKILL)  # a worker killed (the OOM killer, a crash)
    return n


def test_as_finished_says_when_a_worker_dies_instead_of_waiting_for_ever():
    from abstracta.executors import WorkerDied

    got = []
    with pytest.raises(WorkerDied, match="died with a job running"):
        for _, result in as_finished(_die_on_one, [0, 1, 2], "process", workers=1):
            got.append(result)
    assert got == [0]
