"""Challenges to a named player, and blocks (issue 42 §2).

A **challenge** names a player and the game's settings (game and options, clock, rated or
casual, the challenger's seat or either); the player sees it with its settings and accepts it
(the game starts, both seated) or declines it; the challenger may cancel it. It expires
:data:`CHALLENGE_LIFETIME` seconds after it was made (correspondence: :data:`CORRESPONDENCE_LIFETIME`).

A **block**: a person blocks another by name, and unblocks them. Between two people either of
whom blocks the other there are no challenges, no seeks taken and no quick pairing; the
chat (another concern's) reads :meth:`Blocks.blocks` to hide the blocked person's words.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Mapping

from sqlalchemy import delete, or_, select, update

from ..people import Person
from ..people.database import aware, person_of
from ..people.names import name_key
from ..people.tables import PersonRow
from ..play.opening import correspondence
from .controls import TimeControl, check_spec, spec_of, spec_text
from .errors import Conflict, Gone, InvalidInput, Refused, Unknown
from .tables import BlockRow, ChallengeRow

if TYPE_CHECKING:  # the lobby's facade, which imports this module (an annotation only)
    from .service import Lobby

#: seconds a challenge waits for its answer (live clocks), and in correspondence
CHALLENGE_LIFETIME = 600.0
CORRESPONDENCE_LIFETIME = 3 * 86_400.0
#: open challenges one person may have sent at once
CHALLENGES_PER_PERSON = 10
#: people one person may block
BLOCKS_PER_PERSON = 500


class Blocks:
    """Who blocks whom."""

    def __init__(self, lobby: "Lobby"):
        self.lobby = lobby
        self.db = lobby.db

    def _named(self, name: str) -> PersonRow:
        if not 0 < len(name) <= 64:
            raise InvalidInput("give a player's name", key="lobby.error.name")
        with self.db.reading() as s:
            row = s.scalar(select(PersonRow).where(PersonRow.name_key == name_key(name)))
        if row is None or row.kind == "deleted":
            raise Unknown(f"no player named {name[:40]!r}", key="lobby.error.no_player", name=name[:40])
        return row

    def block(self, person: Person, name: str) -> dict[str, Any]:
        """``person`` blocks the player ``name``: their open challenges between them end."""
        other = self._named(name)
        if other.id == person.id:
            raise InvalidInput("you cannot block yourself", key="lobby.error.block_self")
        with self.db.writing() as s:
            # a block clicked twice at once read "not blocked yet" twice (the second insert met
            # the first's key: a 500), and two at once could pass the limit: the blocker's row
            # locked first, the second reads what the first committed (PostgreSQL), as Challenges.send
            self.lobby.hold(s, [person.id])
            if s.get(BlockRow, (person.id, other.id)) is None:
                count = len(s.scalars(select(BlockRow.blocked_id).where(BlockRow.person_id == person.id)).all())
                if count >= BLOCKS_PER_PERSON:
                    raise Conflict(f"at most {BLOCKS_PER_PERSON} blocked players", key="lobby.error.blocks_limit")
                s.add(BlockRow(person_id=person.id, blocked_id=other.id, created_at=self.lobby.now()))
            s.execute(update(ChallengeRow).where(ChallengeRow.status == "open", or_(
                (ChallengeRow.from_id == person.id) & (ChallengeRow.to_id == other.id),
                (ChallengeRow.from_id == other.id) & (ChallengeRow.to_id == person.id)))
                .values(status="cancelled", answered_at=self.lobby.now()))
        self.lobby.changed([person.id, other.id])
        self.lobby.changed()
        return {"name": other.name}

    def unblock(self, person: Person, name: str) -> None:
        other = self._named(name)
        with self.db.writing() as s:
            s.execute(delete(BlockRow).where(BlockRow.person_id == person.id, BlockRow.blocked_id == other.id))
        self.lobby.changed([person.id])

    def listed(self, person: Person) -> list[dict[str, Any]]:
        """The players ``person`` blocks, by name (``kind``: account or guest, whose name has no
        profile)."""
        with self.db.reading() as s:
            rows = s.execute(select(PersonRow.name, PersonRow.kind, BlockRow.created_at).join(
                PersonRow, PersonRow.id == BlockRow.blocked_id).where(BlockRow.person_id == person.id)
                .order_by(PersonRow.name_key)).all()
        return [{"name": name, "kind": kind, "since": aware(at).isoformat()} for name, kind, at in rows]

    def blocks(self, person: int, other: int) -> bool:
        """Whether ``person`` blocks ``other`` (the chat hides ``other``'s words from ``person``)."""
        with self.db.reading() as s:
            return s.get(BlockRow, (person, other)) is not None

    def blocked_by(self, person: int) -> set[int]:
        """The ids of the people ``person`` blocks (whose chat lines ``person`` does not read)."""
        with self.db.reading() as s:
            return set(s.scalars(select(BlockRow.blocked_id).where(BlockRow.person_id == person)))

    def between(self, a: int, b: int) -> bool:
        """Whether either of ``a`` and ``b`` blocks the other."""
        with self.db.reading() as s:
            return s.scalar(select(BlockRow.person_id).where(or_(
                (BlockRow.person_id == a) & (BlockRow.blocked_id == b),
                (BlockRow.person_id == b) & (BlockRow.blocked_id == a))).limit(1)) is not None

    def either_of(self, person: int) -> set[int]:
        """The people ``person`` blocks or is blocked by."""
        with self.db.reading() as s:
            rows = s.execute(select(BlockRow.person_id, BlockRow.blocked_id).where(
                or_(BlockRow.person_id == person, BlockRow.blocked_id == person))).all()
        return {b if a == person else a for a, b in rows}


class Challenges:
    """Challenges to named players."""

    def __init__(self, lobby: "Lobby"):
        self.lobby = lobby
        self.db = lobby.db

    def send(self, person: Person, to: str, game: str, options: Mapping[str, bool | int | str],
             clock: TimeControl | None, rated: bool, seat: int | None = None) -> dict[str, Any]:
        """``person`` challenges the player named ``to`` to ``game`` (as a seek names it), taking
        ``seat`` 0 or 1 (None: either, drawn at random). Unknown for no such player; Refused
        between people either of whom blocks the other (the challenged is told as little as
        lichess tells: "does not accept your challenges"), or for a rated game with a guest;
        Conflict for a challenge to oneself, one open to them already, or too many open."""
        spec, instance = check_spec(game, options, clock, rated)
        target = person_of(self.lobby.blocks._named(to))
        if target.id == person.id:
            raise Conflict("you cannot challenge yourself", key="lobby.error.challenge_self")
        if target.disabled:
            raise Unknown(f"no player named {str(to)[:40]!r}", key="lobby.error.no_player", name=str(to)[:40])
        if self.lobby.blocks.between(person.id, target.id):
            raise Refused(f"{target.name} does not accept your challenges", key="lobby.error.challenge_blocked",
                          name=target.name)
        self.lobby.check_rated(spec, instance, person, target)
        self.expire()
        now = self.lobby.now()
        with self.db.writing() as s:
            # two challenges sent at once, each reading what is open before the other commits,
            # would both pass the checks below (the same player twice, or one past the limit):
            # the challenger's row locked first, the second reads what the first committed
            # (PostgreSQL; SQLite queues every writer already), as Seeks.open does
            self.lobby.hold(s, [person.id])
            mine = s.scalars(select(ChallengeRow).where(ChallengeRow.from_id == person.id,
                                                        ChallengeRow.status == "open")).all()
            if any(c.to_id == target.id for c in mine):
                raise Conflict(f"you have challenged {target.name} already", key="lobby.error.challenge_open",
                               name=target.name)
            if len(mine) >= CHALLENGES_PER_PERSON:
                raise Conflict(f"at most {CHALLENGES_PER_PERSON} open challenges", key="lobby.error.challenges_limit",
                               n=CHALLENGES_PER_PERSON)
            row = ChallengeRow(id=secrets.token_hex(6), from_id=person.id, to_id=target.id, spec=spec_text(spec),
                               seat=seat, status="open", created_at=now)
            s.add(row)
        self.lobby.changed([person.id, target.id])
        return self.view(row, person.id, {person.id: person.name, target.id: target.name},
                         {person.id: person.kind, target.id: target.kind})

    def answer(self, person: Person, challenge_id: Any, accept: bool) -> dict[str, Any]:
        """The challenged ``person`` accepts (``{"match": id}``: the game started, both seated:
        the challenger in the seat they asked for, else one drawn at random) or declines.
        Unknown when it is not a challenge to them; Gone once it was answered, cancelled or
        expired."""
        self.expire()
        with self.db.writing() as s:
            row = self._get(s, challenge_id)
            if row is None or row.to_id != person.id:
                raise Unknown("no challenge to you with this id", key="lobby.error.no_challenge")
            if row.status != "open":
                raise Gone(f"this challenge was {row.status}", key="lobby.error.challenge_gone", how=row.status)
            spec = spec_of(row.spec)
            challenger, seat = row.from_id, row.seat
            withdrawn: list[str] = []
            if accept:
                self.lobby.check_rated(spec, spec.instance(), person)
                self.lobby.hold(s, [challenger, person.id])  # as a seek taken (Lobby.seating)
            done = s.execute(update(ChallengeRow).where(ChallengeRow.id == row.id, ChallengeRow.status == "open")
                             .values(status="accepting" if accept else "declined", answered_at=self.lobby.now()))
            if done.rowcount != 1:
                raise Gone("this challenge was answered already", key="lobby.error.challenge_gone", how="answered")
            if accept:
                withdrawn = self.lobby.seating(s, [challenger, person.id], spec, challenge=row.id)
        self.lobby.changed([challenger, person.id])
        if not accept:
            return {"status": "declined", "match": None}
        seat = secrets.randbelow(2) if seat is None else seat
        try:
            match_id = self.lobby.start(spec, ["human", "human"], {seat: challenger, 1 - seat: person.id}, "challenge")
        except Exception:
            with self.db.writing() as s:
                s.execute(update(ChallengeRow).where(ChallengeRow.id == challenge_id).values(status="open",
                                                                                             answered_at=None))
            self.lobby.reopen(withdrawn)
            raise
        with self.db.writing() as s:
            s.execute(update(ChallengeRow).where(ChallengeRow.id == challenge_id)
                      .values(status="accepted", match_id=match_id, answered_at=self.lobby.now()))
        self.lobby.note_game(match_id, "challenge", spec.rated)
        self.lobby.began([challenger, person.id], spec)
        self.lobby.changed([challenger, person.id])
        return {"status": "accepted", "match": match_id}

    def cancel(self, person: Person, challenge_id: Any) -> None:
        """The challenger withdraws their open challenge."""
        with self.db.writing() as s:
            row = self._get(s, challenge_id)
            # open still when written, as Seeks.cancel: one accepted at this moment kept its game
            # and was told withdrawn to its challenger
            done = None if row is None or row.from_id != person.id else s.execute(
                update(ChallengeRow).where(ChallengeRow.id == row.id, ChallengeRow.status == "open")
                .values(status="cancelled", answered_at=self.lobby.now()))
            if done is None or done.rowcount != 1:
                raise Unknown("no open challenge of yours with this id", key="lobby.error.no_challenge")
            to = row.to_id
        self.lobby.changed([person.id, to])

    def listed(self, person: Person) -> dict[str, list[dict[str, Any]]]:
        """``{"in": challenges to person, open; "out": theirs, open or answered in the last two
        minutes (a decline is told)}``."""
        self.expire()
        since = self.lobby.now() - timedelta(seconds=120)
        with self.db.reading() as s:
            rows = s.scalars(select(ChallengeRow).where(or_(
                (ChallengeRow.to_id == person.id) & (ChallengeRow.status == "open"),
                (ChallengeRow.from_id == person.id) & or_(ChallengeRow.status == "open",
                                                          ChallengeRow.answered_at >= since)))
                .order_by(ChallengeRow.created_at)).all()
        names, kinds = self.lobby.names([r.from_id for r in rows] + [r.to_id for r in rows])
        # a deleted person has no name: their challenges (answered a moment ago) are not shown
        views = [self.view(r, person.id, names, kinds) for r in rows if names.get(r.from_id) and names.get(r.to_id)]
        return {"in": [v for v in views if not v["mine"]], "out": [v for v in views if v["mine"]]}

    def view(self, row: ChallengeRow, viewer: int, names: dict[int, str | None],
             kinds: dict[int, str] | None = None) -> dict[str, Any]:
        spec = spec_of(row.spec)
        rating, provisional = self.lobby.rating(row.from_id, spec)
        kinds = kinds or {}
        return {"id": row.id, "from": names.get(row.from_id), "to": names.get(row.to_id),
                "from_kind": kinds.get(row.from_id), "to_kind": kinds.get(row.to_id), **spec.to_json(),
                "seat": row.seat, "status": row.status, "match": row.match_id, "mine": row.from_id == viewer,
                "rating": round(rating), "provisional": provisional, "created": aware(row.created_at).isoformat(),
                "expires": (aware(row.created_at) + timedelta(seconds=self._lifetime(spec.clock))).isoformat()}

    @staticmethod
    def _lifetime(clock: Any) -> float:
        return CORRESPONDENCE_LIFETIME if correspondence(clock) else CHALLENGE_LIFETIME

    @staticmethod
    def _get(s: Any, challenge_id: Any) -> ChallengeRow | None:
        return s.get(ChallengeRow, challenge_id) if isinstance(challenge_id, str) and len(challenge_id) <= 16 else None

    def expire(self) -> None:
        """End the open challenges past their time."""
        now = self.lobby.now()
        with self.db.reading() as s:
            rows = s.execute(select(ChallengeRow.id, ChallengeRow.spec, ChallengeRow.created_at, ChallengeRow.from_id,
                                    ChallengeRow.to_id).where(ChallengeRow.status == "open")).all()
        old = [(cid, a, b) for cid, spec, made, a, b in rows
               if aware(made) + timedelta(seconds=self._lifetime(spec_of(spec).clock)) <= now]
        if not old:
            return
        with self.db.writing() as s:
            s.execute(update(ChallengeRow).where(ChallengeRow.id.in_([c for c, _, _ in old]),
                                                 ChallengeRow.status == "open").values(status="expired", answered_at=now))
        self.lobby.changed({p for _, a, b in old for p in (a, b)})

    def started(self, person: int, within: float) -> list[dict[str, Any]]:
        since = self.lobby.now() - timedelta(seconds=within)
        with self.db.reading() as s:
            rows = s.execute(select(ChallengeRow.match_id, ChallengeRow.answered_at).where(
                or_(ChallengeRow.from_id == person, ChallengeRow.to_id == person), ChallengeRow.status == "accepted",
                ChallengeRow.answered_at >= since)).all()
        return [{"id": mid, "at": aware(at).isoformat(), "source": "challenge"} for mid, at in rows]


__all__ = ["BLOCKS_PER_PERSON", "Blocks", "CHALLENGES_PER_PERSON", "CHALLENGE_LIFETIME", "CORRESPONDENCE_LIFETIME",
           "Challenges"]
