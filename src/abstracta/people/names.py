"""Names of people: usernames and guest names (issue 41 §1).

One namespace for both, so that a name on a seat means one person: 2–20 characters of ASCII
letters, digits, ``_`` and ``-``, unique without regard to case (the key is the name in lower
case). ASCII only, as lichess: one unambiguous case folding, no look-alike letters of other
scripts ("аnna" with a Cyrillic а), every name typeable on any keyboard and safe in a URL.

Guests get a generated name, ``Guest`` and six digits; names of that form are kept for them
(nobody chooses ``guest123456``), as are a few words the pages use for seats that are no person
(``Computer``, ``deleted``).
"""

from __future__ import annotations

import re
import secrets

from .errors import InvalidName

NAME = re.compile(r"[A-Za-z0-9_-]{2,20}")
GUEST_NAME = re.compile(r"guest[0-9]{6}")
#: names nobody takes (keys): words the pages put on seats that are no person, or that would
#: pass for the server speaking
RESERVED = frozenset({"admin", "administrator", "abstracta", "anonymous", "computer", "deleted", "guest",
                      "moderator", "nobody", "root", "system", "tietokone", "vieras", "poistettu"})


def name_key(name: str) -> str:
    """The form names are compared in: lower case (ASCII)."""
    return name.strip().lower()


def check_name(name: object, *, guest: bool = False) -> str:
    """``name`` as it is kept (surrounding spaces dropped), or :class:`InvalidName` saying what
    is wrong. ``guest``: a generated guest name is allowed (only the server makes those)."""
    if not isinstance(name, str):
        raise InvalidName("a name is text", key="people.error.name_rule")
    name = name.strip()
    if not NAME.fullmatch(name):
        shown = name[:40] + ("…" if len(name) > 40 else "")
        raise InvalidName(f"{shown!r} is not a valid name: "
                          "2–20 characters, each a letter A–Z (either case, no accents), a digit, _ or -",
                          key="people.error.name_rule")
    key = name_key(name)
    if key in RESERVED or (GUEST_NAME.fullmatch(key) and not guest):
        raise InvalidName(f"the name {name!r} is reserved", key="people.error.name_reserved", name=name)
    return name


def guest_name() -> str:
    """A new guest name, ``Guest`` and six random digits (the caller retries on a clash)."""
    return f"Guest{secrets.randbelow(900_000) + 100_000}"


__all__ = ["GUEST_NAME", "NAME", "RESERVED", "check_name", "guest_name", "name_key"]
