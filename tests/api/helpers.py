"""Helpers of the API tests: a game over HTTP, tokens, bot moves."""

from __future__ import annotations

import socket
from typing import Any

import msgspec
from fastapi.testclient import TestClient

from engine.lords_of_war.bots import RandomBot

SETUP: dict[str, Any] = {
    "system": "lords-of-war",
    "players": [{"id": "p1", "name": "Alice", "army": "orcs"}, {"id": "p2", "name": "Bob", "army": "dwarves"}],
    "seed": 7,
    "insecure_seed": True,  # a known deal for the tests (issue 28 item 20: a caller's seed needs the flag)
}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_game(client: TestClient, headers: dict[str, str] | None = None, **overrides: Any) -> tuple[str, dict[str, str]]:
    response = client.post("/games", json={**SETUP, **overrides}, headers=headers or {})
    assert response.status_code == 201, response.text
    body = response.json()
    return body["id"], body["tokens"]


def bot_action(client: TestClient, game_id: str, bots: dict[int, RandomBot]) -> tuple[int, dict[str, Any] | None]:
    """(the latest seq, the action the active side's random bot chooses; None when the game is over)."""
    seq, state = client.app.state.service.state(game_id)  # type: ignore[attr-defined]
    if state.phase == "over":
        return seq, None
    bot = bots.setdefault(state.active, RandomBot(100 + state.active))
    return seq, msgspec.to_builtins(bot.choose(state))


def play(client: TestClient, game_id: str, tokens: dict[str, str], max_actions: int | None = None) -> int:
    """Play on with random bots through POST /actions, each seat with its own token; returns the final seq."""
    bots: dict[int, RandomBot] = {}
    done = 0
    seq = 0
    while max_actions is None or done < max_actions:
        seq, action = bot_action(client, game_id, bots)
        if action is None:
            break
        response = client.post(
            f"/games/{game_id}/actions",
            json={"action": action, "expected_seq": seq},
            headers=bearer(tokens[action["player"]]),
        )
        assert response.status_code == 201, response.text
        seq = response.json()["seq"]
        done += 1
    return seq


def one_connection(port: int, *paths: str) -> list[int]:
    """GET each path in turn on one kept-alive TCP connection; the status of each (0: the connection died)."""
    statuses: list[int] = []
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        stream = sock.makefile("rb")
        for path in paths:
            try:
                sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
                status_line = stream.readline()
                if not status_line:
                    statuses.append(0)
                    break
                length = 0
                while (line := stream.readline()) not in (b"\r\n", b""):
                    name, _, value = line.decode().partition(":")
                    if name.lower() == "content-length":
                        length = int(value)
                stream.read(length)
                statuses.append(int(status_line.split()[1]))
            except OSError:  # reset by peer
                statuses.append(0)
                break
    return statuses
