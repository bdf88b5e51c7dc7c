"""Regenerate the measured parts of docs/research.md from the benchmarks' JSON (issue 45).

* the speed table, between ``<!-- generated:speed:begin … -->`` and ``<!-- generated:speed:end -->``,
  from ``benchmarks/results/interop_speed.json`` (``benchmarks/interop_speed.py --out``);
* the RLlib learning curve, between the ``generated:rllib`` markers, from
  ``benchmarks/results/rllib_nibble.json`` (``examples/rllib_nibble.py --out``), with its figure
  ``docs/img/rllib-nibble.png`` drawn by matplotlib (extra ``[plot]``).

Nothing in those sections is written by hand: run this after either measurement.

    python benchmarks/research_docs.py
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "research.md"
SPEED = ROOT / "benchmarks" / "results" / "interop_speed.json"
RLLIB = ROOT / "benchmarks" / "results" / "rllib_nibble.json"
FIGURE = ROOT / "docs" / "img" / "rllib-nibble.png"


def speed_section(data: dict) -> str:
    lines = ["| game | loop | actions/s | ratio to the engine | target | ceiling (floor) "
             "| bound (floor + tensors) | met |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |"]
    for row in data["rows"]:
        target = "" if row["target"] is None else f"≥ {row['target']:.1f}"
        # older results have no floors or tensor loops: no ceiling or bound to fill
        ceiling = f"{row['ceiling']:.2f}" if "ceiling" in row else ""
        bound = f"{row['bound']:.2f}" if "bound" in row else ""
        met = "" if row["met"] is None else ("yes" if row["met"] else "**no**")
        if row["met"] is False and row.get("within_reach") is False:
            met += (" (beyond the floor's ceiling)" if row["ceiling"] < row["target"]
                    else " (beyond the bound)")
        lines.append(f"| {row['game']} | {row['loop']} | {row['actions_per_s']:,} | {row['ratio']:.2f} | {target} "
                     f"| {ceiling} | {bound} | {met} |")
    lines.append("")
    lines.append(f"Medians of {data['rounds']} rounds of {data['seconds']:g} s per loop (`benchmarks/interop_speed.py`). "
                 "Ratios JSON: `" + json.dumps({"ratios": data["ratios"]}) + "`")
    budget = budget_table(data["rows"])
    if budget:
        lines += ["", *budget]
    return "\n".join(lines)


def budget_table(rows: list[dict]) -> list[str]:
    """Where the time of each environment target goes, in µs per engine action (from the rows'
    median speeds): the engine's own loop, what the target allows (engine / target), the API's
    floor, what the environments' game state, observation and mask add to the engine's loop
    (tensors − engine), the least an environment can cost (floor + tensors loop) and what it costs."""
    speed = {(row["game"], row["loop"]): row["actions_per_s"] for row in rows}
    us = {key: 1e6 / value for key, value in speed.items() if value > 0}
    out = []
    for row in rows:
        game, loop = row["game"], row["loop"]
        tensors = us.get((game, f"{loop}_tensors"))
        if row["target"] is None or tensors is None:
            continue
        engine, floor = us[(game, "engine")], us[(game, f"{loop}_floor")]
        allowed = engine / row["target"]
        out.append(f"| {game} | {loop} | {engine:.1f} | {allowed:.1f} | {floor:.1f} | "
                   f"{allowed - floor - engine:.1f} | {tensors - engine:.1f} | {floor + tensors:.1f} | "
                   f"{us[(game, loop)]:.1f} |")
    if not out:
        return []
    return ["| game | environment | engine's loop | allowed by the target | API floor | left (allowed − floor − "
            "engine's) | tensors loop − engine's (observation, mask, game state) | least (floor + tensors loop) "
            "| measured |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |", *out, "",
            "µs per engine action, from the median speeds above: the target allows the engine's time divided by "
            "the target; after the API's floor and the engine's own work, what is **left** is all an environment "
            "may spend on the observation, the mask and its game state's bookkeeping; it spends at least the "
            "tensors loop's excess over the engine's (the engine's work through the environments' game state — "
            "Slide Checkers' compact actions included — with the observation and the mask written as the "
            "environments write them), so an environment costs at least its floor plus the tensors loop."]


def rllib_section(data: dict) -> str:
    last = data["curve"][-1]
    lines = [f"![Win rate of multi-agent PPO against random legal moves on Nibble](img/{FIGURE.name})", "",
             f"{data['iterations']} iterations, each trained on a batch of {data['steps_per_iteration']:,} "
             f"environment steps ({data['seconds'] / 60:.0f} min on {data['machine']}, shared with other work); "
             f"every {data['eval_every']} iterations "
             f"{data['eval_games']} games per seat against random legal moves. After the last: win rate "
             f"{last['win_rate']:.2f} (seat 0 {last['win_rate_seat'][0]:.2f}, seat 1 {last['win_rate_seat'][1]:.2f}).",
             "", "| iteration | env steps | win rate vs random | mean episode length |",
             "| ---: | ---: | ---: | ---: |"]
    for point in data["curve"]:
        lines.append(f"| {point['iteration']} | {point['env_steps']:,} | {point['win_rate']:.2f} | "
                     f"{point['episode_len_mean']:.0f} |")
    return "\n".join(lines)


def draw_curve(data: dict) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [p["env_steps"] for p in data["curve"]]
    fig, ax = plt.subplots(figsize=(6, 3.2), dpi=110)
    ax.plot(xs, [p["win_rate"] for p in data["curve"]], marker="o", label="both seats")
    for seat in (0, 1):
        ax.plot(xs, [p["win_rate_seat"][seat] for p in data["curve"]], linestyle="--", alpha=0.6,
                label=f"seat {seat}")
    ax.axhline(0.5, color="grey", linewidth=0.8)
    ax.set_ylim(0, 1)
    ax.set_xlabel("environment steps")
    ax.set_ylabel("win rate vs random")
    ax.set_title("Nibble: multi-agent PPO (RLlib) against random legal moves")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    FIGURE.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(FIGURE)


def replace_section(text: str, name: str, body: str) -> str:
    pattern = re.compile(rf"(<!-- generated:{name}:begin[^>]*-->\n).*?(<!-- generated:{name}:end -->)", re.S)
    if not pattern.search(text):
        raise SystemExit(f"{PAGE}: no generated:{name} markers")
    return pattern.sub(lambda m: m.group(1) + body + "\n" + m.group(2), text)


def main() -> int:
    text = PAGE.read_text()
    if SPEED.exists():
        text = replace_section(text, "speed", speed_section(json.loads(SPEED.read_text())))
    if RLLIB.exists():
        data = json.loads(RLLIB.read_text())
        draw_curve(data)
        text = replace_section(text, "rllib", rllib_section(data))
    PAGE.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
