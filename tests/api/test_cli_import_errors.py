"""Issue 11 item 11 (records and imports): control characters in player names, non-UTF-8 files, export-parquet to
a folder it cannot write."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
from fastapi.testclient import TestClient

from engine.lords_of_war.bots import play_bot_game
from events.lords_of_war import GameStarted
from replay.archive.games import store_events
from replay.log.service import GameService
from replay.store.duckdb_store import DuckDBEventStore
from tests.api.helpers import SETUP
from tests.api.records_helpers import warlog


def test_player_name_with_a_newline_is_refused_at_creation(client: TestClient) -> None:
    for name in ("Ali\nce", "Bob\t", "Cy\x1b[31m", "Di\u2028"):
        players = [{"id": "p1", "name": name, "army": "orcs"}, SETUP["players"][1]]
        refused = client.post("/games", json={**SETUP, "players": players})
        assert refused.status_code == 422, name
        error = refused.json()["error"]
        assert error["code"] == "invalid_setup" and error["reason"] == "invalid_name"
        assert "control character" in error["message"]
    assert client.get("/games").json()["games"] == []  # nothing stored
    assert client.post("/games", json=SETUP).status_code == 201  # a plain name still goes in
    cup = {"name": "Cup", "system": "lords-of-war", "format": "swiss", "rounds": 1}
    created = client.post("/tournaments", json=cup)
    organiser = {"Authorization": f"Bearer {created.json()['token']}"}
    players = f"/tournaments/{created.json()['id']}/players"
    registered = client.post(players, json={"id": "ann", "name": "Ann\nX", "army": "orcs"}, headers=organiser)
    assert registered.status_code == 422 and registered.json()["error"]["code"] == "invalid_name"
    assert client.post(players, json={"id": "ann", "name": "Ann", "army": "orcs"}, headers=organiser).status_code == 201


def test_old_game_with_a_newline_in_a_name_exports_escaped_and_import_names_the_line(tmp_path: Path) -> None:
    db = tmp_path / "old.duckdb"
    store = DuckDBEventStore(db)
    events = play_bot_game(2)
    started = events[0]
    assert isinstance(started, GameStarted)
    players = (msgspec.structs.replace(started.players[0], name="Ali\nce"), started.players[1])
    events[0] = GameStarted(**{**{f: getattr(started, f) for f in started.__struct_fields__}, "players": players})
    store_events(GameService(store), "lords-of-war", events, "old")  # stored before names were checked
    store.close()

    exported = warlog("export", "old", "--db", str(db))
    assert exported.returncode == 0
    assert '[P1 "Ali\\u000ace"]' in exported.stdout  # escaped: the tag stays one line
    p1_line = exported.stdout.splitlines().index('[P1 "Ali\\u000ace"]') + 1
    good = tmp_path / "good.record"
    good.write_text(warlog("export", "old", "--db", str(db)).stdout.replace("\\u000a", " "))
    bad = tmp_path / "bad.record"
    bad.write_text(exported.stdout)
    other = tmp_path / "other.duckdb"
    imported = warlog("import", str(bad), str(good), "--db", str(other))
    assert imported.returncode == 1
    refusal = f"{bad}:{p1_line}: invalid_name: player name 'Ali\\nce' holds a control character (U+000A)"
    assert refusal in imported.stderr
    assert "rename the player in the file" in imported.stderr
    assert f"{good}: imported as" in imported.stdout
    jsonl = tmp_path / "bad.jsonl"
    jsonl.write_text(warlog("export", "old", "--format", "jsonl", "--db", str(db)).stdout)
    from_jsonl = warlog("import", str(jsonl), "--db", str(other))
    assert from_jsonl.returncode == 1 and f"{jsonl}:1: invalid_name:" in from_jsonl.stderr


def test_import_non_utf8_file_is_reported_and_later_files_still_import(tmp_path: Path) -> None:
    db = tmp_path / "a.duckdb"
    assert warlog("demo", "--games", "1", "--db", str(db)).returncode == 0
    game_id = json.loads(warlog("sql", "SELECT game_id FROM games", "--json", "--db", str(db)).stdout)[0]["game_id"]
    good = tmp_path / "good.record"
    good.write_text(warlog("export", game_id, "--db", str(db)).stdout)
    latin1 = tmp_path / "latin1.record"
    latin1.write_bytes('[Event "Café"]\n'.encode("latin-1") + good.read_bytes())
    target = tmp_path / "b.duckdb"
    done = warlog("import", str(latin1), str(good), "--db", str(target))
    assert done.returncode == 1
    assert done.stderr.strip() == (f"{latin1}: cannot read: not UTF-8 text (byte 0xe9 at offset 11); nothing of it "
                                   "was imported")
    assert f"{good}: imported as" in done.stdout


def test_export_parquet_to_a_bad_folder_is_one_sentence_and_exit_1(tmp_path: Path) -> None:
    db = tmp_path / "a.duckdb"
    assert warlog("demo", "--games", "1", "--db", str(db)).returncode == 0
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    for folder, says in ((a_file, "is a file, not a folder"), (a_file / "sub", "cannot make the folder")):
        done = warlog("export-parquet", str(folder), "--db", str(db))
        assert done.returncode == 1
        lines = [line for line in done.stderr.splitlines() if line.startswith("warlog")]
        assert len(lines) == 1 and says in lines[0] and "Traceback" not in done.stderr


def test_import_a_deeply_nested_jsonl_line_refuses_its_file_with_the_line_and_imports_the_others(
    tmp_path: Path,
) -> None:
    """Issue 28 item 18: one line nested 100,000 levels deep aborted the whole ``warlog import`` batch with a
    RecursionError. It refuses its own file, naming the line, and the other files import."""
    db = tmp_path / "a.duckdb"
    assert warlog("demo", "--games", "1", "--db", str(db)).returncode == 0
    game_id = json.loads(warlog("sql", "SELECT game_id FROM games", "--json", "--db", str(db)).stdout)[0]["game_id"]
    good = tmp_path / "good.jsonl"
    good.write_text(warlog("export", game_id, "--format", "jsonl", "--db", str(db)).stdout)
    lines = good.read_text().splitlines()
    deep_value = "[" * 100_000 + "]" * 100_000
    deep = tmp_path / "deep.jsonl"  # the game's first event, then a line with a deep value in it
    deep.write_text("\n".join([lines[0], '{"type": "placed", "x": ' + deep_value + "}", *lines[1:]]) + "\n")
    deep_first = tmp_path / "deep-first.jsonl"
    deep_first.write_text(deep_value + "\n")
    target = tmp_path / "b.duckdb"
    done = warlog("import", str(deep), str(deep_first), str(good), "--db", str(target))
    assert done.returncode == 1, done.stderr
    assert "RecursionError" not in done.stderr and "unexpected error" not in done.stderr
    assert f"{deep}:2: bad_event: cannot read this event: it is nested too deeply" in done.stderr
    assert f"{deep_first}:1: bad_event: cannot read this event: it is nested too deeply" in done.stderr
    assert f"{good}: imported as" in done.stdout
    assert json.loads(warlog("sql", "SELECT count(*) AS n FROM games", "--json", "--db", str(target)).stdout) == [
        {"n": 1}]
