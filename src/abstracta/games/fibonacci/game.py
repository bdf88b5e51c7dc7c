"""The Fibonacci game object: options, initial positions, parsing (Spec: fibonacci.md)."""

from __future__ import annotations

from typing import Any

from abstracta.core.game import Game
from abstracta.core.options import Option, seed_option
from abstracta.core.rng import SplitMix64

from .evaluate import evaluate
from .state import FULL_PILE, NUM_ACTIONS, NUM_PLACEMENTS, RED, FibonacciState

#: §2 standard start.
START_TEXT = "caaaaa/1a5/8/8S/2s3SSS1/3s3S3/1sss3S2/s8/8/5A1/AAAAAC R 1 1"
#: §9.3 empty board of the Go start.
EMPTY_TEXT = "6/7/8/9/10/11/10/9/8/7/6 R P0"
VARIANTS = ("standard", "cards", "go")


class FibonacciGame(Game):
    """Fibonacci (Thomas Naylor), variants ``standard``, ``cards`` and ``go`` (§9).

    Player 0 is Red (moves first), player 1 Green. Only ``variant=cards`` has chance and hidden
    information (the draw piles); the ``seed`` option exists for every variant.
    """

    name = "fibonacci"
    title = "Fibonacci"
    notation_help = (
        "A move is <from>-<to>, e.g. b6-c7: a piece may go to any cell next to its group (same owner "
        "and type, connected); onto an occupied cell it swaps places. pass ends the turn early. "
        "Go placement: S@e5, A@e5, C@e5. Red = upper case (C core, A attacker, S support), "
        "Green = lower case. Enemy attackers next to your core cut your moves per turn."
    )
    summary = "Surround the enemy core with your six attackers on a 91-cell hex board, moving whole groups."
    option_specs = (
        Option("variant", "standard", "standard, cards (moves from card draws) or go (placement start)",
               choices=VARIANTS),
        seed_option(),
    )
    has_chance = True
    has_hidden_information = True
    min_players = 2
    max_players = 2

    def __init__(self, **options: Any):
        super().__init__(**options)
        self.variant: str = self.options["variant"]
        # instance values: only the cards variant has chance / hidden information
        self.has_chance = self.variant == "cards"  # type: ignore[misc]
        self.has_hidden_information = self.variant == "cards"  # type: ignore[misc]

    @property
    def num_distinct_actions(self) -> int:
        """8373: 91·91 moves, ``pass``, 91 placements."""
        return NUM_ACTIONS

    def new_initial_state(self, seed: int | None = None) -> FibonacciState:
        """Start of a game: §2 layout (standard, cards) or the empty Go board; cards piles from ``seed`` (§10)."""
        if self.variant != "cards":  # no chance: a given seed is only remembered
            state = FibonacciState.from_text(self, EMPTY_TEXT if self.variant == "go" else START_TEXT)
            if seed is not None or self.options.get("seed") is not None:
                state._seed = seed if seed is not None else self.options["seed"]
            return state
        seed = self.resolve_seed(seed)
        assert seed is not None
        rng = SplitMix64(seed)
        red = list(FULL_PILE)
        rng.shuffle(red)
        green = list(FULL_PILE)
        rng.shuffle(green)
        state = FibonacciState(self)
        base = FibonacciState.from_text(FibonacciGame(variant="standard"), START_TEXT)
        state.board = base.board
        state.bb = base.bb
        state.h = base.h
        state.side = RED
        state.t = 1
        state.placed = NUM_PLACEMENTS
        state.piles = (tuple(red), tuple(green))
        state.rng = rng.state
        state._reveal()
        state.revealed = []
        state._init_public = state.observation(0)
        state._seed = seed
        return state

    def state_from_text(self, text: str) -> FibonacciState:
        """Parse §7 position text (with ``P<k>`` for Go, piles and ``rng=`` for cards).

        Raises:
            PositionError: naming the problem.
        """
        return FibonacciState.from_text(self, text)

    def evaluate(self, state: Any, player: int) -> float:
        """Heuristic value in [-1, 1] for ``player`` (see :mod:`.evaluate`)."""
        return evaluate(state, player)

    def render(self, state: Any, player: int | None = None) -> Any:
        """A ``rich.text.Text`` hex board (see :mod:`.render`)."""
        from .render import render

        return render(state, player)

    def render_board(self) -> Any:
        """The empty board with cell names (``abstracta board fibonacci``)."""
        from .render import render_board

        return render_board()

    def board_svg(self) -> str:
        """The board as SVG, cell names in the cells."""
        from .render import board_svg

        return board_svg()
