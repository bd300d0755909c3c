"""The tournament day's pure parts (issue 31 items 3-6): tie-breaks in the order a tournament chose, the round clock's
arithmetic, the cut's bracket, and the rows of the exports. No I/O, no clock: the service passes ``now``.

Tie-breaks (docs/api.md, "Tournaments", "Standings and tie-breaks"): a tournament lists some of ``TIEBREAKS`` in
order at creation (``DEFAULT_TIEBREAKS`` otherwise); entrants are ordered by the first, those tied on it by the
second, and so on; the entrant id settles what is still tied. ``head_to_head`` is computed inside the group of
entrants still tied on every tie-break before it.

The cut (single elimination, ``CUT_SIZES``): seeds 1..n from the standings, round 1 seeded 1 v n, n/2 v n/2+1, ...
(``bracket_order``: 1 and 2 can only meet in the final); each next bracket round pairs the winners of matches
(1, 2), (3, 4), ... in order; the higher seed of a match chooses to go first or second.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any

TIEBREAKS: dict[str, str] = {
    "match_points": "points: win 3, draw 1, loss 0 (pods: place points, n-1 to 0); a bye is a win",
    "opponents_match_win": "opponents' match-win %: each opponent's points as a share of the most they could have "
                           "scored (byes in), floored at 1/3, averaged over every opponent of every game",
    "game_win": "game-win %: points from the games played (byes left out) as a share of the most those games give, "
                "floored at 1/3",
    "opponents_game_win": "opponents' game-win %: the mean of every opponent's game-win %",
    "score_difference": "score difference: own score minus the mean of the table's other scores, summed over games "
                        "(the system's scores, e.g. cards destroyed)",
    "strength_of_schedule": "strength of schedule: the sum of every opponent's points (Buchholz)",
    "head_to_head": "head to head: among entrants tied on every tie-break before this one, 1 for each tied rival "
                    "placed behind at a shared table, 1/2 for a tie",
}
DEFAULT_TIEBREAKS = ("match_points", "opponents_match_win", "score_difference")  # the order before issue 31
CUT_SIZES = (2, 4, 8)
CUT_DRAWS = ("replay", "time_rule")
CHOICES = ("first", "second")  # what the higher seed of a cut match chooses
MAX_DURATION = 24 * 60  # minutes on a round's clock


def check_tiebreaks(tiebreaks: Sequence[str]) -> str | None:
    """What is wrong with a tournament's chosen tie-breaks (None: nothing)."""
    if not tiebreaks:
        return f"tiebreaks lists at least one of {', '.join(TIEBREAKS)}"
    unknown = [t for t in tiebreaks if t not in TIEBREAKS]
    if unknown:
        return f"unknown tie-break {unknown[0]!r} (known: {', '.join(TIEBREAKS)})"
    if len(set(tiebreaks)) != len(tiebreaks):
        return "a tie-break is listed twice"
    return None


# -- tie-breaks -------------------------------------------------------------------------------------------


