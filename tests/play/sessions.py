"""Helpers of the play session's tests: sessions of toy Nim (tests/toy_nim.py) and of the real
games, built without any server or terminal (as ``apiutil`` is the server tests')."""

from __future__ import annotations

from abstracta.core.registry import load_game, register_game
from abstracta.play import Session

register_game("toy-nim", "toy_nim:NimGame")

#: a time, in Unix seconds; the session is always given it (it never reads a clock)
T0 = 1_000_000.0


def nim(stones: int = 9, players=("human", "human"), **fields) -> Session:
    """A toy-Nim session (take 1–3 stones, the last stone wins), nothing played."""
    game = load_game("toy-nim", stones=stones)
    return Session.begin(game, game.new_initial_state(), list(players), **fields)


def session_of(name: str, players, text: str | None = None, options: dict | None = None, **fields) -> Session:
    """A session of the game ``name`` from its start or the position ``text``."""
    game = load_game(name, **(options or {}))
    initial = game.state_from_text(text) if text is not None else game.new_initial_state()
    return Session.begin(game, initial, list(players), start=text, **fields)


def played(session: Session, *moves: str, held=None, now: float = T0) -> Session:
    """``session`` after each of ``moves`` played by the seat to move (a person)."""
    for text in moves:
        mover = session.to_move()
        session = session.play({mover} if held is None else held, [text], session.ply, now).after
    return session
