"""How far do Fanorona's 9×5 endgame tables go on one machine? (issue 46 §1)

1. ``--build N``: runs ``abstracta egtb build fanorona --stones N`` (``--executor``, ``--workers``)
   into ``--dir`` (the smaller tables there already) as a user would, and samples the resident
   memory of it and every process it starts (Ray's included) four times a second from ``/proc``: wall
   seconds, CPU seconds (of the command and every process it waited for), files, bytes and the
   peak; then runs the same command again, which finds every table built and stops, for the
   baseline (the interpreter and its imports).
2. ``--estimate N``: what the tables of N stones would take, without building them: for each
   material pair, its slots (bytes on disk), and — from ``--samples`` random positions of it —
   the share of positions without a capture and their plain steps, which are what the builder
   holds in memory (its successor lists: ``egtb.build_pair``); memory and time are then scaled
   from the measured build of ``--from-run`` (a JSON line of step 1). Fit it on a ``serial``
   build: one pair at a time in one process, so its peak less the baseline is the largest
   pair's working set (a Ray build's peak adds Ray's own processes and pairs built side by side).

    python benchmarks/egtb_scale.py --build 5 --executor ray --workers 2 --dir DIR --json
    python benchmarks/egtb_scale.py --build 4 --executor serial --dir DIR --json > run.json
    python benchmarks/egtb_scale.py --estimate 6 --from-run run.json --json

With ``--json`` the last line is one object.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import threading
import time
from math import comb
from pathlib import Path
from typing import Any

from abstracta import load_game
from abstracta.games.fanorona.egtb import materials_with
from abstracta.games.fanorona.movegen import generators

PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            kids.setdefault(int(fields[1]), []).append(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    return kids


def tree_rss(root: int) -> int:
    """Resident bytes of ``root`` and all its descendants."""
    kids = _children()
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        try:
            with open(f"/proc/{pid}/statm") as f:
                total += int(f.read().split()[1]) * PAGE
        except (OSError, IndexError, ValueError):
            pass
        todo.extend(kids.get(pid, []))
    return total


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_watched(cmd: list[str]) -> tuple[subprocess.CompletedProcess, float, float, int]:
    """Run ``cmd``, sampling its process tree's resident memory four times a second: (the finished
    process, wall seconds, CPU seconds of it and every process it waited for, peak bytes)."""
    t0, cpu0 = time.perf_counter(), _children_cpu()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak = [0]
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], tree_rss(proc.pid))
            done.wait(0.25)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    out, err = proc.communicate()
    done.set()
    watcher.join()
    finished = subprocess.CompletedProcess(cmd, proc.returncode, out, err)
    return finished, time.perf_counter() - t0, _children_cpu() - cpu0, peak[0]


def build(stones: int, executor: str, workers: int, directory: Path) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "abstracta", "egtb", "build", "fanorona", "--stones", str(stones),
           "--executor", executor, "--workers", str(workers), "--dir", str(directory), "--json"]
    proc, seconds, cpu, peak = run_watched(cmd)
    if proc.returncode:
        raise SystemExit(f"the build failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    again, _, _, baseline = run_watched(cmd)  # every table there: the command's own footprint
    if again.returncode:
        raise SystemExit(f"the second run failed ({again.returncode}):\n{again.stderr[-3000:]}")
    figures = json.loads(proc.stdout.strip().splitlines()[-1])["fanorona"]["tables"]
    new = {k: v for k, v in figures.items() if sum(int(x) for x in k.split("-")[1].split("v")) == stones}
    return {"stones": stones, "executor": executor, "workers": workers, "seconds": round(seconds, 1),
            "cpu_seconds": round(cpu, 1), "tables": len(new), "positions": sum(f["positions"] for f in new.values()),
            "bytes": sum(f["bytes"] for f in new.values()), "peak_mb": round(peak / 2**20, 1),
            "baseline_mb": round(baseline / 2**20, 1),
            "pairs": {k: {x: v[x] for x in ("positions", "bytes", "seconds", "longest")} for k, v in new.items()},
            "load": [round(x, 1) for x in os.getloadavg()]}


def sample_pair(game: Any, a: int, b: int, samples: int, rng: random.Random) -> dict[str, float]:
    """Share of positions without a capture and their mean plain steps, by sampling."""
    turn_start = generators(game.geometry)[0]
    n = game.geometry.n
    paika = steps = 0
    for _ in range(samples):
        points = rng.sample(range(n), a + b)
        own, opp = sum(1 << p for p in points[:a]), sum(1 << p for p in points[a:])
        legal = turn_start(own, opp)
        if legal and legal[0] % 3 == 0:
            paika += 1
            steps += len(legal)
    return {"paika_share": paika / samples, "steps": steps / max(paika, 1)}


def estimate(stones: int, run: dict[str, Any], samples: int) -> dict[str, Any]:
    """Slots, successor edges, memory and time of the tables of ``stones`` stones, scaled from
    the measured build ``run`` (same model fitted to its largest pair)."""
    game = load_game("fanorona")
    n = game.geometry.n
    rng = random.Random(4620)

    def pair_model(pair: tuple[Any, ...]) -> dict[str, Any]:
        slots = sum(comb(n, m.a) * comb(n, m.b) for m in pair)
        positions = sum(comb(n, m.a) * comb(n - m.a, m.b) for m in pair)
        share = [sample_pair(game, m.a, m.b, samples, rng) for m in pair]
        paika = sum(comb(n, m.a) * comb(n - m.a, m.b) * s["paika_share"] for m, s in zip(pair, share))
        edges = sum(comb(n, m.a) * comb(n - m.a, m.b) * s["paika_share"] * s["steps"] for m, s in zip(pair, share))
        return {"pair": "/".join(f"{m.a}v{m.b}" for m in pair), "slots": slots, "positions": positions,
                "paika": paika, "edges": edges}

    # the model: bytes ≈ 5 per slot (distances, kinds, flags, codes) + 32 per paika position
    # (its index and offsets, typed and numpy copies) + 14 per edge (the 32-bit index and the
    # sweep's per-edge temporaries); seconds ≈ positions / the measured rate
    def model_bytes(m: dict[str, Any]) -> float:
        return 5 * m["slots"] + 32 * m["paika"] + 14 * m["edges"]

    measured = [pair_model(p) for p in materials_with(run["stones"])]
    biggest = max(measured, key=model_bytes)
    # fitted to the measured peak less the command's own footprint (a run without a baseline:
    # the whole peak, which overstates the tables' share)
    scale = (run["peak_mb"] - run.get("baseline_mb", 0.0)) * 2**20 / model_bytes(biggest)
    if "cpu_seconds" in run:  # one core's rate: positions a CPU second (the machine's load aside)
        rate = run["positions"] / run["cpu_seconds"]
    else:  # positions a second of the pairs' own (wall) build times (a pair is one job)
        seconds: dict[frozenset, float] = {}
        for name, f in run["pairs"].items():
            a, b = (int(x) for x in name.split("-")[1].split("v"))
            seconds[frozenset({(a, b), (b, a)})] = f["seconds"]
        rate = sum(f["positions"] for f in run["pairs"].values()) / sum(seconds.values())
    rows = []
    for pair in materials_with(stones):
        m = pair_model(pair)
        m["memory_gb"] = round((model_bytes(m) * scale + run.get("baseline_mb", 0.0) * 2**20) / 2**30, 1)
        m["cpu_hours"] = round(m["positions"] / rate / 3600, 1)
        rows.append(m)
    return {"stones": stones, "pairs": rows, "bytes": sum(r["slots"] for r in rows),
            "fitted_on": {"stones": run["stones"], "executor": run["executor"], "pair": biggest["pair"],
                          "peak_mb": run["peak_mb"], "baseline_mb": run.get("baseline_mb"),
                          "scale": round(scale, 2), "positions_per_s": round(rate),
                          "rate_of": "CPU seconds" if "cpu_seconds" in run else "wall seconds of the pairs"}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", type=int, default=None)
    parser.add_argument("--estimate", type=int, default=None)
    parser.add_argument("--from-run", type=Path, default=None, help="a JSON line of --build")
    parser.add_argument("--executor", default="ray", choices=("serial", "process", "ray"))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--samples", type=int, default=4000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    out: dict[str, Any] = {}
    if args.build is not None:
        if args.dir is None:
            raise SystemExit("--build needs --dir (the smaller tables there already)")
        out["build"] = row = build(args.build, args.executor, args.workers, args.dir)
        print(f"{row['stones']} stones, {row['executor']} × {row['workers']}: {row['tables']} tables, "
              f"{row['positions']:,} positions, {row['bytes']:,} bytes, {row['seconds']:.0f} s wall, {row['cpu_seconds']:.0f} CPU s, "
              f"peak {row['peak_mb']:,.0f} MB", flush=True)
    if args.estimate is not None:
        run = out.get("build") or json.loads(args.from_run.read_text().strip().splitlines()[-1])["build"]
        out["estimate"] = est = estimate(args.estimate, run, args.samples)
        for r in est["pairs"]:
            print(f"{args.estimate} stones, {r['pair']}: {r['slots']:,} slots, {r['edges']:,.0f} successor edges, "
                  f"about {r['memory_gb']} GB and {r['cpu_hours']} CPU hours to build", flush=True)
    if args.json:
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
