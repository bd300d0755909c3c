"""Issue 32 item 4 over HTTP: every game's players are named in its summary (imported and bot games too) and
every system serves display labels for its armies and end reasons (no page shows a code)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from api.web import web_systems
from engine.play import play as play_bots
from engine.systems import get_system, system_names
from replay.archive.games import store_events
from replay.log.demo import demo_setup, lineups


def bot_game(client: TestClient, system_name: str) -> str:
    """A bot game stored as the sample games are (no seats in its metadata: the names come from its events)."""
    service = client.app.state.service  # type: ignore[attr-defined]
    system = get_system(system_name)
    setup = demo_setup(0, 2026, system_name)
    played = play_bots(system, setup, lineups(system, len(system.seats(setup)))[0])
    game_id = service.new_game_id()
    store_events(service, system_name, played.events, game_id, metadata={"source": "demo"})
    return game_id


def test_every_games_players_are_named_in_its_summary_imported_bot_games_too(client: TestClient) -> None:
    for system_name in system_names():
        game_id = bot_game(client, system_name)
        game = client.get(f"/games/{game_id}").json()
        listed = client.get("/games", params={"system": system_name}).json()["games"]
        names = next(g["players"] for g in listed if g["id"] == game_id)
        armies = next(g["metadata"].get("armies", {}) for g in listed if g["id"] == game_id)
        assert [p["name"] for p in game["players"]] == names, system_name
        assert [p["id"] for p in game["players"]] == [f"p{i + 1}" for i in range(len(names))]
        assert {p["id"]: p["army"] for p in game["players"] if p["army"]} == armies, system_name


def test_every_system_serves_display_labels_for_its_armies_and_end_reasons(client: TestClient) -> None:
    for entry in web_systems():
        assert entry["labels"] == f"/static/systems/{entry['name']}/labels.json"
        labels = client.get(entry["labels"]).json()
        assert set(labels) == {"system", "armies", "end_reasons", "colours"} and labels["system"][0].isupper()
        game = client.get(f"/games/{bot_game(client, entry['name'])}").json()
        assert game["end_reason"] in labels["end_reasons"], entry["name"]
        assert all(labels["armies"].get(p["army"]) for p in game["players"] if p["army"]), entry["name"]
        shown = [*labels["armies"].values(), *labels["end_reasons"].values()]
        assert all(text and "_" not in text and text[0].isupper() for text in shown), shown
    assert client.get("/static/systems/art-of-war/labels.json").json()["end_reasons"]["end_of_war"] == \
        "The end of the war"


