from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.lords_of_war import fold
from engine.lords_of_war.bots import play_bot_game
from replay.archive.games import store_events
from replay.log.cursor import ReplayCursor, StateCache, decode_snapshot, encode_snapshot
from replay.log.service import GameService
from replay.store.duckdb_store import DuckDBEventStore
from replay.store.memory_store import MemoryEventStore

VARIANTS = [{}, {"intermediate": True}, {"unbounded": True}, {"mode": "table"}]


def _stored(seed: int, variant: dict | None = None, store=None) -> tuple[GameService, str, list]:
    events = play_bot_game(seed, variant=variant or {})
    service = GameService(store or MemoryEventStore())
    store_events(service, "lords-of-war", events, f"g{seed}")
    return service, f"g{seed}", events


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), variant=st.sampled_from(VARIANTS), data=st.data())
def test_cursor_forward_to_n_then_back_to_k_equals_fold(seed, variant, data):
    service, game_id, events = _stored(seed, variant)
    n = data.draw(st.integers(0, len(events)))
    k = data.draw(st.integers(0, n))
    cursor = ReplayCursor(service, game_id, snapshot_every=8, cache=StateCache())
    for _ in range(n):
        cursor.step(+1)
    assert cursor.seq == n and cursor.state == fold(events[:n])
    for _ in range(n - k):
        cursor.step(-1)
    assert cursor.seq == k
    assert cursor.state == fold(events[:k])


def test_cursor_seek_anywhere_costs_at_most_k_evolves_once_snapshots_exist():
    service, game_id, events = _stored(7)
    every = 16
    ReplayCursor(service, game_id, snapshot_every=every, cache=StateCache()).last()  # builds the snapshots
    rng = random.Random(1)
    for seq in rng.sample(range(len(events) + 1), 40):
        cursor = ReplayCursor(service, game_id, snapshot_every=every, cache=StateCache())
        assert cursor.seek(seq) == fold(events[:seq])
        assert cursor.evolves < every


def test_cursor_first_last_and_clamping():
    service, game_id, events = _stored(3)
    cursor = ReplayCursor(service, game_id, cache=StateCache())
    assert cursor.last() == fold(events) and cursor.seq == len(events)
    assert cursor.event is not None and cursor.event.seq == len(events)
    cursor.step(+5)
    assert cursor.seq == len(events)
    assert cursor.first() == fold([]) and cursor.event is None
    cursor.step(-1)
    assert cursor.seq == 0


def test_cursor_stores_snapshots_and_works_without_them(tmp_path):
    store = DuckDBEventStore(tmp_path / "w.duckdb")
    try:
        service, game_id, events = _stored(11, store=store)
        ReplayCursor(service, game_id, snapshot_every=10, cache=StateCache()).last()
        found = store.get_snapshot(game_id, 25)
        assert found is not None and found[0] == 20
        assert decode_snapshot(service.system_of(game_id), found[1]) == fold(events[:20])
        cold = ReplayCursor(service, game_id, snapshot_every=10, cache=StateCache(), store_snapshots=False)
        assert cold.seek(27) == fold(events[:27]) and cold.evolves == 7
    finally:
        store.close()


def test_cursor_ignores_a_snapshot_of_another_state_shape():
    service, game_id, events = _stored(5)
    system = service.system_of(game_id)
    service.store.put_snapshot(game_id, 32, b"WLS1" + b"\x00" * 8 + b"garbage")
    cursor = ReplayCursor(service, game_id, snapshot_every=32, cache=StateCache())
    assert cursor.seek(40) == fold(events[:40])
    assert decode_snapshot(system, encode_snapshot(system, fold(events[:9]))) == fold(events[:9])
    assert decode_snapshot(system, service.store.get_snapshot(game_id, 32)[1]) == fold(events[:32])  # rebuilt
