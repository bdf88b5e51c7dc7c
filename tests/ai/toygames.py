"""Tiny games implementing the spine, so the bot tests never depend on the real engines.

* :class:`MNKGame` — m×n board, k in a row wins, 2 or 3 players (tic-tac-toe = 3,3,3), with undo.
* :class:`ChainNimGame` — Nim (take 1–3) written as multi-action turns: each action takes one
  stone, ``end`` finishes the turn; the player taking the last stone wins. No undo (clone paths).
* :class:`TricksGame` — a hidden-hand trick game: cards 1..13, 5 each, the higher card takes the
  trick, the winner leads; most tricks wins. Hidden information with ``resample_from_infostate``.
* :class:`EndlessGame` — two players wait, or step to and fro, for ever: a game that never ends,
  with no bound on its length unless it declares one (option ``bound``).
"""

from __future__ import annotations

import random
from typing import Any

from abstracta.core.description import GameDescription, describe_basic
from abstracta.core.errors import PositionError
from abstracta.core.game import TERMINAL, Game, State, check_action_in
from abstracta.core.options import Option, parse_int, seed_option


# --------------------------------------------------------------------------------------------
class MNKGame(Game):
    name = "toy-mnk"
    option_specs = (
        Option("m", 3, parser=parse_int), Option("n", 3, parser=parse_int),
        Option("k", 3, parser=parse_int), Option("players", 2, parser=parse_int),
    )
    min_players, max_players = 2, 3

    def __init__(self, **options: Any):
        super().__init__(**options)
        m, n, k = self.options["m"], self.options["n"], self.options["k"]
        self.m, self.n, self.k = m, n, k
        lines = []
        for r in range(m):
            for c in range(n):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    cells = [(r + i * dr, c + i * dc) for i in range(k)]
                    if all(0 <= rr < m and 0 <= cc < n for rr, cc in cells):
                        lines.append(tuple(rr * n + cc for rr, cc in cells))
        self.lines = lines
        self.lines_through = [[ln for ln in lines if cell in ln] for cell in range(m * n)]

    @property
    def num_players(self) -> int:
        return self.options["players"]

    def describe(self) -> GameDescription:
        return describe_basic(self, title="m,n,k game", summary="k in a row on an m×n board.",
                              evaluator=self.evaluate)

    @property
    def num_distinct_actions(self) -> int:
        return self.m * self.n

    def new_initial_state(self, seed: int | None = None) -> "MNKState":
        return MNKState(self)

    def state_from_text(self, text: str) -> "MNKState":
        cells = text.replace("/", "").strip()
        if len(cells) != self.m * self.n:
            raise PositionError(f"expected {self.m * self.n} cells in {text!r}")
        state = MNKState(self)
        counts = [0] * self.num_players
        for i, ch in enumerate(cells):
            if ch != ".":
                p = int(ch)
                state.board[i] = p
                counts[p] += 1
        state.to_move = sum(counts) % self.num_players
        state.moves_made = sum(counts)
        state._refresh_winner()
        return state

    def evaluate(self, state: State, player: int) -> float:
        assert isinstance(state, MNKState)
        score = 0.0
        for line in self.lines:
            owners = {state.board[c] for c in line} - {-1}
            if len(owners) == 1:
                owner = owners.pop()
                filled = sum(1 for c in line if state.board[c] != -1)
                score += filled if owner == player else -filled
        return max(-1.0, min(1.0, score / (2 * len(self.lines))))


class MNKState(State):
    supports_undo = True

    def __init__(self, game: MNKGame):
        self.game = game
        self.board = [-1] * (game.m * game.n)
        self.to_move = 0
        self.winner = -1
        self.moves_made = 0
        self._history: list[int] = []

    def current_player(self) -> int:
        if self.winner >= 0 or self.moves_made == len(self.board):
            return TERMINAL
        return self.to_move

    def legal_actions(self) -> list[int]:
        if self.current_player() == TERMINAL:
            return []
        return [i for i, v in enumerate(self.board) if v == -1]

    def apply_action(self, action: int) -> None:
        check_action_in(action, self.legal_actions(), self)
        self.board[action] = self.to_move
        self.moves_made += 1
        self._history.append(action)
        for line in self.game.lines_through[action]:
            if all(self.board[c] == self.to_move for c in line):
                self.winner = self.to_move
        self.to_move = (self.to_move + 1) % self.game.num_players

    def undo_action(self) -> None:
        action = self._history.pop()
        self.board[action] = -1
        self.moves_made -= 1
        self.winner = -1
        self.to_move = (self.to_move - 1) % self.game.num_players

    def _refresh_winner(self) -> None:
        for line in self.game.lines:
            v = self.board[line[0]]
            if v >= 0 and all(self.board[c] == v for c in line):
                self.winner = v

    def action_to_string(self, action: int) -> str:
        return f"c{action}"

    def returns(self) -> list[float]:
        n = self.game.num_players
        if self.winner < 0:
            return [0.0] * n
        return [1.0 if p == self.winner else -1.0 for p in range(n)]

    def clone(self) -> "MNKState":
        other = MNKState.__new__(MNKState)
        other.game = self.game
        other.board = self.board[:]
        other.to_move = self.to_move
        other.winner = self.winner
        other.moves_made = self.moves_made
        other._history = self._history[:]
        return other

    def history(self) -> list[int]:
        return list(self._history)

    def to_text(self) -> str:
        n = self.game.n
        cells = "".join("." if v < 0 else str(v) for v in self.board)
        return "/".join(cells[i:i + n] for i in range(0, len(cells), n))

    def hash_key(self) -> int:
        return hash((tuple(self.board), self.to_move))


