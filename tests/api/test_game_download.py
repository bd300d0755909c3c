"""Issue 32 item 3 over HTTP: one game's record to download from the replay page, as text and as JSONL, in the
view its token may see."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from tests.api.helpers import bearer, new_game, play


def test_one_games_record_downloads_as_text_and_jsonl_as_the_many_games_export_writes_it(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    play(client, game_id, tokens)
    record = client.get(f"/games/{game_id}/export", params={"format": "record"})
    assert record.status_code == 200 and record.headers["content-type"].startswith("text/plain")
    assert record.headers["content-disposition"] == f'attachment; filename="warlog-{game_id}.txt"'
    many = client.get("/games/export", params={"player": "Alice", "format": "record"}).text
    assert record.text == many and '[P1 "Alice"]' in record.text  # a finished game: the all view, public
    lines = client.get(f"/games/{game_id}/export", params={"format": "jsonl"})
    assert lines.headers["content-type"] == "application/x-ndjson"
    assert lines.headers["content-disposition"] == f'attachment; filename="warlog-{game_id}.jsonl"'
    listed = [json.loads(line) for line in client.get("/games/export", params={"player": "Alice", "format": "jsonl"})
              .text.splitlines()]
    assert [json.loads(line) for line in lines.text.splitlines()] == [
        {k: v for k, v in e.items() if k != "game_id"} for e in listed]


def test_a_running_games_record_is_the_view_its_token_may_see(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    play(client, game_id, tokens, max_actions=4)
    public = client.get(f"/games/{game_id}/export", params={"format": "record"})
    assert public.status_code == 200 and '[Seed "?"]' in public.text  # a spectator's record
    refused = client.get(f"/games/{game_id}/export", params={"format": "jsonl", "view": "all"})
    assert refused.status_code == 401 and refused.json()["error"]["code"]
    seat = client.get(f"/games/{game_id}/export", params={"format": "jsonl", "view": "p1"},
                      headers=bearer(tokens["p1"]))
    assert seat.status_code == 200
    dealt = [json.loads(line) for line in seat.text.splitlines() if '"hand_dealt"' in line]
    assert dealt and all((e["cards"] is not None) == (e["player"] == "p1") for e in dealt)
    whole = client.get(f"/games/{game_id}/export", params={"format": "record", "view": "all"},
                       headers=bearer(tokens["scorekeeper"]))
    assert whole.status_code == 200 and '[Seed "7"]' in whole.text
    assert client.get(f"/games/{game_id}/export", params={"format": "pgn"}).status_code == 422
    assert client.get("/games/nope/export").status_code == 404
