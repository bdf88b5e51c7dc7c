"""Compact action spaces for learners (issue 45).

A game whose engine numbers its actions sparsely (Slide Checkers: 352,945 ids, most never legal
together) may give the research adapters a smaller space through an :class:`ActionCodec`: each
engine action becomes a short sequence of **parts** (at most :attr:`ActionCodec.max_parts`),
each part an id below :attr:`ActionCodec.num_actions`, chosen one after the other by the same
player — as OpenSpiel's Amazons picks a queen, then its square, then the arrow's. No engine
action's parts may begin another's (the parts of one state form a prefix tree), so every
sequence of parts names at most one engine action.

The engine keeps its own ids (records, notation, bots); only the adapters (OpenSpiel, PettingZoo,
Gymnasium; :mod:`abstracta.interop.core`) speak in parts. While parts are pending, the
observation shows them through :attr:`ActionCodec.planes`.

A game package registers its codec for its game class (:func:`register_action_codec`), as it
registers its tensors, so that the rules never import it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from .tensors import Plane

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game, State


class ActionCodec:
    """How one game instance splits its engine actions into parts (see the module docstring).

    Attributes:
        num_actions: size of the part space (ids ``0 .. num_actions - 1``).
        max_parts: the most parts one engine action has.
        planes: extra observation planes showing the pending parts (one bit per entry, in
            order): :meth:`pending_bits` fills them.
    """

    num_actions: int
    max_parts: int = 1
    planes: tuple[Plane, ...] = ()

    def __init__(self, game: "Game"):
        self.game = game

    def encode(self, state: "State", action: int) -> tuple[int, ...]:
        """The parts of engine ``action``, legal in ``state`` (its player to move)."""
        raise NotImplementedError

    def encode_all(self, state: "State", actions: Sequence[int]) -> list[tuple[int, ...]]:
        """:meth:`encode` of each legal action (a game may do it faster in bulk)."""
        return [self.encode(state, a) for a in actions]

    def tree(self, state: "State", legal: Sequence[int]) -> dict:
        """The parts of ``state``'s legal engine actions ``legal`` as a tree: ``{part: the engine
        action it completes, or what may follow it}`` — a ``dict`` like this one, or a token of
        the codec's own that :meth:`expand` turns into one when that part is chosen (a game with
        many actions builds only the branch played). Default: the whole tree, from :meth:`encode_all`."""
        root: dict = {}
        for action, parts in zip(legal, self.encode_all(state, legal)):
            node = root
            for part in parts[:-1]:
                node = node.setdefault(part, {})
            node[parts[-1]] = action
        return root

    def expand(self, state: "State", token: Any) -> dict:
        """The branch a token of :meth:`tree` stands for (default: tokens are branches already)."""
        return token

    def part_string(self, part: int) -> str:
        """A label of ``part`` on its own (the adapters name a whole action in the engine's
        notation once its parts are complete)."""
        return str(part)

    def pending_bits(self, parts: tuple[int, ...]) -> int:
        """The bits (over :attr:`planes`, entry ``i`` = bit ``i``) that show ``parts``, the
        parts chosen so far of an action not yet complete."""
        return 0


#: game class -> its ActionCodec class (:func:`register_action_codec`).
_CODECS: dict[type, type[ActionCodec]] = {}


def register_action_codec(game_class: type, codec_class: type[ActionCodec]) -> None:
    """Declare ``codec_class`` the compact actions of ``game_class`` (and its subclasses); a
    game package's entry module calls this."""
    _CODECS[game_class] = codec_class


def codec_class_of(game_class: type) -> type[ActionCodec] | None:
    """The registered codec class of ``game_class`` (through its bases), or ``None``."""
    for cls in game_class.__mro__:
        codec = _CODECS.get(cls)
        if codec is not None:
            return codec
    return None


__all__ = ["ActionCodec", "codec_class_of", "register_action_codec"]
