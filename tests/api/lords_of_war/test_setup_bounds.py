"""Issue 11 item 0: every number of a game's setup is bounded by what the rules allow (docs/rulings.md, "Setup
numbers"); anything else is 422 ``invalid_setup`` and stores nothing."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.helpers import SETUP, new_game

BOARD = [{"square": "D4", "card": "orcs/gonke-longtooth", "owner": "p1"},
         {"square": "B2", "card": "dwarves/dwarf-slugger-1", "owner": "p2"}]


def _position(kills: dict[str, Any]) -> dict[str, Any]:
    return {"board": BOARD, "to_move": "p2", "kills": kills}


@pytest.mark.parametrize(
    ("overrides", "words"),
    [
        ({"variant": {"kill_target": 3_000_000_000}}, "kill_target must be 1 to 36"),
        ({"variant": {"kill_target": 37}}, "kill_target must be 1 to 36"),
        ({"variant": {"kill_target": 0}}, "kill_target must be 1 to 36"),
        ({"variant": {"command_target": 2**31}}, "command_target must be 1 to 6"),
        ({"variant": {"command_target": 7}}, "command_target must be 1 to 6"),
        ({"position": _position({"p1": {"total": 2**31 + 1, "commanders": 0}})}, "below the targets"),
        ({"position": _position({"p2": {"total": 20, "commanders": 0}})}, "below the targets"),
        ({"position": _position({"p1": {"total": 5, "commanders": 4}})}, "below the targets"),
        ({"position": _position({"p1": {"total": 30, "commanders": 0}}), "variant": {"kill_target": 30}},
         "below the targets"),
        ({"position": _position({"p1": {"total": -1, "commanders": 0}})}, "impossible counts"),
    ],
)
def test_create_out_of_range_setup_numbers_are_invalid_setup(
    client: TestClient, overrides: dict[str, Any], words: str
) -> None:
    response = client.post("/games", json={**SETUP, **overrides})
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "invalid_setup" and words in error["message"], error
    assert client.get("/games").json()["games"] == []  # nothing stored


@pytest.mark.parametrize("seed", [-1, 2**63, 2**64 + 5])
def test_create_out_of_range_seed_is_422(client: TestClient, seed: int) -> None:
    response = client.post("/games", json={**SETUP, "seed": seed})
    assert response.status_code == 422 and "seed" in response.json()["error"]["message"], response.text
    assert client.get("/games").json()["games"] == []


def test_create_setup_numbers_at_their_bounds_are_accepted(client: TestClient) -> None:
    game_id, _ = new_game(client, variant={"kill_target": 36, "command_target": 6}, seed=2**63 - 1)
    assert client.get(f"/games/{game_id}").json()["variant"] == {"kill_target": 36, "command_target": 6}
    game_id, _ = new_game(client, variant={"kill_target": 1, "command_target": 1}, seed=0)
    kills = {"p1": {"total": 35, "commanders": 5}, "p2": {"total": 0, "commanders": 0}}
    game_id, _ = new_game(client, variant={"kill_target": 36, "command_target": 6}, position=_position(kills))
    state = client.get(f"/games/{game_id}/state", params={"view": "spectator"}).json()
    assert state["kills"]["p1"] == {"total": 35, "commanders": 5}
