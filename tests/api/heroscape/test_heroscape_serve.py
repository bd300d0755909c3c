"""From the user's side: a ``warlog serve`` process, a HeroScape table game over HTTP with a token per seat: order
markers hidden from the other seat and spectators until revealed, dice entered at the table (a 7 refused with its
rule), illegal moves refused with 422 and their rule while nothing is stored, the referee's line-of-sight call kept
beside the engine's, and the issue's attack sentence."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.serving import serving


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    with serving(tmp_path_factory.mktemp("hs") / "hs.duckdb") as client:
        yield client


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _act(http: httpx.Client, game_id: str, token: str, action: dict[str, Any]) -> httpx.Response:
    return http.post(f"/games/{game_id}/actions", json={"action": action}, headers=_bearer(token))


POSITION_GAME: dict[str, Any] = {
    "system": "heroscape",
    "players": [{"id": "p1", "name": "Utgar", "army": {"cards": ["grimnak", "marro-warriors"]}},
                {"id": "p2", "name": "Jandar", "army": {"cards": ["agent-carr", "izumi-samurai"]}}],
    "variant": {"mode": "table", "map": "twin-hill"},
    "position": {"figures": [{"owner": "p1", "figure": "grimnak", "hex": [0, -2], "tail": [1, -2]},
                             {"owner": "p1", "figure": "marro-warriors/1", "hex": [-2, 0]},
                             {"owner": "p2", "figure": "agent-carr", "hex": [0, -3], "wounds": 3},
                             {"owner": "p2", "figure": "izumi-samurai/1", "hex": [2, 0]}],
                 "round": 1},
}


def test_a_table_game_over_http_markers_hidden_dice_entered_and_the_attack_explained(http: httpx.Client) -> None:
    created = http.post("/games", json=POSITION_GAME)
    assert created.status_code == 201, created.text
    game_id, tokens = created.json()["id"], created.json()["tokens"]
    marks = {"1": "grimnak", "2": "marro-warriors", "3": "grimnak", "X": "marro-warriors"}
    assert _act(http, game_id, tokens["p1"], {"type": "markers", "player": "p1", "markers": marks}).status_code == 201
    for view, token in (("p2", tokens["p2"]), ("spectator", None)):
        headers = _bearer(token) if token else {}
        state = http.get(f"/games/{game_id}/state", params={"view": view}, headers=headers).json()
        assert state["markers"]["p1"] == "placed", view
        events = http.get(f"/games/{game_id}/events", params={"view": view}, headers=headers).text
        assert "marro-warriors" not in events.split('"markers_placed"')[1].split("\n")[0], view
    own = http.get(f"/games/{game_id}/state", params={"view": "p1"}, headers=_bearer(tokens["p1"])).json()
    assert own["markers"]["p1"] == marks
    other = {"1": "agent-carr", "2": "izumi-samurai", "3": "agent-carr", "X": "agent-carr"}
    assert _act(http, game_id, tokens["p2"], {"type": "markers", "player": "p2", "markers": other}).status_code == 201
    seven = _act(http, game_id, tokens["p1"], {"type": "roll", "player": "p1", "values": [21]})
    assert seven.status_code == 422 and seven.json()["error"]["rule"] == "§1"
    assert _act(http, game_id, tokens["p1"], {"type": "roll", "player": "p1", "values": [18]}).status_code == 201
    rolled = _act(http, game_id, tokens["scorekeeper"], {"type": "roll", "player": "p2", "values": [4]})
    assert rolled.status_code == 201, rolled.text
    assert "marker_revealed" in [e["type"] for e in rolled.json()["events"]]

    seq = http.get(f"/games/{game_id}/state").json()["seq"]
    # the marro warriors have no marker this turn
    refused = _act(http, game_id, tokens["p1"], {"type": "move", "player": "p1", "figure": "marro-warriors/1",
                                                 "to": [-2, 1]})
    assert refused.status_code == 422 and refused.json()["error"]["rule"] == "§2"
    # a double-space figure names its tail
    refused = _act(http, game_id, tokens["p1"], {"type": "move", "player": "p1", "figure": "grimnak",
                                                 "to": [-1, -2]})
    assert refused.status_code == 422 and refused.json()["error"]["rule"] == "§3"
    assert http.get(f"/games/{game_id}/state").json()["seq"] == seq

    declared = _act(http, game_id, tokens["p1"], {"type": "attack", "player": "p1", "figure": "grimnak",
                                                  "target": "agent-carr"})
    assert declared.status_code == 201, declared.text
    seven = _act(http, game_id, tokens["p1"], {"type": "roll", "player": "p1", "values": [1, 2, 3, 4, 7]})
    assert seven.status_code == 422 and "1 to 6" in seven.json()["error"]["message"]
    assert _act(http, game_id, tokens["p1"], {"type": "roll", "player": "p1",
                                              "values": [1, 2, 3, 4, 6]}).status_code == 201
    defended = _act(http, game_id, tokens["p2"], {"type": "roll", "player": "p2", "values": [4, 6, 6, 6]})
    assert defended.status_code == 201, defended.text
    texts = [x["text"] for x in http.get(f"/games/{game_id}/explanations").json()["explanations"]]
    assert any("Grimnak attacks Agent Carr from 2 levels higher: 4+1 dice, 3 skulls against 1 shield: 2 wounds, "
               "destroyed" in t for t in texts), texts


def test_a_sealed_game_plays_to_its_end_through_the_legal_actions(http: httpx.Client) -> None:
    body = {"system": "heroscape", "seed": 11, "insecure_seed": True, "variant": {"map": "river-ford", "max_rounds": 2},
            "players": [{"id": "p1", "army": "vydar"}, {"id": "p2", "army": "jandar"}]}
    created = http.post("/games", json=body)
    assert created.status_code == 201, created.text
    game_id, tokens = created.json()["id"], created.json()["tokens"]
    for _ in range(400):
        legal = http.get(f"/games/{game_id}/legal", headers=_bearer(tokens["scorekeeper"])).json()
        if not legal["to_act"]:
            break
        actions = legal["actions"]
        end = next((a for a in actions if a["type"] == "end_turn"), None)
        answer = _act(http, game_id, tokens["scorekeeper"], end or actions[0])
        assert answer.status_code == 201, answer.text
    state = http.get(f"/games/{game_id}/state").json()
    assert state["phase"] == "over" and state["end_reason"] == "rounds"


def test_bad_setups_are_4xx_naming_the_field_or_the_rule(http: httpx.Client) -> None:
    bad = http.post("/games", json={"system": "heroscape", "players": [{"id": "p1", "army": "utgar"},
                                                                                    {"id": "p2", "army": "nope"}]})
    assert bad.status_code == 422 and "army" in bad.text
    bad = http.post("/games", json={**POSITION_GAME, "variant": {"mode": "table", "map": "moon"}})
    assert bad.status_code == 422
    two = {**POSITION_GAME, "position": {"figures": [{"owner": "p1", "figure": "grimnak", "hex": [0, -3],
                                                      "tail": [1, -3]},
                                                     {"owner": "p2", "figure": "agent-carr", "hex": [0, -3]}]}}
    bad = http.post("/games", json=two)
    assert bad.status_code == 422 and bad.json()["error"]["rule"] == "§3"
