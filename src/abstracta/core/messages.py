"""Words for people as data: a message key of the games' catalogs with its parameters, which
the browser formats in the reader's language (``web/i18n.js``) and :func:`format_message` in
Python. The bottom of the spine: errors, options and views all speak in messages.
(:mod:`abstracta.core.view` re-exports both names, where the games import them from.)
"""

from __future__ import annotations

import re
from typing import Any


def message(key: str, **params: Any) -> dict[str, Any]:
    """Words for people as data, which the browser formats in the reader's language:
    ``{"key": key, "params": params}``, ``key`` in the game's catalogs (``i18n/<lang>.json``).
    A parameter is a string or number, another message (translated first: a seat's name), or a
    list of those (joined "a, b and c"). A list of messages is said one after the other. Views
    give it as ``"message"`` beside the English ``"text"`` (effects, ``end``, ``eliminated``)."""
    return {"key": key, "params": params}


def format_message(message: Any, messages: dict[str, Any], lang: str = "en") -> str:
    """A view's message in words, as the browser's ``fmt`` (web/i18n.js) formats it: ``{name}``
    parameters filled in, a nested message translated, a list joined "a, b and c" (Finnish
    "a, b ja c"), a plural form chosen by ``{n}`` (English and Finnish: ``one`` for 1, else
    ``other``), a list of messages said one after the other. Raises KeyError for a key the
    catalog lacks (the tests' check that every message a view sends is in the catalogs)."""
    if isinstance(message, list):
        return "".join(format_message(m, messages, lang) for m in message)
    text = messages[message["key"]]
    params = message.get("params") or {}
    if isinstance(text, dict):
        n = params.get("n", params.get("count", 0))
        text = text["one"] if n == 1 and "one" in text else text["other"]

    def value(v: Any) -> str:
        if isinstance(v, list):
            items = [value(x) for x in v]
            joiner = {"fi": " ja "}.get(lang, " and ")
            return items[0] if len(items) == 1 else ", ".join(items[:-1]) + joiner + items[-1] if items else ""
        if isinstance(v, dict):
            return format_message(v, messages, lang)
        return str(v)

    return _PARAM.sub(lambda m: value(params[m.group(1)]) if m.group(1) in params else m.group(0), text)


_PARAM = re.compile(r"\{(\w+)\}")


__all__ = ["format_message", "message"]
