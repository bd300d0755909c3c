"""A test-only system of 3-4 seats (pebbles) through the HTTP API: its own setup model in the OpenAPI document,
a token per seat, play with seat tokens, views, the legal actions of the seat to act, and a tournament of pods.

Pebbles (tests/plugins/pebbles, installed into the test venv) is registered, found through its entry point, before
the app is created: ``tests.plugins.installed.pebbles_registered``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api import systems as api_systems
from api.app import create_app
from api.settings import Settings
from replay.store.memory_store import MemoryEventStore
from tests.api.helpers import SETUP, bearer
from tests.plugins.installed import pebbles_registered

PEBBLES_GAME: dict[str, Any] = {
    "system": "pebbles",
    "players": [{"id": "p1", "name": "Ann"}, {"id": "p2", "name": "Ben"}, {"id": "p3", "name": "Cy"}],
    "variant": {"heap": 12},
    "seed": 5, "insecure_seed": True,
}


@pytest.fixture
def client() -> Iterator[TestClient]:
    with pebbles_registered(), TestClient(create_app(Settings(db=":memory:"), store=MemoryEventStore())) as c:
        yield c


def new_pebbles_game(client: TestClient, **overrides: Any) -> tuple[str, dict[str, str]]:
    response = client.post("/games", json={**PEBBLES_GAME, **overrides})
    assert response.status_code == 201, response.text
    return response.json()["id"], response.json()["tokens"]


def play_out(client: TestClient, game_id: str, tokens: dict[str, str], pick: int = 0) -> dict[str, Any]:
    """Play to the end, each move by the seat to act with its own token, chosen from its legal actions."""
    for _ in range(200):
        state = client.get(f"/games/{game_id}/state").json()
        if state["phase"] == "over":
            return state
        seat = state["active"]
        legal = client.get(f"/games/{game_id}/legal", headers=bearer(tokens[seat])).json()
        assert legal["active"] == seat and legal["to_act"] == [seat], legal
        action = legal["actions"][(legal["seq"] + pick) % len(legal["actions"])]
        moved = client.post(f"/games/{game_id}/actions", json={"action": action, "expected_seq": legal["seq"]},
                            headers=bearer(tokens[seat]))
        assert moved.status_code == 201, moved.text
    raise AssertionError("the game did not end in 200 moves")


# -- POST /games: one branch per system ------------------------------------------------------------------


def _post_games_schema(client: TestClient) -> tuple[dict[str, Any], dict[str, Any]]:
    doc = client.get("/openapi.json").json()
    body = doc["paths"]["/games"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    schemas = doc["components"]["schemas"]
    return schemas[body["$ref"].rsplit("/", 1)[1]], schemas


def test_the_openapi_body_of_post_games_has_one_branch_per_registered_system(client: TestClient) -> None:
    game_in, schemas = _post_games_schema(client)
    assert game_in["discriminator"]["propertyName"] == "system"
    assert sorted(game_in["discriminator"]["mapping"]) == sorted(api_systems.plugin_names())
    names = api_systems.plugin_names()
    assert {"lords-of-war", "pebbles"} <= set(names) and len(game_in["oneOf"]) == len(names)
    branches = {name: schemas[ref.rsplit("/", 1)[1]] for name, ref in game_in["discriminator"]["mapping"].items()}
    for name, branch in branches.items():
        assert branch["properties"]["system"]["const"] == name
    pebbles_variant = schemas[branches["pebbles"]["properties"]["variant"]["$ref"].rsplit("/", 1)[1]]
    assert set(pebbles_variant["properties"]) == {"heap", "teams"}
    pebbles_player = schemas[branches["pebbles"]["properties"]["players"]["items"]["$ref"].rsplit("/", 1)[1]]
    assert set(pebbles_player["properties"]) == {"id", "name"}  # pebbles' players bring no army
    lords_variant = schemas[branches["lords-of-war"]["properties"]["variant"]["$ref"].rsplit("/", 1)[1]]
    assert set(lords_variant["properties"]) == {"mode", "intermediate", "unbounded", "teams", "kill_target",
                                              "command_target"}
    assert lords_variant["properties"]["mode"]["enum"] == ["sealed", "table"]
    assert {"lords-of-war", "pebbles"} <= {e["system"] for e in game_in["examples"]}


def test_without_pebbles_the_body_has_the_built_in_systems_only() -> None:
    with TestClient(create_app(Settings(db=":memory:"), store=MemoryEventStore())) as plain:
        game_in, _ = _post_games_schema(plain)
        assert sorted(game_in["discriminator"]["mapping"]) == sorted(api_systems.plugin_names())
        unknown = plain.post("/games", json=PEBBLES_GAME)
        assert unknown.status_code == 422 and "pebbles" in unknown.json()["error"]["message"]


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({**PEBBLES_GAME, "variant": {"heap": "many"}}, "pebbles.variant.heap"),
        ({**PEBBLES_GAME, "variant": {"heap": 12, "colour": "red"}}, "pebbles.variant.colour"),
        ({**PEBBLES_GAME, "players": [{"id": "p1", "army": "orcs"}, {"id": "p2"}, {"id": "p3"}]},
         "pebbles.players.0.army"),
        ({**PEBBLES_GAME, "players": [{"id": f"p{i}"} for i in range(1, 6)]}, "pebbles.players"),
        ({**SETUP, "variant": {"mode": "blind"}}, "lords-of-war.variant.mode"),
        ({**SETUP, "variant": {"heap": 12}}, "lords-of-war.variant.heap"),
        ({**SETUP, "position": {"board": [], "to_move": "p9"}}, "lords-of-war.position.to_move"),
    ],
)
def test_a_bad_body_is_answered_with_its_own_systems_fields(client: TestClient, body: dict[str, Any],
                                                             where: str) -> None:
    response = client.post("/games", json=body)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "invalid_request" and error["message"].startswith(where + ":"), error
    assert client.get("/games").json()["games"] == []


def test_players_must_be_the_seats_in_order(client: TestClient) -> None:
    body = {**PEBBLES_GAME, "players": [{"id": "p1"}, {"id": "p3"}, {"id": "p2"}]}
    response = client.post("/games", json=body)
    assert response.status_code == 422
    assert "players are p1, p2, p3 in seating order, not p1, p3, p2" in response.json()["error"]["message"]
    rules = client.post("/games", json={**PEBBLES_GAME, "variant": {"teams": True}})  # teams need four seats
    assert rules.status_code == 422 and rules.json()["error"]["code"] == "invalid_setup"


# -- a game of three seats -------------------------------------------------------------------------------


def test_a_pebbles_game_over_http_with_a_token_per_seat(client: TestClient) -> None:
    game_id, tokens = new_pebbles_game(client)
    assert set(tokens) == {"scorekeeper", "p1", "p2", "p3"} and len(set(tokens.values())) == 4
    game = client.get(f"/games/{game_id}").json()
    assert [(p["id"], p["name"], p["army"]) for p in game["players"]] == [
        ("p1", "Ann", None), ("p2", "Ben", None), ("p3", "Cy", None)]
    # each seat sees its own bonus only, and only its own view
    own = client.get(f"/games/{game_id}/state", params={"view": "p2"}, headers=bearer(tokens["p2"])).json()
    assert set(own["bonuses"]) == {"p2"}
    assert set(client.get(f"/games/{game_id}/state").json()["bonuses"]) == set()
    assert client.get(f"/games/{game_id}/state", params={"view": "p3"},
                      headers=bearer(tokens["p2"])).status_code == 403
    assert client.get(f"/games/{game_id}/state", params={"view": "p4"}).status_code == 422
    lines = client.get(f"/games/{game_id}/events", params={"view": "p3"}, headers=bearer(tokens["p3"])).text
    seen = [json.loads(line) for line in lines.splitlines()]
    assert [(e["type"], e.get("player")) for e in seen] == [("game_started", None), ("bonus_dealt", "p3")]
    assert seen[0]["seed"] is None  # the seed deals the bonuses
    # p1 is to act: p2 may neither act for p1 nor list p1's moves; p1 may
    take = {"type": "take", "player": "p1", "count": 2}
    assert client.post(f"/games/{game_id}/actions", json={"action": take},
                       headers=bearer(tokens["p2"])).status_code == 403
    assert client.get(f"/games/{game_id}/legal", headers=bearer(tokens["p2"])).status_code == 403
    moved = client.post(f"/games/{game_id}/actions", json={"action": take}, headers=bearer(tokens["p1"]))
    assert moved.status_code == 201 and moved.json()["events"][0] == {**moved.json()["events"][0], **take,
                                                                        "type": "taken"}
    final = play_out(client, game_id, tokens)
    assert final["phase"] == "over" and sum(final["taken"].values()) == 12
    over = client.get(f"/games/{game_id}").json()
    assert over["status"] == "over" and over["end_reason"] == "heap_empty"
    assert sorted(s for group in over["placings"] for s in group) == ["p1", "p2", "p3"]
    assert over["winner"] == (over["placings"][0][0] if len(over["placings"][0]) == 1 else None)
    everything = client.get(f"/games/{game_id}/state", params={"view": "all"}).json()  # public once over
    assert set(everything["bonuses"]) == {"p1", "p2", "p3"}


def test_the_legal_actions_of_a_chosen_seat(client: TestClient) -> None:
    game_id, tokens = new_pebbles_game(client)
    keeper = bearer(tokens["scorekeeper"])
    first = client.get(f"/games/{game_id}/legal", headers=keeper).json()
    assert first["active"] == "p1" and first["to_act"] == ["p1"]
    assert [a["count"] for a in first["actions"]] == [1, 2, 3]
    waiting = client.get(f"/games/{game_id}/legal", params={"seat": "p2"}, headers=keeper).json()
    assert waiting == {"seq": first["seq"], "active": "p2", "actions": [], "to_act": ["p1"]}
    assert client.get(f"/games/{game_id}/legal", params={"seat": "p4"}, headers=keeper).json()["error"]["code"] \
        == "invalid_seat"
    assert client.get(f"/games/{game_id}/legal", params={"seat": "p2"},
                      headers=bearer(tokens["p1"])).status_code == 403


def test_four_seats_and_a_token_reissued_for_the_fourth(client: TestClient) -> None:
    players = [{"id": f"p{i}"} for i in range(1, 5)]
    game_id, tokens = new_pebbles_game(client, players=players, variant={"heap": 9, "teams": True})
    assert set(tokens) == {"scorekeeper", "p1", "p2", "p3", "p4"}
    new = client.post(f"/games/{game_id}/tokens/p4", headers=bearer(tokens["scorekeeper"]))
    assert new.status_code == 201
    assert client.get(f"/games/{game_id}/state", params={"view": "p4"},
                      headers=bearer(tokens["p4"])).status_code == 401
    tokens["p4"] = new.json()["token"]
    final = play_out(client, game_id, tokens, pick=1)
    over = client.get(f"/games/{game_id}").json()
    assert final["phase"] == "over"
    teams = [sorted(group) for group in over["placings"]]
    assert sorted(teams) in ([["p1", "p3"], ["p2", "p4"]], [["p1", "p2", "p3", "p4"]])  # a team places together
    assert over["winner"] == ("draw" if len(teams) == 1 else None)  # two seats share a win: see placings


# -- a tournament of pods --------------------------------------------------------------------------------


def _pods_tournament(client: TestClient, entrants: int, **body: Any) -> tuple[str, dict[str, str]]:
    created = client.post("/tournaments", json={"name": "Pebble Cup", "system": "pebbles", "rounds": 2,
                                                "variant": {"heap": 9}, "seeding": "registration", **body})
    assert created.status_code == 201, created.text
    tid, organiser = created.json()["id"], bearer(created.json()["token"])
    for i in range(entrants):
        registered = client.post(f"/tournaments/{tid}/players", json={"id": f"e{i}", "name": f"E {i}"},
                                 headers=organiser)
        assert registered.status_code == 201, registered.text
    return tid, organiser


def test_a_tournament_of_pebbles_pods_to_standings(client: TestClient) -> None:
    tid, organiser = _pods_tournament(client, 7)
    assert client.get(f"/tournaments/{tid}").json()["seats"] == 4  # pebbles is 3-4 seats: pods of 4
    round_one = client.post(f"/tournaments/{tid}/rounds", headers=organiser).json()
    assert [len(t["seats"]) for t in round_one["tables"]] == [4, 3] and round_one["byes"] == []
    assert round_one["tables"][0]["seats"] == {"p1": "e0", "p2": "e1", "p3": "e2", "p4": "e3"}  # registration order
    for table in round_one["tables"]:
        assert set(table["tokens"]) == {"scorekeeper", *table["seats"]}
        game = client.get(f"/games/{table['game_id']}").json()
        assert [p["name"] for p in game["players"]] == [f"E {who[1:]}" for who in table["seats"].values()]
        play_out(client, table["game_id"], table["tokens"])
    round_two = client.post(f"/tournaments/{tid}/rounds", headers=organiser).json()
    first, second = round_two["tables"]
    play_out(client, first["game_id"], first["tokens"], pick=2)
    # the second table is not played out: a forfeit with placings (ties grouped) and scores
    seats = list(second["seats"])
    legacy = client.post(f"/tournaments/{tid}/rounds/2/tables/2/result", json={"winner": "p1"}, headers=organiser)
    assert legacy.status_code == 422 and legacy.json()["error"]["code"] == "invalid_result"
    missing = client.post(f"/tournaments/{tid}/rounds/2/tables/2/result", json={"placings": [["p1"]]},
                          headers=organiser)
    assert missing.status_code == 422 and missing.json()["error"]["code"] == "invalid_result"
    placings = [[seats[1]], seats[2:] + [seats[0]]] if len(seats) == 3 else [[seats[1]], seats[2:], [seats[0]]]
    forfeit = client.post(f"/tournaments/{tid}/rounds/2/tables/2/result",
                          json={"placings": placings, "scores": {seats[1]: 5}}, headers=organiser)
    assert forfeit.status_code == 201, forfeit.text
    assert forfeit.json()["placings"] == placings and forfeit.json()["status"] == "forfeit"
    assert forfeit.json()["scores"] == {s: (5 if s == seats[1] else 0) for s in seats}
    summary = client.get(f"/tournaments/{tid}").json()
    assert summary["status"] == "finished"
    rows = client.get(f"/tournaments/{tid}/standings").json()["standings"]
    assert sorted(r["player"] for r in rows) == [f"e{i}" for i in range(7)]
    # place points: a table of n gives n-1 .. 0, n(n-1)/2 in all: two rounds of a 4-pod and a 3-pod
    assert sum(r["match_points"] for r in rows) == 2 * (6 + 3)
    keys = [(-r["match_points"], -r["opponents_match_win"], -r["score_difference"], r["player"]) for r in rows]
    assert keys == sorted(keys) and [r["rank"] for r in rows] == list(range(1, 8))
    winner_of_forfeit = next(r for r in rows if r["player"] == second["seats"][seats[1]])
    assert winner_of_forfeit["wins"] >= 1
    assert all(r["score_difference"] == r["kill_difference"] for r in rows)


def test_pods_give_byes_only_when_no_table_size_fits(client: TestClient) -> None:
    tid, organiser = _pods_tournament(client, 6, variant={"heap": 9, "teams": True})  # teams: four seats only
    started = client.post(f"/tournaments/{tid}/rounds", headers=organiser).json()
    assert [len(t["seats"]) for t in started["tables"]] == [4]
    assert started["byes"] == ["e5", "e4"] and started["bye"] == "e5"  # the lowest-ranked two
    rows = {r["player"]: r for r in client.get(f"/tournaments/{tid}/standings").json()["standings"]}
    assert rows["e5"]["byes"] == 1 and rows["e5"]["match_points"] == 3  # a bye is a win: 3 of a 4-seat table


def test_a_pods_tournament_refuses_a_table_size_the_system_does_not_allow(client: TestClient) -> None:
    refused = client.post("/tournaments", json={"name": "X", "system": "pebbles", "rounds": 1, "seats": 2})
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "invalid_seats"
    too_few = _pods_tournament(client, 2)
    response = client.post(f"/tournaments/{too_few[0]}/rounds", headers=too_few[1])
    assert response.status_code == 409 and response.json()["error"]["code"] == "too_few_players"
    heap = client.post("/tournaments", json={"name": "X", "system": "pebbles", "rounds": 1, "variant": {"heap": 2}})
    assert heap.status_code == 422 and heap.json()["error"]["code"] == "invalid_variant"


def test_a_game_stored_without_seat_metadata_has_its_systems_seats(client: TestClient) -> None:
    """An imported game has no ``seats`` in its metadata: its views are the seats of its recorded setup (a
    fourth seat's view exists, a fifth's does not) -- not p1 and p2 only."""
    service = client.app.state.service  # type: ignore[attr-defined]
    players = [{"id": f"p{i}", "name": f"N{i}"} for i in range(1, 5)]
    game_id = service.create_game({**PEBBLES_GAME, "players": players}).game_id  # as an import stores it
    while (awaited := service.system_of(game_id).to_act(service.state(game_id)[1])):
        service.act(game_id, {"type": "take", "player": awaited[0], "count": 3})
    assert client.get(f"/games/{game_id}/state", params={"view": "p4"}).status_code == 200  # over: public
    wrong = client.get(f"/games/{game_id}/state", params={"view": "p5"})
    assert wrong.status_code == 422 and "p1, p2, p3, p4" in wrong.json()["error"]["message"]
