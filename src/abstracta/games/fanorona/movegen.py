"""Turn-start move generation, specialised per board size (Spec: fanorona.md §3.1, §3.2).

The generators are straight-line Python compiled once per geometry with the shift amounts
and edge masks written in as constants: the eight directions are unrolled, so a call does
no table look-ups and no loop over directions. The result is the same as looping over
``Geometry.shifts`` (see :func:`.rules.capture_steps_reference`), only faster.

Generated functions (all take the mover's and the opponent's bitboards):
* ``captures(own, opp) -> list[int]`` — every capture step, canonical order;
* ``paikas(own, opp) -> list[int]`` — every paika step, canonical order.
"""

from __future__ import annotations

from typing import Callable

from .geometry import Geometry

Generator = Callable[[int, int], list]


def _expand(lines: list[str], var: str, offset: int, indent: str) -> None:
    lines.append(f"{indent}while {var}:")
    lines.append(f"{indent}    b = {var} & -{var}")
    lines.append(f"{indent}    append(P24[b] + {offset})")
    lines.append(f"{indent}    {var} ^= b")


def _source(g: Geometry) -> str:
    full = g.full
    lines = ["def captures(own, opp):",
             f"    empty = {full} ^ own ^ opp",
             "    out = []",
             "    append = out.append"]
    for s, oup, odn, _m_up, a_up, w_up, _m_dn, a_dn, w_dn in g.shifts:
        lines.append(f"    e = own & (empty >> {s})")
        lines.append("    if e:")
        lines.append(f"        x = e & (opp >> {2 * s}) & {a_up}")
        _expand(lines, "x", oup + 1, "        ")
        lines.append(f"        x = e & (opp << {s}) & {w_up}")
        _expand(lines, "x", oup + 2, "        ")
        lines.append(f"    e = own & (empty << {s})")
        lines.append("    if e:")
        lines.append(f"        x = e & (opp << {2 * s}) & {a_dn}")
        _expand(lines, "x", odn + 1, "        ")
        lines.append(f"        x = e & (opp >> {s}) & {w_dn}")
        _expand(lines, "x", odn + 2, "        ")
    lines.append("    if len(out) > 1:")
    lines.append("        out.sort()")
    lines.append("    return out")
    lines.append("")
    lines += ["def paikas(own, opp):",
              f"    empty = {full} ^ own ^ opp",
              "    out = []",
              "    append = out.append"]
    for s, oup, odn, m_up, _a_up, _w_up, m_dn, _a_dn, _w_dn in g.shifts:
        lines.append(f"    x = own & (empty >> {s}) & {m_up}")
        _expand(lines, "x", oup, "    ")
        lines.append(f"    x = own & (empty << {s}) & {m_dn}")
        _expand(lines, "x", odn, "    ")
    lines.append("    out.sort()")
    lines.append("    return out")
    return "\n".join(lines) + "\n"


_CACHE: dict[str, tuple[Generator, Generator]] = {}


def generators(g: Geometry) -> tuple[Generator, Generator]:
    """``(captures, paikas)`` specialised for ``g`` (compiled once per board size)."""
    gens = _CACHE.get(g.size)
    if gens is None:
        namespace: dict = {"P24": {1 << p: p * 24 for p in range(g.n)}}
        exec(compile(_source(g), f"<fanorona movegen {g.size}>", "exec"), namespace)
        gens = _CACHE[g.size] = (namespace["captures"], namespace["paikas"])
    return gens
