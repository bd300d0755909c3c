"""Catalogues over HTTP (issue 30): POST/GET /catalogues, GET /catalogues/{id}, GET /schemas/{system}/catalogue."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from engine.catalogue import MAX_CATALOGUE_BYTES, catalogue_id

SAMPLE = Path(__file__).parents[1] / "fixtures" / "lords_of_war" / "catalogues" / "border-marches.json"


def sample() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(SAMPLE.read_text(encoding="utf-8"))
    return document


def test_catalogue_upload_is_stored_by_content_and_read_back(client: TestClient) -> None:
    document = sample()
    created = client.post("/catalogues", json=document)
    assert created.status_code == 201, created.text
    body = created.json()
    assert body == {"id": catalogue_id(document), "system": "lords-of-war", "name": document["name"],
                    "version": document["version"], "default": False, "created_at": body["created_at"]}
    again = client.post("/catalogues", content=json.dumps(document, indent=2),  # other whitespace, same content
                        headers={"Content-Type": "application/json"})
    assert again.status_code == 200 and again.json() == body
    read = client.get(f"/catalogues/{body['id']}")
    assert read.status_code == 200 and read.json() == document
    listed = client.get("/catalogues", params={"system": "lords-of-war"}).json()["catalogues"]
    assert [(c["system"], c["default"]) for c in listed] == [("lords-of-war", True), ("lords-of-war", False)]
    assert [c["default"] for c in client.get("/catalogues", params={"system": "l5r"}).json()["catalogues"]] == [True]


def test_default_catalogue_is_the_built_in_data_listed_and_served_by_its_id(client: TestClient) -> None:
    (default,) = [c for c in client.get("/catalogues", params={"system": "lords-of-war"}).json()["catalogues"]
                  if c["default"]]
    document = client.get(f"/catalogues/{default['id']}").json()
    assert catalogue_id(document) == default["id"]
    assert {a["name"] for a in document["armies"]} == {"orcs", "dwarves", "elves", "lizardmen", "templars", "undead"}
    again = client.post("/catalogues", json=document)
    assert again.status_code == 200 and again.json()["default"] is True


def test_catalogue_schema_errors_are_refused_by_path_and_nothing_is_stored(client: TestClient) -> None:
    document = sample()
    document["cards"][12]["defence"] = -1
    del document["armies"][0]["name"]
    refused = client.post("/catalogues", json=document)
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert error["code"] == "invalid_catalogue"
    assert error["details"] == [
        {"path": "cards[12].defence", "message": "must be >= 0", "rule": None},
        {"path": "armies[0].name", "message": "is required", "rule": None},
    ]
    assert error["message"].startswith("cards[12].defence: must be >= 0")
    assert [c for c in client.get("/catalogues").json()["catalogues"] if not c["default"]] == []


def test_s3_catalogue_whose_army_cannot_be_dealt_is_refused_naming_the_rule(client: TestClient) -> None:
    document = sample()
    for card in document["cards"]:
        if card["rank"] == "general" and card["faction"] == "stonewardens":
            card["rank"] = "command"
    refused = client.post("/catalogues", json=document)
    assert refused.status_code == 422
    details = refused.json()["error"]["details"]
    assert [(d["path"], d["rule"]) for d in details] == [("armies[1].cards", "§3"), ("armies[1].cards", "§2")]
    assert "cannot be dealt" in details[0]["message"]


def test_catalogue_of_an_unknown_system_is_refused(client: TestClient) -> None:
    refused = client.post("/catalogues", json={**sample(), "system": "chess"})
    assert refused.status_code == 422
    assert refused.json()["error"]["details"][0]["path"] == "system"


def test_catalogue_over_the_size_limit_is_refused_with_413(client: TestClient) -> None:
    document = {**sample(), "about": "x" * 10}
    document["padding"] = "y" * MAX_CATALOGUE_BYTES
    refused = client.post("/catalogues", json=document)
    assert refused.status_code == 413
    assert refused.json()["error"]["code"] == "catalogue_too_large"


def test_catalogue_upload_takes_the_admin_key_when_the_server_has_one(admin_client: TestClient) -> None:
    assert admin_client.post("/catalogues", json=sample()).status_code == 401
    assert admin_client.post("/catalogues", json=sample(), headers={"X-Admin-Key": "wrong"}).status_code == 403
    assert admin_client.post("/catalogues", json=sample(), headers={"X-Admin-Key": "let-me-in"}).status_code == 201
    assert admin_client.get("/catalogues").status_code == 200  # reading is public


def test_unknown_catalogue_id_is_404(client: TestClient) -> None:
    missing = client.get("/catalogues/c-" + "0" * 32)
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"


def test_catalogue_schema_is_served_per_system(client: TestClient) -> None:
    schema = client.get("/schemas/lords-of-war/catalogue")
    assert schema.status_code == 200
    assert schema.json()["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema.json()["properties"]["system"] == {"const": "lords-of-war"}
    assert client.get("/schemas/chess/catalogue").status_code == 404


def test_catalogue_larger_than_the_body_limit_of_other_routes_is_taken(client: TestClient) -> None:
    document = sample()
    spare = [dict(card, id=f"{card['id']}-spare-{n}") for n in range(8) for card in document["cards"]]
    document["cards"] += spare  # cards no army counts: allowed, and they make the document large
    body = json.dumps(document).encode()
    assert len(body) > 64 * 1024  # the default max_body_bytes of every other route
    created = client.post("/catalogues", content=body, headers={"Content-Type": "application/json"})
    assert created.status_code == 201, created.text
    assert client.post("/games", content=body, headers={"Content-Type": "application/json"}).status_code == 413
