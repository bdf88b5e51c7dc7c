"""The people of a match: creating and importing matches, seat tokens and invitations, the
list of a browser's games, deleting (issues 7, 13; docs: playing/distance.md).

Seats belong to people: every person seat is held by whoever knows its secret token (128 bits,
``secrets.token_urlsafe(16)``; only its SHA-256 is stored). The creator receives the tokens of
the seats it takes and one invitation code per other person seat; claiming an invitation gives
its seat's token, once, and takes the seat in the play session (no move is played before
every seat is taken). Every act names its tokens (:meth:`~abstracta.server.matches.Kernel.authorize`).

A seat taken by someone signed in — the creator's, an invitation claimed, or people seated at
once by the lobby (``people``) — is also that person's (issue 41 §2; :mod:`~abstracta.server.owners`):
it opens with its controls wherever they are signed in. A rated game (``rated``) is stored with
the record's ``Rated`` tag and seats accounts only.
"""

from __future__ import annotations

import json
import secrets
from typing import Any, Iterable, Literal, Mapping, Sequence

from ..core.errors import AbstractaError, RecordError, UnknownGameError
from ..core.game import action_strings
from ..core.options import seed_problem
from ..core.records import DECIDED, OUT_OF_TIME_TAG, Record, out_of_time_seats, resigned_seat, tag_seats
from ..core.registry import game_class, load_game
from ..core.view import message
from ..people import Person
from ..play import Live
from ..play.opening import first_move_seconds
from . import bots
from .errors import Conflict, CorruptMatch, Gone, InvalidRequest, MatchError, NotFound, StorageFailed
from .matches import TOKEN_LIMIT, Holder, Kernel, Match, Who, clip, cut, digest, new_secret, stamp
from .owners import RATED_TAG, Owners
from .storage import TURNS_VERSION

#: Longest time control accepted, in seconds (a live clock's start, a turn's deadline).
CLOCK_LIMIT = 30 * 86400
#: Limits on the strings of an imported record.
TAG_KEY_LIMIT, TAG_VALUE_LIMIT, TAG_COUNT_LIMIT = 64, 1000, 100
#: Longest move text accepted (a record's, a request's).
MOVE_TEXT_LIMIT = 1000


def check_seed(seed: Any, field_name: str = "seed") -> None:
    """Raise InvalidRequest unless ``seed`` is None or a seed (:func:`abstracta.core.options.seed_problem`)."""
    problem = None if seed is None else seed_problem(seed)
    if problem:
        raise InvalidRequest(f"{field_name}: {problem}")


def ending(record: dict[str, Any]) -> dict[str, Any]:
    """``resigned`` and ``out_of_time`` of a stored record's JSON (the list of matches, which
    replays nothing: a record stored before the tags names a resigner only when one seat lost)."""
    tags = record.get("tags")
    tags = {k: v for k, v in tags.items() if isinstance(v, str)} if isinstance(tags, dict) else {}
    result, termination = record.get("result"), record.get("termination")
    if not isinstance(result, list) or not all(isinstance(r, (int, float)) for r in result):
        result = None
    n = len(result) if result else len(record.get("players") or [])
    return {"resigned": resigned_seat(tags, result, termination),
            "out_of_time": out_of_time_seats(tags, n, result, termination)}


def flagged_seats(tags: dict[str, str], num_players: int, result: list[float] | None) -> list[int]:
    """The seats out on time of an imported game that goes on (``result`` None): in a 3–4 player
    game they stay out (docs: playing/distance.md "Clocks"). The :data:`OUT_OF_TIME_TAG` and the other ending tags
    follow the domain's rules, which :meth:`Record.replay` checked (two seats still in, a
    two-player game lost on time over, each seat out of time at -1)."""
    if result is not None:
        return []
    return tag_seats(tags.get(OUT_OF_TIME_TAG), num_players) or []


