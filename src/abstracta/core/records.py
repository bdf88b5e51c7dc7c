"""Game records (DESIGN.md "Records"): JSON with tags, options, seed, moves and the result.

A record is replayed through the rules when it is loaded, so an illegal or corrupt record is
refused with the ply and the reason (:class:`RecordError`).

Shape (``format`` = ``"abstracta-record"``, ``version`` = 1)::

    {"format": "abstracta-record", "version": 1,
     "game": "fanorona", "options": {"size": "dimy"}, "seed": null,   # null without chance
     "start": null,                      # position text, or null for the initial position
     "players": ["human", "level:3"],    # one entry per seat
     "tags": {"date": "2026-11-29T17:00:00Z", ...},
     "moves": ["b2-c3A", ...],           # the spec's notation; one entry per action (or turn)
     "result": [1.0, -1.0],              # null while unfinished
     "termination": "normal"}            # normal | resignation | time | agreement | left | aborted | abandoned | null
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Sequence

from .errors import AbstractaError, RecordError
from .game import Game, State, agreed_draw_returns, draw_seats, resignation_returns, seats_out
from .options import ascii_digits, seed_problem
from .registry import load_game

FORMAT = "abstracta-record"
VERSION = 1
#: The tag counting the hints each seat asked for (``"2,0"``: seat 0 two, seat 1 none), in the
#: web app and the terminal alike.
HINTS_TAG = "Hints"
#: The tag naming the seat that resigned (``"1"``), written with ``termination`` ``resignation``:
#: in a 3-4 player game the seats the rules put out earlier lost too, so the result alone does
#: not tell. Records without it (older ones) leave the reader to infer it (:func:`resigned_seat`).
RESIGNED_TAG = "Resigned"
#: The tag listing the seats that ran out of time (``"2"``, ``"0,2"``: in the order their flags
#: fell), written by the server's clocks; a 3-4 player game goes on after a flag, so it may be
#: there while the game runs or ends otherwise.
OUT_OF_TIME_TAG = "OutOfTime"
#: The tag naming the seat that offered the draw the others accepted (``"0"``), written with
#: ``termination`` ``agreement``: the result (0 for every seat still in) does not tell.
DRAW_OFFERED_TAG = "DrawOffered"
#: The tag naming the seat that left a two-player game on its own turn (``"1"``), written with
#: ``termination`` ``left``: the other claimed the game (the result says so) or a draw (issue 42 §5).
LEFT_TAG = "Left"
#: The tags of an aborted game (termination ``aborted``, no result): the seat that aborted it
#: (``Aborted``), or the seat that did not make its first move in time (``NoStart``).
ABORTED_TAG, NO_START_TAG = "Aborted", "NoStart"
#: ``time``: a seat's clock ran out (the server's clocks); its result is the server's, like a resignation.
#: ``agreement``: the players agreed a draw (the server's draw offers); the rules had not ended it.
#: ``left``: a player was gone on their own turn and the other claimed the game or a draw.
#: ``aborted``: the game ended before it began (no result: not lost, not drawn, never rated).
TERMINATIONS = ("normal", "resignation", "time", "agreement", "left", "aborted", "abandoned", None)
#: The terminations whose result the players or the clock decided, not the rules.
DECIDED = ("resignation", "time", "agreement", "left")


@dataclass
class Record:
    """One game, as stored. See the module docstring for the JSON shape."""

    game: str
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    start: str | None = None
    players: list[str] = field(default_factory=list)
    tags: dict[str, str] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)
    result: list[float] | None = None
    termination: str | None = None

    # --- building -------------------------------------------------------------------------
    @staticmethod
    def options_of(game: Game) -> dict[str, Any]:
        """The record's ``options`` of a game of ``game`` (its options but the seed and those
        unset, tuples as lists): :meth:`from_play`'s, for a reader that needs them alone."""
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in game.options.items()
                if k != "seed" and v is not None}

    @classmethod
    def from_play(
        cls,
        game: Game,
        initial: State,
        actions: Sequence[int],
        *,
        players: Sequence[str] = (),
        tags: dict[str, str] | None = None,
        start: str | None = None,
        termination: str | None = None,
        result: Sequence[float] | None = None,
        final: State | None = None,
        moves: Sequence[str] | None = None,
    ) -> "Record":
        """Record ``actions`` played from ``initial`` (a new game, or ``start`` text).

        A caller that has them already may pass the ``final`` state and the record's ``moves``
        (``game.format_moves(initial, actions)``): then nothing is replayed."""
        if final is None:
            final = initial.clone()
            for action in actions:
                final.apply_action(action)
        if result is None and final.is_terminal():
            result = final.returns()
            termination = termination or "normal"
        all_tags = {"date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
        all_tags.update(tags or {})
        return cls(
            game=game.name,
            options=cls.options_of(game),
            # the rules' seed (a deal, a layout); a game without chance has none, whatever its
            # ``seed`` option (a game may take one for a variant that has chance)
            seed=initial.seed if game.has_chance else None,
            start=start,
            players=list(players),
            tags=all_tags,
            moves=list(moves) if moves is not None else game.format_moves(initial, actions),
            result=[float(r) for r in result] if result is not None else None,
            termination=termination,
        )

    # --- JSON -------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "options": self.options,
            "seed": self.seed,
            "start": self.start,
            "players": self.players,
            "tags": self.tags,
            "moves": self.moves,
            "result": self.result,
            "termination": self.termination,
        }

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: Any) -> "Record":
        """Check the shape of a parsed record. Raises :class:`RecordError` naming the field."""
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object")
        if data.get("format", FORMAT) != FORMAT:
            raise RecordError(f"format is {data.get('format')!r}, expected {FORMAT!r}")
        if data.get("version", VERSION) != VERSION:
            raise RecordError(f"version {data.get('version')!r} is not supported (expected {VERSION})")
        game = data.get("game")
        if not isinstance(game, str) or not game:
            raise RecordError("field 'game' must be a non-empty string")
        options = data.get("options", {}) or {}
        if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
            raise RecordError("field 'options' must be an object")
        seed = data.get("seed")
        problem = None if seed is None else seed_problem(seed)
        if problem:
            raise RecordError(f"field 'seed': {problem} (or null)")
        seed = None if seed is None else int(seed)  # a NumPy integer too: the record writes JSON
        start = data.get("start")
        if start is not None and not isinstance(start, str):
            raise RecordError("field 'start' must be a position text or null")
        players = data.get("players", []) or []
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RecordError("field 'players' must be a list of strings")
        tags = data.get("tags", {}) or {}
        if not isinstance(tags, dict) or not all(isinstance(k, str) for k in tags):
            raise RecordError("field 'tags' must be an object")
        moves = data.get("moves")
        if not isinstance(moves, list):
            raise RecordError("field 'moves' must be a list of strings")
        for i, move in enumerate(moves, 1):
            if not isinstance(move, str):
                raise RecordError(f"move {move!r} is not a string", ply=i)
        result = data.get("result")
        if result is not None:
            if not isinstance(result, list) or not all(
                isinstance(r, (int, float)) and not isinstance(r, bool) for r in result
            ):
                raise RecordError("field 'result' must be a list of numbers or null")
            result = [float(r) for r in result]
        termination = data.get("termination")
        if termination not in TERMINATIONS:
            raise RecordError(f"field 'termination' is {termination!r}, expected one of normal, resignation, time, "
                              "agreement, left, aborted, abandoned")
        return cls(game, dict(options), seed, start, list(players), {k: str(v) for k, v in tags.items()},
                   list(moves), result, termination)

    @classmethod
    def from_json(cls, text: str | bytes) -> "Record":
        try:
            data = json.loads(text)
        except RecursionError:  # the parser recurses once per level of nesting
            raise RecordError("not valid JSON: nested too deep") from None
        except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError, an int past 4,300 digits
            raise RecordError(f"not valid JSON: {exc}") from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | Path) -> "Record":
        try:
            text = Path(path).read_bytes()
        except OSError as exc:
            raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
        except ValueError as exc:  # a NUL in the path
            raise RecordError(f"cannot read {path!r}: {exc}") from None
        try:
            return cls.from_json(text)
        except RecordError as exc:  # which file, for whoever passed the wrong one
            raise RecordError(f"{path}: {exc}") from None

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.to_json() + "\n")
        return path

    # --- replay -----------------------------------------------------------------------------
    def make_game(self) -> Game:
        try:
            return load_game(self.game, **self.options)
        except AbstractaError as exc:
            raise RecordError(str(exc)) from None

    def initial_state(self, game: Game | None = None) -> State:
        game = game or self.make_game()
        try:
            if self.start is not None:
                return game.state_from_text(self.start)
            if game.has_chance and self.seed is None:
                raise RecordError("field 'seed' is required for a game with chance")
            return game.new_initial_state(seed=self.seed)
        except AbstractaError as exc:
            if isinstance(exc, RecordError):
                raise
            raise RecordError(f"start position: {exc}") from None

    def replay(self) -> tuple[State, list[int]]:
        """Replay every move through the rules.

        Returns:
            (final state, the actions applied in order).
        Raises:
            RecordError: with the 1-based ply and the reason, for the first move that does not
                parse or is illegal, or when the stored result disagrees with the rules, or the
                ending (a resignation, a loss on time, a draw agreed, their tags) could not
                have happened at the final position.
        """
        game = self.make_game()
        state = self.initial_state(game)
        actions: list[int] = []
        for ply, move in enumerate(self.moves, 1):
            if state.is_terminal():
                raise RecordError("the game was already over", ply=ply, move=move)
            try:
                parsed = game.parse_move(state, move)
                trial = state.clone()
                for action in parsed:
                    trial.apply_action(action)
            except AbstractaError as exc:
                raise RecordError(str(exc), ply=ply, move=move) from None
            state = trial
            actions.extend(parsed)
        self._check_result(state)
        return state, actions

    def _check_result(self, state: State) -> None:
        n = state.num_players
        if self.result is not None and len(self.result) != n:
            raise RecordError(f"result has {len(self.result)} entries for {n} players")
        if OUT_OF_TIME_TAG in self.tags and tag_seats(self.tags[OUT_OF_TIME_TAG], n) is None:
            raise RecordError(f"tag {OUT_OF_TIME_TAG!r} is {self.tags[OUT_OF_TIME_TAG][:40]!r}; it must list the "
                              "seats that ran out of time (seat numbers, comma-separated)")
        if self.termination == "agreement" or DRAW_OFFERED_TAG in self.tags:
            self._check_agreement(state)
        self._check_out_of_time(state)
        if self.termination == "resignation" or RESIGNED_TAG in self.tags:
            self._check_resignation(state)
        if self.termination == "time":
            self._check_time(state)
        if self.termination == "left" or LEFT_TAG in self.tags:
            self._check_left(state)
        if self.termination == "aborted" and (self.result is not None or state.is_terminal()):
            raise RecordError("termination 'aborted', but the game has a result: an aborted game has none "
                              "(it ended before it began)")
        if state.is_terminal():
            actual = [float(r) for r in state.returns()]
            if self.result is not None and self.result != actual and self.termination != "time":
                raise RecordError(f"stored result {self.result} disagrees with the rules' result {actual}")
        elif self.termination in (None, "normal") and self.result is not None:
            raise RecordError("a result is stored but the game is not over (and nobody resigned, ran out of time or agreed a draw)")

    def _check_decided(self, state: State) -> None:
        """A resignation or a flag ended a game the rules had not, with a result."""
        if state.is_terminal():
            raise RecordError(f"termination {self.termination!r}, but the game ended by the rules after ply "
                              f"{len(self.moves)}; use 'normal'")
        if self.result is None:
            raise RecordError(f"termination {self.termination!r}, but no result: a game ended by "
                              f"{self.termination} has one")

    def _timed_out(self, n: int) -> list[int]:
        """The seats the :data:`OUT_OF_TIME_TAG` names (none without it; :meth:`_check_result`
        refuses an unreadable one first)."""
        return tag_seats(self.tags.get(OUT_OF_TIME_TAG), n) or []

    def _out(self, state: State) -> set[int]:
        """The seats out at ``state``: put out by the rules or out of time."""
        return set(seats_out(state)) | set(self._timed_out(state.num_players))

    def _check_out_of_time(self, state: State) -> None:
        """The :data:`OUT_OF_TIME_TAG`, whatever the termination: each seat it names lost
        (a flag's loss stands however the game ends afterwards; only a two-player flag whose
        opponent could not win any more is a draw); and a game that goes on after flags (3-4
        players) has two seats still in — a flag leaving one ended it (docs: playing/distance.md "Clocks")."""
        if OUT_OF_TIME_TAG not in self.tags:
            return
        n = state.num_players
        text = self.tags[OUT_OF_TIME_TAG]
        seats = self._timed_out(n)
        if state.is_terminal() and self.termination != "time":
            result = [float(r) for r in state.returns()]  # the rules' result, which the record must keep
        elif state.is_terminal() or self.termination in DECIDED:
            result = self.result
        else:
            result = None  # unfinished, abandoned or aborted: no result
        if result is not None:
            # a game ended on time: _check_time says which result the flags give
            if self.termination != "time" and any(result[i] != -1.0 for i in seats):
                raise RecordError(f"tag {OUT_OF_TIME_TAG!r} is {text[:40]!r}, but the result is {result}: it must "
                                  "list the seats that ran out of time, none of them a winner — each lost (-1)")
            return
        if n == 2:
            raise RecordError(f"tag {OUT_OF_TIME_TAG!r} names seat {seats[0]}, but the game has no result: a "
                              "two-player game lost on time is over (give its result, the seat out of time at -1, "
                              "and termination 'time')")
        left = [i for i in range(n) if i not in seats and i not in set(seats_out(state))]
        if len(left) < 2:
            still = f"only seat {left[0]} is still in" if left else "no seat is still in"
            raise RecordError(f"tag {OUT_OF_TIME_TAG!r} is {text[:40]!r} and {still}, but the game has no "
                              "result: it ended on time (give its result and termination 'time')")

    def _check_resignation(self, state: State) -> None:
        """The one rule of a resignation (termination ``resignation``): the rules had not ended
        the game, and the result is :func:`resignation_returns` of the seat that resigned, a seat
        still in (neither put out by the rules nor out of time: those lost already, and a seat
        out of time is the computer's), with the seats out at -1. The :data:`RESIGNED_TAG` names
        it; a record written before the tag is held to what its result can tell: one loser at
        least not out by the rules, and the others' results as a resignation leaves them."""
        n = state.num_players
        if self.termination != "resignation":
            raise RecordError(f"tag {RESIGNED_TAG!r} names a seat that resigned, but the game did not end by "
                              f"resignation (termination {self.termination!r})")
        self._check_decided(state)
        assert self.result is not None
        out = self._out(state)
        if RESIGNED_TAG in self.tags:
            text = self.tags[RESIGNED_TAG]
            seats = tag_seats(text, n)
            if seats is None or len(seats) != 1 or self.result[seats[0]] >= 0:
                raise RecordError(f"tag {RESIGNED_TAG!r} is {text[:40]!r}; it must be the number of the seat that "
                                  "resigned, a seat the result has at -1")
            seat = seats[0]
            if seat in out:
                how = "out of time" if seat in self._timed_out(n) else "put out by the rules"
                raise RecordError(f"tag {RESIGNED_TAG!r} names seat {seat}, but it was already out ({how}): it had "
                                  "lost, and could not resign")
            expected = resignation_returns(n, seat, out)
            if self.result != expected:
                raise RecordError(f"result {self.result}, but seat {seat} resigning at this position gives "
                                  f"{expected} (-1 for it and the seats out; +1 for the one seat left, or 0 for "
                                  "each of several)")
            return
        losers = {i for i, r in enumerate(self.result) if r < 0}
        resigners = sorted(losers - set(seats_out(state)))
        if not resigners:
            raise RecordError(f"result {self.result}: a game ended by resignation needs a result with the loser at "
                              "-1 (a seat still in)")
        expected = resignation_returns(n, resigners[0], losers | out)
        if self.result != expected:
            raise RecordError(f"result {self.result} is not one a resignation leaves: {expected} (-1 for the seats "
                              "that resigned or were out; +1 for the one seat left, or 0 for each of several)")

    def _check_time(self, state: State) -> None:
        """The one rule of a game lost on time (termination ``time``; docs: playing/distance.md "Clocks"). A game the
        rules ended: only after a 3-4 player game's flags, its result the rules' with the seats
        out of time at -1. Otherwise two players: the seat out of time loses (or both draw when
        the other could not win, the :data:`OUT_OF_TIME_TAG` naming it); three or four: the
        flags (and the rules) left one seat in, or none, which wins."""
        n = state.num_players
        timed_out = self._timed_out(n)
        if state.is_terminal():
            if n > 2 and timed_out:
                rules = [float(r) for r in state.returns()]
                forced = [-1.0 if i in timed_out else r for i, r in enumerate(rules)]
                if self.result != forced:
                    raise RecordError(f"result {self.result}, but the game ended by the rules after ply "
                                      f"{len(self.moves)}, and with the seats out of time ({OUT_OF_TIME_TAG} "
                                      f"{self.tags[OUT_OF_TIME_TAG][:40]!r}) at -1 its result is {forced}")
                return
        self._check_decided(state)
        assert self.result is not None
        if OUT_OF_TIME_TAG not in self.tags:  # a record written before the tag: its losers
            timed_out = [i for i, r in enumerate(self.result) if r < 0 and i not in set(seats_out(state))]
            if not timed_out:
                raise RecordError(f"result {self.result}: a game ended by time needs a result with the loser at -1 "
                                  f"(or, a draw on time, the {OUT_OF_TIME_TAG} tag naming the seat whose time ran out)")
        if n == 2:
            if len(timed_out) != 1:
                raise RecordError(f"termination 'time', but {len(timed_out)} seats ran out of time: a two-player "
                                  "game ends at the first flag")
            expected = [-1.0 if i == timed_out[0] else 1.0 for i in range(2)]
            if self.result not in (expected, [0.0, 0.0]):
                raise RecordError(f"result {self.result}, but seat {timed_out[0]} running out of time gives "
                                  f"{expected} (or [0.0, 0.0], where the other could not win any more)")
            return
        rules_out = set(seats_out(state))
        if not set(timed_out) - rules_out:
            raise RecordError(f"termination 'time', but {OUT_OF_TIME_TAG} names only seats already out by the rules "
                              f"({', '.join(map(str, timed_out))}): no flag put a seat out")
        alive = [i for i in range(n) if i not in rules_out and i not in timed_out]
        if len(alive) > 1:
            raise RecordError(f"termination 'time', but seats {', '.join(map(str, alive))} are still in: a 3-4 "
                              "player game goes on after a flag until one seat is left")
        expected = [1.0 if i in alive else -1.0 for i in range(n)]
        if self.result != expected:
            raise RecordError(f"result {self.result}, but with the seats out of time and out by the rules at -1 "
                              f"the game ended on time at {expected}")

    def _check_left(self, state: State) -> None:
        """The one rule of a game a player left (termination ``left``; issue 42 §5): two
        players, the rules had not ended it, the :data:`LEFT_TAG` names the seat that left,
        and the result is its loss (the other claimed the game) or a draw."""
        n = state.num_players
        if self.termination != "left":
            raise RecordError(f"tag {LEFT_TAG!r} names a seat that left, but the game did not end so "
                              f"(termination {self.termination!r})")
        if n != 2:
            raise RecordError(f"termination 'left' is for a game of two players, not {n}")
        self._check_decided(state)
        seats = tag_seats(self.tags.get(LEFT_TAG), n)
        if seats is None or len(seats) != 1:
            given = self.tags.get(LEFT_TAG)
            raise RecordError(f"tag {LEFT_TAG!r} is {'missing' if given is None else repr(given[:40])}; a game a "
                              "player left names that seat")
        lost = [-1.0 if i == seats[0] else 1.0 for i in range(2)]
        if self.result not in (lost, [0.0, 0.0]):
            raise RecordError(f"result {self.result}, but seat {seats[0]} leaving gives {lost} (the game claimed) "
                              "or [0.0, 0.0] (a draw)")

    def _check_agreement(self, state: State) -> None:
        """The one rule of a draw the players agreed (termination ``agreement``), for ``replay``,
        ``play --resume`` and the server's import and restart alike: the rules had not ended the
        game, at least two seats were still in to agree it, the result is
        :func:`agreed_draw_returns` (the seats out, by the rules or on time, keep their loss) and
        the :data:`DRAW_OFFERED_TAG` names the one seat still in that offered it."""
        n = state.num_players
        if self.termination != "agreement":
            raise RecordError(f"tag {DRAW_OFFERED_TAG!r} names a seat that offered a draw, but the game was not "
                              f"drawn by agreement (termination {self.termination!r})")
        if state.is_terminal():
            raise RecordError(f"termination 'agreement', but the game ended by the rules after ply "
                              f"{len(self.moves)}; use 'normal'")
        out = self._out(state)
        still = draw_seats(n, out)
        if len(still) < 2:
            # a seat left alone has won (the server ends the game then; with two players a flag
            # ends it): nobody was left to agree a draw with
            who = f"only seat {still[0]} is" if still else "no seat is"
            raise RecordError(f"termination 'agreement', but {who} still in (the others out of time or "
                              f"put out by the rules): a draw is agreed by at least two seats still in")
        agreed = agreed_draw_returns(n, out)
        if self.result != agreed:
            raise RecordError(f"result {self.result}, but a draw agreed at this position is {agreed} "
                              "(0 for each seat still in, -1 for the seats out)")
        seats = tag_seats(self.tags.get(DRAW_OFFERED_TAG), n)
        if seats is None or len(seats) != 1 or seats[0] not in still:
            given = self.tags.get(DRAW_OFFERED_TAG)
            raise RecordError(f"tag {DRAW_OFFERED_TAG!r} is {'missing' if given is None else repr(given[:40])}; "
                              "a draw by agreement names the seat that offered it, a seat still in")


