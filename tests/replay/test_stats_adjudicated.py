"""Statistics count games ended by the scorekeeper's ``adjudicate`` apart (issue 28 item 11): never as a win by the
rules. The fixture games (stats_fixtures: A to E) are stored twice, once alone and once with three adjudicated games
(F: the judge gives ann's orcs the win; G: time called, a draw; H: the players agree that cy's elves won). Every
statistic with its default filters answers the same on both; ``ending=adjudicated`` counts only F, G, H;
``ending=all`` both; ``end-reasons`` shows every ending by default, an adjudicated one split by its reason; a system's
own statistics (Lords of War's cards, teams) count rule-decided games only."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec
import pytest

sys.path.insert(0, str(Path(__file__).parent))

import stats_fixtures as fx  # noqa: E402

from events import Adjudication  # noqa: E402
from events.lords_of_war import GameEnded  # noqa: E402
from replay.analytics import ratings, stats  # noqa: E402
from replay.analytics.stats import Filters  # noqa: E402
from replay.lords_of_war import analytics as lords_of_war  # noqa: E402


def _adjudicated(p1: tuple[str, str], p2: tuple[str, str], winner: str, reason: str) -> list[Any]:
    placings = (("p1", "p2"),) if winner == "draw" else ((winner,), ("p2" if winner == "p1" else "p1",))
    return [
        fx.started(p1, p2),
        fx.place("p1", "orcs/orc-ravager-1" if p1[1] == "orcs" else "elves/elven-dragoon-1", "C3", 0), fx.draw("p1"),
        fx.place("p2", "dwarves/dwarf-slugger-1", "E4", 0), fx.draw("p2"),
        fx.place("p1", "orcs/orc-catapult" if p1[1] == "orcs" else "elves/elven-dragoon-2", "D3", 1),
        GameEnded(winner=winner, reason="adjudicated",
                  adjudication=Adjudication(reason=reason, placings=placings,
                                            explanation="equal" if reason == "time" else None)),
    ]


ADJUDICATED = {
    "F": (_adjudicated(("ann", "orcs"), ("bob", "dwarves"), "p1", "judge"), datetime(2026, 2, 12, tzinfo=UTC),
          "spring"),
    "G": (_adjudicated(("bob", "orcs"), ("cy", "dwarves"), "draw", "time"), datetime(2026, 2, 13, tzinfo=UTC), None),
    "H": (_adjudicated(("cy", "elves"), ("ann", "dwarves"), "p1", "agreement"), datetime(2026, 2, 14, tzinfo=UTC),
          None),
}


@pytest.fixture(scope="module")
def base() -> Iterator[Any]:
    yield from fx.projected(fx.GAMES)


@pytest.fixture(scope="module")
def conn() -> Iterator[Any]:
    yield from fx.projected({**fx.GAMES, **ADJUDICATED})


def _plain(result: Any) -> Any:
    return msgspec.to_builtins(result)


CORE = [
    ("armies", stats.army_win_rates), ("matchups", stats.matchups), ("first-player", stats.first_player),
    ("game-length", stats.game_length), ("head-to-head", stats.head_to_head),
    ("ratings", lambda c, f: ratings.ratings(c, f)),
]


@pytest.mark.parametrize("name, compute", CORE, ids=[n for n, _ in CORE])
def test_adjudicated_games_are_never_counted_by_default_as_a_win_by_the_rules(base, conn, name, compute):
    assert _plain(compute(conn, Filters())) == _plain(compute(base, Filters()))
    assert _plain(compute(conn, Filters(ending="rules"))) == _plain(compute(base, Filters(ending="rules")))


def test_adjudicated_games_are_counted_apart_with_ending_adjudicated(conn):
    armies = stats.army_win_rates(conn, Filters(ending="adjudicated"))
    assert armies.games == 3  # F, G, H
    assert [(r.army, r.games, r.wins, r.losses, r.draws) for r in armies.rows] == [
        ("dwarves", 3, 0, 2, 1), ("elves", 1, 1, 0, 0), ("orcs", 2, 1, 0, 1)]
    every = stats.army_win_rates(conn, Filters(ending="all"))
    assert every.games == 7 and {r.army: r.games for r in every.rows} == {"dwarves": 6, "elves": 2, "orcs": 4}
    h2h = stats.head_to_head(conn, Filters(ending="adjudicated"), player="ann")
    assert [(r.opponent, r.games, r.wins, r.losses) for r in h2h.rows] == [("bob", 1, 1, 0), ("cy", 1, 0, 1)]
    assert stats.game_length(conn, Filters(ending="adjudicated")).games == 3


def test_end_reasons_show_every_ending_an_adjudicated_one_by_its_reason(conn):
    rows = [(r.end_reason, r.adjudication, r.games) for r in stats.end_reasons(conn).rows]
    assert rows == [("adjudicated", "agreement", 1), ("adjudicated", "judge", 1), ("adjudicated", "time", 1),
                    ("commanders", None, 1), ("concession", None, 1), ("kills", None, 2)]
    ruled = stats.end_reasons(conn, Filters(ending="rules"))
    assert ruled.games == 4 and all(r.adjudication is None for r in ruled.rows)
    assert [r.games for r in stats.end_reasons(conn, Filters(ending="adjudicated")).rows] == [1, 1, 1]


def test_ratings_of_adjudicated_games_only_when_asked(base, conn):
    overall = ratings.ratings(conn, Filters())
    assert _plain(overall.rows) == _plain(ratings.ratings(base, Filters()).rows)  # the stored pass: rules only
    every = {r.player: (r.games, r.wins, r.draws) for r in ratings.ratings(conn, Filters(ending="all")).rows}
    ruled = {r.player: (r.games, r.wins, r.draws) for r in overall.rows}
    assert every["ann"][0] == ruled["ann"][0] + 2 and every["bob"][0] == ruled["bob"][0] + 2


def test_the_core_tables_say_how_a_game_was_adjudicated(conn):
    rows = conn.execute("SELECT game_id, winner, end_reason, adjudication FROM proj_games ORDER BY game_id").fetchall()
    assert rows[-3:] == [("F", "p1", "adjudicated", "judge"), ("G", "draw", "adjudicated", "time"),
                         ("H", "p1", "adjudicated", "agreement")]
    assert all(r[3] is None for r in rows[:-3])
    seats = conn.execute("SELECT DISTINCT adjudication FROM proj_seats WHERE game_id = 'G'").fetchall()
    pairs = conn.execute("SELECT DISTINCT adjudication FROM proj_opponents WHERE game_id = 'H'").fetchall()
    assert seats == [("time",)] and pairs == [("agreement",)]


def test_a_systems_own_statistics_count_rule_decided_games_only(base, conn):
    assert _plain(lords_of_war.cards(conn).rows) == _plain(lords_of_war.cards(base).rows)
    placed = conn.execute("SELECT count(*) FROM low_placements WHERE game_id IN ('F', 'G', 'H')").fetchone()
    assert placed == (0,)
    finished = conn.execute("SELECT DISTINCT finished FROM low_players WHERE game_id IN ('F', 'G', 'H')").fetchall()
    assert finished == [(False,)]


def test_the_ending_filter_is_checked():
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"ending": "sometimes"}, Filters)