def shared(taken: Iterable[int], held: Iterable[int], people: Mapping[int, int], person_id: int | None) -> bool:
    """Whether someone besides the one who holds the seats ``held`` (signed in as ``person_id``,
    or None) is in a match whose seats ``taken`` were handed out (a token given, a person
    seated), ``people`` its {seat: person id}: a seat taken but not held; or, once an account
    is seated, anything but that one account signed in and seated at every seat taken — a
    seat of another account, or one held by a token alone (whoever played it), or a request
    not signed in as the account (a browser may keep the tokens of people who played on it,
    signed in or not).

    What nobody else is in — against the computer, hot-seat on one device (no account seated,
    or one account at every seat), an invitation not claimed yet — is its one player's to
    delete; a game another is in is theirs too, and one of them never deletes it for both
    (lichess and Board Game Arena delete no game at all)."""
    taken, held = set(taken), set(held)
    if taken - held:
        return True
    accounts = set(people.values())
    # an account's seat makes the game that account's: only it, alone in the game, deletes it
    return bool(accounts) and (accounts != {person_id} or not taken <= set(people))


def check_take(take: list[int] | Literal["all"] | None, players: list[str]) -> list[int]:
    """The person seats the creator takes: ``take`` (distinct seats, or ``"all"``: every person
    seat), or the first person seat by default. A match without a person seat gives its creator
    seat 0's token (to watch it as that seat, find it in the list and delete it; a computer seat
    takes no moves from anyone). InvalidRequest for a seat that is not a person seat here."""
    persons = [i for i, p in enumerate(players) if p == "human"]
    if take is None:
        return persons[:1] or [0]
    if take == "all":  # pass and play: one device holds every person seat
        return persons or [0]
    for t in take:
        if t not in persons:
            raise InvalidRequest(f"seat {clip(t)} is not a person seat of this match, so it cannot be taken "
                                 f"(person seats: {persons})")
    return sorted(set(take))


def check_seats(seats: list[str] | None, n: int, whose: str = "") -> list[str]:
    """The players of ``n`` seats: ``seats`` (each ``human`` or ``level:1`` … ``level:6``;
    ``whose``: where they come from, for the refusal), by default seat 0 a person and the others
    the computer at level 1."""
    if seats is None:
        return ["human"] + ["level:1"] * (n - 1)
    if len(seats) != n:
        given = "1 seat is" if len(seats) == 1 else f"{len(seats)} seats are"
        raise InvalidRequest(f"{given} given{whose}, the game has {n} players")
    for i, spec in enumerate(seats):
        if not isinstance(spec, str) or not bots.SEAT_SPEC.match(spec.strip()):
            raise InvalidRequest(f"seat {i}{whose}: {clip(spec)} is not 'human' or 'level:1' … 'level:6'")
    return [s.strip() for s in seats]


def check_people(people: Any, players: list[str]) -> dict[int, int]:
    """``{seat: person id}`` of people seated at once: person seats of the match, each once."""
    if people is None:
        return {}
    if not isinstance(people, dict) or not all(isinstance(k, int) and isinstance(v, int) for k, v in people.items()):
        raise InvalidRequest("people must map seat numbers to person ids")
    for seat in people:
        if not 0 <= seat < len(players) or players[seat] != "human":
            raise InvalidRequest(f"people: seat {seat} is not a person seat of this match")
    return dict(people)


