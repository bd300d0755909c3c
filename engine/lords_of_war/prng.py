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

import functools
import struct
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
    """Each deck shuffled in turn by one generator seeded with ``seed``: ``shuffle`` with ``SplitMix64``.

    The same numbers as ``[shuffle(deck, rng) for deck in decks]`` with ``rng = SplitMix64(seed)`` (the readable
    reference, kept above; the tests hold the two equal over many seeds and deck sizes, and a pinned deal holds
    both to stored games), computed faster: every sealed ``game_started`` draws ~70 numbers here, and one at a time
    they were a third of the cost of folding a whole game (issue 7). SplitMix64's k-th state is just
    ``seed + k * GAMMA mod 2^64``, so all the draws are independent of each other: ``_draws`` computes them at
    once, each in its own 128-bit lane of one big integer (SWAR), where SplitMix64's steps are lane-wise:
    a 64-bit value times a 64-bit constant fits its lane exactly, and a right shift's spill from the next lane is
    masked off. Only Lemire's ``(x * n) >> 64`` and the swaps stay per card.
    """
    if algorithm != SHUFFLE_NAME:
        raise ValueError(f"unknown shuffle algorithm {algorithm!r}")
    out = [list(deck) for deck in decks]
    count = sum(len(items) - 1 for items in out if items)
    if count == 0:
        return out
    draws = _draws(seed, count)
    k = 0
    for items in out:
        for i in range(len(items) - 1, 0, -1):
            j = (draws[k] * (i + 1)) >> 64
            k += 1
            items[i], items[j] = items[j], items[i]
    return out


_GAMMA = 0x9E3779B97F4A7C15
_LANE_BITS = 128


@functools.lru_cache(maxsize=256)
def _lanes(count: int) -> tuple[int, int, int, struct.Struct]:
    """Constants for ``count`` lanes (they depend on the count only): ones, k * GAMMA per lane k >= 1, the lane mask,
    and the unpacker of the lanes' bytes."""
    ones = sum(1 << (_LANE_BITS * k) for k in range(count))
    gammas = sum(((k + 1) * _GAMMA) << (_LANE_BITS * k) for k in range(count))
    return ones, gammas, ones * MASK64, struct.Struct(f"<{2 * count}Q")


def _draws(seed: int, count: int) -> tuple[int, ...]:
    """``SplitMix64(seed).next()`` ``count`` times, in one pass of big-integer arithmetic."""
    ones, gammas, lane, unpack = _lanes(count)
    z = ((seed & MASK64) * ones + gammas) & lane  # lane k: the state after k + 1 steps
    z = (((z ^ (z >> 30)) & lane) * 0xBF58476D1CE4E5B9) & lane
    z = (((z ^ (z >> 27)) & lane) * 0x94D049BB133111EB) & lane
    z = (z ^ (z >> 31)) & lane
    return unpack.unpack(z.to_bytes(16 * count, "little"))[0::2]  # each lane's low 64 bits
