"""GET /tournaments for the tournaments page (issue 31 item 7): each tournament's status, stage and round, filters by
system and by date, newest first on request; bad filters are a 422 that names the rule."""

from __future__ import annotations

from datetime import date, timedelta

from fastapi.testclient import TestClient

from tests.api.day_helpers import end_at_table, open_tournament, start_round


def _listed(client: TestClient, **params: str) -> list[dict]:
    response = client.get("/tournaments", params=params)
    assert response.status_code == 200, response.text
    return list(response.json()["tournaments"])


def test_i31_the_list_says_each_tournaments_status_stage_and_round(client: TestClient) -> None:
    waiting, _ = open_tournament(client, players=2, rounds=1)
    running, organiser = open_tournament(client, players=4, rounds=2)
    tables = start_round(client, running, organiser)["tables"]
    done, done_organiser = open_tournament(client, players=2, rounds=1)
    end_at_table(client, start_round(client, done, done_organiser)["tables"][0], "p1")
    rows = {t["id"]: t for t in _listed(client)}
    assert {k: rows[waiting][k] for k in ("status", "stage", "round", "in_play")} == {
        "status": "registration", "stage": None, "round": 0, "in_play": False}
    assert {k: rows[running][k] for k in ("status", "stage", "round", "in_play")} == {
        "status": "running", "stage": "swiss", "round": 1, "in_play": True}
    assert {k: rows[done][k] for k in ("status", "stage", "round", "in_play")} == {
        "status": "finished", "stage": "swiss", "round": 1, "in_play": False}
    for table in tables:  # round 1 over, round 2 not started: running, not in play
        end_at_table(client, table, "p1")
    assert {k: _listed_one(client, running)[k] for k in ("status", "round", "in_play")} == {
        "status": "running", "round": 1, "in_play": False}


def _listed_one(client: TestClient, tid: str) -> dict:
    return next(t for t in _listed(client) if t["id"] == tid)


def test_i31_a_cut_in_play_is_the_stage_cut_with_its_size(client: TestClient) -> None:
    tid, organiser = open_tournament(client, players=4, rounds=1)
    for table in start_round(client, tid, organiser)["tables"]:
        end_at_table(client, table, "p1")
    assert client.post(f"/tournaments/{tid}/cut", json={"size": 2}, headers=organiser).status_code == 201
    row = _listed_one(client, tid)
    assert (row["status"], row["stage"], row["cut"], row["round"], row["in_play"]) == ("running", "cut", 2, 1, True)


def test_i31_the_list_filters_by_system_and_by_date(client: TestClient) -> None:
    tid, _ = open_tournament(client, players=2, rounds=1)
    # its own day, not the wall clock's (which may pass midnight between the creation and here)
    today = date.fromisoformat(_listed_one(client, tid)["created_at"][:10])
    assert [t["id"] for t in _listed(client, system="lords-of-war")] == [tid]
    assert _listed(client, system="heroscape") == []
    assert [t["id"] for t in _listed(client, **{"from": today.isoformat(), "to": today.isoformat()})] == [tid]
    assert _listed(client, **{"from": (today + timedelta(days=1)).isoformat()}) == []
    assert _listed(client, to=(today - timedelta(days=1)).isoformat()) == []


def test_i31_the_list_filters_before_its_limit_and_orders_newest_first_on_request(client: TestClient) -> None:
    ids = [open_tournament(client, players=2, rounds=1)[0] for _ in range(3)]
    assert [t["id"] for t in _listed(client)] == ids  # oldest first, as always
    assert [t["id"] for t in _listed(client, order="newest")] == ids[::-1]
    assert [t["id"] for t in _listed(client, order="newest", limit="2")] == ids[:0:-1]
    assert [t["id"] for t in _listed(client, system="lords-of-war", limit="1")] == ids[:1]


def test_i31_bad_list_filters_are_refused_with_the_rule(client: TestClient) -> None:
    for params, words in (({"from": "2026-13-01"}, "from"), ({"order": "random"}, "order"),
                          ({"from": "2026-05-02", "to": "2026-05-01"}, "after")):
        response = client.get("/tournaments", params=params)
        assert response.status_code == 422, response.text
        assert words in response.json()["error"]["message"]
