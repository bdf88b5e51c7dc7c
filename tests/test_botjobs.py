"""Bot jobs (issue 14 §3, issue 44 §1): lanes, fairness, cancellation, deadlines, information-state
payloads, the process and Ray executors, the fast lane's worker process. Fake slow jobs stand in for deep searches where only the
scheduling is under test. No database here: outside tests/server, so CI's PostgreSQL pass does not
run them (and Ray) twice."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import threading
import time

import pytest

from abstracta.ai.alphabeta import AlphaBetaBot
from abstracta.ai.base import Budget, most_visited, stoppable
from abstracta.ai.mcts import MCTSBot
from abstracta.core.records import Record
from abstracta.core.registry import load_game
from abstracta.server import metrics
from abstracta.server.botjobs import (FAST_NICE, BotJob, InfoStateError, ProcessExecutor, ThreadExecutor, job_state,
                                      make_job, parse_workers, run_job)
from abstracta.server.lanes import BotJobs
from abstracta.server.matches import Match


def new_match(game_name: str, seed: int | None = None, **options) -> Match:
    game = load_game(game_name, **options)
    initial = game.new_initial_state(seed=seed)
    while initial.is_chance_node():
        initial.apply_action(initial.chance_outcomes()[0][0])
    return Match(game=game, initial=initial, state=initial.clone(), actions=[], players=["level:1"] * game.num_players,
                 id="m-" + game_name)


def job_for(spec: str, match_id: str = "m1", game: str = "fanorona") -> BotJob:
    match = new_match(game)
    match.id = match_id
    return make_job(match, spec)


class Collector:
    """``on_done`` that remembers each answer with the time it arrived."""

    def __init__(self):
        self.answers: list[tuple[BotJob, str | None, str | None, float]] = []
        self.event = threading.Event()

    def __call__(self, job, text, note):
        self.answers.append((job, text, note, time.monotonic()))
        self.event.set()

    def wait(self, n: int, timeout: float = 10.0) -> None:
        end = time.monotonic() + timeout
        while len(self.answers) < n:
            assert time.monotonic() < end, self.answers
            time.sleep(0.01)

    def matches(self) -> list[str]:
        return [a[0].match_id for a in self.answers]


def slow_deep(seconds: float):
    """A deep lane whose every job takes ``seconds`` (stops early when asked) and answers the
    state's first legal action."""

    def run(job, stop):
        stop.wait(seconds)
        state = job_state(job)
        return state.action_to_string(state.legal_actions()[0])

    return run


# --- lanes and fairness -------------------------------------------------------------------------
def test_level1_is_not_delayed_behind_queued_deep_searches():
    done = Collector()
    jobs = BotJobs(ThreadExecutor(slow_deep(2.0)), on_done=done)
    try:
        for i in range(5):
            jobs.submit(job_for("level:6", f"deep{i}"))
        time.sleep(0.1)
        start = time.monotonic()
        jobs.submit(job_for("level:1", "person"))
        done.wait(1)
        job, text, note, at = done.answers[0]
        assert job.match_id == "person" and note is None
        assert at - start < 0.5
        state = new_match("fanorona").state
        assert state.string_to_action(text) in state.legal_actions()
        summary = jobs.summary()
        assert summary["queued_deep"] == 4 and summary["running"] == 1 and summary["answered"] == 1
    finally:
        jobs.close()


def test_deep_lane_is_first_come_first_served_across_matches():
    gate = threading.Event()
    ran: list[str] = []

    def run(job, stop):
        if job.match_id == "blocker":
            gate.wait(10)
        ran.append(job.match_id)
        state = job_state(job)
        return state.action_to_string(state.legal_actions()[0])

    done = Collector()
    jobs = BotJobs(ThreadExecutor(run), on_done=done)
    try:
        jobs.submit(job_for("level:5", "blocker"))
        time.sleep(0.2)
        for mid in ("a", "b", "c"):
            jobs.submit(job_for("level:5", mid))
        jobs.submit(job_for("level:5", "a"))  # a newer job of match a replaces its queued one, at the back
        gate.set()
        done.wait(4)
        assert ran == ["blocker", "b", "c", "a"]
        assert jobs.summary()["cancelled"] == 1
    finally:
        jobs.close()


