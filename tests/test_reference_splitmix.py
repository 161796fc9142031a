"""The SplitMix64 generator of the pure-Python reference (docs/reversi.md, holes step 1-2)."""

import pytest
from boardcore.reference._splitmix import SplitMix64


def test_next_matches_the_published_sequences():
    g = SplitMix64(0)
    assert [g.next() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    g = SplitMix64(1234567)  # the test vector of Vigna's splitmix64.c
    assert [g.next() for _ in range(5)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]


def test_below_rejects_draws_at_or_above_the_zone():
    n = 2**63 + 1  # zone = 2**64 - (2**64 mod n) = n: about half the draws are rejected
    for seed in range(20):
        outputs = SplitMix64(seed)
        first_accepted = next(x for x in iter(outputs.next, None) if x < n)
        assert SplitMix64(seed).below(n) == first_accepted % n


def test_below_stays_in_range_and_uses_one_draw_when_nothing_is_rejected():
    g, h = SplitMix64(7), SplitMix64(7)
    for n in range(1, 60):
        assert g.below(n) == h.next() % n < n  # 2**64 mod n is tiny: no draw here is rejected


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, "1", True])
def test_seed_must_be_a_64_bit_unsigned_integer(seed):
    with pytest.raises(ValueError):
        SplitMix64(seed)


def test_below_needs_a_positive_bound():
    with pytest.raises(ValueError):
        SplitMix64(1).below(0)
