"""Fuzz the web app from outside (issue 14 §5): schemathesis over ``/openapi.json`` plus
hand-written hostile requests, against a server of its own.

    python benchmarks/fuzz.py                       # about 3 minutes on 2 cores
    python benchmarks/fuzz.py --max-examples 10 --seconds 40 --json

It starts ``abstracta serve`` on a free loopback port with a fresh SQLite database and the rate
limits off, creates a match of every game (moves played) whose tokens it keeps to itself (the
*protected* matches) and one *playground* match, then:

1. runs schemathesis (``st run``, every check, phases examples/coverage/fuzzing) twice: as a
   stranger (the path's ``match_id`` is a protected match, the token another match's) and as
   the playground's players (its id and both tokens: acts reach the engine);
2. sends hand-written requests: malformed moves, tokens, positions and records, oversized and
   non-UTF-8 bodies, foreign Host headers, WebSockets with a foreign Origin or Host;
3. fetches every protected match again (view, positions, record) and compares.

Prints a table and, with ``--json``, one JSON object as the last line: ``requests`` (sent),
``server_errors`` (5xx or a dropped connection: must be 0), ``schema_violations`` (answers the
schema does not allow, or requests the schema allows refused, per schemathesis: must be 0),
``changed_matches`` (protected matches whose view, positions or record changed: must be 0),
``unexpected`` (hand-written requests answered with another status than expected) and
``findings`` (schemathesis's other checks, by name).

``positive_data_acceptance`` accepts 409 and 422 on the operations whose validity depends on the
game's rules or the match's state, which no schema states: a move that is not legal here, an
option value the chosen game refuses, a record that does not replay, a seat number past the
match's players, an invitation claimed already (410), a pasted position text that is not
the game's or a hint where none is offered (the analysis board). The players' run leaves DELETE out (the stranger's run and the hand-written
requests try it), so that its match lives long enough for the acts to reach the engine.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

#: schemathesis failure types that mean the server and its schema disagree
SCHEMA_TYPES = {
    "UndefinedStatusCode", "UndefinedContentType", "JsonSchemaError", "MalformedJson", "MissingHeaders",
    "AcceptedNegativeData", "RejectedPositiveData", "MissingHeaderNotRejected", "AllowHeaderMismatch",
    "UnsupportedMethodResponse", "MissingContentType", "MalformedMediaType",
}
SERVER_TYPES = {"ServerError"}

#: operations whose acceptance depends on the rules or the state (see the module docstring)
RULE_DEPENDENT = (r"^/api/(invites/claim|analysis(/graph)?|matches(/import|/\{match_id\}(/(actions|undo|takeback"
                  r"|takeback/answer|flag|resign|invites|positions))?)?)$")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``abstracta serve`` in a subprocess on a fresh SQLite database, rate limits off."""

    def __init__(self, folder: Path):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = open(folder / "server.log", "w")
        env = {**os.environ, "ABSTRACTA_RATE_LIMITS": "off"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "abstracta.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--db", f"sqlite:///{folder / 'fuzz.db'}", "--no-rate-limits"],
            stdout=self.log, stderr=subprocess.STDOUT, env=env)
        deadline = time.time() + 60
        while True:
            try:
                if call(self.port, "GET", "/api/games")[0] == 200:
                    return
            except OSError:
                pass
            if time.time() > deadline or self.proc.poll() is not None:
                raise RuntimeError(f"the server did not start (see {folder / 'server.log'})")
            time.sleep(0.2)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


