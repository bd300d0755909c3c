"""Issue 11 item 1: a database filled by ``warlog import`` must serve, and every statistic must answer on it.

The crash: a game whose two seats are both called "Dwarves bot" (``warlog demo --games 2``'s first game was one,
until demo named its seats apart), a game against oneself that Elo does not rate. A database whose finished games
are all unrated made the rating pass's player lists NULL, and ``warlog serve`` died in its start-up catch-up. No
test had started the server (or any statistic) on an imported database, nor on one without a rated game: this one
does both, from the user's side."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from api.cli import main
from tests.api.records_helpers import warlog
from tests.serving import serving

STATS = ("armies", "matchups", "first-player", "game-length", "end-reasons", "cards", "heatmap", "ratings",
         "head-to-head")


def test_import_then_serve_answers_every_statistic(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b, record = tmp_path / "a.duckdb", tmp_path / "b.duckdb", tmp_path / "g.record"
    assert warlog("demo", "--games", "2", "--db", str(a)).returncode == 0
    listed = warlog("sql", "SELECT game_id FROM games ORDER BY created_at, game_id", "--json", "--db", str(a))
    game_id = json.loads(listed.stdout)[0]["game_id"]
    exported = warlog("export", game_id, "--format", "record", "--db", str(a))
    assert exported.returncode == 0, exported.stderr
    assert '[P1 "Dwarves bot"]' in exported.stdout and '[P2 "Dwarves bot p2"]' in exported.stdout  # a mirror game
    # the unrated case: both seats under one name (demo names its seats apart since issue 12; a person may not)
    record.write_text(exported.stdout.replace('[P2 "Dwarves bot p2"]', '[P2 "Dwarves bot"]'))
    imported = warlog("import", str(record), "--db", str(b))
    assert imported.returncode == 0, imported.stderr

    with serving(b) as http:
        for name in STATS:
            response = http.get(f"/stats/{name}")
            assert response.status_code == 200, (name, response.text)
        assert http.get("/stats/game-length").json()["games"] == 1
        assert http.get("/stats/ratings").json()["rows"] == []  # a game against oneself is not rated
        history = http.get("/stats/ratings/Dwarves bot/history")
        assert history.status_code == 200 and history.json()["rows"] == []
        assert [g["id"] for g in http.get("/games").json()["games"]] == [imported.stdout.split()[-1]]

    for name in (*STATS, "rating-history"):
        extra = ["--player", "Dwarves bot"] if name == "rating-history" else []
        assert main(["stats", name, "--json", "--db", str(b), *extra]) == 0, name
        assert json.loads(capsys.readouterr().out)["filters"]["system"] == "lords-of-war"
