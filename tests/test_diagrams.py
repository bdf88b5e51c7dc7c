"""Diagrams (issue 39): every game draws the spec's worked examples with its own SVG module, its
rules pages place every one of them in English and Finnish, and what a diagram shows comes from
the engine (the arrows from ``action_effects``, the legal list from the rules)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from abstracta import load_game
from abstracta.core.description import Text
from abstracta.core.diagrams import Diagram, arrows_of, diagram_state, draw_diagram, figure, fill_rules, legal_texts, placed
from abstracta.server import i18n

SHIPPED = ["fanorona", "fibonacci", "fibonacci-cards", "nibble", "slide-checkers"]
#: worked examples in each spec (§6/§7/§8 "Worked examples"): each is drawn at least once
SPEC_EXAMPLES = {"fanorona": 8, "fibonacci": 8, "fibonacci-cards": 8, "nibble": 8, "slide-checkers": 7}


@pytest.mark.parametrize("name", SHIPPED)
def test_every_worked_example_of_the_spec_is_a_diagram(name):
    examples = load_game(name).description.examples
    numbered = {m for d in examples for m in re.findall(r"(?:example |V)(\d+)", d.spec)}
    assert numbered == {str(n) for n in range(1, SPEC_EXAMPLES[name] + 1)}, numbered


@pytest.mark.parametrize("name", SHIPPED)
@pytest.mark.parametrize("lang", ["en", "fi"])
def test_the_rules_pages_place_every_example_once(name, lang):
    game = load_game(name)
    page, shown = i18n.rules_html(game, lang)
    assert shown == lang
    ids = [d.id for d in game.description.examples]
    assert sorted(placed(page)) == sorted(ids)
    filled = fill_rules(page, game, lang)
    assert filled.count("<svg") == len(ids) and "data-diagram=\"" in filled
    assert not placed(filled)  # every marker replaced


@pytest.mark.parametrize("name", SHIPPED)
def test_each_diagram_is_well_formed_svg_named_for_screen_readers(name):
    game = load_game(name)
    for d in game.description.examples:
        svg = draw_diagram(type(game), d, title="A title")
        root = ET.fromstring(svg)  # well-formed XML
        assert root.get("role") == "img" and root.get("aria-label") == "A title"
        assert root[0].tag.endswith("title") and root[0].text == "A title"
        assert "style=" not in svg  # the app's CSP refuses inline style: presentation attributes only


def test_the_arrows_and_crosses_come_from_the_engine():
    game = load_game("fanorona")
    state = game.new_initial_state()
    [arrow] = arrows_of(game, state, "d2-e3A", 0)
    assert arrow.path == ("d2", "e3") and arrow.removed == ("f4", "g5")  # fanorona.md §6 example 1
    [arrow] = arrows_of(game, state, "d3-e3W", 0)
    assert arrow.removed == ("c3",)
    assert state.to_text() == game.new_initial_state().to_text()  # the state shown is not changed
    svg = draw_diagram(type(game), Diagram("x", Text("k", "x"), arrows=("d2-e3A",)))
    assert svg.count("<polyline") == 1 and svg.count("<line x1") - svg.count("stroke=\"#7a6440\"") == 4  # two crosses


def test_a_caption_lists_the_legal_actions_in_the_readers_language():
    game = load_game("fanorona")
    d = next(d for d in game.description.examples if d.id == "choice-on")
    en, fi = figure(type(game), d, "en", 3), figure(type(game), d, "fi", 3)
    assert "<b>Example 3.</b> After c3-d3A" in en
    assert "Legal: <code>d3-d4A</code>, <code>d3-d4W</code>, <code>end</code>." in en
    assert "<b>Esimerkki 3.</b> Siirron c3-d3A jälkeen" in fi and "Sallitut siirrot: <code>d3-d4A</code>" in fi
    over = next(d for d in game.description.examples if d.id == "immobile")
    assert "The game is over: no legal action." in figure(type(game), over, "en")


def test_whole_turns_are_listed_for_a_game_that_writes_them():
    game = load_game("nibble")
    d = next(d for d in game.description.examples if d.id == "seed1")
    g, state = diagram_state(type(game), d)
    assert legal_texts(g, state) == ["a1", "a9", "a1+a9", "i1", "i9", "i1+i9"]  # nibble.md §7 example 1


def test_a_hidden_hand_is_never_drawn():
    game = load_game("fibonacci-cards")
    d = next(d for d in game.description.examples if d.id == "source")
    svg = draw_diagram(type(game), d)
    # the mover's hand (7h Kd 5s Jc Qd 3c) face up, the other hand (9s) face down
    assert ">K<" in svg and ">9<" not in svg


def test_an_unknown_diagram_is_refused_by_name():
    game = load_game("fanorona")
    with pytest.raises(KeyError, match="nope"):
        fill_rules('<p>x</p><figure data-diagram="nope"></figure>', game)
    assert fill_rules("<p>no figures</p>", game) == "<p>no figures</p>"
