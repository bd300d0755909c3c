"""Issue 11 item 5: importing the same game twice is refused (by its events, not its id); --allow-duplicate."""

from __future__ import annotations

import json
from pathlib import Path

from tests.api.records_helpers import warlog


def _games(db: Path) -> list[str]:
    listed = warlog("sql", "SELECT game_id FROM games ORDER BY game_id", "--json", "--db", str(db))
    return [row["game_id"] for row in json.loads(listed.stdout)]


def test_import_same_record_twice_second_refused_unless_allowed(tmp_path: Path) -> None:
    a, b = tmp_path / "a.duckdb", tmp_path / "b.duckdb"
    assert warlog("demo", "--games", "2", "--db", str(a)).returncode == 0
    first, second = _games(a)
    record, jsonl = tmp_path / "g.record", tmp_path / "g.jsonl"
    record.write_text(warlog("export", first, "--db", str(a)).stdout)
    jsonl.write_text(warlog("export", first, "--format", "jsonl", "--db", str(a)).stdout)
    other = tmp_path / "other.record"
    other.write_text(warlog("export", second, "--db", str(a)).stdout)

    done = warlog("import", str(record), "--db", str(b))
    assert done.returncode == 0, done.stderr
    stored = done.stdout.split()[-1]
    # the same game again: as the record, as JSONL (same events, other format), and into the database it came from
    again = warlog("import", str(record), str(jsonl), str(other), "--db", str(b))
    assert again.returncode == 1
    assert f"{record}: not imported: the same game is already stored as {stored} (identical events); " \
           "use --allow-duplicate to store it again" in again.stderr
    assert f"{jsonl}: not imported: the same game is already stored as {stored}" in again.stderr
    assert f"{other}: imported as" in again.stdout  # a different game in the same batch still goes in
    assert len(_games(b)) == 2
    back = warlog("import", str(record), "--db", str(a))
    assert back.returncode == 1 and f"already stored as {first}" in back.stderr
    assert len(_games(a)) == 2

    allowed = warlog("import", str(record), "--allow-duplicate", "--db", str(b))
    assert allowed.returncode == 0, allowed.stderr
    assert len(_games(b)) == 3
    assert "already stored as" in warlog("import", str(jsonl), "--db", str(b)).stderr  # now as both copies
