"""Terminal rendering of Nibble positions with rich. Spec: nibble.md §1, §2, §6.

Every disc shows its letter on its colour (readable without colour), with coordinates; the hex
board is drawn with offset rows (x = c − r/2). Below the board: both seats' colour tables with
counts, majorities and progress towards the instant wins, whose turn it is, and the open
``take=`` colour mid-turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from ...core.description import player_name

from .geometry import COLOUR_NAMES

if TYPE_CHECKING:
    from .rules import NibbleState

#: (background, foreground) per colour letter A…M, after the cosmetic names of §2.
PALETTE = (
    ("#d32f2f", "white"), ("#f57c00", "black"), ("#fbc02d", "black"), ("#c0ca33", "black"),
    ("#388e3c", "white"), ("#00897b", "white"), ("#1976d2", "white"), ("#7b1fa2", "white"),
    ("#f06292", "black"), ("#795548", "white"), ("#9e9e9e", "black"), ("#f5f5f5", "black"),
    ("#212121", "white"),
)


def disc_style(colour: int) -> str:
    """rich style of a disc of colour index ``colour``."""
    bg, fg = PALETTE[colour]
    return f"bold {fg} on {bg}"


def _disc(text: Text, state: "NibbleState", cell: int) -> None:
    c = state.colour_at(cell)
    if c < 0:
        text.append("·", style="dim")
    else:
        text.append(state.geometry.letters[c], style=disc_style(c))


def _square_board(state: "NibbleState", text: Text) -> None:
    g = state.geometry
    n = len(g.rows)
    for k, row in enumerate(g.rows):
        text.append(f"{n - k:>3} ", style="dim")
        for j, cell in enumerate(row):
            if j:
                text.append(" ")
            _disc(text, state, cell)
        text.append("\n")
    text.append("    " + " ".join("abcdefghijklm"[:n]) + "\n", style="dim")


def _hex_board(state: "NibbleState", text: Text) -> None:
    g = state.geometry
    for row in g.rows:
        r, first = g.coords[row[0]]
        last = g.coords[row[-1]][1]
        name = "abcdefghijklmno"[r - 1]
        text.append(f"{name} ", style="dim")
        text.append(" " * (2 * first - r + 6))
        for j, cell in enumerate(row):
            if j:
                text.append(" ")
            _disc(text, state, cell)
        text.append(" " * (2 * (15 - last) + r - 8 + 2))
        text.append(f"{name}{first}…{name}{last}\n", style="dim")


def _colour_table(state: "NibbleState", seat: int, text: Text) -> None:
    g = state.geometry
    counts = state.coll[seat]
    text.append(f"{player_name(seat)} ", style="bold")
    for c, m in enumerate(counts):
        if c == 7 and g.colours > 9:  # thirteen counts are 85 columns: a line of seven, then six
            text.append("\n" + " " * (len(player_name(seat)) + 1))
        text.append(" ")
        text.append(g.letters[c], style=disc_style(c))
        mark = "*" if m >= g.majority else " "
        text.append(f"{m:>3}{mark}", style="bold" if m >= g.majority else "")
    majorities = sum(1 for m in counts if m >= g.majority)
    other = state.coll[1 - seat]
    open_colours = [c for c in range(g.colours) if other[c] == 0]
    if open_colours:
        best_c = max(open_colours, key=lambda c: (counts[c], -c))
        whole = f"all of {g.letters[best_c]}: {counts[best_c]}/{g.per_colour}"
    else:
        whole = "all of one colour: blocked"
    limit = g.per_colour - g.triple
    runs = [s for s in range(g.colours - 2) if all(other[x] <= limit for x in (s, s + 1, s + 2))]
    if runs:
        best = max(runs, key=lambda s: (sum(min(counts[x], g.triple) for x in (s, s + 1, s + 2)), -s))
        run = (f"run {g.letters[best:best + 3]}: "
               f"{','.join(str(counts[x]) for x in (best, best + 1, best + 2))} (≥{g.triple} each)")
    else:
        run = "runs: blocked"
    # one phrase group a line, each short of 80 columns: a terminal wraps a longer line anywhere
    # ("all of A:" on one line, "0/9" on the next)
    text.append(f"\n        majorities {majorities}/{g.majorities} (≥{g.majority} each; decides when the board is empty)"
                f"\n        {whole} · {run}\n", style="dim")


def win_reason(state: "NibbleState") -> str:
    """How the winner of a finished game won (§5), e.g. ``all 9 of C`` or ``7+ each of B, C, D``."""
    g = state.geometry
    counts = state.coll[state.winner]
    for c, m in enumerate(counts):
        if m >= g.per_colour:
            return f"all {g.per_colour} of {g.letters[c]}"
    for s in range(g.colours - 2):
        if all(counts[x] >= g.triple for x in (s, s + 1, s + 2)):
            return f"{g.triple}+ each of {', '.join(g.letters[s:s + 3])}"
    majorities = sum(1 for m in counts if m >= g.majority)
    return f"majorities in {majorities} colours"


def render(state: "NibbleState", player: int | None = None) -> Text:
    """A rich ``Text`` of ``state`` (perfect information: ``player`` changes nothing)."""
    g = state.geometry
    text = Text()
    if g.hex:
        _hex_board(state, text)
    else:
        _square_board(state, text)
    text.append("\n")
    for seat in (0, 1):
        _colour_table(state, seat, text)
    # thirteen names are 83 columns: broken between two names, not where a terminal would
    names = [f"{g.letters[c]}={COLOUR_NAMES[c]}" for c in range(g.colours)]
    half = len(names) if len(names) <= 9 else (len(names) + 1) // 2
    for start in range(0, len(names), half):
        text.append(" ".join(names[start:start + half]) + "\n", style="dim")
    if state.winner >= 0:
        text.append(f"Game over: {player_name(state.winner)} wins ({win_reason(state)})", style="bold")
    else:
        text.append(f"{player_name(state.to_move)} to move", style="bold")
        if state.take >= 0:
            text.append(" · taking ")
            text.append(g.letters[state.take], style=disc_style(state.take))
            text.append(f" (take={g.letters[state.take]}: more {COLOUR_NAMES[state.take]} discs or end)")
    return text