def call(port: int, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
         raw: bytes | None = None, host: str | None = None) -> tuple[int, dict[str, str], bytes]:
    """One request on its own connection: ``body`` as JSON, or ``raw`` bytes as they are;
    ``host`` replaces the Host header (``""``: none at all)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        if host != "":
            conn.putheader("Host", host if host is not None else f"127.0.0.1:{port}")
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else b"")
        hdrs = dict(headers or {})
        if body is not None and "Content-Type" not in hdrs:
            hdrs["Content-Type"] = "application/json"
        if data or method in ("POST", "PUT", "PATCH", "DELETE"):
            hdrs.setdefault("Content-Length", str(len(data)))
        for k, v in hdrs.items():
            conn.putheader(k, v)
        conn.endheaders()
        if data:
            try:
                conn.send(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # refused before the whole body was read (413): the answer is there
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
    finally:
        conn.close()


def bearer(*tokens: str) -> dict[str, str]:
    return {"Authorization": "Bearer " + ",".join(tokens)}


# --- seeding ---------------------------------------------------------------------------------
def make_match(port: int, game: str, moves: int) -> dict[str, Any]:
    """A person-against-person match of ``game`` (both seats' tokens kept), ``moves`` plies in."""
    status, _, data = call(port, "POST", "/api/matches", {"game": game, "take": "all",
                                                         "seats": ["human"] * players(port, game)})
    if status != 201:
        raise RuntimeError(f"cannot create a match of {game}: {status} {data[:200]!r}")
    view = json.loads(data)
    tokens = [t["token"] for t in view["tokens"]]
    for _ in range(moves):
        status, _, data = call(port, "GET", f"/api/matches/{view['id']}", headers=bearer(*tokens))
        view = {**json.loads(data), "tokens": view["tokens"]}
        if view["status"] != "playing" or not view["legal"]:
            break
        seat = view["to_move"]
        status, _, data = call(port, "POST", f"/api/matches/{view['id']}/actions?seat={seat}",
                               {"action": view["legal"][0], "ply": view["ply"]}, headers=bearer(*tokens))
        if status != 200:
            raise RuntimeError(f"seeding {game}: move refused: {status} {data[:200]!r}")
    return {"id": view["id"], "game": game, "tokens": tokens}


_PLAYERS: dict[str, int] = {}


def players(port: int, game: str) -> int:
    if game not in _PLAYERS:
        _PLAYERS[game] = json.loads(call(port, "GET", f"/api/games/{game}")[2])["num_players"]
    return _PLAYERS[game]


def snapshot(port: int, match: dict[str, Any]) -> list[tuple[int, bytes]]:
    """What a protected match looks like to its players: view, positions, record."""
    mid, auth = match["id"], bearer(*match["tokens"])
    return [call(port, "GET", f"/api/matches/{mid}", headers=auth)[::2],
            call(port, "GET", f"/api/matches/{mid}/positions", headers=auth)[::2],
            call(port, "GET", f"/api/matches/{mid}/record", headers=auth)[::2]]


# --- schemathesis ----------------------------------------------------------------------------
def schemathesis(server: Server, folder: Path, name: str, match_id: str, tokens: list[str],
                 max_examples: int, seconds: int, seed: int, extra: tuple[str, ...] = ()) -> dict[str, Any]:
    """One ``st run``: its request count (from the HAR report) and failures by type."""
    config = folder / f"{name}.toml"
    config.write_text(
        f'[parameters]\n"path.match_id" = "{match_id}"\n\n'
        f"[[operations]]\ninclude-path-regex = '{RULE_DEPENDENT}'\n"
        '[operations.checks.positive_data_acceptance]\n'
        'expected-statuses = ["2xx", "401", "403", "404", "409", "410", "422"]\n')
    har, report = folder / f"{name}.har", folder / f"{name}.json"
    st = shutil.which("st", path=str(Path(sys.executable).parent)) or shutil.which("st")
    if st is None:
        raise RuntimeError("schemathesis is not installed (pip install -e '.[bench]')")
    cmd = [st, "--config-file", str(config), "run", f"{server.url}/openapi.json", "--checks", "all",
           "--phases", "examples,coverage,fuzzing", "--max-examples", str(max_examples),
           "--max-time", str(seconds), "--seed", str(seed), "--workers", "1", "--no-color",
           "-H", f"Authorization: Bearer {','.join(tokens)}",
           "--report", "har,json", "--report-har-path", str(har), "--report-json-path", str(report),
           "--request-timeout", "30", "--generation-database", "none", *extra]
    with open(folder / f"{name}.out", "w") as out:
        subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT, timeout=seconds + 120)
    entries = json.loads(har.read_text())["log"]["entries"] if har.exists() else []
    result = json.loads(report.read_text()) if report.exists() else {"failures": [], "errors": []}
    failures: dict[str, int] = {}
    for f in result.get("failures", []):
        failures[f["type"]] = failures.get(f["type"], 0) + f.get("count", 1)
    statuses: dict[str, int] = {}
    for e in entries:
        key = f"{e['response']['status'] // 100}xx"
        statuses[key] = statuses.get(key, 0) + 1
    return {"requests": len(entries), "statuses": statuses,
            "server_errors": sum(1 for e in entries if e["response"]["status"] >= 500),
            "failures": failures, "errors": len(result.get("errors", [])),
            "output": str(folder / f"{name}.out")}


