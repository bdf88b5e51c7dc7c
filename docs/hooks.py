"""MkDocs hooks of the documentation site (issue 39): the parts of pages that come from the code.

A page asks for them with an HTML comment on a line of its own:

* ``<!-- abstracta:rules GAME LANG -->`` — the game's rules page in LANG with its diagrams, drawn
  by the game's own SVG module (:func:`abstracta.core.diagrams.fill_rules`), as the app shows it;
* ``<!-- abstracta:variants GAME LANG -->`` — its variants, options and notation, from its
  description and catalogs;
* ``<!-- abstracta:openapi -->`` — the HTTP reference, from the web app's own OpenAPI schema;
* ``<!-- abstracta:measure NAME -->`` — a measurement table (and plot) generated from the
  benchmark's JSON, ``benchmarks/results/NAME.json`` (written by ``benchmarks/record.py``) or
  ``benchmarks/levels.json`` for the ladder. A benchmark without a JSON file says so: figures are
  never typed into a page by hand.

Everything here runs at build time, in the build's own process.
"""

from __future__ import annotations

import functools
import importlib.util
import io
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
MARKER = re.compile(r"^<!-- abstracta:(\w+)((?: [\w.:=,-]+)*) -->$", re.M)


# --- hook --------------------------------------------------------------------------------------
def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    def replace(match: re.Match[str]) -> str:
        kind, args = match.group(1), match.group(2).split()
        makers: dict[str, Callable[..., str]] = {"rules": rules, "variants": variants, "openapi": openapi,
                                                 "measure": measure}
        if kind not in makers:
            raise ValueError(f"{page.file.src_uri}: unknown marker abstracta:{kind}")
        return makers[kind](*args)

    return MARKER.sub(replace, markdown)


def _block(text: str) -> str:
    """Raw HTML as one Markdown block: no blank line inside (Markdown would end the block)."""
    return "\n".join(line for line in text.splitlines() if line.strip())


# --- the games ------------------------------------------------------------------------------------
def rules(name: str, lang: str = "en") -> str:
    from abstracta import load_game
    from abstracta.core.diagrams import fill_rules
    from abstracta.server import i18n

    game = load_game(name)
    page, shown = i18n.rules_html(game, lang)
    # the page's own headings (h3) become the site's sections (h2), so they are in its table of contents
    filled = fill_rules(page, game, shown).replace("<h3>", "\n\n## ").replace("</h3>", "\n\n")
    parts = re.split(r"(\n\n## [^\n]*\n\n)", filled)
    return "\n".join(part.strip("\n") if part.startswith("\n\n## ") else f'<div class="rules" markdown="0">{_block(part)}</div>'
                     for part in parts if part.strip())


def _words(lang: str) -> dict[str, Any]:
    from abstracta.server import i18n

    return i18n.catalog(lang)


def _say(words: dict[str, Any], key: str, english: str) -> str:
    found = words.get(key)
    return found if isinstance(found, str) else english


HEAD = {"en": {"variant": "Variant", "options": "Options", "option": "Option", "values": "Values",
               "default": "default", "what": "What it changes", "notation": "Notation", "play": "Play it",
               "seats": "players"},
        "fi": {"variant": "Muunnelma", "options": "Asetukset", "option": "Asetus", "values": "Arvot",
               "default": "oletus", "what": "Mitä se muuttaa", "notation": "Merkintätapa", "play": "Pelaa",
               "seats": "pelaajaa"}}


