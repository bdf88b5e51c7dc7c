"""What the levels are, where the ladder needed them changed (issue 17 §3, README "The level
ladder"): the declarations the measured pairs rest on, and the search knobs they use."""

from __future__ import annotations

import pytest

from abstracta import load_game
from abstracta.ai.base import Budget
from abstracta.ai.levels import level_fingerprint, make_bot
from dataclasses import replace

from abstracta.core.description import Search


def test_an_unset_max_iterations_leaves_fingerprints_as_they_were(monkeypatch) -> None:
    # fingerprints recorded before the field existed (benchmarks/levels.json) must still match:
    # the digest of the five fields a Search had then
    import hashlib
    import json

    from abstracta.ai import levels as levels_module

    game = load_game("nibble", variant="square9")
    search = game.description.levels[5]  # (9×9 level 4 is held to 10 actions)
    old_fields = {"bot": search.bot, "rollout_cap": search.rollout_cap,
                  "evaluator": levels_module._callable_name(search.evaluator), "oracle": None,
                  "turn_extension": search.turn_extension}
    text = json.dumps([old_fields, 1.5, levels_module.bot_revision(game, "alphabeta")], sort_keys=True, default=str)
    assert level_fingerprint(game, 5) == hashlib.sha256(text.encode()).hexdigest()[:12]
    capped = Search(search.bot, search.rollout_cap, search.evaluator, max_iterations=200)
    monkeypatch.setattr(levels_module, "level_search", lambda g, level: capped)
    assert level_fingerprint(game, 5) != hashlib.sha256(text.encode()).hexdigest()[:12]


@pytest.mark.parametrize("kind", ["mcts", "ismcts"])
def test_max_iterations_caps_a_timed_tree_search(kind) -> None:
    from abstracta.ai.ismcts import ISMCTSBot
    from abstracta.ai.mcts import MCTSBot

    cls = MCTSBot if kind == "mcts" else ISMCTSBot
    game = load_game("fanorona", size="telo")
    state = game.new_initial_state()
    capped = cls(game, Budget(seconds=30), seed=3, max_iterations=40)
    fixed = cls(game, Budget(iterations=40), seed=3)
    assert capped.step(state) == fixed.step(state)
    assert capped.iterations == fixed.iterations == 40
    with pytest.raises(ValueError, match="max_iterations"):
        cls(game, Budget(seconds=1), max_iterations=0)


def test_telo_levels_2_and_3_are_mcts_held_to_10_and_240_playouts() -> None:
    from abstracta.ai.mcts import MCTSBot

    game = load_game("fanorona", size="telo")
    two = make_bot("level:2", game, seed=0)
    assert isinstance(two, MCTSBot) and two.budget.iterations == 10 and two.budget.seconds is None
    two.step(game.new_initial_state())
    assert two.iterations == 10
    three = make_bot("level:3", game, seed=0)
    assert isinstance(three, MCTSBot) and three.max_iterations == 240 and three.budget.seconds == 0.2
    three.step(game.new_initial_state())
    assert three.iterations == 240  # not the thousands its 0.2 s would allow
    assert [game.description.levels[level].bot for level in (4, 5, 6)] == ["alphabeta", "table", "table"]
    # the other sizes keep MCTS as long as the time allows
    assert make_bot("level:3", load_game("fanorona"), seed=0).max_iterations is None


def test_a_level_2_search_needs_a_playout_cap(monkeypatch) -> None:
    from abstracta.ai import levels as levels_module

    game = load_game("fanorona", size="telo")
    monkeypatch.setattr(levels_module, "level_search", lambda g, level: Search("mcts"))
    with pytest.raises(ValueError, match="no time budget"):
        make_bot("level:2", game, seed=0)


