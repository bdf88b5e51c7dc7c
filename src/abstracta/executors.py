"""Farming independent jobs out to this process, a process pool or a Ray cluster.

One layer for every batch of independent, picklable jobs (tournament games, endgame-table
pairs): :func:`map_unordered` runs ``fn`` over ``items`` with

* ``serial``: in this process, in order;
* ``process``: a pool of ``workers`` processes on this machine (``spawn``: workers start
  clean, without a copy of the caller's threads, e.g. a progress bar's);
* ``ray``: Ray tasks (one CPU each) on the cluster at ``ray_address``, else on a local Ray
  started here with ``workers`` CPUs. A Ray task may run on another machine, so a job must
  return what it makes, never write it to the worker's disk.

:func:`as_finished` runs the same executors as a stream the caller may stop: jobs taken one at
a time as workers free up, results yielded as they come (the level ladder's sequential test).

The results are the same whichever executor runs the jobs, as long as ``fn`` depends only on
its arguments. A value every job needs (``shared``) travels once: to each pool worker when it
starts, to the Ray object store once per call (``ray.put``); each job then gets it as its first
argument, ``fn(shared, item)``.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator, Sequence, TypeVar

EXECUTORS = ("serial", "process", "ray")
RAY_MISSING = "the ray executor needs Ray: pip install 'abstracta[ray]'"

T = TypeVar("T")
R = TypeVar("R")

_NOTHING = object()
_worker_shared: Any = _NOTHING  # the shared value inside a pool worker (set by _init_worker)


def check_executor(executor: str, workers: int | None = None) -> None:
    """Raise ``ValueError`` for an executor not in :data:`EXECUTORS` or ``workers`` < 1."""
    if executor not in EXECUTORS:
        raise ValueError(f"executor must be one of {', '.join(EXECUTORS)}, got {executor!r}")
    if workers is not None and workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")


def map_unordered(fn: Callable[..., R], items: Sequence[T], executor: str = "serial",
                  workers: int | None = None, ray_address: str | None = None,
                  on_done: Callable[[int, R], None] | None = None, *, shared: Any = _NOTHING) -> list[R]:
    """Run ``fn(item)`` — or ``fn(shared, item)`` when ``shared`` is given — for every item;
    the jobs run and finish in any order, the results come back in the items' order.

    Args:
        fn: a module-level function (pickled by reference for the process and Ray executors).
        items: the jobs' arguments (picklable).
        executor: ``serial`` (ignores ``workers``), ``process`` (``workers`` processes, default
            the CPU count, never more than the items) or ``ray``.
        workers: see ``executor``; for Ray the CPUs of a local Ray (ignored with an address).
        ray_address: join this Ray cluster instead of starting a local one. A Ray already
            initialised (by the caller or :func:`session`) is used as it is; only a Ray started
            here is shut down, at the end of this call.
        on_done: called as ``on_done(index, result)`` as each job finishes (any order), in
            this process — the place to write results to this machine's disk.
        shared: one read-only value every job needs (see the module docstring).
    Raises:
        ValueError: an unknown executor or ``workers`` < 1. ImportError: ``ray`` without Ray
        installed (the message names ``pip install 'abstracta[ray]'``). Whatever ``fn`` raises.
    """
    check_executor(executor, workers)
    results: list[Any] = [_NOTHING] * len(items)

    def keep(index: int, result: Any) -> None:
        results[index] = result
        if on_done is not None:
            on_done(index, result)

    if not items:
        return []
    if executor == "serial":
        for i, item in enumerate(items):
            keep(i, fn(item) if shared is _NOTHING else fn(shared, item))
    elif executor == "process":
        _run_processes(fn, items, workers, shared, keep)
    else:
        _run_ray(fn, items, workers, ray_address, shared, keep)
    return results


def _init_worker(shared: Any) -> None:
    global _worker_shared
    _worker_shared = shared


def _with_worker_shared(fn: Callable[..., Any], item: Any) -> Any:
    return fn(_worker_shared, item)


def _run_processes(fn: Callable[..., Any], items: Sequence[Any], workers: int | None, shared: Any,
                   keep: Callable[[int, Any], None]) -> None:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    size = min(workers or os.cpu_count() or 1, len(items))
    context = multiprocessing.get_context("spawn")
    if shared is _NOTHING:
        pool = ProcessPoolExecutor(max_workers=size, mp_context=context)
        submit = lambda item: pool.submit(fn, item)  # noqa: E731
    else:
        pool = ProcessPoolExecutor(max_workers=size, mp_context=context, initializer=_init_worker,
                                   initargs=(shared,))
        submit = lambda item: pool.submit(_with_worker_shared, fn, item)  # noqa: E731
    with pool:
        futures = {submit(item): i for i, item in enumerate(items)}
        for future in as_completed(futures):
            keep(futures[future], future.result())


def _ray_call(fn: Callable[..., Any], *args: Any) -> Any:
    return fn(*args)


#: Seconds to wait for a Ray cluster's port before calling the address wrong.
RAY_CONNECT_SECONDS = 5.0


class RayAddressError(ValueError):
    """A Ray address that is malformed or where no cluster answers (:func:`check_ray_address`)."""


def check_ray_address(address: str) -> None:
    """Refuse a Ray address where nothing answers: ``ray.init`` would retry for minutes, printing
    connection warnings, so a wrong ``--ray-address`` looked like a hang. ``auto`` and ``local``
    pass; otherwise ``host:port`` or ``ray://host:port`` (the Ray client) whose port must accept
    a TCP connection within :data:`RAY_CONNECT_SECONDS`. Raises :class:`RayAddressError` (a
    ``ValueError``) naming the address."""
    import socket

    if address in ("auto", "local"):
        return
    where = address.split("://", 1)[1] if "://" in address else address
    host, _, port = where.rpartition(":")
    if not host or not port.isdigit():
        raise RayAddressError(f"Ray address {address!r}: expected host:port (e.g. 10.0.0.5:6379), "
                         "ray://host:port or auto")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=RAY_CONNECT_SECONDS):
            pass
    except OSError as exc:
        raise RayAddressError(f"no Ray cluster answers at {where} ({exc.strerror or exc}): is the head node "
                         f"started (ray start --head) and is the address right?") from None


def start_ray(workers: int | None = None, address: str | None = None) -> tuple[Any, bool]:
    """Ray, initialised: join the cluster at ``address``, or start a local one of ``workers``
    CPUs (None: all of this machine's; Ray 2.x has no local mode), unless this process has
    already initialised it. Returns ``(ray, started)``: who starts it shuts it down.
    Raises ``ImportError`` without Ray, ``ValueError`` for an address where no cluster answers
    (:func:`check_ray_address`)."""
    try:
        import ray
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ImportError(RAY_MISSING) from exc
    started = not ray.is_initialized()
    if started:
        if address:
            check_ray_address(address)
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=workers, log_to_driver=False, include_dashboard=False)
    return ray, started


@contextmanager
def session(executor: str, workers: int | None = None, ray_address: str | None = None) -> Iterator[None]:
    """Keep the executor up across several :func:`map_unordered` calls (e.g. one per stone
    count): for ``ray``, start Ray here unless it is already initialised (a local Ray with
    ``workers`` CPUs, or join ``ray_address``) and shut it down at the end only if started here;
    the other executors need nothing. Raises ``ImportError`` for ``ray`` without Ray."""
    check_executor(executor, workers)
    if executor != "ray":
        yield
        return
    ray, started = start_ray(workers, ray_address)
    try:
        yield
    finally:
        if started:
            ray.shutdown()


def _run_ray(fn: Callable[..., Any], items: Sequence[Any], workers: int | None, address: str | None,
             shared: Any, keep: Callable[[int, Any], None]) -> None:
    with session("ray", workers, address):
        import ray

        remote = ray.remote(num_cpus=1)(_ray_call)
        # a top-level ObjectRef argument reaches the task as its value: the shared value is
        # stored once and read from the object store by every task
        head = () if shared is _NOTHING else (ray.put(shared),)
        index = {remote.remote(fn, *head, item): i for i, item in enumerate(items)}
        pending = list(index)
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                keep(index[ref], ray.get(ref))


def as_finished(fn: Callable[[T], R], items: Iterable[T], executor: str = "serial",
                workers: int | None = None, ray_address: str | None = None) -> Iterator[tuple[int, R]]:
    """Run ``fn(item)`` for the items, at most ``workers`` at once, yielding ``(index, result)``
    as each job finishes (any order; ``index`` counts the items from 0).

    Unlike :func:`map_unordered` the items are taken one at a time, only when a worker is free,
    and the caller may stop at any time: an ``items`` iterator that ends starts nothing more
    (the jobs running are still yielded), and closing this generator (``break``, or leaving a
    ``with contextlib.closing(...)``) stops the jobs running — a pool's processes are
    terminated, Ray tasks cancelled. What a sequential test needs: keep every worker busy, and
    stop the moment the games played decide.

    Args:
        executor, workers, ray_address: as :func:`map_unordered`; with ``ray`` and an address,
            ``workers`` (default: the cluster's CPUs) bounds the tasks at once.
    Raises:
        ValueError: an unknown executor or ``workers`` < 1. ImportError: ``ray`` without Ray.
        Whatever ``fn`` raises (the other jobs are stopped). :class:`WorkerDied`: a pool
        worker died with a job running (process executor).
    """
    check_executor(executor, workers)
    source = enumerate(items)
    if executor == "serial":
        for i, item in source:
            yield i, fn(item)
    elif executor == "process":
        yield from _processes_as_finished(fn, source, workers or os.cpu_count() or 1)
    else:
        yield from _ray_as_finished(fn, source, workers, ray_address)


#: How often (seconds) :func:`as_finished` looks for a dead worker while no job answers.
WORKER_CHECK_SECONDS = 2.0


class WorkerDied(RuntimeError):
    """A pool worker of :func:`as_finished` died with a job running (its result is lost)."""


def _pool_workers() -> list[Any]:
    """This process's pool workers alive now (one stream's pool at a time in a process: the
    workers of a second pool started meanwhile would read as replacements of dead ones)."""
    import multiprocessing

    return [child for child in multiprocessing.active_children() if child.name.startswith("SpawnPoolWorker")]


def _processes_as_finished(fn: Callable[..., Any], source: Iterator[tuple[int, Any]],
                           size: int) -> Iterator[tuple[int, Any]]:
    import multiprocessing
    import queue

    finished: queue.SimpleQueue = queue.SimpleQueue()
    # multiprocessing's Pool, not concurrent.futures': its terminate() stops running jobs
    pool = multiprocessing.get_context("spawn").Pool(size)
    first = {w.pid for w in _pool_workers()}  # started by Pool() itself
    try:
        running = 0

        def start() -> bool:
            nonlocal running
            for i, item in source:
                pool.apply_async(fn, (item,), callback=lambda r, i=i: finished.put((i, r, None)),
                                 error_callback=lambda e, i=i: finished.put((i, None, e)))
                running += 1
                return True
            return False

        while running < size and start():
            pass
        while running:
            try:
                i, result, error = finished.get(timeout=WORKER_CHECK_SECONDS)
            except queue.Empty:
                # a worker killed (the OOM killer, a crash) never answers for its job, and the
                # Pool starts another in its place (its workers end no other way before
                # terminate()): a worker not among the first ones means one died
                if {w.pid for w in _pool_workers()} - first:
                    raise WorkerDied("a worker process died with a job running: its result is lost") from None
                continue
            running -= 1
            if error is not None:
                raise error
            yield i, result
            while running < size and start():
                pass
    finally:
        pool.terminate()
        pool.join()


def _ray_as_finished(fn: Callable[..., Any], source: Iterator[tuple[int, Any]], workers: int | None,
                     address: str | None) -> Iterator[tuple[int, Any]]:
    with session("ray", workers, address):
        import ray

        size = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        remote = ray.remote(num_cpus=1)(_ray_call)
        running: dict[Any, int] = {}
        try:
            def start() -> bool:
                for i, item in source:
                    running[remote.remote(fn, item)] = i
                    return True
                return False

            while len(running) < size and start():
                pass
            while running:
                ready, _ = ray.wait(list(running), num_returns=1)
                for ref in ready:
                    i = running.pop(ref)
                    yield i, ray.get(ref)
                while len(running) < size and start():
                    pass
        finally:
            for ref in running:
                ray.cancel(ref, force=True)


__all__ = ["EXECUTORS", "RAY_MISSING", "WorkerDied", "as_finished", "check_executor", "map_unordered", "session"]