@dataclass
class Ledger:
    """What the tie-breaks are computed from, for every entrant: points (``points``, of ``most``), the points of
    games played only (``game_points`` of ``game_most``), the score difference, the opponents of every game, and
    ``versus[(a, b)]``: a's head-to-head points against b (1 placed ahead, 1/2 tied, summed over shared tables)."""

    points: dict[str, Fraction]
    most: dict[str, int]
    game_points: dict[str, Fraction]
    game_most: dict[str, int]
    difference: dict[str, Fraction]
    opponents: dict[str, list[str]]
    versus: dict[tuple[str, str], Fraction]

    @classmethod
    def empty(cls, entrants: Iterable[str]) -> Ledger:
        ids = list(entrants)
        return cls({p: Fraction(0) for p in ids}, dict.fromkeys(ids, 0), {p: Fraction(0) for p in ids},
                   dict.fromkeys(ids, 0), {p: Fraction(0) for p in ids}, {p: [] for p in ids}, {})

    def meet(self, placings: Sequence[Sequence[str]]) -> None:
        """Head-to-head points of one decided table (its entrants in finishing order, ties grouped)."""
        for i, group in enumerate(placings):
            for a in group:
                for j, other in enumerate(placings):
                    for b in other:
                        if a != b and i <= j:
                            self.versus[(a, b)] = self.versus.get((a, b), Fraction(0)) + (
                                Fraction(1, 2) if i == j else Fraction(1))

    def share(self, points: Fraction, most: int) -> Fraction:
        return max(Fraction(1, 3), points / most) if most else Fraction(1, 3)

    def values(self, name: str, player: str) -> Fraction:
        """A tie-break's exact value for ``player`` (``head_to_head`` is computed in its group: ``order``)."""
        opponents = self.opponents[player]
        if name == "match_points":
            return self.points[player]
        if name == "opponents_match_win":
            shares = [self.share(self.points[o], self.most[o]) for o in opponents]
            return sum(shares, Fraction(0)) / len(shares) if shares else Fraction(0)
        if name == "game_win":
            return self.share(self.game_points[player], self.game_most[player]) if self.game_most[player] else \
                Fraction(0)
        if name == "opponents_game_win":
            shares = [self.share(self.game_points[o], self.game_most[o]) for o in opponents]
            return sum(shares, Fraction(0)) / len(shares) if shares else Fraction(0)
        if name == "score_difference":
            return self.difference[player]
        if name == "strength_of_schedule":
            return sum((self.points[o] for o in opponents), Fraction(0))
        raise KeyError(name)


def order(players: Sequence[str], ledger: Ledger,
          tiebreaks: Sequence[str]) -> tuple[list[str], dict[str, dict[str, Fraction]]]:
    """Entrants in standings order by ``tiebreaks`` (then id), and each one's value of every tie-break."""
    shown: dict[str, dict[str, Fraction]] = {p: {} for p in players}
    groups: list[list[str]] = [sorted(players)]
    for name in tiebreaks:
        split: list[list[str]] = []
        for group in groups:
            for p in group:
                shown[p][name] = (sum((ledger.versus.get((p, q), Fraction(0)) for q in group if q != p), Fraction(0))
                                  if name == "head_to_head" else ledger.values(name, p))
            by_value: dict[Fraction, list[str]] = {}
            for p in group:
                by_value.setdefault(shown[p][name], []).append(p)
            split.extend(by_value[v] for v in sorted(by_value, reverse=True))
        groups = split
    return [p for group in groups for p in sorted(group)], shown


def shown_value(name: str, value: Fraction) -> int | float:
    """A tie-break's value as the standings show it: a share as 0..1 (4 places), a whole number as an int."""
    if value.denominator == 1:
        return int(value)
    return round(float(value), 4)


# -- the round clock ------------------------------------------------------------------------------------


def parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def deadline(started_at: str | None, duration: int | None) -> datetime | None:
    """When a round's time is up: its start plus its duration in minutes (None: the round has no clock)."""
    if started_at is None or duration is None:
        return None
    return parse_time(started_at) + timedelta(minutes=duration)


def time_left(started_at: str | None, duration: int | None, now: datetime) -> int | None:
    """Whole seconds left on a round's clock at ``now`` (0 once its deadline has passed; None: no clock)."""
    end = deadline(started_at, duration)
    if end is None:
        return None
    return max(0, int((end - now).total_seconds()))


# -- the cut ----------------------------------------------------------------------------------------------


def bracket_order(size: int) -> list[tuple[int, int]]:
    """The first bracket round's matches as seed pairs, in match order: 1 v 8, 4 v 5, 2 v 7, 3 v 6 (so 1 and 2 can
    meet only in the final)."""
    if size not in CUT_SIZES:
        raise ValueError(f"a cut has {', '.join(map(str, CUT_SIZES))} players, not {size}")
    seeds = [1]
    while len(seeds) < size:
        total = 2 * len(seeds) + 1
        seeds = [s for seed in seeds for s in (seed, total - seed)]
    return [(seeds[i], seeds[i + 1]) for i in range(0, size, 2)]


@dataclass(frozen=True)
class CutGame:
    """One game of a cut match: the tournament round and table it was played at, and its result (``placings`` of
    entrants, None while it is played)."""

    round: int
    table: int
    game_id: str
    choice: str
    placings: tuple[tuple[str, ...], ...] | None
    status: str

    def as_json(self) -> dict[str, Any]:
        return {"round": self.round, "table": self.table, "game_id": self.game_id, "choice": self.choice,
                "status": self.status,
                "placings": [list(g) for g in self.placings] if self.placings is not None else None}


