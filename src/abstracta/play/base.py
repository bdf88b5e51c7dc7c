"""The data of a play session and what can be read from it (issue 37).

:class:`SessionBase` holds a game in play and answers questions about it (who is to move, who is
out, whose seats are taken, the turns played, the record); it changes only through
:meth:`SessionBase.push` and the helpers the acts share (the clock's start, the ending by the
rules, a takeback). The acts themselves, each a rule of play, are
:class:`~abstracta.play.session.Session`'s (moves, the clock, resignation, hints) and
:mod:`abstracta.play.requests`' (takebacks, draw offers).
"""

from __future__ import annotations

import copy as _copy
import functools
from dataclasses import dataclass, field, fields
from typing import Any, Iterable, NamedTuple, Sequence, TypeVar

from ..core.description import english
from ..core.game import Game, State, action_strings, draw_seats, seats_out, seats_out_on
from ..core.records import OUT_OF_TIME_TAG, RESIGNED_TAG, Record, hint_counts, out_of_time_seats, resigned_seat
from ..core.turn_ledger import EMPTY as NO_TURNS, TurnLedger
from ..core.turns import TurnText, played_turns, turn_texts
from ..core.view import message
from .errors import NotNow
from .events import Event, GameEnded
from .live import Live

S = TypeVar("S", bound="SessionBase")

#: The turns of its own a seat plays, after its draw offer was declined, withdrawn or lapsed,
#: before it may offer one again (docs: playing/distance.md "Draw offers"). lichess waits 20 plies, ten of one's own
#: chess moves, about a quarter of a game; the games here are shorter and their turns weigh more
#: (a capture chain, a Nibble take), and three turns are enough for the position to have changed
#: while leaving an honest second offer within reach.
DRAW_AGAIN_TURNS = 3

#: Fields a copy shares with its original: never changed once made (the initial state, the
#: rules' game, the turns written and counted so far), or a reader's memo of the whole line.
_SHARED = ("game", "initial", "written", "ledger", "carried")


class Written(NamedTuple):
    """What a session has written of its game up to the start of a turn (:attr:`SessionBase.written`).

    ``turns``: the turns before ``ply`` as the move list writes them (:func:`turn_texts`);
    ``state``: the state after ``ply`` actions; ``actions``: those actions; ``entries``: the
    record's move list of them (:meth:`Game.format_moves`) for a game whose record's entries
    are per turn (``records_by_turn``), else None. Shared by the copies of later sessions: never changed."""

    turns: list[TurnText]
    ply: int
    state: State
    actions: list[int]
    entries: list[str] | None


@functools.cache
def _copied(cls: type) -> tuple[str, ...]:
    """The fields of a session class that :meth:`SessionBase.copy` copies (not :data:`_SHARED`)."""
    return tuple(f.name for f in fields(cls) if f.name not in _SHARED)


def seat_messages(game: Game, seats: Iterable[int]) -> list[dict[str, Any]]:
    """``seats`` by their names as messages (the game's seat name, else ``seat.player``: "Player 2")."""
    styles = game.description.seats
    return [message(styles[i].name.key) if styles[i].name is not None else message("seat.player", n=i + 1)
            for i in seats]


