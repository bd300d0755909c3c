"""Bulk import: games imported in bulk equal the same games played through GameService; bad records are refused."""

from __future__ import annotations

import itertools
import sys

import msgspec
import pytest

from engine.systems import get_system
from replay.archive.bulk import (
    ImportGame,
    ImportRejected,
    bulk_import,
    bulk_import_jsonl,
    prepare,
    read_jsonl,
    validate,
    validation_mode,
)
from replay.errors import GameExists
from replay.log.demo import demo_setup, lineups, record_bot_game
from replay.log.service import GameService
from replay.store.duckdb_store import DuckDBEventStore
from replay.store.memory_store import MemoryEventStore

GAMES = 6


@pytest.fixture(scope="module")
def played():
    """Bot games recorded through the one write path, and their export as import lines."""
    ids = (f"game-{n}" for n in itertools.count())
    store = MemoryEventStore()
    service = GameService(store, new_id=lambda: next(ids))
    table = lineups(get_system("lords-of-war"), 2)
    games = [
        record_bot_game(service, demo_setup(i, 40), bots=table[i % len(table)], metadata={"source": "t"})
        for i in range(GAMES)
    ]
    lines = []
    for game in games:
        record = store.get_game(game.game_id)
        lines.append(
            ImportGame(
                game.game_id, record.system, record.players,
                [msgspec.Raw(e.payload) for e in store.read(game.game_id)], metadata={"source": "t"},
            )
        )
    yield store, lines
    store.close()


@pytest.fixture(params=["memory", "duckdb"])
def target(request, tmp_path):
    store = MemoryEventStore() if request.param == "memory" else DuckDBEventStore(str(tmp_path / "b.duckdb"))
    yield store
    store.close()


def rows(store, game_id):
    return [(e.seq, e.type, e.schema_version, e.payload, e.hash) for e in store.read(game_id)]


def test_bulk_import_equals_games_stored_through_the_service(played, target):
    source, lines = played
    report = bulk_import(target, lines, batch_games=4)  # two batches: 4 + 2
    assert report.validation == validation_mode(get_system("lords-of-war"))
    assert report.games == GAMES
    assert report.events == sum(len(line.events) for line in lines)
    for line in lines:
        assert rows(target, line.game_id) == rows(source, line.game_id)
        imported, original = target.get_game(line.game_id), source.get_game(line.game_id)
        assert imported.players == original.players
        assert imported.metadata == original.metadata  # {"source": ...} plus the outcome the service noted
        assert imported.last_seq == original.last_seq


def test_bulk_import_reads_jsonl(played, tmp_path):
    _, lines = played
    path = tmp_path / "games.jsonl"
    path.write_bytes(b"".join(msgspec.json.encode(line) + b"\n" for line in lines))
    assert list(read_jsonl(path)) == lines


def test_bulk_import_rejects_a_game_that_does_not_fold_and_stores_nothing_of_its_batch(played, target):
    _, lines = played
    good = lines[0]
    # the first event is not game_started: evolve would act on a state that never started
    shuffled = msgspec.structs.replace(lines[1], events=lines[1].events[1:])
    with pytest.raises(ImportRejected) as info:
        bulk_import(target, [good, shuffled], batch_games=10)
    assert info.value.game_id == lines[1].game_id
    assert target.list_games().games == []


def test_bulk_import_rejects_an_unknown_event(played, target):
    _, lines = played
    bad = msgspec.structs.replace(lines[0], events=[*lines[0].events, msgspec.Raw(b'{"type":"teleported"}')])
    with pytest.raises(ImportRejected, match="does not decode"):
        bulk_import(target, [bad])


def test_bulk_import_is_all_or_nothing_when_an_id_is_taken(played, tmp_path):
    _, lines = played
    store = DuckDBEventStore(str(tmp_path / "taken.duckdb"))
    try:
        bulk_import(store, lines[:1])
        with pytest.raises(GameExists):
            bulk_import(store, lines[:3], batch_games=10)
        assert [g.game_id for g in store.list_games().games] == [lines[0].game_id]
    finally:
        store.close()


