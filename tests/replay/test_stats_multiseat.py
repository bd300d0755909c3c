"""The statistics of a system of three and four seats with teams, plugged in from the tests only (pebbles,
tests/replay/pebbles_stats.py): its own migration chain, the core statistics recounted from the engine's outcomes,
openskill ratings recomputed with the library directly, its own statistic on HTTP and the command line."""

from __future__ import annotations

import sys
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import pytest
from fastapi.testclient import TestClient
from openskill.models import PlackettLuce

sys.path.insert(0, str(Path(__file__).parent))

import stats_fixtures as fx  # noqa: E402

import tests.replay.pebbles_stats as ps  # noqa: E402
from api.app import create_app  # noqa: E402
from api.cli import main  # noqa: E402
from api.settings import Settings  # noqa: E402
from engine.play import play  # noqa: E402
from engine.systems import BrokenPlugin  # noqa: E402
from replay.analytics import multiplayer, ratings, stats  # noqa: E402
from replay.analytics.catalogue import catalogue, run, statistic  # noqa: E402
from replay.analytics.projections import attach  # noqa: E402
from replay.analytics.stats import Filters  # noqa: E402
from replay.log.chain import encode_chain  # noqa: E402
from replay.plugin import ReplayParts  # noqa: E402
from replay.store.duckdb_store import DuckDBEventStore  # noqa: E402
from replay.systems import get_plugin  # noqa: E402

pb = ps.pb
NAMES = ("ann", "bob", "cy", "dee", "eve")
START = datetime(2026, 3, 1, tzinfo=UTC)
PEBBLES = Filters(system="pebbles")


def hand_made(scores: tuple[int, ...], *, teams: bool = False, concede: str | None = None) -> list[Any]:
    """A game whose seats take ``scores`` pebbles in turn, bonuses 0 (a tie is easy to make); ``concede``: that seat
    concedes first (with teams, for its team: the other side is left standing)."""
    seats = tuple(pb.SeatRecord(id=f"p{i + 1}", name=f"x{i}", team=("odd", "even")[i % 2] if teams else None)
                  for i in range(len(scores)))
    events: list[Any] = [pb.GameStarted(system=pb.NAME, seats=seats, heap=sum(scores), teams=teams, seed=0),
                         *(pb.BonusDealt(player=s.id, bonus=0) for s in seats)]
    if concede is not None:
        events += [pb.Conceded(player=concede),
                   pb.GameEnded(reason="last_standing", bonuses={s.id: 0 for s in seats})]
        return events
    for seat, score in zip(seats, scores, strict=True):
        events.append(pb.Taken(player=seat.id, count=score))
    events.append(pb.GameEnded(reason="heap_empty", bonuses={s.id: 0 for s in seats}))
    return events


def named(events: list[Any], names: tuple[str, ...]) -> list[Any]:
    first = events[0]
    seats = tuple(msgspec.structs.replace(s, name=n) for s, n in zip(first.seats, names, strict=False))
    return [msgspec.structs.replace(first, seats=seats), *events[1:]]


def games() -> dict[str, tuple[list[Any], datetime, str | None]]:
    out = {}
    for i in range(14):
        setup = pb.PEBBLES.sample_setup(i, seed=100 + i)
        events = play(pb.PEBBLES, setup, bots=("random", "greedy")[: 1 + i % 2]).events
        names = tuple(NAMES[(i + k) % len(NAMES)] for k in range(len(setup["players"])))
        out[f"g{i:02d}"] = (named(events, names), START + timedelta(days=i), "cup" if i % 3 == 0 else None)
    out["tie"] = (named(hand_made((3, 3, 0)), ("ann", "bob", "cy")), START + timedelta(days=20), None)
    out["draw"] = (named(hand_made((2, 2, 2)), ("dee", "eve", "ann")), START + timedelta(days=21), None)
    out["teams"] = (named(hand_made((1, 1, 1, 1), teams=True, concede="p2"), ("ann", "bob", "cy", "dee")),
                    START + timedelta(days=22), "cup")
    out["self"] = (named(hand_made((2, 1, 1)), ("ann", "ann", "bob")), START + timedelta(days=23), None)  # not rated
    out["running"] = (named(hand_made((1, 1, 1))[:-2], ("ann", "bob", "cy")), START + timedelta(days=24), None)
    return out


def store_all(store: DuckDBEventStore, clock: fx.Clock, played: dict[str, tuple]) -> None:
    for game_id, (events, when, tournament) in played.items():
        clock.now = when
        store.create_game(game_id, "pebbles", [], {}, encode_chain(pb.PEBBLES, game_id, events), tournament=tournament)


