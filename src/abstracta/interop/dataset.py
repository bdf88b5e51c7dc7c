"""Self-play games as training data in Parquet (``abstracta dataset``; extra ``[dataset]``; issue 45).

``write_dataset("nibble", games=100, bots=["level:3", "level:3"], seed=1, out="data/")`` plays
``games`` games between the bots (seat ``i`` is ``bots[i]``) and writes one row per decision,
in files ``games-<first>-<last>.parquet`` of at most ``games_per_file`` games, and
``_dataset.json`` beside them (its name begins with ``_``, so Parquet readers of the
directory pass it by; the game, its options, the bots, the seed, the planes, the
schema). The same arguments write the same rows (``reproducible`` in ``_dataset.json`` says
whether every bot plays by a fixed budget: levels 3–6 do, at :data:`~abstracta.ai.levels.FIXED_BUDGETS`;
a spec with seconds does not).

A row is one decision of the player to move, in the action space of the research adapters (the
engine's ids; Slide Checkers' compact parts, one row per part, :mod:`abstracta.core.actions`):

==============  ===============================  ================================================
column          type                             what
==============  ===============================  ================================================
game_id         int64                            the game's index, 0 … games − 1
game_seed       uint64                           its seed (the layout or deal, the bots' seeds)
ply             int32                            decisions before this one in the game
move_number     int32                            engine actions of the players before this one
player          int8                             the seat to move (side to move)
observation     fixed_size_list<float32>[O]      ``State.observation_tensor(player)`` (with the
                                                 pending part's plane), laid out by ``planes``
legal_mask      fixed_size_list<bool>[A]         true at the legal actions
policy          fixed_size_list<float32>[A]      the target: the share of the root's visits of an
                                                 MCTS / IS-MCTS bot (over the parts: the share of
                                                 the engine actions each part leads to); one-hot
                                                 on the choice of a bot that searches otherwise
                                                 (alpha-beta, greedy); uniform over the legal
                                                 actions for one that does not search (random)
action          int32                            the action (part) played
returns         fixed_size_list<float32>[N]      every seat's return at the end (+1, −1, 0; all 0
                                                 when the game was cut at ``max_turns``)
value           float32                          ``returns[player]``: the mover's final return
search_value    float32                          the search's own value of the position for the
                                                 mover, in [−1, 1]: alpha-beta's root value (a
                                                 proved result as ±1), MCTS's mean return of its
                                                 most visited action; null (NaN in pandas) where
                                                 the bot did not search (random, greedy, one
                                                 legal action, an oracle's answer)
features        fixed_size_list<float32>[F]      only for a game that declares a learned value
                                                 (``GameDescription.learned``): its features of
                                                 the position from the mover's view, named in
                                                 ``_dataset.json``'s ``features``
==============  ===============================  ================================================

``O`` = observation size, ``A`` = actions, ``N`` = players. Read it with ``pandas.read_parquet(DIR)``
or ``datasets.load_dataset("parquet", data_dir=DIR)``.
"""

from __future__ import annotations

import json
import math
import random
import time
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from ..ai.alphabeta import WIN_THRESHOLD
from ..ai.levels import FIXED_BUDGETS, fixed_level_bot, is_reproducible, make_bot, parse_seat_spec
from ..ai.random_bot import RandomBot
from ..core.errors import OptionError
from ..executors import map_unordered
from .core import InteropGame, InteropState, resolve_chance

