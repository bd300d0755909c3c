"""Swiss pairings: pure functions of the standings and the history, no I/O.

Rules (docs/api.md, "Tournaments"):
1. Players are taken in standings order; each is paired with the highest-ranked player below them they have not
   met yet, backtracking when the rest could not be paired without a rematch ("no rematch while avoidable").
2. An odd count gives a bye to the lowest-ranked player who has not had one (whose removal still leaves a
   rematch-free pairing); if nobody is left without a bye, the lowest-ranked player.
3. Only if no rematch-free pairing exists are rematches allowed (fewest first: greedy in standings order).
4. Seats: the player who has sat as p1 less often (p1 count minus p2 count) takes p1; on a tie, the one who was
   p2 in their last game; then the higher-ranked.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

SEARCH_BUDGET = 200_000  # backtracking steps before giving up on a rematch-free pairing


@dataclass(frozen=True)
class Pairing:
    tables: tuple[tuple[str, str], ...]  # (p1, p2) per table, in table order
    bye: str | None
    rematches: int


class _Budget:
    def __init__(self, steps: int) -> None:
        self.steps = steps

    def spend(self) -> bool:
        self.steps -= 1
        return self.steps >= 0


def _met(a: str, b: str, played: frozenset[frozenset[str]]) -> bool:
    return frozenset((a, b)) in played


def _rematch_free(
    players: list[str], played: frozenset[frozenset[str]], budget: _Budget
) -> list[tuple[str, str]] | None:
    """Pair ``players`` (ranked) without rematches, top down with backtracking; None if impossible (or too long)."""
    if not players:
        return []
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        if not budget.spend():
            return None
        if _met(first, other, played):
            continue
        tail = _rematch_free(rest[:i] + rest[i + 1 :], played, budget)
        if tail is not None:
            return [(first, other), *tail]
    return None


def _greedy(players: list[str], played: frozenset[frozenset[str]]) -> list[tuple[str, str]]:
    """Pair top down, each with the first unmet player below, else the next one (rematches allowed)."""
    left = list(players)
    out = []
    while left:
        first = left.pop(0)
        pick = next((i for i, o in enumerate(left) if not _met(first, o, played)), 0)
        out.append((first, left.pop(pick)))
    return out


def seat(a: str, b: str, seats: Mapping[str, Sequence[str]]) -> tuple[str, str]:
    """(p1, p2) for a table of ``a`` (higher-ranked) and ``b``, balancing seats (rule 4)."""

    def balance(p: str) -> int:
        history = seats.get(p, ())
        return sum(1 for s in history if s == "p1") - sum(1 for s in history if s == "p2")

    if balance(a) != balance(b):
        return (a, b) if balance(a) < balance(b) else (b, a)
    last_a = seats.get(a, ())[-1:] or [""]
    last_b = seats.get(b, ())[-1:] or [""]
    if last_a[0] != last_b[0]:
        return (a, b) if last_a[0] == "p2" or last_b[0] == "p1" else (b, a)
    return a, b


def swiss_pairing(
    ranked: Sequence[str],
    played: Iterable[tuple[str, str]],
    had_bye: Iterable[str] = (),
    seats: Mapping[str, Sequence[str]] | None = None,
    budget: int = SEARCH_BUDGET,
) -> Pairing:
    """Pair one round. ``ranked``: players in standings order; ``played``: earlier pairs; ``had_bye``: players
    who had a bye; ``seats``: each player's seats so far (``"p1"``/``"p2"``) in round order."""
    players = list(dict.fromkeys(ranked))
    met = frozenset(frozenset(p) for p in played)
    byes = set(had_bye)
    seats = seats or {}
    steps = _Budget(budget)

    def finish(pairs: list[tuple[str, str]], bye: str | None) -> Pairing:
        rematches = sum(1 for a, b in pairs if _met(a, b, met))
        return Pairing(tuple(seat(a, b, seats) for a, b in pairs), bye, rematches)

    if len(players) % 2 == 0:
        pairs = _rematch_free(players, met, steps)
        return finish(pairs if pairs is not None else _greedy(players, met), None)
    lowest_first = list(reversed(players))
    eligible = [p for p in lowest_first if p not in byes] or lowest_first
    others = [p for p in lowest_first if p not in eligible]
    for candidate in [*eligible, *others]:
        rest = [p for p in players if p != candidate]
        pairs = _rematch_free(rest, met, steps)
        if pairs is not None:
            return finish(pairs, candidate)
    candidate = eligible[0]
    return finish(_greedy([p for p in players if p != candidate], met), candidate)