def hint_counts(tags: dict[str, str], num_players: int) -> list[int]:
    """Hints asked per seat, from the :data:`HINTS_TAG` tag of ``tags`` (``"2,0"``; absent or
    unreadable entries: none)."""
    text = tags.get(HINTS_TAG, "")
    parts = text.split(",") if text else []
    # ASCII digits only: str.isdigit() also accepts '²', which int() refuses
    counts = [int(x) if ascii_digits(x.strip()) else 0 for x in parts[:num_players]]
    return counts + [0] * (num_players - len(counts))


def tag_seats(text: str | None, num_players: int) -> list[int] | None:
    """The seat numbers of a tag's value (``"0,2"``), or None when it is absent or unreadable
    (not comma-separated seat numbers below ``num_players``, or one listed twice)."""
    if not text:
        return None
    parts = [x.strip() for x in text.split(",")]
    if not all(ascii_digits(x) for x in parts):  # ASCII digits only: int() also reads '²'
        return None
    seats = [int(x) for x in parts]
    if len(set(seats)) != len(seats) or not all(s < num_players for s in seats):
        return None
    return seats


def resigned_seat(tags: dict[str, str], result: Sequence[float] | None, termination: str | None,
                  out: Iterable[int] = ()) -> int | None:
    """The seat that resigned: the :data:`RESIGNED_TAG` tag when it names one losing seat; for a
    record without it (written before the tag), the one loser not ``out`` (the seats already out
    before the resignation, by the rules or on time: they lost too). None when the game did not end
    by resignation or the record does not tell (more than one such loser)."""
    if termination != "resignation" or not result:
        return None
    seats = tag_seats(tags.get(RESIGNED_TAG), len(result))
    if seats is not None and len(seats) == 1 and result[seats[0]] < 0:
        return seats[0]
    out = set(out)
    losers = [i for i, r in enumerate(result) if r < 0 and i not in out]
    return losers[0] if len(losers) == 1 else None


def out_of_time_seats(tags: dict[str, str], num_players: int, result: Sequence[float] | None,
                      termination: str | None, out: Iterable[int] = ()) -> list[int]:
    """The seats that ran out of time: the :data:`OUT_OF_TIME_TAG` tag; for a record without it
    that ended on time, its losers not ``out`` (the seats the rules put out), empty when there
    is none (a two-player flag the rules made a draw, in a record without the tag)."""
    seats = tag_seats(tags.get(OUT_OF_TIME_TAG), num_players)
    if seats is not None:
        return seats
    if termination != "time" or not result:
        return []
    out = set(out)
    return [i for i, r in enumerate(result) if r < 0 and i not in out]


def load_record(path: str | Path) -> tuple[Record, State, list[int]]:
    """Read and replay a record file: ``(record, final state, actions)``."""
    record = Record.load(path)
    state, actions = record.replay()
    return record, state, actions