# --------------------------------------------------------------------------------------------
END = 0
TAKE = 1


class ChainNimGame(Game):
    name = "toy-chain-nim"
    option_specs = (Option("stones", 9, parser=parse_int),)

    def describe(self) -> GameDescription:
        return describe_basic(self, title="Chain Nim",
                              summary="Take 1–3 stones one action at a time; the last stone wins.")

    @property
    def num_distinct_actions(self) -> int:
        return 2

    def new_initial_state(self, seed: int | None = None) -> "ChainNimState":
        return ChainNimState(self, self.options["stones"], 0, 0)

    def state_from_text(self, text: str) -> "ChainNimState":
        stones, player, taken = (int(x) for x in text.split())
        return ChainNimState(self, stones, player, taken)


class ChainNimState(State):
    def __init__(self, game: ChainNimGame, stones: int, player: int, taken: int):
        self.game = game
        self.stones = stones
        self.player = player
        self.taken = taken          # stones taken so far this turn
        self.last = -1              # who took the last stone
        self._history: list[int] = []

    def current_player(self) -> int:
        return TERMINAL if self.stones == 0 else self.player

    def legal_actions(self) -> list[int]:
        if self.stones == 0:
            return []
        out = []
        if self.taken > 0:
            out.append(END)
        if self.taken < 3:
            out.append(TAKE)
        return out

    def apply_action(self, action: int) -> None:
        check_action_in(action, self.legal_actions(), self)
        self._history.append(action)
        if action == TAKE:
            self.stones -= 1
            self.taken += 1
            if self.stones == 0:
                self.last = self.player
                return
        else:
            self.player = 1 - self.player
            self.taken = 0

    def action_to_string(self, action: int) -> str:
        return "take" if action == TAKE else "end"

    def returns(self) -> list[float]:
        if self.stones:
            return [0.0, 0.0]
        return [1.0 if p == self.last else -1.0 for p in range(2)]

    def clone(self) -> "ChainNimState":
        other = ChainNimState(self.game, self.stones, self.player, self.taken)
        other.last = self.last
        other._history = self._history[:]
        return other

    def history(self) -> list[int]:
        return list(self._history)

    def to_text(self) -> str:
        return f"{self.stones} {self.player} {self.taken}"

    def hash_key(self) -> int:
        return hash((self.stones, self.player, self.taken))


# --------------------------------------------------------------------------------------------
CARDS = 13
HAND = 5


class TricksGame(Game):
    name = "toy-tricks"
    option_specs = (seed_option(),)

    def describe(self) -> GameDescription:
        return describe_basic(self, title="Tricks", chance=True, hidden_information=True,
                              summary="Hidden hands of 5 from cards 1..13; the higher card takes the trick.")

    @property
    def num_distinct_actions(self) -> int:
        return CARDS + 1

    def new_initial_state(self, seed: int | None = None) -> "TricksState":
        seed = self.resolve_seed(seed)
        deck = list(range(1, CARDS + 1))
        random.Random(seed).shuffle(deck)
        state = TricksState(self, [sorted(deck[:HAND]), sorted(deck[HAND:2 * HAND])])
        state._seed = seed
        return state

    def state_from_text(self, text: str) -> "TricksState":
        raise PositionError("toy game has no position text")


class TricksState(State):
    def __init__(self, game: TricksGame, hands: list[list[int]]):
        self.game = game
        self.hands = hands
        self.leader = 0
        self.led = 0                 # card on the table (0: none)
        self.tricks = [0, 0]
        self.played: list[int] = []  # every card played, in order
        self._history: list[int] = []

    def current_player(self) -> int:
        if not self.hands[0] and not self.hands[1]:
            return TERMINAL
        return self.leader if self.led == 0 else 1 - self.leader

    def legal_actions(self) -> list[int]:
        p = self.current_player()
        return [] if p == TERMINAL else list(self.hands[p])

    def apply_action(self, action: int) -> None:
        check_action_in(action, self.legal_actions(), self)
        p = self.current_player()
        self.hands[p].remove(action)
        self.played.append(action)
        self._history.append(action)
        if self.led == 0:
            self.led = action
        else:
            winner = self.leader if self.led > action else p
            self.tricks[winner] += 1
            self.leader = winner
            self.led = 0

    def action_to_string(self, action: int) -> str:
        return str(action)

    def returns(self) -> list[float]:
        if self.current_player() != TERMINAL or self.tricks[0] == self.tricks[1]:
            return [0.0, 0.0]
        w = 0 if self.tricks[0] > self.tricks[1] else 1
        return [1.0 if p == w else -1.0 for p in range(2)]

    def clone(self) -> "TricksState":
        other = TricksState(self.game, [h[:] for h in self.hands])
        other.leader, other.led = self.leader, self.led
        other.tricks = self.tricks[:]
        other.played = self.played[:]
        other._history = self._history[:]
        other._seed = getattr(self, "_seed", None)
        return other

    def history(self) -> list[int]:
        return list(self._history)

    def to_text(self) -> str:
        return f"{self.hands} {self.leader} {self.led} {self.tricks}"

    def information_state_string(self, player: int) -> str:
        return f"{player} {self.hands[player]} {self.played} {self.leader}"

    def observation(self, player: int) -> str:
        return self.information_state_string(player)

    def resample_from_infostate(self, player: int, rng: Any) -> "TricksState":
        other = self.clone()
        unseen = [c for c in range(1, CARDS + 1) if c not in self.hands[player] and c not in self.played]
        rng.shuffle(unseen)
        other.hands[1 - player] = sorted(unseen[:len(self.hands[1 - player])])
        return other