# --- cancellation -------------------------------------------------------------------------------
def test_cancelled_jobs_never_start_and_running_ones_are_dropped():
    started: list[str] = []
    stopped: list[str] = []

    def run(job, stop):
        started.append(job.match_id)
        if stop.wait(10):
            stopped.append(job.match_id)
        state = job_state(job)
        return state.action_to_string(state.legal_actions()[0])

    done = Collector()
    jobs = BotJobs(ThreadExecutor(run), on_done=done)
    try:
        jobs.submit(job_for("level:6", "running"))
        jobs.submit(job_for("level:6", "queued"))
        deadline = time.monotonic() + 5
        while started != ["running"]:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert jobs.cancel("queued") == 1
        assert jobs.cancel("running") == 1  # the search is asked to stop at once
        deadline = time.monotonic() + 5
        while jobs.summary()["running"]:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        time.sleep(0.2)
        assert started == ["running"] and stopped == ["running"]
        assert done.answers == []
        assert jobs.summary()["cancelled"] == 2 and jobs.queued() == 0
    finally:
        jobs.close()


# --- deadlines: best so far, never random -------------------------------------------------------
def run_stopped(bot, state, after: float):
    stop = threading.Event()
    threading.Timer(after, stop.set).start()
    start = time.monotonic()
    with stoppable(stop):
        action = bot.step(state)
    return action, time.monotonic() - start


def test_a_stopped_search_answers_its_best_action_so_far():
    state = new_match("fanorona").state
    mcts = MCTSBot(state.game, Budget(seconds=1000), seed=1)
    action, took = run_stopped(mcts, state, 0.3)
    assert took < 3 and mcts.iterations > 10
    assert action == most_visited(mcts.root.children).action
    ab = AlphaBetaBot(state.game, Budget(seconds=1000), seed=1)
    action, took = run_stopped(ab, state, 0.3)
    assert took < 3 and ab.depth >= 1 and action in state.legal_actions()


def test_an_overrunning_search_is_stopped_and_plays_its_best_so_far():
    done = Collector()
    jobs = BotJobs(ThreadExecutor(), on_done=done, overrun=lambda seconds: 0.3)
    try:
        start = time.monotonic()
        jobs.submit(job_for("mcts:1000", "slow"))
        done.wait(1)
        job, text, note, at = done.answers[0]
        assert at - start < 5 and note is None and job.spec == "mcts:1000"
        assert jobs.summary()["stopped"] == 1 and jobs.summary()["fallbacks"] == 0
    finally:
        jobs.close()


def test_a_hung_job_is_answered_by_a_quick_search_not_a_random_move():
    def hang(job, stop):
        time.sleep(3)  # ignores the stop request
        raise AssertionError("never used")

    done = Collector()
    jobs = BotJobs(ThreadExecutor(hang), on_done=done, overrun=lambda s: 0.2, kill_after=0.3)
    try:
        job = job_for("level:6", "hung")
        jobs.submit(job)
        done.wait(1, timeout=3)
        answered, text, note, _ = done.answers[0]
        assert answered.spec == "level:2" and "level:6 did not answer in time" in note
        # the quick search of the same information state: level 2 with the job's seed
        assert text == run_job(dataclasses.replace(answered, note=None))
        assert jobs.summary()["fallbacks"] == 1 and jobs.summary()["random_fallbacks"] == 0
    finally:
        jobs.close()


def test_a_cancelled_job_that_ignores_its_stop_is_given_up_after_kill_after():
    # A cancelled search was asked to stop and then waited on until it answered or overran its
    # own time (mcts:1000: 1000 s), holding its worker; on a loaded machine Ray's cancel took
    # longer than the Ray test's 30 s. It is now given up kill_after seconds after the stop, as
    # an overrunning search is, and its answer still dropped.
    release = threading.Event()

    def deaf(job, stop):
        release.wait(10)  # ignores the stop request
        return "d2-e3A"

    done = Collector()
    executor = ThreadExecutor(deaf)
    killed: list[int] = []
    kill = executor.kill
    executor.kill = lambda jid: (killed.append(jid), kill(jid))
    jobs = BotJobs(executor, on_done=done, overrun=lambda s: 1e9, kill_after=0.3)
    try:
        jobs.submit(job_for("mcts:1000", "cancelled"))
        deadline = time.monotonic() + 10
        while not jobs.summary()["running"]:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert jobs.cancel("cancelled") == 1
        deadline = time.monotonic() + 5
        while jobs.summary()["running"] and time.monotonic() < deadline:
            time.sleep(0.02)
        assert jobs.summary()["running"] == 0 and len(killed) == 1
        release.set()
        time.sleep(0.3)
        assert done.answers == []  # neither its answer nor a fallback: it was cancelled
        assert jobs.summary()["fallbacks"] == 0
    finally:
        release.set()
        jobs.close()


