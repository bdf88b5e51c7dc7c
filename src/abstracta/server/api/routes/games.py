"""The games: the catalogue (``/api/games``), one game's detail, the client's message catalogs
(``/api/i18n``) and each game's browser module (``/games/{name}/…``, from the game's package)."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ....core.description import OptionText
from ....core.errors import AbstractaError, UnknownGameError
from ....core.game import Game
from ....core.options import Option, parse_bool, parse_int
from ....core.registry import game_class, load_game, registered_games
from ... import i18n
from ...errors import InvalidRequest, NotFound
from ...matches import clip, cut
from ...views import seat_styles
from ..errors import errors
from ..models import Catalog, GameDetail, GameInfo

log = logging.getLogger("abstracta.server")
router = APIRouter(tags=["games"])


def option_json(spec: Option, words: OptionText | None = None) -> dict[str, Any]:
    """An option for a client: text forms of its default and choices, and the description's
    label, help and choice labels (players' words) where the game gives them."""
    kind = "bool" if spec.parser is parse_bool else "int" if spec.parser is parse_int else "text"
    choices = [option_text(spec, c) for c in spec.choices] if spec.choices is not None else None
    return {"name": spec.name, "default": option_text(spec, spec.default),
            "help": str(words.help) if words else spec.help, "kind": kind, "choices": choices,
            "label": str(words.label) if words else spec.name.replace("_", " "),
            "choice_labels": {k: str(v) for k, v in words.choices.items()} if words else {},
            "unset_label": str(words.unset) if words and words.unset else None,
            "keys": {"label": words.label.key, "help": words.help.key,
                     "unset": words.unset.key if words.unset else None,
                     "choices": {k: v.key for k, v in words.choices.items()}} if words else {}}


def option_text(spec: Option, value: Any) -> Any:
    """A value in the text form the API and records use (``None`` stays ``None``)."""
    return None if value is None else spec.text_of(value)


def game_info(game: Game) -> dict[str, Any]:
    """The catalogue entry of ``game`` (its description with default options, and its variants)."""
    d = game.description
    variants = []
    specs = {o.name: o for o in game.option_specs}
    for variant in d.variants:
        try:
            v = type(game)(**variant.options).description
        except AbstractaError as exc:  # a variant the game declares but refuses: a bug in the game
            raise RuntimeError(f"{d.name}: declared variant {dict(variant.options)} is refused: {exc}") from exc
        variants.append({"options": {k: option_text(specs[k], val) for k, val in variant.options.items()},
                         "label": str(variant.label), "label_key": variant.label.key, "num_players": v.num_players,
                         "chance": v.chance, "hidden_information": v.hidden_information,
                         "levels": list(v.level_numbers)})
    return {"name": d.name, "title": str(d.title), "summary": str(d.summary),
            "title_key": d.title.key, "summary_key": d.summary.key,
            "min_players": d.min_players, "max_players": d.max_players, "num_players": d.num_players,
            "hidden_information": d.hidden_information, "chance": d.chance,
            "whole_turn_notation": d.whole_turn_notation, "printable_board": d.printable_board,
            "board_module": f"/games/{d.name}/board.js" if d.web is not None else None,
            "levels": list(d.level_numbers),
            "options": [option_json(o, d.options.get(o.name)) for o in game.option_specs], "variants": variants,
            "lessons": [{"id": lesson.id, "steps": len(lesson.steps)} for lesson in d.lessons]}


def game_detail(game: Game, lang: str = i18n.BASE) -> dict[str, Any]:
    """The detail of ``game``, its rules page in ``lang`` where the game has one."""
    d = game.description
    rules, rules_lang = i18n.rules_html(game, lang)
    return {**game_info(game), "notation_help": str(d.notation_help), "notation_help_key": d.notation_help.key,
            "rules": rules, "rules_lang": rules_lang,
            "seats": seat_styles(game), "board": dict(d.board), "texts": d.texts()}


def catalog() -> list[dict[str, Any]]:
    """Every registered game that loads; a broken plug-in is logged and left out of the list."""
    out = []
    for name in registered_games():
        try:
            game = load_game(name)
        except AbstractaError as exc:
            log.warning("game %s is left out of the catalogue: %s", name, exc)
            continue
        out.append(game_info(game))
    return out


@router.get("/api/games", summary="The games you can play, their options and variants", response_model=list[GameInfo],
         responses=errors())
def list_games() -> list[dict[str, Any]]:
    return catalog()

@router.get("/api/games/{name}", summary="One game: rules page, notation help, seat names and colours",
         response_model=GameDetail, responses=errors(404, 422))
def get_game(name: str, request: Request) -> dict[str, Any]:
    """Query parameters other than the path are the game's options (e.g. ``?players=3``)."""
    options = {k: v for k, v in request.query_params.items() if k != "lang"}
    try:
        game = load_game(name, **options)
    except UnknownGameError as exc:
        raise NotFound(cut(str(exc))) from None
    except AbstractaError as exc:
        raise InvalidRequest(cut(str(exc))) from None
    return game_detail(game, request.query_params.get("lang", i18n.BASE))

@router.get("/api/i18n", summary="The languages of the client's message catalogs", responses=errors())
def get_languages() -> list[str]:
    return i18n.languages()

@router.get("/api/i18n/{lang}", summary="Every message of the client in one language, by key",
            response_model=Catalog, response_model_exclude_unset=True, responses=errors(404, 422))
def get_catalog(lang: str) -> dict[str, Any]:
    """``{key: message}``: the shell's and every game's (description, board module, view).
    A message has ``{name}`` parameters, or is ``{"one": …, "other": …}`` by the count ``{n}``."""
    try:
        return i18n.catalog(lang)
    except KeyError:
        raise NotFound(f"no catalog for language {clip(lang)}") from None

@router.get("/games/{name}/{path:path}", include_in_schema=False)
def game_asset(name: str, path: str) -> Response:
    """A file of a game's browser module, from the game's own package (``web/``)."""
    try:
        web = game_class(name)().description.web
    except AbstractaError:
        raise NotFound(f"no game {clip(name)}") from None
    if web is None or not path or any(part in ("", ".", "..") for part in path.split("/")):
        raise NotFound(f"no file {clip(path)} for {name}")
    target = web
    for part in path.split("/"):
        target = target / part
    if not target.is_file():
        raise NotFound(f"no file {clip(path)} for {name}")
    media = {"js": "text/javascript", "css": "text/css", "svg": "image/svg+xml",
             "json": "application/json", "png": "image/png"}.get(path.rsplit(".", 1)[-1], "application/octet-stream")
    return Response(target.read_bytes(), media_type=media, headers={"Cache-Control": "no-cache"})