def variants(name: str, lang: str = "en") -> str:
    from abstracta import load_game

    game = load_game(name)
    d = game.description
    words, head = _words(lang), HEAD[lang]
    out = [f"| {head['variant']} | `--option` | {head['seats']} |", "| --- | --- | ---: |"]
    for v in d.variants:
        opts = " ".join(f"`{k}={str(val).lower() if isinstance(val, bool) else val}`" for k, val in v.options.items())
        players = type(game)(**v.options).num_players
        out.append(f"| {_say(words, v.label.key, v.label.en)} | {opts or '—'} | {players} |")
    out += ["", f"| {head['option']} | {head['values']} | {head['what']} |", "| --- | --- | --- |"]
    for spec in game.option_specs:
        text = d.options.get(spec.name)
        choices = ", ".join(f"`{spec.text_of(c)}`" for c in spec.choices) if spec.choices is not None else ""
        default = f"{head['default']} `{spec.text_of(spec.default)}`" if spec.default is not None else ""
        values = "; ".join(x for x in (choices, default) if x) or "—"
        what = _say(words, text.help.key, text.help.en) if text else spec.help
        out.append(f"| `{spec.name}` | {values} | {what} |")
    notation = _say(words, d.notation_help.key, d.notation_help.en)
    out += ["", f"**{head['notation']}.** {notation}", "",
            f"**{head['play']}:** `abstracta play {name}` · `make run` → "
            f"[http://127.0.0.1:8000/#/new/{name}](http://127.0.0.1:8000/#/new/{name})"]
    return "\n".join(out)


# --- the HTTP reference ----------------------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def _schema() -> dict[str, Any]:
    from abstracta.server.app import create_app

    with tempfile.TemporaryDirectory() as folder:
        return create_app(f"sqlite:///{folder}/schema.db", bot_workers=0).openapi()


def _type(schema: dict[str, Any]) -> str:
    if "$ref" in schema:
        ref = schema["$ref"].rsplit("/", 1)[-1]
        return f"[{ref}](#{ref.lower()})"
    if "anyOf" in schema:
        return " or ".join(_type(s) for s in schema["anyOf"])
    if schema.get("type") == "array":
        return f"list of {_type(schema.get('items', {}))}"
    if "const" in schema:
        return f"`{json.dumps(schema['const'])}`"
    return schema.get("type", "any")


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def openapi() -> str:
    schema = _schema()
    out = [f"Generated from the schema the server itself serves (`/openapi.json`, version "
           f"{schema['info']['version']}); every route lists the refusals it really answers.", ""]
    for path, methods in schema["paths"].items():
        for method, op in methods.items():
            out += [f"### `{method.upper()} {path}`", "", _cell(op.get("summary", "")), ""]
            if op.get("description"):
                out += [op["description"].strip(), ""]
            params = op.get("parameters", [])
            if params:
                out += ["| parameter | in | type | required | description |", "| --- | --- | --- | --- | --- |"]
                out += [f"| `{p['name']}` | {p['in']} | {_type(p.get('schema', {}))} | {'yes' if p.get('required') else 'no'} "
                        f"| {_cell(p.get('description', p.get('schema', {}).get('description', '')))} |" for p in params]
                out.append("")
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            if body:
                out += [f"Body: {_type(body)}", ""]
            out += ["| status | answer |", "| --- | --- |"]
            for code, answer in op.get("responses", {}).items():
                content = answer.get("content", {}).get("application/json", {}).get("schema")
                what = _cell(answer.get("description", ""))
                out.append(f"| {code} | {what}{' — ' + _type(content) if content else ''} |")
            out.append("")
    out += ["## Schemas", ""]
    for name, comp in sorted(schema.get("components", {}).get("schemas", {}).items()):
        out += [f"### {name}", ""]
        if comp.get("description"):
            out += [_cell(comp["description"]), ""]
        props = comp.get("properties", {})
        if props:
            required = set(comp.get("required", []))
            out += ["| field | type | required | description |", "| --- | --- | --- | --- |"]
            out += [f"| `{k}` | {_type(v)} | {'yes' if k in required else 'no'} | {_cell(v.get('description', ''))} |"
                    for k, v in props.items()]
            out.append("")
    return "\n".join(out)


# --- measurements --------------------------------------------------------------------------------
def _load(name: str) -> dict[str, Any] | None:
    path = RESULTS / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def _provenance(entry: dict[str, Any]) -> str:
    m = entry["machine"]
    load = f"load average {m['load_before'][0]:g} → {m['load_after'][0]:g}"
    return (f"*Measured {entry['date']} at commit `{entry['commit']}` on {m['cores']} cores ({load}; the machine "
            f"is shared, so absolute times are upper bounds), in {entry['seconds']:g} s, by* `{entry['command']}` "
            f"*— kept in* `benchmarks/results/{entry['benchmark']}.json`.")


