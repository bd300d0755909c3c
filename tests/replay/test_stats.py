"""Every statistic against answers worked out by hand from the fixture games (tests/replay/stats_fixtures.py)."""

from __future__ import annotations

import math
import sys
from datetime import date
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import stats_fixtures as fx  # noqa: E402

from replay.analytics import projections, ratings, stats  # noqa: E402
from replay.analytics.stats import Filters, newcombe, wilson  # noqa: E402
from replay.lords_of_war import analytics as lords_of_war  # noqa: E402
from replay.store.duckdb_store import DuckDBEventStore  # noqa: E402

Z2 = 1.959963984540054**2


@pytest.fixture(scope="module")
def conn():
    yield from fx.projected()


def counts(rows, *fields):
    return [tuple(getattr(r, f) for f in fields) for r in rows]


# -- intervals ----------------------------------------------------------------------------------------------


def test_wilson_closed_forms():
    # k = 0: [0, z^2 / (n + z^2)]; k = n: [n / (n + z^2), 1]; k/n = 1/2: symmetric around 1/2
    assert wilson(0, 10).low == 0.0 and wilson(0, 10).high == pytest.approx(Z2 / (10 + Z2))
    assert wilson(10, 10).low == pytest.approx(10 / (10 + Z2)) and wilson(10, 10).high == 1.0
    half = wilson(1, 2)
    assert half.rate == 0.5 and half.low + half.high == pytest.approx(1.0)
    # the textbook example (Newcombe 1998, table I): 81/263 -> 0.2553 .. 0.3662
    w = wilson(81, 263)
    assert (round(w.low, 4), round(w.high, 4)) == (0.2553, 0.3662)
    assert wilson(0, 0).rate is None


def test_newcombe_difference():
    # Newcombe 1998 (table II, example f): 56/70 - 48/80 = 0.2, 95% CI 0.0524 .. 0.3339
    d = newcombe(56, 70, 48, 80)
    assert d.rate == pytest.approx(0.2)
    assert (round(d.low, 4), round(d.high, 4)) == (0.0524, 0.3339)


# -- win rates ----------------------------------------------------------------------------------------------


def test_army_win_rates(conn):
    # A: orcs win, dwarves lose; B: dwarves win, orcs lose; C is a mirror (left out); D: elves and dwarves draw.
    result = stats.army_win_rates(conn)
    assert result.games == 4  # A-D finished, E running
    assert counts(result.rows, "army", "games", "wins", "losses", "draws") == [
        ("dwarves", 3, 1, 1, 1), ("elves", 1, 0, 0, 1), ("orcs", 2, 1, 1, 0)]
    dwarves = result.rows[0]
    assert dwarves.win_rate == pytest.approx(1 / 3)
    assert (dwarves.low, dwarves.high) == (wilson(1, 3).low, wilson(1, 3).high)


def test_army_win_rates_filters(conn):
    assert counts(stats.army_win_rates(conn, Filters(min_games=2)).rows, "army") == [("dwarves",), ("orcs",)]
    spring = stats.army_win_rates(conn, Filters(tournament="spring"))  # A and C: only A is not a mirror
    assert spring.games == 2
    assert counts(spring.rows, "army", "games", "wins") == [("dwarves", 1, 0), ("orcs", 1, 1)]
    february = stats.army_win_rates(conn, Filters(date_from=date(2026, 2, 1), date_to=date(2026, 2, 28)))
    assert counts(february.rows, "army", "games", "draws") == [("dwarves", 1, 1), ("elves", 1, 1)]
    assert counts(stats.army_win_rates(conn, Filters(army="orcs")).rows, "army", "games") == [("orcs", 2)]
    assert stats.army_win_rates(conn, Filters(variant="intermediate")).rows == []
    assert stats.army_win_rates(conn, Filters(rules_version="lords-of-war/0")).rows == []
    assert len(stats.army_win_rates(conn, Filters(rules_version="lords-of-war/1")).rows) == 3


def test_matchups(conn):
    result = stats.matchups(conn)
    assert result.armies == ["dwarves", "elves", "orcs"]
    assert counts(result.rows, "army", "opponent_army", "games", "wins", "losses", "draws") == [
        ("dwarves", "elves", 1, 0, 0, 1),
        ("dwarves", "orcs", 2, 1, 1, 0),
        ("elves", "dwarves", 1, 0, 0, 1),
        ("orcs", "dwarves", 2, 1, 1, 0),
        ("orcs", "orcs", 1, 0, 1, 0),  # C, a mirror: once, from its earlier seat's side (p1 lost) (issue 32)
    ]
    assert [r.win_rate for r in result.rows if r.army == r.opponent_army] == [None]  # no army's edge over itself
    assert counts(stats.matchups(conn, Filters(army="elves")).rows, "army", "opponent_army") == [
        ("dwarves", "elves"), ("elves", "dwarves")]


