"""End to end: `warlog serve` as a real process, a full game over HTTP, SIGKILL right after an acknowledged
action, a restart on the same file, and every acknowledged event is there."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from engine.lords_of_war import decide, evolve, fold, start
from engine.lords_of_war.bots import RandomBot
from tests.serving import free_port, serve, stop

SETUP: dict[str, Any] = {
    "system": "lords-of-war",
    "players": [{"id": "p1", "name": "Alice", "army": "orcs"}, {"id": "p2", "name": "Bob", "army": "elves"}],
    "seed": 2026, "insecure_seed": True,
}
ADMIN = "e2e-admin-key"


def _serve(db: Path, port: int) -> subprocess.Popen[str]:
    return serve(db, port, env={"WARLOG_ADMIN_KEY": ADMIN})


def _facts(events: Any) -> dict[int, tuple[str, str]]:
    """seq -> (type, recorded_at): what every view shows of an event (the players' views redact the rest)."""
    return {e["seq"]: (e["type"], e["recorded_at"]) for e in events}


def _kill(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=10)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_acknowledged_events_survive_sigkill(tmp_path: Path) -> None:
    db = tmp_path / "x.duckdb"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = _serve(db, port)
    http = httpx.Client(base_url=base, timeout=10)  # one connection: a new one costs ~100 ms
    try:
        assert http.post("/games", json=SETUP).status_code == 401  # the admin key is required
        created = http.post("/games", json=SETUP, headers={"X-Admin-Key": ADMIN}).json()
        game_id, tokens = created["id"], created["tokens"]
        keeper = {"Authorization": f"Bearer {tokens['scorekeeper']}"}
        acknowledged: dict[int, dict[str, Any]] = {
            e["seq"]: e
            for e in map(msgspec.json.decode, http.get(f"/games/{game_id}/events", params={"view": "all"},
                                                       headers=keeper).text.splitlines())
        }
        state = fold(start({k: v for k, v in SETUP.items() if k != "insecure_seed"}))  # the same game, folded here
        bots = [RandomBot(11), RandomBot(12)]
        actions = 0
        killed = False
        started = time.monotonic()
        while state.phase != "over":
            action = bots[state.active].choose(state)
            body = {"action": msgspec.to_builtins(action), "expected_seq": max(acknowledged),
                    "idempotency_key": f"a{actions}"}
            headers = {"Authorization": f"Bearer {tokens[action.player]}"}  # each seat with its own token
            try:
                response = http.post(f"/games/{game_id}/actions", json=body, headers=headers)
            except httpx.HTTPError:
                raise AssertionError("the server died unexpectedly") from None
            assert response.status_code == 201, response.text
            answer = response.json()
            for event in answer["events"]:
                acknowledged[event["seq"]] = event
            for event in decide(state, action):
                state = evolve(state, event)
            assert answer["seq"] == max(acknowledged)
            actions += 1
            if actions == 40 and not killed:
                _kill(server)  # right after an acknowledged action
                killed = True
                server = _serve(db, port)
                stored = [msgspec.json.decode(line) for line in http.get(
                    f"/games/{game_id}/events", params={"view": "all"}, headers=keeper).text.splitlines()]
                assert _facts(stored) == _facts(acknowledged.values()), "an acknowledged event was lost"
        assert killed, "the game ended before the kill"
        print(f"{actions} actions, {max(acknowledged)} events in {time.monotonic() - started:.1f} s")
        summary = http.get(f"/games/{game_id}").json()
        assert summary["status"] == "over" and summary["winner"] is not None
        final = [msgspec.json.decode(line) for line in http.get(
            f"/games/{game_id}/events", params={"view": "all"}).text.splitlines()]  # public once over
        assert _facts(final) == _facts(acknowledged.values())
        assert [e["seq"] for e in final] == list(range(1, len(final) + 1))
        assert final[-1]["type"] == "game_ended"
    finally:
        http.close()
        stop(server)
