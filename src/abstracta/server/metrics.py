"""Prometheus metrics of one web process (issue 44 §4): ``GET /metrics`` (:mod:`.ops`) serves them
in Prometheus' text format, with ``prometheus-client``.

Each ``abstracta serve`` process has its own counters: Prometheus scrapes every worker on its
own port (a club deployment's nginx does not forward ``/metrics``: behind it a scrape would reach
one worker at random) and sums them (``sum(rate(abstracta_moves_acknowledged_total[1m]))``).

What is counted where:

* at the edge (:class:`abstracta.server.security.Edge`, the outer ASGI layer, by
  :func:`abstracta.server.ops.observe_http`): every HTTP answer by route template and status, the
  time each act takes (:data:`ACT_SECONDS`, by act), the moves acknowledged (a ``POST …/actions``
  answered 200), the open WebSockets;
* by small hook calls in the server: :func:`error` (a bug answered 500 or ending a WebSocket,
  by exception type; shared rate-limit counters away), :func:`bot_waited` (a computer move's
  wait in its lane's queue) and :func:`bot_searched` (the CPU its search took, and where), from
  the lanes (:mod:`.lanes`);
* read when scraped (:class:`ServiceCollector`): the bot queue's depth and counters, the matches
  held in memory and their actions summed, the matches with live subscribers.

:func:`stage` times the parts of an act in the match service's kernel (:mod:`.matches`): the
wait for the match's lock, the commit, and the announcement to the concerns that react (pushes,
clocks, the computer's turn).
"""

from __future__ import annotations

from typing import Any, Iterable

from prometheus_client import (CollectorRegistry, Counter, Gauge, Histogram, ProcessCollector, disable_created_metrics,
                               generate_latest)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

# no ``*_created`` series beside each counter: Prometheus has no use for them and they double the text
disable_created_metrics()

#: The process-wide metrics (one web process, one registry; a test process that builds several
#: apps adds up their counts, and tests compare differences).
REGISTRY = CollectorRegistry(auto_describe=True)
ProcessCollector(registry=REGISTRY)  # process_resident_memory_bytes, process_open_fds, CPU seconds

#: Latency buckets in seconds: a move is a few milliseconds on an idle machine, a busy one
#: queues it for hundreds (docs: measurements/server.md).
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

MOVES = Counter("abstracta_moves_acknowledged", "Moves by people the server stored and answered 200",
                registry=REGISTRY)
ACT_SECONDS = Histogram("abstracta_act_seconds", "Time from a state-changing request's arrival to its answer, "
                        "by act (move, undo, takeback, takeback_answer, draw, draw_answer, flag, resign, "
                        "delete, create, import, claim, invite)", ["act"], buckets=LATENCY_BUCKETS,
                        registry=REGISTRY)
HTTP = Counter("abstracta_http_responses", "HTTP answers by route template, method and status",
               ["route", "method", "status"], registry=REGISTRY)
SOCKETS = Gauge("abstracta_websockets_open", "WebSockets open now, by kind: match (a live match view), room "
                "(a match's chat and watchers), lobby, notices (a person's, on every page), other", ["kind"], registry=REGISTRY)


def socket_kind(path: str) -> str:
    """The ``kind`` label of a WebSocket at ``path``: a match page opens two (its view and its
    room), so the views alone say where its live view is served."""
    if path.startswith("/api/matches/"):
        return "match" if path.endswith("/ws") else "room" if path.endswith("/room") else "other"
    return {"/api/lobby/ws": "lobby", "/api/notices/ws": "notices"}.get(path, "other")
ERRORS = Counter("abstracta_errors", "Errors by type: bugs (the exception's type: answered 500 or ending "
                 "a WebSocket), RateLimitStorageUnavailable (the shared counters did not answer) and "
                 "BotWorkerStartFailed (a bot worker process could not be started)",
                 ["type"], registry=REGISTRY)
BOT_WAIT = Histogram("abstracta_bot_wait_seconds", "Time a computer move waited in its lane's queue before "
                     "it was handed to the lane's worker (fast: levels 1-2; deep: searches)", ["lane"],
                     buckets=LATENCY_BUCKETS, registry=REGISTRY)
#: where="web" is inside the web process's own CPU (a thread of it: --bot-workers 0, or a fast job
#: whose worker died), where="worker" is not: a benchmark that divides the web process's CPU by
#: the moves tells the two apart with this (load.py); Ray tasks' CPU is not reported
BOT_CPU = Counter("abstracta_bot_search_cpu_seconds", "CPU time the computer's searches took, by lane "
                  "(fast: levels 1-2; deep: searches) and where they ran (web: a thread of this web "
                  "process; worker: a worker process of it, its search thread's CPU)", ["lane", "where"],
                  registry=REGISTRY)
STAGE_SECONDS = Histogram("abstracta_act_stage_seconds", "Parts of an act inside the match service "
                          "(lock_wait, commit, announce)", ["stage"], buckets=LATENCY_BUCKETS,
                          registry=REGISTRY)


