"""Pods: the tables of a round of a multi-seat tournament (3 to 6 seats a table). Pure functions of the standings
and the history, no I/O; the two-seat rounds are Swiss pairs (``replay.tournaments.swiss``).

Rules (docs/api.md, "Tournaments"):
1. Table sizes: as few byes as possible, then as many tables of the tournament's size as possible, the rest one
   seat smaller (a tournament of 4-seat tables seats 10 players at 4 + 3 + 3), larger tables first.
2. Byes go to the lowest-ranked players who have not had one (then the lowest-ranked).
3. Players are seated in standings order (registration order in round 1): each table starts with the
   highest-ranked player left, and each next seat goes to the highest-ranked player left who has met the fewest
   of those already at the table ("no rematch while avoidable", greedily: a repeat is counted, not searched
   away).
4. Seats: a player who sat late more often sits earlier: the table is ordered by each player's seat debt (the sum,
   over earlier games, of their seat's index minus the middle index of that table), highest first; then rank.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Pods:
    tables: tuple[tuple[str, ...], ...]  # each table's players in seat order (p1 first), in table order
    byes: tuple[str, ...]
    repeats: int  # pairs of players at the same table who had met before


def table_sizes(players: int, smallest: int, largest: int) -> tuple[tuple[int, ...], int]:
    """(the table sizes, the number of byes) for ``players`` at tables of ``smallest`` to ``largest`` seats:
    fewest byes first, then the fewest tables (the most of size ``largest``), larger tables first."""
    if not 2 <= smallest <= largest:
        raise ValueError(f"table sizes {smallest}..{largest} are not a range of at least two seats")
    for byes in range(players + 1):
        seated = players - byes
        if seated < smallest:
            continue
        tables = -(-seated // largest)  # ceil
        if tables * smallest <= seated:
            base, extra = divmod(seated, tables)
            return tuple([base + 1] * extra + [base] * (tables - extra)), byes
    return (), players


def pod_pairing(
    ranked: Sequence[str],
    played: Iterable[Sequence[str]],
    had_bye: Iterable[str],
    seat_history: Mapping[str, Sequence[tuple[int, int]]],
    smallest: int,
    largest: int,
) -> Pods:
    """Seat one round. ``ranked``: players in standings order; ``played``: the players of each earlier table;
    ``had_bye``: players who had a bye; ``seat_history``: each player's earlier (seat index, table size)."""
    players = list(dict.fromkeys(ranked))
    sizes, bye_count = table_sizes(len(players), smallest, largest)
    byes_had = set(had_bye)
    lowest_first = list(reversed(players))
    bye_order = [p for p in lowest_first if p not in byes_had] + [p for p in lowest_first if p in byes_had]
    byes = tuple(bye_order[:bye_count])
    met: Counter[frozenset[str]] = Counter()
    for table in played:
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                met[frozenset((a, b))] += 1
    rank = {p: i for i, p in enumerate(players)}
    left = [p for p in players if p not in byes]
    tables: list[tuple[str, ...]] = []
    repeats = 0
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            pick = min(left, key=lambda p: (sum(1 for q in table if met[frozenset((p, q))]), rank[p]))
            repeats += sum(1 for q in table if met[frozenset((pick, q))])
            left.remove(pick)
            table.append(pick)
        tables.append(_seated(table, seat_history, rank))
    return Pods(tuple(tables), byes, repeats)


def _seated(
    table: list[str], history: Mapping[str, Sequence[tuple[int, int]]], rank: Mapping[str, int]
) -> tuple[str, ...]:
    def debt(player: str) -> Fraction:
        return sum((index - Fraction(size - 1, 2) for index, size in history.get(player, ())), Fraction(0))

    return tuple(sorted(table, key=lambda p: (-debt(p), rank[p])))
