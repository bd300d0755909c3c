"""Swiss pairings: pure functions of the standings and the history, no I/O.

Rules (docs/api.md, "Tournaments"), in order of precedence; a rule gives way only to the ones above it:
1. No rematch whenever one is avoidable: the fewest rematches the field allows (none when a rematch-free pairing
   exists).
2. An odd count gives a bye to a player who has not had one, whenever rule 1 allows it; among those, the
   lowest-ranked (if everyone has had one, the lowest-ranked of all).
3. Score groups: players are paired within their score group (the players on the same points); a pairing across
   groups costs the square of the groups' distance, and the pairing costs the least in total (so a player floats
   down to the next group before one two groups below, and as few as possible float).
4. Seat balance: within what rules 1-3 leave open, as few players as possible sit in a seat they owe the other
   way: two players who both sat p1 more often than p2 (or both p2 more often) meet only where it cannot be
   helped, the cost of such a table the smaller of their two imbalances (one of them will sit the wrong way).
5. Rank order: within what rules 1-4 leave open, each player meets the nearest-ranked player possible (the
   pairing whose squared rank distances sum least: 1 v 2, 3 v 4, ...).
6. Seats: the player who has sat as p1 less often (p1 count minus p2 count) takes p1; on a tie, the one who was
   p2 in their last game; then the higher-ranked.

Rules 1-5 are one exact search: a maximum-weight perfect matching (Edmonds' blossom algorithm, networkx's
``max_weight_matching``, integer weights) on the complete graph of the players (and a ``BYE`` vertex when the count
is odd), each edge's weight the rules' terms in tiers so large that a rule outweighs everything below it
(``_weight``). The answer is deterministic for the same inputs.

Round 1 has no history: ``first_round`` pairs the players in their seeding order (``seeding_order``): a random
order from the seed the tournament records, the ratings, or the registration order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import networkx as nx

from engine.prng import SplitMix64, shuffle

BYE = "\x00bye"  # the bye's vertex (no entrant id can be it: ids start with a letter or a digit)
SEEDINGS = ("random", "rating", "registration")  # how round 1 is ordered (the tournament's ``seeding``)


@dataclass(frozen=True)
class Pairing:
    tables: tuple[tuple[str, str], ...]  # (p1, p2) per table, in table order
    bye: str | None
    rematches: int


def seat(a: str, b: str, seats: Mapping[str, Sequence[str]]) -> tuple[str, str]:
    """(p1, p2) for a table of ``a`` (higher-ranked) and ``b``, balancing seats (rule 6)."""

    def balance(p: str) -> int:
        return seat_balance(seats.get(p, ()))

    if balance(a) != balance(b):
        return (a, b) if balance(a) < balance(b) else (b, a)
    last_a = seats.get(a, ())[-1:] or [""]
    last_b = seats.get(b, ())[-1:] or [""]
    if last_a[0] != last_b[0]:
        return (a, b) if last_a[0] == "p2" or last_b[0] == "p1" else (b, a)
    return a, b


def score_groups(players: Sequence[str], points: Mapping[str, int | float | Fraction] | None) -> dict[str, int]:
    """Each player's score group: 0 for the players on the most points, 1 for the next score, ..."""
    if not points:
        return {p: 0 for p in players}
    scores = sorted({points.get(p, 0) for p in players}, reverse=True)
    index = {score: i for i, score in enumerate(scores)}
    return {p: index[points.get(p, 0)] for p in players}


def seat_balance(seats: Sequence[str]) -> int:
    """Times sat p1 minus times sat p2."""
    return sum(1 for s in seats if s == "p1") - sum(1 for s in seats if s == "p2")


def seat_clash(a: int, b: int) -> int:
    """Rule 4's cost of a table of two players of seat balances ``a`` and ``b``: both owe the same seat (both sat
    p1 more often, or both p2): the smaller imbalance, which one of them grows; else 0."""
    return min(abs(a), abs(b)) if a * b > 0 else 0


class _Tiers:
    """The weights of ``swiss_pairing``'s matching: each tier's unit exceeds the most every tier below it can add
    up to over a whole pairing, so the matching of greatest weight follows rules 1-5 in order."""

    def __init__(self, count: int, most_clash: int) -> None:
        half = count // 2 + 2  # more than the tables of any pairing
        self.square = count * count  # the most a squared distance can be (ranks or groups)
        self.most_clash = most_clash  # the most rule 4 can cost at one table
        self.seats = half * (self.square + 1)  # > every rank-order term of a pairing (rule 5)
        self.closeness = half * (most_clash + 1) * self.seats  # > every seat term (rule 4)
        self.bye_rank = half * (self.square + 1) * self.closeness  # > every score-group term (rule 3)
        self.bye_fresh = (count + 1) * self.bye_rank  # > the bye's rank term (rule 2, second part)
        self.no_rematch = 3 * self.bye_fresh  # > all the bye's terms and everything below (rule 1)