# --- hooks ------------------------------------------------------------------------------------
def error(kind: str) -> None:
    """Count one error of type ``kind`` (an exception's class name for a bug)."""
    ERRORS.labels(kind[:64]).inc()


def bot_waited(lane: str, seconds: float) -> None:
    """A computer move's job left its queue after ``seconds`` (``lane``: fast | deep)."""
    BOT_WAIT.labels(lane).observe(max(0.0, seconds))


def bot_searched(lane: str, where: str, seconds: float) -> None:
    """The searches of ``lane`` (fast | deep) took ``seconds`` more CPU ``where`` (web | worker)."""
    BOT_CPU.labels(lane, where).inc(max(0.0, seconds))


#: each stage's series, looked up once: ``labels()`` builds a tuple and takes a lock each call,
#: and every act observes three stages, every view its lock wait
_STAGES = {name: STAGE_SECONDS.labels(name) for name in ("lock_wait", "commit", "announce")}


def stage(name: str, seconds: float) -> None:
    """One part of an act took ``seconds`` (``name``: lock_wait | commit | announce)."""
    series = _STAGES.get(name)
    (series if series is not None else STAGE_SECONDS.labels(name)).observe(max(0.0, seconds))


class Series:
    """The children of a labelled metric by their label values, each looked up once (the labels
    of a request's answer: its route template, method and status — a bounded set)."""

    def __init__(self, metric: Any, limit: int = 2000):
        self.metric, self.limit = metric, limit
        self._children: dict[tuple[str, ...], Any] = {}

    def __call__(self, *values: str) -> Any:
        child = self._children.get(values)
        if child is None:
            child = self.metric.labels(*values)
            if len(self._children) < self.limit:
                self._children[values] = child
        return child


#: :data:`HTTP` and :data:`ACT_SECONDS` by their labels (:func:`abstracta.server.ops.observe_http`)
HTTP_SERIES = Series(HTTP)
ACT_SERIES = Series(ACT_SECONDS)


# --- read at scrape time ----------------------------------------------------------------------
class ServiceCollector(Collector):
    """Gauges and counters read from a match service when scraped: nothing to keep in step."""

    def __init__(self, service_now: Any):
        self.service_now = service_now  # () -> the match service (None once its app is gone)

    def collect(self) -> Iterable[Any]:
        service = self.service_now()
        if service is None:
            return
        jobs = getattr(service, "jobs", None)
        if jobs is not None:
            summary = jobs.summary()
            depth = GaugeMetricFamily("abstracta_bot_queue_depth", "Computer moves waiting for their lane",
                                      labels=["lane"])
            depth.add_metric(["fast"], summary["queued_fast"])
            depth.add_metric(["deep"], summary["queued_deep"])
            yield depth
            yield GaugeMetricFamily("abstracta_bot_running", "Computer moves being searched now",
                                    value=summary["running"])
            yield GaugeMetricFamily("abstracta_bot_slots", "Searches the deep lane runs at once",
                                    value=summary["slots"])
            jobs_total = CounterMetricFamily("abstracta_bot_jobs", "Computer-move jobs by outcome (submitted, "
                                             "answered, cancelled, stopped at their budget, fallbacks to a "
                                             "quick search, random fallbacks, fast jobs answered in the web process "
                                             "because their worker died)", labels=["outcome"])
            for outcome in ("submitted", "answered", "cancelled", "stopped", "fallbacks", "random_fallbacks",
                            "in_thread"):
                jobs_total.add_metric([outcome], summary[outcome])
            yield jobs_total
        cache = getattr(service, "cache", None)
        if cache is not None:
            held = list(cache.values())  # one pass in C: the cache changes in other threads
            yield GaugeMetricFamily("abstracta_matches_cached", "Matches held in this process's memory",
                                    value=len(held))
            # a held match's memory grows with its actions (its state's history, its move list,
            # its views): with the cache full, memory follows this sum (benchmarks/soak.py)
            yield GaugeMetricFamily("abstracta_plies_cached", "Actions played in the matches held in this "
                                    "process's memory, summed", value=sum(len(m.actions) for m in held))
        hub = getattr(service, "hub", None)
        if hub is not None:
            yield GaugeMetricFamily("abstracta_matches_watched", "Matches with a live WebSocket in this process",
                                    value=len(hub.subscribed()))


def exposition(service_registry: CollectorRegistry | None = None) -> bytes:
    """The text Prometheus reads: the process-wide metrics, then ``service_registry``'s."""
    text = generate_latest(REGISTRY)
    if service_registry is not None:
        text += generate_latest(service_registry)
    return text


__all__ = ["socket_kind", "ACT_SECONDS", "ACT_SERIES", "BOT_WAIT", "ERRORS", "HTTP", "HTTP_SERIES", "MOVES", "REGISTRY", "SOCKETS",
           "Series", "ServiceCollector", "bot_searched", "bot_waited", "error", "exposition", "stage"]
