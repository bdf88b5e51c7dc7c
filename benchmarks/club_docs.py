"""The measured figures of docs/club.md, generated from the benchmarks' JSON (never copied by hand).

Fills each block between ``<!-- generated:NAME -->`` and ``<!-- /generated:NAME -->`` in
docs/club.md from benchmarks/results/:

* ``soak`` — soak-resign.json (the run that counts), soak.json, soak-30min.json, soak-30min-after.json,
  soak-default-cache.json
  (benchmarks/soak.py --json --out …)
* ``load`` — load-1-worker.json and load-2-workers.json (benchmarks/load.py --json …)
* ``fanout`` — fanout.json (benchmarks/fanout.py --json)
* ``sockets`` — sockets.json (benchmarks/sockets.py --json)
* ``ratelimits`` — ratelimits.json (benchmarks/ratelimits.py --json)
* ``capacity`` — the capacity note's arithmetic from all of them and :data:`CLUB_GAME`

    python benchmarks/club_docs.py          # rewrite docs/club.md
    python benchmarks/club_docs.py --check  # exit 1 if docs/club.md is not what the JSON gives
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
DOC = ROOT / "docs" / "club.md"

#: The game the capacity note counts in: a blitz game (5+3) of 80 plies in ten minutes, watched
#: by its two players and two spectators; a worker is planned at 70 % of a core (room for bursts,
#: the bot lane's fast thread and garbage collection).
CLUB_GAME = {"plies": 80, "minutes": 10, "sockets": 4, "core_share": 0.7}


def load_json(name: str) -> dict[str, Any] | None:
    path = RESULTS / name
    if not path.exists():
        return None
    text = path.read_text().strip()
    try:
        return json.loads(text)
    except ValueError:  # a benchmark's whole output, kept: its JSON is the last line
        return json.loads(text.splitlines()[-1])


def n(value: Any, digits: int = 0) -> str:
    if value is None:
        return "—"
    if isinstance(value, float) and digits:
        return f"{value:,.{digits}f}"
    return f"{round(value):,}"


def missing(name: str) -> str:
    return f"*Not measured yet: run the command above (benchmarks/results/{name}).*"


def soak() -> str:
    runs = [(name, load_json(name)) for name in ("soak-resign.json", "soak.json", "soak-30min.json",
                                                 "soak-30min-after.json", "soak-default-cache.json")]
    runs = [(name, r) for name, r in runs if r is not None]
    if not runs:
        return missing("soak.json")
    out = ["| run | moves (a second) | matches | RSS after warm-up → end (MB) | growth | open fds after warm-up → end "
           "| growth | matches held | lost | duplicated | errors | verdict |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for name, r in runs:
        cache = f"cache of {n(r['cache_matches'])}" if r.get("cache_matches") else "the server's cache of 1,000"
        if r.get("cache_plies"):
            cache += f" matches and {n(r['cache_plies'])} actions"
        resign = f", people resign past {n(r['resign_after'])} actions" if r.get("resign_after") else ""
        label = (f"{n(r['minutes'])} min, {n(r['games'])} games{resign}, {cache}, warm-up {n(r['warmup_minutes'])} min "
                 f"(`{name}`)")
        held = f"{n(r['cached_after_warmup'])} → {n(r['cached_end'])}" + ("" if r["cache_full"] else " (filling)")
        verdict = "**passed**" if r["passed"] else ("cache still filling: no verdict" if not r["cache_full"]
                                                    else "**did not pass**")
        out.append(f"| {label} | {n(r['moves'])} ({n(r['moves_per_s'], 1)}) | {n(r['matches_played'])} | "
                   f"{n(r['rss_mb_after_warmup'], 1)} → {n(r['rss_mb_end'], 1)} | {n(r['rss_growth_pct'], 1)} % | "
                   f"{n(r['fds_after_warmup'], 1)} → {n(r['fds_end'], 1)} | {n(r['fds_growth_pct'], 1)} % | {held} | "
                   f"{n(r['lost'])} | {n(r['duplicated'])} | {n(r['server_errors'])} | {verdict} |")
    out.append("")
    for name, r in runs:
        rate = ((r["rss_mb_end"] - r["rss_mb_after_warmup"]) / (r["minutes"] - r["warmup_minutes"])
                if r.get("rss_mb_end") is not None and r["minutes"] > r["warmup_minutes"] else None)
        per_move = kb_per_move(r)
        out.append(f"`{name}`: {cache_words(r)} {in_play_words(r)}"
                   + (f"After the warm-up the memory grew {n(rate, 2)} MB a minute" if rate is not None else "")
                   + (f", {n(per_move, 2)} kB for each move played. " if rate is not None and per_move is not None
                      else ". " if rate is not None else "")
                   + f"Move round trip p50 {n(r['p50_ms'], 1)} ms, p99 {n(r['p99_ms'], 1)} ms; "
                   f"web process CPU {n(r['server_cpu_ms_per_move'], 2)} ms a move; load average "
                   f"{n(r['load_average'], 1)} at the end.")
        out.append("")
    return "\n".join(out).rstrip()


def kb_per_move(r: dict[str, Any]) -> float | None:
    """The memory grown after the warm-up for each move played (kB): the means of the first and
    the last three samples after it, as soak.py compares them."""
    steady = [x for x in r.get("samples", []) if x["t"] >= r["warmup_minutes"] * 60 and x.get("moves") is not None]
    if len(steady) < 6:
        return None
    first, last = steady[:3], steady[-3:]
    moves = sum(x["moves"] for x in last) / 3 - sum(x["moves"] for x in first) / 3
    rss = sum(x["rss_mb"] for x in last) / 3 - sum(x["rss_mb"] for x in first) / 3
    return 1024 * rss / moves if moves > 0 else None


def in_play_words(s: dict[str, Any]) -> str:
    """What the games in play did meanwhile (sampled since the run after the fixes of issue 44 §5)."""
    if s.get("plies_in_play_end") is None:
        return ""
    per = s.get("kb_per_ply_in_play")
    return (f"The games in play held {n(s['plies_in_play_after_warmup'])} → {n(s['plies_in_play_end'])} actions "
            f"({n(s['plies_in_play_growth_pct'], 1)} %)"
            + (f": the memory grew {n(per, 2)} kB for each action added to them. " if per is not None else ". "))


def cache_words(s: dict[str, Any]) -> str:
    """What the web process's cache of matches did meanwhile (its memory grows until it is full)."""
    if s.get("cached_end") is None:
        return "The matches held in memory were not sampled in this run."
    if s["cache_full"] and s.get("cache_plies") and s.get("plies_cached_end") is not None:
        return (f"the match cache was full after the warm-up, by size: the actions its matches held stayed at "
                f"its bound of {n(s['cache_plies'])} ({n(s['plies_cached_after_warmup'])} → "
                f"{n(s['plies_cached_end'])}, {n(s['plies_cached_growth_pct'], 1)} %), its matches "
                f"{n(s['cached_after_warmup'])} → {n(s['cached_end'])} as the games held got longer.")
    if s["cache_full"] and s.get("plies_cached_end") is not None:
        per = s.get("kb_per_cached_ply")
        return (f"the match cache was full after the warm-up ({n(s['cached_after_warmup'])} matches held "
                f"throughout), but the games it held went on: the actions played in them grew "
                f"{n(s['plies_cached_after_warmup'])} → {n(s['plies_cached_end'])} "
                f"({n(s['plies_cached_growth_pct'], 1)} %)"
                + (f", and the memory grew {n(per, 2)} kB for each action added to them." if per is not None
                   else "."))
    if s["cache_full"]:
        return (f"the match cache was full after the warm-up ({n(s['cached_after_warmup'])} matches held "
                "throughout): the growth is the server's, not the cache filling.")
    per = s.get("kb_per_cached_match")
    return (f"the match cache was still filling ({n(s['cached_after_warmup'])} matches held after the warm-up, "
            f"{n(s['cached_end'])} at the end): the memory grew with it, {n(per)} kB for each match added, which "
            "a full cache stops.")