class Seats:
    """Creating, importing, inviting, listing and deleting the matches of one process;
    ``owners``: the people the seats belong to (None: seats held by their tokens alone)."""

    def __init__(self, kernel: Kernel, owners: Owners | None = None):
        self.kernel = kernel
        self.owners = owners

    def create(self, game_name: str, options: dict[str, Any] | None, seats: list[str] | None,
               take: list[int] | Literal["all"] | None = None, clock: dict[str, float] | None = None, *,
               creator: Person | None = None, people: dict[int, int] | None = None, rated: bool = False,
               apart: bool | None = None, match_id: str | None = None) -> tuple[Match, dict[str, list[dict[str, Any]]]]:
        """A new match, stored: ``(match, grant)`` where ``grant`` holds the secrets only the
        creator receives: ``{"tokens": [{"seat", "token"}], "invites": [{"seat", "code"}]}``
        (a token for each seat of ``take``, default the first person seat; an invitation for
        every other person seat not seated by ``people``). ``clock``: the time control as
        :class:`Live` keeps it (checked at the HTTP edge).

        People (issue 41): ``creator``, the person signed in who creates it (None: nobody),
        is seated at the person seats of ``take``; ``people`` ({seat: person id}) seats others
        at once (the lobby: a seek or challenge accepted seats both players; pass ``take=[]``
        for no tokens). Those seats are the people's wherever they are signed in, and wait for
        no invitation. ``rated``: a rated game (accounts at every seat, a declared variant, no
        computer; ``Owners.check_rated``).

        ``apart``: people at a distance play it, so a first move not made in time aborts it
        (issue 42 §4; default: when some person seat is invited). ``match_id``: the new match's
        id, given beforehand (a rematch the old game names; default: a fresh one).

        404 unknown game, 422 options the game refuses, seats that do not fit it, a seat to
        take that is not a person's, people not at person seats, or a game that cannot be
        rated; 403 a rated game of someone who is not an account."""
        options = options or {}
        try:
            specs = {spec.name: spec for spec in game_class(game_name).option_specs}
        except UnknownGameError as exc:
            raise NotFound(cut(str(exc))) from None
        except AbstractaError as exc:  # a plug-in that does not load
            raise InvalidRequest(cut(str(exc))) from None

        def refused(key: str, problem: str) -> InvalidRequest:
            # a known option's message names it and the values it allows, as the rules' own do
            spec = specs.get(key)
            return InvalidRequest(str(spec.refused(problem)) if spec is not None else f"option {clip(key)}: {problem}")

        clean = {}
        for key, value in options.items():
            if len(key) > 64:
                raise InvalidRequest(f"{clip(key)} is not an option name")
            if value is None or value == "":
                raise refused(key, "no value given (leave the option out for its default)")
            if isinstance(value, str) and len(value) > 200:
                raise refused(key, f"value too long ({len(value)} characters, at most 200)")
            if isinstance(value, list) and (len(value) > 64 or not all(
                    isinstance(v, (int, str)) and not isinstance(v, bool) for v in value)):
                raise refused(key, f"unsupported value {clip(value)}")
            if isinstance(value, (bool, int, str, list)):
                clean[key] = value
            else:
                raise refused(key, f"unsupported value {clip(value)}")
        try:
            game = load_game(game_name, **clean)
            initial = game.new_initial_state()
        except UnknownGameError as exc:
            raise NotFound(cut(str(exc))) from None
        except AbstractaError as exc:
            raise InvalidRequest(cut(str(exc))) from None
        check_seed(game.options.get("seed"), "option seed")
        players = check_seats(seats, game.num_players)
        match = Match(game=game, initial=initial, state=initial.clone(), actions=[], players=players,
                      tags={"date": stamp(), "site": "abstracta web"}, id=match_id or secrets.token_hex(8))
        return self._store_new(match, check_take(take, players), clock, creator=creator,
                               people=check_people(people, players), rated=rated, apart=apart)

    def import_record(self, data: Any, seats: list[str] | None = None, take: list[int] | Literal["all"] | None = None,
                      clock: dict[str, float] | None = None, *,
                      creator: Person | None = None) -> tuple[Match, dict[str, list[dict[str, Any]]]]:
        """A match continuing the record ``data`` (validated by replay), as :meth:`create`;
        never rated (a ``Rated`` tag of the record is dropped)."""
        if isinstance(data, dict):  # sizes first: error messages below echo these strings
            if isinstance(data.get("game"), str) and len(data["game"]) > 64:
                raise InvalidRequest(f"the record's game: {clip(data['game'])} is not a game name")
            if isinstance(data.get("start"), str) and len(data["start"]) > 10_000:
                raise InvalidRequest("the record's start: a position text of more than 10000 characters")
            moves = data.get("moves")
            if isinstance(moves, list):
                for i, move in enumerate(moves, 1):
                    if isinstance(move, str) and len(move) > MOVE_TEXT_LIMIT:
                        raise InvalidRequest(f"the record's moves: ply {i} is longer than {MOVE_TEXT_LIMIT} characters",
                                       ply=i)
        try:
            record = Record.from_dict(data)
            game_class(record.game)  # an unknown game is 404 here as everywhere, not a bad record
        except UnknownGameError as exc:
            raise NotFound(cut(str(exc))) from None
        except RecordError as exc:
            raise InvalidRequest(cut(str(exc)), ply=exc.ply,
                           reason=cut(exc.reason) if exc.reason else exc.reason) from None
        try:
            state, actions = record.replay()
            game = record.make_game()
            initial = record.initial_state(game)
        except RecordError as exc:
            raise InvalidRequest(cut(str(exc)), ply=exc.ply,
                           reason=cut(exc.reason) if exc.reason else exc.reason) from None
        except AbstractaError as exc:
            raise InvalidRequest(cut(str(exc))) from None
        check_seed(record.seed, "the record's seed")
        if seats is None:
            # the record's players: empty means people at every seat, otherwise one valid seat
            # spec per player
            players = (["human"] * game.num_players if not record.players
                       else check_seats(record.players, game.num_players, " in the record's players"))
        else:
            players = check_seats(seats, game.num_players)
        result, termination = record.result, record.termination
        # what an ending may be (resignation, time, agreement; their tags) is the domain's rule,
        # Record.replay's, checked above; here only what the import makes of it
        if state.is_terminal():
            if termination != "time":
                result, termination = [float(r) for r in state.returns()], "normal"
        elif termination == "normal":
            raise InvalidRequest("the record's termination is 'normal', but the game is not over by the rules")
        elif termination not in DECIDED:  # abandoned or none: the game continues here
            result, termination = None, None
        if len(record.tags) > TAG_COUNT_LIMIT:
            raise InvalidRequest(f"the record's tags: {len(record.tags)} tags, at most {TAG_COUNT_LIMIT}")
        for key, value in record.tags.items():
            if len(key) > TAG_KEY_LIMIT or len(value) > TAG_VALUE_LIMIT:
                raise InvalidRequest(f"the record's tags: tag {clip(key)} is too long (names ≤ {TAG_KEY_LIMIT}, "
                                    f"values ≤ {TAG_VALUE_LIMIT} characters)")
        tags = dict(record.tags)
        tags.pop(RATED_TAG, None)  # a rated game is one made rated here, between accounts
        tags.setdefault("date", stamp())
        flagged = flagged_seats(tags, game.num_players, result)
        for seat in flagged:  # out on time: the computer's moves from now on, as after a flag here
            players[seat] = "level:1"
        match = Match(game=game, initial=initial, state=state, actions=actions, players=players, start=record.start,
                      tags=tags, result=result, termination=termination, strings=action_strings(initial, actions),
                      id=secrets.token_hex(8), base=len(actions))
        match.note_ending()  # a record written before the tags: as far as it tells
        # a game continued: its first moves were made before, so its clock runs from its first
        # turn here (a new game's waits for each side's first move: issue 42 §4)
        return self._store_new(match, check_take(take, players), clock, out=flagged, creator=creator,
                               started=True)

    def _store_new(self, match: Match, take: list[int], clock: dict[str, float] | None, out: Sequence[int] = (),
                   creator: Person | None = None, people: dict[int, int] | None = None, rated: bool = False,
                   apart: bool | None = None, started: bool = False) -> tuple[Match, dict[str, list[dict[str, Any]]]]:
        people = dict(people or {})
        if creator is not None:  # the creator's person seats are theirs (not a computer's it watches)
            people.update({seat: creator.id for seat in take if match.players[seat] == "human"})
        if self.owners is None:
            people = {}
        if rated:
            if self.owners is None:
                raise InvalidRequest("rated games need the people's standings, which this server has not")
            self.owners.check_rated(match.game, clock, match.players, take, people)
            match.tags[RATED_TAG] = "true"
        tokens = {seat: new_secret() for seat in take}
        codes = {seat: new_secret() for seat in match.persons if seat not in tokens and seat not in people}
        apart = bool(codes) if apart is None else apart
        match.live = Live.with_clock(clock, len(match.players), out, started=started,
                                     start_within=first_move_seconds(clock) if apart and not started else None)
        match.tokens = {digest(t): seat for seat, t in tokens.items()}
        match.people = people
        match.seated = set(match.tokens.values()) | set(people)
        match.start_clock(self.kernel.now())
        if people:  # before the match is stored: a stored match never lacks its people
            self.owners.seat(match.id, people)
        try:
            with self.kernel.locked(match.id):
                self.kernel.store_new(match, [(digest(c), seat) for seat, c in codes.items()])
        except BaseException:
            if people:
                self.owners.forget(match.id)
            raise
        grant = {"tokens": [{"seat": seat, "token": t} for seat, t in sorted(tokens.items())],
                 "invites": [{"seat": seat, "code": c} for seat, c in sorted(codes.items())]}
        return match, grant

    def invitation(self, code: Any) -> tuple[Match, int, bool]:
        """The invitation ``code``: ``(match, seat, claimed)``; 404 if unknown."""
        row = self.kernel.store.invite(digest(code)) if isinstance(code, str) and len(code) <= 64 else None
        if row is None:
            raise NotFound("no such invitation")
        with self.kernel.locked(row.match_id):
            return self.kernel.load(row.match_id), row.seat, row.claimed_at is not None

    def claim(self, code: Any, who: Who = ()) -> tuple[Match, dict[str, list[dict[str, Any]]]]:
        """Claim the invitation ``code`` (once): ``(match, grant)`` with the seat's token.
        The person signed in (``who``'s) is seated too: the seat is theirs wherever they sign
        in. 404 unknown, 410 claimed already, 403 a rated game's seat claimed by anyone but an
        account (or by a person seated in it already)."""
        person = Holder.of(who).person
        match, seat, claimed = self.invitation(code)
        if claimed:
            raise Gone(f"this invitation to seat {seat} was used already")
        seated = self.owners is not None and person is not None
        if self.owners is not None:
            self.owners.may_claim(match, person)
        token = new_secret()
        with self.kernel.locked(match.id):
            got = self.kernel.store.claim(digest(code), digest(token))
        if got is None:
            raise Gone(f"this invitation to seat {seat} was used already")
        # the seat is made the person's by the claim that won the invitation alone: made theirs
        # by every claim first, a double click's loser gave the seat up again (its winner's
        # too: the game left the person's list), or on PostgreSQL met the winner's key (500)
        if seated:
            try:
                self.owners.claim(match, seat, person)
            except MatchError:
                with self.kernel.locked(match.id):  # the invitation works again
                    self.kernel.store.unclaim(digest(code), digest(token))
                raise
        match = self._seat_taken(match.id, digest(token), seat, person.id if seated else None)
        return match, {"tokens": [{"seat": seat, "token": token}], "invites": []}

    def _seat_taken(self, match_id: str, token_hash: str, seat: int, person: int | None = None) -> Match:
        """A new revision after a claimed invitation (the token is stored already, and the
        seat given to ``person``): the others see the seat taken, and a clock waiting for it
        starts (``Session.take_seat``)."""

        def attempt() -> Match:
            match = self.kernel.load(match_id, fresh=True)
            progress = match.take_seat(seat, self.kernel.now())
            progress.after.tokens[token_hash] = seat
            if person is not None:
                progress.after.people[seat] = person
            return self.kernel.apply(progress)

        return self.kernel.change(match_id, attempt)

    def reinvite(self, match_id: str, tokens: Who) -> dict[str, list[dict[str, Any]]]:
        """New invitation codes for the unclaimed person seats (the old ones stop working);
        any seat's token. ``{"tokens": [], "invites": [{"seat", "code"}]}``."""
        with self.kernel.locked(match_id):
            match = self.kernel.load(match_id, fresh=True)
            self.kernel.authorize(match, tokens)
            codes = {seat: new_secret() for seat in match.persons if seat not in match.claimed}
            self.kernel.store.replace_invites(match.id, [(digest(c), seat) for seat, c in codes.items()])
        return {"tokens": [], "invites": [{"seat": seat, "code": c} for seat, c in sorted(codes.items())]}

    def mine(self, who: Who, limit: int) -> list[tuple[Any, list[int], bool, float | None]]:
        """The stored rows of the matches ``who`` holds a seat of (its tokens', its person's),
        most recently played first, each with the seats held, whether ``who`` may delete it
        (:meth:`delete`: nobody else is in it) and the seconds until time alone changes it
        (None: nothing would: over, or no clock and no first move awaited).

        What time did is applied first: a first move not made in time (the game aborted) or a
        flag fallen. The clocks' timer does it at the moment (``clocks.py``), but only in the
        process that armed it: one that stopped since (a deployment of several, a restart not
        yet resumed) leaves the stored row saying "your move" until the game is next read, and
        a list read there would disagree with the game's own page."""
        holder = Holder.of(who)
        held = self.kernel.store.matches_of([digest(t) for t in holder.tokens[:TOKEN_LIMIT]])
        if self.owners is not None:
            for mid, seats in self.owners.matches_of(holder.person).items():
                held.setdefault(mid, set()).update(seats)
        rows = self.kernel.store.rows(list(held), limit)
        due = self._due(rows)
        now = self.kernel.now()
        late = [mid for mid, at in due.items() if at <= now]
        for mid in late:
            try:
                self.kernel.current(mid)
            except (MatchError, CorruptMatch, StorageFailed):
                continue  # listed as stored; its own page says what it can
        if late:
            rows = self.kernel.store.rows(list(held), limit)
            due, now = self._due(rows), self.kernel.now()
            # one time could not change (a match that does not load): no deadline said of it
            due = {mid: at for mid, at in due.items() if at > now or mid not in late}
        for row in rows:
            if row.turns_version is None or row.turns_version < TURNS_VERSION:
                self._recount(row)
        ids = [row.id for row in rows]
        tokened = self.kernel.store.claimed_of(ids)
        people = self.owners.persons_of_matches(ids) if self.owners is not None and ids else {}
        # people unknown (their database refused): none offered for deleting rather than one shared
        return [(row, sorted(held[row.id]),
                 people is not None and not shared(tokened[row.id] | set(people.get(row.id, {})), held[row.id],
                                                   people.get(row.id, {}), holder.person_id),
                 None if row.id not in due else max(0.0, due[row.id] - now))
                for row in rows]

    def _due(self, rows: Sequence[Any]) -> dict[str, float]:
        """{match id: when time alone changes it (Unix seconds)} of the ``rows`` in play."""
        playing = [row.id for row in rows if row.status == "playing"]
        out = {}
        for mid, data in self.kernel.store.lives(playing).items():
            try:
                at = Live.from_json(data).due()
            except (ValueError, TypeError, KeyError, AttributeError):
                continue  # a live state it cannot read: no deadline said (the game's page reads it)
            if at is not None:
                out[mid] = at
        return out

    def about(self, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        """What a list says of the stored matches ``ids`` without replaying them: ``{id: {game,
        players, status, options}}`` (a profile's games: who the computer opponents were)."""
        out = {}
        for row in self.kernel.store.rows(list(dict.fromkeys(ids)), max(1, len(ids))):
            try:
                record = json.loads(row.record)
            except ValueError:
                record = {}
            out[row.id] = {"game": row.game, "players": record.get("players") or [], "status": row.status,
                           "options": record.get("options") or {}}
        return out

    def _recount(self, row: Any) -> None:
        """Count the turns of the stored ``row`` as this version counts them (an earlier one
        counted otherwise: a finished game has no next move to count them again) and store
        them, once. A match that does not load keeps the count it has."""
        try:
            with self.kernel.locked(row.id):
                cached = row.id in self.kernel.cache
                match = self.kernel.load(row.id)
                if match.revision == row.revision:
                    turns, mover = match.turns_played(), match.to_move()
                    if self.kernel.store.recount(row.id, row.revision, turns, mover):
                        row.turns, row.turns_version, row.to_move = turns, TURNS_VERSION, mover
                if not cached:  # listed, not played: no need to keep it in memory
                    self.kernel.evict(row.id)
        except (MatchError, CorruptMatch, StorageFailed):
            return

    def delete(self, match_id: str, tokens: Who = ()) -> None:
        """Forget the match ``match_id`` (404 if absent); ``tokens`` must hold one of its
        seats (401/403); a match someone else is in (:func:`shared`) is not deleted (409: it is
        theirs too), nor a rated game once its seats are taken (409: its result, in play or
        over, moves ratings). A computer thinking there is stopped, its timer dropped, its
        watchers told (:class:`~abstracta.server.matches.MatchDeleted`)."""
        with self.kernel.locked(match_id):
            match = self.kernel.load(match_id, fresh=True)
            held = self.kernel.authorize(match, tokens)
            others = shared(set(match.tokens.values()) | set(match.people), held, match.people,
                            Holder.of(tokens).person_id)
            if match.tags.get(RATED_TAG) == "true" and (others or not match.waiting_for):
                # one in play deleted would leave no result (a way out of a game being lost);
                # one over, a rating change that points at nothing
                raise Conflict("a rated game is never deleted: its result moves the ratings",
                               i18n=message("error.rated_delete"))
            if others:
                raise Conflict("another player is in this game: it is theirs too, and is not deleted",
                               i18n=message("error.delete_shared"))
            self.kernel.remove(match)


__all__ = ["CLOCK_LIMIT", "MOVE_TEXT_LIMIT", "Seats", "check_people", "check_seats", "check_seed", "check_take",
           "ending", "shared"]
