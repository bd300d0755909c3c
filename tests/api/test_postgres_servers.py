"""Several ``warlog serve`` processes on one PostgreSQL database (issue 19, item 2): real processes, real HTTP.

Two servers A and B on one schema answer as one service: racing appends through both give exactly one 201 and one
409; an idempotency key repeated to the other process gets the first answer; a live stream on A receives what was
appended through B (LISTEN/NOTIFY), and a reconnect with Last-Event-ID catches up without loss; kill -9 of the
analytics leader leaves the other serving, and it takes the projector over; a token reissued through B stops
working on A (whose cached row the notification drops). ``--workers N`` is refused for DuckDB and serves with
PostgreSQL, with the analytics in a process of their own that the supervisor starts again when it dies. Skipped
without a PostgreSQL server (tests/pg.py).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.api.helpers import SETUP, bearer
from tests.pg import fresh_schema
from tests.serving import ROOT, free_port, serve, stop


class Pair:
    def __init__(self, url: str, stats: Path) -> None:
        self.url = url
        self.stats = stats
        self.ports = [free_port(), free_port()]
        self.processes: list[subprocess.Popen[str]] = []
        self.clients: list[httpx.Client] = []

    def start(self, index: int) -> httpx.Client:
        """Server ``index``; its live change check is an hour apart, so what another process stored reaches its
        streams by that process's notification (LISTEN/NOTIFY), the path under test, not by the check."""
        process = serve(self.url, self.ports[index], args=["--stats-db", str(self.stats)],  # type: ignore[arg-type]
                        env={"WARLOG_LIVE_CHECK_EVERY": "3600"})
        client = httpx.Client(base_url=f"http://127.0.0.1:{self.ports[index]}", timeout=30)
        self.processes.append(process)
        self.clients.append(client)
        return client

    def close(self) -> None:
        for client in self.clients:
            client.close()
        for process in self.processes:
            stop(process)


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[httpx.Client, httpx.Client]]:
    with fresh_schema() as url:
        servers = Pair(url, tmp_path_factory.mktemp("pg") / "stats.duckdb")
        try:
            yield servers.start(0), servers.start(1)
        finally:
            servers.close()


def new_game(client: httpx.Client, seed: int = 7) -> tuple[str, str]:
    response = client.post("/games", json={**SETUP, "seed": seed})
    assert response.status_code == 201, response.text
    body = response.json()
    return body["id"], body["tokens"]["scorekeeper"]


def first_action(client: httpx.Client, game_id: str, token: str) -> tuple[int, dict[str, Any]]:
    legal = client.get(f"/games/{game_id}/legal", headers=bearer(token)).json()
    return legal["seq"], legal["actions"][0]


def test_two_processes_racing_on_one_game_give_one_201_and_one_409(pair: tuple[httpx.Client, httpx.Client]) -> None:
    a, b = pair
    for round_ in range(8):
        game_id, token = new_game(a, seed=100 + round_)
        seq, action = first_action(b, game_id, token)
        barrier = threading.Barrier(2)

        def post(client: httpx.Client, seq: int = seq, action: dict[str, Any] = action,
                 barrier: threading.Barrier = barrier, game_id: str = game_id, token: str = token) -> tuple[int, Any]:
            barrier.wait()
            response = client.post(f"/games/{game_id}/actions", json={"action": action, "expected_seq": seq},
                                   headers=bearer(token))
            return response.status_code, response.json()

        with ThreadPoolExecutor(2) as pool:
            answers = list(pool.map(post, [a, b]))
        assert sorted(status for status, _ in answers) == [201, 409], answers
        conflict = next(body for status, body in answers if status == 409)
        assert conflict["error"]["code"] == "conflict"
        won = next(body for status, body in answers if status == 201)
        assert a.get(f"/games/{game_id}").json()["seq"] == b.get(f"/games/{game_id}").json()["seq"] == won["seq"]


def test_an_idempotency_key_repeated_to_the_other_process_returns_the_first_answer(
    pair: tuple[httpx.Client, httpx.Client],
) -> None:
    a, b = pair
    game_id, token = new_game(a, seed=41)
    seq, action = first_action(a, game_id, token)
    body = {"action": action, "expected_seq": seq, "idempotency_key": "tablet-3-try-1"}
    first = a.post(f"/games/{game_id}/actions", json=body, headers=bearer(token))
    again = b.post(f"/games/{game_id}/actions", json=body, headers=bearer(token))
    assert first.status_code == again.status_code == 201, (first.text, again.text)
    assert again.json() == first.json()
    assert again.headers.get("idempotent-replayed") == "true" and "idempotent-replayed" not in first.headers
    assert b.get(f"/games/{game_id}").json()["seq"] == first.json()["seq"]  # stored once