def test_first_player(conn):
    # turn 1 taken by p1 everywhere: A win, B win, C loss, D draw
    result = stats.first_player(conn)
    o = result.overall
    assert (o.games, o.wins, o.losses, o.draws, o.win_rate) == (4, 2, 1, 1, 0.5)
    assert counts(result.by_army, "army", "games", "wins", "losses", "draws") == [
        ("dwarves", 1, 1, 0, 0), ("elves", 1, 0, 0, 1), ("orcs", 2, 1, 1, 0)]
    assert counts(stats.first_player(conn, Filters(min_games=2)).by_army, "army") == [("orcs",)]


def test_first_player_with_no_matching_game_counts_zero(conn):
    # the overall row stays with no game at all; its counts are 0, not NULL (issue 11 item 2)
    result = stats.first_player(conn, Filters(tournament="nope"))
    assert result.games == 0 and result.by_army == []
    o = result.overall
    assert (o.army, o.games, o.wins, o.losses, o.draws, o.win_rate, o.low, o.high) == (
        None, 0, 0, 0, 0, None, None, None)


# -- distributions ------------------------------------------------------------------------------------------


def test_game_length(conn):
    result = stats.game_length(conn)  # turns: A 3, B 2, C 1, D 0
    assert result.games == 4
    assert counts(result.rows, "turns", "games", "share") == [(0, 1, 0.25), (1, 1, 0.25), (2, 1, 0.25), (3, 1, 0.25)]
    assert (result.mean, result.median, result.p10, result.p90, result.min, result.max) == (1.5, 1.0, 0, 3, 0, 3)
    assert stats.game_length(conn, Filters(army="elves")).mean == 0


def test_end_reasons(conn):
    result = stats.end_reasons(conn)
    assert counts(result.rows, "end_reason", "games", "share") == [
        ("commanders", 1, 0.25), ("concession", 1, 0.25), ("kills", 2, 0.5)]
    assert (result.rows[2].low, result.rows[2].high) == (wilson(2, 4).low, wilson(2, 4).high)


# -- cards --------------------------------------------------------------------------------------------------


def test_cards(conn):
    rows = {r.card: r for r in lords_of_war.cards(conn).rows}
    assert set(rows) == {
        "orcs/orc-ravager", "orcs/orc-catapult", "orcs/goblin-shanker", "orcs/eruugor-bloodfist",
        "dwarves/dwarf-slugger", "dwarves/dwarf-marauder", "elves/elven-dragoon"}
    ravager = rows["orcs/orc-ravager"]  # A p1 (recalled), B p2 (destroyed), C p1, C p2 (killed Eruugor)
    assert (ravager.placements, ravager.destroyed, ravager.recalled, ravager.kills) == (4, 1, 1, 1)
    assert (ravager.survival_rate, ravager.recall_rate, ravager.kills_per_placement) == (0.75, 0.25, 0.25)
    # every orcs seat (A p1, B p2, C p1, C p2) placed it: wins A, C p2 -> 2 of 4; nobody to compare with
    assert (ravager.games_placed, ravager.wins_placed, ravager.win_rate_placed) == (4, 2, 0.5)
    assert (ravager.games_not_placed, ravager.win_rate_not_placed, ravager.win_rate_difference) == (0, None, None)
    catapult = rows["orcs/orc-catapult"]  # A p1 (shot kills E4, then destroyed), B p2 (shot, no kill)
    assert catapult.ranged and not ravager.ranged
    assert (catapult.placements, catapult.destroyed, catapult.kills, catapult.shots, catapult.shots_killing) == (
        2, 1, 1, 2, 1)
    assert (catapult.shot_hit_rate, catapult.shot_kills, catapult.shot_kill_share) == (0.5, 1, 1.0)
    # placed: A p1 (win), B p2 (loss) = 1/2; orcs seats without it: C p1 (loss), C p2 (win) = 1/2
    assert (catapult.win_rate_placed, catapult.games_not_placed, catapult.win_rate_not_placed) == (0.5, 2, 0.5)
    assert catapult.win_rate_difference == 0.0
    d = newcombe(1, 2, 1, 2)
    assert (catapult.difference_low, catapult.difference_high) == (d.low, d.high)
    slugger = rows["dwarves/dwarf-slugger"]  # A p2 (loss, killed the catapult), B p1 (win), D p2 (draw)
    assert (slugger.placements, slugger.kills, slugger.destroyed, slugger.survival_rate) == (3, 1, 0, 1.0)
    assert (slugger.games_placed, slugger.wins_placed) == (3, 1)
    marauder = rows["dwarves/dwarf-marauder"]  # A p2 destroyed by the shot; B p1 killed the ravager
    assert (marauder.placements, marauder.destroyed, marauder.kills) == (2, 1, 1)
    assert (marauder.games_placed, marauder.win_rate_placed, marauder.games_not_placed) == (2, 0.5, 1)
    assert marauder.win_rate_not_placed == 0.0  # D p2: a draw is not a win
    assert marauder.win_rate_difference == 0.5