def test_turn_search_revision_2_counts_only_where_chance_is_searched(monkeypatch) -> None:
    # explicit chance between turns changed the turn search's play only in games with in-game
    # chance: the ladder's Fibonacci standard and Go rows keep counting, the card variant's stop
    from abstracta.ai import levels as levels_module

    standard, cards = load_game("fibonacci"), load_game("fibonacci", variant="cards")
    assert levels_module.bot_revision(standard, "turns") == 1
    assert levels_module.bot_revision(cards, "turns") == levels_module.BOT_REVISIONS["turns"] == 2
    before = [level_fingerprint(g, 4) for g in (standard, cards)]
    monkeypatch.setitem(levels_module.BOT_REVISIONS, "turns", 3)
    after = [level_fingerprint(g, 4) for g in (standard, cards)]
    assert after[0] == before[0] and after[1] != before[1]


@pytest.mark.parametrize("variant", ["square9", "square13", "hex"])
def test_nibble_level_3_is_mcts_held_to_its_playouts(variant) -> None:
    from abstracta.ai.alphabeta import AlphaBetaBot
    from abstracta.ai.mcts import MCTSBot
    from abstracta.games.nibble.description import LEVEL3_PLAYOUTS

    game = load_game("nibble", variant=variant, seed=4)
    three = make_bot("level:3", game, seed=0)
    assert isinstance(three, MCTSBot) and three.max_iterations == LEVEL3_PLAYOUTS == 700
    assert three.budget.seconds == 0.2 and three.max_rollout_actions == 12
    # (that the cap binds a timed search: test_max_iterations_caps_a_timed_tree_search)
    assert isinstance(make_bot("level:4", game, seed=0), AlphaBetaBot)


def test_max_depth_caps_a_timed_alpha_beta_and_reaches_the_bot_from_the_level(monkeypatch) -> None:
    from abstracta.ai import levels as levels_module
    from abstracta.ai.alphabeta import AlphaBetaBot

    game = load_game("fanorona", size="telo")
    state = game.new_initial_state()
    capped = AlphaBetaBot(game, Budget(seconds=30), seed=3, max_depth=3)
    fixed = AlphaBetaBot(game, Budget(depth=3), seed=3)
    assert capped.step(state) == fixed.step(state)
    assert capped.depth == fixed.depth == 3 and capped.nodes == fixed.nodes
    with pytest.raises(ValueError, match="depth cap"):
        AlphaBetaBot(game, Budget(seconds=1), max_depth=0)
    # a level's Search.max_depth is the bot's, and the level's fingerprint and description say so
    nibble = load_game("nibble", variant="square9")
    declared = nibble.description.levels[4]
    before = level_fingerprint(nibble, 4)
    held = Search(declared.bot, declared.rollout_cap, declared.evaluator, max_depth=5)
    monkeypatch.setattr(levels_module, "level_search", lambda g, level: held)
    bot = make_bot("level:4", nibble, seed=0)
    assert isinstance(bot, AlphaBetaBot) and bot.max_depth == 5
    assert level_fingerprint(nibble, 4) != before
    assert levels_module.describe_level(nibble, 4)["max_depth"] == 5


def test_turn_depth_step_reaches_the_turn_search_from_the_level(monkeypatch) -> None:
    from abstracta.ai import levels as levels_module
    from abstracta.ai.turns import TurnSearchBot

    game = load_game("fibonacci")
    declared = game.description.levels[5]
    assert make_bot("level:5", game, seed=0).depth_step == 1
    before = level_fingerprint(game, 5)
    even = Search(declared.bot, declared.rollout_cap, declared.evaluator, turn_widths=declared.turn_widths,
                  turn_depth_step=2)
    monkeypatch.setattr(levels_module, "level_search", lambda g, level: even)
    bot = make_bot("level:5", game, seed=0)
    assert isinstance(bot, TurnSearchBot) and bot.depth_step == 2
    assert level_fingerprint(game, 5) != before
    assert levels_module.describe_level(game, 5)["turn_depth_step"] == 2


