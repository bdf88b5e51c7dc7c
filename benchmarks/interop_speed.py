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
* ``pettingzoo_noop`` (shown, not a target): the PettingZoo loop on an environment that does
  nothing — PettingZoo's API and the agent alone. Its ratio column is the **ceiling** it sets
  on any PettingZoo adapter of that game: ``F / (F + E)`` (``F`` its speed, ``E`` the engine's).

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
SHOWN: dict[str, tuple[str, ...]] = {"fanorona": ("openspiel_observer", "pettingzoo_noop"),
                                     "nibble": ("openspiel_observer", "pettingzoo_noop"),
                                     "slide-checkers": ("pettingzoo_noop",)}


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


def pettingzoo_noop_loop(name: str) -> Callable[[float], float]:
    """The same AEC loop on an environment that does nothing (no game, no tensor, no mask to
    build: it hands out copies of fixed arrays): what PettingZoo's API and the agent cost alone.
    Its speed ``F`` bounds any adapter's ratio to the engine (speed ``E``) at ``F / (F + E)``."""
    from gymnasium import spaces
    from pettingzoo import AECEnv

    from abstracta.interop.pettingzoo import env as make_env

    real = make_env(name, layout_seeds=1)
    length = max(1, round(random_play(load_game(name), 0.3)["mean_actions"]))
    size, actions = real.interop.observation_size, real.interop.num_distinct_actions

    class Noop(AECEnv):
        metadata = {"name": "noop", "render_modes": []}

        def __init__(self) -> None:
            self.possible_agents = ["player_0", "player_1"]
            self.obs = np.zeros(size, np.float32)
            self.mask = np.zeros(actions, np.int8)
            self.mask[:5] = 1
            self.observation_spaces = {a: spaces.Dict({"observation": spaces.Box(0, 1, (size,), np.float32),
                                                       "action_mask": spaces.Box(0, 1, (actions,), np.int8)})
                                       for a in self.possible_agents}
            self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}

        def reset(self, seed: int | None = None, options: dict | None = None) -> None:
            self.agents = self.possible_agents[:]
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos = {a: {} for a in self.agents}
            self.agent_selection = "player_0"
            self.moves = 0

        def observe(self, agent: str) -> dict:
            return {"observation": self.obs.copy(), "action_mask": self.mask.copy()}

        def step(self, action: int | None) -> None:
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            self.moves += 1
            if self.moves >= length:
                for a in self.agents:
                    self.terminations[a] = True
            self.agent_selection = "player_1" if agent == "player_0" else "player_0"

    env = Noop()
    rng = random.Random(1)

    def play_one() -> int:
        env.reset()
        for agent in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[int(rng.random() * len(legal))]))
        return env.moves

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


LOOPS: dict[str, Callable[[str], Callable[[float], float]]] = {
    "engine": engine_loop,
    "openspiel": openspiel_loop,
    "openspiel_observer": lambda name: openspiel_loop(name, observer=True),
    "pettingzoo": pettingzoo_loop,
    "gymnasium": gymnasium_loop,
    "pettingzoo_noop": pettingzoo_noop_loop,
}


def measure(games: list[str], seconds: float, rounds: int, progress: Callable[[str], None] | None = None) -> list[dict]:
    """One row per (game, loop): median speed and median ratio to the engine over ``rounds``."""
    plan = {g: ("engine", *TARGETS[g], *SHOWN.get(g, ())) for g in games}
    loops = {(g, k): LOOPS[k](g) for g, ks in plan.items() for k in ks}
    for run in loops.values():  # warm up (imports, tables, first games)
        run(min(0.2, seconds))
    speeds: dict[tuple[str, str], list[float]] = {key: [] for key in loops}
    ratios: dict[tuple[str, str], list[float]] = {key: [] for key in loops}
    for r in range(rounds):
        for g, ks in plan.items():
            engine = loops[(g, "engine")](seconds)
            speeds[(g, "engine")].append(engine)
            ratios[(g, "engine")].append(1.0)
            for k in ks[1:]:
                speed = loops[(g, k)](seconds)
                speeds[(g, k)].append(speed)
                # the no-op loop's "ratio" is the ceiling it sets: F / (F + E)
                ratios[(g, k)].append(speed / (speed + engine) if k == "pettingzoo_noop" else speed / engine)
        if progress:
            progress(f"round {r + 1}/{rounds} done")
    rows = []
    for (g, k), values in speeds.items():
        target = TARGETS[g].get(k)
        ratio = statistics.median(ratios[(g, k)])
        rows.append({"game": g, "loop": k, "actions_per_s": round(statistics.median(values)),
                     "ratio": round(ratio, 3), "target": target,
                     "met": None if target is None else ratio >= target,
                     "ratios": [round(x, 3) for x in ratios[(g, k)]]})
    return rows


def ratios_line(rows: list[dict]) -> dict:
    out: dict[str, dict[str, float]] = {}
    for row in rows:
        if row["target"] is not None:
            out.setdefault(row["game"], {})[row["loop"]] = row["ratio"]
    return {"ratios": out}


def table(rows: list[dict]) -> str:
    lines = [f"{'game':16} {'loop':20} {'actions/s':>10} {'ratio':>6} {'target':>7}  met",
             "-" * 66]
    for row in rows:
        target = "" if row["target"] is None else f"{row['target']:.2f}"
        met = "" if row["met"] is None else ("yes" if row["met"] else "NO")
        lines.append(f"{row['game']:16} {row['loop']:20} {row['actions_per_s']:10,} {row['ratio']:6.2f} {target:>7}  {met}")
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
