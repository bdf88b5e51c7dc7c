"""Random play through OpenSpiel, PettingZoo and Gymnasium, as a ratio to the engine (issue 45).

Each adapter loop plays uniformly random games and, at every decision, asks for what a learner
needs — the observation tensor and the legal actions:

* ``engine``: the loop of ``abstracta bench``'s random play (:func:`abstracta.bench.random_play`:
  legal actions, a uniform choice, apply, until the end) — the reference of every ratio;
* ``openspiel``: ``pyspiel.load_game("python_abstracta_<name>")``; per player decision
  ``state.observation_tensor()``, ``state.legal_actions()``, a uniform choice, ``apply_action``
  (chance outcomes sampled by their probabilities);
* ``openspiel_observer`` (shown, not a target): the same with OpenSpiel's observer API
  (``make_observation(game).set_from(state, player)``, the tensor read in place);
* ``pettingzoo``: the AEC loop of PettingZoo's documentation (``agent_iter``, ``last``, a uniform
  choice among ``np.flatnonzero(observation["action_mask"])``, ``step``);
* ``gymnasium``: ``reset``/``step`` against a random opponent, the action drawn from
  ``info["action_mask"]``;
* ``openspiel_floor``, ``pettingzoo_floor``, ``gymnasium_floor`` (not targets): each target's
  loop over a game or environment that does nothing (fixed lists and arrays, games as long as the
  real ones) — the API and the agent alone. A floor's ratio column is the **ceiling** it sets on
  any adapter of that API for that game, ``F / (F + E)`` (``F`` its speed, ``E`` the engine's),
  also shown as ``ceiling`` beside the target it bounds (``NO (floor)``: not reachable);
* ``pettingzoo_tensors``, ``gymnasium_tensors`` (not targets): the environments' game state
  (:class:`~abstracta.interop.core.InteropState`, ``apply_legal``) in the engine's random loop,
  writing at each decision what the environment hands out — the observation tensor of the
  player to move (its seat's tensor kept by differences, as the environments keep it) and the
  int8 legal mask (built as they build it) — at every decision (PettingZoo: every agent is
  observed) or at seat 0's only (Gymnasium: the agent's); no API, no agent. With ``T`` its speed,
  ``F`` the floor's and ``E`` the engine's, an environment runs both loops' work, so it cannot beat
  ``T·F / (T + F) / E`` — shown as ``bound`` beside the target (``NO (bound)``: not reachable
  with these tensors).

Like the engine's loop, which clones one start (seed 0), the adapters play one layout
(``layout_seeds=1``: Nibble's layout is seed 0's every game): drawing a layout is not timed.
Speeds are the game's engine actions per second (the opponent's in Gymnasium too: every action
of the game is played through the environment; Slide Checkers' compact actions take two parts per
move, counted as one action). Every loop is timed by this process's CPU time
(``time.process_time``; the engine's too: ``random_play(..., clock=time.process_time)``), so that
other work on the machine does not count; the loops run in turns — ``--rounds`` rounds of
``--seconds`` each — and a ratio is the median over the rounds of (adapter / engine in that
round), a speed (actions per CPU second) the median over the rounds.

    python benchmarks/interop_speed.py                # the table
    python benchmarks/interop_speed.py --json         # …then the rows, then the ratios (last line)
    python benchmarks/interop_speed.py --out benchmarks/results/interop_speed.json   # for the docs

The last line of ``--json`` is exactly ``{"ratios": {"fanorona": {"openspiel": r, "pettingzoo": r,
"gymnasium": r}, "nibble": {…}, "slide-checkers": {"pettingzoo": r}}}``; the line before it holds
every row with its speed. Targets (issue 45): OpenSpiel ≥ 0.3, PettingZoo ≥ 0.5, Gymnasium ≥ 0.5 on
Fanorona and Nibble; PettingZoo ≥ 0.3 on Slide Checkers.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from functools import partial
from typing import Callable

import numpy as np

from abstracta.bench import random_play
from abstracta.core.registry import load_game

#: game -> the adapters whose ratios are targets (issue 45), with the target
TARGETS: dict[str, dict[str, float]] = {
    "fanorona": {"openspiel": 0.3, "pettingzoo": 0.5, "gymnasium": 0.5},
    "nibble": {"openspiel": 0.3, "pettingzoo": 0.5, "gymnasium": 0.5},
    "slide-checkers": {"pettingzoo": 0.3},
}
#: the loops shown beside the targets
SHOWN: dict[str, tuple[str, ...]] = {"fanorona": ("openspiel_observer",), "nibble": ("openspiel_observer",)}


#: Every loop is timed by this process's CPU time: on a machine shared with other work the
#: wall clock counts their time too (a run once saw a tenth of a core), the CPU clock only ours.
CLOCK = time.process_time


def _timed(play_one: Callable[[], int], seconds: float) -> float:
    """Engine actions per CPU second of ``play_one()`` (one game, returns its actions) run for ``seconds``."""
    actions = 0
    t0 = CLOCK()
    deadline = t0 + seconds
    while True:
        actions += play_one()
        now = CLOCK()
        if now >= deadline:
            return actions / (now - t0)


def engine_loop(name: str) -> Callable[[float], float]:
    game = load_game(name)
    return lambda seconds: random_play(game, seconds, clock=CLOCK)["actions_per_s"]


def openspiel_loop(name: str, observer: bool = False) -> Callable[[float], float]:
    from open_spiel.python.observation import make_observation

    from abstracta.interop.openspiel import load

    game = load(name, layout_seeds=1)
    rng = random.Random(1)
    seen = make_observation(game) if observer else None

    def play_one() -> int:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                r, acc = rng.random(), 0.0
                for action, p in outcomes:
                    acc += p
                    if r < acc:
                        break
                state.apply_action(action)
                continue
            player = state.current_player()
            if seen is not None:
                seen.set_from(state, player)
            else:
                state.observation_tensor(player)
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
        return state.abstracta_state.move_number

    return lambda seconds: _timed(play_one, seconds)


def pettingzoo_loop(name: str) -> Callable[[float], float]:
    from abstracta.interop.pettingzoo import env as make_env

    env = make_env(name, layout_seeds=1)
    rng = random.Random(1)
    games = [0]

    def play_one() -> int:
        env.reset(seed=games[0])
        games[0] += 1
        for agent in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[int(rng.random() * len(legal))]))
        return env.state.move_number

    return lambda seconds: _timed(play_one, seconds)


def gymnasium_loop(name: str) -> Callable[[float], float]:
    from abstracta.interop.gym import make

    env = make(name, opponent="random", layout_seeds=1)
    rng = random.Random(1)
    games = [0]

    def play_one() -> int:
        observation, info = env.reset(seed=games[0])
        games[0] += 1
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            observation, reward, terminated, truncated, info = env.step(int(legal[int(rng.random() * len(legal))]))
            done = terminated or truncated
        return env.state.move_number

    return lambda seconds: _timed(play_one, seconds)


def tensors_loop(name: str, every_decision: bool) -> Callable[[float], float]:
    """The engine's loop through the environments' game state, writing the observation and the
    mask at every decision (``every_decision``) or at seat 0's (see the module docstring)."""
    from abstracta.core.game import CHANCE
    from abstracta.core.tensors import TensorBuffer
    from abstracta.interop.core import InteropGame, resolve_chance

    interop = InteropGame(name, layout_seeds=1)
    buffers = [TensorBuffer(interop.observation_layout) for _ in range(interop.num_players)]
    n = interop.num_distinct_actions
    codec = interop.codec is not None
    observation_features = interop.tensors.observation_features
    rng = random.Random(1)
    chance = random.Random(2)

    def play_one() -> int:
        state = interop.new_initial_state()
        resolve_chance(state, chance)  # the one layout
        # the features as the environments bind them (EpisodeBinding._bind)
        features = state.observation_features if codec else partial(observation_features, state.inner)
        for seat, buffer in enumerate(buffers):
            buffer.restart(features(seat))
        mover = state.current_player()
        while mover != -4:  # TERMINAL
            if mover == CHANCE:
                resolve_chance(state, chance)
                mover = state.current_player()
                continue
            legal = state.legal_ids()
            if every_decision or mover == 0:
                marks = bytearray(n)
                for a in legal:
                    marks[a] = 1
                np.frombuffer(bytes(marks), np.int8)
                buffers[mover].update(features(mover))
            if type(legal) is not list:
                legal = list(legal)
            mover = state.apply_legal(legal[int(rng.random() * len(legal))])
        return state.move_number

    return lambda seconds: _timed(play_one, seconds)


