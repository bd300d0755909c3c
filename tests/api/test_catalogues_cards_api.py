"""L5R and Art of War catalogues over HTTP (issue 30): their schemas served, their second sample catalogues stored
and read back, shape errors listed by path and rule-breaking decks refused naming the rule (R4, §1)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from engine.catalogue import catalogue_id

FIXTURES = Path(__file__).parents[1] / "fixtures"
SECOND = {"l5r": FIXTURES / "l5r" / "catalogues" / "phoenix-scorpion.json",
          "art-of-war": FIXTURES / "art_of_war" / "catalogues" / "northern-realms.json"}


def second(system: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(SECOND[system].read_text(encoding="utf-8"))
    return document


def stored(client: TestClient, system: str) -> list[dict[str, Any]]:
    listed: list[dict[str, Any]] = client.get("/catalogues", params={"system": system}).json()["catalogues"]
    return [c for c in listed if not c["default"]]


@pytest.mark.parametrize("system", ["l5r", "art-of-war"])
def test_catalogue_schema_of_l5r_and_art_of_war_is_served(client: TestClient, system: str) -> None:
    schema = client.get(f"/schemas/{system}/catalogue")
    assert schema.status_code == 200
    assert schema.json()["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema.json()["properties"]["system"] == {"const": system}


@pytest.mark.parametrize("system", ["l5r", "art-of-war"])
def test_second_sample_catalogue_is_stored_listed_and_read_back(client: TestClient, system: str) -> None:
    document = second(system)
    created = client.post("/catalogues", json=document)
    assert created.status_code == 201, created.text
    assert created.json()["id"] == catalogue_id(document) and created.json()["system"] == system
    assert client.get(f"/catalogues/{catalogue_id(document)}").json() == document
    listed = client.get("/catalogues", params={"system": system}).json()["catalogues"]
    assert [c["default"] for c in listed] == [True, False]
    default = client.get(f"/catalogues/{listed[0]['id']}").json()
    assert default["system"] == system and catalogue_id(default) == listed[0]["id"]


def test_l5r_catalogue_shape_errors_are_refused_by_path(client: TestClient) -> None:
    document = second("l5r")
    document["cards"][12]["chi"] = -100
    document["decks"][1]["fate"][2]["card"] = "Not An Id"
    refused = client.post("/catalogues", json=document)
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert error["code"] == "invalid_catalogue"
    assert [(d["path"], d["message"], d["rule"]) for d in error["details"]] == [
        ("cards[12].chi", "must be >= -99", None),
        ("decks[1].fate[2].card", "must match ^[a-z0-9][a-z0-9_-]{0,63}$", None)]
    assert stored(client, "l5r") == []


def test_r4_l5r_catalogue_whose_deck_breaks_r4_is_refused_naming_the_card(client: TestClient) -> None:
    document = second("l5r")
    document["decks"][0]["fate"][1]["count"] = 5  # spearmen
    refused = client.post("/catalogues", json=document)
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert error["code"] == "invalid_catalogue"
    (detail,) = error["details"]
    assert (detail["path"], detail["rule"]) == ("decks[0].fate[1].count", "R4")
    assert "Spearmen (spearmen)" in detail["message"] and "at most 3 copies" in detail["message"]
    assert "(R4)" in error["message"]
    assert stored(client, "l5r") == []


def test_s1_art_of_war_catalogue_whose_deck_is_not_20_cards_is_refused_naming_the_rule(client: TestClient) -> None:
    document = second("art-of-war")
    document["decks"][1]["cards"]["soldier"] = 12
    document["kings"][0]["defence"] = [5, 0]
    refused = client.post("/catalogues", json=document)
    assert refused.status_code == 422
    details = refused.json()["error"]["details"]
    assert [(d["path"], d["rule"]) for d in details] == [("kings[0].defence[1]", None)]  # shape first, alone
    document["kings"][0]["defence"] = [5, 3]
    details = client.post("/catalogues", json=document).json()["error"]["details"]
    assert [(d["path"], d["rule"]) for d in details] == [("decks[1].cards", "§1")]
    assert "deck 'phalanx' has 23 basic units" in details[0]["message"]
    assert stored(client, "art-of-war") == []
