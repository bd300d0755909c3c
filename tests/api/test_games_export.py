"""Issue 11 item 13: ``GET /games/export`` streams many games as records or NDJSON, with the /games filters."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from api.auth import new_tokens
from replay.archive.games import import_games
from replay.log.service import GameService
from replay.store.memory_store import MemoryEventStore
from tests.api.helpers import SETUP, new_game, play


def _payloads(service: GameService, game_id: str) -> list[tuple[str, bytes]]:
    return [(e.type, e.payload) for e in service.store.read(game_id)]


def test_games_export_streams_records_and_ndjson_with_filters(client: TestClient) -> None:
    done, tokens = new_game(client)
    play(client, done, tokens)
    running, running_tokens = new_game(client, players=[{"id": "p1", "name": "Cy", "army": "elves"},
                                                        {"id": "p2", "name": "Di", "army": "undead"}], seed=9)
    play(client, running, running_tokens, max_actions=3)

    records = client.get("/games/export")
    assert records.status_code == 200 and records.headers["content-type"].startswith("text/plain")
    assert records.text.count("[System ") == 2 and '[P1 "Alice"]' in records.text
    first, second = records.text.split('\n\n[Event "?"]')  # one blank line between games
    assert '[Seed "7"]' in first and '[Result "*"]' not in first  # finished: the all view, public once over
    assert '[Seed "?"]' in second and '[Result "*"]' in second  # running: as a spectator sees it

    only = client.get("/games/export", params={"player": "Alice", "format": "jsonl"})
    assert only.headers["content-type"] == "application/x-ndjson"
    events = [json.loads(line) for line in only.text.splitlines()]
    assert {e["game_id"] for e in events} == {done} and events[0]["type"] == "game_started"
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    negotiated = client.get("/games/export", params={"player": "Cy"}, headers={"Accept": "application/x-ndjson"})
    assert {json.loads(line)["game_id"] for line in negotiated.text.splitlines()} == {running}
    assert client.get("/games/export", params={"player": "Nobody"}).text == ""
    assert client.get("/games/export", params={"max": 1}).text.count("[System ") == 1
    by_army = client.get("/games/export", params={"army": "undead", "format": "jsonl"}).text.splitlines()
    assert {json.loads(line)["game_id"] for line in by_army} == {running}
    assert client.get("/games/export", params={"army": "gnomes"}).text == ""
    newest = client.get("/games/export", params={"order": "newest", "max": 1, "format": "jsonl"}).text
    assert {json.loads(line)["game_id"] for line in newest.splitlines()} == {running}
    oldest = client.get("/games/export", params={"order": "oldest", "max": 1, "format": "jsonl"}).text
    assert {json.loads(line)["game_id"] for line in oldest.splitlines()} == {done}
    assert client.get("/games/export", params={"order": "sideways"}).status_code == 422

    # what it streams imports back: the finished game is the same game, in either format
    service = client.app.state.service
    for text in (first, only.text):
        elsewhere = GameService(MemoryEventStore())
        (got,) = [i for i in import_games(elsewhere, text, name="x.jsonl" if text is only.text else "x.record")]
        assert got.error is None and _payloads(elsewhere, got.game_id) == _payloads(service, done)

    bad = client.get("/games/export", params={"format": "pgn"})
    assert bad.status_code == 422 and bad.json()["error"]["code"]
    assert client.get(f"/games/{done}").json()["id"] == done  # /games/{game_id} still answers


def test_games_export_tournament_games_carry_event_round_table(client: TestClient) -> None:
    tournaments = client.app.state.tournaments
    tid = tournaments.create("Spring Cup", "lords-of-war", "swiss", 2, {}, "organiser")
    tournaments.register(tid, "ann", "Ann", "orcs")
    tournaments.register(tid, "bob", "Bob", "dwarves")
    tournaments.start_round(tid, new_tokens)
    new_game(client)  # not in the tournament
    text = client.get("/games/export", params={"tournament": tid}).text
    assert text.count("[System ") == 1
    assert '[Event "Spring Cup"]' in text and '[Round "1"]' in text and '[Table "1"]' in text
    assert SETUP["players"][0]["name"] not in text
