"""From the user's side, the command line: ``warlog demo --system heroscape`` records bot games that ``warlog
verify`` finds sound, ``warlog export`` writes as a record that ``warlog import`` reads back, ``warlog stats``
counts with HeroScape's own statistics, and a tournament takes the ``--hs-*`` options."""

from __future__ import annotations

import json
from pathlib import Path

from tests.api.records_helpers import warlog


def test_demo_verify_export_import_and_stats_of_heroscape(tmp_path: Path) -> None:
    db = tmp_path / "hs.duckdb"
    done = warlog("demo", "--system", "heroscape", "--games", "3", "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert "recorded 3 heroscape bot games" in done.stdout
    crowded = warlog("demo", "--system", "heroscape", "--players", "3", "--games", "1", "--db", str(db))
    assert crowded.returncode == 2 and "Traceback" not in crowded.stderr
    checked = warlog("verify", "--db", str(db))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    listed = warlog("sql", "SELECT game_id FROM games ORDER BY created_at, game_id", "--json", "--db", str(db))
    ids = [row["game_id"] for row in json.loads(listed.stdout)]
    assert len(ids) == 3
    text = warlog("export", ids[0], "--db", str(db)).stdout
    assert '[System "heroscape"]' in text and "markers:" in text and "place:" in text
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    other = tmp_path / "other.duckdb"
    imported = warlog("import", str(path), "--db", str(other))
    assert imported.returncode == 0, imported.stderr
    cards = warlog("stats", "hs-cards", "--system", "heroscape", "--json", "--db", str(db))
    assert cards.returncode == 0, cards.stderr
    assert sum(row["seats"] for row in json.loads(cards.stdout)["rows"]) > 0
    for name in ("hs-height", "hs-leaving", "hs-glyphs"):
        shown = warlog("stats", name, "--system", "heroscape", "--db", str(db))
        assert shown.returncode == 0, shown.stderr


def test_a_heroscape_tournament_from_the_console(tmp_path: Path) -> None:
    db = str(tmp_path / "t.duckdb")
    made = warlog("tournament", "create", "--name", "Scape", "--rounds", "1", "--system", "heroscape",
                  "--hs-map", "river-ford", "--db", db)
    assert made.returncode == 0, made.stderr
    tournament = next(word for word in made.stdout.split() if word.startswith("t-"))
    assert warlog("tournament", "register", tournament, "ann", "--hs-army", "utgar", "--db", db).returncode == 0
    custom = warlog("tournament", "register", tournament, "bob", "--hs-army", "raelin,airborne-elite", "--db", db)
    assert custom.returncode == 0, custom.stderr
    seated = warlog("tournament", "round", tournament, "--db", db)
    assert seated.returncode == 0, seated.stderr


def test_demo_plays_heroscape_bot_games_on_an_imported_catalogues_map_and_armies(tmp_path: Path) -> None:
    """``warlog demo --system heroscape --catalogue ID``: the sample setups name built-in maps (twin-hill, ...);
    on a catalogue they play its map (start zones with it) and its armies (issue 30)."""
    from engine.catalogue import catalogue_id
    from tests.engine.catalogue_given import FIXTURES, sample_catalogue

    db = str(tmp_path / "hs.duckdb")
    imported = warlog("catalogue", "import", str(FIXTURES / "heroscape" / "catalogues" / "cliffside-bay.json"),
                      "--db", db)
    assert imported.returncode == 0, imported.stderr
    identity = catalogue_id(sample_catalogue("heroscape", "cliffside-bay"))
    played = warlog("demo", "--system", "heroscape", "--catalogue", identity, "--games", "2", "--db", db)
    assert played.returncode == 0, played.stderr
    assert "recorded 2 heroscape bot games" in played.stdout
    games = json.loads(warlog("games", "--json", "--db", db).stdout)
    assert [g["catalogue"] for g in games] == [identity] * 2
    assert all(g["metadata"]["status"] == "over" for g in games)
    armies = {army for g in games for army in g["metadata"]["armies"].values()}
    assert armies <= {"tideguard", "emberhost", "wildmoor"} and len(armies) >= 2
    for game in games:
        record = warlog("export", game["id"], "--db", db).stdout
        assert "Cliffside Bay" in record
    checked = warlog("verify", "--db", db)
    assert checked.returncode == 0, checked.stdout + checked.stderr
