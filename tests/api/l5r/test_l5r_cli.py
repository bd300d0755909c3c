"""From the user's side, the command line: ``warlog demo --system l5r`` records bot games that ``warlog verify``
finds sound, ``warlog export`` writes as a record that ``warlog import`` reads back, ``warlog stats`` counts with
L5R's own statistics, and a tournament takes ``--l5r-army``."""

from __future__ import annotations

import json
from pathlib import Path

from tests.api.records_helpers import warlog


def test_demo_verify_export_import_and_stats_of_l5r(tmp_path: Path) -> None:
    db = tmp_path / "l5r.duckdb"
    done = warlog("demo", "--system", "l5r", "--games", "3", "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert "recorded 3 l5r bot games" in done.stdout
    checked = warlog("verify", "--db", str(db))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    listed = warlog("sql", "SELECT game_id FROM games ORDER BY created_at, game_id", "--json", "--db", str(db))
    ids = [row["game_id"] for row in json.loads(listed.stdout)]
    text = warlog("export", ids[0], "--db", str(db)).stdout
    assert '[System "l5r"]' in text and "pass" in text
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    imported = warlog("import", str(path), "--db", str(tmp_path / "other.duckdb"))
    assert imported.returncode == 0, imported.stderr
    stats = warlog("stats", "l5r-victories", "--system", "l5r", "--json", "--db", str(db))
    assert stats.returncode == 0, stats.stderr
    assert sum(row["wins"] for row in json.loads(stats.stdout)["rows"]) == 3


def test_an_l5r_tournament_from_the_console_with_sample_decks(tmp_path: Path) -> None:
    db = str(tmp_path / "t.duckdb")
    made = warlog("tournament", "create", "--name", "Winter Court", "--rounds", "1", "--system", "l5r",
                  "--l5r-mode", "sealed", "--db", db)
    assert made.returncode == 0, made.stderr
    tournament = next(word for word in made.stdout.split() if word.startswith("t-"))
    assert warlog("tournament", "register", tournament, "ann", "--l5r-army", "lion", "--db", db).returncode == 0
    assert warlog("tournament", "register", tournament, "bob", "--l5r-army", "crane", "--db", db).returncode == 0
    wrong = warlog("tournament", "register", tournament, "cy", "--l5r-army", "spider", "--db", db)
    assert wrong.returncode != 0 and "Traceback" not in wrong.stderr
    seated = warlog("tournament", "round", tournament, "--db", db)
    assert seated.returncode == 0, seated.stderr
