"""The analysis board (issue 16 §1): a position's evaluation and best line, a hint, or a
finished match's evaluation graph, each computed as one job of the computer's search queue
(fair with the computer players' searches) and waited for by the request.

Who may analyse what is the play session's rule while a game runs (hints and analysis only
against the computer: ``Session.check_assistance``; a hint counted in the record:
``Session.count_hint``) and this module's for the rest (a finished game for anyone who may view
it, a pasted position for anyone).
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

from ..ai.analysis import display_value
from ..core.errors import AbstractaError, UnknownGameError
from ..core.turns import turn_spans
from ..core.records import Record
from ..core.registry import load_game
from .botjobs import BotJob, make_analysis_job
from .computer import Computer
from .errors import Conflict, Forbidden, InvalidRequest, NotFound, TooBusy, Unavailable
from .matches import Kernel, Match, clip, cut, message

#: Analyses one asker may run at once (the analysis board; rate limits in general are elsewhere):
#: a browser, by the seat tokens or the session it sends, else an address that sends neither.
ANALYSIS_PER_CLIENT = 2
#: Analyses one client address may run at once, all its askers together: a club plays from
#: behind one router, so one address is a whole room (two for all of it made its people wait
#: for each other); a client inventing sessions gets no more than this.
ANALYSIS_PER_ADDRESS = 8
#: Longest wait for one analysis answer, in seconds.
ANALYSIS_TIMEOUT = 120.0
#: Seconds between two looks of a waiting analysis at whether its asker has gone.
ANALYSIS_GONE_POLL = 0.05
#: The evaluation graph: at most this many points (turn starts), each searched with this share
#: of the game's analysis budget.
GRAPH_POINTS, GRAPH_SHARE = 120, 0.02


def display_value_for(answer: dict[str, Any], seat: int) -> str:
    """An analysis answer's value for ``seat`` in words (``+0.42``, ``#5``)."""
    mate = answer.get("mate")
    if mate is not None and answer.get("to_move") is not None:
        return display_value(answer["values"][seat], mate if answer["to_move"] == seat else -mate)
    return display_value(answer["values"][seat])


