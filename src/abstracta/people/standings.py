"""Ratings, results, profiles and leaderboards (issue 41 §4–5).

A finished game is recorded once (:meth:`Standings.record_game`, called by the match service
when a game ends): a result row per person seated in it, and — in a rated game — each person's
Glicko-2 rating in the game's pool updated at once, in a rating period of that one game
(lichess's way), the deviation first grown by the days since the person's last rated game.

Games of 3–4 players are rated as Glicko-2 over the pairwise results: a game is, for each
player, a result against every other (a higher return wins, an equal one draws), all in the
one period — the way Glicko-2 takes several games of a period. Chosen over ``openskill``'s
Plackett–Luce because it keeps one scale and one meaning for every pool (rating ± RD, the
provisional mark at RD > 110, leaderboards, the computer levels' figures), checked against
Glickman's example once; each player count is a variant, so its own pool. Its known bias —
the pairs of one game are not independent, so a 4-player game moves a rating about as much
as three games would — is the same for everyone in that pool.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError

from .database import aware, hold
from .errors import NotRatable, UnknownPerson
from .glicko2 import PERIODS_PER_DAY, Glicko, Result, rate
from .levels import LevelRating, estimate, ladder_of
from .names import name_key
from .pools import Pool, pool_of
from .tables import GameResultRow, LevelResultRow, PersonRow, RatingHistoryRow, RatingRow, SeatPersonRow

if TYPE_CHECKING:
    from .service import People

#: the leaderboard: its length, and the rated games in the window a place needs
LEADERBOARD_SIZE = 50
LEADERBOARD_GAMES = 10
LEADERBOARD_WINDOW = timedelta(days=90)
#: points of a pool's history in a profile (the most recent)
HISTORY_POINTS = 500
RECENT_GAMES = 20


@dataclass(frozen=True)
class RatingChange:
    """What one rated game did to one person's rating in ``pool``."""

    pool: str
    before: float
    after: float
    deviation: float

    @property
    def provisional(self) -> bool:
        return Glicko(self.after, self.deviation).provisional

    def to_json(self) -> dict[str, Any]:
        return {"pool": self.pool, "before": round(self.before), "after": round(self.after),
                "change": round(self.after) - round(self.before), "rd": round(self.deviation),
                "provisional": self.provisional}


def pairwise_scores(returns: Sequence[float]) -> list[list[float | None]]:
    """``scores[i][j]``: seat i's score against seat j from the game's returns (1, ½, 0;
    None on the diagonal)."""
    n = len(returns)
    return [[None if i == j else 1.0 if returns[i] > returns[j] else 0.5 if returns[i] == returns[j] else 0.0
             for j in range(n)] for i in range(n)]


def outcome_of(value: float) -> str:
    return "win" if value > 0 else "loss" if value < 0 else "draw"


def _rating_json(row: RatingRow, now: datetime) -> dict[str, Any]:
    live = Glicko(row.rating, row.deviation, row.volatility).after_days((now - aware(row.rated_at)).total_seconds() / 86400)
    return {"rating": round(row.rating), "rd": round(live.deviation), "games": row.games,
            "provisional": live.provisional, "wins": row.wins, "draws": row.draws, "losses": row.losses}


