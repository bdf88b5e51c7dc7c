"""Action notation of a Fibonacci state: writing, reading and refusing moves (Spec: fibonacci.md §4, §9.3).

``e8-f9`` (a move or a swap), ``pass``, ``S@e5`` / ``A@e5`` / ``C@e5`` (a Go placement; the piece is
fixed by the placement number) and, at the cards variant's explicit chance node, ``card 3``.
:class:`FibonacciNotation` is mixed into :class:`.rules.FibonacciState` (as :class:`.view.FibonacciView`
is): :meth:`~FibonacciNotation.string_to_action` reads either case and refuses with a player's reason,
in English and as a message of the package's catalogs (``fibonacci.refusal.*``).

Below the rules, which import this module; it names the state without importing them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.errors import IllegalActionError, NotationError, game_over, not_legal
from ...core.view import message
from .geometry import BIT, DENSE, NAME, NUM_CELLS
from .movegen import FROM_BIT, TO_BIT
from .notation import (_CELL, NMOVE, NUM_ACTIONS, NUM_PLACEMENTS, PASS, PLACE0, SUPPORT, cell_bit,
                       placement_kind)
from .view import KINDS

if TYPE_CHECKING:  # pragma: no cover
    # the state this notation is mixed into (rules.FibonacciState), named without importing the
    # rules, which import this module
    from ...core.game import State as FibonacciState


#: Each move's notation (``"e8-f9"``) by its action id, written when first asked (a view lists the
#: legal moves at every revision; they are the same strings move after move).
_MOVE_TEXT: list[str | None] = [None] * NMOVE


def _move_text(action: int) -> str:
    """The notation of the move ``action`` (0 … NMOVE − 1), kept in :data:`_MOVE_TEXT`."""
    text = _MOVE_TEXT[action] = f"{NAME[FROM_BIT[action]]}-{NAME[TO_BIT[action]]}"
    return text


class FibonacciNotation:
    """The action notation of :class:`.rules.FibonacciState` (``State.action_to_string`` and
    ``State.string_to_action``); it reads the state's ``board``, ``side``, ``placed``, ``result``
    and ``_pending`` and asks its ``_is_legal`` and ``destinations``."""

    def action_to_string(self: "FibonacciState", action: int) -> str:
        """``e8-f9``, ``pass`` or ``S@e5`` (§4, §9.3); ``card 3`` for outcome 2 at a pending reveal
        (§9.2). Any action of the space 0 … 8372 is written, legal or not. Raises
        :class:`IllegalActionError` for a non-integer or an action outside the space."""
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalActionError(f"action {action!r} is not an integer")
        if self._pending:
            return f"card {action + 1}"
        if 0 <= action < NMOVE:
            return _MOVE_TEXT[action] or _move_text(action)
        if action == PASS:
            return "pass"
        if PLACE0 <= action < NUM_ACTIONS:
            kind = placement_kind(self.placed) if self.placed < NUM_PLACEMENTS else SUPPORT
            return f"{'CAS'[kind]}@{NAME[BIT[action - PLACE0]]}"
        raise IllegalActionError(f"action {action} is outside the action space 0..{NUM_ACTIONS - 1}")

    def legal_action_strings(self: "FibonacciState") -> list[str]:
        """The legal actions' notation (:meth:`action_to_string` of each), the moves' from
        :data:`_MOVE_TEXT`."""
        if self._pending:
            return [f"card {action + 1}" for action in self.legal_actions()]
        texts = _MOVE_TEXT
        return [(texts[a] or _move_text(a)) if a < NMOVE else self.action_to_string(a) for a in self.legal_actions()]

    def string_to_action(self: "FibonacciState", text: str) -> int:
        """Parse ``e8-f9`` / ``pass`` / ``S@e5``, in either case (``E8-F9``, ``s@E5``: cells and
        ``pass`` are lower case, the placed piece upper case, so case tells no two actions
        apart). Raises :class:`NotationError` for text that is not notation,
        :class:`IllegalActionError` for notation that is not legal here."""
        if not isinstance(text, str):
            raise NotationError(f"{text!r} is not a move string")
        s = text.strip()
        if s.lower() == "pass":
            action = PASS
        elif "@" in s:
            letter, _, cell = s.partition("@")
            b = self._cell(cell, s)
            letter = letter.upper()
            if letter not in ("C", "A", "S"):
                raise NotationError(f"{s!r}: placement piece must be C, A or S",
                                    i18n=message("fibonacci.refusal.piece_letter", move=repr(s)))
            if self.placed >= NUM_PLACEMENTS or self.result is not None:
                raise IllegalActionError(f"{s!r}: no placement is possible here",
                                         i18n=message("fibonacci.refusal.no_placement", move=repr(s)))
            want = "CAS"[placement_kind(self.placed)]
            if letter != want:
                raise IllegalActionError(f"{s!r}: placement {self.placed + 1} must place {want}",
                                         i18n=message("fibonacci.refusal.must_place", move=repr(s),
                                                      n=self.placed + 1, want=want))
            action = PLACE0 + DENSE[b]
        elif "-" in s:
            a, _, c = s.partition("-")
            fb = self._cell(a, s)
            tb = self._cell(c, s)
            action = DENSE[fb] * NUM_CELLS + DENSE[tb]
        else:
            raise NotationError(f"{s!r} is not Fibonacci notation (e8-f9, pass, S@e5)",
                                i18n=message("fibonacci.refusal.notation", move=repr(s)))
        if not self._is_legal(action):
            if self.result is not None:
                raise game_over(repr(s))
            raise not_legal(repr(s), self._why_illegal(action))
        return action

    def _why_illegal(self: "FibonacciState", action: int) -> tuple[str, dict[str, Any]] | None:
        """A player's reason why the move ``action`` is refused (§4), in English and as a message
        of the catalogs; ``None`` when there is none to tell (a placement, a card to reveal)."""
        if self._pending or not 0 <= action < NMOVE:
            return None
        fb, tb = FROM_BIT[action], TO_BIT[action]
        frm, to = NAME[fb], NAME[tb]
        if self.placed < NUM_PLACEMENTS:
            want = "CAS"[placement_kind(self.placed)]
            return (f"the pieces are still being placed ({want}@e5 places one on e5)",
                    message("fibonacci.refusal.placing", want=want))
        names = ("core", "attacker", "support")
        p, q = self.board[fb], self.board[tb]
        if not p:
            return f"{frm} is empty", message("fibonacci.refusal.empty", cell=frm)
        owner, kind = divmod(p - 1, 3)
        if owner != self.side:
            return (f"{frm} holds a {'Red' if owner == 0 else 'Green'} {names[kind]}: "
                    "you move your own attackers and supports",
                    message(f"fibonacci.refusal.not_yours.{owner}", cell=frm,
                            kind=message(f"fibonacci.refusal.kind.{KINDS[kind]}")))
        if kind == 0:
            return (f"{frm} holds your core, which moves only by being swapped",
                    message("fibonacci.refusal.core", cell=frm))
        if q == p:
            return (f"{to} holds another of your {names[kind]}s: swapping identical pieces changes nothing",
                    message(f"fibonacci.refusal.same.{KINDS[kind]}", cell=to))
        reach = ", ".join(self.destinations(frm))
        return (f"{to} is not next to the group of {names[kind]}s {frm} belongs to ({frm} may go to {reach})",
                message(f"fibonacci.refusal.not_next.{KINDS[kind]}", to=to, frm=frm, reach=reach))

    @staticmethod
    def _cell(name: str, whole: str) -> int:
        """The bit of cell ``name`` read in either case; the refusal quotes it as typed."""
        if not _CELL.match(name.lower()):
            raise NotationError(f"{whole!r}: {name!r} is not a cell name",
                                i18n=message("fibonacci.refusal.not_cell_name", move=repr(whole), cell=repr(name)))
        b = cell_bit(name.lower())
        if b is None:
            raise NotationError(f"{whole!r}: {name!r} is not a cell of the board",
                                i18n=message("fibonacci.refusal.not_cell", move=repr(whole), cell=repr(name)))
        return b


__all__ = ["FibonacciNotation"]
