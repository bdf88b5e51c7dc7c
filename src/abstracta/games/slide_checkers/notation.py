"""Slide Checkers notation: action ids and their strings, and the position text written out
(Spec: slide-checkers.md §3, §4, §6). Below the rules, which import it (the position text is
parsed by :meth:`.rules.SlideCheckersGame.state_from_text`).

Action ids (``num_distinct_actions`` = :data:`NUM_ACTIONS`), built from the ASCII *rank* of
squares (:data:`.tables.RANK`) so that placements and moves sort like their strings:

* ``@sq`` placement: ``RANK[sq]`` (0…143)
* ``S-D`` step or free move: ``MOVE_BASE + RANK[S]*144 + RANK[D]``
* first jump ``S[>L]*Xk``: ``JUMP_BASE + ((RANK[S]*144 + RANK[L])*8 + d)*2 + k`` where ``d`` is
  the direction (N NE E SE S SW W NW) and ``k`` is 0 for ``e`` (exchange), 1 for ``r`` (remove)
* continuation ``*Xk``: ``CONT_BASE + RANK[X]*2 + k``
* ``pass``: :data:`PASS`
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.errors import IllegalActionError, NotationError, PositionError
from ...core.view import message
from .geometry import NUM_SQUARES, SIZE, SQUARE_INDEX, SQUARE_NAMES
from .tables import DIRECTIONS, RANK, SQ_OF_RANK

if TYPE_CHECKING:  # pragma: no cover
    from ...core.game import State

MOVE_BASE = NUM_SQUARES
JUMP_BASE = MOVE_BASE + NUM_SQUARES * NUM_SQUARES
CONT_BASE = JUMP_BASE + NUM_SQUARES * NUM_SQUARES * 16
PASS = CONT_BASE + NUM_SQUARES * 2
NUM_ACTIONS = PASS + 1
#: ``state._phase`` of the movement phase (placement is 0)
MOVE_PHASE = 1
#: turns without a jump that draw the game (Spec §5; the position text's ``nj=``)
NO_JUMP_LIMIT = 100
#: suffix of a jump: ``e`` exchange (kind 0), ``r`` remove (kind 1)
KIND = "er"


def jump_string(s: int, launch: int, land: int, kind: int) -> str:
    mid = "*" if s == launch else ">" + SQUARE_NAMES[launch] + "*"
    return SQUARE_NAMES[s] + mid + SQUARE_NAMES[land] + KIND[kind]


def action_string(action: int) -> str:
    """The spec's notation of an action id (§3, §4): ``@e4``, ``c9-e10``, ``c9>d8*f8r``, ``*j4e``, ``pass``.

    Raises :class:`IllegalActionError` for an integer that is no action of the game."""
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        raise IllegalActionError(f"action {action!r} is not an action of slide-checkers")
    if action < MOVE_BASE:
        return "@" + SQUARE_NAMES[SQ_OF_RANK[action]]
    if action < JUMP_BASE:
        r = action - MOVE_BASE
        return SQUARE_NAMES[SQ_OF_RANK[r // NUM_SQUARES]] + "-" + SQUARE_NAMES[SQ_OF_RANK[r % NUM_SQUARES]]
    if action < CONT_BASE:
        r = action - JUMP_BASE
        kind = r & 1
        d = (r >> 1) & 7
        r >>= 4
        s = SQ_OF_RANK[r // NUM_SQUARES]
        launch = SQ_OF_RANK[r % NUM_SQUARES]
        x, y = divmod(launch, SIZE)
        dx, dy = DIRECTIONS[d]
        lx, ly = x + 2 * dx, y + 2 * dy
        if not (0 <= lx < SIZE and 0 <= ly < SIZE):
            raise IllegalActionError(f"action {action} jumps off the board")
        return jump_string(s, launch, lx * SIZE + ly, kind)
    if action < PASS:
        r = action - CONT_BASE
        return "*" + SQUARE_NAMES[SQ_OF_RANK[r >> 1]] + KIND[r & 1]
    return "pass"


#: The notation of the actions met so far by id, and their ids by notation: a view lists the
#: legal actions' notation at every revision and reads it back into ids (its choices), the same
#: strings move after move. Emptied when past :data:`TEXTS_KEPT` entries (the action space has
#: 353,000 ids).
_TEXT: dict[int, str] = {}
_ID: dict[str, int] = {}
TEXTS_KEPT = 50_000


def action_texts(actions: list[int]) -> list[str]:
    """:func:`action_string` of each of ``actions`` (ids of the game's action space), kept."""
    out = []
    for action in actions:
        text = _TEXT.get(action)
        if text is None:
            text = action_string(action)
            if len(_TEXT) >= TEXTS_KEPT:
                _TEXT.clear()
                _ID.clear()
            _TEXT[action] = text
            _ID[text] = action
        out.append(text)
    return out


def action_id(text: str) -> int:
    """:func:`parse_action` of ``text``, from the notation :func:`action_texts` wrote when it
    did (then exactly as written: lower case)."""
    action = _ID.get(text)
    return parse_action(text) if action is None else action


def square(name: str, text: str) -> int:
    """The square ``name`` read in either case; the refusal quotes it as typed."""
    sq = SQUARE_INDEX.get(name.lower())
    if sq is None:
        raise NotationError(f"{text!r}: {name!r} is not a square (a1…l12)",
                            i18n=message("slide-checkers.refusal.not_square", move=repr(text), square=repr(name)))
    return sq


def parse_action(text: str) -> int:
    """Notation -> action id, without legality, read in either case (``E4*G6R`` is ``e4*g6r``:
    the notation is all lower case). Raises :class:`NotationError`."""
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not a move string")
    # cut as typed, each part lower-cased where it is read: a refusal quotes the player's text
    t = text.strip()
    if t.lower() == "pass":
        return PASS
    if t.startswith("@"):
        return RANK[square(t[1:], text)]
    if t.startswith("*"):
        if len(t) < 4 or t[-1].lower() not in KIND:
            raise NotationError(f"{text!r}: a continuation is *<landing><r|e>, e.g. *j4r",
                                i18n=message("slide-checkers.refusal.continuation", move=repr(text)))
        return CONT_BASE + RANK[square(t[1:-1], text)] * 2 + KIND.index(t[-1].lower())
    if "-" in t:
        a, _, b = t.partition("-")
        s, d = square(a, text), square(b, text)
        return MOVE_BASE + RANK[s] * NUM_SQUARES + RANK[d]
    if "*" in t:
        head, _, tail = t.partition("*")
        if len(tail) < 3 or tail[-1].lower() not in KIND:
            raise NotationError(f"{text!r}: a jump is <from>[><launch>]*<landing><r|e>, e.g. c9>d8*f8r",
                                i18n=message("slide-checkers.refusal.jump", move=repr(text)))
        kind = KIND.index(tail[-1].lower())
        land = square(tail[:-1], text)
        if ">" in head:
            a, _, b = head.partition(">")
            s, launch = square(a, text), square(b, text)
            if s == launch:
                raise NotationError(f"{text!r}: the launch square is omitted when it is the start",
                                    i18n=message("slide-checkers.refusal.launch", move=repr(text)))
        else:
            s = launch = square(head, text)
        lx, ly = divmod(launch, SIZE)
        tx, ty = divmod(land, SIZE)
        dx, dy = tx - lx, ty - ly
        if dx not in (-2, 0, 2) or dy not in (-2, 0, 2) or (dx == 0 and dy == 0):
            raise IllegalActionError(f"{text!r}: {SQUARE_NAMES[land]} is not two squares in a line "
                                     f"from {SQUARE_NAMES[launch]}",
                                     i18n=message("slide-checkers.refusal.not_in_line", move=repr(text),
                                                  land=SQUARE_NAMES[land], launch=SQUARE_NAMES[launch]))
        d = DIRECTIONS.index((dx // 2, dy // 2))
        return JUMP_BASE + ((RANK[s] * NUM_SQUARES + RANK[launch]) * 8 + d) * 2 + kind
    raise NotationError(f"{text!r} is not Slide Checkers notation (@e4, e4-f5, c9>d8*f8r, *j4e, pass)",
                        i18n=message("slide-checkers.refusal.notation", move=repr(text)))


def format_position(state: "State") -> str:
    """The position text of Spec §6 (a :class:`~.rules.SlideCheckersState`; its parser is
    :meth:`~.rules.SlideCheckersGame.state_from_text`)."""
    colours = state.game.colours
    tokens = []
    for seat in sorted(range(state._n), key=lambda i: colours[i]):
        letter = colours[seat]
        b = state._bb[seat]
        while b:
            low = b & -b
            tokens.append(letter + SQUARE_NAMES[low.bit_length() - 1])
            b ^= low
    parts = [",".join(tokens) if tokens else "-"]
    parts.append("M" if state._phase == MOVE_PHASE else "P:" + "/".join(str(r) for r in state._remain))
    parts.append(colours[state._turn])
    if state._jsq >= 0:
        parts.append("J:" + SQUARE_NAMES[state._jsq])
    if state._nj:
        parts.append(f"nj={state._nj}")
    if state._passes:
        parts.append(f"passes={state._passes}")
    return " ".join(parts)
