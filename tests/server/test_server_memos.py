"""The rules' memos stay small in the web process (issue 44 §5): the tables a game memoises by
position (core.memos) filled with every position a view's legal moves were generated for, up to
the bounds the game sets for its searches, and the process grew with the moves played."""

from __future__ import annotations

import random

from abstracta.core import memos
from abstracta.core.registry import load_game
from abstracta.server import matches as served_matches


def test_a_memo_over_the_bound_is_cleared_and_the_others_kept():
    small, big = memos.memo("test.small"), memos.memo("test.big")
    small.update({i: i for i in range(3)})
    big.update({i: i for i in range(10)})
    assert memos.sizes()["test.small"] == 3 and memos.sizes()["test.big"] == 10
    assert memos.bound(5) >= 10
    assert (len(small), len(big)) == (3, 0)
    assert memos.bound(5) == 0 or all(n <= 5 for n in memos.sizes().values())


def play(client, game: str, plies: int, rng: random.Random) -> list[str]:
    """One match of ``game`` between two people at one device through the API, ``plies`` random moves (fewer
    if it ends): its moves."""
    view = client.post("/api/matches", json={"game": game, "seats": ["human", "human"]}).json()
    mid = view["id"]
    for invite in view["invites"]:  # none: the creator holds both seats (one device)
        claim = client.post("/api/invites/claim", json={"code": invite["code"]})
        assert claim.status_code == 200
        client.tokens.setdefault(mid, {})[invite["seat"]] = claim.json()["tokens"][0]["token"]
    moves = []
    for _ in range(plies):
        if view["status"] != "playing" or not view["legal"]:
            break
        action = rng.choice(view["legal"])
        answer = client.post(f"/api/matches/{mid}/actions", json={"action": action, "ply": view["ply"]})
        assert answer.status_code == 200, answer.text
        moves.append(action)
        view = answer.json()
    return moves


def test_the_rules_memos_of_the_web_process_stay_within_its_bound(client, monkeypatch):
    monkeypatch.setattr(served_matches, "RULES_MEMO_ENTRIES", 40)
    rng = random.Random(7)
    played = []
    for _ in range(4):
        played.append(play(client, "fibonacci", 60, rng))
        names = [n for n in memos.sizes() if n.startswith("fibonacci.")]
        assert names  # the game registers its memos
        # what one change and its view add after the bound is applied: a few lengths of it
        assert all(memos.sizes()[n] <= 40 + 60 for n in names), memos.sizes()
    # the same moves fill the memos far past that bound where nothing bounds them
    memos.bound(0)
    game = load_game("fibonacci")
    for moves in played:
        state = game.new_initial_state()
        for text in moves:
            state.legal_actions()
            state.apply_action(state.string_to_action(text))
    assert sum(memos.sizes()[n] for n in names) > 4 * (40 + 60), memos.sizes()
