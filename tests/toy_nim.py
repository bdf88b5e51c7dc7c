"""A tiny game for testing the spine, records and CLI without any real engine.

Nim with one heap: players alternately take 1..3 stones (action a = take a+1; string "1".."3");
whoever takes the last stone wins. Position text: "<stones> <player>".
"""

from __future__ import annotations

from abstracta.core.description import describe_basic
from abstracta.core.errors import IllegalActionError, NotationError, PositionError
from abstracta.core.game import TERMINAL, Game, State, check_action_in
from abstracta.core.options import Option, parse_int


class NimGame(Game):
    name = "toy-nim"
    option_specs = (Option("stones", 7, "starting heap", parser=parse_int,
                           validate=lambda v: None if v >= 1 else "must be at least 1"),)

    def new_initial_state(self, seed=None):
        return NimState(self, self.options["stones"], 0)

    def state_from_text(self, text):
        parts = text.split()
        if len(parts) != 2 or not parts[0].isdigit() or parts[1] not in ("0", "1"):
            raise PositionError(f"{text!r} is not '<stones> <player>'")
        return NimState(self, int(parts[0]), int(parts[1]))

    def describe(self):
        return describe_basic(self, title="Toy Nim", summary="Take 1-3 stones; the last stone wins.",
                              evaluator=self.evaluate)

    @property
    def num_distinct_actions(self):
        return 3

    def evaluate(self, state, player):
        good = state.stones % 4 != 0
        return (0.5 if good else -0.5) * (1 if state.player == player else -1)


class NimState(State):
    def __init__(self, game, stones, player):
        self.game, self.stones, self.player, self._history = game, stones, player, []

    def current_player(self):
        return TERMINAL if self.stones == 0 else self.player

    def legal_actions(self):
        return [] if self.stones == 0 else list(range(min(3, self.stones)))

    def apply_action(self, action):
        check_action_in(action, self.legal_actions(), self)
        self.stones -= action + 1
        self._history.append(action)
        if self.stones:
            self.player = 1 - self.player

    def action_to_string(self, action):
        return str(action + 1)

    def string_to_action(self, text):
        if text.strip() not in ("1", "2", "3"):
            raise NotationError(f"{text!r} is not 1, 2 or 3")
        action = int(text) - 1
        if action not in self.legal_actions():
            raise IllegalActionError(f"{text!r} is not legal with {self.stones} stones left")
        return action

    def returns(self):
        if self.stones:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.player == 0 else [-1.0, 1.0]

    def clone(self):
        other = NimState(self.game, self.stones, self.player)
        other._history = list(self._history)
        return other

    def history(self):
        return list(self._history)

    def to_text(self):
        return f"{self.stones} {self.player}"
