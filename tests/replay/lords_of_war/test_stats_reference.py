"""Every statistic against an independent recomputation in plain Python, straight from the events of bot games.

The reference below never looks at the projections: it counts from the typed events (placed, shot, eliminated,
recalled, game_ended) with its own bookkeeping. ~100 games by default; 400 under ``-m slow``.
"""

from __future__ import annotations

import re
import sys
from collections import Counter, defaultdict
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import msgspec
import pytest

sys.path.insert(0, str(Path(__file__).parents[1]))  # tests/replay: stats_fixtures

import stats_fixtures as fx  # noqa: E402

from engine.lords_of_war.bots import play_bot_game  # noqa: E402
from events.lords_of_war import Eliminated, GameEnded, GameStarted, Placed, Recalled, Shot  # noqa: E402
from replay.analytics import projections, ratings, stats  # noqa: E402
from replay.analytics.stats import Filters, wilson  # noqa: E402
from replay.lords_of_war import analytics as lords_of_war  # noqa: E402
from replay.store.duckdb_store import DuckDBEventStore  # noqa: E402

FACTIONS = ("orcs", "dwarves", "elves", "undead", "lizardmen", "templars")
PLAYERS = ("ann", "bob", "cy", "dee", "eve")
START = datetime(2026, 1, 1, tzinfo=UTC)


