from __future__ import annotations

import duckdb
import msgspec

from engine.lords_of_war.bots import play_bot_game
from events.lords_of_war import Eliminated, Placed, Recalled
from replay.archive.games import store_events
from replay.log.service import GameService
from replay.log.verify import verify_all, verify_game
from replay.store.base import NewEvent
from replay.store.duckdb_store import DuckDBEventStore
from replay.store.memory_store import MemoryEventStore

LOW = "lords-of-war"


def test_verify_a_game_stored_by_the_rules_has_no_divergence():
    service = GameService(MemoryEventStore())
    for seed, variant in enumerate([{}, {"intermediate": True}, {"mode": "table"}, {"unbounded": True}]):
        store_events(service, LOW, play_bot_game(seed, variant=variant), f"g{seed}")
    results = dict(verify_all(service))
    assert sorted(results) == ["g0", "g1", "g2", "g3"]
    assert all(found == [] for found in results.values())


def test_verify_finds_a_tampered_payload_in_the_database(tmp_path):
    path = tmp_path / "w.duckdb"
    store = DuckDBEventStore(path)
    service = GameService(store)
    events = play_bot_game(5)
    store_events(service, LOW, events, "g")
    store.close()
    seq = next(i + 1 for i, e in enumerate(events) if isinstance(e, Eliminated))
    conn = duckdb.connect(str(path))
    payload = conn.execute("SELECT payload FROM events WHERE game_id = 'g' AND seq = ?", [seq]).fetchone()[0]
    tampered = payload.replace('"damage":', '"damage":1', 1)
    conn.execute("UPDATE stream_events SET payload = ? WHERE stream_id = 'g' AND seq = ?", [tampered, seq])
    conn.close()
    store = DuckDBEventStore(path)
    try:
        found = verify_game(GameService(store), "g")
    finally:
        store.close()
    kinds = {(d.seq, d.kind) for d in found}
    assert (seq, "chain") in kinds  # the row no longer matches its hash
    assert (seq, "rules") in kinds  # and today's rules give other damage
    assert all(d.seq == seq for d in found)


def test_verify_reports_events_written_around_the_rules():
    service = GameService(MemoryEventStore())
    events = play_bot_game(8)
    i = next(i for i, e in enumerate(events) if isinstance(e, Placed) and e.basis == "contact")
    forged = list(events)
    forged[i] = msgspec.structs.replace(events[i], basis="support")  # a well-chained stream the rules never decided
    store_events(service, LOW, forged, "forged")
    found = verify_game(service, "forged")
    assert [(d.seq, d.kind) for d in found] == [(i + 1, "rules")]
    assert '"basis":"support"' in found[0].message and '"basis":"contact"' in found[0].message


def test_verify_reports_a_stream_that_cannot_be_replayed():
    service = GameService(MemoryEventStore())
    events = play_bot_game(8)
    i = next(i for i, e in enumerate(events) if isinstance(e, Placed) and not e.challenge)
    forged = list(events)
    forged[i] = msgspec.structs.replace(events[i], square="A1" if events[i].square != "A1" else "G6")
    store_events(service, LOW, forged, "forged")
    found = verify_game(service, "forged")
    assert found[0].seq == i + 1 and found[0].kind == "rules"
    assert found[-1].kind in ("rules", "corrupt")


def test_verify_an_old_game_still_replays_as_recorded():
    # A stored outcome that differs from today's rules (as after a rules change) folds exactly as stored.
    service = GameService(MemoryEventStore())
    events = play_bot_game(12)
    i = next(i for i, e in enumerate(events) if isinstance(e, Eliminated))
    old = list(events)
    unit = msgspec.structs.replace(old[i].units[0], damage=old[i].units[0].damage + 1)
    old[i] = msgspec.structs.replace(old[i], units=(unit,) + old[i].units[1:])
    store_events(service, LOW, old, "old")
    found = verify_game(service, "old")
    assert [(d.seq, d.kind) for d in found] == [(i + 1, "rules")]
    assert service.state("old")[1] == service.system_of("old").fold(old)


def test_verify_reports_events_that_evolve_cannot_apply():
    # A recall from an empty square: no rule decided it and evolve (which trusts its input) cannot apply it.
    service = GameService(MemoryEventStore())
    events = next(e for e in (play_bot_game(seed) for seed in range(40)) if any(isinstance(x, Recalled) for x in e))
    i = next(i for i, e in enumerate(events) if isinstance(e, Recalled))
    occupied = {u["square"] for u in service_state_board(events[:i])}
    empty = next(f"{c}{r}" for r in "16" for c in "ABCDEFG" if f"{c}{r}" not in occupied)
    forged = list(events)
    forged[i] = msgspec.structs.replace(events[i], square=empty)
    store_events(service, LOW, forged[:i + 1], "forged")
    found = verify_game(service, "forged")
    assert found[-1].seq == i + 1 and found[-1].kind == "corrupt"
    assert "cannot be replayed" in found[-1].message


def test_verify_reports_a_stream_without_game_started():
    service = GameService(MemoryEventStore())
    events = play_bot_game(3)
    service.store.create_game("headless", LOW, ["a"], {}, [])
    service.store.append("headless", [
        NewEvent(type=type(e).tag_name(), schema_version=1, payload=msgspec.json.encode(e)) for e in events[1:4]
    ])
    found = [d for d in verify_game(service, "headless") if d.kind == "corrupt"]
    assert [(d.seq, d.message) for d in found] == [(1, "the stream does not start with game_started")]


def service_state_board(events):
    from engine.systems import get_system

    system = get_system(LOW)
    return system.state_to_builtins(system.fold(events))["board"]
