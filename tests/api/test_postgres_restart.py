"""PostgreSQL restarted under load (issue 19, item 4): while it is down the server answers 503 ``store_unavailable``
(never a hang, never a 500), it reconnects by itself once the database is back, and no acknowledged event is lost.

The test runs its OWN PostgreSQL (tests/own_postgres.py), not the shared one of tests/pg.py. The stop is
``pg_ctl stop -m immediate``, a crash as far as the database knows (recovery from its WAL on start). Skipped unless
PostgreSQL 15's binaries are installed and the tests run as root (they start it as ``postgres``).
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import httpx

from tests.api.helpers import SETUP, bearer
from tests.own_postgres import OwnPostgres, own_postgres  # noqa: F401 - the fixture
from tests.replay.test_postgres_store import wait_for
from tests.serving import free_port, serve, stop


def test_postgres_restarted_under_load_503_then_reconnect_and_nothing_acknowledged_is_lost(
    own_postgres: OwnPostgres, tmp_path: Path  # noqa: F811
) -> None:
    port = free_port()
    # the write rate limits off: this load is one client as fast as the server answers (a loaded machine answers
    # the outage's 503s in bursts that empty the address's bucket: 429, not what this test is about)
    process = serve(own_postgres.url, port, args=["--stats-db", str(tmp_path / "stats.duckdb")],  # type: ignore[arg-type]
                    seconds=180, env={"WARLOG_WRITE_RATE": "0", "WARLOG_ADDRESS_WRITE_RATE": "0"})
    acknowledged: dict[str, int] = {}  # game -> the last seq a 201 answered
    answers: list[tuple[float, int, str]] = []  # (when, status, error code)
    stop_load = threading.Event()

    def load() -> None:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            n = 0
            while not stop_load.is_set():
                n += 1
                try:
                    response = client.post("/games", json={**SETUP, "seed": n})
                except httpx.HTTPError:
                    answers.append((time.monotonic(), 0, "transport"))
                    continue
                body = response.json()
                answers.append((time.monotonic(), response.status_code, body.get("error", {}).get("code", "")))
                if response.status_code != 201:
                    time.sleep(0.05)
                    continue
                game_id, token = body["id"], body["tokens"]["scorekeeper"]
                acknowledged[game_id] = body["seq"]
                for _ in range(3):  # a few moves of each game, each acknowledged before the next
                    legal = client.get(f"/games/{game_id}/legal", headers=bearer(token))
                    if legal.status_code != 200:
                        answers.append((time.monotonic(), legal.status_code, legal.json()["error"]["code"]))
                        break
                    body = {"action": legal.json()["actions"][0], "expected_seq": legal.json()["seq"]}
                    moved = client.post(f"/games/{game_id}/actions", json=body, headers=bearer(token))
                    code = moved.json().get("error", {}).get("code", "") if moved.status_code != 201 else ""
                    answers.append((time.monotonic(), moved.status_code, code))
                    if moved.status_code != 201:
                        break
                    acknowledged[game_id] = moved.json()["seq"]

    def seen(status: int, after: float) -> bool:
        """Whether the load got an answer of ``status`` after ``after``, waiting for one up to 120 s (the load
        thread's answers, not a sleep, say where the outage stands)."""
        return wait_for(lambda: any(s == status and when > after for when, s, _ in answers), 120)

    worker = threading.Thread(target=load)
    try:
        worker.start()
        assert seen(201, 0.0), "no success before the crash"
        down_at = time.monotonic()
        own_postgres.crash()
        assert seen(503, down_at), "no request was refused while PostgreSQL was down"
        own_postgres.start()  # crash recovery from the WAL; it returns once the database accepts connections
        back = time.monotonic()
        assert seen(201, back), "no success after the restart"  # the pool reconnected; the load goes on
        stop_load.set()
        worker.join(60)
        assert not worker.is_alive()
        statuses = {status for _, status, _ in answers}
        assert statuses <= {201, 503}, sorted(set(answers), key=lambda a: a[0])[:20]
        refused = [(when, code) for when, status, code in answers if status == 503]
        assert {code for _, code in refused} <= {"store_unavailable", "store_timeout"}
        assert all(down_at - 1 <= when <= back + 30 for when, _ in refused)  # only around the outage
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            for game_id, seq in acknowledged.items():  # every acknowledged event is stored
                assert client.get(f"/games/{game_id}").json()["seq"] >= seq, game_id
                lines = client.get(f"/games/{game_id}/events").text.splitlines()  # NDJSON, one event a line
                assert [json.loads(line)["seq"] for line in lines][:seq] == list(range(1, seq + 1))
    finally:
        stop_load.set()
        worker.join(60)
        stop(process)
