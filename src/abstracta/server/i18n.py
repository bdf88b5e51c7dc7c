"""Message catalogs of the browser client: English and Finnish (issue 16 §4).

One JSON object per language, ``{key: message}``, merged from

- the shell's catalog, ``web/i18n/<lang>.json`` (the page, the header, the match page);
- per registered game, its description's :class:`~abstracta.core.description.Text` values (the
  English of every key: title, summary, options, seats, variants) and its package's catalog
  ``i18n/<lang>.json`` (read through :attr:`GameDescription.resources`: this module names no
  game), which holds the other languages' descriptions and the messages of its board module
  and structured view.

A message is a string with ``{name}`` parameters, or for a count ``{"one": …, "other": …}``
chosen by the count ``{n}`` with ``Intl.PluralRules`` in the browser. The client looks a key
up in the chosen language, then in English, so a plug-in without catalogs shows its English.

The structured views stay language-neutral data: beside their English ``text`` they carry
``message: {"key", "params"}``, which the browser formats in the viewer's language (a
parameter that is itself ``{"key", "params"}`` is translated first, a list is joined with
``Intl.ListFormat``). One view serves every spectator of a match, whatever their language.
"""

from __future__ import annotations

import json
import logging
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..core.errors import AbstractaError
from ..core.game import Game
from ..core.registry import game_class, registered_games
from ..core.view import format_message  # noqa: F401 - a message said in a catalog's words, beside catalog()

log = logging.getLogger(__name__)

WEB_I18N = Path(__file__).resolve().parent.parent / "web" / "i18n"
#: The language every key has; the others fall back to it key by key.
BASE = "en"


def languages() -> list[str]:
    """The languages of the shell's catalogs (``["en", "fi"]``), base first."""
    found = sorted(p.stem for p in WEB_I18N.glob("*.json"))
    return [BASE] + [lang for lang in found if lang != BASE]


def _read(resource: Any) -> dict[str, Any]:
    """A catalog file as a dict (``{}`` when the file does not exist)."""
    if resource is None or not resource.is_file():
        return {}
    data = json.loads(resource.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{resource}: a catalog is one JSON object")
    return data


def description_texts(game_type: type[Game]) -> dict[str, str]:
    """The English :class:`Text` values of a game over its default instance and every declared
    variant (variants change seats and labels), except the rules page (a file per language)."""
    first = game_type()
    out: dict[str, str] = {}
    for options in [{}] + [dict(v.options) for v in first.description.variants]:
        d = (game_type(**options) if options else first).description
        out.update(d.texts())
    out.pop(first.description.rules.key, None)
    return out


def game_catalog(game_type: type[Game], lang: str) -> dict[str, Any]:
    """The messages of one game in ``lang``: its description's Texts (English) and its
    package's ``i18n/<lang>.json``."""
    resources = game_type().description.resources
    own = _read(resources / "i18n" / f"{lang}.json") if resources is not None else {}
    return {**description_texts(game_type), **own} if lang == BASE else own


@lru_cache(maxsize=8)
def catalog(lang: str) -> dict[str, Any]:
    """Every message of ``lang`` (shell and registered games). Raises KeyError for a language
    without a shell catalog. Cached: catalogs are files of the installed packages."""
    if lang not in languages():
        raise KeyError(lang)
    out = dict(_read(WEB_I18N / f"{lang}.json"))
    for name in registered_games():
        try:
            out.update(game_catalog(game_class(name), lang))
        except AbstractaError as exc:  # a broken plug-in is left out, as in the game list
            log.warning("game %s: no catalog: %s", name, exc)
    return out


def rules_html(game: Game, lang: str) -> tuple[str, str]:
    """``(html, language)``: the rules page of ``game`` in ``lang`` (``rules.<lang>.html`` in
    its package), or the English page of its description when it has none."""
    resources = game.description.resources
    if lang != BASE and resources is not None:
        page = resources / f"rules.{lang}.html"
        if page.is_file():
            return page.read_text(encoding="utf-8"), lang
    return str(game.description.rules), BASE
