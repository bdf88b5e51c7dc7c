"""Nibble notation: position text, whole-turn strings, record move lists. Spec: nibble.md §4, §6.

Engine actions are written as the cell name (``a1``) or ``end``. A *whole-turn string* joins
the cells of one turn with ``+`` (``a1+a9``).

Decisions (the spec leaves these open):

* A string **without** ``+`` is always one engine action (so engine action sequences such as
  ``a1 a9 end`` replay exactly). A string **with** ``+`` is a whole turn: its discs in
  canonical order, then ``end`` if the turn is still open. Mid-turn it continues the open
  turn with those discs and then ends it.
* If an instant win ends the game before every disc of a whole-turn string is taken, the
  remaining discs are checked against the rules but not taken (the game is over).
* :func:`format_moves` writes one whole-turn string per turn when that string replays to
  exactly the same actions (discs taken in canonical order, the turn closed); otherwise it
  writes the turn's engine actions one entry each (e.g. ``a1``, ``end`` for a one-disc turn
  ended explicitly, or the discs so far of an unfinished last turn).
* :func:`format_turn` writes a turn as a person types it at a turn boundary, where a single
  cell is the whole turn: ``a1`` for a one-disc turn (the terminal's computer turns, hints
  and ``replay``; the record keeps ``a1``, ``end``).
"""

from __future__ import annotations

from typing import Sequence

from ...core.errors import AbstractaError, IllegalActionError, NotationError, PositionError, game_over, not_legal
from ...core.options import ascii_digits
from ...core.view import message
from .description import board_name
from .geometry import Geometry
from .rules import (NibbleGame, NibbleState, has_instant_win, is_connected, is_cut, legal_takes,
                    majority_winner)


# --------------------------------------------------------------------------------------------
# Position text (§6)
# --------------------------------------------------------------------------------------------
def _parse_counts(g: Geometry, token: str, what: str) -> list[int]:
    parts = token.split("-")
    if len(parts) != g.colours or not all(ascii_digits(p) for p in parts):
        raise PositionError(f"{what} {token!r} must be {g.colours} counts joined by '-'")
    counts = [int(p) for p in parts]
    for c, n in enumerate(counts):
        if n > g.per_colour:
            raise PositionError(f"{what} {token!r} holds {n} discs of {g.letters[c]} (at most {g.per_colour})")
    return counts


def parse_position(game: NibbleGame, text: str) -> NibbleState:
    """Read ``<rows> <to-move> <coll0> <coll1>[ take=X]`` (§6).

    Raises:
        PositionError: malformed text, wrong disc totals, two same-coloured discs side by side,
            a board that is not one group, or an open ``take=`` that could not be open.
    """
    g = game.geometry
    if not isinstance(text, str):
        raise PositionError(f"a position text is a string, got {text!r}")
    tokens = text.split()
    if len(tokens) not in (4, 5):
        raise PositionError(f"{text!r}: expected '<rows> <to-move> <coll0> <coll1>[ take=X]'")
    rows = tokens[0].split("/")
    if len(rows) != len(g.rows):
        raise PositionError(f"{tokens[0]!r} has {len(rows)} rows, {board_name(g.variant)} has {len(g.rows)}")
    layout = [-1] * g.cells
    letters = g.letters
    for k, (row, cells) in enumerate(zip(rows, g.rows)):
        if len(row) != len(cells):
            raise PositionError(f"row {k + 1} from the top {row!r} has {len(row)} cells, expected {len(cells)}")
        for ch, i in zip(row, cells):
            if ch == ".":
                continue
            c = letters.find(ch)
            if c < 0 or not ch:
                raise PositionError(f"row {row!r}: {ch!r} is not a colour letter {letters[0]}…{letters[-1]} or '.'")
            layout[i] = c
    if tokens[1] not in ("0", "1"):
        raise PositionError(f"to-move {tokens[1]!r} must be 0 or 1")
    to_move = int(tokens[1])
    coll = [_parse_counts(g, tokens[2], "collection 0"), _parse_counts(g, tokens[3], "collection 1")]
    take = -1
    if len(tokens) == 5:
        tk = tokens[4]
        if not tk.startswith("take=") or len(tk) != 6 or letters.find(tk[5]) < 0:
            raise PositionError(f"{tk!r} must be 'take=<colour letter>' ({letters[0]}…{letters[-1]})")
        take = letters.find(tk[5])
    for c in range(g.colours):
        on_board = sum(1 for x in layout if x == c)
        total = on_board + coll[0][c] + coll[1][c]
        if total != g.per_colour:
            raise PositionError(f"colour {letters[c]}: {on_board} on the board + {coll[0][c]} + {coll[1][c]} "
                                f"held = {total}, expected {g.per_colour}")
    for i, c in enumerate(layout):
        if c < 0:
            continue
        for j in g.neighbours[i]:
            if j > i and layout[j] == c:
                raise PositionError(f"{g.names[i]} and {g.names[j]} are adjacent discs of the same colour {letters[c]}")
    state = NibbleState(game, layout, to_move)
    state.coll = coll
    if not is_connected(g, state.occ):
        raise PositionError(f"the discs of {tokens[0]!r} do not form one connected group")
    if take >= 0:
        if coll[to_move][take] == 0:
            raise PositionError(f"take={letters[take]} but seat {to_move} holds no disc of {letters[take]}")
        if has_instant_win(g, coll[to_move]) or has_instant_win(g, coll[1 - to_move]):
            raise PositionError(f"take={letters[take]} but a seat already holds an instant win (the game is over)")
        if not legal_takes(g, state.occ, state.cmask[take]):
            raise PositionError(f"take={letters[take]} but no further disc of {letters[take]} can be taken "
                                "(the turn would have ended)")
        state.take = take
    else:
        mover = 1 - to_move
        if has_instant_win(g, coll[to_move]):
            raise PositionError(f"seat {to_move} is to move but already holds an instant win "
                                "(the game would have ended)")
        if has_instant_win(g, coll[mover]):
            state.winner = mover
        elif not state.occ:
            state.winner = majority_winner(g, coll[0])
    state._hash = state._full_hash()
    return state


