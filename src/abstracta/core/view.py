"""Structured views: a state described as plain data for one viewer (``State.to_struct``).

The browser draws from this and sends back action strings; it computes no rule. Models:
OpenSpiel 2's ``to_struct`` and python-chess's ``svg`` (a pure function of the board).

The envelope, the same for every game (JSON-ready: dicts, lists, str, int, float, bool, None)::

    {
      "game": "fanorona",            # registry name
      "viewer": 0,                   # whose eyes (None: a spectator, who sees what is public)
      "num_players": 2,
      "to_move": 0,                  # seat whose action it is; None when the game is over
      "turn": {                      # the turn in progress
        "seat": 0,                   # == to_move (None when over)
        "actions": ["d2-e3A"],       # what that seat has played of this turn so far
        "left": {...} | None,        # what is left of it (game-specific, see the game's view.py)
      },
      "board": {...},                # the position (game-specific; see the game's view.py)
      "legal": ["e3-f4W", "end"],    # exactly the legal action strings, when the viewer may
                                     # know them (to_move == viewer, or perfect information);
                                     # else []
      "choices": {...},              # the legal actions grouped the way a person picks them
                                     # (game-specific); action strings appear only under the
                                     # keys "action" (a string) and "actions" (a list), and
                                     # together they are exactly "legal"
      "recent": [                    # the turns since the viewer last moved, oldest first
        {"seat": 1, "actions": ["c3-d3A", "d3-d4W"],
         "steps": [{"action": "c3-d3A", "touched": ["c3", "d3"], "removed": ["e3"],
                    "revealed": []}, ...]},
      ],
      "over": False,
      "returns": None | [1.0, -1.0],
      "end": None | {"reason": "no-stones", "text": "Black has no stones left",
                     "winners": [0]},
      "eliminated": [{"seat": 2, "text": "Yellow has no pieces left"}],
    }

Each game implements four hooks on its State (in its ``view.py``): :meth:`board_struct`,
:meth:`choices_struct`, :meth:`action_effects`, :meth:`end_struct`, and optionally
:meth:`turn_left_struct` and :meth:`eliminated_struct`; see :class:`StructHooks`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .messages import format_message, message
from .options import check_player

if TYPE_CHECKING:  # pragma: no cover
    from .game import State


#: "recent" never reaches back further than this many turns (a viewer who never moved).
MAX_RECENT_TURNS = 8


class StructHooks:
    """The game-specific parts of :func:`build_struct`, mixed into ``State`` (defaults here)."""

    def board_struct(self, player: int | None) -> dict[str, Any]:
        """The position as ``player`` may see it: cells, pieces, colours, piles, hands (a hidden
        card never appears). Game-specific; documented in the game's ``view.py``."""
        if not self.game.has_hidden_information:  # type: ignore[attr-defined]
            return {"text": self.to_text()}  # type: ignore[attr-defined]
        # a spectator sees the public part only (never seat 0's hand)
        return {"text": self.observation(player) if player is not None  # type: ignore[attr-defined]
                else self.public_observation()}  # type: ignore[attr-defined]

    def shared_board_struct(self, player: int | None) -> dict[str, Any]:
        """:meth:`board_struct` for a caller that changes nothing of it (:func:`build_struct`
        given ``shared``: a server describing each revision of a match): its parts may be kept
        and shared with other boards' (a game's cell entries by what stands on them), so that a
        move, which changes a few cells, does not build every cell's entry again. Equal to
        :meth:`board_struct`. Default: :meth:`board_struct`."""
        return self.board_struct(player)

    def revealed_board_struct(self, player: int | None) -> dict[str, Any]:
        """The position with every hidden card shown (every hand, the order of hidden piles), in
        the shape of :meth:`board_struct`: what a finished game's replay shows at each ply, since
        the deal is public once the game is over. Default: :meth:`board_struct` (a game that
        does not say how to show its hidden cards keeps them hidden)."""
        return self.board_struct(player)

    def choices_struct(self, legal: list[str]) -> dict[str, Any]:
        """The legal action strings ``legal`` grouped the way a person picks them.
        Default: one flat list."""
        return {"actions": list(legal)}

    def shared_choices_struct(self, legal: list[str]) -> dict[str, Any]:
        """:meth:`choices_struct` for a caller that changes nothing of it (:func:`build_struct`
        given ``shared``), whose parts may be kept and shared with other states' choices (a
        game's entry per action), as :meth:`shared_board_struct`'s are. Equal to
        :meth:`choices_struct`. Default: :meth:`choices_struct`."""
        return self.choices_struct(legal)

    def action_effects(self, action: int, player: int | None) -> dict[str, list]:
        """What ``action`` (legal in this state, which is not changed) does, as ``player`` may
        see it: ``{"touched": [cells], "removed": [cells or cards], "revealed": [...]}``."""
        return {"touched": [], "removed": [], "revealed": []}

    def end_struct(self) -> dict[str, Any] | None:
        """Why the game ended (``None`` while it runs): ``{"reason": key, "text": words}``."""
        return None

    def turn_left_struct(self) -> dict[str, Any] | None:
        """What is left of the turn in progress (game-specific), or ``None``."""
        return None

    def eliminated_struct(self) -> list[dict[str, Any]]:
        """Seats out of a game that goes on (3–4 players): ``[{"seat": i, "text": words}]``."""
        return []


