"""A value learned by self-play, evaluated in NumPy (issue 47).

A game that has one declares a :class:`LearnedValue` (``GameDescription.learned``): its
feature function — ``features(state, player) -> tuple[float, ...]`` of a running position
from ``player``'s view, numbers the game's own package computes (material, threats, progress
to a win …) — and the weights file beside it in the game's package (``learned.npz``, written
by ``abstracta learn``, :mod:`abstracta.ai.learn`).

The model is a small multilayer perceptron with one hidden layer of ``H`` tanh units (``H`` = 0:
a linear model) over the standardised features::

    x = (f − mean) / std                        f: F features
    h = tanh(W1 · x + b1)                       W1: H × F, b1: H          (skipped when H = 0)
    v = clamp(tanh(w2 · h + b2), ±LIMIT)        w2: H (F when H = 0), b2: scalar

``v`` is the position's value in (−1, 1) for ``player``; a terminal position gives its result.
Only NumPy is needed to play (no deep-learning library); the weights are read the first time
the value is asked for (:attr:`LearnedValue.loaded`), not when the game is described, so a
game that never searches never reads them.

The ``.npz`` holds float64 arrays ``mean``, ``std``, ``w1``, ``b1``, ``w2``, ``b2``, the
feature names ``names`` (unicode array, checked against the game's at load) and ``meta`` (a
JSON text: how the weights were trained — command, data, loss, seconds).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from .game import State

#: The value of a running position stays inside ±LIMIT, so a real result always ranks above it
#: (as the hand-written evaluators).
LIMIT = 0.95
WEIGHTS_FILE = "learned.npz"
#: The arrays of a weights file.
ARRAYS = ("mean", "std", "w1", "b1", "w2", "b2")


class WeightsError(ValueError):
    """A weights file that does not fit its game's features (names, shapes)."""


def forward(params: dict[str, np.ndarray], features: np.ndarray) -> np.ndarray:
    """The model's values for a batch: ``features`` of shape (N, F) → values of shape (N,), in
    ±:data:`LIMIT` (the module docstring's formula, raw weights: training and tests use it)."""
    x = (np.asarray(features, dtype=np.float64) - params["mean"]) / params["std"]
    if params["w1"].size:
        x = np.tanh(x @ params["w1"].T + params["b1"])
    return np.clip(np.tanh(x @ params["w2"] + params["b2"]), -LIMIT, LIMIT)


def save_weights(path: str | Path, params: dict[str, np.ndarray], names: Sequence[str], meta: dict[str, Any]) -> None:
    """Write ``params`` (:data:`ARRAYS`), the feature ``names`` and ``meta`` to ``path`` (.npz)."""
    arrays = {k: np.asarray(params[k], dtype=np.float64) for k in ARRAYS}
    np.savez_compressed(path, names=np.array(list(names), dtype=np.str_), meta=np.array(json.dumps(meta)), **arrays)


def load_weights(source: Any, names: Sequence[str]) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """(params, meta) of a weights file (a path or an open binary file).

    Raises:
        WeightsError: its feature names differ from ``names`` or its arrays do not fit them.
    """
    with np.load(source, allow_pickle=False) as data:
        stored = [str(n) for n in data["names"]]
        if stored != list(names):
            raise WeightsError(f"weights for features {stored}, the game computes {list(names)}")
        params = {k: np.array(data[k], dtype=np.float64) for k in ARRAYS}
        meta = json.loads(str(data["meta"]))
    f = len(names)
    hidden = params["w1"].shape[0] if params["w1"].size else 0
    shapes = {"mean": (f,), "std": (f,), "w1": (hidden, f) if hidden else params["w1"].shape,
              "b1": (hidden,) if hidden else params["b1"].shape, "w2": (hidden or f,), "b2": ()}
    for k, shape in shapes.items():
        if params[k].shape != shape:
            raise WeightsError(f"weights array {k!r} has shape {params[k].shape}, expected {shape}")
    if not all(np.isfinite(params[k]).all() for k in ARRAYS) or (params["std"] <= 0).any():
        raise WeightsError("weights must be finite, and every std above 0")
    return params, meta


