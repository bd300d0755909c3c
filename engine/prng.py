"""The project's own pseudo-random generator: SplitMix64, Lemire's bounded draw and a Fisher–Yates shuffle.

Every game system draws its chance from here (shuffles, dice, the random bots), never from ``random``: a seed
gives the same numbers on every platform and Python version, forever. A system names the algorithm it deals with
in its ``game_started`` event (Lords of War: ``splitmix64-fisher-yates/1``, ``engine.lords_of_war.prng``); a
different algorithm gets a new name and this one stays, so stored games keep their hidden orders.

SplitMix64 (Steele, Lea, Flood 2014; the reference constants of Vigna's ``splitmix64.c``)::

    state = (state + 0x9E3779B97F4A7C15) mod 2^64
    z = state
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 mod 2^64
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB mod 2^64
    return z ^ (z >> 31)

Bounded draw (Lemire's multiply-shift): ``below(n) = (next() * n) >> 64``, bias < 2^-58 for the small n games use.
Fisher–Yates (Durstenfeld): for i from n-1 down to 1, j = below(i + 1), swap items i and j.
"""

from __future__ import annotations

import functools
import struct
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1


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


_GAMMA = 0x9E3779B97F4A7C15
_LANE_BITS = 128


@functools.lru_cache(maxsize=256)
def _lanes(count: int) -> tuple[int, int, int, struct.Struct]:
    """Constants for ``count`` lanes (they depend on the count only): ones, k * GAMMA per lane k >= 1, the lane mask,
    and the unpacker of the lanes' bytes."""
    ones = sum(1 << (_LANE_BITS * k) for k in range(count))
    gammas = sum(((k + 1) * _GAMMA) << (_LANE_BITS * k) for k in range(count))
    return ones, gammas, ones * MASK64, struct.Struct(f"<{2 * count}Q")


def draws(seed: int, count: int) -> tuple[int, ...]:
    """``SplitMix64(seed).next()`` ``count`` times, in one pass of big-integer arithmetic.

    SplitMix64's k-th state is just ``seed + k * GAMMA mod 2^64``, so all the draws are independent of each other:
    they are computed at once, each in its own 128-bit lane of one big integer (SWAR), where SplitMix64's steps are
    lane-wise: a 64-bit value times a 64-bit constant fits its lane exactly, and a right shift's spill from the next
    lane is masked off. The tests hold this equal to the one-at-a-time generator.
    """
    if count <= 0:
        return ()
    ones, gammas, lane, unpack = _lanes(count)
    z = ((seed & MASK64) * ones + gammas) & lane  # lane k: the state after k + 1 steps
    z = (((z ^ (z >> 30)) & lane) * 0xBF58476D1CE4E5B9) & lane
    z = (((z ^ (z >> 27)) & lane) * 0x94D049BB133111EB) & lane
    z = (z ^ (z >> 31)) & lane
    values: tuple[int, ...] = unpack.unpack(z.to_bytes(16 * count, "little"))[0::2]  # each lane's low 64 bits
    return values


__all__ = ["MASK64", "SplitMix64", "draws", "shuffle"]
