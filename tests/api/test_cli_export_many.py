"""Issue 11 item 13: files of several games, ``warlog export --all`` / ``--tournament`` and tournament tags."""

from __future__ import annotations

from pathlib import Path

from api.auth import new_tokens
from api.cli import main
from engine.lords_of_war.bots import RandomBot
from replay.log.service import GameService
from replay.store.duckdb_store import DuckDBEventStore
from replay.tournaments.log import StoreTournamentLog
from replay.tournaments.service import TournamentService
from tests.api.records_helpers import warlog


def play_out(service: GameService, game_id: str, seed: int) -> None:
    bot = RandomBot(seed)
    while (state := service.state(game_id)[1]).phase != "over":
        service.act(game_id, bot.choose(state))


def test_export_all_then_import_a_file_of_several_games_round_trips(tmp_path: Path) -> None:
    a, b, c = (tmp_path / f"{n}.duckdb" for n in "abc")
    assert warlog("demo", "--games", "3", "--db", str(a)).returncode == 0
    everything = warlog("export", "--all", "--db", str(a))
    assert everything.returncode == 0 and everything.stdout.count('[System "lords-of-war"]') == 3
    records = tmp_path / "all.record"
    records.write_text(everything.stdout)
    imported = warlog("import", str(records), "--db", str(b))
    assert imported.returncode == 0, imported.stderr
    starts = [n for n, line in enumerate(everything.stdout.splitlines(), 1) if line.startswith("[Event ")]
    where = [line.split(": imported as")[0] for line in imported.stdout.splitlines()]
    assert where == [f"{records}:{n}" for n in starts]
    assert warlog("export", "--all", "--db", str(b)).stdout == everything.stdout  # same games, same order

    streams = tmp_path / "all.jsonl"
    streams.write_text(warlog("export", "--all", "--format", "jsonl", "--db", str(a)).stdout)
    from_jsonl = warlog("import", str(streams), "--db", str(c))
    assert from_jsonl.returncode == 0 and from_jsonl.stdout.count("imported as") == 3

    # a broken game in the middle: reported with its line in the file, the others are imported
    lines = everything.stdout.splitlines()
    bad = next(n for n in range(starts[1], starts[2]) if lines[n - 1].startswith("1. p1 "))
    lines[bad - 1] = "1. p1 " + lines[bad - 1].split()[2].split("@")[0] + "@G6 draw"
    records.write_text("\n".join(lines) + "\n")
    again = warlog("import", str(records), "--allow-duplicate", "--db", str(b))
    assert again.returncode == 1
    assert f"{records}:{bad}: contact:" in again.stderr
    assert again.stdout.count("imported as") == 2

    assert main(["export", "--db", str(a)]) == 2  # nothing chosen: a usage error
    assert main(["export", "--tournament", "nope", "--db", str(a)]) == 1


def test_export_tournament_carries_event_round_table_and_round_trips(tmp_path: Path) -> None:
    db, other = tmp_path / "t.duckdb", tmp_path / "u.duckdb"
    store = DuckDBEventStore(db)
    log = StoreTournamentLog(store)
    try:
        service = GameService(store)
        tournaments = TournamentService(log, service)
        tid = tournaments.create("Leeds Winter Open", "lords-of-war", "swiss", 1, {}, "organiser")
        for who, army in (("ann", "orcs"), ("bob", "dwarves"), ("cy", "elves"), ("di", "undead")):
            tournaments.register(tid, who, who.title(), army)
        started = tournaments.start_round(tid, new_tokens)
        for n, table in enumerate(started.tables):
            play_out(service, table.game_id, n)
        service.create_game({"system": "lords-of-war", "players": [{"id": "p1", "army": "orcs"},
                                                                    {"id": "p2", "army": "elves"}], "seed": 3})
    finally:
        log.close()
        store.close()

    exported = warlog("export", "--tournament", tid, "--db", str(db))
    assert exported.returncode == 0, exported.stderr
    text = exported.stdout
    assert text.count('[Event "Leeds Winter Open"]') == 2 and tid not in text  # the name, not the id
    assert '[Round "1"]\n[Table "1"]' in text and '[Round "1"]\n[Table "2"]' in text
    assert text.count("[System ") == 2  # only the tournament's games
    (tmp_path / "t.record").write_text(text)
    assert warlog("import", str(tmp_path / "t.record"), "--db", str(other)).returncode == 0
    assert warlog("export", "--all", "--db", str(other)).stdout == text  # the tags travel with the games