HEARD_WAIT = 120.0  # bounds a hang, not a latency: on a loaded machine a notification takes seconds to be heard


def test_a_token_reissued_through_one_process_stops_working_on_the_other(
    pair: tuple[httpx.Client, httpx.Client],
) -> None:
    """Each process caches games' rows (the token hashes with them) while it hears the others' commits: the
    reissue's notification drops A's copy, so the old token stops working on A too, within moments."""
    a, b = pair
    game_id, token = new_game(a, seed=47)
    assert a.get(f"/games/{game_id}/legal", headers=bearer(token)).status_code == 200  # A has the game's row now
    old = b.post(f"/games/{game_id}/tokens/p1", headers=bearer(token)).json()["token"]
    assert wait_until(lambda: a.get(f"/games/{game_id}/legal", headers=bearer(old)).status_code == 200, HEARD_WAIT)
    new = b.post(f"/games/{game_id}/tokens/p1", headers=bearer(token))
    assert new.status_code == 201, new.text
    assert wait_until(lambda: a.get(f"/games/{game_id}/legal", headers=bearer(old)).status_code == 401, HEARD_WAIT), \
        "the old token still worked on the other process after it was reissued"
    assert a.get(f"/games/{game_id}/legal", headers=bearer(new.json()["token"])).status_code == 200


def read_stream(client: httpx.Client, game_id: str, headers: dict[str, str], until: int,
                got: list[tuple[int, float]], ready: threading.Event) -> None:
    """Read ``/games/{id}/live`` and note (seq, when) of each message until seq ``until``."""
    with client.stream("GET", f"/games/{game_id}/live", params={"timeout": 120}, headers=headers) as response:
        assert response.status_code == 200
        ready.set()
        for line in response.iter_lines():
            if line.startswith("id:"):
                seq = int(line[3:].strip())
                got.append((seq, time.monotonic()))
                if seq >= until:
                    return


def test_a_live_stream_on_one_process_gets_what_the_other_stored_and_catches_up_after_a_reconnect(
    pair: tuple[httpx.Client, httpx.Client],
) -> None:
    a, b = pair
    game_id, token = new_game(b, seed=43)
    seq, action = first_action(b, game_id, token)
    got: list[tuple[int, float]] = []
    ready = threading.Event()
    reader = threading.Thread(target=read_stream,
                              args=(a, game_id, {"Last-Event-ID": str(seq)}, seq + 1, got, ready))
    reader.start()
    assert ready.wait(10)
    time.sleep(0.3)  # the stream waits on A
    response = b.post(f"/games/{game_id}/actions", json={"action": action, "expected_seq": seq},
                      headers=bearer(token))
    assert response.status_code == 201, response.text
    last = response.json()["seq"]
    reader.join(120)  # bounds a hang: the change check is an hour away, so only the notification brings it
    assert [s for s, _ in got] == list(range(seq + 1, last + 1))
    # the stream is gone (a dropped connection); B stores more; a reconnect to A resumes from Last-Event-ID
    more_seq, more = first_action(b, game_id, token)
    stored = b.post(f"/games/{game_id}/actions", json={"action": more, "expected_seq": more_seq},
                    headers=bearer(token)).json()["seq"]
    again: list[tuple[int, float]] = []
    read_stream(a, game_id, {"Last-Event-ID": str(last)}, stored, again, threading.Event())
    assert [s for s, _ in again] == list(range(last + 1, stored + 1))


def finished_games(client: httpx.Client) -> int | None:
    response = client.get("/stats/first-player")
    return response.json()["games"] if response.status_code == 200 else None


def finish_a_game(client: httpx.Client, seed: int) -> None:
    game_id, token = new_game(client, seed=seed)
    seq = client.get(f"/games/{game_id}").json()["seq"]
    response = client.post(f"/games/{game_id}/actions",
                           json={"action": {"type": "concede", "player": "p1"}, "expected_seq": seq},
                           headers=bearer(token))
    assert response.status_code == 201, response.text


