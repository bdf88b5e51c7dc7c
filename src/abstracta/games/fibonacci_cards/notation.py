"""Position text and card notation of the Fibonacci card game.

Spec: fibonacci-cards.md §6::

    <pile1> <pile2> <pile3> | <hand0> | <hand1> | <stock> | <to-move> [D]

Piles bottom→top joined by ``,`` (a crosswise card carries ``*``); hands in the order the cards
were received; stock top→bottom; ``-`` for empty; ``?N`` for N unknown cards (observations).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.errors import PositionError
from .cards import CARD_INDEX, CARD_STR, CUT


def card_text(card: int) -> str:
    """``"Qh"`` for a card, ``"Qc*"`` for a crosswise card in a pile."""
    return CARD_STR[card & ~CUT] + ("*" if card & CUT else "")


def cards_text(cards: list[int] | tuple[int, ...]) -> str:
    return ",".join(CARD_STR[c] for c in cards) if cards else "-"


def pile_text(pile: list[int]) -> str:
    return ",".join(card_text(c) for c in pile)


def format_position(piles: list[list[int]], hands: list[list[int]] | list[str], stock: list[int] | str,
                    player: int, drawn: bool) -> str:
    """Position text. ``hands`` entries and ``stock`` may be pre-formatted strings (``?N``).

    ``stock`` lists are top→bottom here (callers that store the top last reverse it)."""
    hand_fields = [h if isinstance(h, str) else cards_text(h) for h in hands]
    stock_field = stock if isinstance(stock, str) else cards_text(stock)
    return (f"{pile_text(piles[0])} {pile_text(piles[1])} {pile_text(piles[2])} | "
            f"{hand_fields[0]} | {hand_fields[1]} | {stock_field} | {player}" + (" D" if drawn else ""))


def parse_card(token: str, where: str) -> int:
    card = CARD_INDEX.get(token)
    if card is None:
        raise PositionError(f"{where}: {token!r} is not a card (rank A23456789TJQK + suit cdhs, e.g. 'Qh')")
    return card


def _parse_cards(field: str, where: str) -> list[int]:
    if field == "-":
        return []
    if field.startswith("?"):
        raise PositionError(f"{where}: {field!r} stands for unknown cards (an observation string); "
                            "a position lists the cards")
    return [parse_card(tok.strip(), where) for tok in field.split(",")]


def _parse_pile(token: str, number: int) -> list[int]:
    where = f"pile {number}"
    pile = []
    for tok in token.split(","):
        tok = tok.strip()
        cut = tok.endswith("*")
        card = parse_card(tok[:-1] if cut else tok, where)
        pile.append(card | CUT if cut else card)
    return pile


@dataclass
class ParsedPosition:
    piles: list[list[int]]
    hands: list[list[int]]
    stock: list[int]  # top -> bottom
    player: int
    drawn: bool


def parse_position(text: str) -> ParsedPosition:
    """Parse §6 position text (syntax and card uniqueness only).

    Raises:
        PositionError: naming the field and token at fault.
    """
    if not isinstance(text, str):
        raise PositionError(f"a position is a text, got {text!r}")
    fields = [f.strip() for f in text.split("|")]
    if len(fields) != 5:
        raise PositionError(f"position {text!r} has {len(fields)} '|'-separated fields, expected 5 "
                            "(piles | hand0 | hand1 | stock | to-move)")
    pile_tokens = fields[0].split()
    if len(pile_tokens) != 3:
        raise PositionError(f"piles field {fields[0]!r} has {len(pile_tokens)} piles, expected 3")
    piles = [_parse_pile(tok, i + 1) for i, tok in enumerate(pile_tokens)]
    hands = [_parse_cards(fields[1], "hand 0"), _parse_cards(fields[2], "hand 1")]
    stock = _parse_cards(fields[3], "stock")
    turn = fields[4].split()
    if not turn or turn[0] not in ("0", "1") or len(turn) > 2 or (len(turn) == 2 and turn[1] != "D"):
        raise PositionError(f"to-move field {fields[4]!r} is not '0' or '1', optionally followed by 'D'")
    seen: dict[int, str] = {}
    for where, cards in (("pile 1", piles[0]), ("pile 2", piles[1]), ("pile 3", piles[2]),
                         ("hand 0", hands[0]), ("hand 1", hands[1]), ("stock", stock)):
        for card in cards:
            card &= ~CUT
            if card in seen:
                raise PositionError(f"card {CARD_STR[card]} appears twice ({seen[card]} and {where})")
            seen[card] = where
    return ParsedPosition(piles, hands, stock, int(turn[0]), len(turn) == 2)
