"""How many positions does each search player visit an action, and how deep does it get? On the
same positions, each player's last completed depth (in actions for alpha-beta, in turns for the
turn search), the positions it visited and its CPU seconds — how a level held to a node cap
(``Search.max_nodes``) is placed between the levels around it (README "The level ladder").

    python benchmarks/search_nodes.py GAME OPTIONS_JSON PLAYER... [--seeds 1,2,3] [--plies 6,20,35] [--json]
    python benchmarks/search_nodes.py fanorona '{"size":"tsivy"}' '"level:4"' '"level:5"' '"level:6"'

PLAYER is JSON as in ``benchmarks/ab_levels.py``. Positions as in ``benchmarks/turn_depth.py``
(a seeded game of level 2 against itself, one action in five random). Each player chooses one
action from each position with its level's budget, as it would in a game. With ``--json`` the
last line is one object: ``rows`` (seed, ply, and per player ``depth``, ``nodes``, ``seconds``).
"""

from __future__ import annotations

import time
from typing import Any

from turn_depth import run


def search_nodes(bot: Any, state: Any) -> dict[str, Any]:
    """One action chosen from ``state`` as in a game: the search's last completed depth, the
    positions it visited and its CPU seconds."""
    search = getattr(bot, "inner", bot)  # a level that asks an oracle first
    if not hasattr(search, "nodes") or not hasattr(search, "depth"):
        raise SystemExit(f"{bot!r} is not a search that counts its positions (no nodes and depth)")
    t0 = time.process_time()
    bot.step(state.clone())
    return {"depth": search.depth, "nodes": search.nodes, "seconds": round(time.process_time() - t0, 2)}


def main() -> None:
    run("Positions visited and depth reached by each search player on the same positions.", search_nodes,
        lambda p: f"d{p['depth']} {p['nodes']:,} {p['seconds']:.1f} s", "6,20,35")


if __name__ == "__main__":
    main()