# How long a test waits for the analytics to count a finished game: a bound on a hang, not a latency claim. The
# analytics run in a process of their own, niced (+5), that imports DuckDB and catches up before it counts: beside
# a loaded machine (a run at load 25 took 40+ s) that is slow, and only a process that never counts should fail.
ANALYTICS_WAIT = 120.0


def wait_until(check: Any, seconds: float) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    return check()


def test_kill_9_of_the_analytics_leader_the_other_serves_and_takes_the_projector_over(tmp_path: Path) -> None:
    with fresh_schema() as url:
        servers = Pair(url, tmp_path / "stats.duckdb")
        try:
            a = servers.start(0)  # first: the leader
            finish_a_game(a, 1)
            assert wait_until(lambda: finished_games(a) == 1, ANALYTICS_WAIT), finished_games(a)
            b = servers.start(1)
            assert finished_games(b) == 1  # B reads what A published
            servers.processes[0].send_signal(signal.SIGKILL)
            servers.processes[0].wait(10)
            assert b.get("/health").status_code == 200
            finish_a_game(b, 2)  # B serves on alone
            assert wait_until(lambda: finished_games(b) == 2, ANALYTICS_WAIT), "B did not take the projector over"
        finally:
            servers.close()


def test_workers_are_refused_for_duckdb_in_one_sentence(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "api.cli", "serve", "--db", str(tmp_path / "one.duckdb"), "--workers", "2",
         "--port", "0"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2
    assert "--workers 2 needs a PostgreSQL database" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "one.duckdb").exists()


@contextmanager
def supervised(workers: int, folder: Path) -> Iterator[tuple[subprocess.Popen[str], httpx.Client]]:
    """``warlog serve --workers N`` on a schema of its own, and a client; stopped when the block ends."""
    with fresh_schema() as url:
        port = free_port()
        process = serve(url, port, args=["--workers", str(workers), "--stats-db", str(folder / "s.duckdb")],  # type: ignore[arg-type]
                        seconds=180)
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
                yield process, client
        finally:
            stop(process)


def test_workers_serve_one_port_on_postgres(tmp_path: Path) -> None:
    with supervised(2, tmp_path) as (_, client):
        game_id, token = new_game(client, seed=5)
        seq, action = first_action(client, game_id, token)
        statuses = []
        with ThreadPoolExecutor(8) as pool:  # 8 copies of one move: one stored, seven told it moved on
            for response in pool.map(
                lambda _: client.post(f"/games/{game_id}/actions",
                                      json={"action": action, "expected_seq": seq},
                                      headers=bearer(token)),
                range(8),
            ):
                statuses.append(response.status_code)
        assert sorted(statuses) == [201] + [409] * 7


def children(pid: int) -> dict[int, str]:
    """The processes whose parent is ``pid``: their command lines."""
    found = {}
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, IndexError, ValueError):
            continue
    return found


def test_workers_keep_the_analytics_in_a_process_of_their_own_started_again_when_it_dies(tmp_path: Path) -> None:
    with supervised(1, tmp_path) as (process, client):
        finish_a_game(client, 3)
        assert wait_until(lambda: finished_games(client) == 1, ANALYTICS_WAIT), finished_games(client)
        analytics = [pid for pid, line in children(process.pid).items() if " analytics " in line]
        workers = [pid for pid, line in children(process.pid).items() if " serve" in line]
        assert len(analytics) == 1 and len(workers) == 1, children(process.pid)
        def nice(pid: int) -> int:
            return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])
        # 5 nicer than the server that started it (a suite run niced, as on a busy machine, starts it nicer still)
        assert nice(analytics[0]) == min(19, nice(process.pid) + 5)
        os.kill(analytics[0], signal.SIGKILL)  # the supervisor starts another, which takes over
        again = wait_until(lambda: [pid for pid, line in children(process.pid).items()
                                    if " analytics " in line and pid != analytics[0]], ANALYTICS_WAIT)
        assert again, children(process.pid)
        finish_a_game(client, 4)
        assert wait_until(lambda: finished_games(client) == 2, ANALYTICS_WAIT), "no analytics after the restart"
    stderr = process.stderr.read() if process.stderr else ""
    leaders = {int(pid) for pid in re.findall(r"this process \(pid (\d+)\) leads the analytics", stderr)}
    assert leaders and leaders <= {analytics[0], *again} and workers[0] not in leaders, stderr[-2000:]
