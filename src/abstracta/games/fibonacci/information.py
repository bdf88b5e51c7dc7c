"""What a Fibonacci player knows: observations, information states and determinizations
(Spec: fibonacci.md §9.2, §10).

Standard and Go are perfect information: an observation is the position text. In the cards
variant each pile's order and the generator state are hidden from both players, revealed cards
are public (§10). :class:`FibonacciInformation` is mixed into :class:`.rules.FibonacciState` (as
:class:`.view.FibonacciView` is): the observation hides the piles (``?``) and ``rng=``; the
information state adds the public start, the actions and the revealed cards; a determinization
(:meth:`~FibonacciInformation.resample_from_infostate`) reshuffles what is hidden and rewrites the
undo records it inherits as it undoes them (:meth:`~FibonacciInformation._past_info`).

Below the rules, which import this module; it names the state without importing them.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ...core.game import check_player
from .position import observation_text

if TYPE_CHECKING:  # pragma: no cover
    # the state this is mixed into (rules.FibonacciState), named without importing the rules,
    # which import this module
    from ...core.game import State as FibonacciState


class FibonacciInformation:
    """The imperfect-information hooks of :class:`.rules.FibonacciState` (OpenSpiel's
    ``observation_string``, ``information_state_string`` and ``resample_from_infostate``); it
    reads the state's ``board``, ``side``, ``left``, ``turn``, ``piles``, ``rng_state``,
    ``revealed`` and undo stack."""

    def observation(self: "FibonacciState", player: int) -> str:
        """What ``player`` sees: the position text with hidden piles as ``?`` and no ``rng=`` (§9.2)."""
        check_player(player, 2)
        if not self._cards:
            return self.to_text()
        return observation_text(self.board, self.side, self.left, self.turn, self.piles)

    def information_state_string(self: "FibonacciState", player: int) -> str:
        """Everything ``player`` knows: start (public part), actions, revealed cards, now (§10)."""
        if not self._cards:
            return super().information_state_string(player)
        acts = " ".join(str(a) for a in self.history())
        cards = " ".join(f"{'RG'[s]}{t}:{v}" for s, t, v in self.revealed)
        return f"{self._init_public} | {acts} | {cards} | {self.observation(player)}"

    def resample_from_infostate(self: "FibonacciState", player: int, rng: Any) -> "FibonacciState":
        """A state with the same public facts and freshly shuffled pile orders and generator state
        (drawn from ``rng``, a :class:`random.Random`). Perfect-information variants: a clone."""
        check_player(player, 2)
        new = self.clone()
        if self._cards:
            r = rng if rng is not None else random.Random()
            piles = []
            for pile in self.piles:
                # shuffled from a sorted copy: the sample then depends on what the player knows
                # (which cards are left), never on the hidden order itself
                cards = sorted(pile)
                r.shuffle(cards)
                piles.append(tuple(cards))
            new.piles = (piles[0], piles[1])
            new.rng_state = r.getrandbits(64)
            new._seed = None  # the real seed deals the real piles
            # the undo records up to here hold the real piles: undo_action rewrites them
            new._sampled_past = len(self._stack)
        return new

    def _past_info(self: "FibonacciState", info: tuple, index: int) -> tuple:
        """Undo record ``index``'s (piles, generator state, reveals, card) as a determinization
        undoes it (``self``: the position just after it, piles consistent with the sample), so
        that undoing never returns to the real hidden orders. A pile then was the cards its side
        revealed since, in order, then the pile now — or only those cards if it ran out in
        between (its length is public). The generator is the present one unless a pile was
        reshuffled since; then a value drawn from the sample's own."""
        piles_then, _, nrev, card = info
        later = self.revealed[nrev:]
        piles = []
        reshuffled = False
        for side, pile in enumerate(piles_then):
            shown = tuple(v for s, _, v in later if s == side)
            if len(shown) >= len(pile):
                piles.append(shown[:len(pile)])
                reshuffled = reshuffled or len(shown) > len(pile)
            else:
                piles.append(shown + self.piles[side])
        rng = self.rng_state
        if reshuffled:
            rng = random.Random(self.rng_state ^ index).getrandbits(64)
        return ((piles[0], piles[1]), rng, nrev, card)


__all__ = ["FibonacciInformation"]
