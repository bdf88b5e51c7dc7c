"""Learning a game's value from its levels' self-play (``abstracta learn``, issue 47).

One command, three steps:

1. **Self-play data** through the dataset format (:func:`abstracta.interop.dataset.write_dataset`):
   games between levels at their fixed budgets (reproducible by seed; ``--executor ray``
   plays them as Ray tasks), each opened by a few seeded random actions. A folder that already
   holds the dataset these arguments write is read, not played again. Every row carries
   the game's value features of the position (``features``), the search's own value of it
   (``search_value``: alpha-beta's root value at its fixed depth) and the game's result for
   the mover (``value``).
2. **Training** (NumPy only, full-batch Adam): the model of :mod:`abstracta.core.learned`
   fitted by mean squared error to ``mix · search_value + (1 − mix) · value`` (the search's
   value where it searched, else the result alone) — the search's value teaches what a few
   actions deeper look like, the result anchors it to who wins. The games are split 90/10 by
   game (seeded); the weights of the epoch with the lowest held-out loss are kept.
3. **Writing** the weights file (``learned.npz`` in the game's package by default) with how it
   was made (``meta``: the data, the command's arguments, losses, seconds).

Whether the learned value plays better is not decided here: ``benchmarks/learned.py`` plays it
against the hand-tuned evaluator at equal positions searched per action (:func:`play_pair`),
with a sequential probability ratio test.
"""

from __future__ import annotations

import json
import math
import random
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from ..core.errors import OptionError
from ..core.game import Game
from ..core.learned import ARRAYS, LearnedValue, forward, save_weights
from ..core.registry import load_game
from ..executors import map_unordered
from ..interop.core import InteropGame
from ..interop.dataset import SCHEMA_VERSION, write_dataset
from .alphabeta import MAX_DEPTH, AlphaBetaBot
from .base import Budget
from .levels import level_bot, level_search
from .match import bot_seed, max_actions_for, play_game
from .tournament import lone_score, random_opening

#: Defaults of ``abstracta learn``.
DEFAULT_BOTS = ("level:4", "level:4")
DEFAULT_OPENING = 6
DEFAULT_HIDDEN = 16
DEFAULT_MIX = 0.5
DEFAULT_EPOCHS = 600
DEFAULT_L2 = 1e-4
#: Plies at the start of a game left out of training (after the opening: few, and alike).
DEFAULT_SKIP = 0


def learned_value(game: Game) -> LearnedValue:
    """The game's :class:`LearnedValue` (``GameDescription.learned``).

    Raises:
        OptionError: the game (with these options) declares none.
    """
    learned = game.description.learned
    if learned is None:
        raise OptionError(f"{game.name} ({_options_text(game)}) declares no learned value "
                          "(GameDescription.learned)")
    return learned


def _options_text(game: Game) -> str:
    options = game.non_default_options() if hasattr(game, "non_default_options") else {}
    return ", ".join(f"{k}={v}" for k, v in options.items()) or "default options"


# --------------------------------------------------------------------------- data
def read_rows(folders: Sequence[str | Path], names: Sequence[str]) -> dict[str, np.ndarray]:
    """The training columns of the datasets in ``folders``: ``features`` (N, F) float64,
    ``value`` (N,), ``search_value`` (N,; NaN where the bot did not search), ``game`` (N,) a
    game key unique across the folders.

    Raises:
        OptionError: a folder that holds no dataset, or one written with other features.
    """
    import json

    import pyarrow.parquet as pq

    feats, values, searched, games = [], [], [], []
    for k, folder in enumerate(folders):
        folder = Path(folder)
        meta_path = folder / "_dataset.json"
        if not meta_path.is_file():
            raise OptionError(f"{folder}: no dataset there (_dataset.json is missing)")
        meta = json.loads(meta_path.read_text())
        if meta.get("features") != list(names):
            raise OptionError(f"{folder}: its rows carry features {meta.get('features')}, not {list(names)}")
        for name in meta["files"]:
            table = pq.read_table(folder / name, columns=["game_id", "value", "search_value", "features"])
            width = len(names)
            flat = table.column("features").combine_chunks().flatten().to_numpy(zero_copy_only=False)
            feats.append(flat.reshape(-1, width).astype(np.float64))
            values.append(table.column("value").to_numpy().astype(np.float64))
            searched.append(table.column("search_value").to_numpy(zero_copy_only=False).astype(np.float64))
            games.append(table.column("game_id").to_numpy().astype(np.int64) * len(folders) + k)
    if not feats:
        raise OptionError("no rows to learn from")
    return {"features": np.concatenate(feats), "value": np.concatenate(values),
            "search_value": np.concatenate(searched), "game": np.concatenate(games)}