#: Steps of the history a line of states keeps walked (``carried``) at most, the newest: a walk
#: reaches back a few turns (:data:`MAX_RECENT_TURNS` at most), and a match keeps its line's
#: carried dict while it is in memory.
CARRIED_STEPS = 64


def _common_prefix(a: list[int], b: list[int]) -> int:
    """How many actions ``a`` and ``b`` begin with alike."""
    if len(a) > len(b):
        a, b = b, a
    n = len(a)
    if a == b[:n]:  # one copy (the longer list's head): the usual case, a move or a takeback
        return n
    i = 0
    while a[i] == b[i]:
        i += 1
    return i


class _Walk:
    """The history of a state walked back once, newest step first, as far as asked: per step
    ``(mover, action string, effects)``. The effects (``action_effects`` for ``player``) of the
    turn in progress (the steps of ``to_move`` before any other seat's) are not asked for and
    not computed (None).

    ``kept``: a dict kept along a line of states (each the last one's successor, or one taken
    back to, from the same start): the steps walked for the last state of the line, by ply,
    with the history they were walked in. A step whose history up to it is unchanged is the
    same step (the state before it, and so its mover, notation and effects, follow from that
    history): it is taken from there and only the others are walked, so that a move walks its
    own step, not the whole recent history again."""

    def __init__(self, state: "State", to_move: int | None, player: int | None,
                 kept: dict[str, Any] | None = None):
        self.state, self.to_move, self.player = state, to_move, player
        self._current = to_move is not None
        self.walked: list[tuple[int, str, dict[str, list] | None]] = []
        self._history = state.history() if state.supports_undo else []
        self._work: "State | None" = None  # a clone undone back to ply _at (when a step is walked)
        self._at = len(self._history)
        steps: dict[int, tuple[int, str, dict[str, list] | None]] = {}
        if kept is not None:
            old = kept.get("history")
            if old is not None:  # the steps still valid, as far back as the last state's walks went
                valid = _common_prefix(old, self._history)
                low = max(kept["low"], len(self._history) - CARRIED_STEPS)
                steps = {p: s for p, s in kept["steps"].items() if low <= p < valid}
            kept.update(history=self._history, steps=steps, low=len(self._history))
        self._steps, self._kept = steps, kept

    def _before(self, ply: int) -> "State":
        """The state before action ``ply`` of the history (the clone, undone back to it)."""
        if self._work is None:
            self._work = self.state.clone()
        while self._at > ply:
            self._work.undo_action()
            self._at -= 1
        return self._work

    def step(self, i: int) -> tuple[int, str, dict[str, list] | None] | None:
        """The ``i``-th step back (0: the last action), or None past the start."""
        while len(self.walked) <= i:
            ply = len(self._history) - 1 - len(self.walked)
            if ply < 0:
                return None
            if self._kept is not None and self._kept["steps"] is self._steps and ply < self._kept["low"]:
                self._kept["low"] = ply  # how far back this state's walks went
            known = self._steps.get(ply)
            if known is not None:
                self._current = self._current and known[0] == self.to_move
                if self._current or known[2] is not None:
                    self.walked.append(known)
                    continue
            before = self._before(ply)
            mover, action = before.current_player(), self._history[ply]
            self._current = self._current and mover == self.to_move
            effects = None if self._current else before.action_effects(action, self.player)
            text = known[1] if known is not None else before.action_to_string(action)
            self._steps[ply] = entry = (mover, text, effects)
            self.walked.append(entry)
        return self.walked[i]


