"""From the user's side, the command line: ``warlog demo --system art-of-war`` records bot games that ``warlog
verify`` finds sound, ``warlog export`` writes as a record that ``warlog import`` reads back, ``warlog stats``
counts with Art of War's own statistics."""

from __future__ import annotations

import json
from pathlib import Path

from tests.api.records_helpers import warlog


def test_demo_verify_export_import_and_stats_of_art_of_war(tmp_path: Path) -> None:
    db = tmp_path / "aow.duckdb"
    done = warlog("demo", "--system", "art-of-war", "--games", "3", "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert "recorded 3 art-of-war bot games" in done.stdout
    checked = warlog("verify", "--db", str(db))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    listed = warlog("sql", "SELECT game_id FROM games ORDER BY created_at, game_id", "--json", "--db", str(db))
    ids = [row["game_id"] for row in json.loads(listed.stdout)]
    text = warlog("export", ids[0], "--db", str(db)).stdout
    assert '[System "art-of-war"]' in text and "deploy:" in text
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    imported = warlog("import", str(path), "--db", str(tmp_path / "other.duckdb"))
    assert imported.returncode == 0, imported.stderr
    stats = warlog("stats", "end-reasons", "--system", "art-of-war", "--json", "--db", str(db))
    assert stats.returncode == 0, stats.stderr
    assert sum(row["games"] for row in json.loads(stats.stdout)["rows"]) == 3