#: Version of the row layout above (``_dataset.json``'s ``schema_version``).
SCHEMA_VERSION = 2
#: The seeds of the games: game ``i`` of seed ``s`` is played from ``game_seed(s, i)``.
_SEED_MASK = 2**64 - 1


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a dataset of seed ``seed`` (SplitMix64-like mixing, so
    that neighbouring games are unrelated)."""
    z = (seed * 0x9E3779B97F4A7C15 + index + 1) & _SEED_MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _SEED_MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _SEED_MASK
    return z ^ (z >> 31)


def make_dataset_bot(spec: str, game: Any, seed: int) -> Any:
    """The bot of seat spec ``spec``, levels 3–6 at their fixed budgets (reproducible)."""
    canonical = parse_seat_spec(spec, game)
    if canonical.startswith("level:") and int(canonical[6:]) in FIXED_BUDGETS:
        return fixed_level_bot(game, int(canonical[6:]), seed)
    bot = make_bot(spec, game, seed)
    if bot is None:
        raise OptionError(f"bot {spec!r}: a dataset is played by bots (human plays no seat here)")
    return bot


def _visits(bot: Any) -> dict[int, float] | None:
    """The root visits of an MCTS-like bot's last search, or ``None``."""
    for holder in (bot, getattr(bot, "inner", None)):
        root = getattr(holder, "root", None)
        if root is not None:
            children = root.children.values() if isinstance(root.children, dict) else root.children
            return {c.action: float(c.visits) for c in children if c.visits}
    return None


def _forget_root(bot: Any) -> None:
    for holder in (bot, getattr(bot, "inner", None)):
        if holder is not None and hasattr(holder, "root"):
            holder.root = None  # an oracle's answer leaves the last search's root behind otherwise
        if holder is not None and hasattr(holder, "nodes"):
            holder.nodes = 0  # and alpha-beta's last value (it sets nodes again when it searches)


def search_value(bot: Any) -> float:
    """The value of the position the bot just searched for the mover, in [−1, 1], or NaN where
    it did not search (``search_value`` in the module docstring)."""
    for holder in (bot, getattr(bot, "inner", None)):
        if holder is None:
            continue
        root = getattr(holder, "root", None)
        if root is not None:
            children = list(root.children.values() if isinstance(root.children, dict) else root.children)
            best = max(children, key=lambda c: c.visits, default=None)
            if best is not None and best.visits:
                return max(-1.0, min(1.0, best.value / best.visits))  # sums of the root mover's returns
        if getattr(holder, "nodes", 0) and hasattr(holder, "depth") and isinstance(getattr(holder, "value", None), float):
            value = holder.value  # alpha-beta: the mover's, WIN-scaled where proved
            if abs(value) >= WIN_THRESHOLD:
                return 1.0 if value > 0 else -1.0
            return max(-1.0, min(1.0, value))
    return math.nan


def _targets(state: InteropState, bot: Any, action: int) -> dict[int, float]:
    """The policy target over engine actions (see the module docstring)."""
    legal = state.inner.legal_actions()  # type: ignore[union-attr]
    visits = _visits(bot)
    if visits:
        shares = {a: visits.get(a, 0.0) for a in legal}
        total = sum(shares.values())
        if total > 0:
            return {a: v / total for a, v in shares.items() if v}
    if isinstance(bot, RandomBot):
        return {a: 1.0 / len(legal) for a in legal}
    return {action: 1.0}


def _part_policy(state: InteropState, targets: dict[int, float]) -> dict[int, float]:
    """The engine-action targets as a distribution over the next part (codec), or as they are."""
    codec = state.game.codec
    if codec is None:
        return targets
    node = state.choices()
    out: dict[int, float] = {}

    def leaves(sub: Any) -> float:
        if isinstance(sub, int):
            return targets.get(sub, 0.0)
        if not isinstance(sub, dict):  # a branch not built yet
            sub = codec.expand(state.inner, sub)
        return sum(leaves(s) for s in sub.values())

    for part, sub in node.items():
        share = leaves(sub)
        if share:
            out[part] = share
    total = sum(out.values())
    return {p: v / total for p, v in out.items()}


