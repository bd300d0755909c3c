"""Every ``GET /stats/*`` route through a running ``warlog serve`` when nothing matches: a fresh database with no
parameters, and a database with finished games under filters that match none of them. Each answer is a 200 with a
sample of 0 and counts of 0 (never null), and the connection stays usable for the next request (issue 11 item 2:
``/stats/first-player`` answered 500 with null counts, and the server then reset the kept-alive connection)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.api.helpers import SETUP, one_connection
from tests.serving import serving

# Filters that match none of the games this module records (lords-of-war, no tournament, today's date, orcs
# against dwarves). The army filter means nothing to the players' ratings and records (docs/statistics.md).
MATCH_NOTHING: list[dict[str, Any]] = [
    {},
    {"tournament": "nope"},
    {"date_from": "2001-01-01", "date_to": "2001-01-02"},
    {"variant": "nope"},
    {"rules_version": "nope"},
    {"system": "nope"},
]
NO_ARMY_FILTER = ("/stats/ratings", "/stats/ratings/nobody/history", "/stats/head-to-head")
MATCH_NO_ARMY: list[dict[str, Any]] = [{"army": "nope"}, {"army": "elves"}, {"army": "elves", "min_games": 1}]
COUNTS = {"games", "wins", "losses", "draws", "placements", "kills", "destroyed", "recalled", "shots", "rated"}


def stats_paths(http: httpx.Client) -> list[str]:
    """Every statistics route of the served OpenAPI document (a new one is covered without editing this test),
    its path parameters filled with a player nobody is."""
    paths = [p for p in http.get("/openapi.json").json()["paths"] if p.startswith("/stats/")]
    assert len(paths) >= 10, paths
    return [p.replace("{player}", "nobody") for p in paths]


def assert_empty_answer(path: str, params: dict[str, Any], response: httpx.Response) -> None:
    where = f"{path} {params}"
    assert response.status_code == 200, f"{where}: {response.status_code} {response.text[:300]}"
    body = response.json()
    assert body.get("games", 0) == 0, where
    assert body.get("rows", []) == [], where

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key in COUNTS:
                    assert isinstance(item, int), f"{where}: {key} is {item!r}"
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(body)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    with serving(tmp_path_factory.mktemp("stats-empty") / "s.duckdb") as http:
        yield http


def filters_matching_nothing(path: str) -> list[dict[str, Any]]:
    return MATCH_NOTHING + ([] if path in NO_ARMY_FILTER else MATCH_NO_ARMY)


def test_stats_routes_on_an_empty_database_answer_zero_counts(server: httpx.Client) -> None:
    for path in stats_paths(server):
        for params in filters_matching_nothing(path):
            assert_empty_answer(path, params, server.get(path, params=params))
    first = server.get("/stats/first-player").json()["overall"]
    assert first == {"army": None, "games": 0, "wins": 0, "losses": 0, "draws": 0, "win_rate": None, "low": None,
                     "high": None}


def test_stats_routes_keep_the_connection_alive(server: httpx.Client) -> None:
    port = server.base_url.port
    assert port is not None
    paths = [*stats_paths(server), "/stats/first-player?tournament=nope", "/health"]
    assert one_connection(port, *paths) == [200] * len(paths)


def test_stats_routes_with_games_and_filters_matching_none(server: httpx.Client) -> None:
    for seat in ("p1", "p2"):  # two finished games: one conceded by each seat
        created = server.post("/games", json=SETUP)
        assert created.status_code == 201, created.text
        game = created.json()
        conceded = server.post(
            f"/games/{game['id']}/actions", json={"action": {"type": "concede", "player": seat}},
            headers={"Authorization": f"Bearer {game['tokens']['scorekeeper']}"},
        )
        assert conceded.status_code == 201, conceded.text
    # the projector follows the commits (a game's end can fall in the next of its 10 s windows: ~11 s when quiet)
    deadline = time.monotonic() + 120
    while server.get("/stats/end-reasons").json()["games"] < 2:
        assert time.monotonic() < deadline, "the statistics did not see the two games within 120 s"
        time.sleep(0.1)
    everything = server.get("/stats/first-player").json()
    assert (everything["games"], everything["overall"]["games"]) == (2, 2), json.dumps(everything)
    for path in stats_paths(server):
        for params in filters_matching_nothing(path)[1:]:
            assert_empty_answer(path, params, server.get(path, params=params))