def _missing(name: str, command: str) -> str:
    return (f'!!! note "Not yet measured as JSON"\n    `{command}` has no result in '
            f"`benchmarks/results/{name}.json` yet; run it through `python benchmarks/record.py {name} -- "
            f"{command}` to fill this in.")


def _table(columns: list[tuple[str, Callable[[dict[str, Any]], Any]]], rows: list[dict[str, Any]]) -> str:
    head = "| " + " | ".join(c for c, _ in columns) + " |"
    rule = "| " + " | ".join("---" for _ in columns) + " |"
    body = ["| " + " | ".join(_cell(_fmt(f(r))) for _, f in columns) + " |" for r in rows]
    return "\n".join([head, rule, *body])


def _fmt(v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int):
        return f"{v:,}"
    if isinstance(v, float):
        return f"{v:,.2f}" if abs(v) < 100 else f"{v:,.0f}"
    return str(v)


def _plot(draw: Callable[[Any], None], height: float = 3.2, width: float = 7.5) -> str:
    """A matplotlib figure as inline SVG (one raw block)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"font.size": 9, "svg.fonttype": "none", "svg.hashsalt": "abstracta"})
    fig, ax = plt.subplots(figsize=(width, height))
    draw(ax)
    fig.tight_layout()
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None})
    plt.close(fig)
    svg = buf.getvalue()
    svg = svg[svg.index("<svg"):]
    return f'<figure class="plot" markdown="0">{_block(svg)}</figure>'


def measure(name: str) -> str:
    maker = MEASURES.get(name)
    if maker is None:
        raise ValueError(f"no measurement page part named {name!r}")
    return maker()


def _result(name: str, command: str) -> tuple[dict[str, Any] | None, str]:
    entry = _load(name)
    return (entry, _provenance(entry)) if entry else (None, _missing(name, command))


def _engine() -> str:
    entry, said = _result("engine", "python benchmarks/engine.py --seconds 2")
    if entry is None:
        return said
    # one row per (configuration, metric) as `abstracta bench --json` writes them: pivoted here
    configs: dict[str, dict[str, Any]] = {}
    for row in entry["result"]:
        label = _variant_name(row)
        metric = row["metric"] if row.get("position", "start") == "start" else "mid"
        if metric == "mid":
            configs.setdefault(label, {}).setdefault("mid", []).append(row)
        else:
            configs.setdefault(label, {})[metric] = row

    def value(m: dict[str, Any], metric: str, ratio: str = "ratio_to_python_chess") -> str:
        row = m.get(metric)
        if row is None:
            return "—"
        r = row.get(ratio)
        return f"{row['value']:,.0f}" + (f" ({r:.2f}×)" if r is not None else "")

    lines = ["| game | perft nodes/s (× chess) | mid-game perft (× chess) | actions/s (× chess) | playouts/s | "
             "actions / game | turns / game | MCTS it/s (× playouts) | peak MiB |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for label, m in configs.items():
        mid = " ".join(f"{r['value']:,.0f} ({r['ratio_to_python_chess']:.2f}×)" for r in m.get("mid", [])) or "—"
        depth = m["perft_nodes_per_s"]["unit"].split("(")[-1].split(",")[0] if "perft_nodes_per_s" in m else ""
        lines.append(f"| {label} | {value(m, 'perft_nodes_per_s')} {depth} | {mid} | {value(m, 'actions_per_s')} | "
                     f"{m['playouts_per_s']['value']:,.1f} | {m['mean_actions']['value']:,.1f} | "
                     f"{m['mean_turns']['value']:,.1f} | {value(m, 'mcts_iterations_per_s', 'ratio_to_playouts')} | "
                     f"{m['peak_memory_mb']['value']:,.2f} |")

    def draw(ax: Any) -> None:
        labels = list(configs)
        ys = range(len(labels))
        perft = [(configs[k].get("perft_nodes_per_s") or {}).get("ratio_to_python_chess") or 0 for k in labels]
        play = [(configs[k].get("actions_per_s") or {}).get("ratio_to_python_chess") or 0 for k in labels]
        ax.barh([y - 0.2 for y in ys], perft, height=0.4, label="perft nodes/s", color="#2f6f4f")
        ax.barh([y + 0.2 for y in ys], play, height=0.4, label="random-play actions/s", color="#e0a100")
        ax.axvline(1, color="#444", lw=0.8)
        ax.set_yticks(list(ys), labels)
        ax.invert_yaxis()
        ax.set_xlabel("× python-chess, measured in the same run (1 = as fast)")
        ax.legend(loc="lower right")

    return "\n".join([said, "", *lines, "", _plot(draw, height=0.3 * len(configs) + 1.2)])


def _variant_name(r: dict[str, Any]) -> str:
    opts = r.get("options") or {}
    text = " ".join(f"{k}={v}" for k, v in opts.items()) if isinstance(opts, dict) else str(opts)
    return f"{r.get('game', '')} {text}".strip()


def _generic(value: Any) -> str:
    """A result as tables: a list of objects is a table with a column per key (nested values as
    JSON), an object's scalar fields a two-column table and its lists of objects tables of their own."""
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        keys: list[str] = []
        for row in value:
            keys += [k for k in row if k not in keys]
        return _table([(k, (lambda r, k=k: r.get(k) if not isinstance(r.get(k), (dict, list))
                            else json.dumps(r.get(k), ensure_ascii=False))) for k in keys], value)
    if isinstance(value, dict):
        scalars = [(k, v) for k, v in value.items() if not isinstance(v, (dict, list))]
        out = []
        if scalars:
            out.append(_table([("figure", lambda r: r[0]), ("value", lambda r: r[1])], scalars))  # type: ignore[list-item]
        for k, v in value.items():
            if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
                out += [f"**{k}**", "", _generic(v)]
            elif isinstance(v, dict) and v:
                out += [f"**{k}**", "", _generic(v)]
            elif isinstance(v, list):
                out.append(f"**{k}**: {', '.join(_fmt(x) for x in v) or '—'}")
        return "\n\n".join(out)
    return f"`{json.dumps(value, ensure_ascii=False)}`"


