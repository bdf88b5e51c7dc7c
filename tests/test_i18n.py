"""The message catalogs (issue 16 §4): English and Finnish have the same keys, no empty message,
the same parameters; every string a description, a view or a board module sends is in them; the
English of a view's message is its ``text``. The browser side is tests/browser/test_i18n_pages.py."""

from __future__ import annotations

import json
import random
import re
from html.parser import HTMLParser
from importlib.resources import files
from pathlib import Path

import pytest

from abstracta import game_class, load_game
from abstracta.server import i18n

SHIPPED = ["fanorona", "fibonacci", "fibonacci-cards", "nibble", "slide-checkers"]
WEB = Path(i18n.__file__).resolve().parent.parent / "web"
PARAM = re.compile(r"\{(\w+)\}")


def forms(message):
    """The texts of a message: one, or one per plural form."""
    return list(message.values()) if isinstance(message, dict) else [message]


def params(message) -> set[str]:
    return {p for text in forms(message) for p in PARAM.findall(text)}


def package_catalog(name: str, lang: str) -> dict:
    path = game_class(name)().description.resources / "i18n" / f"{lang}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def catalogs():
    """(what, English, Finnish) for the shell and each shipped game (English: its en.json and its
    description's Texts, the way the server merges them)."""
    shell = [("shell", json.loads((WEB / "i18n" / "en.json").read_text("utf-8")),
              json.loads((WEB / "i18n" / "fi.json").read_text("utf-8")))]
    return shell + [(name, i18n.game_catalog(game_class(name), "en"), package_catalog(name, "fi")) for name in SHIPPED]


@pytest.mark.parametrize("what,en,fi", catalogs(), ids=lambda v: v if isinstance(v, str) else "")
def test_english_and_finnish_have_the_same_keys_and_parameters(what, en, fi):
    assert set(en) == set(fi), (f"{what}: only English {sorted(set(en) - set(fi))}, "
                                f"only Finnish {sorted(set(fi) - set(en))}")
    for key in en:
        for lang, message in (("en", en[key]), ("fi", fi[key])):
            assert all(isinstance(text, str) and text.strip() for text in forms(message)), f"{what} {lang} {key} is empty"
            if isinstance(message, dict):
                assert set(message) == {"one", "other"}, f"{what} {lang} {key}: plural forms {sorted(message)}"
        assert params(en[key]) == params(fi[key]), f"{what} {key}: {params(en[key])} != {params(fi[key])}"


@pytest.mark.parametrize("what,en,fi", catalogs(), ids=lambda v: v if isinstance(v, str) else "")
def test_what_a_player_is_told_to_do_fits_a_touch_screen(what, en, fi):
    # phones are tapped, not clicked: no text names a mouse click (English "click", Finnish
    # "napsauta")
    for key, message in list(en.items()) + list(fi.items()):
        for text in forms(message):
            assert not re.search(r"\b(click|napsauta)", text, re.IGNORECASE), f"{what} {key}: {text!r}"