class LearnedValue:
    """A game's learned value (module docstring): an evaluator ``value(state, player)``.

    Args:
        features: ``features(state, player) -> tuple[float, ...]`` of a running position.
        names: one short name per feature (the weights file must name the same).
        package: the game's package (``__package__``), where :data:`WEIGHTS_FILE` lies.
        filename: the weights file's name in it.
        kept: the game's levels play it, because ``benchmarks/learned.py`` accepted it over the
            game's own evaluator (the analysis board shows only a kept value); ``False``: it is
            declared for training and measuring only.

    Attributes:
        loaded: whether the weights have been read (the first evaluation reads them).
    """

    def __init__(self, features: Callable[["State", int], Sequence[float]], names: Sequence[str], package: str,
                 filename: str = WEIGHTS_FILE, kept: bool = False):
        self.features = features
        self.names = tuple(names)
        self.package = package
        self.filename = filename
        self.kept = kept
        self._model: tuple[np.ndarray, np.ndarray, np.ndarray, float] | None = None
        self._meta: dict[str, Any] | None = None

    def __reduce__(self) -> tuple:
        # a bot that holds the value travels to other processes (Ray) without its weights
        return LearnedValue, (self.features, self.names, self.package, self.filename, self.kept)

    def __repr__(self) -> str:
        return f"LearnedValue({self.package}/{self.filename}, {len(self.names)} features)"

    # ---------------------------------------------------------------- weights
    def path(self) -> Any:
        """The weights file (an ``importlib.resources`` traversable)."""
        return resources.files(self.package).joinpath(self.filename)

    def available(self) -> bool:
        """Whether the weights file is there (``abstracta learn`` writes it)."""
        return self.path().is_file()

    @property
    def loaded(self) -> bool:
        return self._model is not None

    @property
    def reads(self) -> str:
        """What the value reads outside its code, for level fingerprints: the weights file's
        name and the first 12 hex digits of its SHA-256 (new weights are another player)."""
        try:
            digest = hashlib.sha256(self.path().read_bytes()).hexdigest()[:12]
        except OSError:
            digest = "missing"
        return f"{self.filename}:{digest}"

    @property
    def meta(self) -> dict[str, Any]:
        """How the weights were trained (the file's ``meta``; reads the weights)."""
        self._load()
        assert self._meta is not None
        return self._meta

    def _load(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
        if self._model is None:
            with self.path().open("rb") as handle:
                params, meta = load_weights(handle, self.names)
            # the standardisation folded into the first layer: one product an evaluation
            w1, b1, w2, b2 = params["w1"], params["b1"], params["w2"], float(params["b2"])
            scale = 1.0 / params["std"]
            if w1.size:
                w1 = w1 * scale
                b1 = b1 - w1 @ params["mean"]
            else:  # linear: w2 reads the features
                w2 = w2 * scale
                b2 = b2 - float(w2 @ params["mean"])
            self._meta = meta
            self._model = (np.ascontiguousarray(w1), b1, w2, b2)
        return self._model

    # ---------------------------------------------------------------- evaluation
    def evaluate(self, state: "State", player: int) -> float:
        """The value of ``state`` for ``player`` in [−1, 1]: the result at the end, else the
        model's value in ±:data:`LIMIT`. Reads the weights the first time (``OSError`` where
        the file is missing, :class:`WeightsError` where it does not fit).

        The model learned from the mover's view only (every dataset row is the mover's), so
        with two players the other seat's value is minus the mover's (the game is zero-sum):
        read from the waiting seat's own view, features the training never saw (``to_move``
        −1 …) gave values with which a greedy search lost 23 games of 24 (docs: strength.md).
        """
        if state.is_terminal():
            return float(state.returns()[player])
        mover = state.current_player()
        if mover >= 0 and mover != player and state.num_players == 2:
            return -self.evaluate(state, mover)
        w1, b1, w2, b2 = self._model or self._load()
        x = np.array(self.features(state, player), dtype=np.float64)
        if w1.size:
            x = np.tanh(w1 @ x + b1)
        z = float(w2 @ x) + b2
        v = float(np.tanh(z))
        return LIMIT if v > LIMIT else -LIMIT if v < -LIMIT else v

    __call__ = evaluate

    # ---------------------------------------------------------------- levels
    def play_at(self, levels: dict[int, Any], which: Sequence[int]) -> None:
        """Where the value is :attr:`kept`, levels ``which`` of ``levels`` (level -> its
        :class:`~abstracta.core.description.Search`, as ``standard_levels`` makes them) read it
        instead of their evaluator, their budgets unchanged; otherwise they stay as they are."""
        if self.kept:
            for level in which:
                levels[level] = replace(levels[level], evaluator=self.evaluate)


__all__ = ["ARRAYS", "LIMIT", "LearnedValue", "WEIGHTS_FILE", "WeightsError", "forward", "load_weights",
           "save_weights"]