def _load_runs() -> str:
    """The load runs in one table, a row each (moves/s, round trips, the computer's wait, CPU per
    move, errors, moves lost or duplicated), the floor's last (``--floor``: the same client against
    an empty route, its "moves" requests)."""
    entries = [(name, _load(name)) for name in ("load", "load-base", "load-signed-in", "load-signed-in-base",
                                                "load-think250", "load-floor")]
    # load-base: an older commit run beside load on the same day, so a change shows against the
    # same machine (its speed varies from day to day); -signed-in: every person a guest signed in
    out = [_provenance(e) if e else _missing(n, MEASURED[n][0]) for n, e in entries]
    rows = [e for _, e in entries if e]
    if rows:
        out.append(_table([
            ("run", lambda e: f"`{e['command'].replace(' --json', '')}`"),
            ("commit", lambda e: f"`{e['commit']}`"),
            ("people", lambda e: "—" if e["result"]["mode"] == "floor" else
             "signed in" if e["result"].get("signed_in") else "seat tokens"),
            ("moves/s", lambda e: e["result"]["moves_per_s"]),
            ("p50 / p99 ms", lambda e: f"{e['result']['p50_ms']:,.0f} / {e['result']['p99_ms']:,.0f}"),
            ("max ms", lambda e: e["result"]["max_ms"]),
            ("computer p99 ms", lambda e: e["result"]["bot_p99_ms"]),
            ("server CPU ms / move", lambda e: e["result"]["server_cpu_ms_per_move"]),
            # searches run inside the web process (before issue 44's fast worker: levels 1-2, in a
            # thread of it), inside the figure above; then levels 1-2 in their own worker process
            ("of it, searches", lambda e: e["result"].get("bot_search_cpu_ms_per_move", "—")),
            ("levels 1–2, in their worker", lambda e: e["result"].get("fast_worker_cpu_ms_per_move", "—")),
            ("5xx", lambda e: e["result"]["server_errors"]),
            ("acknowledged", lambda e: e["result"]["acknowledged"]),
            ("lost", lambda e: e["result"]["lost"]),
            ("duplicated", lambda e: e["result"]["duplicated"]),
            ("load average", lambda e: e["result"].get("load_average")),
        ], rows))
    return "\n\n".join(out)