@pytest.mark.parametrize("what,en,fi", catalogs(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_apostrophe_is_the_straight_one(what, en, fi):
    # one style per catalog, the one nearly every message had: "Each side's first turn" stood
    # above "Only people’s time runs" on the new-game page
    for lang, catalog in (("en", en), ("fi", fi)):
        for key, message in catalog.items():
            for text in forms(message):
                assert "\u2019" not in text and "\u2018" not in text, f"{what} {lang} {key}: {text!r}"


def test_a_game_catalog_holds_only_its_own_keys():
    for name in SHIPPED:
        for lang in ("en", "fi"):
            stray = [k for k in package_catalog(name, lang) if not k.startswith(f"{name}.")]
            assert not stray, f"{name} {lang}.json: {stray}"


@pytest.mark.parametrize("name", SHIPPED)
def test_every_text_of_every_variant_is_translated(name):
    cls = game_class(name)
    fi = package_catalog(name, "fi")
    seen = 0
    for options in [{}] + [dict(v.options) for v in cls().description.variants]:
        d = cls(**options).description
        for key, english in d.texts().items():
            if key == d.rules.key:
                continue  # the rules are a page per language
            seen += 1
            assert key in fi, f"{name} {options}: {key} ({english!r}) has no Finnish"
    assert seen >= 10


def test_the_served_catalogs_merge_shell_and_games():
    en, fi = i18n.catalog("en"), i18n.catalog("fi")
    assert en["fanorona.seat.1"] == "Black" and fi["fanorona.seat.1"] == "Musta"
    assert en["home.new_game"] == "New game" and fi["home.new_game"] == "Uusi peli"
    assert fi["slide-checkers.title"] == "Liukutammi"
    assert "fanorona.rules" not in en  # a page per language, not a message
    with pytest.raises(KeyError):
        i18n.catalog("xx")
    assert i18n.languages() == ["en", "fi"]


def test_a_plugin_without_catalogs_falls_back_to_its_english():
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent / "ai"))
    from toygames import MNKGame

    assert i18n.game_catalog(MNKGame, "en")["toy-mnk.title"] == "m,n,k game"
    assert i18n.game_catalog(MNKGame, "fi") == {}  # the client then shows the English
    html, lang = i18n.rules_html(MNKGame(), "fi")
    assert lang == "en" and html == str(MNKGame().description.rules)


class _Outline(HTMLParser):
    """The tags of a page and the text of its <code> elements (notation stays as it is)."""

    def __init__(self):
        super().__init__()
        self.tags, self.code, self._in_code = [], [], False

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self._in_code = tag == "code"

    def handle_endtag(self, tag):
        self._in_code = False

    def handle_data(self, data):
        if self._in_code:
            self.code.append(data)


@pytest.mark.parametrize("name", SHIPPED)
def test_the_finnish_rules_page_has_the_english_ones_shape_and_notation(name):
    game = load_game(name)
    fi_html, lang = i18n.rules_html(game, "fi")
    assert lang == "fi"
    en, fi = _Outline(), _Outline()
    en.feed(str(game.description.rules))
    fi.feed(fi_html)
    assert [t for t in fi.tags if t in ("h3", "ul", "li", "p")] == [t for t in en.tags if t in ("h3", "ul", "li", "p")]
    assert fi.code == en.code
    assert i18n.rules_html(game, "en") == (str(game.description.rules), "en")


def _literal_keys(path: Path) -> set[str]:
    return set(re.findall(r"""\bt\(\s*"([a-z0-9_.\-]+)"\s*[,)]""", path.read_text("utf-8")))


def test_every_key_the_pages_and_boards_name_is_in_the_english_catalog():
    en = i18n.catalog("en")
    # every module of the shell (a new one, e.g. an analysis board, is checked as it arrives)
    sources = sorted(WEB.glob("*.js")) + [Path(str(game_class(n)().description.web / "board.js")) for n in SHIPPED]
    named = 0
    for src in sources:
        keys = _literal_keys(src)
        named += len(keys)
        missing = sorted(k for k in keys if k not in en)
        assert not missing, f"{src.name}: {missing}"
    assert named > 300
    # and the header's words
    assert set(re.findall(r'data-i18n="([^"]+)"', (WEB / "index.html").read_text("utf-8"))) <= set(en)


