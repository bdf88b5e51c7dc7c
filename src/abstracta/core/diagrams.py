"""Diagrams of positions, drawn by each game's own SVG module (issue 39).

A game declares worked examples of its rules (:attr:`GameDescription.examples`, one
:class:`Diagram` each: a position in the spec's text, the actions played to reach the moment
shown, the actions drawn as arrows) and the function that draws a position
(:attr:`GameDescription.draw`, its package's ``svg.py``: ``draw(state, arrows, marks, viewer,
title) -> str``). Its rules pages place an example with ``<figure data-diagram="ID"></figure>``;
:func:`fill_rules` replaces each with the drawing, its caption in the reader's language and the
legal actions the engine lists for that position. The web app's rules page and the
documentation site's game pages both come from it, so they show the same pictures.

Arrows are computed from what the engine says an action does (``State.action_effects``: the
cells it touches, the pieces it removes), never from the notation, so a diagram cannot show a
move the rules do not make. :class:`Canvas` holds the drawing primitives every game's module
shares (arrows, crosses over captured pieces, rings), written with presentation attributes only:
the app's Content-Security-Policy allows no inline style.
"""

from __future__ import annotations

import functools
import json
import math
import re
from dataclasses import dataclass, field
from html import escape
from importlib.resources import files
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from .description import Text
    from .game import Game, State

#: ``draw(state, arrows, marks, viewer, title) -> svg``: a game's diagram of ``state`` as
#: ``viewer`` sees it (``None``: a spectator), with ``arrows`` (one :class:`Arrow` per action
#: drawn) and ``marks`` (cell ids to ring); ``title`` is the drawing's accessible name.
Draw = Callable[["State", Sequence["Arrow"], Sequence[str], "int | None", str], str]

#: Colours shared by every game's diagrams: the arrows of the actions shown, the grey of the
#: actions played to reach the position, the red cross over what an action removes, the ring.
ARROW, BEFORE, REMOVED, MARK = "#1f5fbf", "#8a8a8a", "#c62828", "#e0a100"


@dataclass(frozen=True, slots=True)
class Diagram:
    """One position drawn for people: a worked example of the spec or a lesson's picture.

    Attributes:
        id: unique within the game (``"ex3"``): the rules pages' ``data-diagram`` names it.
        caption: what it shows, in the spec's words (a :class:`~.description.Text`).
        position: the position in the spec's text (``state_from_text``); ``None``: the start.
        options: the game options it needs (``{"size": "dimy"}``), others at their defaults.
        before: actions played from ``position`` first (the spec's "after d2-e3A"), each an
            action string or a whole-turn string of the game's notation; drawn in grey.
        arrows: actions drawn as arrows on the position shown (alternatives, each from that
            position), with what each removes crossed out.
        marks: cell ids ringed (a free disc, a core's ring).
        legal: list the legal actions of the position shown under the drawing (whole turns
            for a game that writes them, at a turn boundary).
        spec: where the spec states it (``"fanorona.md §6, example 3"``).
        viewer: whose eyes for hidden information (``None``: the seat to move).
    """

    id: str
    caption: "Text"
    position: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    before: tuple[str, ...] = ()
    arrows: tuple[str, ...] = ()
    marks: tuple[str, ...] = ()
    legal: bool = True
    spec: str = ""
    viewer: int | None = None


@dataclass(frozen=True, slots=True)
class Arrow:
    """What one action does, for a drawing: the cells it goes through (``path``: from, any cells
    on the way, to; one cell for a placement or a take) and the cells whose pieces it removes.
    ``faded``: an action played to reach the position (drawn grey)."""

    path: tuple[str, ...]
    removed: tuple[str, ...] = ()
    faded: bool = False


def play(game: "Game", state: "State", text: str) -> list[int]:
    """Apply ``text`` (an action string, or a whole-turn string of the game's notation) to
    ``state`` and return the actions played. Raises the game's ``IllegalActionError`` (state
    unchanged where the notation is refused before any action is applied)."""
    actions = game.parse_move(state, text)
    for action in actions:
        state.apply_action(action)
    return actions