def test_nibble_9x9_level_4_is_alpha_beta_held_to_10_actions() -> None:
    # between level 3 (MCTS, 700 playouts) and level 5 (alpha-beta 1.5 s, 11-15 actions deep):
    # uncapped it reached 10-13 actions and stood close below level 5 (4-5: 60.7 % of 28)
    from abstracta.ai.alphabeta import AlphaBetaBot
    from abstracta.games.nibble.description import LEVEL4_DEPTH_9X9

    assert LEVEL4_DEPTH_9X9 == 10
    for variant, cap in (("square9", 10), ("square13", None), ("hex", None)):
        game = load_game("nibble", variant=variant)
        four = make_bot("level:4", game, seed=0)
        assert isinstance(four, AlphaBetaBot) and four.max_depth == cap and four.budget.seconds == 0.5
        assert make_bot("level:5", game, seed=0).max_depth is None
    # with all the time it wants, the level's search stops at its cap
    from abstracta.ai.levels import _search_bot, level_search

    game = load_game("nibble", variant="square9", seed=4)
    four = _search_bot("alphabeta", game, Budget(seconds=60), 0, "level:4", level_search(game, 4))
    four.step(game.new_initial_state())
    assert four.depth == 10


def test_a_level_with_its_search_replaced_keeps_the_rest_of_the_level() -> None:
    # benchmarks/ab_levels.py tries designs as levels with Search fields replaced: the oracle,
    # the name and the level's seconds stay unless replaced too
    from dataclasses import replace

    from abstracta.ai.levels import OracleBot, level_bot, level_search
    from abstracta.ai.turns import TurnSearchBot

    game = load_game("fibonacci", variant="cards")
    wider = level_bot(game, 4, 0, search=replace(level_search(game, 4), turn_widths=(12, 9)), name="wide")
    assert isinstance(wider, OracleBot) and wider.name == "wide"
    assert isinstance(wider.inner, TurnSearchBot) and (wider.inner.width, wider.inner.reply_width) == (12, 9)
    assert wider.inner.budget.seconds == 0.5
    deep = level_bot(game, 4, 0, budget=Budget(depth=2))
    assert deep.inner.budget.depth == 2 and deep.name == "level:4"
    planner = level_bot(game, 2, 0, search=replace(level_search(game, 2), extend=None))
    assert planner.extend > 0 and make_bot("level:2", game, seed=0).extend == 0


def test_turn_beam_finds_candidate_turns_that_share_their_first_action(nim) -> None:
    # Without the beam the root's candidate turns are its first actions, each completed
    # greedily, so they can differ only in the first action: in Chain Nim every turn starts
    # with "take", so there is one candidate. A beam through the turn keeps partial turns
    # after every action and finds every way to end it (take 1, 2 or 3 stones).
    from abstracta.ai.turns import TurnSearchBot

    state = nim.state_from_text("7 0 0")
    plain = TurnSearchBot(nim, Budget(depth=1), seed=0, width=4)
    assert len(plain._candidates(state, 0, 4)) == 1
    beam = TurnSearchBot(nim, Budget(depth=1), seed=0, width=4, beam=2)
    plans = {tuple(state.action_to_string(a) for a in t.plan) for t in beam._beam_candidates(state, 0, 4)}
    assert plans == {("take", "end"), ("take", "take", "end"), ("take", "take", "take", "end")}
    # the root may then choose any of them, and the search replays the chosen one
    assert tuple(state.action_to_string(a) for a in beam.search(state)) in plans
    with pytest.raises(ValueError, match="beam"):
        TurnSearchBot(nim, Budget(depth=1), beam=-1)


def test_turn_beam_reaches_the_turn_search_from_the_level(monkeypatch) -> None:
    from abstracta.ai import levels as levels_module
    from abstracta.ai.turns import TurnSearchBot

    game = load_game("fibonacci")
    declared = game.description.levels[6]
    assert make_bot("level:6", game, seed=0).beam == declared.turn_beam
    before = level_fingerprint(game, 6)
    beamed = Search(declared.bot, declared.rollout_cap, declared.evaluator, turn_widths=declared.turn_widths,
                    turn_beam=declared.turn_beam + 5)
    monkeypatch.setattr(levels_module, "level_search", lambda g, level: beamed)
    bot = make_bot("level:6", game, seed=0)
    assert isinstance(bot, TurnSearchBot) and bot.beam == declared.turn_beam + 5
    assert level_fingerprint(game, 6) != before
    assert levels_module.describe_level(game, 6)["turn_beam"] == declared.turn_beam + 5