def test_cards_filters(conn):
    assert {r.card for r in lords_of_war.cards(conn, Filters(army="elves")).rows} == {"elves/elven-dragoon"}
    assert {r.card for r in lords_of_war.cards(conn, Filters(min_games=3)).rows} == {
        "orcs/orc-ravager", "dwarves/dwarf-slugger"}
    spring = {r.card: r for r in lords_of_war.cards(conn, Filters(tournament="spring")).rows}
    assert spring["orcs/orc-ravager"].placements == 3  # A, C, C


def test_heatmap(conn):
    # turn placements: A D3 (p1), D4 (p2), C4 (p1); B D4 (p1), F5 (p2); C D4 (p1)
    board = lords_of_war.heatmap(conn)
    assert counts(board.rows, "square", "placements") == [("C4", 1), ("D3", 1), ("D4", 3), ("F5", 1)]
    assert board.placements == 6 and board.rows[2].share == 0.5
    # seen from the owner's edge, p2's D4 -> D3 and F5 -> B2
    owner = lords_of_war.heatmap(conn, owner_view=True)
    assert counts(owner.rows, "square", "placements") == [("B2", 1), ("C4", 1), ("D3", 2), ("D4", 2)]
    with_challenge = lords_of_war.heatmap(conn, include_challenge=True)
    assert dict(counts(with_challenge.rows, "square", "placements"))["C3"] == 4
    by_card = lords_of_war.heatmap(conn, card="orcs/orc-catapult")
    assert counts(by_card.rows, "square", "placements") == [("D3", 1), ("F5", 1)]
    by_army = lords_of_war.heatmap(conn, Filters(army="dwarves"))
    assert counts(by_army.rows, "square", "placements") == [("D4", 2)]


# -- players ------------------------------------------------------------------------------------------------


def expected(r_a: float, r_b: float) -> float:
    return 1 / (1 + 10 ** ((r_b - r_a) / 400))


def test_ratings_elo_by_hand(conn):
    # In order of game end: A ann beats bob, B bob beats ann, C cy beats ann, D cy draws bob. K = 32, start 1500.
    ann = bob = cy = 1500.0
    ann, bob = ann + 32 * (1 - 0.5), bob - 32 * 0.5  # A: equal ratings, E = 0.5
    e = expected(bob, ann)
    bob, ann = bob + 32 * (1 - e), ann - 32 * (1 - e)  # B
    e = expected(ann, cy)
    ann, cy = ann - 32 * e, cy + 32 * e  # C
    e = expected(cy, bob)
    cy, bob = cy + 32 * (0.5 - e), bob - 32 * (0.5 - e)  # D
    assert (round(ann, 2), round(bob, 2), round(cy, 2)) == (1482.6, 1502.14, 1515.27)  # worked out on paper
    result = ratings.ratings(conn)
    assert result.games == 4
    assert [(r.rank, r.player, r.rating, r.games, r.wins, r.losses, r.draws) for r in result.rows] == [
        (1, "cy", round(cy, 2), 2, 1, 0, 1),
        (2, "bob", round(bob, 2), 3, 1, 1, 1),
        (3, "ann", round(ann, 2), 3, 1, 2, 0),
    ]
    assert result.rows[2].peak == 1516.0
    assert [r.player for r in ratings.ratings(conn, Filters(min_games=3)).rows] == ["bob", "ann"]
    spring = ratings.ratings(conn, Filters(tournament="spring"))  # A then C
    assert {r.player: r.rating for r in spring.rows}["bob"] == 1484.0