class Standings:
    """Ratings and results over ``people``'s database."""

    def __init__(self, people: "People"):
        self.people = people
        self.db = people.db

    # --- what the match service calls ------------------------------------------------------------
    @staticmethod
    def ratable(game: Any, clock: Mapping[str, Any] | None, seats: Sequence[str] | None = None) -> Pool:
        """The pool a rated game of ``game`` (an instance) with ``clock`` would count in, or
        :class:`NotRatable`: options that make no declared variant, or a computer among the
        ``seats`` (seat specs, as a match's players)."""
        if seats is not None and any(spec != "human" for spec in seats):
            raise NotRatable("games against the computer are never rated", key="people.error.rated_computer")
        return pool_of(game, clock)

    def record_game(self, match_id: str, game: Any, clock: Mapping[str, Any] | None, returns: Sequence[float],
                    seats: Mapping[int, int], *, rated: bool, levels: Mapping[int, int] | None = None,
                    finished_at: datetime | None = None) -> dict[int, RatingChange]:
        """Record how match ``match_id`` ended: ``returns`` per seat (the rules' or the
        result's), ``seats`` {seat: person id} of the people seated (others: the computer,
        ``levels`` {seat: level}, or nobody known). Rated — when ``rated`` and the game is
        :meth:`ratable`, every seat an account's and no account in two seats — it changes each
        account's rating in the pool: returned {person id: change}. Recorded once: a second
        call for the same match changes nothing and returns the first's changes.
        """
        at = finished_at or self.db.now()
        levels = dict(levels or {})
        try:
            pool = pool_of(game, clock)
        except NotRatable:
            pool = None
        owners: dict[int, list[int]] = {}
        for seat, person in seats.items():
            owners.setdefault(person, []).append(seat)
        try:
            with self.db.writing() as s:
                # two games of one person ending at the same moment (two workers) would each read
                # the rating before the other wrote it: the last written counted alone, or, for a
                # first rating in the pool, the second met the first's key and its game went
                # unrecorded. The seated people's rows locked first, the second reads the first's
                hold(s, owners)
                if s.scalar(select(GameResultRow.match_id).where(GameResultRow.match_id == match_id).limit(1)):
                    changes = None  # recorded already (another process, a second report of the end)
                else:
                    changes = self._record(s, match_id, game, pool, returns, seats, owners, rated, levels, at)
        except IntegrityError:  # recorded by another process at the same moment
            changes = None
        return self.changes_of(match_id) if changes is None else changes

    def _record(self, s: Any, match_id: str, game: Any, pool: Pool | None, returns: Sequence[float],
                seats: Mapping[int, int], owners: dict[int, list[int]], rated: bool, levels: dict[int, int],
                at: datetime) -> dict[int, RatingChange]:
        people = {p.id: p for p in s.scalars(select(PersonRow).where(PersonRow.id.in_(list(owners))))}
        rated = (rated and pool is not None and not levels and len(seats) == len(returns) >= 2
                 and len(owners) == len(seats) and all(p.kind == "account" for p in people.values())
                 and len(people) == len(owners))
        scores = pairwise_scores(returns)
        changes = self._rate(s, pool.key, seats, scores, at, match_id) if rated else {}
        for person, held in owners.items():
            if len(held) != 1 or person not in people:
                continue  # a person in several seats plays themself: nothing to record
            seat = held[0]
            others = [x for x in scores[seat] if x is not None]
            change = changes.get(person)
            s.add(GameResultRow(match_id=match_id, person_id=person, seat=seat, game=game.description.name,
                                pool=pool.key if pool else None, rated=rated, outcome=outcome_of(returns[seat]),
                                score=sum(others) / len(others) if others else 0.5,
                                rating_before=change.before if change else None,
                                rating_after=change.after if change else None, finished_at=at))
            if pool is not None and len(returns) == 2 and levels:
                self._level_result(s, match_id, person, pool, seat, levels, scores, at)
        return changes

    def _rate(self, s: Any, pool: str, seats: Mapping[int, int], scores: list[list[float | None]], at: datetime,
              match_id: str) -> dict[int, RatingChange]:
        rows = {r.person_id: r for r in s.scalars(select(RatingRow).where(RatingRow.pool == pool,
                                                                          RatingRow.person_id.in_(list(seats.values()))))}
        before: dict[int, Glicko] = {}
        days: dict[int, float] = {}
        for person in seats.values():
            row = rows.get(person)
            before[person] = Glicko(row.rating, row.deviation, row.volatility) if row else Glicko()
            days[person] = (at - aware(row.rated_at)).total_seconds() / 86400 if row else 0.0
        changes = {}
        for seat, person in seats.items():
            results = [Result(before[other].after_days(days[other]), scores[seat][other_seat])
                       for other_seat, other in seats.items() if other_seat != seat]
            after = rate(before[person], results, periods=max(0.0, days[person]) * PERIODS_PER_DAY)
            row = rows.get(person)
            # a game that ended a moment before one rated first (two workers, the person's row
            # lock taken in turn) is rated after it: its point follows it in the history, and
            # the rating's time never goes back
            stamp = at
            if row is None:
                row = RatingRow(person_id=person, pool=pool, games=0, wins=0, draws=0, losses=0)
                s.add(row)
            else:
                stamp = max(at, aware(row.rated_at))
            row.rating, row.deviation, row.volatility, row.rated_at = after.rating, after.deviation, after.volatility, stamp
            own = [x for x in scores[seat] if x is not None]
            share = sum(own) / len(own)
            row.games += 1
            row.wins += share > 0.5
            row.draws += share == 0.5
            row.losses += share < 0.5
            s.add(RatingHistoryRow(person_id=person, pool=pool, match_id=match_id, at=stamp, before=before[person].rating,
                                   rating=after.rating, deviation=after.deviation))
            changes[person] = RatingChange(pool, before[person].rating, after.rating, after.deviation)
        return changes

    def _level_result(self, s: Any, match_id: str, person: int, pool: Pool, seat: int, levels: Mapping[int, int],
                      scores: list[list[float | None]], at: datetime) -> None:
        """A person's game against one computer level: evidence for the level's figure, when
        the person has a rating in the game's pool."""
        (level_seat, level), = levels.items()
        row = s.get(RatingRow, (person, pool.key))
        if row is None:
            return
        s.add(LevelResultRow(match_id=match_id, person_id=person, family=pool.family, level=level,
                             score=scores[seat][level_seat], rating=row.rating, deviation=row.deviation, at=at))

    def changes_of(self, match_id: str) -> dict[int, RatingChange]:
        """The rating changes a recorded game made ({person id: change}; empty if unrated)."""
        with self.db.reading() as s:
            rows = s.scalars(select(GameResultRow).where(GameResultRow.match_id == match_id, GameResultRow.rated))
            out = {}
            for r in rows:
                if r.rating_before is None:
                    continue
                hist = s.scalar(select(RatingHistoryRow.deviation).where(RatingHistoryRow.match_id == match_id,
                                                                         RatingHistoryRow.person_id == r.person_id))
                out[r.person_id] = RatingChange(r.pool, r.rating_before, r.rating_after, hist or 0.0)
            return out

    # --- seats of people ------------------------------------------------------------------------
    def take_seat(self, match_id: str, seat: int, person_id: int) -> None:
        """Seat ``seat`` of ``match_id`` belongs to ``person_id`` from now (idempotent)."""
        with self.db.writing() as s:
            row = s.get(SeatPersonRow, (match_id, seat))
            if row is None:
                s.add(SeatPersonRow(match_id=match_id, seat=seat, person_id=person_id, created_at=self.db.now()))
            elif row.person_id != person_id:
                raise NotRatable("this seat is someone else's", key="people.error.seat_taken")

    def owners_of(self, match_id: str) -> dict[int, int]:
        """{seat: person id} of the seats of ``match_id`` that belong to someone."""
        with self.db.reading() as s:
            return dict(s.execute(select(SeatPersonRow.seat, SeatPersonRow.person_id)
                                  .where(SeatPersonRow.match_id == match_id)).all())

    def kinds(self, person_ids: Sequence[int]) -> dict[int, str]:
        """{person id: kind} (``guest``, ``account``, ``deleted``) of the people of
        ``person_ids`` that exist."""
        ids = sorted({int(i) for i in person_ids})
        if not ids:
            return {}
        with self.db.reading() as s:
            return dict(s.execute(select(PersonRow.id, PersonRow.kind).where(PersonRow.id.in_(ids))).all())

    def forget_match(self, match_id: str) -> None:
        """A deleted match: its seats belong to nobody any more. Its results stay (the ratings
        it moved stay moved, as a deleted account's games stay)."""
        with self.db.writing() as s:
            s.execute(delete(SeatPersonRow).where(SeatPersonRow.match_id == match_id))

    def seats_of(self, person_id: int) -> dict[str, set[int]]:
        """{match id: seats} the person holds (the match list of a signed-in person)."""
        with self.db.reading() as s:
            out: dict[str, set[int]] = {}
            for mid, seat in s.execute(select(SeatPersonRow.match_id, SeatPersonRow.seat)
                                       .where(SeatPersonRow.person_id == person_id)):
                out.setdefault(mid, set()).add(seat)
            return out

    def persons_of_matches(self, match_ids: Sequence[str]) -> dict[str, dict[int, int]]:
        """{match id: {seat: person id}} of the people seated in ``match_ids`` (a match nobody is
        seated in is left out): whether a listed game has someone else in it."""
        ids = list(dict.fromkeys(match_ids))
        out: dict[str, dict[int, int]] = {}
        with self.db.reading() as s:
            for start in range(0, len(ids), 500):  # bound the IN list
                for mid, seat, person in s.execute(
                        select(SeatPersonRow.match_id, SeatPersonRow.seat, SeatPersonRow.person_id)
                        .where(SeatPersonRow.match_id.in_(ids[start:start + 500]))):
                    out.setdefault(mid, {})[seat] = person
        return out

    def people_of(self, match_id: str) -> dict[int, dict[str, Any]]:
        """{seat: {"name", "kind"}} of the people seated in a match (the names on its seats;
        a deleted account: name None, kind "deleted")."""
        return self.people_of_matches([match_id]).get(match_id, {})

    def people_of_matches(self, match_ids: Sequence[str]) -> dict[str, dict[int, dict[str, Any]]]:
        """:meth:`people_of` of several matches at once: {match id: {seat: {"name", "kind"}}}
        (a match nobody is seated in is left out)."""
        ids = list(dict.fromkeys(match_ids))
        out: dict[str, dict[int, dict[str, Any]]] = {}
        if not ids:
            return out
        with self.db.reading() as s:
            for start in range(0, len(ids), 500):  # bound the IN list
                rows = s.execute(select(SeatPersonRow.match_id, SeatPersonRow.seat, PersonRow.name, PersonRow.kind)
                                 .join(PersonRow, PersonRow.id == SeatPersonRow.person_id)
                                 .where(SeatPersonRow.match_id.in_(ids[start:start + 500])))
                for mid, seat, name, kind in rows:
                    out.setdefault(mid, {})[seat] = {"name": name, "kind": kind}
        return out

    # --- profiles and leaderboards ---------------------------------------------------------------
    def profile(self, name: str, pools: Mapping[str, Pool] | None = None) -> dict[str, Any]:
        """A player's page as data (see the API's ``GET /api/players/{username}``).
        :class:`UnknownPerson` for a name no account has."""
        now = self.db.now()
        with self.db.reading() as s:
            person = s.scalar(select(PersonRow).where(PersonRow.name_key == name_key(name) if isinstance(name, str)
                                                      and len(name) <= 64 else False, PersonRow.kind == "account"))
            if person is None:
                raise UnknownPerson(f"no player {str(name)[:40]!r}", key="people.error.no_player", name=str(name)[:40])
            ratings, history = {}, {}
            for row in s.scalars(select(RatingRow).where(RatingRow.person_id == person.id).order_by(RatingRow.pool)):
                ratings[row.pool] = _rating_json(row, now)
                points = s.execute(select(RatingHistoryRow.at, RatingHistoryRow.rating, RatingHistoryRow.deviation)
                                   .where(RatingHistoryRow.person_id == person.id, RatingHistoryRow.pool == row.pool)
                                   .order_by(RatingHistoryRow.at.desc(), RatingHistoryRow.id.desc())
                                   .limit(HISTORY_POINTS)).all()
                history[row.pool] = [{"at": aware(at).isoformat(), "rating": round(r), "rd": round(d)}
                                     for at, r, d in reversed(points)]
            per_game: dict[str, dict[str, int]] = {}
            for game, outcome, count in s.execute(select(GameResultRow.game, GameResultRow.outcome, func.count())
                                                  .where(GameResultRow.person_id == person.id)
                                                  .group_by(GameResultRow.game, GameResultRow.outcome)):
                entry = per_game.setdefault(game, {"games": 0, "wins": 0, "draws": 0, "losses": 0})
                entry["games"] += count
                entry[{"win": "wins", "draw": "draws", "loss": "losses"}[outcome]] += count
            recent = [{"id": r.match_id, "game": r.game, "pool": r.pool, "rated": r.rated, "outcome": r.outcome,
                       "seat": r.seat, "finished": aware(r.finished_at).isoformat(),
                       "rating_change": (round(r.rating_after) - round(r.rating_before)
                                         if r.rating_after is not None and r.rating_before is not None else None)}
                      for r in s.scalars(select(GameResultRow).where(GameResultRow.person_id == person.id)
                                         .order_by(GameResultRow.finished_at.desc()).limit(RECENT_GAMES))]
            finished = select(GameResultRow.match_id).where(GameResultRow.person_id == person.id)
            held: dict[str, list[int]] = {}
            for mid, seat in s.execute(select(SeatPersonRow.match_id, SeatPersonRow.seat).where(
                    SeatPersonRow.person_id == person.id, SeatPersonRow.match_id.not_in(finished))):
                held.setdefault(mid, []).append(seat)
            current = [{"id": mid, "seats": sorted(seats)} for mid, seats in sorted(held.items())]
            # the other people of each game, by seat ({seat, name, kind}; a deleted account's
            # name is None): the profile names the opponents, not only the games. A finished
            # game's are those its results name; a game in play's, those seated in it
            others: dict[str, list[dict[str, Any]]] = {}
            for table, ids in ((GameResultRow, [g["id"] for g in recent]), (SeatPersonRow, [g["id"] for g in current])):
                if not ids:
                    continue
                for mid, seat, pname, pkind in s.execute(
                        select(table.match_id, table.seat, PersonRow.name, PersonRow.kind)
                        .join(PersonRow, PersonRow.id == table.person_id)
                        .where(table.match_id.in_(ids), table.person_id != person.id).order_by(table.seat)):
                    others.setdefault(mid, []).append({"seat": seat, "name": pname if pkind != "deleted" else None,
                                                       "kind": pkind})
            for entry in recent + current:
                entry["opponents"] = others.get(entry["id"], [])
        for key, data in ratings.items():
            pool = (pools or {}).get(key)
            if pool is not None:
                data.update(game=pool.game, variant=pool.variant, speed=pool.speed, label_key=pool.label_key,
                            label=pool.label)
        return {"username": person.name, "member_since": aware(person.account_at or person.created_at).isoformat(),
                "disabled": person.disabled_at is not None, "ratings": ratings, "history": history,
                "results": per_game, "recent_games": recent, "current_games": current}

    def leaderboard(self, pool: str) -> list[dict[str, Any]]:
        """The pool's top :data:`LEADERBOARD_SIZE` accounts with at least
        :data:`LEADERBOARD_GAMES` rated games in the last :data:`LEADERBOARD_WINDOW`, best
        first: ``{rank, username, rating, rd, games, provisional}``."""
        now = self.db.now()
        since = now - LEADERBOARD_WINDOW
        with self.db.reading() as s:
            active = (select(RatingHistoryRow.person_id).where(RatingHistoryRow.pool == pool, RatingHistoryRow.at >= since)
                      .group_by(RatingHistoryRow.person_id)
                      .having(func.count() >= LEADERBOARD_GAMES)).subquery()
            rows = s.execute(select(RatingRow, PersonRow.name)
                             .join(PersonRow, PersonRow.id == RatingRow.person_id)
                             .join(active, active.c.person_id == RatingRow.person_id)
                             .where(RatingRow.pool == pool, PersonRow.kind == "account", PersonRow.disabled_at.is_(None))
                             .order_by(RatingRow.rating.desc(), PersonRow.name_key).limit(LEADERBOARD_SIZE)).all()
        return [{"rank": i + 1, "username": name, **{k: v for k, v in _rating_json(row, now).items()
                                                     if k in ("rating", "rd", "games", "provisional")}}
                for i, (row, name) in enumerate(rows)]

    def rated_pools(self) -> dict[str, int]:
        """{pool: rated players} of every pool someone has a rating in."""
        with self.db.reading() as s:
            return dict(s.execute(select(RatingRow.pool, func.count()).group_by(RatingRow.pool)).all())

    def level_ratings(self, family: str, levels: Sequence[int] = (1, 2, 3, 4, 5, 6),
                      fingerprint: Callable[[int], str] | None = None) -> list[LevelRating]:
        """Each level's approximate rating in a variant family (``<game>.<variant>``), from the
        ladder and people's results (:mod:`abstracta.people.levels`); levels with neither are
        left out."""
        ladder = ladder_of(family, fingerprint)
        # each person is one result per level, their mean score at their latest rating: one
        # account resigning to level 1 again and again moved its figure (shown to everyone, and
        # the level quick pairing offers) by hundreds of points a game
        with self.db.reading() as s:
            found: dict[int, dict[int, tuple[float, float, list[float]]]] = {}
            for level, person, rating, dev, score in s.execute(
                    select(LevelResultRow.level, LevelResultRow.person_id, LevelResultRow.rating,
                           LevelResultRow.deviation, LevelResultRow.score)
                    .where(LevelResultRow.family == family).order_by(LevelResultRow.at)):
                scores = found.setdefault(level, {}).get(person, (0.0, 0.0, []))[2]
                found[level][person] = (rating, dev, scores + [score])
        out = []
        for level in levels:
            people = found.get(level, {}).values()
            figure = estimate(level, ladder.get(level), [(r, d, sum(x) / len(x)) for r, d, x in people])
            if figure is not None:
                out.append(replace(figure, games=sum(len(x) for _, _, x in people)))
        return out


def pools_by_key(pools: Sequence[Pool]) -> dict[str, Pool]:
    return {p.key: p for p in pools}


__all__ = ["LEADERBOARD_GAMES", "LEADERBOARD_SIZE", "LEADERBOARD_WINDOW", "RatingChange", "Standings", "outcome_of",
           "pairwise_scores", "pools_by_key"]