def test_worker_processes_stop_overrunning_searches_and_replace_dead_workers():
    done = Collector()
    executor = ProcessExecutor(1)
    # mcts:1000 overruns after 0.5 s (once the worker says it began); mcts:3000 never does
    jobs = BotJobs(executor, on_done=done, overrun=lambda seconds: 0.5 if seconds == 1000 else 1e9)
    try:
        jobs.submit(job_for("mcts:1000", "stopped"))
        done.wait(1, timeout=30)
        job, text, note, _ = done.answers[0]
        assert job.spec == "mcts:1000" and note is None and text  # its best so far
        assert jobs.summary()["stopped"] == 1
        victim = executor._workers[0].process
        jobs.submit(job_for("mcts:3000", "doomed"))
        deadline = time.monotonic() + 20
        while not any(executor.began(jid) for jid in list(jobs._deep.running)):
            assert time.monotonic() < deadline
            time.sleep(0.01)
        victim.kill()
        done.wait(2, timeout=20)
        job, text, note, _ = done.answers[1]
        assert job.spec == "level:2" and "worker process died" in note and text
        assert jobs.summary()["fallbacks"] == 1 and jobs.summary()["random_fallbacks"] == 0
        assert executor._workers[0].process is not victim  # replaced
        jobs.submit(job_for("level:3", "after"))  # and the new worker searches
        done.wait(3, timeout=30)
        assert done.answers[2][0].match_id == "after" and done.answers[2][2] is None
    finally:
        jobs.close()


# --- the fast lane's worker process (issue 44 §1) --------------------------------------------------
def in_fast_worker(job, stop):
    """What the fast worker runs in the test below (module level: the worker imports this module
    to unpickle it): match "slow" waits for its stop, "hung" ignores it, "doomed" ends its
    worker in the middle of its search; any other match is searched for real."""
    if job.match_id == "slow":
        stop.wait(30)
    elif job.match_id == "hung":
        time.sleep(30)
    elif job.match_id == "doomed":
        os._exit(3)
    return run_job(job, stop)


