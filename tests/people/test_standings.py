"""Ratings, results, profiles, leaderboards and the computer levels' figures (no HTTP)."""

from __future__ import annotations

import pytest

from abstracta import load_game
from abstracta.people import errors
from abstracta.people.levels import LEVEL_ONE, chain, estimate, ladder_of
from abstracta.people.pools import pools_of
from abstracta.people.standings import pairwise_scores
from abstracta.people.standings import pools_by_key

BLITZ = {"initial": 300, "increment": 3}


def accounts(people, *names):
    return [people.accounts.sign_up(n, "correct horse").principal.person.id for n in names]


def test_a_rated_game_moves_the_winner_up_and_the_loser_down(people):
    anna, ben = accounts(people, "anna", "ben")
    game = load_game("nibble", variant="hex")
    changes = people.standings.record_game("m1", game, BLITZ, [-1.0, 1.0], {0: anna, 1: ben}, rated=True)
    assert changes[ben].after > changes[ben].before == 1500 and changes[anna].after < 1500
    assert changes[ben].pool == "nibble.hex.blitz"
    # a first game against an equal new player: lichess's ±~240 from 1500 ± 500
    assert 150 < changes[ben].after - 1500 < 300
    profile = people.standings.profile("BEN")
    entry = profile["ratings"]["nibble.hex.blitz"]
    assert (entry["rating"], entry["games"], entry["wins"], entry["provisional"]) == (round(changes[ben].after), 1, 1, True)
    assert profile["recent_games"][0]["rating_change"] == round(changes[ben].after) - 1500
    assert [p["rating"] for p in profile["history"]["nibble.hex.blitz"]] == [round(changes[ben].after)]
    # recorded once: a second report of the same end changes nothing
    again = people.standings.record_game("m1", game, BLITZ, [-1.0, 1.0], {0: anna, 1: ben}, rated=True)
    assert again == changes
    assert people.standings.profile("ben")["ratings"]["nibble.hex.blitz"]["games"] == 1


def test_casual_games_and_games_with_a_guest_are_not_rated(people):
    anna, ben = accounts(people, "anna", "ben")
    guest = people.sessions.start_guest("10.0.0.1").principal.person.id
    game = load_game("fanorona", size="telo")
    assert people.standings.record_game("c1", game, None, [1, -1], {0: anna, 1: ben}, rated=False) == {}
    assert people.standings.record_game("c2", game, None, [1, -1], {0: anna, 1: guest}, rated=True) == {}
    assert people.standings.profile("anna")["ratings"] == {}
    assert people.standings.profile("anna")["results"] == {"fanorona": {"games": 2, "wins": 2, "draws": 0, "losses": 0}}


def test_games_against_the_computer_are_never_rated(people):
    with pytest.raises(errors.NotRatable):
        people.standings.ratable(load_game("nibble"), None, ["human", "level:4"])
    assert people.standings.ratable(load_game("nibble", variant="hex"), BLITZ, ["human", "human"]).key == "nibble.hex.blitz"


def test_three_players_are_rated_over_the_pairwise_results(people):
    a, b, c = accounts(people, "a1", "b2", "c3")
    game = load_game("slide-checkers", players=3)
    # seat 1 wins, seats 0 and 2 share the loss: b beats both, a and c draw each other
    assert pairwise_scores([-1, 1, -1]) == [[None, 0.0, 0.5], [1.0, None, 1.0], [0.5, 0.0, None]]
    changes = people.standings.record_game("s1", game, None, [-1, 1, -1], {0: a, 1: b, 2: c}, rated=True)
    assert changes[b].after > 1500 > changes[a].after
    assert changes[a].after == pytest.approx(changes[c].after)
    assert changes[a].pool == "slide-checkers.3.correspondence"
    # the winner of a 3-player game gains more than the winner of a 2-player game would
    d, e = accounts(people, "d4", "e5")
    two = people.standings.record_game("s2", load_game("slide-checkers", players=2), None, [1, -1], {0: d, 1: e}, rated=True)
    assert changes[b].after - 1500 > two[d].after - 1500


def test_a_person_in_two_seats_is_neither_rated_nor_counted(people):
    anna, = accounts(people, "anna")
    assert people.standings.record_game("h1", load_game("nibble"), None, [1, -1], {0: anna, 1: anna}, rated=True) == {}
    assert people.standings.profile("anna")["results"] == {}