def play_game(name: str, params: dict[str, Any], specs: Sequence[str], seed: int, index: int,
              opening: int = 0) -> dict[str, Any]:
    """Play game ``index`` of the dataset; returns its rows as columns (lists). The first
    ``opening`` decisions are random legal actions (seeded by the game's seed) and write no
    rows: searches at a fixed depth would otherwise replay nearly one game."""
    game = InteropGame(name, **params)
    gseed = game_seed(seed, index)
    rng = random.Random(gseed)
    bots = [make_dataset_bot(spec, game.game, rng.getrandbits(32)) for spec in specs]
    state = game.new_initial_state()
    opener = random.Random(f"opening:{gseed}")
    for _ in range(opening):
        resolve_chance(state, rng)
        if state.current_player() < 0:
            break
        state.apply_action(opener.choice(sorted(state.legal_ids())))
    size = game.num_distinct_actions
    learned = game.game.description.learned
    cols: dict[str, list] = {k: [] for k in ("ply", "move_number", "player", "observation", "legal_mask", "policy",
                                            "action", "search_value", "features")}
    ply = 0
    while True:
        resolve_chance(state, rng)
        mover = state.current_player()
        if mover < 0:
            break
        bot = bots[mover]
        _forget_root(bot)
        view = state.inner if isinstance(bot, RandomBot) and not game.explicit_chance else state.bot_view()
        engine_action = bot.step(view)
        targets = _targets(state, bot, engine_action)
        searched = search_value(bot)
        parts = game.codec.encode(state.inner, engine_action) if game.codec is not None else (engine_action,)
        for part in parts:
            mask = np.zeros(size, np.bool_)
            mask[list(state.legal_ids())] = True
            policy = np.zeros(size, np.float32)
            for a, p in _part_policy(state, targets).items():
                policy[a] = p
            cols["ply"].append(ply)
            cols["move_number"].append(state.move_number)
            cols["player"].append(mover)
            cols["observation"].append(state.observation_tensor(mover))
            cols["legal_mask"].append(mask)
            cols["policy"].append(policy)
            cols["action"].append(part)
            cols["search_value"].append(None if math.isnan(searched) else searched)
            if learned is not None:
                cols["features"].append(np.asarray(learned.features(state.inner, mover), np.float32))
            searched = math.nan  # the next part of the same turn: no search of its own
            state.apply_action(part)  # the next part's targets: the engine actions below this one
            ply += 1
    returns = [float(r) for r in state.returns()]
    if learned is None:
        del cols["features"]
    rows = len(cols["ply"])
    cols["game_id"] = [index] * rows
    cols["game_seed"] = [gseed] * rows
    cols["returns"] = [returns] * rows
    cols["value"] = [returns[p] for p in cols["player"]]
    return cols


def _job(shared: tuple, index: int) -> dict[str, Any]:
    name, params, specs, seed, opening = shared
    return play_game(name, params, specs, seed, index, opening)


def _schema(game: InteropGame) -> Any:
    import pyarrow as pa

    learned = game.game.description.learned
    more = [("features", pa.list_(pa.float32(), len(learned.names)))] if learned is not None else []
    return pa.schema([
        ("game_id", pa.int64()), ("game_seed", pa.uint64()), ("ply", pa.int32()), ("move_number", pa.int32()),
        ("player", pa.int8()),
        ("observation", pa.list_(pa.float32(), game.observation_size)),
        ("legal_mask", pa.list_(pa.bool_(), game.num_distinct_actions)),
        ("policy", pa.list_(pa.float32(), game.num_distinct_actions)),
        ("action", pa.int32()),
        ("returns", pa.list_(pa.float32(), game.num_players)),
        ("value", pa.float32()),
        ("search_value", pa.float32()),
        *more,
    ])


def _table(cols: dict[str, list], schema: Any) -> Any:
    import pyarrow as pa

    arrays = []
    for field in schema:
        values = cols[field.name]
        if pa.types.is_fixed_size_list(field.type):
            width = field.type.list_size
            flat = np.concatenate([np.asarray(v) for v in values]) if values else np.zeros(0)
            inner = pa.array(flat.astype(field.type.value_type.to_pandas_dtype()), type=field.type.value_type)
            arrays.append(pa.FixedSizeListArray.from_arrays(inner, width))
        else:
            arrays.append(pa.array(values, type=field.type))
    return pa.Table.from_arrays(arrays, schema=schema)


