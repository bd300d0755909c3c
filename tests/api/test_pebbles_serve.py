"""From the user's side: a ``warlog serve`` process with a test-only system of 3-4 seats installed (pebbles: a
package of its own, tests/plugins/pebbles, found through its entry point), a four-seat game played over HTTP with one
token per seat, and a tournament of pods to its standings."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from api.installed import EXCLUDE_SETTING
from tests.serving import serving


@pytest.fixture
def http(tmp_path: Path) -> Iterator[httpx.Client]:
    with serving(tmp_path / "p.duckdb", env={EXCLUDE_SETTING: ""}) as client:  # every installed system: pebbles too
        yield client


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _play(http: httpx.Client, game_id: str, tokens: dict[str, str]) -> None:
    for _ in range(100):
        state = http.get(f"/games/{game_id}/state").json()
        if state["phase"] == "over":
            return
        seat = state["active"]
        legal = http.get(f"/games/{game_id}/legal", headers=_bearer(tokens[seat])).json()
        action = legal["actions"][legal["seq"] % len(legal["actions"])]
        moved = http.post(f"/games/{game_id}/actions", json={"action": action, "expected_seq": legal["seq"]},
                          headers=_bearer(tokens[seat]))
        assert moved.status_code == 201, moved.text
    raise AssertionError("not over after 100 moves")


def test_a_four_seat_game_and_a_tournament_of_pods_over_http(http: httpx.Client) -> None:
    branches = http.get("/openapi.json").json()["components"]["schemas"]["GameIn"]["discriminator"]["mapping"]
    assert {"lords-of-war", "pebbles"} <= set(branches)
    body: dict[str, Any] = {"system": "pebbles", "players": [{"id": f"p{i}", "name": f"N{i}"} for i in range(1, 5)],
                            "variant": {"heap": 10, "teams": True}, "seed": 3, "insecure_seed": True}
    created = http.post("/games", json=body)
    assert created.status_code == 201, created.text
    game_id, tokens = created.json()["id"], created.json()["tokens"]
    assert set(tokens) == {"scorekeeper", "p1", "p2", "p3", "p4"}
    assert http.get(f"/games/{game_id}/state", params={"view": "p4"}, headers=_bearer(tokens["p4"])).json()[
        "bonuses"].keys() == {"p4"}
    _play(http, game_id, tokens)
    game = http.get(f"/games/{game_id}").json()
    assert game["status"] == "over" and sorted(s for g in game["placings"] for s in g) == ["p1", "p2", "p3", "p4"]

    made = http.post("/tournaments", json={"name": "Cup", "system": "pebbles", "rounds": 1, "seats": 3,
                                           "variant": {"heap": 7}}).json()
    organiser = _bearer(made["token"])
    for i in range(6):
        assert http.post(f"/tournaments/{made['id']}/players", json={"id": f"e{i}"},
                         headers=organiser).status_code == 201
    started = http.post(f"/tournaments/{made['id']}/rounds", headers=organiser).json()
    assert [len(t["seats"]) for t in started["tables"]] == [3, 3] and started["byes"] == []
    for table in started["tables"]:
        _play(http, table["game_id"], table["tokens"])
    rows = http.get(f"/tournaments/{made['id']}/standings").json()["standings"]
    assert sum(r["match_points"] for r in rows) == 2 * 3 and len(rows) == 6
    assert http.get(f"/tournaments/{made['id']}").json()["status"] == "finished"