def test_the_deviation_grows_between_games(people, clock):
    anna, ben = accounts(people, "anna", "ben")
    game = load_game("fanorona", size="dimy")
    for i in range(12):
        people.standings.record_game(f"g{i}", game, BLITZ, [1, -1] if i % 2 else [-1, 1], {0: anna, 1: ben}, rated=True)
        clock.advance(hours=1)
    settled = people.standings.profile("anna")["ratings"]["fanorona.dimy.blitz"]["rd"]
    clock.advance(days=365)
    later = people.standings.profile("anna")["ratings"]["fanorona.dimy.blitz"]["rd"]
    assert later > settled


def test_a_game_rated_after_one_that_ended_later_follows_it_in_the_history(people, clock):
    # two workers: the game that ended first may take the person's row lock second; its point
    # comes after the rating it was computed from, and the rating's time never goes back
    from datetime import timedelta

    anna, ben, cara = accounts(people, "anna", "ben", "cara")
    game = load_game("fanorona", size="dimy")
    ended = people.db.now()
    first = people.standings.record_game("late", game, BLITZ, [1, -1], {0: anna, 1: ben}, rated=True,
                                         finished_at=ended)
    second = people.standings.record_game("early", game, BLITZ, [1, -1], {0: anna, 1: cara}, rated=True,
                                          finished_at=ended - timedelta(seconds=1))
    assert second[anna].before == first[anna].after < second[anna].after
    history = people.standings.profile("anna")["history"]["fanorona.dimy.blitz"]
    assert [p["rating"] for p in history] == [round(first[anna].after), round(second[anna].after)]
    assert history[0]["at"] <= history[1]["at"]


def test_leaderboard_needs_ten_games_in_ninety_days(people, clock):
    names = [f"p{i}" for i in range(4)]
    ids = accounts(people, *names)
    game = load_game("nibble", variant="square9")
    pool = "nibble.square9.blitz"
    # p0 beats everyone often; p3 plays only 4 games
    n = 0
    for _ in range(5):
        for a, b in ((0, 1), (0, 2), (1, 2)):
            people.standings.record_game(f"l{n}", game, BLITZ, [1, -1], {0: ids[a], 1: ids[b]}, rated=True)
            n += 1
            clock.advance(minutes=30)
    for _ in range(4):
        people.standings.record_game(f"l{n}", game, BLITZ, [1, -1], {0: ids[3], 1: ids[1]}, rated=True)
        n += 1
    board = people.standings.leaderboard(pool)
    assert [row["username"] for row in board] == ["p0", "p1", "p2"]  # p3: 4 games
    assert [row["rank"] for row in board] == [1, 2, 3] and board[0]["rating"] > board[1]["rating"]
    clock.advance(days=91)
    assert people.standings.leaderboard(pool) == []  # nobody active in the last 90 days
    assert people.standings.rated_pools()[pool] == 4


def test_profile_names_its_pools_and_current_games(people):
    anna, ben = accounts(people, "anna", "ben")
    people.standings.take_seat("live", 1, anna)
    game = load_game("fibonacci", variant="go")
    people.standings.record_game("done", game, {"per_turn": 86400}, [1, -1], {0: anna, 1: ben}, rated=True)
    pools = pools_by_key(pools_of(game))
    profile = people.standings.profile("anna", pools)
    entry = profile["ratings"]["fibonacci.go.correspondence"]
    assert (entry["game"], entry["variant"], entry["speed"], entry["label_key"]) == (
        "fibonacci", "go", "correspondence", "fibonacci.variant.go")
    assert profile["current_games"] == [{"id": "live", "seats": [1], "opponents": []}]
    assert profile["recent_games"][0]["opponents"] == [{"seat": 1, "name": "ben", "kind": "account"}]
    assert profile["username"] == "anna" and profile["member_since"].startswith("2026-03-01")
    with pytest.raises(errors.UnknownPerson):
        people.standings.profile("nobody")
    with pytest.raises(errors.UnknownPerson):  # a guest has no profile
        people.standings.profile(people.sessions.start_guest("10.0.0.1").principal.person.name)


def test_a_seat_is_one_persons(people):
    anna, ben = accounts(people, "anna", "ben")
    people.standings.take_seat("m", 0, anna)
    people.standings.take_seat("m", 0, anna)  # again: nothing changes
    with pytest.raises(errors.NotRatable):
        people.standings.take_seat("m", 0, ben)
    assert people.standings.people_of("m") == {0: {"name": "anna", "kind": "account"}}
    people.standings.forget_match("m")
    assert people.standings.people_of("m") == {} and people.standings.seats_of(anna) == {}