# --------------------------------------------------------------------------------------------
# Whole-turn strings (§4)
# --------------------------------------------------------------------------------------------
def _cells_of(g: Geometry, text: str) -> list[int]:
    cells = []
    parts = text.split("+")
    for part in parts:
        if not part.strip():
            raise NotationError(f"{text!r}: '+' joins two cells (e.g. a1+a9)",
                                i18n=message("nibble.refusal.plus", move=repr(text)))
        i = g.index.get(part.strip().lower(), -1)
        if i < 0:
            # one part is the whole text: quoting it again before the reason says it twice
            where = f"{text!r}: " if len(parts) > 1 else ""
            board = message(f"nibble.refusal.board.{g.variant}")
            raise NotationError(f"{where}{part.strip()!r} is not a cell of {board_name(g.variant)}",
                                i18n=message("nibble.refusal.not_cell_in", move=repr(text), cell=repr(part.strip()),
                                             board=board) if where else
                                message("nibble.refusal.not_cell", cell=repr(part.strip()), board=board))
        if i in cells:
            raise IllegalActionError(f"{text!r} names {g.names[i]} twice",
                                     i18n=message("nibble.refusal.twice", move=repr(text), cell=g.names[i]))
        cells.append(i)
    return sorted(cells)


def parse_move(state: NibbleState, text: str, whole: bool = False) -> list[int]:
    """Engine actions for one entry: ``a1``/``end`` (one action) or ``a1+a9`` (a whole turn),
    in either case (``A1+A9``).

    With ``whole`` (a person typing a turn, at a turn boundary) a single cell is a whole turn
    too: ``a1`` takes a1 and ends the turn.
    Raises :class:`NotationError` / :class:`IllegalActionError`; ``state`` is unchanged.
    """
    if not isinstance(text, str):
        raise NotationError(f"a move is a string, got {text!r}")
    t = text.strip()
    if "+" not in t and (not whole or state.take >= 0 or t.lower() == "end"):
        return [state.string_to_action(t)]
    g = state.geometry
    cells = _cells_of(g, t)
    if state.is_terminal():
        raise game_over(repr(t))
    trial = state.clone()
    player = trial.to_move
    actions: list[int] = []
    for k, cell in enumerate(cells):
        if trial.is_terminal():
            colour = state.colour_at(cells[0])
            ok = legal_takes(g, trial.occ, trial.cmask[colour]) if colour >= 0 else []
            for rest in cells[k:]:
                if rest not in ok:
                    raise IllegalActionError(f"{t!r}: {g.names[rest]} cannot be taken in this turn",
                                             i18n=message("nibble.refusal.not_this_turn", move=repr(t),
                                                          cell=g.names[rest]))
            break
        if actions and (trial.take < 0 or trial.to_move != player):
            raise IllegalActionError(f"{t!r}: the turn ended before {g.names[cell]} "
                                     f"(no further disc of that colour could be taken)",
                                     i18n=message("nibble.refusal.ended_before", move=repr(t), cell=g.names[cell]))
        if cell not in trial.legal_actions():
            # as string_to_action words a single take: the reason names the cell already
            why, said = trial._why_illegal(cell)
            if len(cells) > 1:
                raise IllegalActionError(f"{t!r}: {why}", i18n=message("nibble.refusal.because", move=repr(t), why=said))
            raise not_legal(repr(t), (why, said))
        trial.apply_action(cell)
        actions.append(cell)
    if not trial.is_terminal() and trial.take >= 0:
        actions.append(g.cells)
    return actions


