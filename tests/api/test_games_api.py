"""Games over HTTP: create, get, act (conflict, illegal, idempotency), events, state, explanations, legal."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from replay.store.duckdb_store import DuckDBEventStore
from replay.store.memory_store import MemoryEventStore
from tests.api.helpers import SETUP, bearer, bot_action, new_game, play


@pytest.fixture(params=["memory", "duckdb"])
def client(request: pytest.FixtureRequest) -> Iterator[TestClient]:
    """Every test here against both stores: the DuckDB one takes the action route's event-loop path
    (GameService.begin_act), the memory one GameService.act in a worker thread."""
    store = MemoryEventStore() if request.param == "memory" else DuckDBEventStore(":memory:")
    with TestClient(create_app(Settings(db=":memory:"), store=store)) as test_client:
        yield test_client
    if request.param == "duckdb":
        store.close()


def test_create_game_answers_id_seq_and_tokens_once(client: TestClient) -> None:
    response = client.post("/games", json=SETUP)
    assert response.status_code == 201
    body = response.json()
    assert set(body["tokens"]) == {"scorekeeper", "p1", "p2"}
    assert len(set(body["tokens"].values())) == 3
    assert body["seq"] >= 1
    listed = client.get("/games").json()["games"]
    assert [g["id"] for g in listed] == [body["id"]]
    text = json.dumps(listed) + client.get(f"/games/{body['id']}").text
    assert not any(token in text for token in body["tokens"].values())
    assert "token_hashes" not in text


def test_create_game_with_a_bad_setup_is_422_and_stores_nothing(client: TestClient) -> None:
    response = client.post("/games", json={**SETUP, "players": [{"id": "p1", "army": "gnomes"}, SETUP["players"][1]]})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid_setup"
    unknown = client.post("/games", json={**SETUP, "system": "chess"})
    assert unknown.status_code == 422
    assert client.get("/games").json()["games"] == []


def test_get_game_shows_summary(client: TestClient) -> None:
    game_id, _ = new_game(client, variant={"kill_target": 12})
    body = client.get(f"/games/{game_id}").json()
    assert body["system"] == "lords-of-war"
    assert [p["name"] for p in body["players"]] == ["Alice", "Bob"]
    assert body["variant"] == {"kill_target": 12}
    assert body["status"] == "active" and body["winner"] is None
    assert body["seq"] == 3


def test_act_stores_the_events_and_answers_them(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    seq, action = bot_action(client, game_id, {})
    response = client.post(f"/games/{game_id}/actions", json={"action": action, "expected_seq": seq},
                           headers=bearer(tokens["p1"]))
    assert response.status_code == 201
    body = response.json()
    assert body["seq"] == seq + len(body["events"]) and body["events"]
    assert body["events"][0]["type"] == "placed" and body["events"][0]["seq"] == seq + 1
    assert client.get(f"/games/{game_id}").json()["seq"] == body["seq"]


def test_stale_expected_seq_is_409_conflict(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    seq, action = bot_action(client, game_id, {})
    response = client.post(f"/games/{game_id}/actions", json={"action": action, "expected_seq": seq - 1},
                           headers=bearer(tokens["scorekeeper"]))
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "conflict" and error["seq"] == seq
    assert client.get(f"/games/{game_id}").json()["seq"] == seq


def test_illegal_action_is_422_with_the_rule(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    action = {"type": "place", "player": "p1", "card": "orcs/orc-ravager-2", "square": "A1"}
    response = client.post(f"/games/{game_id}/actions", json={"action": action}, headers=bearer(tokens["p1"]))
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "illegal_action" and error["rule"] and error["message"]
    assert client.get(f"/games/{game_id}").json()["seq"] == 3


def test_malformed_action_is_422(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    malformed = ({"type": "fly", "player": "p1"}, {"type": "place", "player": "p1"},
                 {"type": "draw", "player": "p1", "x": 1})
    for action in malformed:
        response = client.post(f"/games/{game_id}/actions", json={"action": action},
                               headers=bearer(tokens["scorekeeper"]))
        assert response.status_code == 422, action
        assert response.json()["error"]["code"] == "malformed_action"


def test_repeated_idempotency_key_returns_the_first_answer_and_stores_nothing(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    seq, action = bot_action(client, game_id, {})
    request = {"action": action, "expected_seq": seq, "idempotency_key": "tablet-1"}
    first = client.post(f"/games/{game_id}/actions", json=request, headers=bearer(tokens["p1"]))
    again = client.post(f"/games/{game_id}/actions", json=request, headers=bearer(tokens["p1"]))
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert client.get(f"/games/{game_id}").json()["seq"] == first.json()["seq"]


def test_events_are_ndjson_with_seq_and_type(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    last = play(client, game_id, tokens, max_actions=6)
    response = client.get(f"/games/{game_id}/events")
    assert response.headers["content-type"].startswith("application/x-ndjson")
    lines = [json.loads(line) for line in response.text.splitlines()]
    assert [e["seq"] for e in lines] == list(range(1, last + 1))
    assert all(isinstance(e["type"], str) for e in lines)
    part = client.get(f"/games/{game_id}/events", params={"from": 2, "to": 4}).text.splitlines()
    assert [json.loads(line)["seq"] for line in part] == [2, 3, 4]


def test_state_at_a_seq_and_latest(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    last = play(client, game_id, tokens, max_actions=4)
    latest = client.get(f"/games/{game_id}/state", headers=bearer(tokens["scorekeeper"])).json()
    assert latest["seq"] == last
    early = client.get(f"/games/{game_id}/state", params={"seq": 3, "view": "spectator"}).json()
    assert early["seq"] == 3 and early["board"] == []
    beyond = client.get(f"/games/{game_id}/state", params={"seq": last + 1})
    assert beyond.status_code == 422 and beyond.json()["error"]["code"] == "invalid_seq"


def test_hidden_cards_are_absent_from_other_views(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    full = client.get(f"/games/{game_id}/state", params={"view": "all"}, headers=bearer(tokens["scorekeeper"])).json()
    mine = client.get(f"/games/{game_id}/state", params={"view": "p1"}, headers=bearer(tokens["p1"])).json()
    public = client.get(f"/games/{game_id}/state", params={"view": "spectator"}).json()
    p2_cards = full["hands"]["p2"]["cards"]
    assert p2_cards and mine["hands"]["p1"]["cards"] == full["hands"]["p1"]["cards"]
    assert "cards" not in mine["hands"]["p2"] and "cards" not in public["hands"]["p1"]
    assert public["hands"]["p2"]["count"] == len(p2_cards)


def test_explanations_cover_every_event(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    last = play(client, game_id, tokens, max_actions=5)
    body = client.get(f"/games/{game_id}/explanations").json()
    assert body["view"] == "spectator"
    assert [e["seq"] for e in body["explanations"]] == list(range(1, last + 1))
    assert all(e["text"] for e in body["explanations"])


def test_legal_lists_the_active_sides_actions(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    body = client.get(f"/games/{game_id}/legal", headers=bearer(tokens["p1"])).json()
    assert body["active"] == "p1" and body["actions"]
    assert all(a["player"] == "p1" for a in body["actions"])
    first = body["actions"][0]
    accepted = client.post(f"/games/{game_id}/actions", json={"action": first}, headers=bearer(tokens["p1"]))
    assert accepted.status_code == 201


def test_a_finished_game_shows_its_result_in_the_list(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    play(client, game_id, tokens)
    summary = client.get(f"/games/{game_id}").json()
    assert summary["status"] == "over" and summary["winner"] in ("p1", "p2", "draw") and summary["end_reason"]
    listed = client.get("/games").json()["games"][0]["metadata"]
    assert listed["status"] == "over" and listed["winner"] == summary["winner"]
    # once over, every view is public
    assert client.get(f"/games/{game_id}/state", params={"view": "all"}).status_code == 200


def test_concede_ends_the_game(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    response = client.post(f"/games/{game_id}/actions", json={"action": {"type": "concede", "player": "p2"}},
                           headers=bearer(tokens["p2"]))
    assert response.status_code == 201
    summary = client.get(f"/games/{game_id}").json()
    assert summary["status"] == "over" and summary["winner"] == "p1" and summary["end_reason"] == "concession"


def test_list_games_pages_and_filters(client: TestClient) -> None:
    ids = [new_game(client)[0] for _ in range(5)]
    first = client.get("/games", params={"limit": 2}).json()
    second = client.get("/games", params={"limit": 2, "cursor": first["next_cursor"]}).json()
    third = client.get("/games", params={"limit": 2, "cursor": second["next_cursor"]}).json()
    assert [g["id"] for g in first["games"] + second["games"] + third["games"]] == ids
    assert third["next_cursor"] is None
    assert client.get("/games", params={"system": "l5r"}).json()["games"] == []
    assert len(client.get("/games", params={"player": "Alice"}).json()["games"]) == 5
    bad = client.get("/games", params={"cursor": "nonsense!"})
    assert bad.status_code == 422


def test_list_games_filters_by_army_and_lists_newest_first(client: TestClient) -> None:
    orcs_dwarves = new_game(client)[0]
    elves_orcs = new_game(client, players=[{"id": "p1", "name": "Cy", "army": "elves"},
                                           {"id": "p2", "name": "Di", "army": "orcs"}])[0]
    listed = client.get("/games", params={"army": "orcs"}).json()["games"]
    assert [g["id"] for g in listed] == [orcs_dwarves, elves_orcs]
    assert listed[0]["metadata"]["armies"] == {"p1": "orcs", "p2": "dwarves"}
    assert [g["id"] for g in client.get("/games", params={"army": "elves"}).json()["games"]] == [elves_orcs]
    assert client.get("/games", params={"army": "undead"}).json()["games"] == []
    newest = client.get("/games", params={"order": "newest", "limit": 1}).json()
    assert [g["id"] for g in newest["games"]] == [elves_orcs]
    after = client.get("/games", params={"order": "newest", "cursor": newest["next_cursor"]}).json()
    assert [g["id"] for g in after["games"]] == [orcs_dwarves] and after["next_cursor"] is None
    bad = client.get("/games", params={"order": "sideways"})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_request"


def test_unknown_game_is_404(client: TestClient) -> None:
    response = client.get("/games/nope")
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"


def test_a_lagging_status_is_repaired_from_the_state(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    client.post(f"/games/{game_id}/actions", json={"action": {"type": "concede", "player": "p1"}},
                headers=bearer(tokens["p1"]))
    # as if the server had stopped between the append and the metadata update
    client.app.state.service.store.update_metadata(game_id, {"status": "active", "winner": None})  # type: ignore[attr-defined]
    assert client.get(f"/games/{game_id}").json()["status"] == "over"
    assert client.get("/games").json()["games"][0]["metadata"]["winner"] == "p2"