@pytest.fixture(scope="module")
def world():
    """Pebbles' games and the fixture's Lords of War games stored and projected while pebbles is registered (the
    tests register it again where they need the registry); (store, conn, games)."""
    clock = fx.Clock()
    store = DuckDBEventStore(":memory:", clock=clock)
    played = games()
    with ps.registered():
        store_all(store, clock, played)
        fx.load(store, clock)
        projector = attach(store, background=False)
    conn = store.reader()
    try:
        yield store, conn, played
    finally:
        conn.close()
        projector.close()
        store.close()


# -- the reference: straight from the engine's outcomes ---------------------------------------------------------


def finished(played: dict[str, tuple]) -> dict[str, tuple[list[Any], Any]]:
    out = {}
    for game_id, (events, _, _) in played.items():
        outcome = pb.PEBBLES.outcome(pb.PEBBLES.fold(events))
        if outcome is not None:
            out[game_id] = (events, outcome)
    return out


def result(outcome: Any, seat: str) -> str:
    if outcome.winners:
        return "win" if seat in outcome.winners else "loss"
    return "draw"


def test_its_migration_chain_is_applied_once_and_recorded_under_its_name(world):
    store, conn, _ = world
    applied = conn.execute("SELECT chain, version, name FROM system_migrations ORDER BY 1, 2").fetchall()
    assert [row for row in applied if row[0] in ("lords-of-war", "pebbles")] == [
        ("lords-of-war", 1, "lords_of_war_tables"), ("lords-of-war", 2, "low_prefix"), ("pebbles", 1, "pebbles_takes"),
        ("pebbles", 2, "pebbles_takes_heap")]  # (other registered systems' chains beside them)
    assert store.migrate(ps.ANALYTICS.sql) == []  # again: nothing to do
    assert conn.execute("SELECT count(*) FROM pebbles_takes WHERE heap IS NOT NULL").fetchall()[0][0] > 50


def test_core_tables_hold_one_row_per_seat_and_per_opposing_pair(world):
    _, conn, played = world
    seats = dict(
        conn.execute("SELECT game_id, count(*) FROM proj_seats WHERE system = 'pebbles' GROUP BY 1").fetchall()
    )
    assert seats == {gid: len(events[0].seats) for gid, (events, _, _) in played.items()}
    # teams: odd (p1, p3) against even (p2, p4): 4 seats x 2 opponents; teammates are not opponents
    assert conn.execute("SELECT seat, list(opponent_seat ORDER BY opponent_seat) FROM proj_opponents "
                        "WHERE game_id = 'teams' GROUP BY 1 ORDER BY 1").fetchall() == [
        ("p1", ["p2", "p4"]), ("p2", ["p1", "p3"]), ("p3", ["p2", "p4"]), ("p4", ["p1", "p3"])]
    assert conn.execute("SELECT seat, place, result, score FROM proj_seats "
                        "WHERE game_id = 'tie' ORDER BY 1").fetchall() == [
        ("p1", 1, "win", 3), ("p2", 1, "win", 3), ("p3", 3, "loss", 0)]
    assert conn.execute("SELECT winner, seats, armies, player_p1 FROM proj_games WHERE game_id = 'tie'").fetchall() == [
        ("p1+p2", 3, ["stones", "shells", "stones"], None)]  # the p1/p2 columns are for two-seat games
    assert conn.execute("SELECT winner, finished FROM proj_games "
                        "WHERE game_id IN ('draw', 'running') ORDER BY 1").fetchall() == [
        ("draw", True), (None, False)]