def format_moves(initial: NibbleState, actions: Sequence[int]) -> list[str]:
    """Record entries for ``actions`` from ``initial``: one whole-turn string per turn where it
    replays exactly, else the turn's engine action strings (see the module docstring).

    Raises :class:`IllegalActionError` if ``actions`` do not play from ``initial``."""
    state = initial.clone()
    end = state.geometry.cells
    names = state.geometry.names
    out: list[str] = []
    i = 0
    while i < len(actions):
        start = state.clone()
        turn: list[int] = []
        while i < len(actions):
            a = actions[i]
            state.apply_action(a)
            turn.append(a)
            i += 1
            if state.winner >= 0 or state.take < 0:
                break
        takes = [a for a in turn if a != end]
        if len(takes) >= 2:
            text = "+".join(names[a] for a in sorted(takes))
            try:
                same = parse_move(start, text) == turn
            except AbstractaError:
                same = False
            if same:
                out.append(text)
                continue
        out.extend(start.action_to_string(a) for a in turn)
    return out


def format_turn(state: NibbleState, actions: Sequence[int]) -> list[str]:
    """One turn's ``actions`` from ``state`` as a person types it at a turn boundary
    (:func:`parse_move` with ``whole``): its whole-turn string alone where typing it plays
    exactly ``actions`` — §4 writes a turn as its set of cells, so a one-disc turn ended by
    ``end`` is ``a1`` (a record writes it ``a1``, ``end``: there a string without ``+`` is one
    engine action) — else the record's entries (:func:`format_moves`: another order, a turn
    still open)."""
    end = state.geometry.cells
    takes = sorted(a for a in actions if a != end)
    if takes and state.take < 0:
        text = "+".join(state.geometry.names[a] for a in takes)
        try:
            if parse_move(state, text, whole=True) == list(actions):
                return [text]
        except AbstractaError:
            pass
    return format_moves(state, actions)


def canonical_turn(state: NibbleState, actions: Sequence[int]) -> list[int]:
    """One turn's engine ``actions`` from ``state`` reordered as the whole-turn string replays
    them: the discs in canonical order (§1), then ``end`` if the turn was ended by it.

    Returns ``actions`` unchanged when the reordered turn is not legal or ends elsewhere (e.g.
    an instant win the canonical order reaches before its last disc). Never raises."""
    end = state.geometry.cells
    takes = sorted(a for a in actions if a != end)
    ordered = takes + [end] * (len(actions) - len(takes))
    if ordered == list(actions):
        return ordered
    try:
        a, b = state.clone(), state.clone()
        for x in actions:
            a.apply_action(x)
        for x in ordered:
            if x not in b.legal_actions():
                return list(actions)
            b.apply_action(x)
    except AbstractaError:
        return list(actions)
    return ordered if a.to_text() == b.to_text() else list(actions)


def turn_strings(state: NibbleState) -> list[str]:
    """Every legal whole turn at a turn boundary, canonical turn order (§4): by colour letter,
    then number of discs, then lexicographically by the cells' canonical indices.

    A set is legal iff its discs share a colour, are free before the turn and leave one group;
    the family is closed under subsets, so a depth-first extension over the colour's legal
    single takes enumerates it exactly. Raises :class:`AbstractaError` mid-turn."""
    if state.is_terminal():
        return []
    g = state.geometry
    if state.take >= 0:
        raise AbstractaError(f"whole turns are listed at turn boundaries only; "
                             f"{state.to_text()!r} is in the middle of a turn")
    key = (g.variant, *state.cmask)  # the discs of each colour: all the turns depend on
    kept = _TURNS.get(key)
    if kept is None:
        if len(_TURNS) >= TURNS_KEPT:
            _TURNS.clear()
        kept = _TURNS[key] = tuple(_turn_strings(g, state.occ, state.cmask))
    return list(kept)


#: :func:`turn_strings` of the positions met last, by variant and discs of each colour: a view
#: lists a position's whole turns twice (its choices, the server's "turns"); emptied when full.
_TURNS: dict[tuple[int | str, ...], tuple[str, ...]] = {}
TURNS_KEPT = 256


def _turn_strings(g: Geometry, occ: int, cmask: list[int]) -> list[str]:
    """:func:`turn_strings` of the position with discs ``occ``, ``cmask[c]`` of colour ``c``."""
    names = g.names
    bit = g.bit
    out: list[str] = []
    for c in range(g.colours):
        cands = legal_takes(g, occ, cmask[c])
        sets: list[tuple[int, ...]] = []
        chosen: list[int] = []

        def extend(start: int, rest: int) -> None:
            for j in range(start, len(cands)):
                b = bit[cands[j]]
                after = rest ^ (1 << b)
                if is_cut(g, after, b):
                    continue
                chosen.append(cands[j])
                sets.append(tuple(chosen))
                extend(j + 1, after)
                chosen.pop()

        extend(0, occ)
        sets.sort(key=lambda s: (len(s), s))
        out.extend("+".join(names[i] for i in s) for s in sets)
    return out
