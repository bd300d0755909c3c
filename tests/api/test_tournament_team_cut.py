"""Issue 31 item 5 for team tournaments: the cut is the top 2, 4 or 8 teams of the team standings (dropped teams
out), a bracket of team matches seeded 1 v 4, 2 v 3; the higher-seeded team chooses to go first (the odd seats,
p1 and p3) or second; a match is decided by its game's winning team, a drawn one replayed. A correction of a team
table reaches its game as any other."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.api.test_tournament_teams import _create, _refused, _register

FOUR = ["hammers", "arrows", "crowns", "shields"]


def _result(client: TestClient, tid: str, organiser: dict[str, str], number: int, table: dict[str, Any],
            team: str) -> dict[str, Any]:
    answer = client.post(f"/tournaments/{tid}/rounds/{number}/tables/{table['table']}/result",
                         json={"winning_team": team}, headers=organiser)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def _swiss(client: TestClient, rounds: int = 2) -> tuple[str, dict[str, str], list[str]]:
    """Four teams, ``rounds`` Swiss rounds, each table won by its odd seats' team; -> the standings' order."""
    tid, organiser = _create(client, rounds=rounds)
    _register(client, tid, organiser, FOUR)
    for number in range(1, rounds + 1):
        for table in client.post(f"/tournaments/{tid}/rounds", headers=organiser).json()["tables"]:
            _result(client, tid, organiser, number, table, table["seats"]["p1"])
    rows = client.get(f"/tournaments/{tid}/standings").json()["standings"]
    return tid, organiser, [r["player"] for r in rows]


def test_the_cut_of_a_team_tournament_is_a_bracket_of_team_matches_seeded_by_the_team_standings(client):
    tid, organiser, order = _swiss(client)
    refused = client.post(f"/tournaments/{tid}/cut", json={"size": 8}, headers=organiser)
    assert "needs 8 teams; the field has 4" in _refused(refused, 409, "cut_larger_than_field")
    cut = client.post(f"/tournaments/{tid}/cut", json={"size": 4, "choices": {order[0]: "second"}},
                      headers=organiser)
    assert cut.status_code == 201, cut.text
    first, second = cut.json()["tables"]
    # seed 1 v seed 4 (seed 1 chose to go second: the even seats), seed 2 v seed 3 (seed 2 goes first)
    assert first["seats"] == {"p1": order[3], "p2": order[0], "p3": order[3], "p4": order[0]}
    assert second["seats"] == {"p1": order[1], "p2": order[2], "p3": order[1], "p4": order[2]}
    game = client.get(f"/games/{first['game_id']}").json()
    assert len(game["players"]) == 4 and game["round"] == 3
    bracket = client.get(f"/tournaments/{tid}/bracket").json()["bracket"]
    assert [s["entrant"] for s in bracket["seeds"]] == order
    assert [(m["higher"], m["lower"]) for m in bracket["rounds"][0]] == [(order[0], order[3]), (order[1], order[2])]
    # match 1: the underdog team wins; match 2: a drawn game is replayed, then seed 3 wins it
    _result(client, tid, organiser, 3, first, order[3])
    _result(client, tid, organiser, 3, second, "draw")
    replay = client.post(f"/tournaments/{tid}/cut/next", json={}, headers=organiser)
    assert replay.status_code == 201, replay.text
    [again] = replay.json()["tables"]
    assert again["seats"]["p1"] == order[1]
    _result(client, tid, organiser, 4, again, order[2])
    final = client.post(f"/tournaments/{tid}/cut/next", json={}, headers=organiser)
    assert final.status_code == 201, final.text
    [table] = final.json()["tables"]
    assert set(table["seats"].values()) == {order[2], order[3]}
    _result(client, tid, organiser, 5, table, order[2])
    bracket = client.get(f"/tournaments/{tid}/bracket").json()["bracket"]
    assert bracket["champion"] == order[2]
    assert [m["winner"] for m in bracket["rounds"][0]] == [order[3], order[2]]
    over = client.post(f"/tournaments/{tid}/cut/next", json={}, headers=organiser)
    assert order[2] in _refused(over, 409, "cut_over")
    # the cut's games do not count in the team standings
    rows = client.get(f"/tournaments/{tid}/standings").json()["standings"]
    assert [r["player"] for r in rows] == order and sum(r["wins"] for r in rows) == 4


def test_a_correction_of_a_team_table_reaches_its_game_with_the_teams_placed_together(client):
    tid, organiser, order = _swiss(client, rounds=1)
    table = client.get(f"/tournaments/{tid}").json()["played_rounds"][0]["tables"][0]
    loser = table["seats"]["p2"]
    corrected = client.post(f"/tournaments/{tid}/rounds/1/tables/1/correction",
                            json={"winning_team": loser, "reason": "slip had the teams the wrong way round"},
                            headers=organiser)
    assert corrected.status_code == 201, corrected.text
    assert corrected.json()["placings"] == [["p2", "p4"], ["p1", "p3"]]
    game = client.get(f"/games/{table['game_id']}").json()
    assert game["placings"] == [["p2", "p4"], ["p1", "p3"]] and game["end_reason"] == "adjudicated"
    rows = {r["player"]: r for r in client.get(f"/tournaments/{tid}/standings").json()["standings"]}
    assert rows[loser]["wins"] == 1 and rows[table["seats"]["p1"]]["losses"] == 1