def arrows_of(game: "Game", state: "State", text: str, viewer: int | None, faded: bool = False) -> list[Arrow]:
    """The arrows of ``text`` played from ``state`` (which is not changed): one per action, as
    the engine's ``action_effects`` describes it (the ``path`` a game gives, else ``touched``)."""
    work = state.clone()
    out = []
    for action in game.parse_move(work, text):
        effects = work.action_effects(action, viewer)
        path = tuple(effects.get("path") or effects.get("touched") or ())
        if path:
            out.append(Arrow(path, tuple(effects.get("removed") or ()), faded))
        work.apply_action(action)
    return out


def diagram_state(game_type: "type[Game]", diagram: Diagram) -> "tuple[Game, State]":
    """The game and the position ``diagram`` shows (its ``before`` actions played)."""
    game = game_type(**dict(diagram.options))
    state = game.state_from_text(diagram.position) if diagram.position is not None else game.new_initial_state()
    for text in diagram.before:
        play(game, state, text)
    return game, state


def legal_texts(game: "Game", state: "State") -> list[str]:
    """The legal actions as the spec lists them: whole turns for a game that writes them (at a
    turn boundary), else action strings; canonical order either way."""
    if state.is_terminal():
        return []
    if game.description.whole_turn_notation and not state.to_struct(state.current_player())["turn"]["actions"]:
        return game.turn_strings(state)
    return state.legal_action_strings()


def draw_diagram(game_type: "type[Game]", diagram: Diagram, title: str = "") -> str:
    """The SVG of ``diagram`` drawn by its game's module (``GameDescription.draw``).

    Raises ValueError when the game has no drawing module."""
    game, state = diagram_state(game_type, diagram)
    draw = game.description.draw
    if draw is None:
        raise ValueError(f"{game.name} declares no diagram drawing (GameDescription.draw)")
    viewer = diagram.viewer
    if viewer is None and not state.is_terminal() and state.current_player() >= 0:
        viewer = state.current_player()
    arrows: list[Arrow] = []
    work = game.state_from_text(diagram.position) if diagram.position is not None else game.new_initial_state()
    for text in diagram.before:
        arrows += arrows_of(game, work, text, viewer, faded=True)
        play(game, work, text)
    for text in diagram.arrows:
        arrows += arrows_of(game, state, text, viewer)
    return draw(state, arrows, diagram.marks, viewer, title)


# --- words ------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=8)
def shell_words(lang: str) -> dict[str, Any]:
    """The browser shell's catalog in ``lang`` (``web/i18n/<lang>.json``), English keys filled
    in: the words diagrams share ("Legal: …")."""
    base = files("abstracta") / "web" / "i18n"
    words = json.loads((base / "en.json").read_text(encoding="utf-8"))
    page = base / f"{lang}.json"
    if lang != "en" and page.is_file():
        words.update(json.loads(page.read_text(encoding="utf-8")))
    return words


def game_words(game: "Game", lang: str) -> dict[str, Any]:
    """A game's own catalog in ``lang`` (``i18n/<lang>.json`` of its package; ``{}`` for
    English or a game without one: its :class:`~.description.Text` values are the English)."""
    resources = game.description.resources
    if lang == "en" or resources is None:
        return {}
    page = resources / "i18n" / f"{lang}.json"
    return json.loads(page.read_text(encoding="utf-8")) if page.is_file() else {}


def say(text: "Text", words: Mapping[str, Any]) -> str:
    """``text`` in the language of ``words`` (its English where the catalog lacks the key)."""
    found = words.get(text.key)
    return found if isinstance(found, str) else text.en


