"""Issue 32 item 6 over HTTP: the scorekeeper (or the tournament's organiser) annotates a step; the annotation is
kept apart from the game's events (append-only, with its author and the service's time), the exports carry it as a
record comment, and the game, its export's events and its verification are unchanged."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from replay.archive.games import export_record, import_text
from replay.log.annotations import MAX_TEXT
from replay.log.verify import verify_game
from replay.store.duckdb_store import DuckDBEventStore
from tests.api.helpers import bearer, new_game, play


def _annotate(client: TestClient, game_id: str, token: str | None, step: int = 3, text: str = "A brave placement",
              **more: object) -> object:
    return client.post(f"/games/{game_id}/annotations", json={"step": step, "text": text, **more},
                       headers=bearer(token) if token else {})


def test_annotation_a_seat_token_is_refused_and_the_scorekeeper_is_accepted(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    play(client, game_id, tokens, max_actions=6)
    seat = _annotate(client, game_id, tokens["p1"])
    assert seat.status_code == 403 and seat.json()["error"]["code"] == "forbidden"
    assert _annotate(client, game_id, None).status_code == 401
    assert _annotate(client, game_id, "not-a-token").json()["error"]["code"] == "invalid_token"
    assert client.get(f"/games/{game_id}/annotations").json()["annotations"] == []  # nothing stored by a refusal

    added = _annotate(client, game_id, tokens["scorekeeper"], author="Ada")
    assert added.status_code == 201, added.text
    note = added.json()
    assert note["n"] == 1 and note["step"] == 3 and note["text"] == "A brave placement"
    assert note["role"] == "scorekeeper" and note["author"] == "Ada" and note["created_at"].endswith("Z")
    listed = client.get(f"/games/{game_id}/annotations")  # public, as the spectator's view
    assert listed.status_code == 200 and listed.json() == {"game_id": game_id, "annotations": [note]}


def test_annotation_is_append_only_numbered_in_order_and_has_no_route_to_change_it(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    play(client, game_id, tokens, max_actions=6)
    for step, text in ((5, "first"), (2, "second"), (5, "a correction of the first")):
        assert _annotate(client, game_id, tokens["scorekeeper"], step=step, text=text).status_code == 201
    notes = client.get(f"/games/{game_id}/annotations").json()["annotations"]
    assert [(n["n"], n["step"], n["text"], n["author"]) for n in notes] == [
        (1, 5, "first", "scorekeeper"), (2, 2, "second", "scorekeeper"), (3, 5, "a correction of the first",
                                                                           "scorekeeper")]
    auth = bearer(tokens["scorekeeper"])
    for method in ("PUT", "PATCH", "DELETE"):
        assert client.request(method, f"/games/{game_id}/annotations", headers=auth).status_code == 405
    assert client.get(f"/games/{game_id}/annotations").json()["annotations"] == notes


def test_annotation_bad_input_is_a_4xx_that_stores_nothing(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    seq = play(client, game_id, tokens, max_actions=4)
    keeper = tokens["scorekeeper"]
    for body, code in (
        ({"step": seq + 1, "text": "after the end"}, "invalid_step"),
        ({"step": 0, "text": "before the start"}, "invalid_request"),
        ({"step": 1, "text": "   "}, "invalid_text"),
        ({"step": 1, "text": "x" * (MAX_TEXT + 1)}, "invalid_text"),
        ({"step": 1, "text": "two\nlines"}, "invalid_text"),
        ({"step": 1, "text": "ok", "author": "a\u0007b"}, "invalid_author"),
        ({"step": "three", "text": "ok"}, "invalid_request"),
        ({"step": 1, "text": "ok", "seq": 1}, "invalid_request"),
    ):
        refused = client.post(f"/games/{game_id}/annotations", json=body, headers=bearer(keeper))
        assert refused.status_code == 422, (body, refused.text)
        assert refused.json()["error"]["code"] == code, body
    assert client.get(f"/games/{game_id}/annotations").json()["annotations"] == []
    assert _annotate(client, "no-such-game", keeper).status_code == 404
    assert client.get("/games/no-such-game/annotations").status_code == 404


def test_annotation_by_the_tournaments_organiser_and_not_by_another_tournaments(client: TestClient) -> None:
    tids = []
    for name in ("Spring Open", "Autumn Open"):
        created = client.post("/tournaments", json={"name": name, "system": "lords-of-war", "rounds": 1}).json()
        tids.append((created["id"], created["token"]))
        for i in range(2):
            entrant = {"id": f"p-{i}", "name": f"Player {i}", "army": "orcs"}
            assert client.post(f"/tournaments/{created['id']}/players", json=entrant,
                               headers=bearer(created["token"])).status_code == 201
    (tid, organiser), (_, other) = tids
    table = client.post(f"/tournaments/{tid}/rounds", headers=bearer(organiser)).json()["tables"][0]
    game_id = table["game_id"]
    assert _annotate(client, game_id, other, step=1).json()["error"]["code"] == "invalid_token"
    added = _annotate(client, game_id, organiser, step=1, text="Table 1 started late")
    assert added.status_code == 201 and added.json()["role"] == "organiser" and added.json()["author"] == "organiser"


def test_annotation_changes_no_event_and_no_verification_and_the_exports_carry_it(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    play(client, game_id, tokens)
    service = client.app.state.service  # type: ignore[attr-defined]
    events_before = client.get(f"/games/{game_id}/events").text
    record_before = client.get(f"/games/{game_id}/export", params={"format": "record"}).text
    assert verify_game(service, game_id) == []

    first = _annotate(client, game_id, tokens["scorekeeper"], step=4, text="Bold {move} here", author="Ada").json()
    _annotate(client, game_id, tokens["scorekeeper"], step=1, text="The opening")
    assert client.get(f"/games/{game_id}/events").text == events_before  # the log is untouched
    assert verify_game(service, game_id) == []  # hash chain and rules: nothing to report

    record = client.get(f"/games/{game_id}/export", params={"format": "record"}).text
    when = first["created_at"][:16].replace("T", " ")
    comment = f"{{Note on step 4 by Ada (scorekeeper), {when} UTC: Bold (move) here}}"
    assert comment in record and "{Note on step 1 by scorekeeper" in record
    assert record.index("{Note on step 1") < record.index(comment)
    # the comments are the only difference: the record without them is the record before
    stripped = record.replace(" " + comment, "").replace(comment + "\n", "")
    stripped = "\n".join(line for line in stripped.splitlines() if not line.startswith("{Note on step 1")) + "\n"
    assert stripped == record_before

    lines = [json.loads(line) for line in client.get(f"/games/{game_id}/export", params={"format": "jsonl"})
             .text.splitlines()]
    notes = [(i, line["annotation"]) for i, line in enumerate(lines) if "annotation" in line]
    assert [(lines[i - 1]["seq"], n["step"], n["text"]) for i, n in notes] == [(1, 1, "The opening"),
                                                                                  (4, 4, "Bold {move} here")]
    events = [line for line in lines if "annotation" not in line]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))

    # export -> import stays valid: the same game (its events), the comments read and left in the file
    many = client.get("/games/export", params={"format": "record"}).text
    assert comment in many
    text = client.get(f"/games/{game_id}/export", params={"format": "record"}).text
    copy = import_text(service, text, allow_duplicate=True)
    again = import_text(service, "\n".join(json.dumps(line) for line in lines) + "\n", allow_duplicate=True)
    for imported in (copy, again):
        assert [r.event for r in service.events(imported)] == [r.event for r in service.events(game_id)]
        assert client.get(f"/games/{imported}/annotations").json()["annotations"] == []  # not restored
    assert "Note on step" not in export_record(service, copy)


@pytest.fixture
def duckdb_client(tmp_path: Path) -> Iterator[TestClient]:
    store = DuckDBEventStore(tmp_path / "notes.duckdb")
    try:
        with TestClient(create_app(Settings(db=str(tmp_path / "notes.duckdb")), store=store)) as test_client:
            yield test_client
    finally:
        store.close()


def test_annotation_kept_by_a_duckdb_store(duckdb_client: TestClient) -> None:
    game_id, tokens = new_game(duckdb_client)
    play(duckdb_client, game_id, tokens, max_actions=3)
    assert _annotate(duckdb_client, game_id, tokens["scorekeeper"], step=2, text="kept").status_code == 201
    assert _annotate(duckdb_client, game_id, tokens["scorekeeper"], step=2, text="kept too").json()["n"] == 2
    listed = duckdb_client.get(f"/games/{game_id}/annotations").json()["annotations"]
    assert [(n["n"], n["text"]) for n in listed] == [(1, "kept"), (2, "kept too")]
