"""What the people at a match do: a move, an undo, a takeback asked or answered, a draw offered
or answered, a resignation, a fallen flag claimed, an abort, the game of a gone opponent claimed
(issues 7, 13, 14, 42; docs: playing/distance.md, playing/lobby.md).

lila writes these as ``MovePlayer``, ``Takebacker``, ``Drawer`` and ``Finisher``, each holding its
rules. Here the rules are the play session's (:class:`abstracta.play.Session`), so each act of
the server is the same steps, written once in :meth:`Acts._act`: load the match as it is now (a
fallen flag applied) and find the seats its tokens hold, then have the session act and let the
kernel store the change and announce its events. The request's fields were checked at the HTTP
edge (:mod:`abstracta.server.api.bodies`): the acts take typed values. What
follows a change — the computer's reply, the clock's timer, the pushes — reacts to those events
elsewhere.
"""

from __future__ import annotations

from typing import Any, Callable

from ..play import Progress, read_action, read_turn
from .errors import InvalidRequest
from .matches import Kernel, Match, Who


class Acts:
    """The acts of people at the matches of one process."""

    def __init__(self, kernel: Kernel):
        self.kernel = kernel

    def _act(self, match_id: Any, tokens: Who, act: Callable[[Match, set[int]], Progress]) -> Match:
        """Under the match's lock: the match as it is (loaded fresh, a fallen flag applied), the
        seats ``tokens`` hold (its seat tokens' and its person's; 401/403), then ``act(match,
        held)``; its progress stored and announced. Returns the match as stored."""

        def attempt() -> Match:
            match = self.kernel.fresh(match_id)
            return self.kernel.apply(act(match, self.kernel.authorize(match, tokens)))

        return self.kernel.change(match_id, attempt)

    def play(self, match_id: str, moves: list[str], ply: int, seat: int | None = None, tokens: list[str] = (),
             whole: bool = False) -> Match:
        """Apply the person's ``moves`` chosen at ``ply``, for the seat to move, which
        ``tokens`` must hold (401/403). 409 if ``ply`` is not current, the game is over (a
        fallen flag included), a seat is not taken yet or a computer seat is to move
        (:meth:`Session.play`).

        ``moves`` is one action (or whole-turn string), or several that the same seat plays
        in a row within one turn (e.g. a take and ``end``): all are applied, or none. With
        ``whole``, it is one whole turn in the game's whole-turn notation, as the view's
        ``turns`` lists it (:func:`~abstracta.play.read_turn`). How many moves one request
        may carry and how long each may be are the HTTP edge's bounds (``api.bodies``)."""
        texts = list(moves)

        def attempt() -> Match:
            match = self.kernel.fresh(match_id)
            if seat is not None and not 0 <= seat < len(match.players):
                raise InvalidRequest(f"seat {seat} does not exist in this game (0…{len(match.players) - 1})")
            held = self.kernel.authorize(match, tokens, seat)
            progress = match.play(held, texts, ply, self.kernel.now(), seat=seat,
                                  read=read_turn if whole else read_action)
            return self.kernel.apply(progress)

        return self.kernel.change(match_id, attempt)

    def undo(self, match_id: str, tokens: list[str] = ()) -> Match:
        """Take back at once to the start of the latest turn of a seat ``tokens`` hold, when
        they hold every person seat (against the computer, pass and play); with other people
        at the match it is 409: ask them (:meth:`request_takeback`; ``Session.undo``)."""
        return self._act(match_id, tokens, lambda match, held: match.undo(held, self.kernel.now()))

    def request_takeback(self, match_id: str, tokens: list[str] = ()) -> Match:
        """Ask the other people at the match to take back to the start of the requester's
        latest turn (done at once when nobody else needs to agree; ``Session.ask_takeback``)."""
        return self._act(match_id, tokens, lambda match, held: match.ask_takeback(held, self.kernel.now()))

    def answer_takeback(self, match_id: str, accept: bool, tokens: list[str] = ()) -> Match:
        """Accept or decline the pending takeback for the seats ``tokens`` hold
        (``Session.answer_takeback``)."""
        return self._act(match_id, tokens, lambda match, held: match.answer_takeback(held, accept, self.kernel.now()))

    def offer_draw(self, match_id: str, tokens: list[str] = ()) -> Match:
        """Offer the other seats still in a draw, for the seats ``tokens`` hold
        (``Session.offer_draw``). Returns the match as stored, the offer in ``live.draw``."""
        return self._act(match_id, tokens, lambda match, held: match.offer_draw(held, self.kernel.now()))

    def answer_draw(self, match_id: str, accept: bool, tokens: list[str] = ()) -> Match:
        """Accept or decline the pending draw offer for the seats ``tokens`` hold
        (``Session.answer_draw``)."""
        return self._act(match_id, tokens, lambda match, held: match.answer_draw(held, accept, self.kernel.now()))

    def claim_flag(self, match_id: str, tokens: list[str] = ()) -> Match:
        """Any seat's token: apply a fallen flag now (the server also does it by itself when
        it falls: a claim a moment later finds it applied, and answers with the match as
        well). 409 if no flag has fallen (``Session.claim_flag``)."""

        def attempt() -> Match:
            match = self.kernel.load(match_id, fresh=True)
            self.kernel.authorize(match, tokens)
            progress = match.claim_flag(self.kernel.now())
            return match if progress is None else self.kernel.apply(progress)

        return self.kernel.change(match_id, attempt)

    def abort(self, match_id: str, tokens: Who = ()) -> Match:
        """A seat ``tokens`` hold (its seat tokens', its person's) that has not made
        its first move aborts the game: no result, never rated (``Session.abort``; issue 42 §4).
        409 once each of them has moved or the game is over."""
        return self._act(match_id, tokens, lambda match, held: match.abort(held, self.kernel.now()))

    def claim_left(self, match_id: str, draw: bool, gone_since: Callable[[Match, int], float | None],
                   tokens: Who = ()) -> Match:
        """The seats ``tokens`` hold claim the game (``draw``: a draw) against the player to move,
        gone since ``gone_since(match, seat)`` (Unix seconds; None: there) — the server's
        presence says it (``Session.claim_left``; issue 42 §5). 409 while the other is here or
        not gone long enough (``at``: when they will have been)."""

        def act(match: Match, held: set[int]) -> Progress:
            mover = match.to_move()
            since = gone_since(match, mover) if mover is not None else None
            return match.claim_left(held, since, self.kernel.now(), draw)

        return self._act(match_id, tokens, act)

    def resign(self, match_id: str, seat: int | None, tokens: list[str] = ()) -> Match:
        """``seat`` (default: the person to move if ``tokens`` hold it, else the one seat they
        hold) resigns; ``tokens`` must hold it (401/403; ``Session.resign``)."""

        def attempt() -> Match:
            match = self.kernel.fresh(match_id)
            held = self.kernel.authorize(match, tokens)
            resigner = match.resigner(held, seat)
            self.kernel.authorize(match, tokens, resigner)
            return self.kernel.apply(match.resign(resigner, self.kernel.now()))

        return self.kernel.change(match_id, attempt)


__all__ = ["Acts"]
