"""Text board of a Fanorona position (rich)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .rules import FanoronaState


def render(state: "FanoronaState", player: int | None = None) -> Any:
    return state.to_text()
