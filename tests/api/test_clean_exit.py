"""Issue 11 item 6: no "nanobind: leaked ..." lines from DuckDB's bindings when a test run or the server ends. They
came from DuckDB objects still alive at interpreter exit: objects frozen by `warlog serve` (gc.freeze), and stores
(with their projector and tournament log) left open or kept by a module until exit, as the OpenAPI fuzzing suite's
app is (schemathesis keeps an app's lifespan running until exit)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.api.helpers import SETUP
from tests.serving import free_port, serve

ROOT = Path(__file__).resolve().parents[2]

KEPT_UNTIL_EXIT = '''
import schemathesis
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from replay.store.duckdb_store import DuckDBEventStore
from tests.api.helpers import SETUP

STORE = DuckDBEventStore(":memory:")  # never closed: the process ends with it open
APP = create_app(Settings(db=":memory:"), store=STORE)
with TestClient(APP) as client:
    GAME_ID = client.post("/games", json=SETUP).json()["id"]
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)  # starts the lifespan, stopped only at exit


def test_kept_until_exit():
    assert STORE.last_seq(GAME_ID) == 3
'''


def test_a_test_run_that_keeps_a_store_until_exit_prints_no_nanobind_leaks(tmp_path: Path) -> None:
    pytest.importorskip("schemathesis")
    probe = tmp_path / "test_kept_until_exit.py"
    probe.write_text(KEPT_UNTIL_EXIT)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(tmp_path), str(probe)],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "nanobind" not in done.stdout + done.stderr, done.stderr[-2000:]


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
def test_serve_stopped_with_ctrl_c_prints_no_nanobind_leaks(tmp_path: Path) -> None:
    port = free_port()
    server = serve(tmp_path / "w.duckdb", port)
    try:
        base = f"http://127.0.0.1:{port}"
        assert httpx.post(f"{base}/games", json=SETUP, timeout=10).status_code == 201
        assert httpx.get(f"{base}/stats/armies", timeout=10).status_code == 200
        server.send_signal(signal.SIGINT)  # what `make run` gets from Ctrl-C
        server.wait(timeout=10)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)
    stderr = server.stderr.read() if server.stderr else ""
    assert server.returncode in (0, 130), stderr  # 130: the CLI's exit status for Ctrl-C (uvicorn re-raises it)
    assert "Traceback" not in stderr, stderr[-2000:]
    assert "nanobind" not in stderr, stderr[-2000:]
