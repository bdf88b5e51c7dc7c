"""Cards, values and the precomputed play tables of the Fibonacci card game.

Spec: fibonacci-cards.md §1 (cards and values), §3 (plays).

A card is an int ``0..51`` in the deck order of §8: ``suit * 13 + rank`` with suits
``c d h s`` and ranks ``A 2 … 9 T J Q K`` (so ``0`` = ``Ac``, ``51`` = ``Ks``).

A pile is summarised by its **code**: the rank (``0..12``) of its top card, or ``13`` when the
top card is a crosswise (cut-down) card. The three codes make the table **configuration**
``cfg = code1 * 196 + code2 * 14 + code3`` (``0..2743``); every rule question (which card may
go where) depends only on ``cfg``, so the answers are tabulated once per configuration.
"""

from __future__ import annotations

RANKS = "A23456789TJQK"
SUITS = "cdhs"
NUM_CARDS = 52
#: Flag added to a card in a pile when it lies crosswise (cut-down), §3.3.
CUT = 64
#: Pile code of a cut-down pile.
CUT_CODE = 13
NUM_CONFIGS = 14 * 14 * 14

CARD_STR: tuple[str, ...] = tuple(RANKS[c % 13] + SUITS[c // 13] for c in range(NUM_CARDS))
CARD_INDEX: dict[str, int] = {s: i for i, s in enumerate(CARD_STR)}
RANK: tuple[int, ...] = tuple(c % 13 for c in range(NUM_CARDS))
#: Hand value (§1): 2..10 as printed, J 11, Q 12, K 13, A 14.
HAND_VALUE: tuple[int, ...] = tuple(14 if c % 13 == 0 else c % 13 + 1 for c in range(NUM_CARDS))
#: Table value of a pile by its code (§1): ace 1, cut-down 1, else the printed value.
CODE_VALUE: tuple[int, ...] = tuple(1 if code in (0, CUT_CODE) else code + 1 for code in range(14))

# --- actions (spec §3 notation, §4 turn) ----------------------------------------------------
#: A play is ``card * 6 + pile * 2 + kind`` (pile 0..2, kind 0 = sum ``>``, 1 = cut ``/``).
DRAW = 312
PASS = 313
NUM_ACTIONS = 314


def _action_string(action: int) -> str:
    if action == DRAW:
        return "draw"
    if action == PASS:
        return "pass"
    card, rem = divmod(action, 6)
    return CARD_STR[card] + ("/" if rem & 1 else ">") + str((rem >> 1) + 1)


ACTION_STR: tuple[str, ...] = tuple(_action_string(a) for a in range(NUM_ACTIONS))
ACTION_INDEX: dict[str, int] = {s: a for a, s in enumerate(ACTION_STR)}
#: Lower-cased notation -> action: a card is rank then suit (ranks upper case, suits lower
#: case), so ``qd/1`` or ``QD/1`` can only mean ``Qd/1``.
FOLDED_INDEX: dict[str, int] = {s.lower(): a for s, a in ACTION_INDEX.items()}
assert len(FOLDED_INDEX) == len(ACTION_INDEX), "two actions differ only in case"
_order = sorted(range(NUM_ACTIONS), key=ACTION_STR.__getitem__)
_key = [0] * NUM_ACTIONS
for _rank, _a in enumerate(_order):
    _key[_a] = _rank
#: Canonical sort key of every action: its rank in ASCII order of the strings (§3 "Notation").
ACTION_KEY: tuple[int, ...] = tuple(_key)
del _order, _key, _rank, _a

def config_of(codes: tuple[int, int, int] | list[int]) -> int:
    return codes[0] * 196 + codes[1] * 14 + codes[2]


def codes_of(cfg: int) -> tuple[int, int, int]:
    return cfg // 196, cfg // 14 % 14, cfg % 14


def pile_code(top: int) -> int:
    """Code of a pile whose top card is ``top`` (a card, ``| CUT`` if crosswise)."""
    return CUT_CODE if top & CUT else top % 13


def table_values(cfg: int) -> tuple[int, int, int]:
    a, b, c = codes_of(cfg)
    return CODE_VALUE[a], CODE_VALUE[b], CODE_VALUE[c]


class ConfigTable:
    """What every card may do on one table configuration (§3).

    Attributes:
        plays: per card, the tuple of its legal play actions in canonical order.
        playable: bitmask over cards (bit ``c``) of the cards with at least one play.
    """

    __slots__ = ("plays", "playable")

    def __init__(self, cfg: int):
        codes = codes_of(cfg)
        t = [CODE_VALUE[x] for x in codes]
        sums = [0] * 15  # hand value -> mask of piles a sum play may go on
        for i, j in ((0, 1), (0, 2), (1, 2)):
            s = t[i] + t[j]
            if s <= 14:
                sums[s] |= (1 << i) | (1 << j)
        s = t[0] + t[1] + t[2]
        if s <= 14:
            sums[s] |= 7
        cuts = [0] * 13  # rank -> mask of piles a card of that rank may cut down
        for i in range(3):
            if codes[i] == CUT_CODE:
                continue  # the top card lies crosswise already
            if max(t[i] + t[j] for j in range(3) if j != i) > 14:
                cuts[codes[i]] |= 1 << i
        plays: list[tuple[int, ...]] = []
        playable = 0
        for card in range(NUM_CARDS):
            sm = sums[HAND_VALUE[card]]
            cm = cuts[RANK[card]]
            acts = [card * 6 + i * 2 for i in range(3) if sm >> i & 1]
            acts += [card * 6 + i * 2 + 1 for i in range(3) if cm >> i & 1]
            acts.sort(key=ACTION_KEY.__getitem__)
            plays.append(tuple(acts))
            if acts:
                playable |= 1 << card
        self.plays: tuple[tuple[int, ...], ...] = tuple(plays)
        self.playable: int = playable


_TABLES: list[ConfigTable | None] = [None] * NUM_CONFIGS


def config_table(cfg: int) -> ConfigTable:
    """The (lazily built, shared) :class:`ConfigTable` of configuration ``cfg``."""
    table = _TABLES[cfg]
    if table is None:
        table = _TABLES[cfg] = ConfigTable(cfg)
    return table
