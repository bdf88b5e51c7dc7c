"""Turn-start move generation, specialised per board size (Spec: fanorona.md §3.1, §3.2).

The generators are straight-line Python compiled once per geometry with the shift amounts
and edge masks written in as constants: the eight directions are unrolled, so a call does
no table look-ups and no loop over directions. The result is the same as looping over
``Geometry.shifts`` (:func:`.rules.capture_steps`, :func:`.rules.paika_steps`), only faster.

Generated functions (all take the mover's and the opponent's bitboards):
* ``turn_start(own, opp) -> list[int]`` — the legal list at the start of a turn under the
  normal rules: every capture step, or every paika step if there is no capture; canonical order;
* ``paikas(own, opp) -> list[int]`` — every paika step, canonical order (vela phase, Black).
"""

from __future__ import annotations

from typing import Callable

from .geometry import Geometry

Generator = Callable[[int, int], list]


def _expand(lines: list[str], var: str, offset: int, indent: str) -> None:
    lines.append(f"{indent}while {var}:")
    lines.append(f"{indent}    b = {var} & -{var}")
    lines.append(f"{indent}    append(T{offset}[b])")
    lines.append(f"{indent}    {var} ^= b")


def _source(g: Geometry) -> str:
    full = g.full
    lines = ["def turn_start(own, opp):",
             f"    empty = {full} ^ own ^ opp",
             "    out = []",
             "    append = out.append"]
    paika = []
    for i, (s, oup, odn, m_up, a_up, w_up, m_dn, a_dn, w_dn) in enumerate(g.shifts):
        for direction, (shift_e, shift_a, shift_w, a_mask, w_mask, m_mask, order, sign) in enumerate((
                (">>", f">> {2 * s}", f"<< {s}", a_up, w_up, m_up, oup, 1),
                ("<<", f"<< {2 * s}", f">> {s}", a_dn, w_dn, m_dn, odn, -1))):
            var = f"e{2 * i + direction}"
            d = sign * s
            lines.append(f"    {var} = own & (empty {shift_e} {s})")
            lines.append(f"    if {var}:")
            lines.append(f"        x = {var} & (opp {shift_a})" + _mask(g, a_mask, (d, 2 * d)))
            _expand(lines, "x", order + 1, "        ")
            lines.append(f"        x = {var} & (opp {shift_w})" + _mask(g, w_mask, (d, -d)))
            _expand(lines, "x", order + 2, "        ")
            paika.append((var, _mask(g, m_mask, (d,)), order))
    lines.append("    if out:")
    lines.append("        if len(out) > 1:")
    lines.append("            out.sort()")
    lines.append("        return out")
    for var, mask, order in paika:
        lines.append(f"    x = {var}{mask}")
        _expand(lines, "x", order, "    ")
    lines.append("    out.sort()")
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


def _mask(g: Geometry, mask: int, offsets: tuple[int, ...]) -> str:
    """``" & MASK"``, or ``""`` when the bare shifts are already exact: every point whose
    ``p + offset`` lies in ``0..n-1`` for all ``offsets`` is in ``mask`` (east/west steps,
    whose shifted bits simply fall off the board)."""
    in_range = sum(1 << p for p in range(g.n) if all(0 <= p + o < g.n for o in offsets))
    return "" if in_range == mask else f" & {mask}"


_CACHE: dict[str, tuple[Generator, Generator]] = {}


def generators(g: Geometry) -> tuple[Generator, Generator]:
    """``(turn_start, paikas)`` specialised for ``g`` (compiled once per board size)."""
    gens = _CACHE.get(g.size)
    if gens is None:
        source = _source(g)
        # ``T<offset>[bit]`` = action id of the step of kind/direction ``offset`` from that bit's
        # point; bound as default arguments so that look-ups are local
        tables = {f"T{o}": {1 << p: p * 24 + o for p in range(g.n)} for o in range(24)}
        defaults = ", ".join(f"T{o}=T{o}" for o in range(24))
        source = source.replace("(own, opp):", f"(own, opp, {defaults}):")
        namespace: dict = dict(tables)
        exec(compile(source, f"<fanorona movegen {g.size}>", "exec"), namespace)
        gens = _CACHE[g.size] = (namespace["turn_start"], namespace["paikas"])
    return gens