# --- the computer levels ------------------------------------------------------------------------
def test_the_ladder_chain_and_its_place_on_the_scale():
    # level 2 scores 90 % against 1, level 3 scores 75 % against 2
    figures = chain(3, [(1, 2, 100, 90.0), (2, 3, 100, 75.0)])
    assert figures[1] == (0.0, 0.0, 0.0)
    assert 340 < figures[2][0] < 390 and 160 < figures[3][0] - figures[2][0] < 210
    alone = estimate(3, {"elo": figures[3][0], "low": figures[3][1], "high": figures[3][2]}, [])
    assert alone.rating == pytest.approx(LEVEL_ONE + figures[3][0]) and alone.games == 0


def test_peoples_results_move_a_levels_figure():
    ladder = {"elo": 850.0, "low": 800.0, "high": 900.0}
    prior = estimate(4, ladder, [])
    # people rated 1800 ± 60 win 80 % against it: the level is below them, well under the ladder's 1650 no more
    results = [(1800.0, 60.0, 1.0)] * 40 + [(1800.0, 60.0, 0.0)] * 10
    after = estimate(4, ladder, results)
    assert prior.rating == pytest.approx(1650)
    assert 1450 < after.rating < 1650 and after.deviation < prior.deviation and after.games == 50
    assert estimate(5, None, []) is None


def test_level_results_are_recorded_for_rated_people(people):
    anna, = accounts(people, "anna")
    game = load_game("fanorona", size="dimy")
    # no rating in the pool yet: the result is no evidence of the level's strength
    people.standings.record_game("v0", game, None, [1, -1], {0: anna}, rated=False, levels={1: 4})
    assert [x.games for x in people.standings.level_ratings("fanorona.dimy", levels=[4])] in ([], [0])
    ben, = accounts(people, "ben")
    people.standings.record_game("r0", game, None, [1, -1], {0: anna, 1: ben}, rated=True)
    for i in range(5):
        people.standings.record_game(f"v{i + 1}", game, None, [1, -1], {0: anna}, rated=True, levels={1: 4})
    figure, = [x for x in people.standings.level_ratings("fanorona.dimy", levels=[4], fingerprint=lambda _: "x")
               if x.level == 4]
    assert figure.games == 5
    # the rated flag of a game against the computer is ignored: anna's rating moved once only
    assert people.standings.profile("anna")["ratings"]["fanorona.dimy.correspondence"]["games"] == 1


def test_one_person_losing_to_a_level_again_and_again_moves_its_figure_as_once(people):
    """A level's figure is everyone's (the new-game form, quick pairing's offer): one account
    resigning to level 1 twenty times counts as one result of that person (their mean score),
    not twenty; another person's result counts beside it."""
    anna, ben, cleo = accounts(people, "anna", "ben", "cleo")
    game = load_game("fanorona", size="dimy")
    people.standings.record_game("r0", game, None, [1, -1], {0: anna, 1: ben}, rated=True)
    people.standings.record_game("r1", game, None, [1, -1], {0: cleo, 1: ben}, rated=True)

    def level_one():
        figure, = [x for x in people.standings.level_ratings("fanorona.dimy", levels=[1]) if x.level == 1]
        return figure

    people.standings.record_game("v0", game, None, [-1, 1], {0: anna}, rated=False, levels={1: 1})
    once = level_one()
    for i in range(19):
        people.standings.record_game(f"v{i + 1}", game, None, [-1, 1], {0: anna}, rated=False, levels={1: 1})
    again = level_one()
    assert again.games == 20 and again.rating == pytest.approx(once.rating)
    people.standings.record_game("w0", game, None, [-1, 1], {0: cleo}, rated=False, levels={1: 1})
    assert level_one().rating > again.rating and level_one().games == 21


def test_the_packaged_ladder_covers_the_shipped_games():
    from abstracta.ai.levels import level_fingerprint
    from abstracta.core.registry import registered_games

    data = ladder_of("fanorona.tsivy")
    assert data, "ladder.json has no figures for Fanorona: run benchmarks/level_ratings.py --write"
    assert data[1]["elo"] == 0 and all(data[n]["elo"] > data[n - 1]["elo"] for n in sorted(data) if n > 1 and n - 1 in data)
    game = load_game("fanorona", size="tsivy")
    today = ladder_of("fanorona.tsivy", lambda level: level_fingerprint(game, level))
    assert set(today) <= set(data)
    assert "fanorona" in registered_games()