def figure(game_type: "type[Game]", diagram: Diagram, lang: str = "en", number: int | None = None) -> str:
    """The HTML ``<figure>`` of ``diagram``: the drawing, its caption in ``lang`` and the legal
    actions of the position shown (or that the game is over). One line of HTML, no blank line
    (a Markdown page keeps it as one raw block)."""
    game, state = diagram_state(game_type, diagram)
    words, shell = game_words(game, lang), shell_words(lang)
    caption = say(diagram.caption, words)
    head = shell["diagram.example"].replace("{n}", str(number)) if number is not None else ""
    if diagram.legal:
        moves = legal_texts(game, state)
        listed = (shell["diagram.legal"].replace("{moves}", ", ".join(f"<code>{escape(m)}</code>" for m in moves))
                  if moves else escape(shell["diagram.over"] if state.is_terminal() else shell["diagram.no_moves"]))
        said = (shell["diagram.legal"].replace("{moves}", ", ".join(moves)) if moves
                else shell["diagram.over"] if state.is_terminal() else shell["diagram.no_moves"])
    else:
        listed = said = ""
    title = " ".join(x for x in (head, caption, said) if x)
    svg = draw_diagram(game_type, diagram, title)
    text = (f"<b>{escape(head)}</b> " if head else "") + escape(caption)
    if listed:
        text += f' <span class="diagram-legal">{listed}</span>'
    return (f'<figure class="diagram" id="diagram-{escape(game.name)}-{escape(diagram.id)}" '
            f'data-diagram="{escape(diagram.id)}">{svg}<figcaption>{text}</figcaption></figure>')


_MARKER = re.compile(r'<figure data-diagram="([\w.-]+)"\s*>\s*</figure>')


def fill_rules(html: str, game: "Game", lang: str = "en") -> str:
    """``html`` (a rules page) with each ``<figure data-diagram="ID"></figure>`` replaced by
    :func:`figure` of the game's example ``ID``, numbered in the order of the page. Cached per
    game class, page and language (the examples carry their own options, so a game's options
    change nothing here).

    Raises KeyError naming an ID the game does not declare."""
    return _fill(type(game), html, lang) if _MARKER.search(html) else html


@functools.lru_cache(maxsize=64)
def _fill(game_type: "type[Game]", html: str, lang: str) -> str:
    game = game_type()
    examples = {d.id: d for d in game.description.examples}
    counter = iter(range(1, 10_000))

    def replace(match: re.Match[str]) -> str:
        ident = match.group(1)
        if ident not in examples:
            raise KeyError(f"{game.name}: the rules page names diagram {ident!r}, which the game does not declare")
        return figure(game_type, examples[ident], lang, next(counter))

    return _MARKER.sub(replace, html)


def placed(html: str) -> list[str]:
    """The diagram ids a rules page places, in order."""
    return _MARKER.findall(html)


# --- drawing ----------------------------------------------------------------------------------
def _fmt(v: Any) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".") if isinstance(v, float) else str(v)


