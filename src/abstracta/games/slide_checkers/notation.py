"""Slide Checkers notation: action ids and their strings, and the position text (Spec:
slide-checkers.md §3, §4, §6).

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
from ...core.options import ascii_digits
from ...core.view import message
from .geometry import NUM_SQUARES, SIZE, SQUARE_INDEX, SQUARE_NAMES
from .tables import DIRECTIONS, RANK, SQ_OF_RANK, ZOBRIST

if TYPE_CHECKING:  # pragma: no cover
    from .rules import SlideCheckersGame, SlideCheckersState

MOVE_BASE = NUM_SQUARES
JUMP_BASE = MOVE_BASE + NUM_SQUARES * NUM_SQUARES
CONT_BASE = JUMP_BASE + NUM_SQUARES * NUM_SQUARES * 16
PASS = CONT_BASE + NUM_SQUARES * 2
NUM_ACTIONS = PASS + 1
#: ``state._phase`` of the movement phase (placement is 0)
MOVE_PHASE = 1
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


def parse_count(token: str, key: str, text: str) -> int:
    value = token[len(key):]
    if not ascii_digits(value):
        raise PositionError(f"{text!r}: {token!r} needs a non-negative integer")
    return int(value)


def format_position(state: "SlideCheckersState") -> str:
    """The position text of Spec §6."""
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


def parse_position(game: "SlideCheckersGame", text: str) -> "SlideCheckersState":
    """Parse ``<pieces> <phase> <to-move> [J:<sq>] [nj=<n>] [passes=<n>]`` (Spec §6).

    Raises :class:`PositionError` naming the offending part."""
    from .rules import _MOVE, _PLACE, NO_JUMP_LIMIT, SlideCheckersState

    if not isinstance(text, str):
        raise PositionError(f"{text!r} is not a position text")
    parts = text.split()
    if len(parts) < 3:
        raise PositionError(f"{text!r}: expected '<pieces> <phase> <to-move>' (e.g. '- P:7/7 G')")
    colours = game.colours
    n = game.num_players
    st = SlideCheckersState(game)
    # pieces
    if parts[0] != "-":
        for token in parts[0].split(","):
            if len(token) < 3:
                raise PositionError(f"{text!r}: piece {token!r} is not <colour><square> (e.g. Ge4)")
            letter, name = token[0], token[1:]
            seat = colours.find(letter)
            if seat < 0:
                raise PositionError(f"{text!r}: piece {token!r} has colour {letter!r}, "
                                    f"not one of the seats' colours {colours}")
            sq = SQUARE_INDEX.get(name)
            if sq is None:
                raise PositionError(f"{text!r}: piece {token!r}: {name!r} is not a square (a1…l12)")
            bit = 1 << sq
            if st._occ & bit:
                raise PositionError(f"{text!r}: square {name} holds two pieces")
            st._bb[seat] |= bit
            st._occ |= bit
            st._z ^= ZOBRIST[seat][sq]
    # phase
    phase = parts[1]
    if phase == "M":
        st._phase = _MOVE
    elif phase.startswith("P:"):
        counts = phase[2:].split("/")
        if len(counts) != n or not all(ascii_digits(c) for c in counts):
            raise PositionError(f"{text!r}: phase {phase!r} must give {n} counts, e.g. P:"
                                + "/".join([str(game.pieces_per_player)] * n))
        st._remain = [int(c) for c in counts]
        for seat, r in enumerate(st._remain):
            on_board = st._bb[seat].bit_count()
            if r + on_board > game.pieces_per_player:
                raise PositionError(f"{text!r}: seat {colours[seat]} has {on_board} pieces placed and {r} "
                                    f"to place, more than {game.pieces_per_player}")
    else:
        raise PositionError(f"{text!r}: phase {phase!r} is neither M nor P:<counts>")
    # to move
    letter = parts[2]
    if len(letter) != 1 or letter not in colours:
        raise PositionError(f"{text!r}: to-move {letter!r} is not one of the seats' colours {colours}")
    turn = colours.index(letter)
    st._turn = turn
    jsq = -1
    seen: set[str] = set()
    for token in parts[3:]:
        key = token.split(":")[0] + ":" if token.startswith("J:") else token.split("=")[0] + "="
        if key in seen:
            raise PositionError(f"{text!r}: {key!r} given twice")
        seen.add(key)
        if token.startswith("J:"):
            jsq = SQUARE_INDEX.get(token[2:], -1)
            if jsq < 0:
                raise PositionError(f"{text!r}: {token!r}: {token[2:]!r} is not a square")
        elif token.startswith("nj="):
            st._nj = parse_count(token, "nj=", text)
        elif token.startswith("passes="):
            st._passes = parse_count(token, "passes=", text)
        else:
            raise PositionError(f"{text!r}: unexpected {token!r} (expected J:<square>, nj=<n>, passes=<n>)")
    if st._phase == _PLACE:
        if jsq >= 0 or st._nj or st._passes:
            raise PositionError(f"{text!r}: J:, nj= and passes= belong to the movement phase")
        if st._remain[turn] == 0:
            raise PositionError(f"{text!r}: {letter} is to place but has no pieces left to place")
        st._advance_placement(turn)
        return st
    if not st._occ:
        raise PositionError(f"{text!r}: the movement phase needs pieces on the board")
    if st._check_win():
        if jsq >= 0:
            raise PositionError(f"{text!r}: J: given but the game is already won")
        st._turn = turn
        return st
    if not st._bb[turn]:
        raise PositionError(f"{text!r}: {letter} is to move but has no pieces (eliminated)")
    if jsq >= 0:
        if not st._bb[turn] >> jsq & 1:
            raise PositionError(f"{text!r}: J:{SQUARE_NAMES[jsq]} does not hold a piece of {letter}")
        if st._nj or st._passes:
            raise PositionError(f"{text!r}: a jump is in progress, so nj and passes must be 0")
        st._jsq = jsq
        if not st._generate():
            raise PositionError(f"{text!r}: the piece on {SQUARE_NAMES[jsq]} has no jump to continue")
    if st._nj >= NO_JUMP_LIMIT:
        st._over = True
        st._winner = -1
    elif st._passes and st._passes >= sum(1 for b in st._bb if b):
        st._over = True
        st._winner = -1
    return st