def test_core_statistics_equal_a_recount_from_the_outcomes(world):
    _, conn, played = world
    done = finished(played)
    assert stats.end_reasons(conn, PEBBLES).games == len(done) == len(played) - 1
    assert {r.end_reason: r.games for r in stats.end_reasons(conn, PEBBLES).rows} == dict(
        Counter(outcome.reason for _, outcome in done.values()))
    # a game's length: the turn of its last take (pebbles counts a turn per take; concessions do not count)
    assert {b.turns: b.games for b in stats.game_length(conn, PEBBLES).rows} == dict(
        Counter(sum(isinstance(e, pb.Taken) for e in events) for events, _ in done.values()))
    armies: dict[str, Counter] = {}
    pairs: dict[tuple[str, str], Counter] = {}
    first = Counter()
    for events, outcome in done.values():
        seats = events[0].seats
        for i, seat in enumerate(seats):
            armies.setdefault(ps.CLANS[i % 2], Counter())[result(outcome, seat.id)] += 1
            for other in seats:
                if other.id != seat.id and (seat.team is None or seat.team != other.team):
                    mine, theirs = outcome.place_of(seat.id), outcome.place_of(other.id)
                    pairs.setdefault((seat.name, other.name), Counter())[
                        "win" if mine < theirs else "loss" if mine > theirs else "draw"] += 1
        first[result(outcome, "p1")] += 1  # the game awaits p1 first
    assert {r.army: (r.games, r.wins, r.losses, r.draws) for r in stats.army_win_rates(conn, PEBBLES).rows} == {
        a: (sum(c.values()), c["win"], c["loss"], c["draw"]) for a, c in armies.items()}
    fp = stats.first_player(conn, PEBBLES).overall
    assert (fp.games, fp.wins, fp.losses, fp.draws) == (len(done), first["win"], first["loss"], first["draw"])
    assert {(r.player, r.opponent): (r.games, r.wins, r.losses, r.draws)
            for r in stats.head_to_head(conn, PEBBLES).rows} == {
        k: (sum(c.values()), c["win"], c["loss"], c["draw"]) for k, c in pairs.items()}
    assert stats.known_armies(conn, "pebbles") == ["shells", "stones"]  # played (its army_names need the registry)
    assert ratings.ratings(conn, PEBBLES).rows == []  # Elo rates two-seat games only


def openskill_reference(done: dict[str, tuple[list[Any], Any]], played: dict[str, tuple]) -> dict[str, tuple]:
    model = PlackettLuce()
    table: dict[str, Any] = {}
    for game_id in sorted(done, key=lambda g: (played[g][1], g)):
        events, outcome = done[game_id]
        seats = events[0].seats
        if len({s.name for s in seats}) < len(seats):
            continue
        sides: dict[Any, list[Any]] = {}
        for seat in seats:
            sides.setdefault(seat.team or seat.id, []).append(seat)
        teams = [[table.setdefault(s.name, model.rating(name=s.name)) for s in side] for side in sides.values()]
        ranks = [outcome.place_of(side[0].id) for side in sides.values()]
        for side, new in zip(sides.values(), model.rate(teams, ranks=ranks), strict=True):
            for seat, rating in zip(side, new, strict=True):
                table[seat.name] = rating
    return {name: (round(r.ordinal(), 2), round(r.mu, 3), round(r.sigma, 3)) for name, r in table.items()}


def test_multiplayer_ratings_equal_openskill_run_by_hand_and_are_deterministic(world):
    _, conn, played = world
    table = multiplayer.multiplayer_ratings(conn, PEBBLES)
    done = finished(played)
    assert table.games == len(done) - 1  # "self": ann in two seats is not rated
    assert {r.player: (r.ordinal, r.mu, r.sigma) for r in table.rows} == openskill_reference(done, played)
    assert [r.ordinal for r in table.rows] == sorted((r.ordinal for r in table.rows), reverse=True)
    assert {r.player: r.games for r in table.rows}["eve"] == sum(
        "eve" in {s.name for s in events[0].seats} for gid, (events, _) in done.items() if gid != "self")
    # the same games stored in another order, another database: the same ratings, to the last bit
    with ps.registered():
        clock = fx.Clock()
        other = DuckDBEventStore(":memory:", clock=clock)
        store_all(other, clock, dict(reversed(list(played.items()))))
        projector = attach(other, background=False)
        reader = other.reader()
        try:
            assert multiplayer.multiplayer_ratings(reader, PEBBLES) == table
        finally:
            reader.close()
            projector.close()
            other.close()


def test_the_multiplayer_cache_continues_exactly_and_restarts_when_the_past_changes():
    with ps.registered():
        clock = fx.Clock()
        store = DuckDBEventStore(":memory:", clock=clock)
        projector = attach(store, background=False)
        reader = store.reader()
        cache = multiplayer.MultiplayerCache()
        played = list(games().items())
        try:
            store_all(store, clock, dict(played[:8]))
            projector.catch_up()
            assert multiplayer.multiplayer_ratings(reader, PEBBLES, cache=cache) == multiplayer.multiplayer_ratings(
                reader, PEBBLES)
            store_all(store, clock, dict(played[8:]))  # later games: the pass is continued
            projector.catch_up()
            assert multiplayer.multiplayer_ratings(reader, PEBBLES, cache=cache) == multiplayer.multiplayer_ratings(
                reader, PEBBLES)
            early = {"early": (played[0][1][0], START - timedelta(days=5), None)}  # ends before all: redone
            store_all(store, clock, early)
            projector.catch_up()
            assert multiplayer.multiplayer_ratings(reader, PEBBLES, cache=cache) == multiplayer.multiplayer_ratings(
                reader, PEBBLES)
        finally:
            reader.close()
            projector.close()
            store.close()


