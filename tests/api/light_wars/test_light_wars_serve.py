"""From the user's side: a ``warlog serve`` process, a Light Wars game played over HTTP with a token per seat, dice
entered at the table (a 7 refused with its rule), illegal moves refused with 422 and their rule while nothing is
stored, a screened deployment hidden from the other seat until both have deployed, and a sealed bot game to the end.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.serving import serving


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    with serving(tmp_path_factory.mktemp("lw") / "lw.duckdb") as client:
        yield client


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _act(http: httpx.Client, game_id: str, token: str, action: dict[str, Any]) -> httpx.Response:
    return http.post(f"/games/{game_id}/actions", json={"action": action}, headers=_bearer(token))


POSITION_GAME: dict[str, Any] = {
    "system": "light-wars",
    "players": [{"id": "p1", "name": "Red", "army": {"units": ["king", "cavalry", "infantry"]}},
                {"id": "p2", "name": "Blue", "army": {"units": ["king", "archer"]}}],
    "variant": {"mode": "table"},
    "position": {"units": [{"owner": "p1", "unit": "K", "square": "A1", "facing": "N"},
                           {"owner": "p1", "unit": "C1", "square": "D6", "facing": "S"},
                           {"owner": "p1", "unit": "I1", "square": "E5", "facing": "W"},
                           {"owner": "p2", "unit": "K", "square": "I9", "facing": "S"},
                           {"owner": "p2", "unit": "A1", "square": "D5", "facing": "W"}],
                 "to_move": "p1"},
}


def test_a_table_game_over_http_with_a_token_per_seat_and_dice_entered(http: httpx.Client) -> None:
    created = http.post("/games", json=POSITION_GAME)
    assert created.status_code == 201, created.text
    game_id, tokens = created.json()["id"], created.json()["tokens"]
    assert set(tokens) == {"scorekeeper", "p1", "p2"}
    assert _act(http, game_id, tokens["p1"], {"type": "tactics", "player": "p1", "tiles": []}).status_code == 201

    # another seat's token may not act for p1
    assert _act(http, game_id, tokens["p2"], {"type": "wait", "player": "p1", "square": "E5"}).status_code == 403
    seq = http.get(f"/games/{game_id}/state").json()["seq"]
    # beyond the move value: 422 with the rule, nothing stored
    refused = _act(http, game_id, tokens["p1"], {"type": "move", "player": "p1", "square": "E5", "to": "E8",
                                                 "facing": "N"})
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert (error["code"], error["rule"]) == ("illegal_action", "§3.2") and "moves up to 2" in error["message"]
    # attacking a unit the attacker does not face
    refused = _act(http, game_id, tokens["p1"], {"type": "attack", "player": "p1", "target": "D5",
                                                 "attackers": ["A1"]})
    assert refused.status_code == 422 and refused.json()["error"]["rule"] == "§4"
    assert http.get(f"/games/{game_id}/state").json()["seq"] == seq

    declared = _act(http, game_id, tokens["p1"], {"type": "attack", "player": "p1", "target": "D5",
                                                  "attackers": ["D6", "E5"]})
    assert declared.status_code == 201, declared.text
    assert [e["type"] for e in declared.json()["events"]] == ["attack_declared"]
    seven = _act(http, game_id, tokens["p1"], {"type": "roll", "player": "p1", "value": 7})
    assert seven.status_code == 422 and seven.json()["error"]["rule"] == "§4"
    assert "1 to 6" in seven.json()["error"]["message"]
    assert _act(http, game_id, tokens["p1"], {"type": "roll", "player": "p1", "value": 4}).status_code == 201
    defended = _act(http, game_id, tokens["scorekeeper"], {"type": "roll", "player": "p2", "value": 5})
    assert defended.status_code == 201, defended.text
    resolved = next(e for e in defended.json()["events"] if e["type"] == "attack_resolved")
    assert (resolved["attack_total"], resolved["defence_total"], resolved["winner"]) == (12, 6, "attack")

    dice = [e for e in http.get(f"/games/{game_id}/events").text.splitlines() if '"die_rolled"' in e]
    assert len(dice) == 2 and all('"attack":1' in line for line in dice)
    explained = http.get(f"/games/{game_id}/explanations").json()
    texts = [x["text"] for x in explained["explanations"]]
    assert any("Cavalry and Infantry attack the Archer from its side and rear: 3+1 + 2+2 + die 4 = 12 against "
               "1 + die 5 = 6: the Archer is removed" in t for t in texts), texts
    state = http.get(f"/games/{game_id}/state", params={"view": "p2"}, headers=_bearer(tokens["p2"])).json()
    assert state["scores"] == {"p1": 3, "p2": 0} and not any(u["unit"] == "A1" and u["owner"] == "p2"
                                                             for u in state["units"])


def test_a_screened_deployment_stays_hidden_from_the_other_seat_until_both_have_deployed(http: httpx.Client) -> None:
    body = {"system": "light-wars", "seed": 5, "insecure_seed": True, "variant": {"deployment": "screen"},
            "players": [{"id": "p1", "army": "balanced"}, {"id": "p2", "army": "horde"}]}
    created = http.post("/games", json=body).json()
    game_id, tokens = created["id"], created["tokens"]
    legal = http.get(f"/games/{game_id}/legal", params={"seat": "p1"}, headers=_bearer(tokens["p1"])).json()
    layout = legal["actions"][0]
    assert _act(http, game_id, tokens["p1"], layout).status_code == 201
    for view, token in (("p2", tokens["p2"]), ("spectator", None)):
        headers = _bearer(token) if token else {}
        state = http.get(f"/games/{game_id}/state", params={"view": view}, headers=headers).json()
        assert all(u["square"] is None for u in state["units"] if u["owner"] == "p1"), view
        events = http.get(f"/games/{game_id}/events", params={"view": view}, headers=headers).text
        assert layout["placements"][0]["square"] + '"' not in events.split('"deployment_screened"')[1], view
    own = http.get(f"/games/{game_id}/state", params={"view": "p1"}, headers=_bearer(tokens["p1"])).json()
    assert {u["square"] for u in own["units"] if u["owner"] == "p1"} == {p["square"] for p in layout["placements"]}

    other = http.get(f"/games/{game_id}/legal", params={"seat": "p2"}, headers=_bearer(tokens["p2"])).json()
    assert _act(http, game_id, tokens["p2"], other["actions"][0]).status_code == 201
    state = http.get(f"/games/{game_id}/state", params={"view": "spectator"}).json()
    assert {u["square"] for u in state["units"] if u["owner"] == "p1"} == {p["square"] for p in layout["placements"]}
