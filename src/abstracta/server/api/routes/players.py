"""The routes of players and standings (issue 41): a player's profile, the leaderboards of the
rating pools, and the computer levels' approximate ratings. Only HTTP: the figures are
:mod:`abstracta.people`'s."""

from __future__ import annotations

import functools
from typing import Any

from fastapi import APIRouter, Request

from ....ai.levels import level_fingerprint
from ....core.errors import AbstractaError, UnknownGameError
from ....core.registry import load_game, registered_games
from ....people import errors as pe
from ....people.pools import Pool, parse_key, pools_of, variant_id
from ....people.standings import pools_by_key
from ..models import GameLevels, Leaderboard, LevelRating, PlayerProfile, PoolInfo
from ..people import PeopleRoute, answers, people_of

router = APIRouter(route_class=PeopleRoute, tags=["people"])


# --- players, leaderboards, levels ------------------------------------------------------------
def all_pools() -> dict[str, Pool]:
    """Every pool of every registered game (its declared variants × speeds)."""
    return _pools(tuple(registered_games()))


@functools.lru_cache(maxsize=4)
def _pools(names: tuple[str, ...]) -> dict[str, Pool]:
    pools: dict[str, Pool] = {}
    for name in names:
        try:
            pools.update(pools_by_key(pools_of(load_game(name))))
        except Exception:  # noqa: BLE001 - a plug-in that does not load has no pools
            continue
    return pools


@router.get("/api/players/{username}", summary="A player's profile: ratings per pool, history, results, games",
            response_model=PlayerProfile, responses=answers(404, 422, 503))
def player(username: str, request: Request) -> dict[str, Any]:
    """``ratings``: ``{pool: {rating, rd, games, provisional, wins, draws, losses, game,
    variant, speed, label_key}}`` with pools ``<game>.<variant>.<speed>``; ``history``: per
    pool ``[{at, rating, rd}]``; ``results``: per game; ``recent_games`` (finished: ``{id,
    game, outcome, rated, rating_change, opponents, players, …}``) and ``current_games`` (in
    play: ``{id, seats, opponents, game, players, status}``); ``opponents``: the other people
    seated (``{seat, name, kind}``), ``players``: each seat's ``human`` or ``level:N`` (the
    computer), each game a link to its replay (``#/match/<id>``) unless ``deleted`` (a finished
    game deleted since: only one nobody else was in, never rated; its result stays counted)."""
    profile = people_of(request).standings.profile(username, all_pools())
    games = profile["recent_games"] + profile["current_games"]
    about = request.app.state.service.seats.about([g["id"] for g in games]) if games else {}
    for entry in games:
        known = about.get(entry["id"], {})
        entry.setdefault("game", known.get("game"))
        entry["players"] = known.get("players", [])
        entry["status"] = known.get("status", "over" if "outcome" in entry else None)
        entry["options"] = known.get("options", {})
        entry["deleted"] = not known  # no replay to link to
    # a game deleted since is no current game (its seats were given up; a row may lag)
    profile["current_games"] = [g for g in profile["current_games"] if g["id"] in about and g["status"] == "playing"]
    return profile


@router.get("/api/leaderboards", summary="The pools: every game variant × speed, with how many are rated in each",
            response_model=list[PoolInfo], responses=answers(503))
def leaderboards(request: Request) -> list[dict[str, Any]]:
    rated = people_of(request).standings.rated_pools()
    return [{"pool": key, "game": p.game, "variant": p.variant, "speed": p.speed, "label_key": p.label_key,
             "label": p.label, "players": rated.get(key, 0)} for key, p in all_pools().items()]


@router.get("/api/leaderboards/{pool}", summary="A pool's top 50 (at least 10 rated games in the last 90 days)",
            response_model=Leaderboard, responses=answers(404, 422, 503))
def leaderboard(pool: str, request: Request) -> dict[str, Any]:
    try:
        parse_key(pool)
    except ValueError:
        raise pe.UnknownPerson(f"no pool {pool[:80]!r}", key="people.error.no_pool") from None
    known = all_pools().get(pool)
    if known is None:
        raise pe.UnknownPerson(f"no pool {pool[:80]!r}", key="people.error.no_pool")
    return {"pool": pool, "game": known.game, "variant": known.variant, "speed": known.speed,
            "label_key": known.label_key, "label": known.label,
            "players": people_of(request).standings.leaderboard(pool)}


@router.get("/api/levels", summary="Each computer level's approximate rating, per game variant",
            response_model=dict[str, list[LevelRating]], responses=answers(503))
def level_ratings(request: Request) -> dict[str, list[dict[str, Any]]]:
    """``{<game>.<variant>: [{level, rating, rd, ladder, games}]}``: from the level ladder
    (levels whose bot changed since it was measured have no ladder figure) and people's
    results against the levels."""

    out: dict[str, list[dict[str, Any]]] = {}
    for name in registered_games():
        try:
            game = load_game(name)
            variants = [(variant_id(name, v), load_game(name, **v.options)) for v in game.description.variants]
        except Exception:  # noqa: BLE001 - a plug-in that does not load has no levels to show
            continue
        for vid, instance in variants:
            figures = people_of(request).standings.level_ratings(
                f"{name}.{vid}", instance.description.level_numbers,  # the levels it declares
                fingerprint=lambda n, g=instance: level_fingerprint(g, n))
            out[f"{name}.{vid}"] = [{"level": f.level, "rating": round(f.rating), "rd": round(f.deviation),
                                     "ladder": round(f.ladder) if f.ladder is not None else None, "games": f.games}
                                    for f in figures]
    return out


@router.get("/api/levels/{game}", summary="The computer levels' approximate ratings for one game's options",
            response_model=GameLevels, responses=answers(404, 422, 503))
def game_level_ratings(game: str, request: Request) -> dict[str, Any]:
    """Query parameters are the game's options (as ``GET /api/games/{name}``): the declared
    variant they make (``family``: ``<game>.<variant>``, null when they make none, which a
    rated game needs) and its levels' figures, as ``GET /api/levels`` gives them (the new-game
    form's "Level 4 ≈ 1650")."""

    options = {k: v for k, v in request.query_params.items() if k != "lang"}
    try:
        instance = load_game(game, **options)
    except UnknownGameError:
        raise pe.UnknownPerson(f"no game {game[:64]!r}", key="people.error.no_game") from None
    except AbstractaError as exc:
        raise pe.InvalidInput(str(exc)[:200]) from None
    variant = instance.description.variant_of(instance.options)
    if variant is None:
        return {"family": None, "levels": []}
    family = f"{game}.{variant_id(game, variant)}"
    figures = people_of(request).standings.level_ratings(family, instance.description.level_numbers,
                                                         fingerprint=lambda n: level_fingerprint(instance, n))
    return {"family": family, "levels": [{"level": f.level, "rating": round(f.rating), "rd": round(f.deviation),
                                          "ladder": round(f.ladder) if f.ladder is not None else None,
                                          "games": f.games} for f in figures]}


__all__ = ["all_pools", "router"]
