"""Write a database of tests/server/legacy/: games stored by the server of an earlier version,
which the server of today must upgrade (Alembic, issue 40 §2), open unchanged and play on.

Run with THAT version (a checkout of it, ``python tests/server/legacy/make_legacy_db.py OUT_DIR
NAME``): ``e426a3e`` (before the play session, issue 37; no people yet) and ``main-a0b5ecc``
(main before migrations: the people's tables too, made by ``create_all``, and an account signed
up). The files it writes are committed beside this script: ``NAME.sqlite`` (the database) and
``NAME.json`` (the tokens of each game's seats, and the view each seat had when the server
stopped, for the test to compare; the account's name and password). Time is the fixed ``NOW``
below (the clocks' ``since``): the test sets its hand clock there.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import sys
import time as real_time
from pathlib import Path

from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/server (apiutil)

from apiutil import make_app  # noqa: E402

NOW = 1_760_000_000.0


class Hand:
    def __init__(self):
        self.now = NOW

    def time(self):
        return self.now

    monotonic = staticmethod(real_time.monotonic)  # the analysis's deadline
    perf_counter = staticmethod(real_time.perf_counter)  # the kernel's timings (main after e426a3e)


def main(out: Path, label: str = "e426a3e") -> None:
    from abstracta.server import matches

    hand = Hand()
    matches.time = hand  # the service's clock, moved by hand
    db = out / f"{label}.sqlite"
    db.unlink(missing_ok=True)
    games: dict[str, dict] = {}
    account = None
    with TestClient(make_app(f"sqlite:///{db}", bot_workers=0, rate_limits=False)) as raw:
        if raw.post("/api/accounts", json={}).status_code != 404:  # a version with people (issue 41)
            account = {"username": "Legacy_anna", "password": "correct horse battery"}
            r = raw.post("/api/accounts", json=account)
            assert r.status_code == 201, r.text
            raw.cookies.clear()  # the games below are played by their seat tokens

        def new(name, body, claim=True):
            view = raw.post("/api/matches", json=body).json()
            tokens = {t["seat"]: t["token"] for t in view["tokens"]}
            if claim:
                for invite in view["invites"]:
                    got = raw.post("/api/invites/claim", json={"code": invite["code"]}).json()
                    tokens[invite["seat"]] = got["tokens"][0]["token"]
            games[name] = {"id": view["id"], "tokens": {str(k): v for k, v in tokens.items()}}
            return view["id"], tokens

        def act(mid, path, token, **body):
            r = raw.post(f"/api/matches/{mid}/{path}", json=body or None,
                         headers={"Authorization": f"Bearer {token}"})
            assert r.status_code == 200, (path, body, r.status_code, r.text)
            return r.json()

        def settle(mid, token, pred, timeout=30.0):
            deadline = real_time.time() + timeout
            while True:
                view = raw.get(f"/api/matches/{mid}", headers={"Authorization": f"Bearer {token}"}).json()
                if pred(view):
                    return view
                assert real_time.time() < deadline, view
                real_time.sleep(0.05)

        def first_legal(mid, token, times, seat=None):
            for _ in range(times):
                view = settle(mid, token, lambda v: not v["thinking"] and v["legal"])
                act(mid, "actions", token, action=view["legal"][0], ply=view["ply"])

        # 1. Fanorona between two people (a friend invited, the seat claimed): in play, a draw
        #    offer of seat 0 pending, a takeback asked by seat 1 before that and declined
        mid, tok = new("fanorona_people", {"game": "fanorona", "seats": ["human", "human"]})
        for _ in range(3):
            view = settle(mid, tok[0], lambda v: True)
            mover = view["to_move"]
            first_legal(mid, tok[mover], 1)
        act(mid, "takeback", tok[1])
        act(mid, "takeback/answer", tok[0], accept=False)
        view = settle(mid, tok[0], lambda v: True)
        act(mid, "draw", tok[view["to_move"]])

        # 2. Nibble against the computer at level 1, a hint asked (counted in the record)
        mid, tok = new("nibble_computer", {"game": "nibble", "seats": ["human", "level:1"]})
        for _ in range(2):
            first_legal(mid, tok[0], 1)
            settle(mid, tok[0], lambda v: v["to_move"] == 0 and not v["thinking"])
        r = raw.post("/api/analysis", json={"match_id": mid, "hint": True, "scale": 0.05},
                     headers={"Authorization": f"Bearer {tok[0]}"})
        assert r.status_code == 200, r.text

        # 3. finished: Fanorona Dimy resigned by seat 1, and Fanorona drawn by agreement
        mid, tok = new("fanorona_resigned", {"game": "fanorona", "options": {"size": "dimy"},
                                             "seats": ["human", "human"]})
        first_legal(mid, tok[0], 1)
        act(mid, "resign", tok[1], seat=1)
        mid, tok = new("fanorona_agreed", {"game": "fanorona", "seats": ["human", "human"]})
        first_legal(mid, tok[0], 1)
        first_legal(mid, tok[1], 1)
        act(mid, "draw", tok[0])
        act(mid, "draw/answer", tok[1], accept=True)

        # 4. the card game against the computer (hidden hands), a few turns in
        mid, tok = new("cards_computer", {"game": "fibonacci-cards", "options": {"seed": 7},
                                          "seats": ["human", "level:1"]})
        for _ in range(3):
            view = settle(mid, tok[0], lambda v: v["over"] if "over" in v else
                          (v["status"] == "over" or (v["to_move"] == 0 and not v["thinking"])))
            if view["status"] == "over":
                break
            act(mid, "actions", tok[0], action=view["legal"][0], ply=view["ply"])

        # 5. Slide Checkers, three people on a live clock (5 min + 3 s); Red's flag fell, the
        #    computer plays its moves since, and the game goes on between Green and Blue
        mid, tok = new("slide_three_clock", {"game": "slide-checkers", "options": {"players": 3},
                                             "seats": ["human", "human", "human"],
                                             "clock": {"initial": 300, "increment": 3}})
        for _ in range(4):
            view = settle(mid, tok[0], lambda v: not v["thinking"])
            hand.now += 7
            first_legal(mid, tok[view["to_move"]], 1)
        view = settle(mid, tok[0], lambda v: not v["thinking"])
        while view["to_move"] != 2:
            hand.now += 5
            first_legal(mid, tok[view["to_move"]], 1)
            view = settle(mid, tok[0], lambda v: not v["thinking"])
        hand.now += 400  # Red's (seat 2) time runs out
        view = settle(mid, tok[0], lambda v: 2 in (v["clock"] or {}).get("out", []) and not v["thinking"]
                      and v["to_move"] != 2)
        hand.now += 4

        # what each seat (and a spectator) sees now
        for name, game in games.items():
            views = {}
            for seat, token in [(None, None), *game["tokens"].items()]:
                headers = {"Authorization": f"Bearer {token}"} if token else {}
                view = raw.get(f"/api/matches/{game['id']}", headers=headers).json()
                # the structured view is the game's drawing of the position the view names: its
                # digest is enough to tell it unchanged
                view["struct"] = digest(view["struct"])
                views["spectator" if seat is None else seat] = view
            game["views"] = views
            game["record"] = raw.get(f"/api/matches/{game['id']}/record").json() \
                if views["spectator"]["status"] == "over" else None
    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode=DELETE")
    con.execute("VACUUM")
    con.close()
    (out / f"{label}.json").write_text(json.dumps({"now": hand.now, "games": games, "account": account},
                                                 sort_keys=True) + "\n")


def digest(struct: dict) -> str:
    """SHA-256 of a structured view as canonical JSON."""
    return hashlib.sha256(json.dumps(struct, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


if __name__ == "__main__":
    main(Path(sys.argv[1]), *sys.argv[2:3])