class Analysis:
    """The analysis board's requests of one process."""

    def __init__(self, kernel: Kernel, computer: Computer, scale: float = 1.0):
        self.kernel, self.computer = kernel, computer
        self.scale = scale  # × each game's analysis budget (tests: smaller)
        self.analysing: dict[str, int] = {}  # client address -> analyses running
        self._asking: dict[tuple[str, str], int] = {}  # (address, asker) -> analyses running
        self._analyses: dict[int, tuple[threading.Event, list]] = {}  # job id -> (done, answer)
        self._guard = threading.Lock()

    def analyse(self, *, match_id: str | None = None, ply: int | None = None, game: str | None = None,
                options: dict[str, Any] | None = None, position: str | None = None, seat: int | None = None,
                hint: bool = False, graph: bool = False, scale: float | None = None, tokens: list[str] = (), client: str = "", asker: str = "",
                gone: threading.Event | None = None) -> dict[str, Any]:
        """The analysis board: a position's evaluation and best line, or a finished match's
        evaluation graph, computed as one bot job (:func:`~abstracta.server.botjobs.make_analysis_job`).

        Sources: ``match_id`` and ``ply`` (default: the last), or ``game``/``options`` and a
        pasted ``position`` text (``seat``: whose information, default the seat to move).
        Allowed: any ply of a finished match, for anyone who may view it (hidden information:
        each position from what its seat to move knew then); in a running match against the
        computer, the current position or an earlier one for a person seat the ``tokens``
        hold (all of the match's person seats must be theirs); a pasted position. ``hint``: the
        current position on the held seat's turn, counted in the record's ``Hints`` tag.
        ``graph``: per turn start of a finished match, the values per seat on a small budget.
        ``scale`` in (0, 1]: a share of the fixed budget (quick looks, tests). ``gone``: set
        once nobody waits for the answer any more (the asker has gone): the search is cancelled
        and no longer counts among the client's analyses. ``client``: the address asking;
        ``asker``: who asks from there (a browser's session or seat tokens, "" for nobody
        known): each may run ANALYSIS_PER_CLIENT at once, an address ANALYSIS_PER_ADDRESS.

        Returns ``Analysis.to_dict()`` plus ``ply`` (and ``hints``), or for ``graph``
        ``{"points": [{"ply", "values", "display"}], "search"}``.
        Raises (domain errors): 401/403 tokens, 404 no match or game, 409 a running game between
        people (or a hint/graph where none is offered), 422 bad ply, seat, options or position
        text, 429 too many analyses of this asker or address at once (ask again after
        ``retry_after`` seconds), 503 no answer in time (or ``gone``)."""
        if scale is None:
            scale = 1.0
        if hint and graph:
            raise InvalidRequest("ask for a hint or for a graph, not both")
        if (match_id is None) == (position is None):
            raise InvalidRequest("an analysis is of a match or of a pasted position (with its game), not both")
        if position is not None:
            if hint or graph:
                raise InvalidRequest("hints and graphs are for matches; a pasted position gets its analysis")
            record_json, points, struct = self._pasted(game, options, position, seat)
            match = None
        else:
            def points_of() -> tuple[Match, str, list]:
                match = self.kernel.fresh(match_id)
                return (match, *self._match_points(match, ply, seat, hint, graph, tokens))

            match, record_json, points = self.kernel.change(match_id, points_of)
            asked_on = tuple(match.actions)
        share = GRAPH_SHARE if graph else 1.0
        answers = self._run_analysis(record_json, points, self.scale * scale * share, client, gone, asker)
        if graph:
            n = len(match.players)
            return {"points": [{"ply": p, "values": a["values"], "terminal": a["terminal"],
                                "display": [display_value_for(a, i) for i in range(n)]}
                               for (p, _), a in zip(points, answers)],
                    "search": next((a["search"] for a in answers if a["search"]), "")}
        answer = {**answers[0], "ply": points[0][0]}
        if position is not None:  # the page draws the pasted position from its structured view
            answer["struct"] = struct
        if hint:
            seat = points[0][1]
            line = answer.get("line") or []
            # an answer without a turn for the seat is no hint given, and is not counted (as in the terminal)
            given = bool(line) and line[0]["player"] == seat
            answer["hints"] = self._count_hint(match_id, seat, asked_on, given)
        return answer

    def _pasted(self, game_name: str | None, options: dict[str, Any] | None, position: str,
                seat: int | None) -> tuple[str, list, dict]:
        """A pasted position (its length bounded at the HTTP edge): the record and the point
        to analyse, and its structured view."""
        if game_name is None:
            raise InvalidRequest("a pasted position needs its game")
        if not position.strip():
            raise InvalidRequest("the position text is empty")
        options = options or {}
        try:
            game = load_game(game_name, **options)
        except UnknownGameError as exc:
            raise NotFound(cut(str(exc))) from None
        except (AbstractaError, ValueError, TypeError) as exc:
            raise InvalidRequest(f"the options {clip(options)} were refused: {cut(str(exc), 200)}") from None
        try:
            state = game.state_from_text(position.strip())
        except (AbstractaError, ValueError) as exc:
            raise InvalidRequest(f"the position text is not a {game.name} position: {cut(str(exc), 200)}") from None
        n = game.num_players
        if seat is not None and not 0 <= seat < n:
            raise InvalidRequest(f"seat {seat} does not exist in this game (0…{n - 1})")
        mover = state.current_player()
        if not state.is_terminal() and mover < 0:
            raise InvalidRequest("the position is a chance node: nothing to choose there")
        viewer = seat if seat is not None else (mover if mover >= 0 else None)
        record = Record.from_play(game, state, [], start=state.to_text())
        return record.to_json(indent=None), [(0, viewer)], state.to_struct(viewer)

    def _match_points(self, match: Match, ply: int | None, seat: int | None, hint: bool, graph: bool,
                      tokens: list[str]) -> tuple[str, list]:
        """The record and the ``(ply, viewer)`` points to analyse in ``match`` (lock held)."""
        if ply is None:
            ply = match.ply
        if not 0 <= ply <= match.ply:
            raise InvalidRequest(f"ply {ply} is not a ply of this match (0…{match.ply})")
        n = len(match.players)
        if seat is not None and not 0 <= seat < n:
            raise InvalidRequest(f"seat {seat} does not exist in this game (0…{n - 1})")
        hidden = match.game.has_hidden_information
        movers = match.played_by()
        mover_at = lambda p: (movers[p] if p < len(movers) else match.state.current_player())  # noqa: E731
        if match.over:
            if hint:
                raise Conflict("the game is over: no hints, but every position can be analysed")
            held = self.kernel.held(match, tokens)
            # everything is shown once the game is over; each position is still searched from
            # what its seat to move knew then
            if hidden:
                view_of = lambda p: (mover_at(p) if mover_at(p) >= 0 else None)  # noqa: E731
            else:
                default = seat if seat is not None else (min(held) if len(held) == 1 else None)
                view_of = lambda p: default  # noqa: E731
            if graph:
                spans = turn_spans(movers, match.turn_numbers())
                starts = ([first for _, _, first, _ in spans] or [0]) + [match.ply]
                if len(starts) > GRAPH_POINTS:  # evenly spread, the first and last kept
                    step = (len(starts) - 1) / (GRAPH_POINTS - 1)
                    starts = sorted({starts[round(i * step)] for i in range(GRAPH_POINTS)})
                return self._record_for_analysis(match), [(p, view_of(p)) for p in starts]
            return self._record_for_analysis(match), [(ply, view_of(ply))]
        if graph:
            raise Conflict("the evaluation graph is shown once the game is over")
        held = self.kernel.authorize(match, tokens)
        match.check_assistance(held)  # the play session's rule: against the computer only
        persons = match.persons
        mine = sorted(held & set(persons))
        if not mine and hidden:  # a computer seat's cards stay hidden, even from its creator
            raise Forbidden("no token given holds a person seat of this match")
        if seat is not None and seat not in mine:
            raise Forbidden(f"no token given holds a person seat {seat}")
        mover = match.to_move()
        viewer = seat if seat is not None else (mover if mover in mine else mine[0] if mine else None)
        if hint:
            if ply != match.ply:
                raise Conflict(f"a hint is for the current position (ply {match.ply}), not ply {ply}")
            if mover != viewer:
                raise Conflict("a hint is for your own turn")
        return self._record_for_analysis(match), [(ply, viewer)]

    @staticmethod
    def _record_for_analysis(match: Match) -> str:
        """The full record (seed included) for the worker: it replays the real game and
        searches from the viewer's information state; its hidden cards never leave the worker.
        The match's own record (``Match.record``, cached per revision), its ending with it: its
        tags (``Resigned``, ``OutOfTime``, ``DrawOffered``) are read with its termination and
        result by ``Record.replay``, which refuses them apart."""
        return match.record().to_json(indent=None)

    def _run_analysis(self, record_json: str, points: list, scale: float, client: str,
                      gone: threading.Event | None = None, asker: str = "") -> list[dict]:
        """Run one analysis job in the bot jobs' deep lane (fair with the computer players'
        searches; :func:`~abstracta.server.botjobs.analysis_payload` sends each point as what its
        viewer may know) and wait for its answer, or until ``gone`` is set: then the job is
        cancelled, as a search nobody waits for would hold a worker and count against its client
        (a page reloaded mid-analysis had its next analysis refused) until ANALYSIS_TIMEOUT."""
        who = (client, asker)
        with self._guard:
            mine, here = self._asking.get(who, 0), self.analysing.get(client, 0)
            if mine >= ANALYSIS_PER_CLIENT:
                raise TooBusy(f"{mine} analyses of yours are running; wait for one to finish",
                              i18n=message("error.analyses_busy", n=mine))
            if here >= ANALYSIS_PER_ADDRESS:
                raise TooBusy(f"{here} analyses from your network address are running; wait for one to finish",
                              i18n=message("error.analyses_busy_address", n=here))
            self._asking[who] = mine + 1
            self.analysing[client] = here + 1
        try:
            try:
                job = make_analysis_job(record_json, points, scale, ANALYSIS_TIMEOUT)
            except (AbstractaError, ValueError) as exc:
                raise InvalidRequest(cut(str(exc), 200)) from None
            done = threading.Event()
            answer: list[Any] = []
            with self._guard:
                self._analyses[job.id] = (done, answer)
            try:
                self.computer.jobs.submit(job)
            except RuntimeError:
                raise Unavailable("the server is stopping") from None
            try:
                deadline = time.monotonic() + ANALYSIS_TIMEOUT
                while not done.wait(ANALYSIS_GONE_POLL if gone is not None else ANALYSIS_TIMEOUT):
                    if gone is not None and gone.is_set():
                        self.computer.jobs.cancel(job.match_id)
                        raise Unavailable("the analysis was stopped: nobody waits for its answer")
                    if time.monotonic() >= deadline:
                        self.computer.jobs.cancel(job.match_id)
                        raise Unavailable(f"the analysis took longer than {ANALYSIS_TIMEOUT:g} s; try again later")
            finally:
                with self._guard:
                    self._analyses.pop(job.id, None)
            text, note = answer[0]
            if text is None:
                raise InvalidRequest(cut(note or "the analysis failed", 200))
            return json.loads(text)
        finally:
            with self._guard:
                for table, key in ((self.analysing, client), (self._asking, who)):
                    left = table.get(key, 1) - 1
                    if left > 0:
                        table[key] = left
                    else:
                        table.pop(key, None)

    def analyses_running(self, client: str | None = None) -> int:
        """Analyses asked by ``client`` (None: by anyone) and not yet answered nor given up (their
        asker gone, their time over): queued, searched, or found and on their way back to the request. An address may have
        ``ANALYSIS_PER_ADDRESS`` at once (each asker there ``ANALYSIS_PER_CLIENT``); tests
        sharing one server wait for none before the next."""
        with self._guard:
            return sum(self.analysing.values()) if client is None else self.analysing.get(client, 0)

    def answered(self, job: BotJob, text: str | None, note: str | None) -> None:
        with self._guard:
            waiting = self._analyses.get(job.id)
        if waiting is not None:
            done, answer = waiting
            answer.append((text, note))
            done.set()

    def _count_hint(self, match_id: str, seat: int, asked_on: tuple[int, ...], given: bool) -> list[int]:
        """Add one hint for ``seat`` to the match's ``Hints`` tag (stored) if ``given``; the counts
        per seat (``Session.count_hint``: 409 when the match is no longer at the actions
        ``asked_on`` the hint was searched for, or is over: that hint answers a position that
        is gone, and is neither counted nor given, or the browser would draw it on the board of
        a later position that happens to have the same ply)."""
        def attempt() -> list[int]:
            match = self.kernel.fresh(match_id)
            progress = match.count_hint(seat, asked_on, given)
            if progress is None:
                return match.hint_counts()
            return self.kernel.apply(progress).hint_counts()

        return self.kernel.change(match_id, attempt)


__all__ = ["ANALYSIS_PER_ADDRESS", "ANALYSIS_PER_CLIENT", "ANALYSIS_TIMEOUT", "Analysis", "display_value_for"]
