"""Perft (rules/README.md "Perft"): the number of action sequences of length exactly d."""

from __future__ import annotations

from .game import State


def perft(state: State, depth: int) -> int:
    """Leaves at ``depth`` below ``state``, each reached by applying its action.

    A terminal state (or one with no legal action) before ``depth`` contributes nothing.
    ``state`` is unchanged afterwards. Uses make/unmake when the game supports it, else clones.
    """
    if depth < 0:
        raise ValueError(f"perft depth must be >= 0, got {depth}")
    if depth == 0:
        return 1
    if state.supports_undo:
        return _perft_undo(state, depth)
    return _perft_clone(state, depth)


def _perft_undo(state: State, depth: int) -> int:
    if state.is_terminal():
        return 0
    total = 0
    actions = list(state.legal_actions())
    apply, undo = state.apply_action, state.undo_action
    if depth == 1:
        for action in actions:
            apply(action)
            total += 1
            undo()
        return total
    for action in actions:
        apply(action)
        total += _perft_undo(state, depth - 1)
        undo()
    return total


def _perft_clone(state: State, depth: int) -> int:
    if state.is_terminal():
        return 0
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        total += 1 if depth == 1 else _perft_clone(child, depth - 1)
    return total