@dataclass(eq=False)
class SessionBase:
    """A game being played: its data and what it is (the acts are :class:`~abstracta.play.session.Session`'s).

    Attributes:
        game, initial, state: the rules' game, its initial state (never changed) and the state now.
        actions, strings: the actions played and their notation as played.
        players: per seat, ``"human"`` or the computer's seat spec.
        start: the position text it started from (None: the game's initial position).
        tags: the record's tags (the ending's: ``Resigned``, ``OutOfTime``, ``DrawOffered``; ``Hints``).
        result, termination: the ending, None while it goes on.
        live: the clock and the pending requests.
        seated: the seats someone has taken; None: every seat (people at one terminal).
        movers, own_turns: per action, the seat that played it and the rules' turn number
            before it (None until first asked; then kept up by :meth:`push`).
        written: a :class:`Written`: the turns written already (:meth:`turn_texts`, and the
            record's entries of a game that writes them turn by turn) up to the start of the last one,
            the state there and the actions up to it (shared by the copies of later sessions,
            never changed: a long game is not written out again at every move).
        ledger: the turns counted so far (:class:`~abstracta.core.turn_ledger.TurnLedger`),
            carried to the copies and extended by the actions they add (shared, never changed).
        carried: a dict shared by a session and every copy made of it (one game's line of
            sessions): what a reader keeps to describe the next session from the last one (the
            server's move lists, encoded) instead of from the start. Each entry is checked
            against the session it is used for: a takeback, or an old session read again,
            finds it stale and does the work afresh.
    """

    game: Game
    initial: State
    state: State
    actions: list[int]
    players: list[str]
    start: str | None = None
    tags: dict[str, str] = field(default_factory=dict)
    result: list[float] | None = None
    termination: str | None = None
    strings: list[str] = field(default_factory=list)
    live: Live = field(default_factory=Live)
    seated: set[int] | None = None
    movers: list[int] | None = None
    own_turns: list[int | None] | None = None
    written: "Written | None" = None
    ledger: TurnLedger | None = None
    carried: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def begin(cls: type[S], game: Game, initial: State, players: Sequence[str], actions: Sequence[int] = (),
              **fields_: Any) -> S:
        """A session of ``game`` from ``initial`` with ``actions`` played already (replayed for
        their notation), other fields as given."""
        state = initial.clone()
        for action in actions:
            state.apply_action(action)
        return cls(game=game, initial=initial, state=state, actions=list(actions), players=list(players),
                   strings=action_strings(initial, actions), **fields_)

    def copy(self: S) -> S:
        """A copy to change: the state cloned, lists and dicts copied, the caches of the
        original (its record, its views) left behind."""
        new = _copy.copy(self)
        # this session is the one copied from from here on, never changed (a copy is what
        # changes): its state is the line's at its ply, for :meth:`turn_texts` to write on from
        self.carried["copied"] = (list(self.actions), self.state)
        kept = new.__dict__
        for key in [k for k in kept if k[0] == "_"]:
            del kept[key]
        for name in _copied(type(self)):  # every act copies its session: no isinstance chain per field
            value = kept[name]
            kind = type(value)
            if kind is list or kind is dict or kind is set:
                kept[name] = kind(value)
            elif value is None or kind is str or kind is int or kind is bool or kind is float:
                continue
            elif isinstance(value, State):
                kept[name] = value.clone()
            elif isinstance(value, Live):
                kept[name] = value.copy()
            elif isinstance(value, (list, dict, set)):
                kept[name] = type(value)(value)
        return new

    # --- what it is ----------------------------------------------------------------------------
    @property
    def ply(self) -> int:
        return len(self.actions)

    @property
    def over(self) -> bool:
        """The game has ended: with a result, or aborted (termination ``aborted``, no result)."""
        return self.result is not None or self.termination == "aborted"

    @property
    def aborted(self) -> bool:
        return self.termination == "aborted"

    def to_move(self) -> int | None:
        """The seat to move (None: over, or a chance outcome next)."""
        if self.over:
            return None
        player = self.state.current_player()
        return player if player >= 0 else None

    @property
    def persons(self) -> list[int]:
        """The seats played by people (not out on time)."""
        return [i for i, p in enumerate(self.players) if p == "human" and i not in self.live.out]

    @property
    def out_seats(self) -> set[int]:
        """Seats out of a 3–4 player game: out of time, or put out by the rules."""
        return set(self.live.out) | set(seats_out(self.state))

    @property
    def claimed(self) -> set[int]:
        """Seats someone has taken (every seat at one terminal)."""
        return set(range(len(self.players))) if self.seated is None else set(self.seated)

    @property
    def waiting_for(self) -> list[int]:
        """The person seats not taken yet: no move is played until there are none (issue 38 §1)."""
        if self.over:
            return []
        claimed = self.claimed
        return [i for i in self.persons if i not in claimed]

    @property
    def unmoved(self) -> list[int]:
        """The seats still in that have not made their first move (issue 42 §4): the clock
        starts once there are none, and until then a seat may abort the game before its own
        first move. Empty once the game has started (:attr:`Live.started`: a takeback to the
        start does not take back the start)."""
        if self.live.started:
            return []
        moved = set(self.played_by())
        out = self.out_seats if self.live.out else ()
        return [i for i in range(len(self.players)) if i not in moved and i not in out]

    @property
    def hides_cards(self) -> bool:
        """Hidden information is still hidden: the game has it and is not over."""
        return bool(self.game.has_hidden_information) and not self.over

    @property
    def resigned(self) -> int | None:
        """The seat that resigned (None: the game did not end by resignation, or an old record
        does not tell)."""
        if self.termination != "resignation":  # every view asks: no look at the state then
            return None
        return resigned_seat(self.tags, self.result, self.termination, self.out_seats)

    @property
    def out_of_time(self) -> list[int]:
        """The seats that ran out of time, in the order their flags fell."""
        told = OUT_OF_TIME_TAG in self.tags or self.termination != "time"  # the state is not needed then
        return out_of_time_seats(self.tags, len(self.players), self.result, self.termination,
                                 () if told else seats_out(self.state))

    def hint_counts(self) -> list[int]:
        """Hints given per seat, from the record's ``Hints`` tag (``"2,0"``; absent: none)."""
        return hint_counts(self.tags, len(self.players))

    def note_ending(self) -> None:
        """Write the resigning seat and the seats out of time into the tags (the record keeps
        them), for a session stored or recorded before the tags existed: from the live state's
        seats out of time, else as :func:`resigned_seat` and :func:`out_of_time_seats` infer."""
        if self.termination == "resignation" and RESIGNED_TAG not in self.tags and self.resigned is not None:
            self.tags[RESIGNED_TAG] = str(self.resigned)
        if OUT_OF_TIME_TAG not in self.tags:
            seats = list(self.live.out) or self.out_of_time
            if seats:
                self.tags[OUT_OF_TIME_TAG] = ",".join(map(str, seats))

    def state_at(self, ply: int) -> State:
        """The state after the first ``ply`` actions (a new one)."""
        state = self.initial.clone()
        for action in self.actions[:ply]:
            state.apply_action(action)
        return state

    def record(self, termination: str | None = None) -> Record:
        """The session's record (cached); ``termination`` for one that is not over (the
        terminal's ``abandoned``). The move list is the notation as played unless the game
        declares that it writes whole turns (``Game.format_moves`` then)."""
        termination = self.termination if self.over or termination is None else termination
        key = (self.ply, tuple(self.result) if self.result else None, termination, len(self.tags))
        cached = self.__dict__.get("_record")
        if cached is not None and cached[0] == key:
            return cached[1]
        record = Record.from_play(self.game, self.initial, self.actions, players=self.players, tags=self.tags,
                                  start=self.start, termination=termination, result=self.result,
                                  final=self.state, moves=self.record_moves())
        self.__dict__["_record"] = (key, record)
        return record

    # --- turns ---------------------------------------------------------------------------------
    def played_by(self) -> list[int]:
        """The seat that played each action (and :attr:`own_turns`), replayed once if not
        known, then kept up by :meth:`push`."""
        if self.movers is None or self.own_turns is None or len(self.movers) != self.ply \
                or len(self.own_turns) != self.ply:
            self.movers, self.own_turns = played_turns(self.initial, self.actions)
        return self.movers

    def turns(self) -> TurnLedger:
        """The turns played, counted (:class:`TurnLedger`: :func:`turn_numbers`,
        :func:`turn_spans`, :func:`turns_played`'s count): from the ledger of the session this
        one was copied from, so that a move counts only its own actions, not the whole game."""
        movers = self.played_by()
        assert self.own_turns is not None
        self.ledger = (self.ledger or NO_TURNS).follow(movers, self.own_turns)
        return self.ledger

    def turn_numbers(self) -> list[int]:
        """The number of the turn each action belongs to (:func:`turn_numbers`; shared: do not
        change it)."""
        return self.turns().numbers

    def turns_played(self) -> int:
        """The turns played as the move list lists them (:func:`turns_played`)."""
        return self.turns().turns

    def out_at(self) -> list[dict[str, int]]:
        """The seats the rules put out, each with the ply that did (:func:`seats_out_since`),
        in that order: ``[{"seat": 0, "ply": 81}]`` — a 3–4 player game's end says when each
        seat went. Cached per actions played; no replay while nobody is out."""
        key = tuple(self.actions)
        cached = self.__dict__.get("_out_at")
        if cached is None or cached[0] != key:
            since = self._seats_out_since()
            cached = (key, [{"seat": seat, "ply": ply} for seat, ply in sorted(since.items(), key=lambda x: (x[1], x[0]))])
            self.__dict__["_out_at"] = cached
        return cached[1]

    def _seats_out_since(self) -> dict[int, int]:
        """:func:`seats_out_since` of the game, played on from where the last session of this
        line left it (:attr:`carried`: the actions it read, the state after them, its answer)
        when its actions are this one's first: a move replays itself, not the whole game (the
        game goes on past a seat put out, and the answer is asked at every move)."""
        if not seats_out(self.state):
            return {}
        kept = self.carried.get("seats_out")
        if kept is not None and len(kept[0]) <= len(self.actions) and self.actions[:len(kept[0])] == kept[0]:
            ply, state, since = len(kept[0]), kept[1].clone(), kept[2]
        else:
            state = self.initial.clone()
            ply, since = 0, {seat: 0 for seat in seats_out(state)}
        since = seats_out_on(state, since, ply, self.actions[ply:])
        self.carried["seats_out"] = (list(self.actions), state, since)
        return since

    def turn_texts(self, movers: Sequence[int], numbers: Sequence[int]) -> list[TurnText]:
        """The turns played as the terminal's replay writes them (:func:`turn_texts`), given
        ``movers`` and their turn ``numbers``; from :attr:`written` on when the actions up to
        there are unchanged (a takeback: from the start). Kept until the session changes (a
        view and a record ask for them alike)."""
        key = (self.ply, id(self.state), id(self.actions))
        cached = self.__dict__.get("_turn_texts")
        if cached is not None and cached[0] == key:
            return cached[1]
        written = self._written_so_far()
        ply, state = written.ply, written.state
        # the turns written from there by the last sessions of the line (the turn in progress;
        # the turn just played, written again once the next begins): kept with that state
        known = self.carried.get("turns_from")
        if known is None or known[0] is not state or len(known[1]) > 64:  # (a turn hundreds of actions long)
            known = self.carried["turns_from"] = (state, {})
        # the state of the session last copied from along the line (the one this move was played
        # on), when it is this game's past beyond what is written: the last turn starts there
        # after a one-action turn, which is then neither replayed to nor cloned
        copied = self.carried.get("copied")
        if copied is not None and (not ply < len(copied[0]) <= self.ply or self.actions[:len(copied[0])] != copied[0]):
            copied = None
        rest = turn_texts(state, self.actions[ply:], movers[ply:], numbers[ply:], ply=ply, strings=self.strings[ply:],
                          known=known[1], at=(len(copied[0]) - ply, copied[1]) if copied is not None else None)
        if len(rest) > 1:  # the turns before the last are over: written once
            end = rest[-1].first
            if copied is not None and len(copied[0]) == end:
                state = copied[1]
            else:
                state = state.clone()
                for action in self.actions[ply:end]:
                    state.apply_action(action)
            entries = None
            if written.entries is not None:  # the record's entries of those turns, written once too
                entries = written.entries + self._format_moves(written.state, self.actions[ply:end])
            self.written = Written(written.turns + rest[:-1], end, state, self.actions[:end], entries)
        self.__dict__["_turn_texts"] = (key, written.turns + rest)
        return self.__dict__["_turn_texts"][1]

    def _written_so_far(self) -> "Written":
        """:attr:`written` when the actions it wrote are still this session's first ones, else
        nothing written (a takeback reached into it, or a turn was played again in another order)."""
        written = self.written
        if written is None or written.ply > self.ply or self.actions[:written.ply] != written.actions:
            entries = [] if self.game.description.records_by_turn else None
            written = Written([], 0, self.initial, [], entries)
        return written

    def record_moves(self) -> list[str]:
        """The record's move list (:meth:`record`'s ``moves``) without the rest of the record
        (a view lists it at every move: the record would format its date and copy the list):
        :attr:`strings` itself for a game that writes one entry per action, else
        :meth:`_record_moves`'s. Shared: do not change it."""
        moves = self._record_moves()
        return self.strings if moves is None else moves

    def _record_moves(self) -> list[str] | None:
        """The record's move list of a game that writes whole turns (:meth:`Game.format_moves`):
        when its entries are per turn (``records_by_turn``), those of the turns :attr:`written`
        already, then those of the turns since, else the whole game's afresh. None for a game
        that writes one entry per action (its record copies :attr:`strings`)."""
        description = self.game.description
        if not description.whole_turn_notation:
            return None
        if not description.records_by_turn:
            return self.game.format_moves(self.initial, self.actions)
        if self.ply:  # write the turns over (the move list's), so that the rest is the last turn
            self.turn_texts(self.played_by(), self.turn_numbers())
        written = self._written_so_far()
        assert written.entries is not None
        return written.entries + self._format_moves(written.state, self.actions[written.ply:])

    def _format_moves(self, state: State, actions: Sequence[int]) -> list[str]:
        """``Game.format_moves(state, actions)`` of a state :attr:`written` holds (never changed),
        the last answer kept along the line (:attr:`carried`): the record's entries of the turn
        just played are asked for again when the next turn begins (then they are written)."""
        key = tuple(actions)
        kept = self.carried.get("format_moves")
        if kept is None or kept[0] is not state or kept[1] != key:
            kept = self.carried["format_moves"] = (state, key, self.game.format_moves(state, actions))
        return list(kept[2])

    def push(self, action: int) -> None:
        """Apply ``action`` to the state, noting its notation and who played it. No rule of play
        is checked (the acts below check them): it is how they play, and how a stored game is
        read back."""
        if self.movers is not None and self.own_turns is not None:
            self.movers.append(self.state.current_player())
            self.own_turns.append(self.state.turn_number())
        self.strings.append(self.state.action_to_string(action))
        self.state.apply_action(action)
        self.actions.append(action)

    def reorder_turn(self, first: int, before: State, turn: list[int]) -> None:
        """Play ``turn`` from ``before`` (the state after ``first`` actions, not changed) in place
        of the actions from ``first`` on: the same turn in another order that ends in the same
        position (:meth:`Game.canonical_turn`), played by the same seat."""
        state = before.clone()
        strings, own = [], []
        for action in turn:
            strings.append(state.action_to_string(action))
            own.append(state.turn_number())
            state.apply_action(action)
        self.actions[first:] = turn
        self.strings[first:] = strings
        if self.own_turns is not None:
            self.own_turns[first:] = own
        self.state = state
        self.__dict__.pop("_record", None)
        self.__dict__.pop("_turn_texts", None)

    def _canonical_turn(self) -> int | None:
        """Once the computer's last action ends its turn, that turn in the game's canonical
        order (:meth:`Game.canonical_turn`), in a game that declares a whole-turn notation: a
        bot takes a turn's discs in its own order (c1, then a1), which the move list and the
        record would write take by take, where people write the turn as the spec does
        (Nibble's ``a1+c1``). Only the order stored changes; the turn ends in the same position.
        Returns the turn's first ply when it was rewritten."""
        if not self.game.description.whole_turn_notation or not self.actions:
            return None
        number, seat, first, stop = self.turns().spans[-1]
        state = self.state
        if not state.is_terminal() and state.current_player() == seat and state.turn_number() in (None, number):
            return None  # the turn goes on
        if stop - first < 2:
            return None
        before = self.state_at(first)
        turn = self.actions[first:]
        ordered = self.game.canonical_turn(before, turn)
        if ordered == turn:
            return None
        self.reorder_turn(first, before, ordered)
        return first

    # --- shared by the acts ----------------------------------------------------------------------
    def _check_open(self) -> None:
        """NotNow when the game is over."""
        if self.over:
            raise NotNow("the game is over", message("error.game_over"))

    def _check_seated(self) -> None:
        """NotNow while a person seat is not taken (issue 38 §1): no move, a person's or the
        computer's, before everyone is there."""
        waiting = self.waiting_for
        if waiting:
            said = message("error.waiting_seats", who=seat_messages(self.game, waiting), n=len(waiting))
            raise NotNow(english(said, (st.name for st in self.game.description.seats if st.name is not None)), said)

    def _finish_if_over(self, events: list[Event]) -> None:
        """Set the result when the rules ended the game; seats out on time lose whatever the
        rules say (termination ``time`` when that changes the rules' result). A 3-4 player game
        with seats out on time also ends when a move leaves one seat neither out of time nor
        without pieces (it wins, as when a flag leaves it alone: ``Session.flag``), or none: the
        rules know nothing of the clock and would have it play on against the computer moves of
        the seats out."""
        was_over = self.over
        if self.state.is_terminal():
            result = [float(r) for r in self.state.returns()]
            forced = [-1.0 if i in self.live.out else r for i, r in enumerate(result)]
            self.result = forced
            self.termination = "time" if forced != result else "normal"
        elif self.live.out and len(self.players) > 2:
            alive = [i for i in range(len(self.players)) if i not in self.out_seats]
            if len(alive) <= 1:
                self.result = [1.0 if i in alive else -1.0 for i in range(len(self.players))]
                self.termination = "time"
        if self.over and not was_over:
            assert self.result is not None and self.termination is not None
            events.append(GameEnded(tuple(self.result), self.termination))

    def start_clock(self, now: float) -> None:
        """Let the clock of the person to move run, once every person seat is taken (a clock
        waits for the invited players) and every seat has made its first move (lichess's rule,
        issue 42 §4: a first move costs no time); computer seats have no clock. Until then, in
        a game with a deadline for first moves (:attr:`Live.start_within`), the person to make
        their first move waits from ``now`` (:attr:`Live.start_since`). Notes when the turn of
        the seat to move began (:attr:`Live.turn_since`), if not yet. Changes this session: for
        one being made (a new match), and for the acts' new sessions."""
        live = self.live
        if self.over or self.waiting_for:
            return
        mover = self.to_move()
        if live.turn_since is None:
            live.turn_since = now
        if not live.started:
            unmoved = self.unmoved
            if unmoved:
                if live.start_within is not None and live.start_since is None and mover in unmoved \
                        and mover in self.persons:
                    live.start_since = now
                return
            live.started = True
        live.start_since = None
        if live.clock is None or live.running is not None:
            return
        if mover in self.persons:
            live.running, live.since = mover, now

    # --- draw offers: who must agree (docs: playing/distance.md "Draw offers") --------------------------------------
    def draw_seats(self) -> list[int]:
        """The seats whose agreement a draw needs (:func:`~abstracta.core.game.draw_seats`): not
        those out by the rules or on time."""
        return draw_seats(len(self.players), self.out_seats)

    def draw_waiting(self, offer: dict[str, Any]) -> list[int]:
        """The seats still to accept the draw ``offer``."""
        return [i for i in self.draw_seats() if i != offer["by"] and i not in offer["accepted"]]

    def draw_again_in(self, seat: int) -> int:
        """The turns of its own ``seat`` still plays before it may offer a draw again, after its
        last offer was declined, withdrawn or lapsed (0: none). Counted in its own turns, not in
        plies: with 3–4 players or turns of many actions (a capture chain, a Nibble take) plies
        say nothing of how much the position has changed for it."""
        since = self.live.draw_again.get(str(seat))
        if since is None or self.over:
            return 0
        movers = self.played_by()
        now = self.to_move()
        done = 0
        # the wait is over after DRAW_AGAIN_TURNS turns: counted no further (the ply of an old
        # offer stays in the live state, and every view of the game asks)
        for q in range(since, self.ply):
            if movers[q] == seat and (movers[q + 1] != seat if q + 1 < self.ply else now != seat):
                done += 1
                if done >= DRAW_AGAIN_TURNS:
                    return 0
        return DRAW_AGAIN_TURNS - done


__all__ = ["DRAW_AGAIN_TURNS", "SessionBase", "seat_messages"]