def load_table() -> str:
    rows = [(name, load_json(f"load-{name}.json")) for name in ("1-worker", "2-workers")]
    if all(r is None for _, r in rows):
        return missing("load-1-worker.json, load-2-workers.json")
    out = ["| run | moves/s | p50 / p99 ms | server CPU per move | computer p99 ms | 5xx | lost | duplicated | "
           "load average |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, r in rows:
        if r is None:
            out.append(f"| {name} | not measured | | | | | | | |")
            continue
        label = f"{r['workers']} worker{'s' if r['workers'] > 1 else ''}, {r['db']}, {r['games']} games"
        out.append(f"| {label} | {n(r['moves_per_s'], 1)} | {n(r['p50_ms'], 1)} / {n(r['p99_ms'], 1)} | "
                   f"{n(r['server_cpu_ms_per_move'], 2)} ms | {n(r['bot_p99_ms'])} | {n(r['server_errors'])} | "
                   f"{n(r['lost'])} | {n(r['duplicated'])} | {n(r['load_average'], 1)} |")
    return "\n".join(out)


def fanout() -> str:
    f = load_json("fanout.json")
    if f is None:
        return missing("fanout.json")
    out = ["| channel | p50 ms | p99 ms | burst (messages/s) | publisher CPU per message |",
           "|---|---:|---:|---:|---:|"]
    for key, label in (("notify", "PostgreSQL NOTIFY"), ("redis", "Redis pub/sub")):
        r = f.get(key)
        if r:
            out.append(f"| {label} | {n(r['latency']['p50_ms'], 2)} | {n(r['latency']['p99_ms'], 1)} | "
                       f"{n(r['burst']['per_s'])} | {n(r['burst']['publisher_cpu_us_per_message'], 1)} µs |")
    c = f.get("commits")
    rate = f.get("notify", f.get("redis", {})).get("latency", {}).get("rate")
    out += ["", f"Latency at {n(rate)} messages a second to {n(f.get('notify', f.get('redis'))['listeners'])} "
            f"listening processes; load average {n(f['load_average'], 1)}."]
    if c:
        out.append(f"Commits of {n(c['writers'])} connections, each updating a row of its own: "
                   f"**{n(c['without_notify'])} a second without NOTIFY, {n(c['with_notify'])} with one** in each "
                   "transaction (as every move's commit sends).")
    return "\n".join(out)


def sockets() -> str:
    s = load_json("sockets.json")
    if s is None:
        return missing("sockets.json")
    return "\n".join([
        "| measured | value |", "|---|---:|",
        f"| CPU per move, nobody watching | {n(s['cpu_ms_per_move_unwatched'], 2)} ms |",
        f"| CPU per move, {n(s['watchers_per_match'])} spectators per match | {n(s['cpu_ms_per_move_watched'], 2)} ms |",
        f"| CPU per view pushed to one more socket | {n(s['cpu_us_per_push'], 1)} µs |",
        f"| memory per open live view | {n(s['rss_kb_per_socket'], 1)} kB |",
        "", f"{n(s['sockets'])} sockets on {n(s['matches'])} matches, {n(s['pushes'])} views pushed; load average "
        f"{n(s['load_average'], 1)}.",
    ])


def ratelimits() -> str:
    r = load_json("ratelimits.json")
    if r is None:
        return missing("ratelimits.json")
    return "\n".join([
        "| counted in | CPU per act | wall time per act |", "|---|---:|---:|",
        f"| this process's memory | {n(r['memory']['cpu_us_per_act'], 1)} µs | {n(r['memory']['wall_us_per_act'], 1)} µs |",
        f"| Redis | {n(r['redis']['cpu_us_per_act'], 1)} µs | {n(r['redis']['wall_us_per_act'], 1)} µs |",
        "", f"{n(r['acts'])} acts, {n(r['windows'])} windows each; load average {n(r['load_average'], 1)}.",
    ])


def capacity() -> str:
    one, two = load_json("load-1-worker.json"), load_json("load-2-workers.json")
    s, f, r = load_json("sockets.json"), load_json("fanout.json"), load_json("ratelimits.json")
    if one is None or s is None or f is None or r is None:
        return missing("load-1-worker.json, sockets.json, fanout.json, ratelimits.json")
    g = CLUB_GAME
    moves_per_game = g["plies"] / (g["minutes"] * 60)  # moves a second of one game
    # load.py's CPU per move (rate limits off) includes the pushes to the two players;
    # spectators add theirs, and the rate limits counted in Redis theirs
    limits_ms = r["redis"]["cpu_us_per_act"] / 1000
    # the club's own configuration (workers on PostgreSQL behind nginx) when it was measured
    base, base_name = (two, "load-2-workers") if two is not None else (one, "load-1-worker")
    cpu_ms = base["server_cpu_ms_per_move"] + (g["sockets"] - 2) * s["cpu_us_per_push"] / 1000 + limits_ms
    worker_moves = g["core_share"] * 1000 / cpu_ms
    worker_games = worker_moves / moves_per_game
    socket_mb = worker_games * g["sockets"] * s["rss_kb_per_socket"] / 1024
    full = load_json("soak-default-cache.json")
    per_match = full.get("kb_per_cached_match") if full else None
    pg_moves = f["commits"]["with_notify"]
    pg_games = pg_moves / moves_per_game
    lines = [
        "| | figure | from |", "|---|---:|---|",
        f"| moves a second of one game | {moves_per_game:.3f} | {g['plies']} plies in {g['minutes']} minutes |",
        f"| CPU per move, {g['sockets']} sockets watching, rate limits in Redis | {cpu_ms:.2f} ms | {base_name}: "
        f"{base['server_cpu_ms_per_move']:.2f} ms, + {g['sockets'] - 2} × {s['cpu_us_per_push']:.0f} µs (sockets), "
        f"+ {limits_ms:.2f} ms (rate limits) |",
        f"| moves a second one worker carries | {worker_moves:,.0f} | {g['core_share']:.0%} of a core ÷ CPU per move |",
        f"| **games at once per worker** | **{worker_games:,.0f}** | ÷ moves a second of one game |",
        f"| their live views' memory | {socket_mb:,.0f} MB | × {g['sockets']} sockets × "
        f"{s['rss_kb_per_socket']:.0f} kB |",
        *([f"| its cache of 1,000 matches | {1000 * per_match / 1024:,.0f} MB | × {per_match:,.0f} kB a match "
           "(soak-default-cache) |"] if per_match else []),
        f"| notifying commits a second, one PostgreSQL | {pg_moves:,.0f} | fanout: commits with NOTIFY |",
        f"| **games at once per PostgreSQL** | **{pg_games:,.0f}** | ÷ moves a second of one game |",
        f"| workers before PostgreSQL's commits are the limit | {pg_games / worker_games:,.1f} | |",
    ]
    if two is not None:
        ratio = two["server_cpu_ms_per_move"] / one["server_cpu_ms_per_move"]
        ceiling = 2 * g["core_share"] * 1000 / two["server_cpu_ms_per_move"]
        lines += ["", f"Checked against two workers on PostgreSQL behind nginx on this machine (load-2-workers): "
                  f"{two['lost']} of {two['acknowledged']:,} acknowledged moves lost, {two['duplicated']} duplicated; "
                  f"{two['server_cpu_ms_per_move']:.2f} ms of the workers' CPU a move, {ratio:.1f} × one worker on "
                  f"SQLite ({one['server_cpu_ms_per_move']:.2f} ms): PostgreSQL's round trips, each worker hearing "
                  f"the other's NOTIFY, and two workers, PostgreSQL and nginx contending for two cores and their caches. The model gives two workers {ceiling:,.0f} moves a second "
                  f"at {g['core_share']:.0%} of each core; the run reached {two['moves_per_s']:,.1f}, the rate the "
                  f"machine left it (load average {two['load_average']:.1f}: two cores shared by the workers, "
                  "PostgreSQL, nginx, the bot workers and the load generator), not the workers' ceiling."]
    return "\n".join(lines)


BLOCKS: dict[str, Callable[[], str]] = {"soak": soak, "load": load_table, "fanout": fanout, "sockets": sockets,
                                        "ratelimits": ratelimits, "capacity": capacity}


def generate(text: str) -> str:
    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in BLOCKS:
            return match.group(0)
        return f"<!-- generated:{name} -->\n{BLOCKS[name]()}\n<!-- /generated:{name} -->"

    return re.sub(r"<!-- generated:([a-z]+) -->.*?<!-- /generated:\1 -->", fill, text, flags=re.S)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if docs/club.md differs from the JSON's figures")
    args = parser.parse_args()
    old = DOC.read_text()
    new = generate(old)
    if args.check:
        if new != old:
            print("docs/club.md is not what benchmarks/results/ gives: run python benchmarks/club_docs.py",
                  file=sys.stderr)
            return 1
        return 0
    DOC.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
