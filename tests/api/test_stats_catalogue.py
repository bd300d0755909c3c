"""``GET /stats``: the statistics' catalogue as JSON through a running ``warlog serve`` (what the statistics page
reads to build its filters and sections), and the page itself for a browser asking for HTML."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from api import systems
from engine.lords_of_war.catalogue import FACTIONS
from tests.serving import serving


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    with serving(tmp_path_factory.mktemp("stats-catalogue") / "c.duckdb") as http:
        yield http


def test_catalogue_lists_every_statistics_route_with_its_parameters(server: httpx.Client) -> None:
    catalogue = server.get("/stats", headers={"Accept": "application/json"}).json()
    document = server.get("/openapi.json").json()["paths"]
    routes = {p for p in document if p.startswith("/stats/")}
    assert {s["path"] for s in catalogue["statistics"]} == routes
    for statistic in catalogue["statistics"]:
        operation = document[statistic["path"]]["get"]
        names = {p["name"] for p in operation["parameters"]}
        own = {p["name"] for p in statistic["parameters"]}
        assert names == own | {f["name"] for f in catalogue["filters"]}, statistic["name"]
        assert statistic["summary"] == operation["summary"]
    by_name = {s["name"]: s for s in catalogue["statistics"]}
    assert by_name["armies"]["system"] is None and by_name["heatmap"]["system"] == "lords-of-war"
    history = by_name["rating-history"]["parameters"]
    assert history == [{"name": "player", "type": "string", "default": None, "description": "a player's name",
                        "in_path": True, "minimum": None, "maximum": None, "choices": None}]
    limit = next(p for p in by_name["ratings"]["parameters"] if p["name"] == "limit")
    assert (limit["type"], limit["default"], limit["minimum"], limit["maximum"]) == ("integer", 100, 1, 10_000)
    assert next(p for p in by_name["heatmap"]["parameters"] if p["name"] == "owner_view")["type"] == "boolean"


def test_catalogue_states_the_filters_and_each_systems_armies(server: httpx.Client) -> None:
    catalogue = server.get("/stats").json()
    filters = {f["name"]: f for f in catalogue["filters"]}
    assert list(filters) == ["system", "date_from", "date_to", "tournament", "army", "variant", "rules_version",
                             "min_games", "ending", "catalogue"]
    assert (filters["ending"]["type"], filters["ending"]["default"]) == ("string", None)
    assert filters["ending"]["choices"] == ["rules", "adjudicated", "all"] and filters["army"]["choices"] is None
    assert "adjudicate" in filters["ending"]["description"]
    assert filters["date_from"]["type"] == "date" and filters["system"]["default"] == "lords-of-war"
    assert (filters["min_games"]["type"], filters["min_games"]["minimum"], filters["min_games"]["maximum"]) == (
        "integer", 0, 1_000_000)
    armies = {s["name"]: s["armies"] for s in catalogue["systems"]}
    assert set(FACTIONS) <= set(armies["lords-of-war"])  # the factions, before any game is stored


def test_catalogue_is_documented_and_a_browser_gets_the_page(server: httpx.Client) -> None:
    operation = server.get("/openapi.json").json()["paths"]["/stats"]["get"]
    assert operation["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/StatisticsCatalogue"}
    page = server.get("/stats", headers={"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"})
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "/static/js/stats-page.js" in page.text
    assert server.head("/stats", headers={"Accept": "text/html"}).status_code == 200
    assert server.get("/stats", headers={"Accept": "*/*"}).headers["content-type"] == "application/json"
    refused = server.post("/stats")
    assert refused.status_code == 405 and refused.headers["allow"] == "GET, HEAD"


def test_each_systems_web_folder_and_modules_exist() -> None:
    # the server mounts each folder at start: a folder missing from a checkout stopped `warlog serve`
    checked = []
    for plugin in systems.plugins():
        web = plugin.web
        if web is None:
            continue
        assert web.folder.is_dir(), web.folder
        if web.stats:
            assert (web.folder / web.stats).is_file(), web.stats
        checked.append(plugin.name)
    assert "lords-of-war" in checked


def test_web_systems_names_the_statistics_module(server: httpx.Client) -> None:
    listed = {s["name"]: s for s in server.get("/web/systems").json()}
    assert listed["lords-of-war"]["stats"] == "/static/systems/lords-of-war/stats.js"
    module = server.get(listed["lords-of-war"]["stats"])
    assert module.status_code == 200 and "export function draw" in module.text