def test_every_key_the_server_names_is_in_the_english_catalog():
    # the refusals the server and the play session word as messages (message("error.…"), a
    # middleware's {"key": "error.…"}): a key missing from the catalogs shows the English to every reader
    en = i18n.catalog("en")
    server = Path(i18n.__file__).resolve().parent
    named = set()
    for src in sorted([*server.glob("*.py"), *(server / "api").glob("*.py"), *(server.parent / "play").glob("*.py")]):
        text = src.read_text("utf-8")
        keys = set(re.findall(r"""\bmessage\(\s*"([a-z0-9_.\-]+)\"""", text))
        keys |= set(re.findall(r"""["']key["']\s*:\s*"([a-z0-9_.\-]+)\"""", text))
        # a request body's refusal worded by a catalog key (its type: the 422's i18n)
        keys |= set(re.findall(r"""PydanticCustomError\(\s*"([a-z0-9_\-]+\.[a-z0-9_.\-]+)\"""", text))
        missing = sorted(k for k in keys if k not in en)
        assert not missing, f"{src.name}: {missing}"
        named |= keys
    assert {"error.illegal", "error.rate_limited", "error.analyses_busy", "error.storage_refused",
            "error.storage_unreadable", "error.undo_barrier", "error.waiting_seats", "lobby.error.clock_initial",
            "lobby.error.clock_days", "lobby.error.range"} <= named


def _messages(struct):
    """(message, English text) of every step, end and elimination of a structured view."""
    for turn in struct["recent"]:
        for step in turn["steps"]:
            yield step.get("message"), step.get("text")
    if struct["end"]:
        yield struct["end"].get("message"), struct["end"]["text"]
    for out in struct.get("eliminated") or []:
        yield out.get("message"), out["text"]
    left = (struct["turn"] or {}).get("left") or {}
    if isinstance(left, dict) and "text" in left:
        yield left.get("message"), left["text"]


@pytest.mark.parametrize("name,options", [("fanorona", {"size": "dimy"}), ("fanorona", {"size": "telo"}),
                                          ("fibonacci", {}), ("fibonacci", {"variant": "cards", "seed": 3}),
                                          ("fibonacci", {"variant": "go"}), ("fibonacci-cards", {"seed": 2}),
                                          ("nibble", {"seed": 4}), ("nibble", {"variant": "hex", "seed": 1}),
                                          ("slide-checkers", {"players": 2}), ("slide-checkers", {"players": 4})])
def test_a_views_messages_say_its_english_text_and_have_finnish(name, options):
    en, fi = i18n.catalog("en"), i18n.catalog("fi")
    rng = random.Random(7)
    said = 0
    for game_no in range(3):
        state = load_game(name, **options).new_initial_state()
        for _ in range(400):
            for viewer in (None, state.current_player() if state.current_player() >= 0 else None):
                for message, text in _messages(state.to_struct(viewer)):
                    if text is None:
                        continue
                    assert message is not None, f"{name}: {text!r} has no message"
                    assert i18n.format_message(message, en) == text
                    finnish = i18n.format_message(message, fi, "fi")
                    assert finnish and not PARAM.search(finnish), finnish
                    said += 1
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
    assert said > 20


#: Move texts a player may type that are not notation of any game, or not of this one
TYPED = ["zz", "a1", "a1-", "a1-z9", "e8-f9", "@", "@e4", "Q@e5", "S@zz", "s@e5", "C@a1", "end", "pass", "draw",
         "a1+a1", "a1+b2+c3", "a1+zz", "c9>d8*f8", "c9>c9*f8r", "c3>d8*f8r", "e4-f5", "*j4", "*j4x", "*j4r",
         "d2-e3X", "d2-e3A", "b2-b2", "7h>1", "9h>1", "xx>1", "5s/2", "1h/9", "h9", "i9+end"]


def _refusals(name, options, seed):
    """(text, error) of every refusal the engine gives a typed move along a random game, in the
    states a player meets: the start, turns under way, and the end."""
    game = load_game(name, **options)
    rng = random.Random(seed)
    others: list[str] = []
    state = game.new_initial_state()
    seen = []
    for ply in range(5000):
        if state.is_terminal() or ply % (7 if ply < 200 else 97) == 0:
            try:
                others.extend(rng.sample(state.legal_action_strings(), min(3, len(state.legal_actions()))))
            except Exception:
                pass
            for text in TYPED + others[-40:]:
                readers = [state.string_to_action, lambda t: game.parse_move(state, t),
                           lambda t: game.parse_turn(state, t)]
                for read in readers:
                    try:
                        read(text)
                    except Exception as exc:  # noqa: BLE001 - the test says which
                        seen.append((text, exc))
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            state.apply_action(rng.choice(outcomes))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert state.is_terminal(), f"{name}: no end in 5000 plies"
    return seen


