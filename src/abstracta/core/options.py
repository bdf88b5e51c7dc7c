"""Game options: typed, validated variant parameters (rules/README.md "Options")."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .errors import OptionError


def parse_bool(text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in ("true", "1", "yes", "on"):
        return True
    if lowered in ("false", "0", "no", "off"):
        return False
    raise ValueError(f"expected true or false, got {text!r}")


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

    def coerce(self, value: Any) -> Any:
        """Parse (if text) and validate ``value``; raise :class:`OptionError` naming the problem."""
        if isinstance(value, str) and self.parser is not str:
            try:
                value = self.parser(value)
            except ValueError as exc:
                raise OptionError(f"option {self.name}: {exc}") from None
        elif not isinstance(value, str) and self.parser is parse_int and not isinstance(value, int):
            raise OptionError(f"option {self.name}: expected an integer, got {value!r}")
        if self.parser is parse_bool and not isinstance(value, bool):
            raise OptionError(f"option {self.name}: expected true or false, got {value!r}")
        if isinstance(value, list):
            value = tuple(value)
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(self.to_text(c) for c in self.choices)
            raise OptionError(f"option {self.name}: {value!r} is not one of {allowed}")
        if self.validate is not None:
            problem = self.validate(value)
            if problem:
                raise OptionError(f"option {self.name}: {problem}")
        return value


def seed_option() -> Option:
    """The ``seed`` option every game with randomness takes (rules/README.md "Options")."""

    def check(value: Any) -> str | None:
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            return f"a seed is a non-negative integer, got {value!r}"
        return None

    return Option("seed", None, "seed of the shared generator (drawn if absent)", parser=parse_int, validate=check)


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