def test_bulk_import_without_pyarrow_stores_the_same_rows(played, tmp_path, monkeypatch):
    source, lines = played
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow -> ImportError
    store = DuckDBEventStore(str(tmp_path / "plain.duckdb"))
    try:
        bulk_import(store, lines)
        for line in lines:
            assert rows(store, line.game_id) == rows(source, line.game_id)
    finally:
        store.close()


def test_bulk_import_rejects_a_drawn_card_the_deck_did_not_hold_on_top(played, target):
    _, lines = played
    events = list(lines[0].events)
    i = next(i for i, raw in enumerate(events) if b'"card_drawn"' in bytes(raw) and b'"card":null' not in bytes(raw))
    drawn = msgspec.json.decode(bytes(events[i]))
    others = [bytes(raw) for raw in events if b'"placed"' in bytes(raw)]
    placed_cards = [msgspec.json.decode(raw)["card"] for raw in others]
    other_card = next(card for card in placed_cards if card != drawn["card"])
    events[i] = msgspec.Raw(msgspec.json.encode({**drawn, "card": other_card}))
    with pytest.raises(ImportRejected, match="differ from what the rules give"):
        bulk_import(target, [msgspec.structs.replace(lines[0], events=events)])
    assert target.list_games().games == []


def _decoded(line):
    return [msgspec.json.decode(bytes(raw)) for raw in line.events]


def _with(line, events):
    return msgspec.structs.replace(line, events=[msgspec.Raw(msgspec.json.encode(e)) for e in events])


def test_bulk_import_rejects_an_illegal_move_with_the_rule_it_breaks(played, target):
    _, lines = played
    events = _decoded(lines[0])
    i = next(i for i, e in enumerate(events) if e["type"] == "placed")
    events[i] = {**events[i], "card": "no-such-card"}  # a card the player does not hold
    with pytest.raises(ImportRejected, match=rf"^game '{lines[0].game_id}' rejected: event {i + 1}: .*\(.*\)$"):
        bulk_import(target, [_with(lines[0], events)])
    assert target.list_games().games == []


def test_bulk_import_rejects_an_event_no_action_produced(played, target):
    _, lines = played
    events = _decoded(lines[0])
    dealt = next(e for e in events if e["type"] == "hand_dealt")
    opening = next(i for i, e in enumerate(events) if e["type"] not in ("game_started", "hand_dealt"))
    events.insert(opening, dealt)  # one more deal after the opening the setup gives
    with pytest.raises(ImportRejected, match="not the start of an action"):
        bulk_import(target, [_with(lines[0], events)])
    assert target.list_games().games == []


def test_bulk_import_rejects_a_stream_no_actions_can_produce(played, target):
    _, lines = played
    events = _decoded(lines[0])
    opening = next(i for i, e in enumerate(events) if e["type"] not in ("game_started", "hand_dealt"))
    events.insert(opening, {"type": "extra_turn_granted", "player": "p1"})  # a consequence with no action before it
    with pytest.raises(ImportRejected, match="not a game's record: event .*does not start an action"):
        bulk_import(target, [_with(lines[0], events)])
    assert target.list_games().games == []


def test_bulk_validate_returns_the_final_state_fold_gives(played):
    _, lines = played
    system = get_system("lords-of-war")
    for line in lines:
        events = [system.codec.decode_json(bytes(raw)) for raw in line.events]
        assert validate(system, line.game_id, events) == system.fold(events)
        assert validate(system, line.game_id, events, redecide=False) == system.fold(events)


def test_bulk_import_jsonl_with_worker_processes_stores_the_same_rows(played, tmp_path):
    source, lines = played
    path = tmp_path / "games.jsonl"
    path.write_bytes(b"".join(msgspec.json.encode(line) + b"\n" for line in lines))
    store = DuckDBEventStore(str(tmp_path / "workers.duckdb"))
    try:
        report = bulk_import_jsonl(store, path, batch_games=2, workers=2)
        assert (report.games, report.validation) == (GAMES, validation_mode(get_system("lords-of-war")))
        for line in lines:
            assert rows(store, line.game_id) == rows(source, line.game_id)
    finally:
        store.close()