# --------------------------------------------------------------------------------------------
TAKE_DRAW = 0
PLAY_ON = 1


class DrawOfferGame(Game):
    """Each turn the player to move may end the game drawn or play on; after ``length`` plies
    it ends drawn anyway. The evaluator judges every unfinished position ``edge`` worse for
    player 0 (contempt tests: a draw now, or a slightly worse game)."""

    name = "toy-draw-offer"
    option_specs = (Option("length", 8, parser=parse_int),)

    def __init__(self, edge: float = 0.01, **options: Any):
        super().__init__(**options)
        self.edge = edge

    def describe(self) -> GameDescription:
        return describe_basic(self, title="Draw offer", summary="Take the draw or play on.",
                              evaluator=self.evaluate)

    @property
    def num_distinct_actions(self) -> int:
        return 2

    def new_initial_state(self, seed: int | None = None) -> "DrawOfferState":
        return DrawOfferState(self)

    def state_from_text(self, text: str) -> "DrawOfferState":
        state = DrawOfferState(self)
        state.ply, state.ended = int(text.split()[0]), text.endswith("drawn")
        return state

    def evaluate(self, state: State, player: int) -> float:
        return -self.edge if player == 0 else self.edge


class DrawOfferState(State):
    def __init__(self, game: DrawOfferGame):
        self.game = game
        self.ply = 0
        self.ended = False
        self._history: list[int] = []

    def current_player(self) -> int:
        return TERMINAL if self.ended or self.ply >= self.game.options["length"] else self.ply % 2

    def legal_actions(self) -> list[int]:
        return [] if self.current_player() == TERMINAL else [TAKE_DRAW, PLAY_ON]

    def apply_action(self, action: int) -> None:
        check_action_in(action, self.legal_actions(), self)
        self._history.append(action)
        if action == TAKE_DRAW:
            self.ended = True
        else:
            self.ply += 1

    def action_to_string(self, action: int) -> str:
        return "draw" if action == TAKE_DRAW else "on"

    def returns(self) -> list[float]:
        return [0.0, 0.0]

    def clone(self) -> "DrawOfferState":
        other = DrawOfferState(self.game)
        other.ply, other.ended, other._history = self.ply, self.ended, self._history[:]
        return other

    def history(self) -> list[int]:
        return list(self._history)

    def to_text(self) -> str:
        return f"{self.ply}{' drawn' if self.ended else ''}"

    def hash_key(self) -> int:
        return hash((self.ply, self.ended))


# --------------------------------------------------------------------------------------------
class EndlessGame(Game):
    """Never ends (bots and the rules cannot finish it): what the match runners must cut."""

    name = "toy-endless"
    option_specs = (Option("bound", 0, "declared bound on its length (0: none)", parser=parse_int),)

    def describe(self) -> GameDescription:
        return describe_basic(self, title="Endless", summary="Two players step to and fro for ever.")

    @property
    def num_distinct_actions(self) -> int:
        return 2

    def max_game_length(self) -> int | None:
        return self.options["bound"] or None

    def new_initial_state(self, seed: int | None = None) -> "EndlessState":
        return EndlessState(self, [])

    def state_from_text(self, text: str) -> "EndlessState":
        raise PositionError("no position texts")


class EndlessState(State):
    def __init__(self, game: EndlessGame, history: list[int]):
        self.game = game
        self._history = history

    def current_player(self) -> int:
        return len(self._history) % 2

    def legal_actions(self) -> list[int]:
        return [0, 1]

    def apply_action(self, action: int) -> None:
        check_action_in(action, self.legal_actions(), self)
        self._history.append(action)

    def action_to_string(self, action: int) -> str:
        return ("fro", "to")[action]

    def returns(self) -> list[float]:
        return [0.0, 0.0]

    def clone(self) -> "EndlessState":
        return EndlessState(self.game, self._history[:])

    def history(self) -> list[int]:
        return list(self._history)

    def to_text(self) -> str:
        return f"{sum(self._history)} {len(self._history) % 2}"

    def hash_key(self) -> int:
        return hash((sum(self._history), len(self._history) % 2))
