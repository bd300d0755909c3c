"""From the user's side, the command line: ``warlog demo --system light-wars`` records bot games that ``warlog
verify`` finds sound, ``warlog export`` writes as a record that ``warlog import`` reads back, and ``warlog stats``
counts with Light Wars' own statistics."""

from __future__ import annotations

import json
from pathlib import Path

from tests.api.records_helpers import warlog


def test_demo_verify_export_import_and_stats_of_light_wars(tmp_path: Path) -> None:
    db = tmp_path / "lw.duckdb"
    done = warlog("demo", "--system", "light-wars", "--games", "3", "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert "recorded 3 light-wars bot games" in done.stdout
    crowded = warlog("demo", "--system", "light-wars", "--players", "3", "--games", "1", "--db", str(db))
    assert crowded.returncode == 2 and "Traceback" not in crowded.stderr
    checked = warlog("verify", "--db", str(db))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    listed = warlog("sql", "SELECT game_id FROM games ORDER BY created_at, game_id", "--json", "--db", str(db))
    ids = [row["game_id"] for row in json.loads(listed.stdout)]
    assert len(ids) == 3
    text = warlog("export", ids[0], "--db", str(db)).stdout
    assert '[System "light-wars"]' in text and "first:" in text
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    other = tmp_path / "other.duckdb"
    imported = warlog("import", str(path), "--db", str(other))
    assert imported.returncode == 0, imported.stderr
    stats = warlog("stats", "end-reasons", "--system", "light-wars", "--json", "--db", str(db))
    assert stats.returncode == 0, stats.stderr
    assert sum(row["games"] for row in json.loads(stats.stdout)["rows"]) == 3


def test_a_light_wars_tournament_from_the_console_with_a_sample_and_a_custom_army(tmp_path: Path) -> None:
    db = str(tmp_path / "t.duckdb")
    made = warlog("tournament", "create", "--name", "Cup", "--rounds", "1", "--system", "light-wars",
                  "--lw-size", "medium", "--lw-deployment", "screen", "--db", db)
    assert made.returncode == 0, made.stderr
    tournament = next(word for word in made.stdout.split() if word.startswith("t-"))
    assert warlog("tournament", "register", tournament, "ann", "--lw-army", "legion", "--db", db).returncode == 0
    custom = warlog("tournament", "register", tournament, "bob", "--lw-army", "king,cavalry,archer+battle-cry",
                    "--db", db)
    assert custom.returncode == 0, custom.stderr
    two_kings = warlog("tournament", "register", tournament, "cy", "--lw-army", "king,king", "--db", db)
    assert two_kings.returncode != 0 and "exactly one King" in two_kings.stderr
    seated = warlog("tournament", "round", tournament, "--db", db)
    assert seated.returncode == 0, seated.stderr
    assert "ann (p1) vs bob (p2)" in seated.stdout or "bob (p1) vs ann (p2)" in seated.stdout