def targets(value: np.ndarray, search_value: np.ndarray, mix: float) -> np.ndarray:
    """``mix · search_value + (1 − mix) · value`` row by row; the result alone where the search
    value is NaN (the bot did not search there)."""
    searched = np.where(np.isnan(search_value), value, search_value)
    return mix * searched + (1.0 - mix) * value


def _same_dataset(game: Game, folder: str | Path, games: int, bots: Sequence[str], seed: int, opening: int,
                  names: Sequence[str]) -> dict[str, Any] | None:
    """What ``_dataset.json`` in ``folder`` says where it holds the very dataset these arguments
    would write (the same game and options, bots, seed, games, opening, schema and features:
    the rows are reproducible by seed), else ``None``."""
    path = Path(folder) / "_dataset.json"
    if not path.is_file():
        return None
    meta = json.loads(path.read_text())
    params = InteropGame(game.name, layout_seeds=2**63, **game.non_default_options()).params()
    same = (meta.get("schema_version") == SCHEMA_VERSION and meta.get("game") == game.name
            and meta.get("params") == json.loads(json.dumps(params)) and meta.get("bots") == list(bots)
            and meta.get("seed") == seed and meta.get("games") == games and meta.get("opening", 0) == opening
            and meta.get("features") == list(names)
            and all((Path(folder) / f).is_file() for f in meta.get("files", ())))
    return meta if same else None


# --------------------------------------------------------------------------- training
@dataclass
class Training:
    """What :func:`train` did.

    Attributes:
        params: the weights (:data:`abstracta.core.learned.ARRAYS`).
        train_loss, held_out_loss: mean squared error of the kept weights on each part.
        baseline_loss: the held-out loss of the constant best guess (the training mean).
        epoch: the kept epoch. rows: training rows, held_out: held-out rows.
    """

    params: dict[str, np.ndarray]
    train_loss: float
    held_out_loss: float
    baseline_loss: float
    epoch: int
    rows: int
    held_out: int


