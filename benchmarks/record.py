"""Run a benchmark with ``--json`` and keep its result under ``benchmarks/results/`` (issue 39).

    python benchmarks/record.py NAME -- COMMAND [ARG ...]
    python benchmarks/record.py engine -- python benchmarks/engine.py --seconds 2
    python benchmarks/record.py load -- python benchmarks/load.py --games 100 --seconds 30

Runs COMMAND with ``--json`` appended (unless it has it), passes its table through to the
terminal, and writes ``benchmarks/results/NAME.json``: the last line of its output (the
benchmark's JSON object or list) as ``result``, with how and where it was measured — the command,
the commit, the date, the machine's cores and its load average before and after (on a shared
machine the load explains slow figures). The documentation's measurement pages are generated
from these files (``docs/hooks.py``), never from figures typed by hand. A command that fails, or
whose last line is not JSON, writes nothing and exits non-zero.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import shlex
import subprocess
import sys
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def commit() -> str | None:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True, cwd=RESULTS.parent).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def main(argv: list[str]) -> int:
    if "--" not in argv or argv.index("--") != 1 or len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    name, command = argv[0], argv[2:]
    if "--json" not in command:
        command = [*command, "--json"]
    command = [sys.executable if part in ("python", "python3") else part for part in command]
    before = os.getloadavg()
    started = dt.datetime.now(dt.timezone.utc)
    proc = subprocess.run(command, stdout=subprocess.PIPE, text=True)
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    sys.stdout.write("\n".join(lines[:-1]) + "\n")
    if proc.returncode != 0 or not lines:
        print(f"record: {shlex.join(command)} failed (exit {proc.returncode}); nothing written", file=sys.stderr)
        return proc.returncode or 1
    try:
        result = json.loads(lines[-1])
    except json.JSONDecodeError:
        print(f"record: the last line of {shlex.join(command)} is not JSON; nothing written", file=sys.stderr)
        return 1
    shown = [Path(part).name if part == sys.executable else part for part in command]
    entry = {
        "benchmark": name,
        "command": shlex.join(["python" if part == Path(sys.executable).name else part for part in shown]),
        "commit": commit(),
        "date": started.strftime("%Y-%m-%d"),
        "seconds": round((dt.datetime.now(dt.timezone.utc) - started).total_seconds(), 1),
        "machine": {"cores": os.cpu_count(), "python": platform.python_version(),
                    "load_before": [round(x, 1) for x in before],
                    "load_after": [round(x, 1) for x in os.getloadavg()]},
        "result": result,
    }
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(entry, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"record: {path.relative_to(RESULTS.parent.parent)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
