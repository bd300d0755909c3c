"""Issue 30 item 4: a Lords of War game on a stored catalogue, over HTTP (``POST /games`` ``"catalogue": id``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from engine.catalogue import catalogue_id
from tests.api.helpers import SETUP, play
from tests.api.records_helpers import warlog

BORDER_MARCHES = Path(__file__).parents[2] / "fixtures" / "lords_of_war" / "catalogues" / "border-marches.json"


def border_marches() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(BORDER_MARCHES.read_text(encoding="utf-8"))
    return document


def upload(client: TestClient, document: dict[str, Any]) -> str:
    stored = client.post("/catalogues", json=document)
    assert stored.status_code in (200, 201), stored.text
    identity: str = stored.json()["id"]
    return identity


def marches_setup(identity: str) -> dict[str, Any]:
    return {**SETUP, "catalogue": identity,
            "players": [{"id": "p1", "name": "Alice", "army": "fenlings"}, {"id": "p2", "name": "Bob",
                                                                            "army": "stonewardens"}]}


def test_game_on_an_uploaded_catalogue_plays_its_cards_to_the_end(client: TestClient) -> None:
    document = border_marches()
    identity = upload(client, document)
    created = client.post("/games", json=marches_setup(identity))
    assert created.status_code == 201, created.text
    game_id, tokens = created.json()["id"], created.json()["tokens"]
    events = [json.loads(line) for line in client.get(f"/games/{game_id}/events").text.splitlines()]
    started = events[0]
    assert started["catalogue_id"] == identity and started["catalogue"] == document
    assert {c for p in started["players"] for c in p["cards"]} <= {c["id"] for c in document["cards"]}
    play(client, game_id, tokens)
    game = client.get(f"/games/{game_id}").json()
    assert game["status"] == "over" and game["catalogue"] == identity
    listed = client.get("/games").json()["games"]
    assert [g["catalogue"] for g in listed] == [identity]
    state = client.get(f"/games/{game_id}/state").json()
    assert state["catalogue"] == identity  # the id only: the cards are GET /catalogues/{id}'s
    assert document["name"] not in json.dumps(state)


def test_default_game_records_no_catalogue_and_lists_null(client: TestClient) -> None:
    created = client.post("/games", json=SETUP)
    assert created.status_code == 201
    game_id = created.json()["id"]
    started = json.loads(client.get(f"/games/{game_id}/events").text.splitlines()[0])
    assert "catalogue" not in started and "catalogue_id" not in started  # byte-for-byte the game_started of before
    assert client.get(f"/games/{game_id}").json()["catalogue"] is None
    (default,) = [c["id"] for c in client.get("/catalogues", params={"system": "lords-of-war"}).json()["catalogues"]
                  if c["default"]]
    named = client.post("/games", json={**SETUP, "catalogue": default})  # the default named by its id: the same
    assert named.status_code == 201, named.text
    assert client.get(f"/games/{named.json()['id']}").json()["catalogue"] is None


def test_game_naming_a_catalogue_not_stored_is_refused_unknown_catalogue(client: TestClient) -> None:
    missing = catalogue_id(border_marches())  # a real id, never uploaded here
    refused = client.post("/games", json=marches_setup(missing))
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert error["code"] == "unknown_catalogue" and missing in error["message"]
    assert client.get("/games").json()["games"] == []


def test_game_naming_another_systems_catalogue_is_refused_unknown_catalogue(client: TestClient) -> None:
    # a catalogue stored for another system (through the store: this slice's other systems take none yet)
    document = {"system": "l5r", "name": "Clan War", "version": "1"}
    identity = catalogue_id(document)
    store = client.app.state.service.store  # type: ignore[attr-defined]
    store.add_catalogue(identity, "l5r", "Clan War", "1", json.dumps(document).encode())
    refused = client.post("/games", json=marches_setup(identity))
    assert refused.status_code == 422, refused.text
    error = refused.json()["error"]
    assert error["code"] == "unknown_catalogue"
    assert error["message"] == f"catalogue {identity} (Clan War) is a l5r catalogue, not a lords-of-war one"
    assert client.get("/games").json()["games"] == []


def test_system_without_catalogues_refuses_catalogue_not_supported() -> None:
    from api.app import create_app
    from api.settings import Settings
    from replay.store.memory_store import MemoryEventStore
    from tests.plugins.installed import pebbles_registered

    with pebbles_registered(), TestClient(create_app(Settings(db=":memory:"), store=MemoryEventStore())) as client:
        refused_with(client)


def refused_with(client: TestClient) -> None:
    identity = upload(client, border_marches())
    setup = {"system": "pebbles", "players": [{"id": f"p{i}", "name": f"N{i}"} for i in range(1, 4)],
             "catalogue": identity}  # the tests' plug-in system takes no catalogue (the five built-ins all do)
    refused = client.post("/games", json=setup)
    assert refused.status_code == 422, refused.text
    error = refused.json()["error"]
    assert error["code"] == "catalogue_not_supported", error
    assert error["message"].startswith("pebbles plays its built-in data only")


def test_game_on_uploaded_catalogue_exported_imports_into_an_empty_database_and_verifies(
        client: TestClient, tmp_path: Path) -> None:
    """The issue's test: a game on the uploaded Border Marches played over HTTP by bots to the end; its record
    and its JSONL, exported, import into an empty database (the catalogue stored with them) and verify."""
    document = border_marches()
    identity = upload(client, document)
    created = client.post("/games", json=marches_setup(identity)).json()
    play(client, created["id"], created["tokens"])
    for fmt in ("record", "jsonl"):
        exported = client.get(f"/games/{created['id']}/export", params={"format": fmt})
        assert exported.status_code == 200
        path = tmp_path / f"game.{'txt' if fmt == 'record' else 'jsonl'}"
        path.write_text(exported.text, encoding="utf-8")
        db = tmp_path / f"empty-{fmt}.duckdb"
        imported = warlog("import", str(path), "--db", str(db))
        assert imported.returncode == 0, imported.stderr
        checked = warlog("verify", "--db", str(db))
        assert checked.returncode == 0, checked.stdout + checked.stderr
        listed = json.loads(warlog("catalogue", "list", "--json", "--db", str(db)).stdout)["catalogues"]
        assert identity in [c["id"] for c in listed]  # the import stored the catalogue its game carries
        shown = json.loads(warlog("catalogue", "export", identity, "--db", str(db)).stdout)
        assert shown == document
        (row,) = json.loads(warlog("sql", "SELECT catalogue FROM games", "--json", "--db", str(db)).stdout)
        assert row == {"catalogue": identity}
        again = warlog("export", "--all", "--format", fmt, "--db", str(db))
        assert again.returncode == 0
        if fmt == "record":  # the same record comes back out of the new database
            assert again.stdout.split("\n\n", 1)[1] == exported.text.split("\n\n", 1)[1]


def test_demo_plays_its_bot_games_on_a_stored_catalogue(tmp_path: Path) -> None:
    db = str(tmp_path / "games.duckdb")
    imported = warlog("catalogue", "import", str(BORDER_MARCHES), "--db", db)
    assert imported.returncode == 0, imported.stderr
    identity = catalogue_id(border_marches())
    played = warlog("demo", "--catalogue", identity, "--games", "3", "--db", db)
    assert played.returncode == 0, played.stderr
    games = json.loads(warlog("games", "--json", "--db", db).stdout)
    assert [g["catalogue"] for g in games] == [identity] * 3
    armies = {army for g in games for army in g["metadata"]["armies"].values()}
    assert armies <= {"fenlings", "stonewardens"} and len(armies) == 2
    assert all(g["metadata"]["status"] == "over" for g in games)
    assert warlog("verify", "--db", db).returncode == 0


def test_demo_refuses_a_catalogue_not_stored_and_records_nothing(tmp_path: Path) -> None:
    db = str(tmp_path / "games.duckdb")
    missing = catalogue_id(border_marches())
    refused = warlog("demo", "--catalogue", missing, "--games", "2", "--db", db)
    assert refused.returncode == 2
    assert f"--catalogue {missing}: no catalogue '{missing}' is stored" in refused.stderr
    assert json.loads(warlog("games", "--json", "--db", db).stdout) == []