def test_turn_beam_candidates_in_fibonacci_differ_after_the_first_action() -> None:
    # a real multi-action turn: some candidate turns share their first action
    from abstracta.ai.turns import TurnSearchBot

    game = load_game("fibonacci")
    state = game.state_from_text("c1a2a/1aaaa2/s4S2/1ss5S/10/s1s2S5/7S1S/s2AAS3/5A2/3A1A1/A1C3 R 3 13")
    bot = TurnSearchBot(game, Budget(depth=1), seed=0, width=12, beam=12)
    turns = bot._beam_candidates(state, 0, 12)
    firsts = [t.first for t in turns]
    assert len(turns) == 12 and len(set(firsts)) < len(firsts)
    assert len({t.end.hash_key() for t in turns}) == 12  # one candidate per end state
    assert all(t.end.current_player() != 0 for t in turns)  # each a whole turn
    plain = {tuple(t.plan) for t in bot._candidates(state, 0, 12)}
    assert {tuple(t.plan) for t in turns} != plain


def test_turn_beam_cuts_a_long_turn_where_the_greedy_completion_does(nim) -> None:
    # greedy completes a turn with up to max_turn_actions actions after its first (1 + cap in
    # all); the beam stopped one action sooner, so a turn greedy may finish within the cap
    # (take, take, end) was never reached and a shorter, unfinished one stood in for it
    from abstracta.ai.turns import TurnSearchBot

    state = nim.state_from_text("7 0 0")
    bot = TurnSearchBot(nim, Budget(depth=1), seed=0, width=6, beam=3)
    bot.greedy.max_turn_actions = 2
    cap = 1 + bot.greedy.max_turn_actions
    turns = bot._beam_candidates(state, 0, 6)
    plans = {tuple(state.action_to_string(a) for a in t.plan) for t in turns}
    assert plans == {("take", "end"), ("take", "take", "end"), ("take", "take", "take")}
    assert all(len(t.plan) <= cap for t in turns)
    # the one turn still going at the cap is cut exactly there, read from the mover's side
    (cut,) = [t for t in turns if t.end.current_player() == 0]
    assert len(cut.plan) == cap and cut.score == bot.evaluate(cut.end, 0)


FIB_MIDGAME = "c1a2a/1aaaa2/s4S2/1ss5S/10/s1s2S5/7S1S/s2AAS3/5A2/3A1A1/A1C3 R 3 13"


def test_turn_beam_is_reproducible_and_out_of_time_falls_back_to_the_greedy_candidates(monkeypatch) -> None:
    from abstracta.ai import turns
    from abstracta.ai.turns import TurnSearchBot

    game = load_game("fibonacci")
    state = game.state_from_text(FIB_MIDGAME)
    # a depth budget and a seed: the same turn every time (the beam draws greedy's tie-breaks)
    plans = [TurnSearchBot(game, Budget(depth=2), seed=7, width=6, reply_width=4, beam=6).search(state)
             for _ in range(2)]
    assert plans[0] == plans[1]
    after = state.clone()
    for action in plans[0]:
        after.apply_action(action)
    assert after.current_player() == 1  # a whole turn

    # the time is spent once the root's greedy candidates are known: the beam is cut off and
    # the search plays what the plain search plays (same seed: same root bonuses)
    clock = {"now": 0.0}
    monkeypatch.setattr(turns, "search_clock", lambda: clock["now"])
    candidates = TurnSearchBot._candidates

    def then_late(self, *args):
        out = candidates(self, *args)
        clock["now"] = 1e9
        return out

    monkeypatch.setattr(TurnSearchBot, "_candidates", then_late)
    cut_beam = TurnSearchBot(game, Budget(seconds=0.5), seed=7, width=6, beam=6)
    reached = []
    beam_candidates = TurnSearchBot._beam_candidates
    monkeypatch.setattr(TurnSearchBot, "_beam_candidates",
                        lambda self, *a: reached.append(1) or beam_candidates(self, *a))
    chosen = cut_beam.search(state)
    assert reached == [1] and cut_beam.depth == 1
    clock["now"] = 0.0
    plain = TurnSearchBot(game, Budget(seconds=0.5), seed=7, width=6)
    assert chosen == plain.search(state)
    assert chosen in [t.plan for t in plain._candidates(state, 0, 6)]


