"""benchmarks/fuzz.py's hand-written token requests expect what the server answers: a fuzz run
that reports "unexpected" must mean the server changed, not that the script fell behind it."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/ (bench_util)

from bench_util import load_benchmark  # noqa: E402


def test_hand_written_token_cases_expect_the_servers_answers(client):
    fuzz = load_benchmark("fuzz")
    seats = {"game": "fanorona", "options": {"size": "dimy"}, "seats": ["human", "human"], "take": "all"}
    made = [client.raw.post("/api/matches", json=seats).json() for _ in range(2)]
    protected, playground = ({"id": m["id"], "game": "fanorona", "tokens": [t["token"] for t in m["tokens"]]}
                             for m in made)
    token_paths = {f"/api/matches/{protected['id']}", f"/api/matches/{protected['id']}/resign"}

    def call(port, method, path, body=None, headers=None, raw=None, host=None):
        if path not in token_paths or "Authorization" not in (headers or {}):
            return 0, {}, b""  # not a token case: not sent here
        sent = {k: v.encode("latin-1") for k, v in headers.items()}  # as http.client sends them
        answer = client.raw.request(method, path, content=raw, headers=sent)
        return answer.status_code, dict(answer.headers), answer.content

    fuzz.call = call
    results = [r for r in fuzz.hostile(0, [protected], playground)
               if r["label"].startswith(("token ", "view with token "))]
    assert len(results) == 18
    assert [r for r in results if r["status"] not in r["expect"]] == []
