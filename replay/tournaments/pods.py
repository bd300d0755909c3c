"""Pods: the tables of a round of a multi-seat tournament (3 to 6 seats a table). Pure functions of the standings
and the history, no I/O; the two-seat rounds are Swiss pairs (``replay.tournaments.swiss``).

Rules (docs/api.md, "Tournaments"):
1. Table sizes: as few byes as possible, then as many tables of the tournament's size as possible, the rest one
   seat smaller (a tournament of 4-seat tables seats 10 players at 4 + 3 + 3), larger tables first.
2. Byes go to the lowest-ranked players who have not had one (then the lowest-ranked).
3. Players are seated in standings order (registration order in round 1): each table starts with the
   highest-ranked player left, and each next seat goes to the highest-ranked player left who has met the fewest
   of those already at the table. When that leaves a repeat (two players at a table who met before), an exact
   search (``repeat_free``: every way to seat the field at those table sizes, within ``SEARCH_BUDGET`` steps) looks
   for a seating without any; found, it is used ("no repeat whenever avoidable", where the search can tell; a
   field too large for the budget keeps the greedy seating and its repeats are counted).
4. Seats: a player who sat late more often sits earlier: the table is ordered by each player's seat debt (the sum,
   over earlier games, of their seat's index minus the middle index of that table), highest first; then rank.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
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
    tables: list[list[str]] = []
    repeats = 0
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            pick = min(left, key=lambda p: (sum(1 for q in table if met[frozenset((p, q))]), rank[p]))
            repeats += sum(1 for q in table if met[frozenset((pick, q))])
            left.remove(pick)
            table.append(pick)
        tables.append(table)
    if repeats:
        exact = repeat_free([p for p in players if p not in byes], sizes, met)
        if exact is not None:
            tables, repeats = exact, 0
    return Pods(tuple(_seated(table, seat_history, rank) for table in tables), byes, repeats)


def _seated(
    table: list[str], history: Mapping[str, Sequence[tuple[int, int]]], rank: Mapping[str, int]
) -> tuple[str, ...]:
    def debt(player: str) -> Fraction:
        return sum((index - Fraction(size - 1, 2) for index, size in history.get(player, ())), Fraction(0))

    return tuple(sorted(table, key=lambda p: (-debt(p), rank[p])))


SEARCH_BUDGET = 200_000  # steps of ``repeat_free`` before it gives up (a field it cannot settle keeps the greedy)


def repeat_free(players: Sequence[str], sizes: Sequence[int], met: Mapping[frozenset[str], int],
                budget: int = SEARCH_BUDGET) -> list[list[str]] | None:
    """Seat ``players`` (ranked) at tables of ``sizes`` with no two who met at one table; None when there is no
    such seating, or the search ran out of ``budget`` steps. Exhaustive: the highest-ranked player left takes a seat
    at a table of each size still to fill, with each set of companions none of whom met; the tables come back
    larger first, each size's in the order of their highest-ranked player."""
    steps = [budget]

    def fresh(group: Sequence[str], p: str) -> bool:
        return all(not met.get(frozenset((p, q))) for q in group)

    def groups(first: str, pool: list[str], size: int) -> Iterator[list[str]]:
        def grow(table: list[str], start: int) -> Iterator[list[str]]:
            if len(table) == size:
                yield table
                return
            for i in range(start, len(pool)):
                steps[0] -= 1
                if steps[0] < 0:
                    return
                if fresh(table, pool[i]):
                    yield from grow([*table, pool[i]], i + 1)

        yield from grow([first], 0)

    def seat(left: list[str], wanted: Counter[int]) -> list[list[str]] | None:
        if not left:
            return []
        first, rest = left[0], left[1:]
        for size in sorted((s for s in wanted if wanted[s]), reverse=True):
            for table in groups(first, rest, size):
                if steps[0] < 0:
                    return None
                others = [p for p in rest if p not in table]
                tail = seat(others, wanted - Counter({size: 1}))
                if tail is not None:
                    return [table, *tail]
        return None

    found = seat(list(players), Counter(sizes))
    if found is None or steps[0] < 0:
        return None
    return sorted(found, key=lambda table: -len(table))