def _solved(entry: dict[str, Any]) -> str:
    """A solve's verdict in a sentence, then its figures."""
    r = entry["result"]
    size = r.get("options", {}).get("size", "")
    if r.get("solved"):
        word = {1: "a win", 0: "a draw", -1: "a loss"}[r["value"]]
        said = (f"**The {size} start is {word} for the side to move"
                + (f", in {r['distance']} turns" if r.get("distance") is not None else "") + ".**")
    else:
        said = f"**The {size} start is not solved** (every position up to the tables built is proved)."
    return said + "\n\n" + _generic(r)


def _tables(entry: dict[str, Any]) -> str:
    """An endgame-table build (``abstracta egtb build --json``): a row per table file."""
    out = []
    for game, built in entry["result"].items():
        rows = [{"table": name, **figures} for name, figures in built["tables"].items()]
        out.append(_table([("table", lambda r: r["table"]), ("positions", lambda r: r["positions"]),
                           ("mover wins", lambda r: r["wins"]), ("draws", lambda r: r["draws"]),
                           ("mover loses", lambda r: r["losses"]), ("longest (turns)", lambda r: r["longest"]),
                           ("file bytes", lambda r: r["bytes"])], rows))
        out.append(f"{len(rows)} tables, {sum(r['positions'] for r in rows):,} positions, "
                   f"{sum(r['bytes'] for r in rows):,} bytes, built in {built['seconds']:,.1f} s.")
    return "\n\n".join(out)


def _random_agents(entry: dict[str, Any]) -> str:
    """The table, and each variant's longest game beside the bound its adapter truncates at."""
    rows = entry["result"]["rows"]

    def draw(ax: Any) -> None:
        labels = [_variant_name(r) for r in rows]
        ys = range(len(rows))
        ax.barh(list(ys), [r["bound"] for r in rows], color="#ddd3bf", label="bound (Game.max_game_length / max_turns)")
        ax.barh(list(ys), [r["longest"] for r in rows], color="#2f6f4f", height=0.5, label="longest game played")
        ax.set_yticks(list(ys), labels)
        ax.invert_yaxis()
        ax.set_xlabel("player actions")
        ax.legend(loc="lower right")

    return _generic(entry["result"]) + "\n\n" + _plot(draw, height=0.3 * len(rows) + 1.2)