@dataclass
class Match:
    bracket_round: int
    match: int
    higher: str | None  # None: waiting for an earlier match's winner
    lower: str | None
    seeds: Mapping[str, int]
    games: list[CutGame]
    winner: str | None = None
    decided_by: str | None = None  # "game" | "time_rule" | "higher_seed"

    @property
    def status(self) -> str:
        """``waiting`` (players not known yet), ``ready`` (no game yet), ``playing``, ``replay`` (the last game was
        drawn and the tournament replays drawn cut games), ``decided``."""
        if self.winner is not None:
            return "decided"
        if self.higher is None or self.lower is None:
            return "waiting"
        if not self.games:
            return "ready"
        last = self.games[-1]
        return "playing" if last.placings is None else "replay"

    def as_json(self) -> dict[str, Any]:
        return {"bracket_round": self.bracket_round, "match": self.match, "higher": self.higher, "lower": self.lower,
                "higher_seed": self.seeds.get(self.higher or ""), "lower_seed": self.seeds.get(self.lower or ""),
                "status": self.status, "winner": self.winner, "decided_by": self.decided_by,
                "games": [g.as_json() for g in self.games]}


def ranked_pair(a: str, b: str, seeds: Mapping[str, int]) -> tuple[str, str]:
    return (a, b) if seeds[a] < seeds[b] else (b, a)


def bracket(size: int, seeds: Sequence[str], games: Mapping[tuple[int, int], Sequence[CutGame]], cut_draws: str,
            time_rule: Any) -> list[list[Match]]:
    """The bracket's rounds of matches from the seeds and the games played so far (``games[(bracket round,
    match)]``, in order). A match's last game decides it: its winner goes through; a drawn game is replayed
    (``replay``: the match waits for a new game) or decided by the system's time rule (``time_rule(game)``: the
    entrant it puts first, or None when it too is a draw, and then the higher seed goes through)."""
    rank = {who: i + 1 for i, who in enumerate(seeds)}
    rounds: list[list[Match]] = []
    entrants: list[tuple[str | None, str | None]] = [(seeds[a - 1], seeds[b - 1]) for a, b in bracket_order(size)]
    number = 1
    while entrants:
        matches = []
        for i, (a, b) in enumerate(entrants, 1):
            higher, lower = ranked_pair(a, b, rank) if a is not None and b is not None else (a, b)
            match = Match(number, i, higher, lower, rank, list(games.get((number, i), ())))
            last = match.games[-1] if match.games else None
            if last is not None and last.placings is not None and higher is not None:
                if len(last.placings) > 1:
                    match.winner, match.decided_by = last.placings[0][0], "game"
                elif cut_draws == "time_rule":
                    ruled = time_rule(last)
                    match.winner, match.decided_by = (ruled, "time_rule") if ruled else (higher, "higher_seed")
            matches.append(match)
        rounds.append(matches)
        if len(matches) == 1:
            break
        entrants = [(matches[i].winner, matches[i + 1].winner) for i in range(0, len(matches), 2)]
        number += 1
    return rounds


def champion(rounds: Sequence[Sequence[Match]]) -> str | None:
    return rounds[-1][0].winner if rounds and len(rounds[-1]) == 1 else None


# -- exports ----------------------------------------------------------------------------------------------

EXPORTS = ("pairings", "results", "standings")
EXPORT_FORMATS = ("csv", "json")
EXPORT_COLUMNS = {  # an export's columns when it has no rows yet (standings add the tournament's tie-breaks)
    "pairings": ("round", "stage", "table", "seat", "entrant", "name", "game_id"),
    "results": ("round", "stage", "table", "game_id", "status", "winner", "placings", "finishing_order", "scores",
                "correction_reason"),
    "standings": ("rank", "entrant", "name", "match_points", "wins", "draws", "losses", "byes", "dropped"),
}


def placings_text(placings: Sequence[Sequence[str]] | None) -> str:
    """Placings in one cell: ``p2 > p1 = p3 > p4`` (ties joined by =)."""
    return "" if placings is None else " > ".join(" = ".join(group) for group in placings)
