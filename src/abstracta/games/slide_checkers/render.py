"""Terminal rendering of Slide Checkers boards and positions with ``rich`` (Spec §2, §6)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from ...core.description import seat_name
from .geometry import FILES, PALETTE, SIZE, SQUARE_NAMES, square_colours

if TYPE_CHECKING:
    from .rules import SlideCheckersGame, SlideCheckersState

_DARK = set("zsGB")


def _ink(letter: str) -> str:
    return "white" if letter in _DARK else "black"


def render_board(a: int = 1, b: int = 1) -> Text:
    """The coloured board ``(a, b)`` (class letters on their colours), rank 12 on top."""
    colours = square_colours(a, b)
    text = Text()
    for y in range(SIZE - 1, -1, -1):
        text.append(f"{y + 1:>2} ")
        for x in range(SIZE):
            letter = colours[x * SIZE + y]
            text.append(f" {letter} ", style=f"{_ink(letter)} on {PALETTE[letter]}")
        text.append("\n")
    text.append("   " + "".join(f" {f} " for f in FILES) + "\n")
    return text


def render_state(game: "SlideCheckersGame", state: "SlideCheckersState", player: int | None = None) -> Text:
    """The position: each empty square's class letter on its colour, pieces as their owner's
    colour letter in brackets (``(G)``; ``[G]`` on the square a jump must continue from),
    coordinates, phase, pieces to place and whose turn (perfect information: ``player`` unused)."""
    colours = square_colours(*game.board)
    seat_colours = game.colours
    owner = {}
    for seat in range(game.num_players):
        b = state.pieces(seat)
        while b:
            low = b & -b
            owner[low.bit_length() - 1] = seat
            b ^= low
    jsq = state.jump_square
    text = Text()
    for y in range(SIZE - 1, -1, -1):
        text.append(f"{y + 1:>2} ")
        for x in range(SIZE):
            sq = x * SIZE + y
            bg = PALETTE[colours[sq]]
            seat = owner.get(sq)
            if seat is None:  # the letter too, not only the background: a colourless terminal shows it
                text.append(f" {colours[sq]} ", style=f"{_ink(colours[sq])} on {bg}")
            else:
                letter = seat_colours[seat]
                mark = f"[{letter}]" if sq == jsq else f"({letter})"
                text.append(mark, style=f"bold {_ink(colours[sq])} on {bg}")
        text.append("\n")
    text.append("   " + "".join(f" {f} " for f in FILES) + "\n")
    counts = "  ".join(f"{seat_colours[i]}:{state.pieces(i).bit_count()}" for i in range(game.num_players))
    text.append(f"pieces {counts}\n")
    text.append("squares: ")
    for letter, name in (("R", "red"), ("O", "orange"), ("Y", "yellow"), ("G", "green"), ("B", "blue")):
        text.append(f" {letter} ", style=f"{_ink(letter)} on {PALETTE[letter]}")
        text.append(f" {name}  ")
    # two lines: one is 96 columns with two seats, broken mid-phrase by an 80-column terminal
    text.append("\n(z p q s t: small classes, nobody's colour)\na piece is its owner's letter in brackets, (G); seats "
                + ", ".join(f"{i}={c}" for i, c in enumerate(seat_colours)) + "\n")
    if state.phase == "placement":
        left = "  ".join(f"{seat_colours[i]}:{r}" for i, r in enumerate(state.to_place))
        text.append(f"placement phase; to place {left}\n")
    else:
        text.append("movement phase\n")
    # sentences name the seats as play and the browser do (Green), not by their letters
    names = [seat_name(game.description.seats, i) for i in range(game.num_players)]
    if state.is_terminal():
        w = state.winner
        text.append("Game over: " + (f"{names[w]} wins" if w >= 0 else "draw") + "\n", style="bold")
    else:
        turn = names[state.current_player()]
        extra = f" (must continue the jump from {SQUARE_NAMES[jsq]})" if jsq >= 0 else ""
        text.append(f"{turn} to move{extra}\n", style="bold")
    return text