# --- floors: each adapter's loop over an environment that does nothing ----------------------------
#
# The same loop, the same calls, the same API surface — an OpenSpiel game whose states answer from
# fixed lists, an AEC environment and a Gymnasium environment that hand out copies of fixed arrays
# (a new observation each time, one read-only mask, as the real ones do) — with games as long as
# the real ones (engine actions, and the decisions each takes: Slide Checkers' compact parts, a
# Gymnasium step's opponent actions). What the API and the agent cost alone: with ``F`` the floor's
# speed and ``E`` the engine's, no adapter of that API can beat the ratio ``F / (F + E)`` (it
# runs the floor's loop and at least the engine's own work), the ceiling shown beside each target.


class Shape:
    """What a floor copies from the real adapters of one game (measured on random games, not timed):
    ``actions`` engine actions per game, ``parts`` decisions per engine action (compact actions),
    ``steps`` Gymnasium steps per game; the sizes of the observation and of the action space."""

    def __init__(self, name: str, games: int = 40):
        from abstracta.interop.core import InteropGame

        interop = InteropGame(name, layout_seeds=1)
        self.observation_size = interop.observation_size
        self.num_actions = interop.num_distinct_actions
        self.num_players = interop.num_players
        rng = random.Random(2)
        actions = parts = 0
        for _ in range(games):
            state = interop.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(state.chance_outcomes()[0][0])
                    continue
                state.apply_action(rng.choice(state.legal_actions()))
                parts += 1
            actions += state.move_number
        self.actions = actions / games
        self.parts = parts / actions
        self.steps = self._gym_steps(name, games)

    @staticmethod
    def _gym_steps(name: str, games: int) -> float:
        from abstracta.interop.gym import make

        env = make(name, opponent="random", layout_seeds=1)
        rng = random.Random(3)
        steps = 0
        for g in range(games):
            observation, info = env.reset(seed=g)
            done = False
            while not done:
                legal = np.flatnonzero(info["action_mask"])
                observation, reward, terminated, truncated, info = env.step(int(legal[rng.randrange(len(legal))]))
                done = terminated or truncated
                steps += 1
        return steps / games