@pytest.mark.parametrize("name,options", [("fanorona", {"size": "dimy"}), ("fanorona", {}), ("fibonacci", {}),
                                          ("fibonacci", {"variant": "cards", "seed": 3}), ("fibonacci", {"variant": "go"}),
                                          ("fibonacci-cards", {"seed": 2}), ("nibble", {"seed": 4}),
                                          ("nibble", {"variant": "hex", "seed": 1}), ("slide-checkers", {"players": 2}),
                                          ("slide-checkers", {"players": 4})])
def test_a_typed_moves_refusal_is_a_message_with_finnish(name, options):
    # the move box's refusals reach a Finnish page in Finnish: each error of the engine carries
    # its words as a message ({key, params}, e.g. the reason a move is not legal), whose English
    # is the error's own text (what the terminal and API clients read)
    en, fi = i18n.catalog("en"), i18n.catalog("fi")
    keys = set()
    refusals = [r for seed in (1, 2) for r in _refusals(name, options, seed)]
    assert len(refusals) > 50
    for text, exc in refusals:
        assert type(exc).__module__ == "abstracta.core.errors", f"{name}: {text!r}: {exc!r}"
        assert exc.i18n is not None, f"{name}: {text!r}: {exc} has no message"
        assert i18n.format_message(exc.i18n, en) == str(exc)
        finnish = i18n.format_message(exc.i18n, fi, "fi")
        assert finnish and not PARAM.search(finnish), finnish
        keys.add(exc.i18n["key"])
    assert "refusal.illegal_because" in keys or any(k.startswith(name.split("-")[0]) for k in keys), keys


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_the_analysis_page_names_the_position_text_box_as_the_game_page_labels_it(lang):
    # "as the game page shows under “Position text”": the Finnish said ”Asemateksti” where the
    # game page's box read ”Asema tekstinä”, a label the reader looks for and does not find
    shell = json.loads((WEB / "i18n" / f"{lang}.json").read_text("utf-8"))
    label = shell["match.position_text"]
    assert f"“{label}”" in shell["analysis.paste_lead"] or f"”{label}”" in shell["analysis.paste_lead"]


def test_fanoronas_end_is_notation_and_the_words_around_it_are_finnish():
    """A tester read "end" in the Finnish move list ("M e5-f4A, end"). It is notation: the
    action that ends a capture chain is written ``end`` (shared/rules/fanorona.md §3), in every
    language, as the move list, the legal moves and the typed move write it. What describes it
    is said in the reader's words: the last turn ("Musta lopettaa vuoron"), the button, the key
    help and the notation help, which keeps the notation itself."""
    game = load_game("fanorona")
    state = game.new_initial_state()
    state.apply_action(state.string_to_action("d2-e3A"))
    before = state.clone()
    chain = []
    for text in ("e5-f4A", "end"):
        chain.append(state.string_to_action(text))
        state.apply_action(chain[-1])
    assert game.format_turn(before, chain) == ["e5-f4A", "end"]
    en, fi = i18n.catalog("en"), i18n.catalog("fi")
    said = [step["message"] for turn in state.to_struct(None)["recent"] for step in turn["steps"]]
    assert said[-1]["key"] == "fanorona.step.end"
    assert i18n.format_message(said[-1], en) == "Black ends the turn"
    assert i18n.format_message(said[-1], fi, "fi") == "Musta lopettaa vuoron"
    assert fi["board.end_turn"] == "Lopeta vuoro"
    assert "E lopettaa nappausketjun" in fi["fanorona.board.key_help"]
    assert "kirjoita end." in fi["fanorona.notation"]
