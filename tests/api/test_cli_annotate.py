"""Issue 32 item 6 from the command line: ``warlog annotate GAME STEP TEXT`` through a running server (its public
route, with the scorekeeper's token), and ``warlog export`` through the same server carrying the annotation as a
record comment. A real server in a subprocess; the CLI as a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.api.helpers import SETUP
from tests.serving import free_port, serve, stop

ROOT = Path(__file__).resolve().parents[2]


def warlog(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    kept = {k: v for k, v in os.environ.items() if not k.startswith("WARLOG_")} | {"PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "api.cli", *args], cwd=ROOT, env=kept | env, capture_output=True,
                          text=True, timeout=300)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    db = tmp_path_factory.mktemp("annotate") / "notes.duckdb"
    port = free_port()
    process = serve(db, port)
    try:
        yield f"http://127.0.0.1:{port}", db
    finally:
        stop(process)


def test_cli_annotate_through_a_running_server_and_export_carries_it(server: tuple[str, Path]) -> None:
    url, db = server
    created = httpx.post(f"{url}/games", json=SETUP, timeout=30).json()
    game_id, tokens = created["id"], created["tokens"]
    seat = warlog("annotate", game_id, "1", "from a seat", "--token", tokens["p1"], "--server", url)
    assert seat.returncode == 1 and seat.stdout == ""
    assert seat.stderr.startswith("warlog annotate: the server at") and "forbidden" in seat.stderr
    assert len(seat.stderr.strip().splitlines()) == 1

    done = warlog("annotate", game_id, "1", "Table 4: the game starts", "--author", "Ada", "--server", url,
                  WARLOG_TOKEN=tokens["scorekeeper"])
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"annotation 1 of game {game_id} on step 1 by Ada (scorekeeper) at ")
    listed = httpx.get(f"{url}/games/{game_id}/annotations", timeout=30).json()["annotations"]
    assert [(n["step"], n["text"], n["author"]) for n in listed] == [(1, "Table 4: the game starts", "Ada")]

    exported = warlog("export", game_id, "--db", str(db))  # through the server that holds the file
    assert exported.returncode == 0, exported.stderr
    assert "{Note on step 1 by Ada (scorekeeper), " in exported.stdout and ": Table 4: the game starts}" in \
        exported.stdout


def test_cli_annotate_says_what_is_missing_in_one_line(server: tuple[str, Path]) -> None:
    url, _ = server
    no_token = warlog("annotate", "g", "1", "text", "--server", url)
    assert no_token.returncode == 2 and "--token" in no_token.stderr
    nobody = warlog("annotate", "g", "1", "text", "--token", "t", "--server", f"http://127.0.0.1:{free_port()}")
    assert nobody.returncode == 1 and "no warlog server answered at" in nobody.stderr
    assert len(nobody.stderr.strip().splitlines()) == 1
    unknown = warlog("annotate", "no-such-game", "1", "text", "--token", "t", "--server", url)
    assert unknown.returncode == 1 and "not_found" in unknown.stderr
