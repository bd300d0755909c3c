"""Lords of War's deal (R2): the project's generator (``engine.prng``: SplitMix64, Fisher–Yates) applied to the
two decks, under the name ``splitmix64-fisher-yates/1``.

The generator is written in the project, not taken from ``random``, so a seed gives the same deck order on every
platform and Python version, forever (its algorithm is documented in ``engine.prng``). The algorithm is named in
``game_started.shuffle``; a different algorithm gets a new name and this one stays, so stored games keep their
hidden deck order.

``splitmix64-fisher-yates/1`` deals with one generator seeded with ``seed mod 2^64``: p1's deck is shuffled
first, then p2's, each deck being the army's cards minus its general (and minus the cards of a starting
position), in the order the army lists them. The top of a deck is index 0 after shuffling.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from engine.prng import MASK64, SplitMix64, shuffle
from engine.prng import draws as _draws

T = TypeVar("T")

SHUFFLE_NAME = "splitmix64-fisher-yates/1"


def shuffled_decks(seed: int, decks: Sequence[Sequence[T]], algorithm: str = SHUFFLE_NAME) -> list[list[T]]:
    """Each deck shuffled in turn by one generator seeded with ``seed``: ``shuffle`` with ``SplitMix64``.

    The same numbers as ``[shuffle(deck, rng) for deck in decks]`` with ``rng = SplitMix64(seed)`` (the readable
    reference, ``engine.prng``; the tests hold the two equal over many seeds and deck sizes, and a pinned deal holds
    both to stored games), computed faster: every sealed ``game_started`` draws ~70 numbers here, and one at a time
    they were a third of the cost of folding a whole game (issue 7). ``engine.prng.draws`` computes all the draws
    at once; only Lemire's ``(x * n) >> 64`` and the swaps stay per card.
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


__all__ = ["MASK64", "SHUFFLE_NAME", "SplitMix64", "shuffle", "shuffled_decks"]
