"""Terminal rendering of a Fibonacci card game position (``rich``).

Shows the three piles with their table values (cut-down piles marked), the viewer's hand (both
hands for an onlooker, ``player=None``), the opponent's hand size, the stock size, whose turn it
is and whether the drawn card must be played (the ``D`` flag; Spec: fibonacci-cards.md §6, §8).
"""

from __future__ import annotations

from rich.text import Text

from ...core.description import player_name

from .cards import CARD_STR, CUT, table_values
from .rules import FibonacciCardsState

_SUIT_STYLE = {"c": "green", "d": "red", "h": "red", "s": "blue"}


def _card(text: Text, card: int, bold: bool = False) -> None:
    s = CARD_STR[card & ~CUT]
    style = _SUIT_STYLE[s[1]] + (" bold" if bold else "")
    text.append(s, style=style)


def render(state: FibonacciCardsState, player: int | None = None) -> Text:
    """A :class:`rich.text.Text` of ``state`` as ``player`` sees it (``None``: both hands)."""
    text = Text()
    values = table_values(state._cfg)
    text.append("piles  ", style="bold")
    for i, pile in enumerate(state._piles):
        top = pile[-1]
        text.append(f"{i + 1}: ")
        _card(text, top, bold=True)
        if top & CUT:
            text.append("*", style="magenta bold")
        text.append(f" (={values[i]}{', cut' if top & CUT else ''}, {len(pile)} card{'s' if len(pile) != 1 else ''})   ")
    text.append("\n")
    for seat in (0, 1):
        hand = state._hands[seat]
        marker = "▶ " if not state._terminal and state._player == seat else "  "
        text.append(f"{marker}{player_name(seat)}: ", style="bold" if marker.strip() else "")
        if player is None or player == seat:
            for k, card in enumerate(hand):
                if k:
                    text.append(" ")
                _card(text, card, bold=state._drawn and state._player == seat and k == len(hand) - 1)
            text.append(f"  ({len(hand)} card{'s' if len(hand) != 1 else ''})" if hand else "-")
        else:
            text.append(f"{len(hand)} card{'s' if len(hand) != 1 else ''} (hidden)", style="dim")
        text.append("\n")
    text.append(f"stock: {len(state._stock)} card{'s' if len(state._stock) != 1 else ''}\n")
    if state._terminal:
        r = state._returns
        result = "draw" if r[0] == r[1] else f"{player_name(0 if r[0] > 0 else 1)} wins"
        text.append(f"Game over: {result}", style="bold")
    else:
        text.append(f"{player_name(state._player)} to move")
        if state._drawn:
            text.append(", must play the drawn card", style="yellow bold")
            if player is None or player == state._player:  # named, not only bold: a plain terminal shows no bold
                text.append(", ", style="yellow bold")
                _card(text, state._hands[state._player][-1], bold=True)
    return text