def test_rating_history(conn):
    history = ratings.rating_history(conn, "ann")
    assert [(p.game_id, p.opponent, p.result, p.before) for p in history.rows] == [
        ("A", "bob", "win", 1500.0), ("B", "bob", "loss", 1516.0),
        ("C", "cy", "loss", pytest.approx(1498.53, abs=0.01))]
    assert history.rows[-1].after == history.rating
    assert ratings.rating_history(conn, "nobody").rows == []


def test_head_to_head(conn):
    ann = stats.head_to_head(conn, player="ann")
    assert counts(ann.rows, "opponent", "games", "wins", "losses", "draws", "score") == [
        ("bob", 2, 1, 1, 0, 0.5), ("cy", 1, 0, 1, 0, 0.0)]
    pair = stats.head_to_head(conn, player="bob", opponent="cy")
    assert counts(pair.rows, "games", "draws", "score") == [(1, 1, 0.5)]
    everyone = stats.head_to_head(conn, Filters(min_games=2))
    assert counts(everyone.rows, "player", "opponent") == [("ann", "bob"), ("bob", "ann")]


def test_filters_are_checked():
    with pytest.raises(ValueError):
        Filters(min_games=-1)
    with pytest.raises(ValueError):
        Filters(date_from=date(2026, 2, 1), date_to=date(2026, 1, 1))
    assert not math.isnan(wilson(3, 7).rate)


def from_scratch(conn, filters=None):
    filters = Filters() if filters is None else filters
    return ratings._table(ratings.ELO.full_pass(conn, filters), filters, None)


@pytest.fixture
def live():
    """A store with a projector: (load(games), reader); load projects what it stored."""
    clock = fx.Clock()
    store = DuckDBEventStore(":memory:", clock=clock)
    projector = projections.attach(store, background=False)
    reader = store.reader()

    def load(games):
        fx.load(store, clock, games)
        projector.catch_up()

    try:
        yield load, reader
    finally:
        reader.close()
        projector.close()
        store.close()


def test_stored_pass_and_cache_continue_exactly_and_restart_when_the_past_changes(live):
    load, reader = live
    cache = ratings.RatingsCache()
    since = Filters(date_from=date(2026, 1, 1))  # not the overall filter: served by the cache
    load({k: fx.GAMES[k] for k in "AB"})
    assert [r.games for r in ratings.ratings(reader).rows] == [2, 2]  # the stored pass
    assert [r.games for r in ratings.ratings(reader, since, cache=cache).rows] == [2, 2]
    load({k: fx.GAMES[k] for k in "CD"})  # later games: both passes are continued
    assert reader.execute("SELECT fed_rows, rated_games FROM proj_elo_cursor WHERE system = 'lords-of-war'"
                          ).fetchall() == [(4, 4)]  # one cursor per registered system: these games are its
    assert ratings.ratings(reader) == from_scratch(reader)
    assert ratings.ratings(reader, since, cache=cache) == from_scratch(reader, since)
    for name in ("ann", "bob", "cy"):
        stored = ratings.rating_history(reader, name)
        assert stored.rows == ratings.rating_history(reader, name, since, cache=cache).rows
        assert stored.rows == ratings._history(reader, ratings.ELO.full_pass(reader, Filters()), name, Filters()).rows
    load({"A0": (fx.GAME_A, fx.GAMES["A"][1].replace(day=1), None)})  # ends before everything else
    assert ratings.ratings(reader) == from_scratch(reader)
    assert ratings.ratings(reader).games == 5
    assert ratings.ratings(reader, since, cache=cache) == from_scratch(reader, since)
    assert [p.game_id for p in ratings.rating_history(reader, "ann").rows] == ["A0", "A", "B", "C"]


def test_continued_pass_renumbers_players_of_the_new_games(live):
    # The pass statement numbers only the players of its own games (sorted by name): D is cy against bob, numbered
    # 0 and 1 there, while the pass of A-C knows them as 2 and 1.
    load, reader = live
    cache = ratings.RatingsCache()
    since = Filters(date_from=date(2026, 1, 1))
    load({k: fx.GAMES[k] for k in "ABC"})
    assert ratings.ratings(reader, since, cache=cache).games == 3
    load({"D": fx.GAMES["D"]})
    continued = ratings.ratings(reader, since, cache=cache)
    assert continued.games == 4
    assert continued == from_scratch(reader, since)
    assert ratings.ratings(reader) == from_scratch(reader)  # the stored pass, continued from its seeds
    for name in ("ann", "bob", "cy"):
        assert (
            ratings.rating_history(reader, name, since, cache=cache).rows
            == ratings.rating_history(reader, name).rows
            == ratings._history(reader, ratings.ELO.full_pass(reader, since), name, since).rows
        )
