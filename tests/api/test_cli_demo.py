"""``warlog demo`` and record import from the user's side (issue 12: the replay layers through the protocols).

- Every seat of a demo game has its own name: mirror games (both seats the same faction) used to give both bots the
  same name ("Dwarves bot"), a game against oneself that ratings never count.
- ``--system`` and ``--players`` (the contract's ``warlog demo [--system S] [--players N] --games N``): an unknown
  system or a seat count the system does not allow is a one-line error naming what is allowed, exit 2.
- A text record without a ``[System "..."]`` tag is refused, naming the known systems (it used to be read as
  Lords of War).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.api.records_helpers import warlog


def _game_ids(db: Path) -> list[str]:
    listed = warlog("sql", "SELECT game_id FROM games ORDER BY created_at, game_id", "--json", "--db", str(db))
    assert listed.returncode == 0, listed.stderr
    return [row["game_id"] for row in json.loads(listed.stdout)]


def test_demo_mirror_games_have_two_named_seats_and_are_rated(tmp_path: Path) -> None:
    db = tmp_path / "d.duckdb"
    done = warlog("demo", "--games", "1", "--db", str(db))  # game 0: the first faction against itself
    assert done.returncode == 0, done.stderr
    record = warlog("export", _game_ids(db)[0], "--db", str(db)).stdout
    names = [line for line in record.splitlines() if line.startswith(("[P1 ", "[P2 "))]
    assert len(names) == 2 and len({line.split(" ", 1)[1] for line in names}) == 2, names
    army = [line for line in record.splitlines() if line.startswith(("[P1Army ", "[P2Army "))]
    assert len({line.split(" ", 1)[1] for line in army}) == 1, army  # it is a mirror game
    ratings = warlog("stats", "ratings", "--json", "--db", str(db))
    assert ratings.returncode == 0, ratings.stderr
    assert len(json.loads(ratings.stdout)["rows"]) == 2  # both seats rated


def test_demo_system_and_players_options(tmp_path: Path) -> None:
    db = tmp_path / "d.duckdb"
    unknown = warlog("demo", "--system", "chess", "--games", "1", "--db", str(db))
    assert unknown.returncode == 2
    assert "unknown game system 'chess'" in unknown.stderr and "lords-of-war" in unknown.stderr
    assert "Traceback" not in unknown.stderr
    crowded = warlog("demo", "--system", "lords-of-war", "--players", "5", "--games", "1", "--db", str(db))
    assert crowded.returncode == 2
    assert "5" in crowded.stderr and "2, 3, 4 or 6" in crowded.stderr and "Traceback" not in crowded.stderr
    assert not db.exists() or _game_ids(db) == []  # nothing recorded
    done = warlog("demo", "--system", "lords-of-war", "--players", "2", "--games", "2", "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert "recorded 2 lords-of-war bot games" in done.stdout
    assert len(_game_ids(db)) == 2


def test_import_of_a_record_without_a_system_tag_names_the_known_systems(tmp_path: Path) -> None:
    db = tmp_path / "d.duckdb"
    assert warlog("demo", "--games", "1", "--db", str(db)).returncode == 0
    record = warlog("export", _game_ids(db)[0], "--db", str(db)).stdout
    lines = record.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("[System "))
    untagged = tmp_path / "untagged.record"
    untagged.write_text("\n".join(lines[:at] + lines[at + 1 :]) + "\n")
    target = tmp_path / "t.duckdb"
    refused = warlog("import", str(untagged), "--db", str(target))
    assert refused.returncode == 1
    assert f"{untagged}:1: missing_system:" in refused.stderr
    assert "lords-of-war" in refused.stderr and "[System" in refused.stderr
    assert "imported as" not in refused.stdout


def test_export_and_replay_in_a_seats_view(tmp_path: Path) -> None:
    """A seat's view of a stored game (``--view p1``): the game's seats come from its system, not from the listing's
    player names (the check refused every seat: "unknown view 'p1': one of all, spectator, Dwarves bot")."""
    db = tmp_path / "d.duckdb"
    assert warlog("demo", "--games", "1", "--db", str(db)).returncode == 0
    game_id = _game_ids(db)[0]
    mine = warlog("export", game_id, "--view", "p1", "--db", str(db))
    assert mine.returncode == 0, mine.stderr
    everything = warlog("export", game_id, "--db", str(db)).stdout
    assert '[Seed "?"]' in mine.stdout and '[Seed "?"]' not in everything  # the seed is for `all` only
    jsonl = warlog("export", game_id, "--view", "p2", "--format", "jsonl", "--db", str(db))
    assert jsonl.returncode == 0, jsonl.stderr
    drawn = [json.loads(line) for line in jsonl.stdout.splitlines() if '"card_drawn"' in line]
    assert {d["player"] for d in drawn if d["card"] is None} == {"p1"}  # p2 sees its own draws only
    assert any(d["card"] is not None for d in drawn if d["player"] == "p2")
    replayed = warlog("replay", game_id, "--view", "p2", "--db", str(db))
    assert replayed.returncode == 0, replayed.stderr
    assert "view p2" in replayed.stdout
    nobody = warlog("export", game_id, "--view", "p3", "--db", str(db))
    assert nobody.returncode == 2 and "unknown view 'p3': one of all, spectator, p1, p2" in nobody.stderr


def test_a_table_game_exported_in_a_seats_view_imports_and_exports_the_same(tmp_path: Path) -> None:
    """export -> import -> export is the identity in every view that can be imported: a table-mode game (its seed
    deals nothing) exported for p1 had ``[Seed "?"]``, imported without a seed, and was exported without the tag."""
    db, other = tmp_path / "d.duckdb", tmp_path / "o.duckdb"
    assert warlog("demo", "--games", "5", "--db", str(db)).returncode == 0  # game 4: table mode
    table = json.loads(warlog("sql", "SELECT game_id FROM games ORDER BY created_at, game_id", "--json", "--db",
                              str(db)).stdout)
    texts = [warlog("export", row["game_id"], "--view", "p1", "--db", str(db)).stdout for row in table]
    text = next(t for t in texts if '[Variant "table' in t)
    record = tmp_path / "p1.record"
    record.write_text(text)
    imported = warlog("import", str(record), "--db", str(other))
    assert imported.returncode == 0, imported.stderr
    copy = imported.stdout.split()[-1]
    again = warlog("export", copy, "--view", "p1", "--db", str(other)).stdout
    assert again == text


@pytest.mark.parametrize(("players", "teams"), [(3, ("solo", "allies")), (4, ("odd", "even")), (6, ("odd", "even"))])
def test_demo_records_lords_of_war_games_of_three_to_six_players(tmp_path: Path, players: int, teams) -> None:
    db = tmp_path / "d.duckdb"
    done = warlog("demo", "--system", "lords-of-war", "--players", str(players), "--games", "2", "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert "recorded 2 lords-of-war bot games" in done.stdout
    record = warlog("export", _game_ids(db)[0], "--db", str(db)).stdout
    assert f"[P{players}Army " in record and f"[P{players + 1} " not in record
    assert f'[Teams "{teams[0]}: ' in record and f"; {teams[1]}: " in record
    assert warlog("verify", "--db", str(db)).returncode == 0
    table = json.loads(warlog("stats", "teams", "--json", "--db", str(db)).stdout)  # the teams' results (§10)
    by_team: dict[str, list[int]] = {}
    for row in table["rows"]:
        assert row["variant"].startswith("three-players" if players == 3 else f"teams-{players}")
        assert row["games"] == row["wins"] + row["losses"] + row["draws"]
        by_team.setdefault(row["team"], []).append(row["games"])
    assert sorted(by_team) == sorted(teams) and sum(by_team[teams[0]]) == sum(by_team[teams[1]]) == 2
    assert sum(r["wins"] for r in table["rows"]) == 2  # one team wins each game


def test_demo_records_table_games_of_three_players_that_round_trip_as_records(tmp_path: Path) -> None:
    """§11 with more than two seats: ``demo --players N`` records every fourth game at the table; exported in a
    seat's view it imports as the same game and exports again unchanged (three players: the shared army's; four
    and six are in tests/engine/lords_of_war/test_properties_teams.py and
    tests/api/lords_of_war/test_lords_of_war_teams.py)."""
    players = 3
    db, other = tmp_path / "d.duckdb", tmp_path / "o.duckdb"
    assert warlog("demo", "--players", str(players), "--games", "4", "--db", str(db)).returncode == 0
    texts = [warlog("export", game_id, "--view", "p2", "--db", str(db)).stdout for game_id in _game_ids(db)]
    text = next(t for t in texts if '[Variant "table' in t)
    assert f"[P{players}Army " in text
    record = tmp_path / "p2.record"
    record.write_text(text)
    imported = warlog("import", str(record), "--db", str(other))
    assert imported.returncode == 0, imported.stderr
    copy = imported.stdout.split()[-1]
    assert warlog("export", copy, "--view", "p2", "--db", str(other)).stdout == text
    assert warlog("verify", "--db", str(other)).returncode == 0
