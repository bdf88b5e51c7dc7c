"""Game options: typed, validated variant parameters (rules/README.md "Options")."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .errors import OptionError


def as_integer(value: Any) -> int | None:
    """``value`` as a Python ``int`` when it is an ``int`` or a NumPy integer (scalar or 0-d
    array); ``None`` for anything else, a ``bool`` included (``True`` would pass for 1), a
    float or a string (never rounded or parsed into some other number)."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def parse_bool(text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in ("true", "1", "yes", "on"):
        return True
    if lowered in ("false", "0", "no", "off"):
        return False
    raise ValueError(f"expected true or false, got {text!r}")


def ascii_digits(text: str) -> bool:
    """True when ``text`` is one or more of the digits 0-9: what the specs' notations and the
    command line write. ``str.isdigit`` also passes "²", which ``int()`` refuses."""
    return text.isascii() and text.isdigit()


def parse_int(text: str) -> int:
    try:
        return int(text.strip(), 10)
    except ValueError:
        raise ValueError(f"expected a decimal integer, got {text!r}") from None


@dataclass(frozen=True)
class Option:
    """One rules option of a game.

    Attributes:
        name: the option key, as typed in ``--option KEY=VALUE``.
        default: the value used when the option is absent (``None`` means "absent": e.g. a
            seed drawn at game creation).
        choices: the allowed values, or ``None`` for any value the parser accepts.
        parser: turns command-line text into a value; raises ``ValueError`` with a reason.
        validate: optional check on a parsed value; returns an error reason or ``None``.
        help: one line for users.
    """

    name: str
    default: Any
    help: str = ""
    choices: tuple[Any, ...] | None = None
    parser: Callable[[str], Any] = str
    validate: Callable[[Any], str | None] | None = None
    to_text: Callable[[Any], str] = field(default=str)

    def text_of(self, value: Any) -> str:
        """``value`` as typed on the command line (``true``, ``dimy``, ``5,1``)."""
        if isinstance(value, bool):
            return str(value).lower()
        return self.to_text(value)

    def shown(self, value: Any) -> str:
        """``value`` in an error message: a tuple as ``(5,1)`` so that lists of them read clearly."""
        if isinstance(value, tuple):
            return "(" + self.to_text(value) + ")"
        return repr(value) if isinstance(value, str) else self.text_of(value)

    def allowed(self) -> str:
        """The accepted values for an error message: ``tsivy, dimy, telo`` or ``(1,1), (5,1), …``."""
        return ", ".join(self.shown(c) if isinstance(c, tuple) else self.text_of(c) for c in self.choices or ())

    def _among_choices(self, value: Any) -> bool:
        try:
            return any(type(value) is type(c) and value == c for c in self.choices or ())
        except (TypeError, ValueError):  # a NumPy array's == is elementwise: no truth value
            return False

    def refused(self, problem: str) -> OptionError:
        """The error for a value refused for ``problem``: ``option NAME: PROBLEM; allowed: …``
        (the values allowed where the option has choices), to raise."""
        allowed = f"; allowed: {self.allowed()}" if self.choices is not None else ""
        return OptionError(f"option {self.name}: {problem}{allowed}")

    def coerce(self, value: Any) -> Any:
        """Parse (if text) and validate ``value``; raise :class:`OptionError` naming the option,
        the problem and, where the option has choices, the values allowed."""
        if isinstance(value, str) and self.parser is not str:
            try:
                value = self.parser(value)
            except ValueError as exc:
                raise self.refused(str(exc)) from None
        elif not isinstance(value, str) and self.parser is parse_int:
            # a NumPy integer (a seed from np.arange) is an integer: taken as the int it is
            index = as_integer(value)
            if index is None:
                raise self.refused(f"expected an integer, got {value!r}")
            value = index
        if self.parser is parse_bool and not isinstance(value, bool):
            raise OptionError(f"option {self.name}: expected true or false, got {value!r}")
        if isinstance(value, list):
            value = tuple(value)
        if self.choices is not None and not self._among_choices(value):
            # a value of another shape than the choices may not have a text form: its repr then
            valid_shape = any(type(value) is type(c) and (not isinstance(c, tuple) or len(value) == len(c))
                              for c in self.choices)
            shown = self.shown(value) if valid_shape else repr(value)
            raise OptionError(f"option {self.name}: {shown} is not one of {self.allowed()}")
        if self.validate is not None:
            problem = self.validate(value)
            if problem:
                raise OptionError(f"option {self.name}: {problem}")
        return value


#: Seeds are unsigned 64-bit integers: the shared generator reduces modulo 2**64, so a larger
#: seed would only alias a smaller one (rules/README.md "Seeded generator").
SEED_LIMIT = 2**64


def seed_problem(value: Any) -> str | None:
    """Why ``value`` is not a seed (an integer with 0 ≤ seed < 2**64), or ``None`` if it is one.

    The one check of seed validity: options, records, the CLI and the server all use it."""
    index = as_integer(value)
    if index is None or not 0 <= index < SEED_LIMIT:
        shown = repr(value)
        if len(shown) > 60:
            shown = shown[:59] + "…"
        return f"a seed is an integer from 0 to 2**64 - 1, got {shown}"
    return None


def check_seed(value: Any, what: str = "seed") -> int:
    """``value`` as an ``int`` if it is a seed (0 ≤ seed < 2**64, a NumPy integer too); else
    :class:`OptionError` naming ``what``."""
    problem = seed_problem(value)
    if problem:
        raise OptionError(f"{what}: {problem}")
    return operator.index(value)


def seed_option() -> Option:
    """The ``seed`` option every game with randomness takes (rules/README.md "Options")."""
    return Option("seed", None, "seed of the shared generator (drawn if absent)", parser=parse_int,
                  validate=seed_problem)


def resolve_options(specs: tuple[Option, ...], given: Mapping[str, Any]) -> dict[str, Any]:
    """Return the complete option dict: defaults filled in, every given value validated.

    Raises:
        OptionError: an unknown key (the message lists the known ones) or a bad value.
    """
    by_name = {spec.name: spec for spec in specs}
    for key in given:
        if key not in by_name:
            known = ", ".join(by_name) or "none"
            raise OptionError(f"unknown option {key!r} (options: {known})")
    resolved: dict[str, Any] = {}
    for spec in specs:
        if given.get(spec.name) is not None:
            resolved[spec.name] = spec.coerce(given[spec.name])
        else:
            resolved[spec.name] = spec.default
    return resolved


def parse_option_pairs(pairs: list[str] | None) -> dict[str, str]:
    """Split ``["size=dimy", "vela=true"]`` into a dict; raise OptionError on a pair without '='."""
    out: dict[str, str] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"option {pair!r} is not of the form KEY=VALUE")
        out[key.strip()] = value.strip()
    return out


def check_player(player: Any, num_players: int) -> int:
    """``player`` as a seat index: an ``int`` (or NumPy integer) with 0 ≤ player < num_players.

    Raises ``ValueError`` for anything else — ``True`` and ``1.0`` too, which would otherwise
    pass ``player in (0, 1)`` and name seat 1 or fail deep inside a view."""
    index = as_integer(player)
    if index is None or not 0 <= index < num_players:
        raise ValueError(f"player {player!r} is not a seat (0..{num_players - 1})")
    return index
