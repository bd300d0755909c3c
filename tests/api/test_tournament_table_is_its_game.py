"""A tournament table's result and its game's result are one fact (issue 28 item 13), over HTTP: a forfeit entered
for a table whose game runs ends that game by the scorekeeper's ``adjudicate`` (the same placings, reason
``judge``, a note saying it was a forfeit); the game then refuses every action with 409 ``game_over``; standings, the
table and the game agree. A game that ends decides its table. A forfeit logged before this (its game left running)
is settled the same way."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from fastapi.testclient import TestClient

from replay.tournaments.model import TournamentConflict
from tests.api.helpers import bearer

ARMIES = ["orcs", "dwarves", "elves", "undead"]


def _round(client: TestClient, players: int = 2, **tournament: Any) -> tuple[str, dict[str, str], list[dict[str, Any]]]:
    body = {"name": "Autumn Open", "system": "lords-of-war", "rounds": 2, **tournament}
    created = client.post("/tournaments", json=body)
    assert created.status_code == 201, created.text
    tid, organiser = created.json()["id"], bearer(created.json()["token"])
    for i in range(players):
        entrant = {"id": f"player-{i}", "name": f"Player {i}", "army": ARMIES[i % len(ARMIES)]}
        assert client.post(f"/tournaments/{tid}/players", json=entrant, headers=organiser).status_code == 201
    started = client.post(f"/tournaments/{tid}/rounds", headers=organiser)
    assert started.status_code == 201, started.text
    return tid, organiser, started.json()["tables"]


def _game(client: TestClient, game_id: str) -> dict[str, Any]:
    return client.get(f"/games/{game_id}/state").json()


def _place(client: TestClient, game_id: str, token: str) -> Any:
    """The first legal action of the seat to act (p1 placing its challenge card), with ``token``."""
    service = client.app.state.service  # type: ignore[attr-defined]
    _, state = service.state(game_id)
    system = service.system_of(game_id)
    action = system.legal_actions(state, "p1")[0] if system.to_act(state) == ("p1",) else \
        {"type": "place", "player": "p1", "card": "orcs/orc-ravager-1", "square": "C3"}
    return client.post(f"/games/{game_id}/actions", json={"action": msgspec.to_builtins(action)},
                       headers=bearer(token))


def _concede(client: TestClient, game_id: str, token: str, seat: str) -> Any:
    return client.post(f"/games/{game_id}/actions", json={"action": {"type": "concede", "player": seat}},
                       headers=bearer(token))


def test_item_13_a_forfeit_of_a_table_with_a_live_game_ends_that_game_with_the_same_winner(client):
    tid, organiser, tables = _round(client)
    table = tables[0]
    game_id, tokens = table["game_id"], table["tokens"]
    assert _place(client, game_id, tokens["p1"]).status_code == 201  # the game is under way (p1's challenge)
    forfeit = client.post(f"/tournaments/{tid}/rounds/1/tables/1/result", json={"winner": "p2"}, headers=organiser)
    assert forfeit.status_code == 201, forfeit.text
    assert forfeit.json()["status"] == "forfeit" and forfeit.json()["winner"] == "p2"
    state = _game(client, game_id)
    assert state["phase"] == "over" and state["winner"] == "p2" and state["end_reason"] == "adjudicated"
    assert state["adjudication"]["reason"] == "judge" and "forfeit" in state["adjudication"]["note"]
    for token, seat in (("p1", "p1"), ("p2", "p2"), ("scorekeeper", "p1")):  # over for everybody: 409, nothing stored
        refused = _concede(client, game_id, tokens[token], seat)
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "game_over", refused.text
    again = client.post(f"/games/{game_id}/actions", headers=bearer(tokens["scorekeeper"]),
                        json={"action": {"type": "adjudicate", "winner": "p1", "reason": "judge"}})
    assert again.status_code == 409 and again.json()["error"]["code"] == "game_over"
    assert _game(client, game_id)["seq"] == state["seq"]
    listed = client.get(f"/games/{game_id}").json()
    assert listed["status"] == "over" and listed["winner"] == "p2"
    rows = {r["player"]: r for r in client.get(f"/tournaments/{tid}/standings").json()["standings"]}
    winner, loser = table["p2"], table["p1"]
    assert (rows[winner]["wins"], rows[winner]["match_points"], rows[loser]["losses"]) == (1, 3, 1)
    shown = client.get(f"/tournaments/{tid}").json()["played_rounds"][0]["tables"][0]
    assert (shown["status"], shown["winner"], shown["placings"]) == ("forfeit", "p2", [["p2"], ["p1"]])


def test_item_13_a_forfeit_cannot_override_a_finished_game(client):
    tid, organiser, tables = _round(client)
    game_id, tokens = tables[0]["game_id"], tables[0]["tokens"]
    conceded = client.post(f"/games/{game_id}/actions", json={"action": {"type": "concede", "player": "p1"}},
                           headers=bearer(tokens["p1"]))
    assert conceded.status_code == 201
    refused = client.post(f"/tournaments/{tid}/rounds/1/tables/1/result", json={"winner": "p1"}, headers=organiser)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "game_finished"
    shown = client.get(f"/tournaments/{tid}").json()["played_rounds"][0]["tables"][0]
    assert (shown["status"], shown["winner"]) == ("finished", "p2")
    assert _game(client, game_id)["winner"] == "p2"


def test_item_13_a_game_adjudicated_by_its_scorekeeper_decides_its_table(client):
    tid, _, tables = _round(client)
    game_id, tokens = tables[0]["game_id"], tables[0]["tokens"]
    adjudicated = client.post(f"/games/{game_id}/actions", headers=bearer(tokens["scorekeeper"]),
                              json={"action": {"type": "adjudicate", "winner": "draw", "reason": "time"}})
    assert adjudicated.status_code == 201
    shown = client.get(f"/tournaments/{tid}").json()["played_rounds"][0]["tables"][0]
    assert (shown["status"], shown["winner"], shown["placings"]) == ("finished", "draw", [["p1", "p2"]])
    rows = client.get(f"/tournaments/{tid}/standings").json()["standings"]
    assert [(r["draws"], r["match_points"]) for r in rows] == [(1, 1), (1, 1)]


def test_item_13_a_second_forfeit_of_a_decided_table_must_agree_with_its_game(client):
    tid, organiser, _ = _round(client)
    url = f"/tournaments/{tid}/rounds/1/tables/1/result"
    assert client.post(url, json={"winner": "p1", "kills": {"p1": 3}}, headers=organiser).status_code == 201
    other = client.post(url, json={"winner": "p2"}, headers=organiser)
    assert other.status_code == 409 and other.json()["error"]["code"] == "game_finished"
    same = client.post(url, json={"winner": "p1", "kills": {"p1": 5}}, headers=organiser)
    assert same.status_code == 201 and same.json()["kills"] == {"p1": 5, "p2": 0}  # its scores may be corrected


def test_item_13_a_forfeit_whose_log_write_fails_leaves_table_and_game_agreeing(client, monkeypatch):
    """The game is adjudicated first: if the tournament's log then refuses the write, the table reads its game (the
    same winner); entering the forfeit again records it."""
    tid, organiser, tables = _round(client)
    game_id = tables[0]["game_id"]
    log = client.app.state.tournaments.log  # type: ignore[attr-defined]
    append = log.append

    def refuse_results(tournament_id: str, events: Any, expected_seq: int) -> int:
        if events and events[0][0] == "result_entered":
            raise TournamentConflict("someone else wrote first")
        return append(tournament_id, events, expected_seq)

    monkeypatch.setattr(log, "append", refuse_results)
    url = f"/tournaments/{tid}/rounds/1/tables/1/result"
    failed = client.post(url, json={"winner": "p2"}, headers=organiser)
    assert failed.status_code == 409 and failed.json()["error"]["code"] == "conflict"
    shown = client.get(f"/tournaments/{tid}").json()["played_rounds"][0]["tables"][0]
    assert (shown["status"], shown["winner"]) == ("finished", "p2") and _game(client, game_id)["winner"] == "p2"
    monkeypatch.setattr(log, "append", append)
    retried = client.post(url, json={"winner": "p2"}, headers=organiser)
    assert retried.status_code == 201 and retried.json()["status"] == "forfeit"
    events = [e["type"] for e in map(lambda line: __import__("json").loads(line),
                                     client.get(f"/games/{game_id}/events").text.splitlines())]
    assert events.count("game_ended") == 1


@pytest.mark.parametrize("how", ["standings", "act"])
def test_item_13_a_forfeit_logged_before_adjudication_existed_settles_its_running_game(client, how):
    """A log written by an earlier version: the forfeit is in the tournament's log, its game still runs. Reading the
    tournament, or any action on that game, ends the game by the forfeit's adjudication first."""
    tid, organiser, tables = _round(client)
    game_id, tokens = tables[0]["game_id"], tables[0]["tokens"]
    service = client.app.state.tournaments  # type: ignore[attr-defined]
    seq = service.get(tid).seq
    service.log.append(tid, [("result_entered", {"round": 1, "table": 1, "placings": [["p2"], ["p1"]],
                                                  "scores": {"p1": 0, "p2": 0}})], seq)
    assert _game(client, game_id)["phase"] != "over"
    if how == "standings":
        client.get(f"/tournaments/{tid}/standings")
        assert _game(client, game_id)["winner"] == "p2"
    refused = _place(client, game_id, tokens["p1"])  # p1's legal challenge placement, had the game still run
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "game_over"
    state = _game(client, game_id)
    assert state["winner"] == "p2" and state["adjudication"]["reason"] == "judge"


def test_item_13_a_team_forfeit_adjudicates_the_team_game(client):
    body = {"seats": 4, "entrants": "teams", "variant": {"teams": True}}
    created = client.post("/tournaments", json={"name": "Teams", "system": "lords-of-war", "rounds": 1, **body})
    assert created.status_code == 201, created.text
    tid, organiser = created.json()["id"], bearer(created.json()["token"])
    for team, armies in (("reds", ("orcs", "undead")), ("blues", ("elves", "dwarves"))):
        members = [{"name": f"{team}-{i}", "army": army} for i, army in enumerate(armies)]
        assert client.post(f"/tournaments/{tid}/teams", json={"id": team, "name": team, "members": members},
                           headers=organiser).status_code == 201
    table = client.post(f"/tournaments/{tid}/rounds", headers=organiser).json()["tables"][0]
    winning = table["seats"]["p2"]
    forfeit = client.post(f"/tournaments/{tid}/rounds/1/tables/1/result", json={"winning_team": winning},
                          headers=organiser)
    assert forfeit.status_code == 201, forfeit.text
    state = _game(client, table["game_id"])
    assert state["winner"] == "even" and state["adjudication"]["placings"] == [["p2", "p4"], ["p1", "p3"]]
