"""Write the figures of ``docs/strength.md`` from the benchmarks' JSON (issue 46).

Every table and figure on that page sits between ``<!-- generated:NAME -->`` and
``<!-- /generated:NAME -->`` and is made here from ``benchmarks/results/*.json`` (each file the
last ``--json`` line of a benchmark, with the command that made it) and
``benchmarks/levels.json`` (the ladder) — never copied by hand.

    python benchmarks/strength_page.py            # rewrite the generated parts
    python benchmarks/strength_page.py --check    # exit 1 if the page is not what the JSON gives
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
PAGE = HERE.parent / "docs" / "strength.md"


def load(name: str) -> dict[str, Any] | None:
    path = RESULTS / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def missing(name: str) -> str:
    return f"*Not measured yet (`benchmarks/results/{name}.json`).*"


def how(data: dict[str, Any]) -> str:
    """The command and circumstances of a measurement, as a line under its table."""
    parts = [f"`{data['command']}`"]
    if data.get("date"):
        parts.append(data["date"])
    if data.get("commit"):
        parts.append(f"at commit {data['commit']}")
    machine = data.get("machine")
    if isinstance(machine, dict):  # benchmarks/record.py's form
        machine = (f"{machine['cores']} cores shared with other agents, load average "
                   f"{machine['load_before'][0]:.0f} before and {machine['load_after'][0]:.0f} after")
    if machine:
        parts.append(machine)
    return "Measured with " + "; ".join(parts) + "."


def pct(x: float) -> str:
    return f"{100 * x:.0f} %"


# --- blocks ------------------------------------------------------------------------------------

def convert() -> str:
    data = load("convert")
    if data is None:
        return missing("convert")
    r = data["result"]
    lines = [f"**{r['converted']} of {r['positions']} positions converted** by both levels (the winner won within "
             f"the tables' distance + {r['slack']} turns, {r['games']} games), "
             f"{r['seconds']:.0f} s of play after {r['build_seconds']:.0f} s building the tables from nothing "
             f"({data['wall_seconds'] / 60:.1f} min in all).", "",
             "| stones | level | positions | converted | mean distance (turns) | mean turns taken | most turns over the distance |",
             "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for row in r["by"]:
        lines.append(f"| {row['stones']} | {row['level']} | {row['positions']} | {row['converted']} | "
                     f"{row['mean_distance']} | {row['mean_turns']} | {row['most_over']} |")
    lines += ["", how(data)]
    return "\n".join(lines)


def no_repeat() -> str:
    data = load("no_repeat")
    if data is None:
        return missing("no_repeat")
    lines = ["| alpha-beta | positions | won | repeated a position | … while its search judged it ahead | not won |",
             "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for label, key in (("before (commit e426a3e)", "before"), ("now (revision 3)", "after")):
        r = data[key]
        lines.append(f"| {label} | {r['positions']} | {r['won']} | {r['repeated']} | {r['repeated_ahead']} | "
                     f"{r['not_won']} |")
    r = data["after"]
    lines += ["", f"Level 6's search held to {r['nodes']:,} positions an action, without tables or oracle, as the "
                  "winner; the tables defending (the slowest loss, a repetition draw taken when offered). "
                  + how(data)]
    return "\n".join(lines)


def dimy() -> str:
    data = load("dimy_solve")
    if data is None:
        return missing("dimy_solve")
    r = data["result"]
    word = {1: "a win", 0: "a draw", -1: "a loss"}
    value = f"{r['value']:+d}" if r["value"] else "0"
    lines = [f"**The start is {word[r['value']]} (value {value}).** {r['positions']:,} positions in the "
             f"checked strategies, {r['searched']:,} positions expanded by df-pn, leaves in the "
             f"{r['leaf_tables']['positions']:,} positions of the 2–{r['leaf_tables']['stones']}-stone tables; "
             f"{r['seconds']['tables']:.1f} s for the tables and {r['seconds']['proof']:.1f} s for the proof "
             f"(wall, {data['cpu_seconds']:.0f} CPU s in all, {data['peak_mb']:.0f} MB peak).", "",
             "| White's first turn | value for White | turns at most (the checked strategy) |", "| --- | --- | ---: |"]
    for f in r["first_turns"]:
        lines.append(f"| {f['turn']} | {word[f['value']]} | {'' if f['turns'] is None else f['turns']} |")
    lines += ["", "| strategy from | side | kind | positions | turns at most |", "| --- | --- | --- | ---: | ---: |"]
    for s in r["strategies"]:
        lines.append(f"| {s['from']} | {s['side']} | {s['kind']} | {s['positions']:,} | "
                     f"{'' if s['turns'] is None else s['turns']} |")
    holding = [f["turn"] for f in r["first_turns"] if f["value"] >= 0]
    lines += ["", f"White's first turns that do not lose: {', '.join(holding)} ({len(holding)} of "
                  f"{len(r['first_turns'])}). The whole `abstracta solve` took {r['seconds']['total'] / 60:.1f} min "
                  f"here (the issue allows 20).", "", how(data)]
    return "\n".join(lines)


def ladder() -> str:
    sys.path.insert(0, str(HERE))
    import levels  # benchmarks/levels.py

    data = levels.load()
    unmeasured = []
    for name, options, upper in levels.pairings():
        entry = data["pairings"].get(levels.key(name, options, upper))
        if not entry or not levels.summary(entry)[0]:
            unmeasured.append(levels.key(name, options, upper))
    note = ("Pairs the games declare with no game of today's levels yet (earlier games of changed levels stop "
            "counting): " + ", ".join(unmeasured) + ".") if unmeasured else "Every declared pair has games of today's levels."
    return (levels.table(data) + "\n\n" + note + "\n\n"
            + "Made by `python benchmarks/levels.py --table` from `benchmarks/levels.json`.")


def bounds() -> str:
    data = load("level_bounds")
    if data is None:
        return missing("level_bounds")
    lines = ["| game | level | search | declared | CPU s an action (median) | searched (median) | stopped by |",
             "| --- | ---: | --- | --- | ---: | ---: | --- |"]
    for row in data["result"]["rows"]:
        opts = ",".join(f"{k}={v}" for k, v in row["options"].items())
        caps = ", ".join(f"{k.replace('max_', '')} {v:,}" for k, v in row["declared"].items() if k != "seconds")
        said = f"{row['declared']['seconds']} s" + (f", {caps}" if caps else "")
        amount = "" if row["searched"] is None else f"{row['searched']:,} {row['unit']}"
        stopped = ", ".join(f"{r} {n}/{row['positions']}" for r, n in
                            sorted(row["stopped_by"].items(), key=lambda x: -x[1]))
        lines.append(f"| {row['game']}{':' + opts if opts else ''} | {row['level']} | {row['search']} | {said} | "
                     f"{row['seconds']:.2f} | {amount} | {stopped} |")
    lines += ["", how(data) + " CPU seconds of the searching thread, so the machine's load lengthens the run, "
                              "not the levels."]
    return "\n".join(lines)


def telo() -> str:
    data = load("telo_opening")
    if data is None:
        return missing("telo_opening")
    r = data["result"]
    lines = ["| player | colour | turns judged | kept the value | random would keep | first turn kept | random would keep |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for row in r["rows"]:
        lines.append(f"| {row['player']} | {row['colour']} | {row['turns']} | {pct(row['kept'])} | "
                     f"{pct(row['random_kept'])} | {pct(row['first_turn_kept'])} | {pct(row['first_turn_random'])} |")
    lines += ["", f"{r['rows'][0]['games']} games a colour against {r['opponent']}, the first {r['turns_per_game']} "
                  f"turns of each. {data.get('note', '')} " + how(data)]
    return "\n".join(lines)


def slide() -> str:
    data = load("slide_checkers_34")
    if data is None:
        return missing("slide_checkers_34")
    lines = ["| players | games | level 4's score | 95 % interval | level 4 alone: mean score | level 3 alone: mean score | seed |",
             "| ---: | ---: | ---: | --- | ---: | ---: | ---: |"]
    def alone(x: float | None) -> str:
        return "no game" if x is None else pct(x)

    stopped = []
    for row in data["rows"]:
        lines.append(f"| {row['players']} | {row['games']} | {pct(row['score'])} | {pct(row['low'])}–{pct(row['high'])} | "
                     f"{alone(row['upper_alone_score'])} | {alone(row['lower_alone_score'])} | {row['seed']} |")
        if row.get("stopped"):
            stopped.append(f"{row['players']} players: {row['games']} of {row['scheduled']} scheduled games "
                           f"({row['stopped']}, {row['minutes']} min)")
    if stopped:
        lines += ["", "Stopped early on the shared machine — " + "; ".join(stopped) + "."]
    if data.get("note"):
        lines += ["", data["note"]]
    lines += ["", how(data)]
    return "\n".join(lines)


def egtb() -> str:
    data = load("egtb_ray")
    if data is None:
        return missing("egtb_ray")
    memory = data["memory_gb"]
    lines = ["| stones | tables | positions | file bytes | executor | wall s | CPU s | peak memory (MB) |",
             "| ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |"]
    for row in data["built"]:
        cpu = "" if row.get("cpu_seconds") is None else f"{row['cpu_seconds']:.0f}"
        workers = "" if row["executor"] == "serial" else f" × {row['workers']}"
        lines.append(f"| {row['stones']} | {row['tables']} | {row['positions']:,} | {row['bytes']:,} | "
                     f"{row['executor']}{workers} | {row['seconds']:.0f} | {cpu} | {row['peak_mb']:,.0f} |")
    for row in data["built"]:
        if row.get("ray_workers_cpu_seconds"):
            lines += ["", f"The {row['stones']}-stone Ray build: its workers' CPU seconds "
                          f"{' and '.join(str(c) for c in row['ray_workers_cpu_seconds'])} (one pair each), the "
                          f"command's {row['cpu_seconds_command']:.0f}; its largest worker peaked at "
                          f"{row['largest_worker_peak_mb']:,.0f} MB, the command alone takes {row['baseline_mb']:.0f} MB."]
    for note in data.get("notes", []):
        lines += ["", note]
    est = data["estimates"]
    fit = est[0]["fitted_on"]
    lines += ["", f"Estimated (`benchmarks/egtb_scale.py --estimate`, fitted on the {fit['executor']} build of "
                  f"{fit['stones']} stones: its largest pair {fit['pair']}, {fit['peak_mb']:,.0f} MB at the peak less "
                  f"{fit['baseline_mb']:,.0f} MB of the command itself; {fit['positions_per_s']:,} positions a CPU "
                  f"second):", "",
              "| stones | material pair | positions | file bytes | successor edges | memory to build (GiB) | CPU hours |",
              "| ---: | --- | ---: | ---: | ---: | ---: | ---: |"]
    for e in est:
        for r in e["pairs"]:
            lines.append(f"| {e['stones']} | {r['pair']} | {r['positions']:,} | {r['slots']:,} | {r['edges']:,.0f} | "
                         f"{r['memory_gb']:.1f} | {r['cpu_hours']:.1f} |")
    verdict = []
    for e in est:
        gb = sorted((r["memory_gb"] for r in e["pairs"]), reverse=True)
        hours = sum(r["cpu_hours"] for r in e["pairs"])
        verdict.append(f"{e['stones']} stones: about {gb[0]:.1f} GiB for the largest pair in one worker "
                       f"({'within' if gb[0] <= memory else 'over'} this machine's {memory} GiB), "
                       f"{sum(gb[:2]):.1f} GiB for the two largest side by side (two workers), "
                       f"{hours:.1f} CPU hours in all and {e['bytes'] / 2**20:,.0f} MB of files")
    lines += ["", "**" + "; ".join(verdict) + ".** " + data["verdict"], "", how(data)]
    return "\n".join(lines)


def learned_cells(name: str, g: dict[str, Any]) -> tuple[str, str]:
    """A ``benchmarks/learned.py`` game's label (with its options) and its result's cells: games
    (W D L) | score | Elo (interval) | SPRT (LLR)."""
    opts = ",".join(f"{k}={v}" for k, v in g["options"].items())
    return (f"{name}{':' + opts if opts else ''}",
            f"{g['games']} ({g['wins']} W {g['draws']} D {g['losses']} L) | {100 * g['score']:.1f} % | "
            f"{g['elo']:+.0f} ({g['interval'][0]:+.0f} … {g['interval'][1]:+.0f}) | {g['sprt']} (LLR {g['llr']:+.2f})")


def learned() -> str:
    data = load("learned")
    if data is None:
        return missing("learned")
    r = data["result"]["games"]
    first = next(iter(r.values()))
    lines = [f"| game | games | learned value's score | Elo gained (95 % interval) | SPRT, 0 against +{first['elo1']:g} Elo "
             "(LLR; ±2.94 decides) | trained on | training |",
             "| --- | ---: | ---: | ---: | --- | --- | ---: |"]
    for name, g in r.items():
        t = g["training"]
        trained = f"{t['games']} games of {'/'.join(t['bots'])}, {t['rows']:,} positions"
        played = t["self_play_seconds"]
        label, cells = learned_cells(name, g)
        lines.append(f"| {label} | {cells} | {trained} | "
                     f"{'untimed' if played is None else f'{played / 60:.1f} min'} self-play"
                     f"{'' if played is None else ' (' + str(t.get('self_play_executor')) + ')'}, "
                     f"{t['training_seconds'] / 60:.1f} min fit |")
    lines += ["", f"Both sides search as the game's level 4 (alpha-beta, its turn extension) held to "
                  f"{first['nodes']:,} positions an action with no time limit, each opening of {first['opening']} "
                  "random actions played from both seats.", ""]
    for name, g in r.items():
        if g["training"].get("command"):
            lines.append(f"Trained ({name}) with `{g['training']['command']}`.")
    for name, g in r.items():
        if "carried" in g:  # benchmarks/learned.py --carry: measured by an earlier run
            c = g["carried"]
            lines.append(f"Measured ({name}) earlier with `{c['command']}`; {c['date']}; at commit {c['commit']} "
                         "(kept by `--carry`).")
    lines += ["", how(data)]
    return "\n".join(lines)


def learned_more() -> str:
    """Further ``benchmarks/learned.py`` runs (``results/learned-NAME.json``): a kept value at
    more positions an action (``--nodes``), or a level against itself at its own seconds
    (``--level N``): where the learned value gains."""
    files = sorted(RESULTS.glob("learned-*.json"))
    if not files:
        return missing("learned-NAME")
    from abstracta.ai.levels import LEVELS

    lines = ["| game | both sides | games | learned value's score | Elo gained (95 % interval) "
             "| SPRT, 0 against +50 Elo (LLR; ±2.94 decides) |", "| --- | --- | ---: | ---: | ---: | --- |"]
    hows = []
    for path in files:
        data = json.loads(path.read_text(encoding="utf-8"))
        for name, g in data["result"]["games"].items():
            if g.get("level") is not None:
                seconds = LEVELS[g["level"]].seconds
                sides = (f"level {g['level']} ({g['search']}, "
                         f"{f'{seconds:g} s an action' if seconds else 'one ply, no clock'})")
            else:
                sides = f"level 4's alpha-beta, {g['nodes']:,} positions an action"
            label, cells = learned_cells(name, g)
            lines.append(f"| {label} | {sides} | {cells} |")
            measured = how(data)
            hows.append(f"{name}, {sides}: {measured[0].lower()}{measured[1:]}")
    return "\n".join(lines + [""] + hows)


BLOCKS: dict[str, Callable[[], str]] = {"convert": convert, "no_repeat": no_repeat, "dimy": dimy, "ladder": ladder,
                                        "bounds": bounds, "telo": telo, "slide": slide, "egtb": egtb,
                                        "learned": learned, "learned_more": learned_more}


def render(page: str) -> str:
    def fill(match: re.Match) -> str:
        name = match.group(1)
        if name not in BLOCKS:
            raise SystemExit(f"docs/strength.md: no generator for block {name!r}")
        return f"<!-- generated:{name} -->\n{BLOCKS[name]()}\n<!-- /generated:{name} -->"

    return re.sub(r"<!-- generated:(\w+) -->.*?<!-- /generated:\1 -->", fill, page, flags=re.S)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the page differs from what the JSON gives")
    args = parser.parse_args(argv)
    page = PAGE.read_text(encoding="utf-8")
    new = render(page)
    if args.check:
        if new != page:
            print("docs/strength.md is not what benchmarks/results gives: run python benchmarks/strength_page.py")
            return 1
        return 0
    PAGE.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