def _midgame(game, seed: int, plies: int):
    import random

    rng, state = random.Random(seed), game.new_initial_state(seed)  # (Nibble: the seed's layout)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_late_move_reductions_search_fewer_positions_to_the_same_depth() -> None:
    from abstracta.ai.alphabeta import LMR_MIN_DEPTH, AlphaBetaBot

    game = load_game("nibble", variant="square9")
    for seed in (1, 2, 3):
        state = _midgame(game, seed, 20)
        plain = AlphaBetaBot(game, Budget(depth=10), seed=3)
        reduced = AlphaBetaBot(game, Budget(depth=10), seed=3, reductions=1)
        assert reduced.step(state.clone()) in state.legal_actions()
        plain.step(state.clone())
        assert reduced.depth == plain.depth == 10
        assert reduced.nodes < 0.8 * plain.nodes, (reduced.nodes, plain.nodes)
        # the root is never reduced, nor a node with less depth left than LMR_MIN_DEPTH: to that
        # depth the two searches are the same search
        same = [AlphaBetaBot(game, Budget(depth=LMR_MIN_DEPTH), seed=3, reductions=r) for r in (0, 2)]
        actions = [bot.step(state.clone()) for bot in same]
        assert actions[0] == actions[1] and same[0].nodes == same[1].nodes and same[0].value == same[1].value
    with pytest.raises(ValueError, match="reductions"):
        AlphaBetaBot(game, Budget(seconds=1), reductions=-1)


def test_late_move_reductions_keep_every_forced_win_plain_alpha_beta_finds() -> None:
    # a reduced action is searched again in full once it beats alpha, so a win the full-depth
    # search proves is never reduced away (depth 4: wins within two of the mover's actions)
    from abstracta.ai.alphabeta import WIN_THRESHOLD, AlphaBetaBot

    game = load_game("fanorona", size="dimy")
    wins = 0
    for seed, plies in ((seed, plies) for seed in range(60) for plies in (10, 14, 18)):
        state = _midgame(game, seed, plies)
        if state.is_terminal():
            continue
        plain = AlphaBetaBot(game, Budget(depth=4), seed=1, noise=0)
        plain.step(state.clone())
        if plain.value < WIN_THRESHOLD:
            continue
        wins += 1
        reduced = AlphaBetaBot(game, Budget(depth=4), seed=1, noise=0, reductions=1)
        action = reduced.step(state.clone())
        assert reduced.value >= WIN_THRESHOLD, state.to_text()
        after = state.clone()
        after.apply_action(action)
        assert after.is_terminal() or reduced.value == plain.value
    assert wins >= 10  # the check above ran on enough won positions to mean something


def test_reductions_reach_the_bot_from_the_level_and_change_its_fingerprint(monkeypatch) -> None:
    from abstracta.ai import levels as levels_module
    from abstracta.ai.alphabeta import AlphaBetaBot

    nibble = load_game("nibble", variant="square9")
    declared = nibble.description.levels[5]
    before = level_fingerprint(nibble, 5)
    assert "reductions" not in levels_module.describe_level(nibble, 5)
    selective = Search(declared.bot, declared.rollout_cap, declared.evaluator, reductions=2)
    monkeypatch.setattr(levels_module, "level_search", lambda g, level: selective)
    bot = make_bot("level:5", nibble, seed=0)
    assert isinstance(bot, AlphaBetaBot) and bot.reductions == 2
    assert level_fingerprint(nibble, 5) != before
    assert levels_module.describe_level(nibble, 5)["reductions"] == 2


def test_nibble_level_6_reduces_late_actions_and_a_plain_alphabeta_spec_does_not() -> None:
    # level 6 is the selective search (README "The level ladder"); a seat spec names plain
    # alpha-beta, with the levels' leaves and evaluator but every action to full depth
    for variant in ("square9", "square13", "hex"):
        nibble = load_game("nibble", variant=variant)
        assert make_bot("level:6", nibble, seed=0).reductions == 1
        assert make_bot("level:5", nibble, seed=0).reductions == 0
        assert make_bot("alphabeta:d4", nibble, seed=0).reductions == 0
    assert make_bot("alphabeta:d3+w=1/1/1/1/1", load_game("nibble"), seed=0).reductions == 0



