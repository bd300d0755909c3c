"""Access: every game route without a token, with a wrong one, with another seat's, and with the right one.

Decisions (docs/api.md): no token where one is needed -> 401 unauthorized; a token nobody in this game holds ->
401 invalid_token (checked on every per-game route, public ones too); a valid token of a seat that may not do
this -> 403 forbidden. Nothing a refused request asks for is stored.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.helpers import SETUP, bearer, bot_action, new_game

WRONG = "this-is-not-anybodys-token-0123456789"

# (method, path template, params, who may) -- the game is fresh: p1 is to act.
ROUTES: list[tuple[str, str, dict[str, Any], set[str]]] = [
    ("GET", "/games/{id}", {}, {"anonymous", "scorekeeper", "p1", "p2"}),
    ("GET", "/games/{id}/events", {"view": "spectator"}, {"anonymous", "scorekeeper", "p1", "p2"}),
    ("GET", "/games/{id}/events", {"view": "p1"}, {"scorekeeper", "p1"}),
    ("GET", "/games/{id}/events", {"view": "all"}, {"scorekeeper"}),
    ("GET", "/games/{id}/state", {"view": "spectator"}, {"anonymous", "scorekeeper", "p1", "p2"}),
    ("GET", "/games/{id}/state", {"view": "p1"}, {"scorekeeper", "p1"}),
    ("GET", "/games/{id}/state", {"view": "p2"}, {"scorekeeper", "p2"}),
    ("GET", "/games/{id}/state", {"view": "all"}, {"scorekeeper"}),
    ("GET", "/games/{id}/explanations", {"view": "spectator"}, {"anonymous", "scorekeeper", "p1", "p2"}),
    ("GET", "/games/{id}/explanations", {"view": "p2"}, {"scorekeeper", "p2"}),
    ("GET", "/games/{id}/explanations", {"view": "all"}, {"scorekeeper"}),
    ("GET", "/games/{id}/steps", {"view": "spectator"}, {"anonymous", "scorekeeper", "p1", "p2"}),
    ("GET", "/games/{id}/steps", {"view": "p1"}, {"scorekeeper", "p1"}),
    ("GET", "/games/{id}/steps", {"view": "all"}, {"scorekeeper"}),
    ("GET", "/games/{id}/legal", {}, {"scorekeeper", "p1"}),
    ("GET", "/games/{id}/live", {"view": "spectator", "timeout": 0}, {"anonymous", "scorekeeper", "p1", "p2"}),
    ("GET", "/games/{id}/live", {"view": "p1", "timeout": 0}, {"scorekeeper", "p1"}),
    ("GET", "/games/{id}/live", {"view": "all", "timeout": 0}, {"scorekeeper"}),
    ("POST", "/games/{id}/actions", {}, {"scorekeeper", "p1"}),
]
CALLERS = ["anonymous", "wrong", "scorekeeper", "p1", "p2"]


def _call(client: TestClient, method: str, path: str, params: dict[str, Any], headers: dict[str, str]) -> Any:
    if method == "POST":
        _, action = bot_action(client, path.split("/")[2], {})
        assert action is not None and action["player"] == "p1"
        return client.post(path, json={"action": action}, headers=headers)
    return client.get(path, params=params, headers=headers)


@pytest.mark.parametrize(("method", "template", "params", "allowed"), ROUTES)
def test_every_game_route_checks_the_token(
    client: TestClient, method: str, template: str, params: dict[str, Any], allowed: set[str]
) -> None:
    for caller in CALLERS:
        game_id, tokens = new_game(client)
        headers = {} if caller == "anonymous" else bearer(WRONG if caller == "wrong" else tokens[caller])
        response = _call(client, method, template.format(id=game_id), params, headers)
        seq = client.get(f"/games/{game_id}").json()["seq"]
        if caller in allowed:
            assert response.status_code in (200, 201), (caller, response.text)
            continue
        expected = {"anonymous": 401, "wrong": 401}.get(caller, 403)
        assert response.status_code == expected, (caller, template, params, response.text)
        assert response.json()["error"]["code"] in ("unauthorized", "invalid_token", "forbidden")
        assert seq == 3, "a refused request stored something"


def test_a_player_cannot_act_for_the_other(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    _, action = bot_action(client, game_id, {})
    response = client.post(f"/games/{game_id}/actions", json={"action": action}, headers=bearer(tokens["p2"]))
    assert response.status_code == 403
    assert client.get(f"/games/{game_id}").json()["seq"] == 3


def test_tokens_of_one_game_do_not_open_another(client: TestClient) -> None:
    game_a, tokens_a = new_game(client)
    game_b, _ = new_game(client)
    response = client.get(f"/games/{game_b}/state", params={"view": "all"}, headers=bearer(tokens_a["scorekeeper"]))
    assert response.status_code == 401
    own = client.get(f"/games/{game_a}/state", params={"view": "all"}, headers=bearer(tokens_a["scorekeeper"]))
    assert own.status_code == 200


def test_a_malformed_authorization_header_is_401(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    for header in (f"Basic {tokens['p1']}", "Bearer", "Bearer " + "x" * 5000):
        response = client.get(f"/games/{game_id}", headers={"Authorization": header})
        assert response.status_code == 401, header


def test_the_default_view_is_the_widest_the_token_allows(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    full = client.get(f"/games/{game_id}/state", headers=bearer(tokens["scorekeeper"])).json()
    mine = client.get(f"/games/{game_id}/state", headers=bearer(tokens["p1"])).json()
    public = client.get(f"/games/{game_id}/state").json()
    assert "cards" in full["hands"]["p2"] and "cards" in mine["hands"]["p1"] and "cards" not in mine["hands"]["p2"]
    assert "cards" not in public["hands"]["p1"]


@pytest.mark.parametrize("path", ["/games", "/tournaments"])
def test_admin_key_guards_creation(admin_client: TestClient, path: str) -> None:
    body = SETUP if path == "/games" else {"name": "Open", "system": "lords-of-war", "rounds": 3}
    assert admin_client.post(path, json=body).status_code == 401
    assert admin_client.post(path, json=body, headers={"X-Admin-Key": "nope"}).status_code == 403
    assert admin_client.post(path, json=body, headers=bearer("nope")).status_code == 403
    assert admin_client.get(path).json()[path.strip("/")] == []
    assert admin_client.post(path, json=body, headers={"X-Admin-Key": "let-me-in"}).status_code == 201
    assert admin_client.post(path, json=body, headers=bearer("let-me-in")).status_code == 201


def test_tournament_writes_need_the_organisers_token(client: TestClient) -> None:
    created = client.post("/tournaments", json={"name": "Open", "system": "lords-of-war", "rounds": 2}).json()
    tid = created["id"]
    _, game_tokens = new_game(client)
    entrant = {"id": "alice", "name": "Alice", "army": "orcs"}
    writes = [
        ("/tournaments/{tid}/players", entrant),
        ("/tournaments/{tid}/rounds", None),
        ("/tournaments/{tid}/rounds/1/tables/1/result", {"winner": "p1"}),
    ]
    for path, body in writes:
        for headers, status in (({}, 401), (bearer(WRONG), 401), (bearer(game_tokens["scorekeeper"]), 401)):
            response = client.post(path.format(tid=tid), json=body, headers=headers)
            assert response.status_code == status, (path, headers, response.text)
    assert client.get(f"/tournaments/{tid}").json()["players"] == []
    ok = client.post(f"/tournaments/{tid}/players", json=entrant, headers=bearer(created["token"]))
    assert ok.status_code == 201