def until(predicate, timeout: float, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def search_cpu(lane: str, where: str) -> float:
    """``abstracta_bot_search_cpu_seconds`` of this process, as /metrics serves it."""
    return metrics.REGISTRY.get_sample_value("abstracta_bot_search_cpu_seconds_total",
                                             {"lane": lane, "where": where}) or 0.0


def legal_here(text: str | None) -> bool:
    state = new_match("fanorona").state
    return text is not None and state.string_to_action(text) in state.legal_actions()


def test_the_fast_lane_searches_in_a_worker_process_of_its_own():
    def deep(job, stop):
        if job.match_id == "broken":
            raise RuntimeError("a search that fails")
        return slow_deep(5.0)(job, stop)

    done = Collector()
    fast = ProcessExecutor(1, nice=FAST_NICE, name="abstracta-bot-fast")
    jobs = BotJobs(ThreadExecutor(deep), on_done=done, fast=fast)
    worker = fast._workers[0].process
    try:
        assert jobs.summary()["fast_executor"] == "process" and jobs.summary()["executor"] == "thread"
        jobs.submit(job_for("level:2", "warm"))  # the worker's first job waits for its imports
        done.wait(1, timeout=60)
        # a little below this process's CPU priority (deep workers: further below)
        assert os.getpriority(os.PRIO_PROCESS, worker.pid) == min(19, os.nice(0) + FAST_NICE)
        in_worker, here = search_cpu("fast", "worker"), search_cpu("fast", "web")
        for i in range(3):
            jobs.submit(job_for("level:6", f"deep{i}"))
        time.sleep(0.1)
        start = time.monotonic()
        jobs.submit(job_for("level:1", "person"))
        done.wait(2)
        job, text, note, at = done.answers[1]
        assert job.match_id == "person" and note is None and legal_here(text)
        assert at - start < 2.0  # not behind the deep searches (5 s each)
        # searched in the worker: its CPU reported as the worker's, none of it here
        assert search_cpu("fast", "worker") > in_worker and search_cpu("fast", "web") == here
        assert fast.searched > 0 and jobs.summary()["in_thread"] == 0
        # a deep job that fails: the quick search that stands in runs in the fast worker too
        for i in range(3):
            jobs.cancel(f"deep{i}")
        jobs.submit(job_for("level:6", "broken"))
        done.wait(3, timeout=30)
        job, text, note, _ = done.answers[2]
        assert job.match_id == "broken" and job.spec == "level:2" and "level:6 did not answer" in note
        assert legal_here(text) and search_cpu("fast", "web") == here
        assert jobs.summary()["fallbacks"] == 1 and jobs.summary()["in_thread"] == 0
    finally:
        jobs.close()
    worker.join(5)
    assert not worker.is_alive()  # closed with the lanes


def test_the_fast_worker_cancelled_hung_or_dead():
    done = Collector()
    fast = ProcessExecutor(1, nice=FAST_NICE, run=in_fast_worker)
    jobs = BotJobs(ThreadExecutor(), on_done=done, fast=fast, fast_overrun=1.0, kill_after=1.0)
    workers = []
    try:
        jobs.submit(job_for("level:1", "warm"))
        done.wait(1, timeout=60)
        first = fast._workers[0].process
        workers.append(first)
        # cancelled while it searches: asked to stop, its answer dropped, its worker kept
        slow = job_for("level:1", "slow")
        jobs.submit(slow)
        until(lambda: fast.began(slow.id) is not None, 10, "the worker did not start the job")
        assert jobs.cancel("slow") == 1
        until(lambda: jobs.summary()["running"] == 0, 5, "the cancelled job did not stop")
        time.sleep(0.3)
        assert done.matches() == ["warm"] and fast._workers[0].process is first
        # hung: asked to stop after fast_overrun, given up kill_after later, its worker replaced
        jobs.submit(job_for("level:1", "hung"))
        done.wait(2, timeout=30)
        job, text, note, _ = done.answers[1]
        assert job.match_id == "hung" and text is None and "did not answer in time" in note
        second = fast._workers[0].process
        workers.append(second)
        assert second is not first and not first.is_alive()
        # its worker dies under it: answered at once in this process, counted; the worker replaced
        here = search_cpu("fast", "web")
        jobs.submit(job_for("level:1", "doomed"))
        done.wait(3, timeout=30)
        job, text, note, _ = done.answers[2]
        assert job.match_id == "doomed" and note is None and legal_here(text)
        summary = jobs.summary()
        assert summary["in_thread"] == 1 and summary["fallbacks"] == 0 and summary["running"] == 0
        assert search_cpu("fast", "web") > here  # that search was this process's CPU
        until(lambda: fast._workers[0].process is not second, 5, "the dead worker was not replaced")
        workers.append(fast._workers[0].process)
        # and the new worker answers the next job
        jobs.submit(job_for("level:1", "after"))
        done.wait(4, timeout=60)
        job, text, note, _ = done.answers[3]
        assert job.match_id == "after" and note is None and legal_here(text)
        assert jobs.summary()["in_thread"] == 1 and done.matches() == ["warm", "hung", "doomed", "after"]
    finally:
        jobs.close()
    for process in workers:
        process.join(5)
        assert not process.is_alive()


# --- information-state payloads -------------------------------------------------------------------
def hidden_twin(match: Match, seat: int) -> Match:
    """The same match for ``seat``'s eyes, with the hidden cards dealt otherwise."""
    twin = dataclasses.replace(match)
    twin.state = match.state.resample_from_infostate(seat, random.Random(99))
    return twin


def test_card_game_job_carries_the_information_state_only():
    match = new_match("fibonacci-cards", seed=4242, first_player="0")
    state = match.state
    rng = random.Random(1)
    for _ in range(6):  # a few plays in: piles, hands and stock all in use
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        match.actions.append(state.history()[-1])
    seat = state.current_player()
    assert seat >= 0
    job = make_job(match, "level:4", rng=random.Random(7))
    twin_job = make_job(hidden_twin(match, seat), "level:4", rng=random.Random(7))
    # the payload is a function of what the seat knows: other hidden cards, the same payload
    assert hidden_twin(match, seat).state.to_text() != state.to_text()
    assert job.position == twin_job.position and job.record is None
    payload = json.dumps(dataclasses.asdict(job))
    assert "4242" not in payload and "seed" not in json.dumps(job.options)
    true_stock = state.to_text().split(" | ")[3]
    assert true_stock not in payload
    # and the bot's move is legal in the real state
    text = run_job(job)
    assert state.string_to_action(text) in state.legal_actions()


def test_fibonacci_cards_job_has_a_fresh_generator_not_the_match_seed():
    match = new_match("fibonacci", seed=77, variant="cards")
    true_text = match.state.to_text()
    job = make_job(match, "level:2")
    assert "rng=" in true_text and true_text.split("rng=")[1] not in job.position
    assert job.position.split()[:4] == true_text.split()[:4]  # board, side, moves left, turn
    assert sorted(job.position.split()[4]) == sorted(true_text.split()[4])  # same cards, own order
    state = match.state
    for _ in range(12):  # the bot's moves, chosen on drawn states, are legal in the real one
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        text = run_job(make_job(match, "level:2"))
        action = state.string_to_action(text)
        assert action in state.legal_actions()
        state.apply_action(action)
        match.actions.append(action)


def test_perfect_information_job_is_the_public_record_without_a_seed():
    match = new_match("fanorona", seed=5)
    job = make_job(match, "level:3")
    assert job.position is None and json.loads(job.record)["seed"] is None
    assert Record.from_json(job.record).replay()[0].to_text() == match.state.to_text()


def test_a_drawn_state_with_other_legal_actions_is_refused():
    match = new_match("fibonacci-cards", seed=3, first_player="0")

    class Liar:
        def __getattr__(self, name):
            return getattr(match.state, name)

        def resample_from_infostate(self, seat, rng):
            other = match.state.clone()
            other.apply_action(other.legal_actions()[0])  # someone else's turn: other actions
            return other

    liar = dataclasses.replace(match)
    liar.state = Liar()
    with pytest.raises(InfoStateError):
        make_job(liar, "level:3")


def test_bot_workers_values():
    assert parse_workers("3") == ("process", 3) and parse_workers(0) == ("thread", 0)
    assert parse_workers("ray") == ("ray", None) and parse_workers("ray:10.0.0.1:6379") == ("ray", "10.0.0.1:6379")
    with pytest.raises(ValueError, match="ray or ray:ADDRESS"):
        parse_workers("many")
    with pytest.raises(ValueError, match="ray or ray:ADDRESS"):  # '²'.isdigit(), but not a number
        parse_workers("²")


# --- Ray --------------------------------------------------------------------------------------
def test_jobs_run_and_cancel_on_ray():
    done = Collector()
    jobs = BotJobs("ray", on_done=done)
    try:
        assert jobs.summary()["executor"] == "ray"
        jobs.submit(job_for("mcts:1000", "cancelled"))
        deadline = time.monotonic() + 60
        while not jobs.summary()["running"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        jobs.submit(job_for("level:3", "answered"))
        done.wait(1, timeout=90)
        assert done.matches() == ["answered"] and done.answers[0][2] is None
        state = new_match("fanorona").state
        assert state.string_to_action(done.answers[0][1]) in state.legal_actions()
        assert jobs.cancel("cancelled") == 1
        deadline = time.monotonic() + 30  # ray.cancel is asynchronous; a loaded machine is slow
        while jobs.summary()["running"] and time.monotonic() < deadline:
            time.sleep(0.1)
        assert done.matches() == ["answered"] and jobs.summary()["running"] == 0
    finally:
        jobs.close()
