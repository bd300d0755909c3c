"""From the user's side: a ``warlog serve`` process, an Art of War game over HTTP with a token per seat: an attack
answered in the opponent's turn by a GUARDIAN with the defender's own token, a reaction at a moment the rules do
not allow refused with 422 and its rule while nothing is stored, hands hidden from the other seat."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.serving import serving


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    with serving(tmp_path_factory.mktemp("aow") / "aow.duckdb") as client:
        yield client


def _act(http: httpx.Client, game_id: str, token: str, action: dict[str, Any]) -> httpx.Response:
    return http.post(f"/games/{game_id}/actions", json={"action": action}, headers={"Authorization": f"Bearer {token}"})


GAME: dict[str, Any] = {
    "system": "art-of-war", "variant": {"mode": "sealed"}, "seed": 5, "insecure_seed": True, "first": "p1",
    "players": [{"id": "p1", "name": "Ann", "army": "vanguard"}, {"id": "p2", "name": "Bob", "army": "longbow"}],
    "position": {"active": "p1", "turn": 3, "players": [
        {"player": "p1", "hand": ["soldier", "guardian"], "deck": ["wizard"],
         "field": [{"square": "B1", "card": "iron-king"}]},
        {"player": "p2", "hand": ["bow-king", "guardian"], "deck": ["priest"],
         "field": [{"square": "B1", "card": "archer"}, {"square": "A1", "card": "soldier"}]}]},
}


def test_an_attack_answered_by_a_guardian_in_the_opponents_turn_over_http(http: httpx.Client) -> None:
    created = http.post("/games", json=GAME)
    assert created.status_code == 201, created.text
    game_id, tokens = created.json()["id"], created.json()["tokens"]
    seq = http.get(f"/games/{game_id}/state").json()["seq"]
    early = _act(http, game_id, tokens["p1"], {"type": "support", "player": "p1", "card": "p1.guardian.1",
                                               "effect": "guardian"})
    assert early.status_code == 422
    assert (early.json()["error"]["code"], early.json()["error"]["rule"]) == ("illegal_action", "§1")
    assert http.get(f"/games/{game_id}/state").json()["seq"] == seq  # nothing stored
    for action in ({"type": "battle", "player": "p1"}, {"type": "attack", "player": "p1", "square": "B1",
                                                          "target": "B1"}):
        assert _act(http, game_id, tokens["p1"], action).status_code == 201
    assert _act(http, game_id, tokens["p1"], {"type": "pass", "player": "p2"}).status_code == 403
    answer = _act(http, game_id, tokens["p2"], {"type": "support", "player": "p2", "card": "p2.guardian.1",
                                                "effect": "guardian"})
    assert answer.status_code == 201, answer.text
    assert _act(http, game_id, tokens["p1"], {"type": "pass", "player": "p1"}).status_code == 201
    state = http.get(f"/games/{game_id}/state", params={"view": "spectator"}).json()
    archer = [s for s in state["players"][1]["field"] if s["square"] == "B1"]
    assert archer and archer[0]["unit"]["card"] == "p2.archer.1"  # the attack was cancelled
    assert state["players"][0]["hand"] is None and state["players"][0]["hand_count"] == 2
    texts = [x["text"] for x in http.get(f"/games/{game_id}/explanations").json()["explanations"]]
    assert "p2's GUARDIAN in rear support: cancels the attack" in texts


def test_a_setup_the_rules_refuse_is_a_422_naming_the_rule(http: httpx.Client) -> None:
    short = http.post("/games", json={"system": "art-of-war", "players": [
        {"id": "p1", "army": {"king": "iron-king", "cards": ["soldier"] * 19}}, {"id": "p2", "army": "temple"}]})
    assert short.status_code == 422 and "20" in short.text