def test_its_own_statistic_is_in_the_catalogue_on_http_and_on_the_command_line(world, tmp_path):
    store, conn, played = world
    with ps.registered():
        assert statistic("takes").system == "pebbles"
        takes = run(statistic("takes"), conn, PEBBLES, {})
        assert sum(r.takes for r in takes.rows) == sum(
            isinstance(e, pb.Taken) for events, _ in finished(played).values() for e in events)
        assert takes.games == len(finished(played))
        with TestClient(create_app(Settings(db=":memory:"), store=store)) as http:
            assert http.get("/stats/takes", params={"system": "pebbles"}).json() == msgspec.to_builtins(takes)
            assert "/stats/takes" in http.get("/openapi.json").json()["paths"]
            body = http.get("/stats/multiplayer-ratings", params={"system": "pebbles", "limit": 2}).json()
            assert [r["player"] for r in body["rows"]] == [
                r.player for r in multiplayer.multiplayer_ratings(conn, PEBBLES, limit=2).rows]
            assert http.get("/stats/takes").json()["rows"] == []  # the default system has no pebbles
    assert "takes" not in [s.name for s in catalogue()]  # gone with the system


def test_export_parquet_writes_its_table(world, tmp_path):
    _, conn, _ = world
    from replay.analytics.parquet import export

    with ps.registered():
        tables = {t.table: t.rows for t in export(conn, tmp_path / "parquet")}
    assert tables["pebbles_takes"] > 50 and tables["proj_seats"] > 50 and tables["low_placements"] > 0
    assert (tmp_path / "parquet" / "pebbles_takes" / "system=pebbles").is_dir()


def test_warlog_stats_runs_a_systems_statistic_and_the_multiplayer_ratings(tmp_path, capsys):
    db = tmp_path / "p.duckdb"
    with ps.registered():
        clock = fx.Clock()
        store = DuckDBEventStore(db, clock=clock)
        store_all(store, clock, games())
        store.close()
        assert main(["stats", "takes", "--system", "pebbles", "--db", str(db), "--json"]) == 0
        body = msgspec.json.decode(capsys.readouterr().out)
        assert body["filters"]["system"] == "pebbles" and sum(r["takes"] for r in body["rows"]) > 50
        assert main(["stats", "multiplayer-ratings", "--system", "pebbles", "--db", str(db), "--limit", "3",
                     "--json"]) == 0
        body = msgspec.json.decode(capsys.readouterr().out)
        assert [r["rank"] for r in body["rows"]] == [1, 2, 3] and body["games"] == len(finished(games())) - 1
        assert main(["stats", "multiplayer-ratings", "--system", "pebbles", "--db", str(db)]) == 0
        header = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("rank"))
        assert header.split() == ["rank", "player", "ordinal", "mu", "sigma", "games", "wins", "last_played"]
    conn = duckdb.connect(str(db), read_only=True)
    assert conn.execute("SELECT count(*) FROM system_migrations WHERE chain = 'pebbles'").fetchall() == [(2,)]
    conn.close()


def test_the_catalogue_refuses_a_statistic_that_is_taken_or_names_another_system():
    lords = get_plugin("lords-of-war")

    def parts(*statistics: Any) -> ReplayParts:
        analytics = ps.PebblesAnalytics()
        analytics.statistics = statistics
        return ReplayParts(name="pebbles", views=ps.PLUGIN.views, explanations=ps.PLUGIN.explanations,
                           records=ps.PLUGIN.records, terminal=ps.PLUGIN.terminal, labels=analytics,
                           analytics=analytics)

    import dataclasses

    takes = ps.ANALYTICS.statistics[0]
    for clash, message in (
        (dataclasses.replace(takes, name="armies"), "'armies' is taken \\(by the core\\)"),
        (dataclasses.replace(takes, name="heat", path="/heatmap"), "'/heatmap' is taken \\(by lords-of-war\\)"),
        (dataclasses.replace(takes, system="lords-of-war"), "says it is 'lords-of-war''s"),
    ):
        with ps.pebbles_registered(replay=parts(clash)), pytest.raises(BrokenPlugin, match=message):
            catalogue()
    assert lords.analytics is not None and [s.name for s in lords.analytics.statistics] == ["cards", "heatmap", "teams"]
