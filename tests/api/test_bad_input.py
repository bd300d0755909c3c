"""Bad input gets a 4xx with a clear message in the contract's error body, never a 500."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from tests.api.helpers import SETUP, bearer, new_game


def error_of(response) -> dict:  # type: ignore[no-untyped-def]
    body = response.json()
    assert set(body) == {"error"}, body
    assert body["error"]["code"] and body["error"]["message"], body
    return body["error"]


def test_a_body_over_the_limit_is_413(client: TestClient) -> None:
    limit = client.app.state.settings.max_body_bytes  # type: ignore[attr-defined]
    huge = {**SETUP, "variant": {"padding": "x" * (limit + 10)}}
    response = client.post("/games", json=huge)
    assert response.status_code == 413
    assert error_of(response)["code"] == "payload_too_large"
    assert client.get("/games").json()["games"] == []


def test_a_streamed_body_over_the_limit_is_413(client: TestClient) -> None:
    limit = client.app.state.settings.max_body_bytes  # type: ignore[attr-defined]

    def chunks() -> Iterator[bytes]:
        yield b'{"system": "lords-of-war", "players": [], "variant": {"padding": "'
        for _ in range(limit // 1000 + 2):
            yield b"x" * 1000
        yield b'"}}'

    response = client.post("/games", content=chunks(), headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    assert error_of(response)["code"] == "payload_too_large"


def test_a_lying_content_length_is_refused(client: TestClient) -> None:
    lying = {"Content-Type": "application/json", "Content-Length": "nine"}
    response = client.post("/games", content=b"{}", headers=lying)
    assert 400 <= response.status_code < 500


@pytest.mark.parametrize(
    "body",
    [
        {**SETUP, "seed": "seven"},
        {**SETUP, "seed": -1},
        {**SETUP, "seed": 10**30},
        {**SETUP, "colour": "red"},
        {**SETUP, "players": "two"},
        {**SETUP, "players": [{"id": "p1", "army": "orcs", "hat": 1}, SETUP["players"][1]]},
        {**SETUP, "players": [{"id": "p1", "army": 3}, SETUP["players"][1]]},
        {**SETUP, "players": [{"id": "x" * 10_000, "army": "orcs"}, SETUP["players"][1]]},
        {**SETUP, "system": "s" * 5000},
        {**SETUP, "variant": {"mode": "blind"}},
        {**SETUP, "variant": {"kill_target": -5}},
        {**SETUP, "variant": {"kill_target": "many"}},
        {**SETUP, "variant": {"kill_target": 10**40}},
        {**SETUP, "position": {"board": "nope", "to_move": "p1"}},
        {**SETUP, "position": {"board": [{"square": "Z99", "card": "orcs/orc-butcher", "owner": "p1"}],
                               "to_move": "p1"}},
        [],
        "just a string",
        None,
    ],
)
def test_bad_game_setups_are_4xx(client: TestClient, body: object) -> None:
    response = client.post("/games", json=body)
    assert 400 <= response.status_code < 500, response.text
    error_of(response)
    assert client.get("/games").json()["games"] == []


def test_invalid_json_is_422(client: TestClient) -> None:
    response = client.post("/games", content=b'{"system": ', headers={"Content-Type": "application/json"})
    assert response.status_code == 422
    error_of(response)
    assert response.json()["error"] == {
        "code": "invalid_json", "message": "the request body is not valid JSON", "details": [
            {"loc": ["body", "11"], "message": "JSON decode error"}]}


def test_deeply_nested_json_is_4xx(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    deep = b'{"action": ' + b"[" * 20_000 + b"]" * 20_000 + b"}"
    response = client.post(f"/games/{game_id}/actions", content=deep,
                           headers={"Content-Type": "application/json", **bearer(tokens["p1"])})
    assert 400 <= response.status_code < 500, response.text


@pytest.mark.parametrize(
    "body",
    [
        {"action": {"type": "draw", "player": "p1"}, "expected_seq": -5},
        {"action": {"type": "draw", "player": "p1"}, "expected_seq": 10**30},
        {"action": {"type": "draw", "player": "p1"}, "expected_seq": "three"},
        {"action": {"type": "draw", "player": "p1"}, "idempotency_key": "k" * 10_000},
        {"action": {"type": "draw", "player": "p1"}, "extra": True},
        {"action": "draw"},
        {"action": {"type": "place", "player": "p1", "card": "c" * 20_000, "square": "C3"}},
        {"action": {"type": "place", "player": "p1", "card": "orcs/orc-butcher", "square": "ZZ9999999999"}},
        {"action": {"type": "place", "player": "p1", "card": "orcs/orc-butcher", "square": "99999999999,-99999999"}},
        {"action": {"type": "place", "player": "p1", "card": 5, "square": []}},
        {"action": {"type": "place", "player": "p1", "card": "orcs/orc-butcher", "square": "C3", "shots": "all"}},
        {"action": {"type": "recall", "player": "p1", "square": None}},
        {},
    ],
)
def test_bad_actions_are_4xx_and_store_nothing(client: TestClient, body: object) -> None:
    game_id, tokens = new_game(client)
    response = client.post(f"/games/{game_id}/actions", json=body, headers=bearer(tokens["scorekeeper"]))
    assert 400 <= response.status_code < 500, response.text
    error_of(response)
    assert client.get(f"/games/{game_id}").json()["seq"] == 3


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("/games", {"limit": 10**9}),
        ("/games", {"limit": -1}),
        ("/games", {"limit": "many"}),
        ("/games", {"cursor": "!" * 400}),
        ("/games", {"system": "s" * 10_000}),
        ("/games/{id}/state", {"seq": -5}),
        ("/games/{id}/state", {"seq": 10**30}),
        ("/games/{id}/state", {"view": "p9"}),
        ("/games/{id}/state", {"view": "v" * 10_000}),
        ("/games/{id}/events", {"from": 0}),
        ("/games/{id}/events", {"from": "first"}),
        ("/games/{id}/live", {"timeout": 10**9}),
        ("/games/{id}/live", {"timeout": "nan"}),
        ("/games/{id}/live", {"after": -1}),
        ("/games/{id}/explanations", {"view": "everything"}),
        ("/games/{id}/steps", {"from": 0}),
        ("/games/{id}/steps", {"limit": 501}),
        ("/games/{id}/steps", {"from": 5, "to": 2}),
        ("/tournaments", {"limit": 10**9}),
    ],
)
def test_absurd_query_values_are_422(client: TestClient, path: str, params: dict) -> None:
    game_id, _ = new_game(client)
    response = client.get(path.format(id=game_id), params=params)
    assert response.status_code == 422, response.text
    error_of(response)


def test_a_huge_game_id_is_4xx(client: TestClient) -> None:
    response = client.get("/games/" + "g" * 5000)
    assert 400 <= response.status_code < 500
    error_of(response)


def test_unknown_routes_and_methods_use_the_error_body(client: TestClient) -> None:
    assert error_of(client.get("/nowhere"))["code"] == "not_found"
    assert error_of(client.delete("/games"))["code"] == "method_not_allowed"


def test_bad_tournament_input_is_4xx(client: TestClient) -> None:
    for body in (
        {"name": "x", "system": "lords-of-war", "rounds": 0},
        {"name": "x", "system": "lords-of-war", "rounds": 10**9},
        {"name": "x", "system": "chess", "rounds": 3},
        {"name": "x", "system": "lords-of-war", "rounds": 3, "format": "knockout"},
        {"name": "", "system": "lords-of-war", "rounds": 3},
        {"name": "x", "system": "lords-of-war", "rounds": 3, "variant": {"mode": "blind"}},
        {"name": "x", "system": "lords-of-war", "rounds": 3, "prize": 100},
    ):
        response = client.post("/tournaments", json=body)
        assert 400 <= response.status_code < 500, (body, response.text)
        error_of(response)
    assert client.get("/tournaments").json()["tournaments"] == []
    created = client.post("/tournaments", json={"name": "x", "system": "lords-of-war", "rounds": 2}).json()
    organiser = bearer(created["token"])
    for entrant in ({"id": "bad id!", "army": "orcs"}, {"id": "a", "army": "gnomes"}, {"id": "a", "army": []}):
        response = client.post(f"/tournaments/{created['id']}/players", json=entrant, headers=organiser)
        assert response.status_code == 422, (entrant, response.text)
    response = client.post(f"/tournaments/{created['id']}/rounds/99/tables/1/result", json={"winner": "p1"},
                           headers=organiser)
    assert response.status_code == 422