def test_a_reduced_action_that_beats_alpha_is_searched_again_in_full() -> None:
    # the null-window answer of a reduced action is only a bound at a shallower depth: one that
    # beats alpha must be searched again at full depth before it counts
    from abstracta.ai.alphabeta import AlphaBetaBot

    class Watched(AlphaBetaBot):
        def _negamax(self, state, depth, alpha, beta, ply, mid_turn=False):
            self.depths.append(depth)
            try:
                return super()._negamax(state, depth, alpha, beta, ply, mid_turn)
            finally:
                self.depths.pop()

        def _child_value(self, child, me, depth, alpha, beta, ply):
            # in the order the calls begin, with whether the call is reduced (shallower than the
            # node it is made from: a full call passes the node's own depth), and its value
            reduced = bool(self.depths) and depth < self.depths[-1]
            call = [child.hash_key(), ply, depth, reduced, alpha, None]
            self.calls.append(call)
            call[5] = super()._child_value(child, me, depth, alpha, beta, ply)
            return call[5]

    game = load_game("nibble", variant="square9")
    researched = 0
    for seed in (1, 2, 3):
        bot = Watched(game, Budget(depth=8), seed=3, reductions=1)
        bot.calls, bot.depths = [], []
        bot.step(_midgame(game, seed, 20))
        for i, (key, ply, depth, reduced, alpha, value) in enumerate(bot.calls):
            if reduced and value > alpha:
                # the next call at this ply or nearer the root, after the reduced one's subtree
                after = next((c for c in bot.calls[i + 1:] if c[1] <= ply), None)
                assert after is not None and after[:4] == [key, ply, depth + 1, False]
                researched += 1
    assert researched > 0


def test_late_move_reductions_are_exact_where_even_the_reduced_search_reaches_every_end() -> None:
    # tic-tac-toe: at a depth that covers the rest of the game even one action shallower, every
    # reduced action is searched to the end; a null-window answer is only a bound, so the values
    # come out exact only because an action that beats alpha is searched again in full
    import random

    from abstracta.ai.alphabeta import AlphaBetaBot

    from .toygames import MNKGame

    game, rng = MNKGame(), random.Random(5)
    for _ in range(40):
        state = game.new_initial_state()
        for _ in range(rng.randrange(0, 4)):
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        plain = AlphaBetaBot(game, Budget(depth=10), seed=1, noise=0)
        reduced = AlphaBetaBot(game, Budget(depth=10), seed=1, noise=0, reductions=1)
        plain.step(state.clone())
        reduced.step(state.clone())
        assert reduced.value == plain.value, state.to_text()


def test_contempt_plays_on_from_a_position_less_worse_than_the_draw_costs() -> None:
    from abstracta.ai.alphabeta import AlphaBetaBot

    from .toygames import PLAY_ON, TAKE_DRAW, DrawOfferGame

    game = DrawOfferGame(edge=0.01)  # playing on is judged 0.01 worse for player 0
    chosen = {}
    for contempt in (0.0, 0.005, 0.05):
        bot = AlphaBetaBot(game, Budget(depth=1), seed=0, noise=0, contempt=contempt)
        chosen[contempt] = bot.step(game.new_initial_state())
        assert bot.value == pytest.approx(max(-contempt, -0.01))
    assert chosen == {0.0: TAKE_DRAW, 0.005: TAKE_DRAW, 0.05: PLAY_ON}
    for bad in (-0.1, 1.0):
        with pytest.raises(ValueError, match="contempt"):
            AlphaBetaBot(game, Budget(depth=1), contempt=bad)


