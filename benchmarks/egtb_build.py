"""Endgame-table build time by executor (issue 18 §2): the same tables built from scratch with
each executor into a temporary directory, their bytes compared.

    python benchmarks/egtb_build.py [GAME] [--option K=V …] [--stones N]
                                    [--executors serial,process,ray] [--workers K]
                                    [--ray-address ADDR] [--json]

Default: fanorona (9×5), 4 stones, process and ray with 2 workers. For each executor: wall
seconds of the whole build (Ray: its start included), the files and their bytes, whether every
file is byte-identical to the first executor's, and the load average before and after (the
machine may be shared). ``--json`` adds one object as the last line.
"""

import argparse
import hashlib
import json
import os
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

import abstracta


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="fanorona")
    parser.add_argument("--option", action="append", default=[], metavar="K=V")
    parser.add_argument("--stones", type=int, default=4)
    parser.add_argument("--executors", default="process,ray")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--ray-address", default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    name, stones, workers, address = args.game, args.stones, args.workers, args.ray_address
    options = dict(v.split("=", 1) for v in args.option)
    executors = args.executors.split(",")
    game = abstracta.load_game(name, **options)
    tables = game.description.endgame_tables
    if tables is None:
        raise SystemExit(f"{name} {options or ''} has no endgame tables")
    rows, reference = [], None
    for executor in executors:
        with tempfile.TemporaryDirectory(prefix="egtb-bench-") as where:
            load_before = os.getloadavg()[0]
            t0 = time.perf_counter()
            figures = tables.build(stones, Path(where), executor=executor, workers=workers, ray_address=address)
            seconds = time.perf_counter() - t0
            load_after = os.getloadavg()[0]
            digests = {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
                       for p in sorted(Path(where).iterdir()) if p.suffix != ".json"}
            size = sum(p.stat().st_size for p in Path(where).iterdir() if p.suffix != ".json")
        if reference is None:
            reference = digests
        rows.append({"executor": executor, "workers": None if executor == "serial" else workers,
                     "seconds": round(seconds, 2), "files": len(digests), "bytes": size,
                     "positions": sum(f["positions"] for f in figures.values()),
                     "identical": digests == reference, "load_before": round(load_before, 2),
                     "load_after": round(load_after, 2)})
    label = " ".join([name] + [f"{k}={v}" for k, v in options.items()])
    table = Table(title=f"{label} endgame tables, 2–{stones} stones, from scratch")
    for col in ("executor", "workers", "seconds", "files", "bytes", "positions", f"= {executors[0]}", "load before",
                "load after"):
        table.add_column(col, justify="left" if col == "executor" else "right")
    for r in rows:
        table.add_row(r["executor"], str(r["workers"] or "-"), f"{r['seconds']:.1f}", str(r["files"]),
                      f"{r['bytes']:,}", f"{r['positions']:,}", "yes" if r["identical"] else "NO",
                      f"{r['load_before']:.2f}", f"{r['load_after']:.2f}")
    console = Console(stderr=args.json)
    console.width = max(console.width, 110)
    console.print(table)
    if args.json:
        print(json.dumps({"game": name, "options": options, "stones": stones, "rows": rows}))


if __name__ == "__main__":
    main()
