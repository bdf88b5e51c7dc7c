"""Research interop: every abstracta game in OpenSpiel, PettingZoo and Gymnasium (issue 19).

The three adapters share one wrapper, :mod:`abstracta.interop.core`: an
:class:`~abstracta.interop.core.InteropGame` around any registered game (read through its
description and the spine only, so third-party games work too) that adds

* the **layout chance node** (explicit chance, the default): a game with randomness starts at
  one chance node over K layout seeds (``layout_seeds``, default 100); outcome ``k`` is the
  game dealt or laid out with seed ``k``, exactly as ``abstracta play --option seed=k``; after
  it, card draws and pile reveals are chance nodes with their real distributions
  (``State.set_explicit_chance``). ``chance="seeded"`` instead plays the game seeded with the
  ``seed`` parameter (0 unless given; explicit chance refuses any seed, 0 included), whose engine resolves chance itself: one fixed deal or layout, so
  OpenSpiel sees a deterministic game (its sampled-stochastic mode would need the generator
  state through ``GetRNGState``, which Python games cannot provide);
* **truncation** at ``max_turns`` player actions (chance outcomes are not counted): 0 means
  "the rules' own bound" and is the default where the rules have one
  (``Game.max_game_length()``); for a game without one (Slide Checkers: an exchange converts a
  piece and every jump resets its 100-turn counter) the default is
  :data:`~abstracta.interop.core.DEFAULT_MAX_TURNS` = 1,000. A truncated game ends with
  returns 0 for every seat;
* **compact actions** (``actions="compact"``, the default): a game that registers an
  :class:`~abstracta.core.actions.ActionCodec` (Slide Checkers) is played in its parts — a
  move is "pick the piece", then "where to" — so its action space is small (2,737 ids instead
  of 352,945); ``actions="engine"`` keeps the engine's ids. Other games are the same either way;
* **tensors written in place**: observations are ``float32`` arrays written through the game's
  :class:`~abstracta.core.tensors.TensorSpec` (and the codec's planes, which show a pending
  pick); the environments keep one :class:`~abstracta.core.tensors.TensorBuffer` per seat.

Import :mod:`abstracta.interop.openspiel` (extra ``[openspiel]``),
:mod:`abstracta.interop.pettingzoo` (``[pettingzoo]``) or :mod:`abstracta.interop.gym`
(``[gym]``); this package itself needs none of them.
"""

from .core import DEFAULT_LAYOUT_SEEDS, DEFAULT_MAX_TURNS, InteropGame, InteropState, variant_options

__all__ = ["DEFAULT_LAYOUT_SEEDS", "DEFAULT_MAX_TURNS", "InteropGame", "InteropState", "variant_options"]