def test_contempt_prices_a_draw_for_the_searching_side_whichever_it_is() -> None:
    # tic-tac-toe is drawn with best play: searched to the end, the draw is worth -contempt to
    # the side the search is for; one bot searching for one side, then the other, must not
    # reuse table values priced for the first (they would say +contempt)
    from abstracta.ai.alphabeta import AlphaBetaBot

    from .toygames import MNKGame

    game = MNKGame()
    bot = AlphaBetaBot(game, Budget(depth=10), seed=0, noise=0, contempt=0.1)
    state = game.new_initial_state()
    bot.search(state.clone())
    assert bot.value == pytest.approx(-0.1)
    state.apply_action(4)
    # a shallower search (still to the end: 8 actions are left) would find deep enough table
    # entries from the first one at every node below its root
    bot.budget = Budget(depth=8)
    bot.search(state.clone())
    assert bot.value == pytest.approx(-0.1)
    plain = AlphaBetaBot(game, Budget(depth=10), seed=0, noise=0)
    plain.search(state.clone())
    assert plain.value == 0.0


def test_contempt_reaches_the_bot_from_the_level_and_is_refused_off_alpha_beta(monkeypatch) -> None:
    from dataclasses import replace

    from abstracta.ai import levels as levels_module
    from abstracta.ai.alphabeta import AlphaBetaBot

    game = load_game("fanorona", size="dimy")
    declared = game.description.levels[4]
    before = level_fingerprint(game, 4)
    assert "contempt" not in levels_module.describe_level(game, 4)
    monkeypatch.setattr(levels_module, "level_search", lambda g, level: replace(declared, contempt=0.04))
    bot = make_bot("level:4", game, seed=0)
    assert isinstance(bot, AlphaBetaBot) and bot.contempt == 0.04
    assert level_fingerprint(game, 4) != before
    assert levels_module.describe_level(game, 4)["contempt"] == 0.04
    monkeypatch.undo()
    # a seat spec names plain alpha-beta: a draw is worth 0 to it
    assert make_bot("alphabeta:d2", game, seed=0).contempt == 0.0
    description = game.description
    for bot_name, value in (("mcts", 0.04), ("alphabeta", -0.04), ("alphabeta", 1.0)):
        with pytest.raises(ValueError, match=r"fanorona: level 5 sets contempt=.*alpha-beta only"):
            replace(description, levels={**description.levels, 5: Search(bot_name, contempt=value)})



def test_no_shipped_level_prices_a_draw() -> None:
    # contempt was tried for Fanorona 9×5's level 6 and not kept (README "The level ladder"):
    # every level of every game and variant values a draw at 0
    from abstracta.core.registry import registered_games

    for name in registered_games():
        for variant in load_game(name).description.variants:
            levels = load_game(name, **variant.options).description.levels
            assert all(search.contempt == 0.0 for search in levels.values()), (name, variant.options)


def test_max_nodes_holds_a_timed_alpha_beta_and_reaches_the_bot_from_the_level(monkeypatch) -> None:
    # a node cap holds a level below its time in every phase of a game (a depth cap holds an
    # opening back far more than an endgame, where the same depth costs little)
    from abstracta.ai import levels as levels_module
    from abstracta.ai.alphabeta import AlphaBetaBot

    game = load_game("fanorona")
    state = game.new_initial_state()
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])
    free = AlphaBetaBot(game, Budget(seconds=30), seed=3, max_depth=8)
    free.step(state.clone())
    held = AlphaBetaBot(game, Budget(seconds=30), seed=3, max_depth=8, max_nodes=1000)
    held.step(state.clone())
    assert free.depth == 8 and free.nodes > 3000 and held.nodes < 1000 + 256 and held.depth < free.depth
    declared = game.description.levels[5]
    before = level_fingerprint(game, 5)
    capped = replace(declared, max_nodes=40000)
    monkeypatch.setattr(levels_module, "level_search", lambda g, level: capped)
    bot = make_bot("level:5", game, seed=0)
    assert getattr(bot, "inner", bot).max_nodes == 40000
    assert level_fingerprint(game, 5) != before
    assert levels_module.describe_level(game, 5)["max_nodes"] == 40000