def write_dataset(name: str, games: int, bots: Sequence[str], seed: int, out: str | Path, *,
                  executor: str = "serial", workers: int | None = None, ray_address: str | None = None,
                  games_per_file: int = 1000, progress: Callable[[int], None] | None = None,
                  opening: int = 0, **params: Any) -> dict[str, Any]:
    """Play and write the dataset (see the module docstring); returns what ``_dataset.json`` says.

    Args:
        name: a registered game; ``params`` its options and the adapters' parameters
            (:class:`~abstracta.interop.core.InteropGame`: ``max_turns``, ``actions`` …).
        games: how many games (≥ 1). bots: one seat spec per seat. seed: any integer ≥ 0.
        out: the directory (made if missing; files of an earlier dataset there are replaced).
        executor, workers, ray_address: as :func:`abstracta.executors.map_unordered`.
        progress: called with the number of games done after each one.
        opening: random actions that open every game, without rows (:func:`play_game`).
    Raises:
        OptionError: a bad game option, bot spec or count. ImportError: without ``pyarrow``
        (``pip install 'abstracta[dataset]'``).
    """
    try:
        import pyarrow.parquet as pq
    except ImportError as exc:  # pragma: no cover - the extra is missing
        raise ImportError("abstracta dataset writes Parquet with pyarrow: pip install 'abstracta[dataset]'") from exc
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise OptionError(f"games: expected an integer >= 1, got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise OptionError(f"seed: expected an integer from 0 to 2**64 - 1, got {seed!r}")
    if isinstance(opening, bool) or not isinstance(opening, int) or opening < 0:
        raise OptionError(f"opening: expected an integer >= 0 (random actions), got {opening!r}")
    params = dict(params)
    params.setdefault("layout_seeds", 2**63)
    game = InteropGame(name, **params)
    if len(bots) != game.num_players:
        raise OptionError(f"bots: {name} has {game.num_players} seats, {len(bots)} bot(s) given ({', '.join(bots)})")
    made = []
    for spec in bots:
        try:
            made.append(make_dataset_bot(spec, game.game, 0))
        except ValueError as exc:
            raise OptionError(f"bot {spec!r}: {exc}") from None
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("games-*.parquet"):
        old.unlink()
    schema = _schema(game)
    params = game.params()
    pending: dict[int, dict[str, list]] = {}
    files: list[str] = []
    written = [0]
    rows = [0]

    def flush(first: int, last: int) -> None:
        cols: dict[str, list] = {f.name: [] for f in schema}
        for i in range(first, last + 1):
            for k, v in pending.pop(i).items():
                cols[k].extend(v)
        path = folder / f"games-{first:06d}-{last:06d}.parquet"
        table = _table(cols, schema).replace_schema_metadata({"abstracta": json.dumps(meta)})
        pq.write_table(table, path, compression="zstd")
        files.append(path.name)
        rows[0] += table.num_rows

    meta = {"schema_version": SCHEMA_VERSION, "game": game.name, "params": params, "bots": list(bots), "seed": seed,
            "opening": opening,
            "games": games, "num_players": game.num_players, "num_actions": game.num_distinct_actions,
            "observation_size": game.observation_size,
            "planes": [{"name": p.name, "shape": list(p.shape), "doc": p.doc} for p in game.observation_planes],
            "action_space": "compact" if game.codec is not None else "engine",
            "features": list(game.game.description.learned.names) if game.game.description.learned else None,
            "reproducible": all(is_reproducible(b) for b in made)}

    def done(index: int, cols: dict[str, list]) -> None:
        pending[index] = cols
        written[0] += 1
        # files in game order, each as soon as its games are all in
        while True:
            first = len(files) * games_per_file
            last = min(first + games_per_file, games) - 1
            if first >= games or any(i not in pending for i in range(first, last + 1)):
                break
            flush(first, last)
        if progress is not None:
            progress(written[0])

    started = time.perf_counter()
    map_unordered(_job, list(range(games)), executor=executor, workers=workers, ray_address=ray_address,
                  on_done=done, shared=(game.name, params, tuple(bots), seed, opening))
    meta.update({"files": files, "rows": rows[0], "seconds": round(time.perf_counter() - started, 1),
                 "executor": executor})
    (folder / "_dataset.json").write_text(json.dumps(meta, indent=2) + "\n")
    return meta


__all__ = ["SCHEMA_VERSION", "game_seed", "play_game", "search_value", "write_dataset"]