def build_struct(state: "State", player: int | None, reveal: bool = False,
                 shared: dict[str, Any] | None = None, carried: dict[str, Any] | None = None) -> dict[str, Any]:
    """The envelope of the module docstring for ``state`` seen by ``player``; ``reveal``: the
    board with every hidden card (:meth:`StructHooks.revealed_board_struct`).

    ``shared``: a dict the caller keeps with this very state (unchanged) for every viewer it
    describes it to. In a game without hidden information every viewer sees the same board,
    legal actions and choices, the same steps of its recent history (each viewer's ``recent``
    reaches back as far as its own last move), the same rest of the turn and seats out: they
    are computed for the first viewer (the history walked back as far as asked), kept in ``shared`` and
    handed to the others (a server describing one position to each seat and spectator computes
    the board once). The parts are shared between the structs returned, and with ``shared`` the
    board's and the choices' parts may be kept from other states' (:meth:`StructHooks.shared_board_struct`,
    :meth:`StructHooks.shared_choices_struct`): do not change them.

    ``carried``: a dict the caller keeps along a line of states of one game, each the last one
    described plus actions, or one taken back to (a match's revisions): the steps of the history
    walked for the last are kept in it (per viewer when the game hides information) and only
    the steps new since are walked (:class:`_Walk`)."""
    game = state.game
    n = state.num_players
    if player is not None:
        try:
            player = check_player(player, n)
        except ValueError:
            raise ValueError(f"player {player!r} is not a seat of this game (0…{n - 1}) or None") from None
    over = state.is_terminal()
    to_move = None if over else state.current_player()
    if to_move is not None and to_move < 0:
        to_move = None
    hidden = game.has_hidden_information
    alike = shared if shared is not None and not hidden else None  # what every viewer sees alike
    if alike is not None and "board" in alike:
        legal, board, choices = alike["legal"], alike["board"], alike["choices"]
    else:
        may_see_legal = to_move is not None and (not hidden or player == to_move)
        legal = state.legal_action_strings() if may_see_legal else []
        board = (state.revealed_board_struct(player) if reveal and hidden else state.board_struct(player)
                 if shared is None else state.shared_board_struct(player))
        choices = ({} if not legal else state.choices_struct(legal) if shared is None
                   else state.shared_choices_struct(legal))
        if alike is not None:
            alike.update(legal=legal, board=board, choices=choices)

    # walk back through history: the current turn's actions, then whole turns since the viewer
    # moved; without hidden information every viewer walks the same steps: walked once, shared
    walk = alike.get("walk") if alike is not None else None
    if walk is None:
        kept = carried.setdefault(("walk", player if hidden else None), {}) if carried is not None else None
        walk = _Walk(state, to_move, player, kept)
        if alike is not None:
            alike["walk"] = walk
    i = 0
    current: list[str] = []
    while to_move is not None and (step := walk.step(i)) is not None and step[0] == to_move:
        current.append(step[1])
        i += 1
    current.reverse()
    turns: list[dict[str, Any]] = []
    step = walk.step(i)
    while step is not None and len(turns) < (n if player is None else MAX_RECENT_TURNS):
        seat = step[0]
        if player is not None and seat == player:
            break
        steps = []
        while step is not None and step[0] == seat:
            steps.append({"action": step[1], **step[2]})
            i += 1
            step = walk.step(i)
        steps.reverse()
        turns.append({"seat": seat, "actions": [s["action"] for s in steps], "steps": steps})
    turns.reverse()

    if alike is not None and "eliminated" in alike:  # the turn's rest and the seats out: alike too
        left, eliminated = alike["left"], alike["eliminated"]
    else:
        left, eliminated = state.turn_left_struct() if not over else None, state.eliminated_struct()
        if alike is not None:
            alike.update(left=left, eliminated=eliminated)
    returns = [float(r) for r in state.returns()] if over else None
    end = state.end_struct() if over else None
    if end is not None and returns is not None:
        end = {**end, "winners": [i for i, r in enumerate(returns) if r > 0]}
    return {
        "game": game.name,
        "viewer": player,
        "num_players": n,
        "to_move": to_move,
        "turn": {"seat": to_move, "actions": current, "left": left},
        "board": board,
        "legal": legal,
        "choices": choices,
        "recent": turns,
        "over": over,
        "returns": returns,
        "end": end,
        "eliminated": eliminated,
    }


__all__ = ["MAX_RECENT_TURNS", "StructHooks", "build_struct", "format_message", "message"]