def bot_games(n: int) -> list[tuple[str, list, datetime, str | None]]:
    games = []
    for seed in range(n):
        a, b = FACTIONS[seed % 6], FACTIONS[(seed * 7 // 6 + 1) % 6]
        events = play_bot_game(
            seed, armies=(a, b), variant={"intermediate": True} if seed % 5 == 0 else None,
            bots=("random", "greedy") if seed % 4 == 0 else ("random", "random"),
        )
        p1, p2 = PLAYERS[seed % 5], PLAYERS[(seed // 5 + seed + 1) % 5]
        if p1 == p2:
            p2 = PLAYERS[(PLAYERS.index(p1) + 1) % 5]
        first = events[0]
        renamed = tuple(msgspec.structs.replace(p, name=name) for p, name in zip(first.players, (p1, p2), strict=True))
        events[0] = msgspec.structs.replace(first, players=renamed)
        when = START + timedelta(days=seed % 60, minutes=seed)
        games.append((f"g{seed:04d}", events, when, "open" if seed % 3 == 0 else None))
    return games


def build(n: int):
    clock = fx.Clock()
    store = DuckDBEventStore(":memory:", clock=clock)
    games = bot_games(n)
    fx.load(store, clock, {gid: (events, when, tournament) for gid, events, when, tournament in games})
    projector = projections.attach(store, background=False)
    return store, projector, games


# -- the reference ------------------------------------------------------------------------------------------


def reference(games, keep=lambda gid, when, tournament: True):
    r = {
        "army": defaultdict(Counter), "matchup": defaultdict(Counter), "first": Counter(),
        "first_army": defaultdict(Counter),
        "length": Counter(), "reasons": Counter(), "card": defaultdict(Counter), "placed_seats": defaultdict(set),
        "heat": Counter(), "faction": defaultdict(Counter), "rated": [], "pairs": defaultdict(Counter),
    }
    for gid, events, when, tournament in games:
        if not keep(gid, when, tournament):
            continue
        start = events[0]
        assert isinstance(start, GameStarted)
        seats = {p.id: p for p in start.players}
        end = events[-1]
        assert isinstance(end, GameEnded)
        result = {s: ("draw" if end.winner == "draw" else "win" if end.winner == s else "loss") for s in seats}
        other = {"p1": "p2", "p2": "p1"}
        for s in seats:
            mine, theirs = seats[s].army_name, seats[other[s]].army_name
            if mine != theirs:
                r["army"][mine][result[s]] += 1
            if mine != theirs or s == "p1":  # a mirror counts once, from its earlier seat's side (docs/statistics.md)
                r["matchup"][(mine, theirs)][result[s]] += 1
            r["faction"][mine][result[s]] += 1
            r["pairs"][(seats[s].name, seats[other[s]].name)][result[s]] += 1
        first = next(e.player for e in events if isinstance(e, Placed) and e.turn >= 1)
        r["first"][result[first]] += 1
        r["first_army"][seats[first].army_name][result[first]] += 1
        r["length"][max((e.turn for e in events if isinstance(e, Placed)), default=0)] += 1
        r["reasons"][end.reason] += 1
        r["rated"].append((when, gid, seats["p1"].name, seats["p2"].name, end.winner))
        on_square: dict[str, str] = {}  # square -> card, to name attackers from their squares
        shots: list[Shot] = []
        for e in events:
            if isinstance(e, Placed):
                card = r["card"][copies(e.card)]
                card["placements"] += 1
                on_square[e.square] = e.card
                shots = []
                if (gid, e.player) not in r["placed_seats"][copies(e.card)]:
                    r["placed_seats"][copies(e.card)].add((gid, e.player))
                    card["games"] += 1
                    card["wins"] += result[e.player] == "win"
                    if seats[e.player].army_name == e.card.split("/")[0]:
                        card["faction_placed"] += 1
                        card["faction_placed_wins"] += result[e.player] == "win"
                if not e.challenge:
                    r["heat"][e.square] += 1
            elif isinstance(e, Shot):
                r["card"][copies(e.shooter_card)]["shots"] += 1
                shots.append(e)
            elif isinstance(e, Eliminated):
                for unit in e.units:
                    r["card"][copies(unit.card)]["destroyed"] += 1
                    for square in {a.square for a in unit.attackers}:
                        r["card"][copies(on_square[square])]["kills"] += 1
                    shooters = {a.square for a in unit.attackers if a.kind == "shot"}
                    for square in shooters:
                        r["card"][copies(on_square[square])]["shot_kills"] += 1
                    for s in shots:
                        if s.target_square == unit.square and s.shooter_square in shooters:
                            r["card"][copies(s.shooter_card)]["shots_killing"] += 1
                for unit in e.units:
                    on_square.pop(unit.square, None)
            elif isinstance(e, Recalled):
                r["card"][copies(e.card)]["recalled"] += 1
                on_square.pop(e.square, None)
            elif type(e).__name__ == "BerserkerMoved":
                on_square[e.target] = on_square.pop(e.origin)
    return r


def elo(rated):
    table: dict[str, list[float]] = {}
    for _, _, a, b, winner in sorted(rated, key=lambda g: (g[0], g[1])):
        ra, rb = table.setdefault(a, [1500.0, 0]), table.setdefault(b, [1500.0, 0])
        ea = 1 / (1 + 10 ** ((rb[0] - ra[0]) / 400))
        sa = {"p1": 1.0, "p2": 0.0, "draw": 0.5}[winner]
        ra[0], rb[0] = ra[0] + 32 * (sa - ea), rb[0] + 32 * ((1 - sa) - (1 - ea))
        ra[1] += 1
        rb[1] += 1
    return {name: (round(v[0], 2), v[1]) for name, v in table.items()}


# -- the comparison -----------------------------------------------------------------------------------------


def check_all(conn, games, filters: Filters, keep) -> None:
    ref = reference(games, keep)
    army = stats.army_win_rates(conn, filters)
    assert {r.army: (r.games, r.wins, r.losses, r.draws) for r in army.rows} == {
        a: (sum(c.values()), c["win"], c["loss"], c["draw"]) for a, c in ref["army"].items()}
    for row in army.rows:
        assert (row.low, row.high) == (wilson(row.wins, row.games).low, wilson(row.wins, row.games).high)
    assert army.games == sum(ref["reasons"].values())
    assert {(m.army, m.opponent_army): (m.games, m.wins, m.draws) for m in stats.matchups(conn, filters).rows} == {
        k: (sum(c.values()), c["win"], c["draw"]) for k, c in ref["matchup"].items()}
    fp = stats.first_player(conn, filters)
    assert (fp.overall.games, fp.overall.wins, fp.overall.draws) == (
        sum(ref["first"].values()), ref["first"]["win"], ref["first"]["draw"])
    assert {r.army: (r.games, r.wins) for r in fp.by_army} == {
        a: (sum(c.values()), c["win"]) for a, c in ref["first_army"].items()}
    length = stats.game_length(conn, filters)
    assert {b.turns: b.games for b in length.rows} == dict(ref["length"])
    total = sum(ref["length"].values())
    assert length.mean == pytest.approx(sum(t * n for t, n in ref["length"].items()) / total)
    assert {e.end_reason: e.games for e in stats.end_reasons(conn, filters).rows} == dict(ref["reasons"])
    cards = {c.card: c for c in lords_of_war.cards(conn, filters).rows}
    assert set(cards) == set(ref["card"])
    for card, c in ref["card"].items():
        got = cards[card]
        assert (got.placements, got.destroyed, got.recalled, got.kills, got.shots, got.shots_killing,
                got.shot_kills, got.games_placed, got.wins_placed) == (
            c["placements"], c["destroyed"], c["recalled"], c["kills"], c["shots"], c["shots_killing"],
            c["shot_kills"], c["games"], c["wins"]), card
        faction = ref["faction"][card.split("/")[0]]
        not_placed = sum(faction.values()) - c["faction_placed"]
        assert got.games_not_placed == not_placed
        if not_placed:
            assert got.win_rate_not_placed == pytest.approx((faction["win"] - c["faction_placed_wins"]) / not_placed)
        assert got.survival_rate == pytest.approx(1 - c["destroyed"] / c["placements"])
    assert {h.square: h.placements for h in lords_of_war.heatmap(conn, filters).rows} == dict(ref["heat"])
    assert {r.player: (r.rating, r.games) for r in ratings.ratings(conn, filters).rows} == elo(ref["rated"])
    h2h = stats.head_to_head(conn, filters)
    assert {(r.player, r.opponent): (r.games, r.wins, r.losses, r.draws) for r in h2h.rows} == {
        k: (sum(c.values()), c["win"], c["loss"], c["draw"]) for k, c in ref["pairs"].items()}


def copies(card: str) -> str:
    """A card's statistics row: its copies together (``orcs/orc-warhog-2`` counts as ``orcs/orc-warhog``)."""
    return re.sub(r"-[0-9]+$", "", card)


def run(n: int) -> None:
    store, projector, games = build(n)
    conn = store.reader()
    try:
        check_all(conn, games, Filters(), lambda *_: True)
        check_all(conn, games, Filters(tournament="open"), lambda gid, when, t: t == "open")
        check_all(
            conn, games, Filters(date_from=date(2026, 1, 10), date_to=date(2026, 2, 5)),
            lambda gid, when, t: date(2026, 1, 10) <= when.date() <= date(2026, 2, 5),
        )
    finally:
        conn.close()
        projector.close()
        store.close()


def test_statistics_equal_a_plain_python_recount_over_100_bot_games():
    run(100)


@pytest.mark.slow
def test_statistics_equal_a_plain_python_recount_over_400_bot_games():
    run(400)