# --- hand-written requests -------------------------------------------------------------------
def hostile(port: int, protected: list[dict[str, Any]], playground: dict[str, Any]) -> list[dict[str, Any]]:
    """Every hand-written request with the statuses it may get (anything else is unexpected)."""
    p0 = protected[0]
    mine, theirs = bearer(*playground["tokens"]), bearer(p0["tokens"][0])
    pid, xid = playground["id"], p0["id"]
    cases: list[tuple[str, str, str, dict[str, Any]]] = []

    def case(label: str, method: str, path: str, expect: set[int], **kw: Any) -> None:
        cases.append((label, method, path, {"expect": expect, **kw}))

    # malformed moves, on a match the sender plays and on one it does not
    for action in ["", " ", "\x00", "z" * 1000, "z" * 1001, "é∂ƒ😀", "a1-a2-a3-" * 50, "1" * 999, "end", "\ud800"]:
        body = json.dumps({"action": action, "ply": 0}, ensure_ascii=True).encode()
        case(f"move {action[:12]!r}", "POST", f"/api/matches/{pid}/actions", {404, 409, 422},
             raw=body, headers={**mine, "Content-Type": "application/json"})
        case(f"move {action[:12]!r} on another's match", "POST", f"/api/matches/{xid}/actions", {403, 409, 422},
             raw=body, headers={**mine, "Content-Type": "application/json"})
    for body in [{"action": "x"}, {"ply": 0}, {"action": 5, "ply": 0}, {"action": ["x"], "ply": 0},
                 {"actions": [], "ply": 0}, {"actions": ["x"] * 65, "ply": 0}, {"action": "x", "ply": -1},
                 {"action": "x", "ply": 2 ** 70}, {"action": "x", "ply": 1.5}, {"action": "x", "ply": "0"},
                 {"action": "x", "ply": True}, {"action": "x", "ply": 0, "seat": 99}, {"action": "x", "ply": 0, "seat": -1},
                 {"action": None, "actions": None, "ply": 0}, [], "x", None, 12, {"action": {"a": 1}, "ply": 0}]:
        case(f"move body {json.dumps(body)[:30]}", "POST", f"/api/matches/{pid}/actions", {409, 422},
             raw=json.dumps(body).encode(), headers={**mine, "Content-Type": "application/json"})
    for q in ["?seat=abc", "?seat=-1", "?seat=99999999999999999999", "?seat=1&seat=0", "?seat=%00"]:
        case(f"move {q}", "POST", f"/api/matches/{pid}/actions{q}", {403, 409, 422}, body={"action": "x", "ply": 0},
             headers=mine)
    # tokens
    for auth in ["Bearer", "Bearer ", "Basic abc", "Bearer " + "a" * 10_000, "Bearer " + "," * 5000,
                 "Bearer " + ",".join(["t"] * 100), "bearer " + p0["tokens"][0] + "x", "Bearer \t" + p0["tokens"][0][:-1],
                 "Bearer " + "ü" * 30]:
        case(f"token {auth[:20]!r}", "POST", f"/api/matches/{xid}/resign", {401, 403},
             raw=b"{}", headers={"Authorization": auth, "Content-Type": "application/json"})
        # a token past 64 characters is refused even on a read, never taken for no token
        too_long = any(len(t.strip()) > 64 for t in auth.partition(" ")[2].split(","))
        case(f"view with token {auth[:20]!r}", "GET", f"/api/matches/{xid}", {401} if too_long else {200},
             headers={"Authorization": auth})
    for m in protected:
        case(f"delete {m['game']} with a foreign token", "DELETE", f"/api/matches/{m['id']}", {403}, headers=mine)
        case(f"undo {m['game']} with a foreign token", "POST", f"/api/matches/{m['id']}/undo", {403}, headers=mine)
        case(f"resign {m['game']} without a token", "POST", f"/api/matches/{m['id']}/resign", {401}, body={"seat": 0})
        case(f"reinvite {m['game']} with a foreign token", "POST", f"/api/matches/{m['id']}/invites", {403}, headers=mine)
        case(f"record {m['game']}", "GET", f"/api/matches/{m['id']}/record", {200, 409})
    for mid in ["", "%00", "..", "../api/games", "a" * 300, "%ff%fe", "x y", "' OR 1=1 --"]:
        case(f"match id {mid[:12]!r}", "GET", f"/api/matches/{quote(mid, safe='%/.')}", {200, 404, 405})
    # positions and options
    for name, query in [("fanorona", "?size=x"), ("nibble", "?variant=" + "z" * 5000), ("fibonacci", "?players=-1"),
                        ("slide-checkers", "?players=99"), ("fibonacci-cards", "?seed=notanumber"),
                        ("nope", ""), ("fanorona", "?%00=1")]:
        case(f"game {name}{query[:15]}", "GET", f"/api/games/{name}{query}", {200, 404, 422})
    for opts in [{"size": "nope"}, {"players": 1}, {"players": "9"}, {"seed": -5}, {"seed": 2 ** 80}, {"x" * 100: 1},
                 {"variant": ["a"]}, {"seed": {"a": 1}}]:
        for game in ("fanorona", "nibble", "fibonacci", "fibonacci-cards", "slide-checkers"):
            case(f"create {game} {json.dumps(opts)[:20]}", "POST", "/api/matches", {201, 422},
                 body={"game": game, "options": opts})
    # records
    base = {"format": "abstracta-record", "version": 1, "game": "nibble", "options": {}, "players": [], "moves": []}
    for record in [{}, {"format": "x"}, {**base, "version": 99}, {**base, "game": "nope"}, {**base, "moves": ["zz"]},
                   {**base, "moves": [1, 2]}, {**base, "start": "garbage position"}, {**base, "start": "x" * 20_000},
                   {**base, "result": [1, 1], "termination": "normal"}, {**base, "termination": "resignation"},
                   {**base, "players": ["god"]}, {**base, "tags": {"k" * 1000: "v"}}, {**base, "moves": ["a1"] * 5000},
                   {**base, "seed": "abc"}, {**base, "game": "fibonacci-cards", "seed": -1, "moves": ["d"]}]:
        case(f"import {json.dumps(record)[:40]}", "POST", "/api/matches/import", {201, 404, 422}, body={"record": record})
    # bodies: oversized, non-UTF-8, not JSON, wrong type, on every kind of act
    acts = [("POST", "/api/matches"), ("POST", "/api/matches/import"), ("POST", "/api/invites/claim"),
            ("POST", "/api/invites/lookup"), ("POST", f"/api/matches/{pid}/actions"), ("POST", f"/api/matches/{pid}/undo"),
            ("POST", f"/api/matches/{pid}/resign"), ("POST", f"/api/matches/{pid}/takeback/answer"),
            ("DELETE", f"/api/matches/{pid}")]
    for method, path in acts:
        case(f"{path[-20:]} 2.1 MB", method, path, {413}, raw=b"{" + b" " * 2_100_000 + b"}",
             headers={**mine, "Content-Type": "application/json"})
        case(f"{path[-20:]} non-UTF-8", method, path, {422}, raw=b'{"game": "\xff\xfe"}',
             headers={**mine, "Content-Type": "application/json"})
        case(f"{path[-20:]} nested", method, path, {422}, raw=b"[" * 50_000, headers={**mine, "Content-Type": "application/json"})
        case(f"{path[-20:]} broken JSON", method, path, {422}, raw=b'{"a": ', headers={**mine, "Content-Type": "application/json"})
        for ctype, raw in [("application/x-www-form-urlencoded", b"seat=0"), ("text/plain", b"{}"),
                           ("multipart/form-data; boundary=b", b"--b\r\nContent-Disposition: form-data; name=\"seat\"\r\n\r\n0\r\n--b--\r\n"),
                           ("", b"{}")]:
            case(f"{path[-20:]} as {ctype[:20] or 'no type'}", method, path, {415}, raw=raw,
                 headers={**mine, **({"Content-Type": ctype} if ctype else {})})
        case(f"{path[-20:]} Content-Length x", method, path, {400}, raw=b"", headers={**mine, "Content-Length": "x"})
    # foreign Host headers (DNS rebinding) on reads and acts
    for host in ["evil.example", "evil.example:80", "127.0.0.1.evil.example", "[::2]:8000", "a b", "",
                 "x" * 300, "localhost:80@evil.example"]:
        case(f"Host {host[:20]!r}", "GET", "/api/games", {400}, host=host)
        case(f"Host {host[:20]!r} act", "POST", f"/api/matches/{xid}/resign", {400}, body={"seat": 0},
             headers=bearer(*p0["tokens"]), host=host)
    for method in ("PUT", "PATCH", "OPTIONS", "TRACE"):
        case(f"{method} a match", method, f"/api/matches/{xid}", {405}, headers=bearer(*p0["tokens"]))

    out = []
    for label, method, path, kw in cases:
        expect = kw.pop("expect")
        try:
            status = call(port, method, path, **kw)[0]
        except (OSError, http.client.HTTPException) as exc:
            status = -1
            label += f" ({type(exc).__name__})"
        out.append({"label": label, "status": status, "expect": sorted(expect)})
    return out


