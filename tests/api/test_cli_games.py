"""Issue 28 item 23: a game's id is found without ``warlog sql``: ``warlog games`` lists the games newest first (id,
date, players, result: the winner's name, ``draw``, or ``live``; filters as ``GET /games`` has them, and
``--status live|over``), on a file, beside a running server and on PostgreSQL; ``warlog demo`` and ``warlog
import`` print the ids they stored. The CLI runs as a subprocess, as a user runs it."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from replay.store.duckdb_store import DuckDBEventStore
from tests.serving import free_port, serve, stop

ROOT = Path(__file__).resolve().parents[2]
DEMO_LINE = re.compile(r"^recorded (\S+): (p\d(\+p\d)*|draw) \((\w+)\)$")


def warlog(*args: str, columns: int = 200, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("WARLOG_")} | {
        "PYTHONPATH": str(ROOT), "COLUMNS": str(columns), **(env or {})}
    return subprocess.run([sys.executable, "-m", "api.cli", *args], cwd=ROOT, env=environment, capture_output=True,
                          text=True, timeout=120)


def ok(*args: str, columns: int = 200) -> str:
    done = warlog(*args, columns=columns)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done.stdout


def table(text: str) -> list[dict[str, str]]:
    """The rows of the printed table, by the columns its rule of dashes marks."""
    lines = text.splitlines()
    spans = [m.span() for m in re.finditer(r"-+", lines[1])]
    spans[-1] = (spans[-1][0], max(len(line) for line in lines))
    heads = [lines[0][a:b].strip() for a, b in spans]
    return [{h: line[a:b].strip() for h, (a, b) in zip(heads, spans, strict=True)} for line in lines[2:]
            if line and not line.startswith("(")]


def demo_ids(out: str) -> list[str]:
    lines = out.splitlines()
    assert lines[-1].startswith("recorded ") and " bot games into " in lines[-1]
    found = [DEMO_LINE.match(line) for line in lines[:-1]]
    assert all(found), out
    return [m.group(1) for m in found if m]


@dataclass
class Stored:
    db: Path
    demo: list[str]  # oldest first
    heroscape: str
    alice: str  # Alice vs Bob, Alice wins by concession
    drawn: str
    live: str  # Cas vs Dee, running
    tournament: str
    round_game: str  # the tournament's game, running


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Stored:
    db = tmp_path_factory.mktemp("games") / "g.duckdb"
    demo = demo_ids(ok("demo", "--games", "2", "--seed", "5", "--db", str(db)))
    heroscape = demo_ids(ok("demo", "--system", "heroscape", "--games", "1", "--db", str(db)))[0]
    setup = {"system": "lords-of-war", "players": [{"id": "p1", "name": "Alice", "army": "orcs"},
                                                   {"id": "p2", "name": "Bob", "army": "dwarves"}]}
    with TestClient(create_app(Settings(db=str(db)))) as client:
        created = client.post("/games", json=setup).json()
        keeper = {"Authorization": f"Bearer {created['tokens']['scorekeeper']}"}
        conceded = client.post(f"/games/{created['id']}/actions", headers=keeper,
                               json={"action": {"type": "concede", "player": "p2"}})
        assert conceded.status_code == 201, conceded.text
        drawn = client.post("/games", json={**setup, "players": [{**p, "name": f"{p['name']} 2"}
                                                                 for p in setup["players"]]}).json()["id"]
        live = client.post("/games", json={**setup, "players": [{"id": "p1", "name": "Cas", "army": "elves"},
                                                                {"id": "p2", "name": "Dee", "army": "undead"}]})
        service = client.app.state.service  # type: ignore[attr-defined]
        # the listing metadata GameService writes when a game ends without a winner (outcome_metadata)
        service.store.update_metadata(drawn, {"status": "over", "winner": "draw", "winners": [],
                                              "end_reason": "exhausted"})
    tournament = ok("tournament", "create", "--name", "Cup", "--rounds", "1", "--seeding", "registration",
                    "--db", str(db)).split()[1]
    for player, army in (("ann", "orcs"), ("ben", "elves")):
        ok("tournament", "register", tournament, player, "--army", army, "--db", str(db))
    started = json.loads(ok("tournament", "round", tournament, "--json", "--db", str(db)))
    return Stored(db, demo, heroscape, created["id"], drawn, live.json()["id"], tournament,
                  started["tables"][0]["game_id"])


def newest_first(stored: Stored) -> list[str]:
    return [stored.round_game, stored.live, stored.drawn, stored.alice, stored.heroscape, *reversed(stored.demo)]


def test_demo_prints_the_ids_it_stored(stored: Stored) -> None:
    store = DuckDBEventStore(str(stored.db))
    try:
        page = store.list_games(system="lords-of-war", limit=100)
    finally:
        store.close()
    demo = [g.game_id for g in page.games if g.metadata.get("source") == "demo"]
    assert demo == stored.demo and len(set(demo)) == 2


def test_cli_games_lists_the_newest_first_with_id_date_players_and_result(stored: Stored) -> None:
    rows = table(ok("games", "--db", str(stored.db)))
    assert [r["id"] for r in rows] == newest_first(stored)
    assert list(rows[0]) == ["id", "date", "players", "result", "system"]
    by_id = {r["id"]: r for r in rows}
    assert by_id[stored.alice]["players"] == "Alice vs Bob"
    assert by_id[stored.alice]["result"] == "Alice (concession)"
    assert by_id[stored.drawn]["result"] == "draw (exhausted)"
    assert by_id[stored.live]["result"] == "live" and by_id[stored.live]["players"] == "Cas vs Dee"
    assert by_id[stored.round_game]["players"] == "ann vs ben" and by_id[stored.round_game]["result"] == "live"
    assert by_id[stored.heroscape]["system"] == "heroscape"
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", r["date"]) for r in rows)
    demo = by_id[stored.demo[0]]
    assert re.fullmatch(r".+ \((kills|commanders|exhausted|concession)\)|draw \(\w+\)", demo["result"])
    assert demo["result"].split(" (")[0] in demo["players"].split(" vs ") + ["draw"]


@pytest.mark.parametrize(("options", "expected"), [
    (("--system", "heroscape"), lambda s: [s.heroscape]),
    (("--player", "Alice"), lambda s: [s.alice]),
    (("--tournament", "T"), lambda s: [s.round_game]),
    (("--status", "live"), lambda s: [s.round_game, s.live]),
    (("--status", "over", "--system", "lords-of-war"), lambda s: [s.drawn, s.alice, *reversed(s.demo)]),
    (("--army", "undead"), lambda s: [s.live]),
    (("--player", "Nobody"), lambda s: []),
], ids=lambda v: " ".join(v) if isinstance(v, tuple) else "")
def test_cli_games_filters(stored: Stored, options: tuple[str, ...], expected) -> None:
    options = tuple(stored.tournament if o == "T" else o for o in options)
    out = ok("games", *options, "--db", str(stored.db))
    want = expected(stored)
    if not want:
        assert out == "(no games)\n"
        return
    assert [r["id"] for r in table(out)] == want


def test_cli_games_limit_says_when_more_are_left_out(stored: Stored) -> None:
    out = ok("games", "--limit", "2", "--db", str(stored.db))
    assert [r["id"] for r in table(out)] == newest_first(stored)[:2]
    assert out.splitlines()[-1] == "(the newest 2 games: --limit N for more, --limit 0 for all)"
    every = ok("games", "--limit", "0", "--db", str(stored.db))
    assert [r["id"] for r in table(every)] == newest_first(stored)
    assert not every.splitlines()[-1].startswith("(")


def test_cli_games_json_is_get_games_newest_first_and_csv_has_every_column(stored: Stored) -> None:
    printed = json.loads(ok("games", "--json", "--db", str(stored.db)))
    with TestClient(create_app(Settings(db=str(stored.db)))) as client:
        answered = client.get("/games", params={"order": "newest"}).json()["games"]
    assert printed == answered
    rows = list(csv.DictReader(io.StringIO(ok("games", "--csv", "--db", str(stored.db)))))
    assert list(rows[0]) == ["id", "date", "players", "result", "system", "created_at", "tournament", "seq", "status",
                             "winner", "end_reason"]
    alice = next(r for r in rows if r["id"] == stored.alice)
    assert (alice["players"], alice["result"], alice["status"], alice["winner"]) == ("Alice vs Bob",
                                                                                    "Alice (concession)", "over", "p1")
    assert next(r for r in rows if r["id"] == stored.round_game)["tournament"] == stored.tournament


def test_cli_games_fits_the_terminal(stored: Stored) -> None:
    out = ok("games", "--db", str(stored.db), columns=60)
    assert max(len(line) for line in out.splitlines()) <= 60
    assert [r["id"] for r in table(out)] == newest_first(stored)  # the ids are never cut


def test_http_games_filter_by_status(stored: Stored) -> None:
    with TestClient(create_app(Settings(db=str(stored.db)))) as client:
        over = client.get("/games", params={"status": "over", "order": "newest"}).json()["games"]
        active = client.get("/games", params={"status": "active", "order": "newest"}).json()["games"]
        assert client.get("/games", params={"status": "won"}).status_code == 422
    assert [g["id"] for g in over] == [stored.drawn, stored.alice, stored.heroscape, *reversed(stored.demo)]
    assert [g["id"] for g in active] == [stored.round_game, stored.live]


def test_cli_games_beside_a_running_server_prints_the_same(stored: Stored) -> None:
    before = {args: ok("games", *args, "--db", str(stored.db))
              for args in ((), ("--status", "over", "--json"), ("--player", "Alice", "--csv"))}
    port = free_port()
    server = serve(stored.db, port)
    try:
        for args, out in before.items():
            assert ok("games", *args, "--db", str(stored.db)) == out
    finally:
        stop(server)


@pytest.fixture
def pg_url() -> Iterator[str]:
    from tests.pg import fresh_schema, require_pg

    require_pg()
    with fresh_schema() as url:
        yield url


def test_cli_games_on_postgresql(pg_url: str) -> None:
    ids = demo_ids(ok("demo", "--games", "3", "--db", pg_url))
    rows = table(ok("games", "--db", pg_url))
    assert [r["id"] for r in rows] == list(reversed(ids))
    assert [r["id"] for r in table(ok("games", "--status", "over", "--limit", "1", "--db", pg_url))] == [ids[-1]]
    assert ok("games", "--status", "live", "--db", pg_url) == "(no games)\n"