def init_params(features: int, hidden: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Small random weights (Glorot-uniform first layer, zero output) for ``features`` inputs."""
    if hidden:
        bound = math.sqrt(6.0 / (features + hidden))
        w1 = rng.uniform(-bound, bound, (hidden, features))
        w2 = rng.uniform(-0.1, 0.1, hidden)
    else:
        w1 = np.zeros((0, features))
        w2 = np.zeros(features)
    return {"w1": w1, "b1": np.zeros(hidden), "w2": w2, "b2": np.zeros(())}


def loss_and_gradient(params: dict[str, np.ndarray], x: np.ndarray, y: np.ndarray,
                      l2: float) -> tuple[float, dict[str, np.ndarray]]:
    """Mean squared error of ``tanh`` outputs against ``y`` on standardised features ``x``
    (N, F), plus ``l2 · ‖W‖²``; and its gradient with respect to w1, b1, w2, b2 (the clamp to
    ±LIMIT is left out of training: it only caps what play reads)."""
    n = len(y)
    hidden = params["w1"].size > 0
    h = np.tanh(x @ params["w1"].T + params["b1"]) if hidden else x
    out = np.tanh(h @ params["w2"] + params["b2"])
    err = out - y
    loss = float(np.mean(err * err)) + l2 * (float(np.sum(params["w1"] ** 2)) + float(np.sum(params["w2"] ** 2)))
    dz = 2.0 * err * (1.0 - out * out) / n
    grads = {"w2": h.T @ dz + 2 * l2 * params["w2"], "b2": np.asarray(dz.sum())}
    if hidden:
        dh = np.outer(dz, params["w2"]) * (1.0 - h * h)
        grads["w1"] = dh.T @ x + 2 * l2 * params["w1"]
        grads["b1"] = dh.sum(axis=0)
    else:
        grads["w1"] = np.zeros_like(params["w1"])
        grads["b1"] = np.zeros_like(params["b1"])
    return loss, grads


def train(features: np.ndarray, y: np.ndarray, game: np.ndarray, *, hidden: int = DEFAULT_HIDDEN,
          epochs: int = DEFAULT_EPOCHS, l2: float = DEFAULT_L2, seed: int = 0, rate: float = 0.01,
          held_out_share: float = 0.1) -> Training:
    """Fit the model to ``y`` (N,) from ``features`` (N, F); ``game`` (N,) groups the rows so that
    the held-out games are whole games. Deterministic for a seed.

    Raises:
        OptionError: fewer than two games, or rows with non-finite numbers.
    """
    if not (np.isfinite(features).all() and np.isfinite(y).all()):
        raise OptionError("the rows hold non-finite features or targets")
    keys = np.unique(game)
    if len(keys) < 2:
        raise OptionError(f"training needs at least two games, got {len(keys)}")
    rng = np.random.default_rng(seed)
    held = set(rng.choice(keys, max(1, int(round(held_out_share * len(keys)))), replace=False).tolist())
    test = np.isin(game, list(held))
    fit = ~test
    mean = features[fit].mean(axis=0)
    std = features[fit].std(axis=0)
    std = np.where(std > 1e-9, std, 1.0)
    x = (features - mean) / std
    params = init_params(features.shape[1], hidden, rng)
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    best = (math.inf, 0, {k: v.copy() for k, v in params.items()})
    beta1, beta2 = 0.9, 0.999
    for epoch in range(1, epochs + 1):
        _, grads = loss_and_gradient(params, x[fit], y[fit], l2)
        for k, g in grads.items():
            m, v = moments[k]
            m *= beta1
            m += (1 - beta1) * g
            v *= beta2
            v += (1 - beta2) * g * g
            params[k] = params[k] - rate * (m / (1 - beta1 ** epoch)) / (np.sqrt(v / (1 - beta2 ** epoch)) + 1e-8)
        held_loss = _mse(params, x[test], y[test])
        if held_loss < best[0]:
            best = (held_loss, epoch, {k: v.copy() for k, v in params.items()})
    held_loss, epoch, kept = best
    kept.update(mean=mean, std=std)
    baseline = float(np.mean((y[test] - y[fit].mean()) ** 2))
    return Training(kept, _mse(kept, x[fit], y[fit], standardised=True), held_loss, baseline, epoch,
                    int(fit.sum()), int(test.sum()))


def _mse(params: dict[str, np.ndarray], x: np.ndarray, y: np.ndarray, standardised: bool = True) -> float:
    p = dict(params)
    if standardised:
        p["mean"] = np.zeros(x.shape[1])
        p["std"] = np.ones(x.shape[1])
    out = np.tanh(((np.tanh(x @ p["w1"].T + p["b1"]) if p["w1"].size else x) @ p["w2"]) + p["b2"])
    return float(np.mean((out - y) ** 2))


# --------------------------------------------------------------------------- the command
def learn(game: Game, games: int, seed: int = 0, *, bots: Sequence[str] = DEFAULT_BOTS, opening: int = DEFAULT_OPENING,
          data: str | Path, extra: Sequence[str | Path] = (), out: str | Path | None = None,
          hidden: int = DEFAULT_HIDDEN, mix: float = DEFAULT_MIX, epochs: int = DEFAULT_EPOCHS, l2: float = DEFAULT_L2,
          fit_seed: int | None = None, executor: str = "serial", workers: int | None = None, ray_address: str | None = None,
          progress: Callable[[str], None] | None = None, command: str | None = None) -> dict[str, Any]:
    """Self-play ``games`` games into the dataset folder ``data``, train on it (and on the
    datasets in ``extra``) and write the weights to ``out`` (default: the game's own weights
    file). Returns the report that ``meta`` in the weights file holds (with ``command``, the
    command line that asked for it, where given). ``fit_seed`` (default ``seed``) seeds the
    training alone — which games are held out, the first weights — so that another split can be
    fitted to the same self-play (a few held-out games may be unlike the rest).

    Raises:
        OptionError: the game declares no learned value, bad counts or bots, ``mix`` outside
            [0, 1]. ImportError: without pyarrow (the dataset extra).
    """
    learned = learned_value(game)
    if not 0.0 <= mix <= 1.0 or not math.isfinite(mix):
        raise OptionError(f"mix: expected a number from 0 to 1, got {mix!r}")
    if hidden < 0 or epochs < 1:
        raise OptionError(f"hidden must be >= 0 and epochs >= 1, got {hidden} and {epochs}")
    say = progress or (lambda text: None)
    meta = _same_dataset(game, data, games, bots, seed, opening, learned.names)
    if meta is None:
        meta = write_dataset(game.name, games, list(bots), seed, data, executor=executor, workers=workers,
                             ray_address=ray_address, opening=opening, **game.non_default_options())
        say(f"self-play: {meta['rows']} rows of {games} games in {meta['seconds']:.0f} s")
    else:
        say(f"self-play: {meta['rows']} rows of {games} games already in {data} (the same arguments write "
            "the same rows), not played again")
    played = meta.get("seconds")
    rows = read_rows([data, *extra], learned.names)
    y = targets(rows["value"], rows["search_value"], mix)
    fit_started = time.perf_counter()
    fit_seed = seed if fit_seed is None else fit_seed
    result = train(rows["features"], y, rows["game"], hidden=hidden, epochs=epochs, l2=l2, seed=fit_seed)
    fitted = time.perf_counter() - fit_started
    say(f"training: {result.rows} rows, held-out loss {result.held_out_loss:.4f} (a constant: "
        f"{result.baseline_loss:.4f}), epoch {result.epoch} of {epochs}, {fitted:.0f} s")
    report = {"game": game.name, "options": {k: v for k, v in game.non_default_options().items()},
              "games": games, "seed": seed, "fit_seed": fit_seed, "bots": list(bots), "opening": opening, "extra": [str(e) for e in extra],
              "rows": result.rows + result.held_out, "hidden": hidden, "mix": mix, "epochs": epochs, "l2": l2,
              "epoch": result.epoch, "train_loss": round(result.train_loss, 5),
              "held_out_loss": round(result.held_out_loss, 5), "baseline_loss": round(result.baseline_loss, 5),
              "self_play_seconds": played, "self_play_executor": meta.get("executor"),
              "training_seconds": round(fitted, 1), "command": command}
    target = Path(out) if out is not None else Path(str(learned.path()))
    save_weights(target, result.params, learned.names, report)
    report["weights"] = str(target)
    return report


# --------------------------------------------------------------------------- equal-nodes games
@dataclass(frozen=True)
class PairTask:
    """One game of the learned value against the game's hand-tuned evaluator, both searched by
    the game's level-4 alpha-beta held to ``nodes`` positions an action — or, with ``level``,
    both playing that level's own search at its seconds (picklable: Ray).

    Attributes:
        game: registry name. options: its options as sorted pairs. index: the game's number.
        seed: the game's seed (the opening's random actions, the bots' root noise).
        learned_seat: the seat the learned value plays (the other plays the evaluator).
        nodes: positions searched per action by both sides (``None`` with ``level``).
        opening: random actions first.
        level: play level ``level``'s declared search at its budget instead (greedy, MCTS,
            alpha-beta …): whether that level gains by reading the learned value.
    """

    game: str
    options: tuple[tuple[str, Any], ...]
    index: int
    seed: int
    learned_seat: int
    nodes: int | None
    opening: int
    level: int | None = None


def pair_bots(game: Game, nodes: int | None, seed: int, learned_seat: int, level: int | None = None) -> list[Any]:
    """The two bots of a :class:`PairTask`, the learned value at ``learned_seat`` and the
    game's own evaluator (``GameDescription.evaluator``) at the other: level 4's alpha-beta (its
    turn extension …) with no time budget, held to ``nodes`` positions an action; or, with
    ``level``, that level's declared search (:func:`~abstracta.ai.levels.level_bot`) at its
    seconds.

    Raises:
        OptionError: without ``level``, level 4 is not alpha-beta; with it, ``nodes`` is given
            or the level's search reads no evaluator (random).
    """
    learned = learned_value(game)
    # (name, evaluator) of seats 0 and 1
    sides = [("learned", learned.evaluate) if seat == learned_seat else ("evaluator", game.description.evaluator)
             for seat in range(2)]
    if level is not None:
        if nodes is not None:
            raise OptionError("a level's pairing plays the level's seconds: no positions cap")
        declared = level_search(game, level)
        if declared.evaluator is None:
            raise OptionError(f"{game.name}: level {level} ({declared.bot}) reads no evaluator")
        return [level_bot(game, level, bot_seed(seed, seat), name=name, search=replace(declared, evaluator=evaluator))
                for seat, (name, evaluator) in enumerate(sides)]
    if nodes is None:
        raise OptionError("an equal-positions pairing needs nodes")
    search = level_search(game, 4)
    if search.bot != "alphabeta":
        raise OptionError(f"{game.name}: level 4 is {search.bot}, not alpha-beta: no equal-nodes pairing")
    return [AlphaBetaBot(game, Budget(depth=MAX_DEPTH), seed=bot_seed(seed, seat), evaluator=evaluator,
                         turn_extension=search.turn_extension, reductions=search.reductions, max_nodes=nodes, name=name)
            for seat, (name, evaluator) in enumerate(sides)]


def play_pair(task: PairTask) -> dict[str, Any]:
    """Play one :class:`PairTask`; returns ``{"index", "seed", "learned_seat", "score", "plies",
    "returns"}`` with the learned side's score (1 win, ½ draw or cut, 0 loss)."""
    game = load_game(task.game, **dict(task.options))
    bots = pair_bots(game, task.nodes, task.seed, task.learned_seat, task.level)
    start = game.new_initial_state(seed=task.seed if game.has_chance else None)
    after = start.clone()
    for action in random_opening(start, task.opening, task.seed):
        after.apply_action(action)
    _, actions, final, _ = play_game(game, bots, task.seed, max_actions_for(game), initial=after)
    returns = [float(r) for r in final.returns()] if final.is_terminal() else None
    return {"index": task.index, "seed": task.seed, "learned_seat": task.learned_seat,
            "score": lone_score(returns, task.learned_seat), "plies": len(actions), "returns": returns}


def pair_tasks(game: Game, start: int, count: int, nodes: int | None, opening: int, seed: int = 0,
               level: int | None = None) -> list[PairTask]:
    """Games ``start`` … ``start + count − 1`` of the pairing: game ``i`` has seed ``seed + i // 2``
    and the learned value at seat ``i % 2`` (each opening played from both seats); ``level``:
    see :class:`PairTask`."""
    options = tuple(sorted((k, v) for k, v in game.options.items() if k != "seed" and v is not None))
    return [PairTask(game.name, options, i, seed + i // 2, i % 2, nodes, opening, level)
            for i in range(start, start + count)]


def run_pairs(tasks: Sequence[PairTask], executor: str = "serial", workers: int | None = None,
              ray_address: str | None = None) -> list[dict[str, Any]]:
    """Play ``tasks`` on an executor (:func:`abstracta.executors.map_unordered`), in task order."""
    return map_unordered(play_pair, list(tasks), executor, workers, ray_address)


__all__ = ["ARRAYS", "PairTask", "Training", "forward", "learn", "learned_value", "loss_and_gradient", "pair_bots",
           "pair_tasks", "play_pair", "read_rows", "run_pairs", "targets", "train"]