def _weight(tiers: _Tiers, a: str, b: str, rank: Mapping[str, int], group: Mapping[str, int],
            balance: Mapping[str, int], met: frozenset[frozenset[str]], had_bye: set[str]) -> int:
    if b == BYE:  # exactly one bye edge is in every pairing: the constant parts change nothing between pairings
        return (tiers.no_rematch + tiers.bye_fresh * (a not in had_bye) + tiers.bye_rank * rank[a]
                + tiers.closeness * tiers.square + tiers.seats * tiers.most_clash + tiers.square)
    return (tiers.no_rematch * (frozenset((a, b)) not in met)
            + tiers.closeness * (tiers.square - (group[a] - group[b]) ** 2)
            + tiers.seats * (tiers.most_clash - seat_clash(balance[a], balance[b]))
            + (tiers.square - (rank[a] - rank[b]) ** 2))


def swiss_pairing(
    ranked: Sequence[str],
    played: Iterable[tuple[str, str]],
    had_bye: Iterable[str] = (),
    seats: Mapping[str, Sequence[str]] | None = None,
    points: Mapping[str, int | float | Fraction] | None = None,
) -> Pairing:
    """Pair one round (rules 1-6). ``ranked``: players in standings order; ``played``: earlier pairs;
    ``had_bye``: players who had a bye; ``seats``: each player's seats so far (``"p1"``/``"p2"``) in round order;
    ``points``: each player's points, for the score groups (None: one group)."""
    players = list(dict.fromkeys(ranked))
    met = frozenset(frozenset(p) for p in played)
    byes = set(had_bye)
    seats = seats or {}
    rank = {p: i for i, p in enumerate(players)}
    group = score_groups(players, points)
    balance = {p: seat_balance(seats.get(p, ())) for p in players}
    vertices = players + ([BYE] if len(players) % 2 else [])
    tiers = _Tiers(len(players), max((abs(b) for b in balance.values()), default=0))
    graph = nx.Graph()
    graph.add_nodes_from(vertices)
    for i, a in enumerate(vertices):
        for b in vertices[i + 1:]:
            graph.add_edge(a, b, weight=_weight(tiers, a, b, rank, group, balance, met, byes))
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    bye = None
    pairs: list[tuple[str, str]] = []
    for a, b in matched:
        if BYE in (a, b):
            bye = b if a == BYE else a
        else:
            pairs.append((a, b) if rank[a] < rank[b] else (b, a))
    pairs.sort(key=lambda pair: rank[pair[0]])  # table 1 is the highest-ranked player's
    rematches = sum(1 for a, b in pairs if frozenset((a, b)) in met)
    return Pairing(tuple(seat(a, b, seats) for a, b in pairs), bye, rematches)


# -- round 1 --------------------------------------------------------------------------------------------------


def seeding_order(players: Sequence[str], seeding: str, seed: int | None = None,
                  ratings: Mapping[str, float] | None = None) -> list[str]:
    """Round 1's order of ``players`` (registration order): ``random``, the players shuffled by the project's
    generator (SplitMix64 and Fisher-Yates, ``engine.prng``) from ``seed``; ``rating``, highest rating first (the
    unrated after the rated, in the order the seed shuffles them); ``registration``, as they registered."""
    if seeding == "registration":
        return list(players)
    shuffled = shuffle(list(players), SplitMix64(seed if seed is not None else 0))
    if seeding == "random":
        return shuffled
    rated = ratings or {}
    position = {p: i for i, p in enumerate(shuffled)}
    return sorted(shuffled, key=lambda p: (p not in rated, -rated.get(p, 0.0), position[p]))


def first_round(order: Sequence[str], seeding: str) -> Pairing:
    """Round 1: a bye to the last in ``order`` when the count is odd; ``rating``: the top half meets the bottom
    half (1 v n/2+1, 2 v n/2+2, ...; the higher-rated is p1 at odd tables, p2 at even ones); otherwise neighbours
    in the order (1 v 2, 3 v 4, ...; the first of each pair p1)."""
    players = list(dict.fromkeys(order))
    bye = players.pop() if len(players) % 2 else None
    half = len(players) // 2
    if seeding == "rating":
        pairs = [(players[i], players[half + i]) if i % 2 == 0 else (players[half + i], players[i])
                 for i in range(half)]
    else:
        pairs = [(players[2 * i], players[2 * i + 1]) for i in range(half)]
    return Pairing(tuple(pairs), bye, 0)
