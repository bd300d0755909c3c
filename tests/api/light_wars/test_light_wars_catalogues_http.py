"""Light Wars catalogues over HTTP (issue 30): the schema served, the second sample catalogue stored by content,
a malformed one refused by path and an unplayable one naming the rule, nothing refused stored."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from engine.catalogue import catalogue_id

SAMPLE = Path(__file__).parents[2] / "fixtures" / "light_wars" / "catalogues" / "marsh-frontier.json"


def sample() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(SAMPLE.read_text(encoding="utf-8"))
    return document


def test_light_wars_catalogue_schema_is_served(client: TestClient) -> None:
    schema = client.get("/schemas/light-wars/catalogue")
    assert schema.status_code == 200
    assert schema.json()["title"] == "Light Wars catalogue"
    assert set(schema.json()["$defs"]) == {"unit", "tactic", "map", "army"}


def test_light_wars_second_catalogue_is_stored_by_content(client: TestClient) -> None:
    document = sample()
    created = client.post("/catalogues", json=document)
    assert created.status_code == 201, created.text
    assert created.json()["id"] == catalogue_id(document) and created.json()["system"] == "light-wars"
    assert client.get(f"/catalogues/{catalogue_id(document)}").json() == document
    listed = client.get("/catalogues", params={"system": "light-wars"}).json()["catalogues"]
    assert [c["default"] for c in listed] == [True, False]


def test_light_wars_catalogue_with_a_map_without_castles_is_refused_naming_the_rule(client: TestClient) -> None:
    document = sample()
    document["units"][1]["move"] = "two"
    refused = client.post("/catalogues", json=document)
    assert refused.status_code == 422
    assert refused.json()["error"]["details"] == [{"path": "units[1].move", "message": "must be an integer",
                                                   "rule": None}]
    document = sample()
    del document["maps"][1]["castles"]
    refused = client.post("/catalogues", json=document)
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert error["code"] == "invalid_catalogue"
    assert [(d["path"], d["rule"]) for d in error["details"]] == [("maps[1].castles.p1", "§5.2"),
                                                                  ("maps[1].castles.p2", "§5.2")]
    assert [c for c in client.get("/catalogues").json()["catalogues"] if not c["default"]] == []
