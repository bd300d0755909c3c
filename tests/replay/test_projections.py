"""Projections: hand-computed rows for the fixture games, incremental == rebuild, exactly once across failures."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import duckdb
import pytest

sys.path.insert(0, str(Path(__file__).parent))

import stats_fixtures as fx  # noqa: E402

import engine.lords_of_war as lw  # noqa: E402
from engine.errors import StreamError  # noqa: E402
from engine.lords_of_war.actions import Concede  # noqa: E402
from engine.lords_of_war.bots import make_bot, play_bot_game  # noqa: E402
from replay.analytics import projections  # noqa: E402
from replay.analytics.model import GameHeader, StreamEvent  # noqa: E402
from replay.analytics.projections import project_game  # noqa: E402
from replay.log.demo import demo_setup  # noqa: E402
from replay.lords_of_war.analytics import own_square, variant_label  # noqa: E402
from replay.store.duckdb_store import BulkGame, DuckDBEventStore  # noqa: E402

TABLES = ("proj_games", "proj_seats", "proj_opponents", "low_players", "low_placements", "low_kills", "low_shots",
          "low_card_daily", "proj_elo_players", "proj_elo_history", "proj_elo_cursor")


def snapshot(conn) -> dict[str, list[tuple]]:
    out = {table: sorted(conn.execute(f"SELECT * FROM {table}").fetchall(), key=repr) for table in TABLES}
    out["proj_checkpoint"] = sorted(
        conn.execute("SELECT game_id, last_seq, facts_written FROM proj_checkpoint").fetchall()
    )
    return out


def project(events, game_id="A", created_at="2026-01-05T10:00:00.000000Z", tournament="spring"):
    stream = [StreamEvent(i + 1, created_at, e) for i, e in enumerate(events)]
    return project_game(GameHeader(game_id, "lords-of-war", created_at, tournament, {"round": 2}), stream)


def test_project_game_a_by_hand():
    p = project(fx.GAME_A)
    g = p.game
    assert (g.winner, g.end_reason, g.turns, g.first_player, g.finished) == ("p1", "concession", 3, "p1", True)
    assert (g.army_p1, g.army_p2, g.player_p1, g.player_p2, g.tournament, g.round) == (
        "orcs", "dwarves", "ann", "bob", "spring", 2)
    assert (g.variant, g.mode, g.month, g.played_on, g.last_seq) == ("standard", "sealed", "2026-01", "2026-01-05", 18)
    fates = [(r.placement, r.card.split("/")[1], r.square, r.turn, r.fate, r.fate_turn, r.kills, r.shots,
              r.shots_killing, r.shot_kills, r.destroyed_by) for r in p.rows.placements]
    assert fates == [
        (1, "orc-ravager-1", "C3", 0, "recalled", 3, 0, 0, 0, 0, None),
        (2, "dwarf-marauder-1", "E4", 0, "destroyed", 1, 0, 0, 0, 0, "shot"),
        (3, "orc-catapult", "D3", 1, "destroyed", 2, 1, 1, 1, 1, "arrow"),
        (4, "dwarf-slugger-1", "D4", 2, "on_board", None, 1, 0, 0, 0, None),
        (5, "goblin-shanker-1", "C4", 3, "on_board", None, 0, 0, 0, 0, None),
    ]
    assert p.rows.placements[1].killers == ["orcs/orc-catapult"]
    assert [r.result for r in p.rows.placements] == ["win", "loss", "win", "loss", "win"]
    assert [r.own_square for r in p.rows.placements] == ["C3", "C3", "D3", "D3", "C4"]  # p2: E4 -> C3, D4 -> D3
    players = {r.seat: r for r in p.rows.players}
    assert (players["p1"].result, players["p1"].kills, players["p1"].placements, players["p1"].recalls) == (
        "win", 1, 3, 1)
    assert (players["p2"].result, players["p2"].kills, players["p2"].went_first, players["p2"].opponent) == (
        "loss", 1, False, "ann")
    assert [(s.shooter_placement, s.target_placement, s.killed) for s in p.rows.shots] == [(3, 2, True)]
    kills = [(k.victim_placement, k.attacker_placement, k.kind) for k in p.rows.kills]
    assert kills == [(2, 3, "shot"), (3, 4, "arrow")]


def test_project_game_c_counts_a_commander_kill():
    p = project(fx.GAME_C)
    players = {r.seat: r for r in p.rows.players}
    assert (players["p2"].kills, players["p2"].commanders, players["p2"].result) == (1, 1, "win")
    assert p.rows.placements[1].kills == 1 and p.rows.placements[2].fate == "destroyed"
    assert [r.first_of_card for r in p.rows.placements] == [True, True, True]


def test_project_game_b_shot_that_kills_nothing():
    p = project(fx.GAME_B)
    assert [(s.seat, s.killed) for s in p.rows.shots] == [("p2", False)]
    assert p.rows.placements[3].shots == 1 and p.rows.placements[3].shots_killing == 0


def test_running_game_has_no_result():
    p = project(fx.GAME_E)
    assert (p.game.finished, p.game.winner, p.game.turns) == (False, None, 0)
    assert all(r.result is None for r in p.rows.players)


def _reading_step_by_step(system, events):
    """What ``read_game``'s docstring defines, the slow way: every state along the stream (``evolve`` one event at a
    time), the highest turn any non-concession action started in, the first seat awaited in turn 1 or at all."""
    states = [system.initial_state()]
    for event in events:
        states.append(system.evolve(states[-1], event))
    try:
        actions = system.recorded_actions(events)
    except StreamError:
        turns = system.turn(states[-1])
    else:
        turns = max((system.turn(states[a.start]) for a in actions if a.action != system.concession(a.seat)),
                    default=0)
    awaited = [(system.to_act(s), system.turn(s)) for s in states[1:]]
    first = next((seats[0] for seats, turn in awaited if seats and turn >= 1), None)
    return turns, first or next((seats[0] for seats, _ in awaited if seats), None), system.outcome(states[-1])


def _lords_of_war_streams():
    """Bot games of every demo variant, games conceded at every stage (in the challenge, at a turn's start, by the
    seat not to act), games from a position, a stream no actions produced, and running games cut anywhere."""
    games = [play_bot_game(seed, armies=(("orcs", "elves"), ("dwarves", "undead"))[seed % 2],
                           variant=({}, {"intermediate": True}, {"unbounded": True}, {"mode": "table"})[seed % 4])
             for seed in range(8)]
    for index, concede_at in enumerate((0, 1, 2, 5, 9)):  # turn 0 is the challenge
        setup = demo_setup(index, 40 + index)
        bots = [make_bot("random", 90 + index), make_bot("greedy", 91 + index)]
        events, state = list(lw.start(setup)), lw.initial_state()
        for event in events:
            state = lw.evolve(state, event)
        while state.phase != "over":
            if state.turn >= concede_at:
                action = Concede(player=lw.PLAYERS[(state.active + index) % 2])  # odd index: the seat not to act
            else:
                action = bots[state.active].choose(state)
            for event in lw.decide(state, action):
                state = lw.evolve(state, event)
                events.append(event)
        games.append(events)
    position = {"board": [{"square": "C3", "card": "orcs/orc-ravager-2", "owner": "p1"}],
                "to_move": "p2", "kills": {"p1": {"total": 2, "commanders": 1}}}
    games.append(play_bot_game(5, armies=("orcs", "dwarves"), position=position))
    broken = list(games[0])
    broken.insert(len(broken) // 2, broken[1])  # a hand dealt mid-game: no action produced it (StreamError)
    games.append(broken)
    streams = list(games)
    for events in games[:6]:
        streams += [events[:n] for n in range(1, len(events), 7)]
    return streams


def test_read_game_is_its_definition_in_one_pass():
    """The core reads a game in one pass of the engine (steps through the opening, folds the rest on from there):
    its length, first player and outcome are those of the definition evaluated state by state."""
    from engine.systems import get_system

    system = get_system("lords-of-war")
    streams = _lords_of_war_streams()
    seen = set()
    for events in streams:
        stream = [StreamEvent(i + 1, "2026-01-05T10:00:00.000000Z", e) for i, e in enumerate(events)]
        facts = projections.read_game(GameHeader("A", "lords-of-war", "2026-01-05T10:00:00.000000Z"), stream, system)
        turns, first, outcome = _reading_step_by_step(system, events)
        assert (facts.turns, facts.first_player) == (turns, first), len(events)
        assert facts.finished == (outcome is not None)
        assert facts.end_reason == (outcome.reason if outcome is not None else None)
        assert [s.score for s in facts.seats] == [outcome.scores.get(s.id) if outcome else None for s in facts.seats]
        seen.add((facts.end_reason, facts.turns > 0, facts.first_player))
    reasons = {reason for reason, _, _ in seen}
    assert {None, "concession"} < reasons and len(reasons) >= 3  # running, conceded, won on the mat
    assert (None, False, None) in seen or ("concession", False, "p1") in seen  # the challenge: before turn 1


def test_read_game_of_a_many_seat_system_is_its_definition_in_one_pass():
    """The same through the test-only system of three and four seats (its fold is evolve's loop, from a state)."""
    import tests.replay.pebbles_stats as ps
    from engine.play import play

    system = ps.pb.PEBBLES
    for index in range(8):
        setup = system.sample_setup(index, seed=300 + index)
        events = play(system, setup, bots=("random", "greedy")[: 1 + index % 2]).events
        for n in (*range(1, len(events), 3), len(events)):
            stream = [StreamEvent(i + 1, "2026-01-05T10:00:00.000000Z", e) for i, e in enumerate(events[:n])]
            facts = projections.read_game(GameHeader("P", "pebbles", "2026-01-05T10:00:00.000000Z"), stream, system)
            turns, first, outcome = _reading_step_by_step(system, events[:n])
            assert (facts.turns, facts.first_player, facts.finished) == (turns, first, outcome is not None)


def test_variant_label_and_owner_square():
    assert variant_label(False, False, 20, 4) == "standard"
    assert variant_label(True, True, 15, 3) == "intermediate+unbounded+targets-15-3"
    assert own_square("A1", "p2", False) == "G6" and own_square("E4", "p2", False) == "C3"
    assert own_square("E4", "p1", False) == "E4" and own_square("4,3", "p2", True) == "4,3"
    assert own_square("E4", "p3", False, ("p2", "p3")) == "C3" and own_square("E4", "p3", False) == "E4"  # §10
    assert variant_label(False, True, 30, 7, seats=4) == "teams-4"  # team games are always unbounded
    assert variant_label(True, True, 20, 4, seats=3) == "three-players+intermediate+unbounded"
    assert variant_label(False, True, 40, 7, seats=6) == "teams-6+targets-40-7"


def test_projector_incremental_equals_rebuild():
    clock = fx.Clock()
    store = DuckDBEventStore(":memory:", clock=clock)
    projector = projections.attach(store)
    try:
        fx.load(store, clock, step=1)  # one event per commit: the projector follows along
        for seed in range(6):
            events = play_bot_game(seed, armies=("orcs", "elves"))
            encoded = fx.encode(f"bot{seed}", events)
            store.create_game(f"bot{seed}", "lords-of-war", [], {}, encoded[:3])
            for i in range(3, len(encoded), 7):
                store.append(f"bot{seed}", encoded[i : i + 7])
        assert projector.wait_idle(30)
        assert projector.errors == []
        conn = store.reader()
        incremental = snapshot(conn)
        assert len(incremental["proj_games"]) == 11
        assert conn.execute("SELECT count(*) FROM proj_checkpoint WHERE facts_written").fetchone()[0] == 10
        projector.rebuild()
        assert snapshot(conn) == incremental
        conn.close()
    finally:
        projector.close()
        store.close()


def test_a_failed_projection_writes_nothing_and_is_redone_once(monkeypatch):
    clock = fx.Clock()
    store = DuckDBEventStore(":memory:", clock=clock)
    fx.load(store, clock)
    store.migrate(*projections.system_chains())  # the registered systems' own tables, as attach() makes them
    projector = projections.Projector(store)
    real_sql = projections.sql

    def failing(name):
        if name == "proj_insert_checkpoints":  # the database fails (not one game): the pass ends, nothing set aside
            raise duckdb.IOException("crash before the checkpoint")
        return real_sql(name)

    monkeypatch.setattr(projections, "sql", failing)
    with pytest.raises(duckdb.IOException):
        projector.catch_up()
    conn = store.reader()
    assert all(not rows for rows in snapshot(conn).values())  # rows and checkpoint together, or neither
    assert projector.set_aside() == []
    monkeypatch.setattr(projections, "sql", real_sql)
    assert projector.catch_up() == 5
    assert projector.catch_up() == 0  # nothing pending: exactly once
    once = snapshot(conn)
    assert len(once["low_placements"]) == 5 + 4 + 3 + 2  # games A-D (E is running)
    projector.rebuild()
    assert snapshot(conn) == once
    conn.close()
    projector.close()
    store.close()


def test_catch_up_on_reopen_after_events_landed_unprojected(tmp_path):
    path = tmp_path / "w.duckdb"
    clock = fx.Clock()
    store = DuckDBEventStore(path, clock=clock)
    projector = projections.attach(store)
    fx.load(store, clock, {k: fx.GAMES[k] for k in "AB"})
    assert projector.wait_idle(10)
    projector.close()  # from here on, nobody projects
    fx.load(store, clock, {k: fx.GAMES[k] for k in "CDE"})
    store.close()
    store = DuckDBEventStore(path, clock=clock)
    projector = projections.attach(store, background=False)  # catches up on start
    conn = store.reader()
    caught_up = snapshot(conn)
    assert len(caught_up["proj_games"]) == 5
    projector.rebuild()
    assert snapshot(conn) == caught_up
    conn.close()
    projector.close()
    store.close()


def test_two_projectors_never_duplicate_rows():
    clock = fx.Clock()
    store = DuckDBEventStore(":memory:", clock=clock)
    fx.load(store, clock)
    store.migrate(*projections.system_chains())  # the registered systems' own tables, as attach() makes them
    first, second = projections.Projector(store), projections.Projector(store)
    first.catch_up()
    assert second.catch_up() == 0
    conn = store.reader()
    assert conn.execute("SELECT count(*) FROM low_placements").fetchone()[0] == 14
    conn.close()
    first.close()
    second.close()
    store.close()


def test_a_finished_game_that_gets_events_again_is_rewritten_not_doubled():
    clock = fx.Clock()
    store = DuckDBEventStore(":memory:", clock=clock)
    fx.load(store, clock, {k: fx.GAMES[k] for k in "AB"})
    projector = projections.attach(store, background=False)
    store.append("B", fx.encode("B", fx.GAME_B + [fx.GAME_B[-1]])[-1:])  # the store allows it; the rules never do
    projector.catch_up()
    conn = store.reader()
    after = snapshot(conn)
    assert conn.execute("SELECT sum(placements) FROM low_card_daily").fetchone()[0] == 5 + 4
    projector.rebuild()
    assert snapshot(conn) == after
    conn.close()
    projector.close()
    store.close()


def test_projections_after_kill_9_catch_up_to_exactly_the_rebuild(tmp_path):
    import os
    import signal
    import subprocess
    import time

    path = tmp_path / "killed.duckdb"
    root = Path(__file__).parents[2]
    process = subprocess.Popen(
        [sys.executable, str(Path(__file__).parent / "projection_kill_target.py"), str(path)],
        cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    try:
        finished = [process.stdout.readline() for _ in range(12)]  # 12 whole games acknowledged...
        time.sleep(0.05)  # ...and the 13th mid-way, the projector busy: kill -9
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert all(line.startswith("k") for line in finished), process.stderr.read()
    store = DuckDBEventStore(path)
    projector = projections.attach(store, background=False)  # catches up what the kill left behind
    conn = store.reader()
    caught_up = snapshot(conn)
    assert len(caught_up["proj_games"]) >= 12
    assert projector.lag() == (0, 0)
    projector.rebuild()
    assert snapshot(conn) == caught_up  # nothing lost, nothing twice
    conn.close()
    projector.close()
    store.close()


def record_passes(projector) -> list[list[str]]:
    """The games of each pass the projector makes from now on (sorted), in order."""
    passes: list[list[str]] = []
    real_catch_up = projector.catch_up

    def recording(game_ids=None):
        passes.append(sorted(game_ids or ()))
        return real_catch_up(game_ids)

    projector.catch_up = recording
    return passes


def test_the_background_projector_coalesces_commits_into_few_passes_and_stays_exactly_once():
    clock = fx.Clock()
    store = DuckDBEventStore(":memory:", clock=clock)
    projector = projections.attach(store, interval=0.2, game_interval=0.6)
    passes = record_passes(projector)
    try:
        started = time.monotonic()
        commits = 0
        for seed in range(4):
            encoded = fx.encode(f"c{seed}", play_bot_game(seed, armies=("orcs", "dwarves")))
            store.create_game(f"c{seed}", "lords-of-war", [], {}, encoded[:3])
            commits += 1
            for i in range(3, len(encoded), 2):
                store.append(f"c{seed}", encoded[i : i + 2])
                commits += 1
                time.sleep(0.002)
        deadline = time.monotonic() + 20
        while projector.lag() != (0, 0) and time.monotonic() < deadline:  # no wait_idle: the intervals alone
            time.sleep(0.05)
        assert projector.lag() == (0, 0)
        assert projector.wait_idle(10)  # and the pass's Elo sync (after the checkpoints) is done
        elapsed = time.monotonic() - started
        assert projector.errors == []
        assert 1 <= len(passes) < commits / 4  # many commits per pass
        for seed in range(4):  # each game at most once per game_interval
            assert sum(f"c{seed}" in p for p in passes) <= elapsed / 0.6 + 2
        conn = store.reader()
        incremental = snapshot(conn)
        assert len(incremental["proj_games"]) == 4
        projector.rebuild()
        assert snapshot(conn) == incremental  # nothing lost, nothing twice
        conn.close()
    finally:
        projector.close()
        store.close()


def test_a_background_pass_takes_at_most_its_quota_the_longest_waiting_first(monkeypatch):
    monkeypatch.setattr(projections, "BACKGROUND_QUOTA", 3)
    monkeypatch.setattr(projections, "BACKGROUND_PAGE", 2)
    store = DuckDBEventStore(":memory:", clock=fx.Clock())
    projector = projections.attach(store, interval=0.05, game_interval=0.5)
    passes = record_passes(projector)
    try:
        ids = [f"q{n:02d}" for n in range(10)]
        games = []
        for game_id in ids:
            encoded = fx.encode(game_id, play_bot_game(1, armies=("orcs", "dwarves")))[:5]
            games.append(BulkGame(game_id, "lords-of-war", [], {}, None, [e.type for e in encoded],
                                  [e.schema_version for e in encoded], [e.payload.decode() for e in encoded],
                                  [e.hash for e in encoded]))
        store.create_games_bulk(games)  # one commit: the projector learns of all ten at once, in this order
        deadline = time.monotonic() + 20
        while projector.lag() != (0, 0) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert projector.lag() == (0, 0)
        assert projector.errors == []
        assert len(passes) >= 4 and all(len(p) <= 3 for p in passes)
        assert sorted(game_id for p in passes for game_id in p) == ids  # each exactly once
        assert passes[0] == ids[:3]  # the longest waiting first
    finally:
        projector.close()
        store.close()


def test_wait_idle_does_not_wait_for_the_interval():
    clock = fx.Clock()
    store = DuckDBEventStore(":memory:", clock=clock)
    projector = projections.attach(store, interval=60)
    try:
        fx.load(store, clock, {k: fx.GAMES[k] for k in "AB"}, step=1)
        started = time.monotonic()
        assert projector.wait_idle(10)
        assert time.monotonic() - started < 5  # not the 60 s interval
        assert projector.lag() == (0, 0)
    finally:
        projector.close()
        store.close()


def test_close_with_a_backlog_stops_within_its_budget_and_the_next_start_catches_up():
    store = DuckDBEventStore(":memory:", clock=fx.Clock())
    projector = projections.attach(store, interval=3600)  # one pass at once, then none for an hour: a backlog
    events = play_bot_game(3, armies=("orcs", "dwarves"))
    games = []
    for n in range(100):
        encoded = fx.encode(f"b{n:03d}", events)
        games.append(BulkGame(f"b{n:03d}", "lords-of-war", [], {}, None, [e.type for e in encoded],
                              [e.schema_version for e in encoded], [e.payload.decode() for e in encoded],
                              [e.hash for e in encoded]))
    try:
        store.create_games_bulk(games)
        # the first pass takes its quota (the rest waits for the interval): wait until it has projected a page
        deadline = time.monotonic() + 60
        while projector.lag()[0] == 100 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert projector.lag()[0] < 100, "the first pass projected nothing in 60 s"
        started = time.monotonic()
        projector.close(budget=0.1)
        took = time.monotonic() - started
        left, _ = projector.lag()
        # stopped early, between pages: games are left (the proof, whatever the machine's load); the time bound only
        # catches a close that hangs (all 100 take ~1.5 s on a quiet machine, 2+ s beside other work)
        assert 0 < left < 100 and took < 30, (took, left)
        projector = projections.attach(store, background=False)  # the next start
        assert projector.lag() == (0, 0)
        conn = store.reader()
        once = snapshot(conn)
        projector.rebuild()
        assert snapshot(conn) == once  # exactly once across the early stop
        conn.close()
    finally:
        projector.close()
        store.close()