class Canvas:
    """An SVG drawing built element by element, in user units (``width`` × ``height``).

    ``add(tag, text, **attrs)`` appends an element (``_`` in an attribute's name becomes ``-``:
    ``stroke_width``); :meth:`arrow`, :meth:`cross` and :meth:`ring` draw the marks every game's
    diagrams share; :meth:`svg` returns the document with ``title`` as its accessible name."""

    def __init__(self, width: float, height: float):
        self.width, self.height = width, height
        self.parts: list[str] = []

    def add(self, tag: str, text: str | None = None, **attrs: Any) -> None:
        spelled = " ".join(f'{k.rstrip("_").replace("_", "-")}="{escape(_fmt(v))}"'
                           for k, v in attrs.items() if v is not None)
        self.parts.append(f"<{tag} {spelled}>{escape(text)}</{tag}>" if text is not None else f"<{tag} {spelled}/>")

    def text(self, x: float, y: float, text: str, size: float, fill: str = "#222", weight: str | None = None,
             anchor: str = "middle") -> None:
        """A label centred on (x, y)."""
        self.add("text", text, x=x, y=y + size * 0.35, font_size=size, fill=fill, font_weight=weight,
                 text_anchor=anchor, font_family="sans-serif")

    def arrow(self, points: Sequence[tuple[float, float]], colour: str, width: float, dashed: bool = False) -> None:
        """A polyline through ``points`` ending in an arrowhead at the last point (a head drawn
        as a polygon, not an SVG marker: several diagrams share one page and its ids)."""
        if len(points) < 2:
            return
        (x0, y0), (x1, y1) = points[-2], points[-1]
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        head = width * 3.2
        base = (x1 - ux * head, y1 - uy * head)
        line = [*points[:-1], base]
        self.add("polyline", points=" ".join(f"{_fmt(float(x))},{_fmt(float(y))}" for x, y in line), fill="none",
                 stroke=colour, stroke_width=width, stroke_linecap="round", stroke_linejoin="round",
                 stroke_opacity=0.85, stroke_dasharray=f"{_fmt(width * 1.5)} {_fmt(width * 1.5)}" if dashed else None)
        left = (base[0] - uy * head * 0.6, base[1] + ux * head * 0.6)
        right = (base[0] + uy * head * 0.6, base[1] - ux * head * 0.6)
        self.add("polygon", points=" ".join(f"{_fmt(float(x))},{_fmt(float(y))}" for x, y in (left, (x1, y1), right)),
                 fill=colour, fill_opacity=0.9)

    def cross(self, x: float, y: float, r: float, colour: str = REMOVED) -> None:
        """An X over a removed piece."""
        for sx in (-1, 1):
            self.add("line", x1=x - r, y1=y - sx * r, x2=x + r, y2=y + sx * r, stroke=colour,
                     stroke_width=r * 0.32, stroke_linecap="round")

    def ring(self, x: float, y: float, r: float, colour: str = MARK) -> None:
        """A ring around a marked cell."""
        self.add("circle", cx=x, cy=y, r=r, fill="none", stroke=colour, stroke_width=r * 0.22)

    def svg(self, title: str = "") -> str:
        """The SVG document (``role="img"``, named by ``title``), scaled to its box by CSS."""
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_fmt(float(self.width))} '
                f'{_fmt(float(self.height))}" width="{_fmt(float(self.width))}" height="{_fmt(float(self.height))}" '
                f'role="img"' + (f' aria-label="{escape(title)}"' if title else "") + ">")
        named = f"<title>{escape(title)}</title>" if title else ""
        return head + named + "".join(self.parts) + "</svg>"


def hex_points(cx: float, cy: float, r: float) -> str:
    """The corners of a pointy-topped hexagon of circumradius ``r`` centred on (cx, cy), as an
    SVG ``points`` list (the browser's ``hexPoints``)."""
    return " ".join(f"{_fmt(cx + r * math.cos(math.radians(60 * i - 30)))},"
                    f"{_fmt(cy + r * math.sin(math.radians(60 * i - 30)))}" for i in range(6))


def draw_arrows(canvas: Canvas, arrows: Iterable[Arrow], centre: Callable[[str], tuple[float, float]],
                unit: float) -> None:
    """The arrows of a diagram on ``canvas`` (``centre(cell)`` gives a cell's centre, ``unit``
    its size): faded ones first, dashed grey; removed pieces crossed out. A one-cell path (a
    placement, a take) is a ring."""
    arrows = list(arrows)
    for arrow in sorted(arrows, key=lambda a: not a.faded):
        colour = BEFORE if arrow.faded else ARROW
        points = [centre(c) for c in arrow.path]
        if len(set(points)) == 1:
            canvas.ring(*points[0], unit * 0.46, colour)
        else:
            canvas.arrow(points, colour, unit * 0.09, dashed=arrow.faded)
    for arrow in arrows:
        if not arrow.faded:
            # a piece captured off the path is crossed out; a take (the cell it removes is the
            # one it touches: a Nibble disc) is the ring alone
            for cell in arrow.removed:
                if cell not in arrow.path:
                    canvas.cross(*centre(cell), unit * 0.22)


__all__ = ["ARROW", "Arrow", "BEFORE", "Canvas", "Diagram", "Draw", "MARK", "REMOVED", "arrows_of", "diagram_state",
           "draw_arrows", "draw_diagram", "hex_points", "figure", "fill_rules", "game_words", "legal_texts", "placed", "play", "say",
           "shell_words"]
