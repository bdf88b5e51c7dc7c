"""The catalogue of games comes from each game's description (issue: "One game, one package")."""

from __future__ import annotations


def games(client):
    return {g["name"]: g for g in client.get("/api/games").json()}


def test_variants_carry_chance_and_hidden_information_of_their_instance(client):
    fib = games(client)["fibonacci"]
    assert (fib["chance"], fib["hidden_information"]) == (False, False)
    by_variant = {v["options"]["variant"]: v for v in fib["variants"]}
    assert (by_variant["standard"]["chance"], by_variant["standard"]["hidden_information"]) == (False, False)
    assert (by_variant["cards"]["chance"], by_variant["cards"]["hidden_information"]) == (True, True)
    assert (by_variant["go"]["chance"], by_variant["go"]["hidden_information"]) == (False, False)
    sc = games(client)["slide-checkers"]
    assert [v["num_players"] for v in sc["variants"]] == [2, 3, 4]
    assert [v["options"] for v in sc["variants"]] == [{"players": "2"}, {"players": "3"}, {"players": "4"}]
    assert games(client)["nibble"]["whole_turn_notation"] is True


def test_game_detail_has_rules_notation_and_seats_for_the_options(client):
    r = client.get("/api/games/slide-checkers", params={"players": "3", "colours": "RYB"})
    assert r.status_code == 200, r.text
    detail = r.json()
    assert [s["name"] for s in detail["seats"]] == ["Red", "Yellow", "Blue"]
    assert detail["seats"][1]["ink"] == "#222"
    assert "<h3>" in detail["rules"] and "@e4" in detail["notation_help"]
    assert detail["texts"]["slide-checkers.title"] == "Slide Checkers"
    assert client.get("/api/games/chess").status_code == 404
    bad = client.get("/api/games/fanorona", params={"size": "huge"})
    assert bad.status_code == 422 and "is not one of tsivy, dimy, telo" in bad.json()["error"]


def test_board_modules_are_served_from_the_game_packages(client):
    catalogue = games(client)
    for name, game in catalogue.items():
        if game["board_module"] is None:
            continue
        r = client.get(game["board_module"])
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript"), name
        assert "export function render" in r.text
    for bad in ("/games/fanorona/../rules.py", "/games/fanorona/%2e%2e/rules.py", "/games/fanorona/nothing.js",
                "/games/chess/board.js", "/games/fanorona/"):
        assert client.get(bad).status_code == 404, bad


def test_match_view_names_the_seats(client):
    view = client.post("/api/matches", json={"game": "fanorona", "seats": ["human", "level:1"]}).json()
    assert [s["name"] for s in view["seats"]] == ["White", "Black"]
    assert view["board_module"] == "/games/fanorona/board.js"
    listed = {m["id"]: m for m in client.get("/api/matches").json()}
    assert [s["name"] for s in listed[view["id"]]["seats"]] == ["White", "Black"]


def test_every_game_lists_the_levels_it_declares(client):
    # a game declares its distinct strengths (issue 46): the card game four, every other six
    catalogue = games(client)
    assert catalogue["fibonacci-cards"]["levels"] == [1, 2, 3, 4]
    assert [v["levels"] for v in catalogue["fibonacci-cards"]["variants"]] == [[1, 2, 3, 4]]
    for name in ("fanorona", "fibonacci", "nibble", "slide-checkers"):
        assert catalogue[name]["levels"] == [1, 2, 3, 4, 5, 6], name
        assert all(v["levels"] == [1, 2, 3, 4, 5, 6] for v in catalogue[name]["variants"]), name
    assert client.get("/api/games/fibonacci-cards").json()["levels"] == [1, 2, 3, 4]
    # a seat naming a level above the top still plays (the top level): stored games keep working
    r = client.post("/api/matches", json={"game": "fibonacci-cards", "seats": ["human", "level:6"],
                                          "options": {"seed": "3"}})
    assert r.status_code in (200, 201), r.text
