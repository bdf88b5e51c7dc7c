"""The worked examples of Fanorona's spec as diagrams (Spec: fanorona.md §6; issue 39).

Each is placed in the rules pages (``rules.html``, ``rules.fi.html``) by its id; the legal
actions under each drawing are listed by the engine, the arrows drawn from its effects.
"""

from __future__ import annotations

from ...core.description import texts
from ...core.diagrams import Diagram

T = texts("fanorona")

START = "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW W"

EXAMPLES = (
    Diagram("start", T("example.start", "The Tsivy (9×5) start: 22 stones each, the centre e3 empty. "
                                        "White moves first."), START, legal=False, spec="fanorona.md §2"),
    Diagram("opening", T("example.opening", "White's five opening captures. d2-e3A takes f4 and g5 by "
                                            "approach; d3-e3W takes c3 by withdrawal. Each ends the turn."),
            START, arrows=("d2-e3A", "d3-e3A", "d3-e3W", "e2-e3A", "f2-e3A"), spec="fanorona.md §6, example 1"),
    Diagram("reply", T("example.reply", "After d2-e3A Black must capture: five captures, e5-f4A taking the "
                                        "whole diagonal g3, h2, i1."),
            START, before=("d2-e3A",), arrows=("c3-d2A", "e5-f4A", "f3-f4W", "g4-g5W", "h4-g5W"),
            spec="fanorona.md §6, example 2"),
    Diagram("reply-chain", T("example.reply_chain", "After e5-f4A the same stone may capture again (f4-g5W) "
                                                    "or end the turn."),
            START, before=("d2-e3A", "e5-f4A"), arrows=("f4-g5W",), spec="fanorona.md §6, example 2"),
    Diagram("choice", T("example.choice", "A chain with a choice: c3-b4W takes d2, c3-d3A takes e3 and f3."),
            "...B...../........./..W.BB.../...B...../........B W", arrows=("c3-b4W", "c3-d3A"),
            spec="fanorona.md §6, example 3"),
    Diagram("choice-on", T("example.choice_on", "After c3-d3A the stone on d3 goes on: up by approach "
                                                "(takes d5) or by withdrawal (takes d2), or ends the turn."),
            "...B...../........./..W.BB.../...B...../........B W", before=("c3-d3A",),
            arrows=("d3-d4A", "d3-d4W"), spec="fanorona.md §6, example 3"),
    Diagram("choice-after", T("example.choice_after", "After d3-d4W no capture is left: the turn is over and "
                                                      "Black, with no capture anywhere, makes a plain step "
                                                      "(a paika)."),
            "...B...../........./..W.BB.../...B...../........B W", before=("c3-d3A", "d3-d4W"),
            spec="fanorona.md §6, example 3"),
    Diagram("direction", T("example.direction", "No two steps in one direction: after b1-c1W (takes a1), "
                                                "c1-d1A, which would take e1, is not allowed; c1-c2A is."),
            "........./........./..B....../........./BW..B.... W", before=("b1-c1W",), arrows=("c1-c2A",),
            spec="fanorona.md §6, example 4"),
    Diagram("visited", T("example.visited", "No return to a visited point: after c1-d1A and d1-d2A the capture "
                                            "d2-c1W would go back to c1, so the turn ends by itself."),
            "........./........./...BB..../........./..W.B.... W", before=("c1-d1A",), arrows=("d1-d2A",),
            spec="fanorona.md §6, example 5"),
    Diagram("immobile", T("example.immobile", "Black to move has a stone but no legal action: Black has lost."),
            "........./........./........./WW......./BW....... B", spec="fanorona.md §6, example 6"),
    Diagram("vela", T("example.vela", "Vela: White's captures take only the first stone of the line "
                                      "(d2-e3A takes f4 alone), and the turn ends."),
            START, options={"vela": True}, arrows=("d2-e3A",), spec="fanorona.md §6, example 7; §7"),
    Diagram("vela-black", T("example.vela_black", "Vela: Black, with more than five stones, may not capture "
                                                  "and makes a plain step."),
            "BBBBBBBBB/BBBBB.BBB/BWBWWBWBW/WWW.WWWWW/WWWWWWWWW B", options={"vela": True},
            spec="fanorona.md §6, example 7; §7"),
    Diagram("dimy", T("example.dimy", "Fanoron-Dimy (5×5): White's five opening captures."), options={"size": "dimy"},
            arrows=("b2-c3A", "c2-c3A", "d2-c3A", "d3-c3A", "d3-c3W"), spec="fanorona.md §2, §6 example 8"),
    Diagram("telo", T("example.telo", "Fanoron-Telo (3×3): White's four opening captures."), options={"size": "telo"},
            arrows=("a1-b2A", "b1-b2A", "c1-b2A", "c2-b2A"), spec="fanorona.md §2, §6 example 8"),
)
