"""GET /stats/...: the hand-made fixture games through HTTP; filters as query parameters; OpenAPI."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).parents[1] / "replay"))

import stats_fixtures as fx  # noqa: E402

from api.app import create_app  # noqa: E402
from api.settings import Settings  # noqa: E402
from replay.store.duckdb_store import DuckDBEventStore  # noqa: E402


def served(games: str):
    clock = fx.Clock()
    store = DuckDBEventStore(":memory:", clock=clock)
    fx.load(store, clock, {k: fx.GAMES[k] for k in games})
    with TestClient(create_app(Settings(db=":memory:"), store=store)) as http:
        http.clock, http.store = clock, store
        yield http
    store.close()


@pytest.fixture(scope="module")
def client():
    """Games A–C at start; test_stats_follow_new_games adds D."""
    yield from served("ABC")


@pytest.fixture(scope="module")
def all_four():
    """Games A–D at start: a test of its own, whichever tests ran before it on this worker."""
    yield from served("ABCD")


def test_stats_armies_and_filters(client):
    body = client.get("/stats/armies").json()
    assert body["games"] == 3
    assert [(r["army"], r["games"], r["wins"]) for r in body["rows"]] == [("dwarves", 2, 1), ("orcs", 2, 1)]
    spring = client.get("/stats/armies", params={"tournament": "spring", "date_to": "2026-01-31"}).json()
    assert [(r["army"], r["wins"]) for r in spring["rows"]] == [("dwarves", 0), ("orcs", 1)]
    assert spring["filters"]["date_to"] == "2026-01-31"


def test_stats_follow_new_games(client):
    # D is stored after start: the projector attached by the router's lifespan follows the commit
    fx.load(client.store, client.clock, {"D": fx.GAMES["D"]})
    assert client.app.state.stats_projector.wait_idle(10)
    reasons = client.get("/stats/end-reasons").json()
    assert [(r["end_reason"], r["games"]) for r in reasons["rows"]] == [
        ("commanders", 1), ("concession", 1), ("kills", 2)]


def test_stats_every_route_answers(all_four):
    client = all_four
    assert client.get("/stats/matchups").json()["armies"] == ["dwarves", "elves", "orcs"]
    assert client.get("/stats/first-player").json()["overall"]["games"] == 4
    assert client.get("/stats/game-length").json()["max"] == 3
    cards = {r["card"]: r for r in client.get("/stats/cards", params={"army": "orcs"}).json()["rows"]}
    assert cards["orcs/orc-catapult"]["shots"] == 2
    heat = client.get("/stats/heatmap", params={"card": "orcs/orc-catapult", "owner_view": "true"}).json()
    assert [(r["square"], r["placements"]) for r in heat["rows"]] == [("B2", 1), ("D3", 1)]
    top = client.get("/stats/ratings", params={"limit": 1}).json()["rows"]
    assert [(r["rank"], r["player"]) for r in top] == [(1, "cy")]
    history = client.get("/stats/ratings/ann/history").json()
    assert [p["game_id"] for p in history["rows"]] == ["A", "B", "C"]
    h2h = client.get("/stats/head-to-head", params={"player": "ann", "opponent": "bob"}).json()
    assert [(r["games"], r["wins"], r["losses"]) for r in h2h["rows"]] == [(2, 1, 1)]


@pytest.mark.parametrize(
    "params",
    [{"min_games": -1}, {"min_games": 10**7}, {"date_from": "yesterday"}, {"tournament": "x" * 200},
     {"date_from": "2026-02-01", "date_to": "2026-01-01"}],
)
def test_stats_bad_filters_are_422(client, params):
    response = client.get("/stats/cards", params=params)
    assert response.status_code == 422
    assert response.json()["error"]["code"] in ("invalid_request", "invalid_filters")


def test_stats_routes_in_openapi(client):
    paths = client.get("/openapi.json").json()["paths"]
    for route in ("armies", "matchups", "first-player", "game-length", "end-reasons", "cards", "heatmap",
                  "ratings", "ratings/{player}/history", "head-to-head"):
        operation = paths[f"/stats/{route}"]["get"]
        assert "200" in operation["responses"]
        assert "$ref" in str(operation["responses"]["200"]["content"]["application/json"]["schema"])
    names = [p["name"] for p in paths["/stats/cards"]["get"]["parameters"]]
    assert {"date_from", "date_to", "tournament", "army", "variant", "rules_version", "min_games"} <= set(names)