def test_max_nodes_is_alpha_beta_only() -> None:
    game = load_game("nibble", variant="square9")
    levels = dict(game.description.levels)
    levels[3] = replace(levels[3], max_nodes=1000)  # MCTS: it would claim a cap it never reads
    with pytest.raises(ValueError, match="max_nodes"):
        replace(game.description, levels=levels)
    levels[3] = replace(game.description.levels[4], max_nodes=0)
    with pytest.raises(ValueError, match="max_nodes"):
        replace(game.description, levels=levels)


def test_fanorona_9x5_level_5_is_level_6_held_to_a_node_cap() -> None:
    # 4-5 had room (87.5 % of 16) and 5-6 did not (54.2 % of 12): level 5 is level 6's search
    # held to 75 000 positions an action, on 9×5 only (5×5's ladder stops at 3-4)
    from abstracta.games.fanorona.description import LEVEL5_NODES_9X5

    assert LEVEL5_NODES_9X5 == 75_000
    nine = load_game("fanorona")
    five, six = nine.description.levels[5], nine.description.levels[6]
    assert five == replace(six, max_nodes=75_000) and six.max_nodes is None
    bot = make_bot("level:5", nine, seed=0)
    assert bot.inner.max_nodes == 75_000 and bot.inner.budget.seconds == 1.5
    assert make_bot("level:6", nine, seed=0).inner.max_nodes is None
    dimy = load_game("fanorona", size="dimy").description.levels
    assert dimy[5] == dimy[6] and dimy[5].max_nodes is None


def test_fanorona_9x5_level_4_is_held_to_a_node_cap() -> None:
    # 4-5 stood at 58.3 % of 24 with level 4 searching about half of level 5's positions and
    # one action less deep; held to 10 000, it searches two actions less deep (8 against 10)
    from abstracta.games.fanorona.description import LEVEL4_NODES_9X5

    assert LEVEL4_NODES_9X5 == 10_000
    nine = load_game("fanorona").description.levels
    assert nine[4].max_nodes == 10_000 and nine[4].bot == "alphabeta"
    assert nine[4].oracle is None and nine[4].turn_extension == nine[6].turn_extension == 8
    bot = make_bot("level:4", load_game("fanorona"), seed=0)
    assert bot.max_nodes == 10_000 and bot.budget.seconds == 0.5
    assert load_game("fanorona", size="dimy").description.levels[4].max_nodes is None


def test_a_replaced_search_is_refused_a_field_its_bot_never_reads() -> None:
    # benchmarks/ab_levels.py and turn_depth.py replace Search fields; one the level's bot does
    # not read (the turn search's late move reductions, removed) measured the unchanged level
    # under another name, as the README's turn_depth.py command with "reductions" did
    from abstracta.ai.levels import level_bot, level_search

    fibonacci, fanorona = load_game("fibonacci"), load_game("fanorona")
    with pytest.raises(ValueError, match=r"fibonacci: level 6 sets reductions=1 on a turns search"):
        level_bot(fibonacci, 6, 0, search=replace(level_search(fibonacci, 6), reductions=1))
    with pytest.raises(ValueError, match=r"fanorona: level 3 sets contempt=0.05 on a mcts search"):
        level_bot(fanorona, 3, 0, search=replace(level_search(fanorona, 3), contempt=0.05))
    with pytest.raises(ValueError, match=r"fanorona: level 4 sets turn_widths=\(4, 3\) on a alphabeta search"):
        level_bot(fanorona, 4, 0, search=replace(level_search(fanorona, 4), turn_widths=(4, 3)))
    kept = level_bot(fanorona, 6, 0, search=replace(level_search(fanorona, 6), contempt=0.05))
    assert kept.inner.contempt == 0.05


def test_games_json_names_the_deals_an_ismcts_level_searches() -> None:
    # the card game's levels 3 and 4 differ in their deals (level 4 infers the opponent's hand
    # from his draws and passes) besides their time and playout cap: `abstracta games --json`
    # must say so, as it names every other declared field that changes play
    from abstracta.ai.levels import describe_level

    game = load_game("fibonacci-cards")
    assert "determinize" not in describe_level(game, 3)
    for level in (4, 5, 6):
        assert describe_level(game, level)["determinize"] == \
            "abstracta.games.fibonacci_cards.description.inferred_deal"