_SHAPES: dict[str, Shape] = {}


def shape(name: str) -> Shape:
    if name not in _SHAPES:
        _SHAPES[name] = Shape(name)
    return _SHAPES[name]


def openspiel_floor_loop(name: str) -> Callable[[float], float]:
    """The ``openspiel`` loop over an OpenSpiel Python game whose states do nothing: a fixed
    list of legal actions, a copy of a fixed list as the observation tensor, every decision
    through OpenSpiel's C++ ``apply_action`` as the real game's."""
    import pyspiel

    sh = shape(name)
    decisions = max(1, round(sh.actions * sh.parts))
    legal = list(range(0, sh.num_actions, max(1, sh.num_actions // 10)))
    tensor = [0.0] * sh.observation_size
    game_type = pyspiel.GameType(
        short_name="python_abstracta_floor", long_name="abstracta floor",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL, chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION, utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL, max_num_players=2, min_num_players=2,
        provides_information_state_string=False, provides_information_state_tensor=False,
        provides_observation_string=False, provides_observation_tensor=True, parameter_specification={})
    game_info = pyspiel.GameInfo(num_distinct_actions=sh.num_actions, max_chance_outcomes=0, num_players=2,
                                 min_utility=-1.0, max_utility=1.0, utility_sum=0.0, max_game_length=decisions)

    class FloorGame(pyspiel.Game):
        def __init__(self) -> None:
            super().__init__(game_type, game_info, {})

        def new_initial_state(self) -> "FloorState":
            return FloorState(self)

    class FloorState(pyspiel.State):
        def __init__(self, game: pyspiel.Game) -> None:
            super().__init__(game)
            self.n = 0

        def current_player(self) -> int:
            return pyspiel.PlayerId.TERMINAL if self.n >= decisions else self.n & 1

        def is_terminal(self) -> bool:
            return self.n >= decisions

        def is_chance_node(self) -> bool:
            return False

        def legal_actions(self, player: int | None = None) -> list[int]:
            return legal

        def _legal_actions(self, player: int) -> list[int]:
            return legal

        def observation_tensor(self, player: int | None = None) -> list[float]:
            return tensor.copy()

        def _apply_action(self, action: int) -> None:
            self.n += 1

        def returns(self) -> list[float]:
            return [0.0, 0.0]

    game = FloorGame()
    rng = random.Random(1)
    per_game = decisions / sh.parts  # engine actions

    def play_one() -> float:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                continue
            player = state.current_player()
            state.observation_tensor(player)
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
        return per_game

    return lambda seconds: _timed(play_one, seconds)


def pettingzoo_floor_loop(name: str) -> Callable[[float], float]:
    """The ``pettingzoo`` loop over an AEC environment that does nothing: ``observe`` hands out
    a copy of a fixed observation and one read-only int8 mask (as the real one: a new
    observation each time, the mask shared), ``step`` passes the turn."""
    from gymnasium import spaces
    from pettingzoo import AECEnv

    sh = shape(name)
    decisions = max(1, round(sh.actions * sh.parts))
    per_game = decisions / sh.parts

    class Floor(AECEnv):
        metadata = {"name": "floor", "render_modes": []}

        def __init__(self) -> None:
            self.possible_agents = ["player_0", "player_1"]
            self.obs = np.zeros(sh.observation_size, np.float32)
            self.mask = np.zeros(sh.num_actions, np.int8)
            self.mask[::max(1, sh.num_actions // 10)] = 1
            self.mask.flags.writeable = False
            space = spaces.Dict({"observation": spaces.Box(0, 1, (sh.observation_size,), np.float32),
                                 "action_mask": spaces.Box(0, 1, (sh.num_actions,), np.int8)})
            self.observation_spaces = dict.fromkeys(self.possible_agents, space)
            self.action_spaces = {a: spaces.Discrete(sh.num_actions) for a in self.possible_agents}

        def reset(self, seed: int | None = None, options: dict | None = None) -> None:
            self.agents = self.possible_agents[:]
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos = {a: {"action_mask": self.mask} for a in self.agents}
            self.agent_selection = "player_0"
            self.moves = 0

        def observe(self, agent: str) -> dict:
            return {"observation": self.obs.copy(), "action_mask": self.mask}

        def step(self, action: int | None) -> None:
            if self.moves >= decisions:
                self._was_dead_step(action)
                return
            self.moves += 1
            if self.moves >= decisions:
                for a in self.agents:
                    self.terminations[a] = True
            self.agent_selection = "player_1" if self.agent_selection == "player_0" else "player_0"

    env = Floor()
    rng = random.Random(1)

    def play_one() -> float:
        env.reset()
        for agent in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[int(rng.random() * len(legal))]))
        return per_game

    return lambda seconds: _timed(play_one, seconds)


def gymnasium_floor_loop(name: str) -> Callable[[float], float]:
    """The ``gymnasium`` loop over an environment that does nothing: ``reset`` and ``step``
    hand out a copy of a fixed observation and a fixed mask in ``info``; an episode has as many
    steps as the real one's (each step a decision of the agent and its opponents' replies)."""
    import gymnasium
    from gymnasium import spaces

    sh = shape(name)
    steps = max(1, round(sh.steps))

    class Floor(gymnasium.Env):
        def __init__(self) -> None:
            self.observation_space = spaces.Box(0.0, 1.0, (sh.observation_size,), np.float32)
            self.action_space = spaces.Discrete(sh.num_actions)
            self.obs = np.zeros(sh.observation_size, np.float32)
            self.mask = np.zeros(sh.num_actions, np.int8)
            self.mask[::max(1, sh.num_actions // 10)] = 1

        def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple:
            super().reset(seed=seed)
            self.n = 0
            return self.obs.copy(), {"action_mask": self.mask}

        def step(self, action: int) -> tuple:
            self.n += 1
            return self.obs.copy(), 0.0, self.n >= steps, False, {"action_mask": self.mask}

    env = Floor()
    rng = random.Random(1)
    games = [0]

    def play_one() -> float:
        observation, info = env.reset(seed=games[0])
        games[0] += 1
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            observation, reward, terminated, truncated, info = env.step(int(legal[int(rng.random() * len(legal))]))
            done = terminated or truncated
        return sh.actions

    return lambda seconds: _timed(play_one, seconds)


LOOPS: dict[str, Callable[[str], Callable[[float], float]]] = {
    "engine": engine_loop,
    "openspiel": openspiel_loop,
    "openspiel_observer": lambda name: openspiel_loop(name, observer=True),
    "pettingzoo": pettingzoo_loop,
    "gymnasium": gymnasium_loop,
    "openspiel_floor": openspiel_floor_loop,
    "pettingzoo_floor": pettingzoo_floor_loop,
    "gymnasium_floor": gymnasium_floor_loop,
    "pettingzoo_tensors": lambda name: tensors_loop(name, every_decision=True),
    "gymnasium_tensors": lambda name: tensors_loop(name, every_decision=False),
}
#: adapter -> its floor loop
FLOORS = {"openspiel": "openspiel_floor", "pettingzoo": "pettingzoo_floor", "gymnasium": "gymnasium_floor"}
#: adapter -> the loop of the tensors it writes
TENSORS = {"pettingzoo": "pettingzoo_tensors", "gymnasium": "gymnasium_tensors"}


def plan(game: str) -> tuple[str, ...]:
    """The loops of ``game``: the engine, the targets, the loops shown, the targets' floors and tensors."""
    return ("engine", *TARGETS[game], *SHOWN.get(game, ()), *(FLOORS[k] for k in TARGETS[game]),
            *(TENSORS[k] for k in TARGETS[game] if k in TENSORS))


def measure(games: list[str], seconds: float, rounds: int, progress: Callable[[str], None] | None = None) -> list[dict]:
    """One row per (game, loop): median speed and median ratio to the engine over ``rounds``; a
    floor's ratio is the ceiling it sets, ``F / (F + E)``, and each target's row carries its
    floor's as ``ceiling`` and, where it writes tensors, ``T·F / (T + F) / E`` as ``bound``."""
    plans = {g: plan(g) for g in games}
    loops = {(g, k): LOOPS[k](g) for g, ks in plans.items() for k in ks}
    for run in loops.values():  # warm up (imports, tables, first games)
        run(min(0.2, seconds))
    speeds: dict[tuple[str, str], list[float]] = {key: [] for key in loops}
    ratios: dict[tuple[str, str], list[float]] = {key: [] for key in loops}
    floors = set(FLOORS.values())
    bounds: dict[tuple[str, str], list[float]] = {}
    for r in range(rounds):
        for g, ks in plans.items():
            engine = loops[(g, "engine")](seconds)
            speeds[(g, "engine")].append(engine)
            ratios[(g, "engine")].append(1.0)
            for k in ks[1:]:
                speed = loops[(g, k)](seconds)
                speeds[(g, k)].append(speed)
                ratios[(g, k)].append(speed / (speed + engine) if k in floors else speed / engine)
            for k in TARGETS[g]:
                if k in TENSORS:
                    t, f = speeds[(g, TENSORS[k])][-1], speeds[(g, FLOORS[k])][-1]
                    bounds.setdefault((g, k), []).append(t * f / (t + f) / engine)
        if progress:
            progress(f"round {r + 1}/{rounds} done")
    rows = []
    for (g, k), values in speeds.items():
        target = TARGETS[g].get(k)
        ratio = statistics.median(ratios[(g, k)])
        row = {"game": g, "loop": k, "actions_per_s": round(statistics.median(values)),
               "ratio": round(ratio, 3), "target": target, "met": None if target is None else ratio >= target,
               "ratios": [round(x, 3) for x in ratios[(g, k)]]}
        if target is not None:
            ceiling = statistics.median(ratios[(g, FLOORS[k])])
            row.update(ceiling=round(ceiling, 3), within_reach=ceiling >= target)
            if (g, k) in bounds:
                bound = statistics.median(bounds[(g, k)])
                row.update(bound=round(bound, 3), within_reach=ceiling >= target and bound >= target)
        rows.append(row)
    return rows


def ratios_line(rows: list[dict]) -> dict:
    out: dict[str, dict[str, float]] = {}
    for row in rows:
        if row["target"] is not None:
            out.setdefault(row["game"], {})[row["loop"]] = row["ratio"]
    return {"ratios": out}


def table(rows: list[dict]) -> str:
    lines = [f"{'game':16} {'loop':20} {'actions/s':>10} {'ratio':>6} {'target':>7} {'ceiling':>8} {'bound':>6}  met",
             "-" * 83]
    for row in rows:
        target = "" if row["target"] is None else f"{row['target']:.2f}"
        ceiling = f"{row['ceiling']:.2f}" if "ceiling" in row else ""
        bound = f"{row['bound']:.2f}" if "bound" in row else ""
        met = "" if row["met"] is None else ("yes" if row["met"] else "NO")
        if met == "NO" and not row["within_reach"]:
            met += " (floor)" if row["ceiling"] < row["target"] else " (bound)"
        lines.append(f"{row['game']:16} {row['loop']:20} {row['actions_per_s']:10,} {row['ratio']:6.2f} {target:>7} "
                     f"{ceiling:>8} {bound:>6}  {met}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", metavar="GAME", help=f"games (default: {', '.join(TARGETS)})")
    ap.add_argument("--seconds", type=float, default=2.0, help="seconds of each loop per round (default 2)")
    ap.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    ap.add_argument("--json", action="store_true", help="after the table, the rows and the ratios as JSON (last line)")
    ap.add_argument("--out", metavar="FILE", help="also write the rows and ratios there as one JSON object "
                    "(benchmarks/results/interop_speed.json feeds docs/research.md: benchmarks/research_docs.py)")
    args = ap.parse_args(argv)
    games = args.games or list(TARGETS)
    unknown = [g for g in games if g not in TARGETS]
    if unknown:
        ap.error(f"no targets for {', '.join(unknown)} (games: {', '.join(TARGETS)})")
    t0 = time.perf_counter()
    rows = measure(games, args.seconds, args.rounds, progress=lambda text: print(text, file=sys.stderr, flush=True))
    print(table(rows))
    print(f"({args.rounds} rounds of {args.seconds:g} s per loop; {time.perf_counter() - t0:.0f} s in all)")
    detail = {"seconds": args.seconds, "rounds": args.rounds, "rows": rows}
    if args.out:
        with open(args.out, "w") as f:
            json.dump({**detail, **ratios_line(rows)}, f, indent=1)
            f.write("\n")
    if args.json:
        print(json.dumps(detail))
        print(json.dumps(ratios_line(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
