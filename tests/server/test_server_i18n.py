"""The API's side of English and Finnish (issue 16 §4): the catalogs, the rules page by language,
the translation keys beside the English words, and common refusals as keyed messages."""

from __future__ import annotations

from abstracta.server import i18n


def test_catalogs_are_served_by_language(client):
    assert client.get("/api/i18n").json() == ["en", "fi"]
    fi = client.get("/api/i18n/fi").json()
    assert fi["match.resign"] == "Luovuta" and fi["fanorona.seat.0"] == "Valkoinen"
    assert fi["count.moves"] == {"one": "{n} siirto", "other": "{n} siirtoa"}
    en = client.get("/api/i18n/en").json()
    assert en["toy-nim.title"] == "Toy Nim"  # a game without catalogs: its English
    assert "toy-nim.title" not in fi
    r = client.get("/api/i18n/sv")
    assert r.status_code == 404 and "sv" in r.json()["error"]


def test_game_detail_gives_keys_and_the_rules_in_the_language_asked(client):
    en = client.get("/api/games/fanorona").json()
    fi = client.get("/api/games/fanorona?lang=fi").json()
    assert en["rules_lang"] == "en" and "<h3>Capturing</h3>" in en["rules"]
    assert fi["rules_lang"] == "fi" and "<h3>Nappaaminen</h3>" in fi["rules"]
    assert fi["title"] == "Fanorona" and fi["title_key"] == "fanorona.title"  # the words stay English
    assert fi["notation_help_key"] == "fanorona.notation"
    size = next(o for o in fi["options"] if o["name"] == "size")
    assert size["keys"] == {"label": "fanorona.option.size", "help": "fanorona.option.size.help", "unset": None,
                            "choices": {"tsivy": "fanorona.size.tsivy", "dimy": "fanorona.size.dimy",
                                        "telo": "fanorona.size.telo"}}
    assert [s["name_key"] for s in fi["seats"]] == ["fanorona.seat.0", "fanorona.seat.1"]
    assert [v["label_key"] for v in fi["variants"]] == ["fanorona.variant.tsivy", "fanorona.variant.dimy",
                                                        "fanorona.variant.telo"]
    # a game without a page in the language: its English page
    toy = client.get("/api/games/toy-nim?lang=fi").json()
    assert toy["rules_lang"] == "en"


def test_common_refusals_carry_a_keyed_message(client):
    view = client.post("/api/matches", json={"game": "toy-nim", "options": {"stones": "5"},
                                             "seats": ["human", "human"]}).json()
    assert view["title_key"] == "toy-nim.title"
    r = client.post(f"/api/matches/{view['id']}/actions", json={"action": "9", "ply": 0})
    assert r.status_code == 422
    body = r.json()
    assert body["i18n"] == {"key": "error.illegal", "params": {"move": "'9'"}} and body["error"]
    assert i18n.format_message(body["i18n"], i18n.catalog("fi"), "fi") == "'9' ei ole sallittu siirto tässä asemassa"
    r = client.post(f"/api/matches/{view['id']}/actions", json={"action": "1", "ply": 3})
    assert r.status_code == 409
    assert r.json()["i18n"] == {"key": "error.stale", "params": {"ply": 3, "now": 0}}
