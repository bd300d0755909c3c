"""HeroScape catalogues over HTTP (issue 30): the schema served, the second sample catalogue stored by content, a
malformed one refused by path and an unplayable one naming the rule, nothing refused stored."""

from __future__ import annotations

from fastapi.testclient import TestClient

from engine.catalogue import catalogue_id
from tests.engine.catalogue_given import sample_catalogue


def test_heroscape_catalogue_schema_is_served(client: TestClient) -> None:
    schema = client.get("/schemas/heroscape/catalogue")
    assert schema.status_code == 200
    assert schema.json()["title"] == "HeroScape catalogue"
    assert set(schema.json()["$defs"]) == {"card", "special", "army", "map"}


def test_heroscape_second_catalogue_is_stored_by_content(client: TestClient) -> None:
    document = sample_catalogue("heroscape", "cliffside-bay")
    created = client.post("/catalogues", json=document)
    assert created.status_code == 201, created.text
    assert created.json()["id"] == catalogue_id(document) and created.json()["system"] == "heroscape"
    assert client.get(f"/catalogues/{catalogue_id(document)}").json() == document
    listed = client.get("/catalogues", params={"system": "heroscape"}).json()["catalogues"]
    assert [c["default"] for c in listed] == [True, False]


def test_heroscape_catalogue_whose_start_zone_cannot_hold_an_army_is_refused_naming_the_rule(
        client: TestClient) -> None:
    document = sample_catalogue("heroscape", "cliffside-bay")
    document["cards"][0]["defense"] = -2
    refused = client.post("/catalogues", json=document)
    assert refused.status_code == 422
    assert refused.json()["error"]["details"] == [{"path": "cards[0].defense", "message": "must be >= 0",
                                                   "rule": None}]
    document = sample_catalogue("heroscape", "cliffside-bay")
    document["maps"][0]["start_zones"]["p1"] = document["maps"][0]["start_zones"]["p1"][:5]
    refused = client.post("/catalogues", json=document)
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert error["code"] == "invalid_catalogue"
    assert [(d["path"], d["rule"]) for d in error["details"]] == [("maps[0].start_zones.p1", "§1")] * 3
    assert "p1's start zone (5 hexes) cannot hold army 'tideguard'" in error["details"][0]["message"]
    assert [c for c in client.get("/catalogues").json()["catalogues"] if not c["default"]] == []
