"""Helpers of the tournament day's tests (issue 31 items 3-6): an injected clock, a tournament over HTTP, tables
ended at the table by their scorekeeper."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient

from tests.api.helpers import bearer

ARMIES = ["orcs", "dwarves", "elves", "undead", "templars"]
START = datetime(2026, 5, 2, 9, 0, tzinfo=UTC)


class Clock:
    """The tournament service's clock, moved by the test (never slept on)."""

    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, minutes: float) -> None:
        self.now += timedelta(minutes=minutes)


def clocked(client: TestClient) -> Clock:
    clock = Clock()
    client.app.state.tournaments.clock = clock  # type: ignore[attr-defined]
    return clock


def open_tournament(client: TestClient, players: int = 4, rounds: int = 2, armies: list[str] = ARMIES,
                    **extra: Any) -> tuple[str, dict[str, str]]:
    # round 1 in registration order (seeding is i31's pairing's to test): the day's tests know who sits where
    body = {"name": "Spring Open", "system": "lords-of-war", "rounds": rounds, "seeding": "registration", **extra}
    created = client.post("/tournaments", json=body)
    assert created.status_code == 201, created.text
    tid, organiser = created.json()["id"], bearer(created.json()["token"])
    for i in range(players):
        entrant = {"id": f"p{i:02d}", "name": f"Player {i}", **({"army": armies[i % len(armies)]} if armies else {})}
        response = client.post(f"/tournaments/{tid}/players", json=entrant, headers=organiser)
        assert response.status_code == 201, response.text
    return tid, organiser


def start_round(client: TestClient, tid: str, organiser: dict[str, str], **body: Any) -> dict[str, Any]:
    started = client.post(f"/tournaments/{tid}/rounds", json=body or None, headers=organiser)
    assert started.status_code == 201, started.text
    return dict(started.json())


def end_at_table(client: TestClient, table: dict[str, Any], winner: str, reason: str = "agreement") -> None:
    """The table's scorekeeper ends its game (``adjudicate``): ``winner`` a seat or draw."""
    response = client.post(f"/games/{table['game_id']}/actions",
                           json={"action": {"type": "adjudicate", "winner": winner, "reason": reason}},
                           headers=bearer(table["tokens"]["scorekeeper"]))
    assert response.status_code == 201, response.text


def error(response: Any) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def state(client: TestClient, game_id: str) -> dict[str, Any]:
    return dict(client.get(f"/games/{game_id}/state").json())


def summary(client: TestClient, tid: str) -> dict[str, Any]:
    response = client.get(f"/tournaments/{tid}")
    assert response.status_code == 200, response.text
    return dict(response.json())