#: every measurement a page quotes: the command that measures it at its documented size, and how
#: its JSON is shown (None: as tables, field by field)
MEASURED: dict[str, tuple[str, Callable[[dict[str, Any]], str] | None]] = {
    "analysis": ("python benchmarks/analysis.py", None),
    "mcts-memory": ("python benchmarks/mcts_memory.py 10 fanorona size=tsivy", None),
    "load": ("python benchmarks/load.py --games 100 --seconds 30", None),
    "load-base": ("python benchmarks/load.py --games 100 --seconds 30 (at an older commit)", None),
    "load-signed-in": ("python benchmarks/load.py --games 100 --seconds 30 --signed-in", None),
    "load-signed-in-base": ("python benchmarks/load.py --games 100 --seconds 30 --signed-in (at an older commit)", None),
    "load-think250": ("python benchmarks/load.py --games 100 --seconds 30 --think-ms 250", None),
    "load-floor": ("python benchmarks/load.py --games 100 --seconds 30 --floor", None),
    "move-cpu": ("python benchmarks/move_cpu.py --moves 1500", None),
    "move-cpu-http": ("python benchmarks/move_cpu.py --moves 1500 --moves-over http", None),
    "move-cpu-long": ("python benchmarks/move_cpu.py --moves 3000 --matches 2 --games fibonacci", None),
    "view-cpu-long": ("python benchmarks/view_cpu.py --plies 1200 --matches 1", None),
    "crash": ("python benchmarks/crash.py", None),
    "bot-fairness": ("python benchmarks/bot_fairness.py", None),
    "replay": ("python benchmarks/replay.py", None),
    "fuzz": ("python benchmarks/fuzz.py", None),
    "solve-telo": ("python -m abstracta solve fanorona --option size=telo", _solved),
    "solve-dimy": ("python -m abstracta solve fanorona --option size=dimy", _solved),
    "egtb-tsivy-4": ("python -m abstracta egtb build fanorona --stones 4 --executor process --workers 2", _tables),
    "egtb-tsivy-5": ("python -m abstracta egtb build fanorona --stones 5 --executor process --workers 2", _tables),
    "egtb-dimy-5": ("python -m abstracta egtb build fanorona --option size=dimy --stones 5 --executor process "
                    "--workers 2", _tables),
    "egtb-build": ("python benchmarks/egtb_build.py --stones 4 --executors serial,process,ray --workers 2", None),
    "hold-draw": ("python benchmarks/hold_draw.py fanorona --games 10 --executor process --workers 2", None),
    "interop-random-agents": ("python benchmarks/interop_random_agents.py --games 1000", _random_agents),
    "openspiel-strength": ("python benchmarks/openspiel_strength.py --games 4 --time-scale 0.1", None),
}


def _measured(name: str) -> str:
    command, show = MEASURED[name]
    entry, said = _result(name, command)
    if entry is None:
        return said
    return said + "\n\n" + (show(entry) if show else _generic(entry["result"]))


MEASURES: dict[str, Callable[[], str]] = {"engine": _engine, "levels": lambda: _levels(), "load-runs": _load_runs,
                                          **{name: functools.partial(_measured, name) for name in MEASURED}}


def _levels() -> str:
    """The ladder from ``benchmarks/levels.json``, through ``benchmarks/levels.py``'s own table and
    its statistics (only games of today's levels count), and a plot of each pair's score."""
    spec = importlib.util.spec_from_file_location("abstracta_levels_bench", ROOT / "benchmarks" / "levels.py")
    assert spec and spec.loader
    levels = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = levels
    spec.loader.exec_module(levels)
    data = levels.load()
    rows = []
    for name, options, upper in levels.pairings():
        entry = data["pairings"].get(levels.key(name, options, upper))
        if entry and entry["games"]:
            n, score = levels.summary(entry)
            if n:
                rows.append((levels.key(name, options, upper), n, score, levels.interval(score, n),
                             levels.verdict(score, n)))
    total = sum(len(e["games"]) for e in data["pairings"].values())
    counted = sum(r[1] for r in rows)
    separated = sum(1 for r in rows if r[4] == "separated")
    said = (f"*Generated from `benchmarks/levels.json` ({total:,} games; {counted:,} of them measured today's "
            f"levels and count): {separated} of the {len(rows)} pairs measured are separated.*")

    def draw(ax: Any) -> None:
        ys = range(len(rows))
        for y, (label, n, score, (low, high), verdict) in zip(ys, rows):
            colour = "#2f6f4f" if verdict == "separated" else "#c62828" if verdict == "not separated" else "#888"
            ax.errorbar([100 * score / n], [y], xerr=[[100 * (score / n - low)], [100 * (high - score / n)]],
                        fmt="o", color=colour, ms=4, capsize=2)
        ax.axvline(65, color="#e0a100", lw=1, ls="--", label="65 % (H1)")
        ax.axvline(50, color="#444", lw=0.8, label="50 %")
        ax.set_yticks(list(ys), [r[0] for r in rows], fontsize=7)
        ax.invert_yaxis()
        ax.set_xlabel("the upper level's score against the level below, with its 95 % interval")
        ax.set_xlim(0, 100)
        ax.legend(loc="lower left")

    return "\n".join([said, "", levels.table(data), "", _plot(draw, height=0.17 * len(rows) + 1.2, width=8)])
