"""The Python API under hostile input (README "From Python"): every refusal is a domain error
(``AbstractaError``, a ``ValueError``) naming the problem, and nothing changes."""

from __future__ import annotations

import pytest

import abstracta
from abstracta import IllegalActionError

BUILT_IN = [name for name in abstracta.registered_games() if name != "toy-nim"]


@pytest.mark.parametrize("name", BUILT_IN)
def test_undo_past_the_start_is_an_illegal_action_error(name):
    game = abstracta.load_game(name)
    state = game.new_initial_state(seed=1) if game.description.chance else game.new_initial_state()
    start = state.to_text()
    with pytest.raises(IllegalActionError, match="undo"):
        state.undo_action()
    assert state.to_text() == start and state.history() == []
    state.apply_action(state.legal_actions()[0])
    state.undo_action()
    with pytest.raises(IllegalActionError, match="undo"):
        state.undo_action()
    assert state.to_text() == start
    pasted = game.state_from_text(start)  # a position read from text has no actions to take back
    with pytest.raises(IllegalActionError, match="undo"):
        pasted.undo_action()
    assert pasted.to_text() == start
