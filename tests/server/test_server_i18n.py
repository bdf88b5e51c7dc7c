"""The API's side of English and Finnish (issue 16 §4): the catalogs, the rules page by language,
the translation keys beside the English words, and common refusals as keyed messages."""

from __future__ import annotations

import abstracta
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
    # a plug-in engine whose errors carry no words for other languages: the server's own
    assert body["i18n"] == {"key": "error.illegal", "params": {"move": "'9'"}} and body["error"]
    assert i18n.format_message(body["i18n"], i18n.catalog("fi"), "fi") == "'9' ei ole sallittu siirto tässä asemassa"
    r = client.post(f"/api/matches/{view['id']}/actions", json={"action": "1", "ply": 3})
    assert r.status_code == 409
    assert r.json()["i18n"] == {"key": "error.stale", "params": {"ply": 3, "now": 0}}


def _refused(client, match_id, move, ply):
    r = client.post(f"/api/matches/{match_id}/actions", json={"action": move, "ply": ply})
    assert r.status_code in (409, 422), r.text[:200]
    body = r.json()
    return (body["error"], i18n.format_message(body["i18n"], i18n.catalog("en")),
            i18n.format_message(body["i18n"], i18n.catalog("fi"), "fi"))


def test_the_engines_refusals_and_reasons_reach_a_finnish_reader(client):
    # a move typed in the move box is refused in the engine's words: English in "error" (what an
    # API client reads), and the same words as a message ("i18n") that a Finnish page says in
    # Finnish, with the game's own reason why
    mid = client.post("/api/matches", json={"game": "fibonacci", "seats": ["human", "human"]}).json()["id"]
    english, same, finnish = _refused(client, mid, "d1-c1", 0)  # Red to move; d1 is Green's
    assert english == same == ("'d1-c1' is not legal here: d1 holds a Green support: "
                               "you move your own attackers and supports")
    assert finnish == ("'d1-c1' ei ole sallittu tässä asemassa: ruudussa d1 on vihreän tukinappula: "
                       "siirrät vain omia hyökkääjiäsi ja tukinappuloitasi")
    english, same, finnish = _refused(client, mid, "zz", 0)  # not notation
    assert english == same == "'zz' is not Fibonacci notation (e8-f9, pass, S@e5)"
    assert finnish == "'zz' ei ole Fibonaccin merkintää (e8-f9, pass, S@e5)"
    # the placements of Fibonacci Go
    view = client.post("/api/matches", json={"game": "fibonacci", "options": {"variant": "go"},
                                             "seats": ["human", "human"]}).json()
    mid = view["id"]
    english, same, finnish = _refused(client, mid, "e8-f9", 0)
    assert english == same == "'e8-f9' is not legal here: the pieces are still being placed (S@e5 places one on e5)"
    assert finnish == ("'e8-f9' ei ole sallittu tässä asemassa: nappuloita asetetaan vielä laudalle "
                       "(S@e5 asettaa nappulan ruutuun e5)")
    english, same, finnish = _refused(client, mid, "Q@e5", 0)
    assert english == same == "'Q@e5': placement piece must be C, A or S"
    assert finnish == "'Q@e5': asetettava nappula on C, A tai S"
    # the refusal every engine words alike: a placement on an occupied cell
    first = view["legal"][0]
    view = client.post(f"/api/matches/{mid}/actions", json={"action": first, "ply": 0}).json()
    again = view["legal"][0][0] + first[1:]
    english, same, finnish = _refused(client, mid, again, 1)
    assert english == same == f"{again!r} is not a legal action here"
    assert finnish == f"{again!r} ei ole sallittu siirto tässä asemassa"
