"""The project's own pseudo-random generator (R2): SplitMix64 and a Fisher–Yates shuffle.

Written here, not taken from ``random``, so a seed gives the same deck order on every platform and Python version,
forever. The algorithm is named in ``game_started.shuffle``; a different algorithm gets a new name and this one
stays, so stored games keep their hidden deck order.

SplitMix64 (Steele, Lea, Flood 2014; the reference constants of Vigna's ``splitmix64.c``)::

    state = (state + 0x9E3779B97F4A7C15) mod 2^64
    z = state
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 mod 2^64
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB mod 2^64
    return z ^ (z >> 31)

Fisher–Yates (Durstenfeld): for i from n-1 down to 1, j = (next() * (i + 1)) >> 64 (Lemire's multiply-shift,
bias < 2^-58 for decks this size), swap items i and j.

``splitmix64-fisher-yates/1`` deals with one generator seeded with ``seed mod 2^64``: p1's deck is shuffled
first, then p2's, each deck being the army's cards minus its general (and minus the cards of a starting
position), in the order the army lists them. The top of a deck is index 0 after shuffling.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1
SHUFFLE_NAME = "splitmix64-fisher-yates/1"


class SplitMix64:
    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """An integer in [0, n) (Lemire's multiply-shift)."""
        return (self.next() * n) >> 64


def shuffle(items: Sequence[T], rng: SplitMix64) -> list[T]:
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def shuffled_decks(seed: int, decks: Sequence[Sequence[T]], algorithm: str = SHUFFLE_NAME) -> list[list[T]]:
    if algorithm != SHUFFLE_NAME:
        raise ValueError(f"unknown shuffle algorithm {algorithm!r}")
    rng = SplitMix64(seed)
    return [shuffle(deck, rng) for deck in decks]