def test_bulk_import_jsonl_reports_a_rejection_from_a_worker(played, tmp_path):
    _, lines = played
    path = tmp_path / "bad.jsonl"
    bad = msgspec.structs.replace(lines[1], events=lines[1].events[1:])
    path.write_bytes(b"".join(msgspec.json.encode(line) + b"\n" for line in [lines[0], bad]))
    store = DuckDBEventStore(str(tmp_path / "bad.duckdb"))
    try:
        with pytest.raises(ImportRejected) as info:
            bulk_import_jsonl(store, path, batch_games=1, workers=2)
        assert info.value.game_id == lines[1].game_id
        assert [g.game_id for g in store.list_games().games] == [lines[0].game_id]
    finally:
        store.close()


def test_bulk_import_without_redeciding_folds_and_stores_the_same_rows(played, target):
    source, lines = played
    report = bulk_import(target, lines, redecide=False)
    assert report.validation == "fold"
    for line in lines:
        assert rows(target, line.game_id) == rows(source, line.game_id)


def test_store_memory_limit_is_applied(tmp_path):
    store = DuckDBEventStore(str(tmp_path / "limited.duckdb"), memory_limit="128MB")
    try:
        reader = store.reader()
        limit = reader.execute("SELECT current_setting('memory_limit')").fetchone()[0]
        reader.close()
        assert limit.replace(" ", "").upper() in {"128.0MIB", "128MB", "122.0MIB", "128.0MB"}, limit
    finally:
        store.close()


def test_create_games_bulk_refuses_a_payload_that_is_not_json_and_stores_nothing(played, tmp_path):
    _, lines = played
    store = DuckDBEventStore(str(tmp_path / "json.duckdb"))
    try:
        good = prepare(lines[0])
        bad = msgspec.structs.replace(prepare(lines[1]), payloads=["{not json", *prepare(lines[1]).payloads[1:]])
        with pytest.raises(ValueError, match="not valid JSON"):
            store.create_games_bulk([good, bad])
        assert store.list_games().games == []
    finally:
        store.close()


def test_bulk_import_refuses_a_player_name_with_a_control_character(played):
    _, lines = played
    game = lines[0]
    first = msgspec.json.decode(game.events[0])
    first["players"][0]["name"] = "Ali\nce"
    renamed = msgspec.Raw(msgspec.json.encode(first))
    bad = ImportGame(game.game_id, game.system, game.players, [renamed, *game.events[1:]])
    with pytest.raises(ImportRejected) as refused:
        prepare(bad)
    assert "control character (U+000A)" in refused.value.reason


@pytest.mark.parametrize("workers", [1, 2])
def test_bulk_import_jsonl_refuses_a_deeply_nested_line_by_its_number(played, tmp_path, workers):
    """Issue 28 item 18: a line nested 100,000 levels deep raised RecursionError out of the import; it is an
    ``ImportRejected`` naming its line (blank lines counted), and the batches before it stay stored."""
    _, lines = played
    path = tmp_path / "deep.jsonl"
    encoded = [msgspec.json.encode(line) for line in lines[:3]]
    deep = b'{"game_id": "deep", "events": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    path.write_bytes(b"\n".join([encoded[0], encoded[1], b"", deep, encoded[2]]) + b"\n")
    store = DuckDBEventStore(str(tmp_path / f"deep{workers}.duckdb"))
    try:
        with pytest.raises(ImportRejected) as info:
            bulk_import_jsonl(store, path, batch_games=2, workers=workers)
        assert str(info.value) == "line 4 rejected: it is nested too deeply to read"
        assert [g.game_id for g in store.list_games().games] == [lines[0].game_id, lines[1].game_id]
    finally:
        store.close()
