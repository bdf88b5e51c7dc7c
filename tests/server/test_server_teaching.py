"""The routes that teach a game (issue 39): its rules page with its diagrams, its lessons, and a
lesson step's moves judged by the engine; nothing of them names a game."""

from __future__ import annotations


def test_the_rules_page_comes_with_its_diagrams_in_the_language_asked(client):
    en = client.get("/api/games/fanorona/rules").json()
    fi = client.get("/api/games/fanorona/rules?lang=fi").json()
    assert en["lang"] == "en" and fi["lang"] == "fi"
    assert en["html"].count("<svg") == fi["html"].count("<svg") == 14
    assert "<h3>Capturing</h3>" in en["html"] and "Legal: <code>d2-e3A</code>" in en["html"]
    assert "<h3>Nappaaminen</h3>" in fi["html"] and "Sallitut siirrot: <code>d2-e3A</code>" in fi["html"]
    # a game without diagrams (the toy game) answers its page as it is; a language it lacks: English
    nim = client.get("/api/games/toy-nim/rules?lang=fi").json()
    assert nim["lang"] == "en" and "<svg" not in nim["html"]
    assert client.get("/api/games/nope/rules").status_code == 404


def test_the_catalogue_names_each_games_lessons(client):
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert games["fanorona"]["lessons"] == [{"id": "first", "steps": 5}]
    assert games["toy-nim"]["lessons"] == []


def test_the_lessons_give_each_step_its_task_and_position(client):
    [lesson] = client.get("/api/games/nibble/lessons").json()
    assert lesson["id"] == "first" and lesson["title_key"] == "nibble.lesson.first"
    first = lesson["steps"][0]
    assert first["id"] == "split" and first["seat"] == 0 and first["task_key"] == "nibble.lesson.split.task"
    # the board module's struct: the cells, and the legal takes (b2 would split the board)
    assert first["struct"]["legal"] == ["b1", "a2"]  # canonical order: by rank, then file
    assert client.get("/api/games/toy-nim/lessons").json() == []


def test_a_step_is_judged_turn_by_turn(client):
    url = "/api/games/fanorona/lessons/first/chain"
    open_ = client.post(url, json={"moves": ["c3-d3A"]}).json()
    assert open_["status"] == "continue" and open_["text"] is None
    assert open_["struct"]["to_move"] == 0 and "end" in open_["struct"]["legal"]
    wrong = client.post(url, json={"moves": ["c3-d3A", "end"]}).json()
    assert wrong["status"] == "wrong" and wrong["turn"] == ["c3-d3A", "end"]
    assert wrong["message"] == {"key": "fanorona.lesson.chain.wrong", "params": {}}
    assert wrong["effects"][0]["message"]["key"] == "fanorona.step.approach"
    right = client.post(url, json={"moves": ["c3-d3A", "d3-d4W"]}).json()
    assert right["status"] == "right" and right["struct"]["to_move"] == 1
    # a whole-turn string, as Nibble's board sends it
    assert client.post("/api/games/nibble/lessons/first/two", json={"moves": ["a1+c1"]}).json()["status"] == "right"


def test_a_refused_move_says_why_and_names_what_is_missing(client):
    url = "/api/games/fanorona/lessons/first/chain"
    r = client.post(url, json={"moves": ["c3-c4"]})
    assert r.status_code == 422 and "c3-c4" in r.json()["error"] and r.json()["i18n"]["key"]
    r = client.post(url, json={"moves": ["c3-d3A", "d3-d4W", "d5-e5"]})
    assert r.status_code == 422 and r.json()["i18n"] == {"key": "lesson.turn_over", "params": {"move": "d5-e5"}}
    assert client.post(url, json={"moves": ["x"] * 65}).status_code == 422
    assert client.post(url, json={"moves": [], "extra": 1}).status_code == 422
    assert client.post("/api/games/fanorona/lessons/first/nope", json={"moves": []}).status_code == 404
    assert client.post("/api/games/fanorona/lessons/nope/chain", json={"moves": []}).status_code == 404
    assert client.post("/api/games/nope/lessons/first/chain", json={"moves": []}).status_code == 404
