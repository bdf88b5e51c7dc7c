"""The shared generator's test vectors (rules/README.md "Seeded generator")."""

import pytest

from abstracta import SplitMix64


def test_seed0_first_three_outputs():
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_seed1_shuffle():
    items = list(range(10))
    SplitMix64(1).shuffle(items)
    assert items == [4, 2, 8, 1, 9, 3, 0, 6, 7, 5]


def test_below_and_state_copy():
    a = SplitMix64(42)
    b = a.copy()
    assert [a.below(7) for _ in range(20)] == [b.below(7) for _ in range(20)]
    assert all(0 <= SplitMix64(s).below(3) < 3 for s in range(50))


def test_large_seed_wraps_mod_2_64():
    assert SplitMix64(2**64 + 5).state == 5


@pytest.mark.parametrize("bad", [-1])
def test_negative_seed_refused(bad):
    with pytest.raises(ValueError, match="non-negative"):
        SplitMix64(bad)


def test_below_zero_refused():
    with pytest.raises(ValueError):
        SplitMix64(0).below(0)
