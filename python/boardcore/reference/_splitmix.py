"""SplitMix64, the generator behind boardcore's seeded draws and Zobrist keys.

It is specified in docs/reversi.md so that the Rust engine and this reference produce the same
numbers bit for bit on every platform.
"""

MASK64 = (1 << 64) - 1


class SplitMix64:
    """SplitMix64 with a 64-bit state (Steele, Lea and Flood; Vigna's reference code).

    Raises ValueError if the seed is not an integer in ``0 <= seed < 2**64``.
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MASK64:
            raise ValueError(f"seed must be an integer with 0 <= seed < 2**64, got {seed!r}")
        self.state = seed

    def next(self) -> int:
        """Advances the state and returns the next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, by rejection (no modulo bias).

        Draws ``x = next()`` until ``x < 2**64 - (2**64 mod n)`` and returns ``x mod n``.
        Raises ValueError if ``n < 1``.
        """
        if n < 1:
            raise ValueError(f"below(n) needs n >= 1, got {n}")
        zone = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next()
            if x < zone:
                return x % n