def sockets(port: int, protected: dict[str, Any]) -> list[dict[str, Any]]:
    """WebSockets: a foreign Origin or Host gets no view; the page's own Origin does."""
    from websockets.exceptions import InvalidStatus, InvalidHandshake
    from websockets.sync.client import connect

    url = f"ws://127.0.0.1:{port}/api/matches/{protected['id']}/ws"
    out = []
    for label, origin, host, want_view in [
            ("same origin", f"http://127.0.0.1:{port}", None, True),
            ("no Origin (not a browser)", None, None, True),
            ("foreign Origin", "http://evil.example", None, False),
            ("Origin on another port", "http://127.0.0.1:1", None, False),
            ("Origin null", "null", None, False),
            ("foreign Host", f"http://evil.example:{port}", f"evil.example:{port}", False)]:
        got_view = False
        try:
            # the URL names the Host header; the socket goes to this server all the same
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            target = url.replace(f"127.0.0.1:{port}", host) if host else url
            with connect(target, sock=sock, origin=origin, open_timeout=10) as ws:
                ws.send(json.dumps({"tokens": protected["tokens"]}))
                got_view = "position" in json.loads(ws.recv(timeout=10))
        except (InvalidStatus, InvalidHandshake, OSError, TimeoutError):
            got_view = False
        except Exception:  # noqa: BLE001 - a closed socket after acceptance: no view either
            got_view = False
        out.append({"label": f"WebSocket {label}", "status": 101 if got_view else 403,
                    "expect": [101] if want_view else [403]})
    return out


