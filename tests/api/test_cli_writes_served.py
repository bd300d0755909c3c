"""Issue 28 item 24: every command that writes works beside a running ``warlog serve`` on the same file the way the
tournament commands do, through it (its ``/local`` routes, with the key of its 0600 sidecar): ``demo``,
``import`` and ``reproject`` print what they print on the file and exit with the same status, and the server sees
what they wrote. ``sql`` (its read-only connection is its safety), ``export-parquet`` and ``serve`` still say in
one sentence that they need the file. A real server in a subprocess; the CLI as a subprocess."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from engine.lords_of_war.bots import play_bot_game
from replay.archive.games import store_events
from replay.log.service import GameService
from replay.store.duckdb_store import DuckDBEventStore
from tests.serving import free_port, serve, stop

ROOT = Path(__file__).resolve().parents[2]
ID = re.compile(r"recorded (\S+):|imported as (\S+)|already stored as (\S+)")


def warlog(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WARLOG_")} | {"PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "api.cli", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)


def ids(text: str) -> list[str]:
    return [next(g for g in m.groups() if g) for m in ID.finditer(text)]


def swapped(text: str, swaps: dict[str, str]) -> str:
    for old, new in swaps.items():
        text = text.replace(old, new)
    return text


@dataclass
class Served:
    db: Path  # held by the server
    plain: Path  # a copy of what db held when the server started, used directly
    url: str


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("writes")
    db = folder / "w.duckdb"
    store = DuckDBEventStore(str(db))
    store_events(GameService(store), "lords-of-war", play_bot_game(1), "g1")
    store.close()
    plain = folder / "plain.duckdb"
    shutil.copyfile(db, plain)
    port = free_port()
    server = serve(db, port)
    try:
        yield Served(db, plain, f"http://127.0.0.1:{port}")
    finally:
        stop(server)


def test_cli_demo_writes_through_a_running_server_as_it_does_on_the_file(served: Served) -> None:
    on_file = warlog("demo", "--games", "2", "--seed", "7", "--db", str(served.plain))
    through = warlog("demo", "--games", "2", "--seed", "7", "--db", str(served.db))
    assert (through.returncode, through.stderr) == (on_file.returncode, on_file.stderr) == (0, "")
    stored = ids(through.stdout)
    assert len(stored) == 2
    swaps = dict(zip(ids(on_file.stdout), stored, strict=True)) | {str(served.plain): str(served.db)}
    assert through.stdout == swapped(on_file.stdout, swaps)  # the same games, bot for bot
    for game_id in stored:  # the server stored them: its own routes answer with them, finished
        answer = httpx.get(f"{served.url}/games/{game_id}", timeout=10).json()
        assert answer["status"] == "over" and answer["id"] == game_id


def test_cli_import_writes_through_a_running_server_as_it_does_on_the_file(served: Served, tmp_path: Path) -> None:
    record = tmp_path / "g1.record"
    record.write_text(warlog("export", "g1", "--db", str(served.db)).stdout)
    for db in (served.plain, served.db):  # the same game is stored already: refused (the server finds it)
        again = warlog("import", str(record), "--db", str(db))
        assert again.returncode == 1 and again.stdout == ""
        assert again.stderr == (f"{record}: not imported: the same game is already stored as g1 (identical events); "
                                "use --allow-duplicate to store it again\n")
    on_file = warlog("import", str(record), "--allow-duplicate", "--db", str(served.plain))
    through = warlog("import", str(record), "--allow-duplicate", "--db", str(served.db))
    assert (through.returncode, through.stderr) == (on_file.returncode, on_file.stderr) == (0, "")
    (new,) = ids(through.stdout)
    assert through.stdout == f"{record}: imported as {new}\n" and new != "g1"
    shown = httpx.get(f"{served.url}/games/export", params={"player": "bot 1", "order": "newest", "max": 1},
                      timeout=10)
    assert shown.text == record.read_text()  # the server holds the same game again, under its new id
    broken = tmp_path / "broken.record"
    broken.write_text(record.read_text().replace("@C3", "@A1", 1))
    for db in (served.plain, served.db):
        refused = warlog("import", str(broken), "--db", str(db))
        assert refused.returncode == 1 and refused.stdout == ""
        assert refused.stderr.startswith(f"{broken}:") and "[R1]" in refused.stderr


def test_cli_reproject_goes_through_a_running_server(served: Served) -> None:
    on_file = warlog("reproject", "--db", str(served.plain))
    through = warlog("reproject", "--db", str(served.db))
    assert through.returncode == on_file.returncode == 0, through.stderr
    pattern = r"reprojected (\d+) games in \d+\.\d\d s\n"
    assert re.fullmatch(pattern, through.stdout) and re.fullmatch(pattern, on_file.stdout)
    games = httpx.get(f"{served.url}/games", params={"limit": 500}, timeout=10).json()["games"]
    assert int(re.findall(r"\d+", through.stdout)[0]) == len(games)