# --- main ------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--max-examples", type=int, default=25, help="schemathesis examples per operation and run")
    ap.add_argument("--seconds", type=int, default=90, help="time budget of each schemathesis run")
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    started = time.time()
    folder = Path(tempfile.mkdtemp(prefix="abstracta-fuzz-"))
    server = Server(folder)
    try:
        games = [g["name"] for g in json.loads(call(server.port, "GET", "/api/games")[2])]
        protected = [make_match(server.port, g, moves=3) for g in games]
        playground = make_match(server.port, games[0], moves=1)
        before = [snapshot(server.port, m) for m in protected]
        runs = {
            "stranger": schemathesis(server, folder, "stranger", protected[0]["id"], playground["tokens"][:1],
                                     args.max_examples, args.seconds, args.seed),
            "player": schemathesis(server, folder, "player", playground["id"], playground["tokens"],
                                   args.max_examples, args.seconds, args.seed + 1, ("--exclude-method", "DELETE")),
        }
        playground = make_match(server.port, games[0], moves=1)  # the players' run may have ended the first
        hand = hostile(server.port, protected, playground) + sockets(server.port, protected[1 % len(protected)])
        alive = server.alive()
        after = [snapshot(server.port, m) for m in protected]
    finally:
        server.stop()
    failures: dict[str, int] = {}
    for run in runs.values():
        for kind, n in run["failures"].items():
            failures[kind] = failures.get(kind, 0) + n
    unexpected = [h for h in hand if h["status"] not in h["expect"]]
    result = {
        "requests": sum(r["requests"] for r in runs.values()) + len(hand) + 6 * len(protected),
        "server_errors": sum(r["server_errors"] for r in runs.values())
        + sum(1 for h in hand if h["status"] >= 500 or h["status"] < 0) + (0 if alive else 1),
        "schema_violations": sum(n for k, n in failures.items() if k in SCHEMA_TYPES),
        "changed_matches": sum(1 for b, a in zip(before, after) if b != a),
        "unexpected": len(unexpected),
        "findings": {k: n for k, n in failures.items() if k not in SCHEMA_TYPES | SERVER_TYPES},
        "schemathesis_errors": sum(r["errors"] for r in runs.values()),
        "protected_matches": len(protected),
        "seconds": round(time.time() - started, 1),
    }
    print(f"{'run':<12}{'requests':>10}{'2xx':>7}{'4xx':>7}{'5xx':>6}  failures (schemathesis types)")
    for name, run in runs.items():
        print(f"{name:<12}{run['requests']:>10}{run['statuses'].get('2xx', 0):>7}{run['statuses'].get('4xx', 0):>7}"
              f"{run['server_errors']:>6}  "
              f"{', '.join(f'{k} {v}' for k, v in sorted(run['failures'].items())) or '-'}")
    print(f"{'hand-written':<12}{len(hand):>10}{'':>14}{sum(1 for h in hand if h['status'] >= 500 or h['status'] < 0):>6}  "
          f"{len(unexpected)} unexpected")
    for h in unexpected[:20]:
        print(f"    unexpected: {h['label']}: {h['status']} (expected {h['expect']})")
    print()
    for key in ("requests", "server_errors", "schema_violations", "changed_matches", "unexpected", "seconds"):
        print(f"{key:<20}{result[key]:>10}")
    if result["findings"]:
        print(f"{'findings':<20}{json.dumps(result['findings']):>10}")
    if any(result[k] for k in ("server_errors", "schema_violations", "changed_matches", "unexpected")):
        print(f"schemathesis's output, reports and the server log are kept in {folder}")
    else:
        shutil.rmtree(folder, ignore_errors=True)
    if args.json:
        print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
