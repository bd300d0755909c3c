"""Issue 31 items 1 and 2 over HTTP: unregister, check-in, late entry, drop; round 1's seeding; swaps and
re-pairings; the refusals that name the rule of the day and change nothing; two organisers racing for a round."""

from __future__ import annotations

import threading
from typing import Any

from fastapi.testclient import TestClient

from replay.tournaments.swiss import first_round, seeding_order
from tests.api.helpers import bearer, play

ARMIES = ["orcs", "dwarves", "elves", "undead", "templars"]


def _open(client: TestClient, players: int, rounds: int = 3, **options: Any) -> tuple[str, dict[str, str]]:
    body = {"name": "Saturday Open", "system": "lords-of-war", "rounds": rounds, **options}
    created = client.post("/tournaments", json=body)
    assert created.status_code == 201, created.text
    tid, organiser = created.json()["id"], bearer(created.json()["token"])
    for i in range(players):
        entrant = {"id": f"p{i}", "name": f"Player {i}", "army": ARMIES[i % len(ARMIES)]}
        assert client.post(f"/tournaments/{tid}/players", json=entrant, headers=organiser).status_code == 201
    return tid, organiser


def _refused(response: Any, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"] == code, response.text
    return str(response.json()["error"]["message"])


def _log(client: TestClient, tid: str) -> list[tuple[str, dict[str, Any]]]:
    return [(e.type, e.data) for e in client.app.state.tournaments.log.read(tid)]  # type: ignore[attr-defined]


def _forfeit_round(client: TestClient, tid: str, organiser: dict[str, str], number: int, tables: int) -> None:
    """Every table of the round decided by the organiser: p1 wins."""
    for table in range(1, tables + 1):
        done = client.post(f"/tournaments/{tid}/rounds/{number}/tables/{table}/result", json={"winner": "p1"},
                           headers=organiser)
        assert done.status_code == 201, done.text


def test_i31_unregister_before_round_1_and_refused_after(client: TestClient) -> None:
    tid, organiser = _open(client, 4)
    gone = client.delete(f"/tournaments/{tid}/players/p3", params={"reason": "ill"}, headers=organiser)
    assert gone.status_code == 200 and gone.json()["status"] == "unregistered"
    assert [p["id"] for p in client.get(f"/tournaments/{tid}").json()["players"]] == ["p0", "p1", "p2"]
    assert ("player_unregistered", {"id": "p3", "reason": "ill"}) in _log(client, tid)
    assert client.delete(f"/tournaments/{tid}/players/p3", headers=organiser).status_code == 422  # unknown_player
    assert client.delete(f"/tournaments/{tid}/players/p0").status_code == 401, "the organiser's token is needed"
    client.post(f"/tournaments/{tid}/rounds", headers=organiser)
    before = _log(client, tid)
    message = _refused(client.delete(f"/tournaments/{tid}/players/p0", headers=organiser), 409, "unregister_closed")
    assert "round 1 has started" in message and "dropped" in message
    assert _log(client, tid) == before, "a refusal changes nothing"


def test_i31_check_in_pairs_only_the_checked_in_in_round_1(client: TestClient) -> None:
    tid, organiser = _open(client, 5, check_in=True)
    assert client.get(f"/tournaments/{tid}").json()["check_in"] is True
    for pid in ("p0", "p2", "p4"):
        checked = client.post(f"/tournaments/{tid}/players/{pid}/check-in", headers=organiser)
        assert checked.status_code == 200 and checked.json()["status"] == "checked_in"
    seq = len(_log(client, tid))
    assert client.post(f"/tournaments/{tid}/players/p0/check-in", headers=organiser).status_code == 200
    assert len(_log(client, tid)) == seq, "checking in twice changes nothing"
    started = client.post(f"/tournaments/{tid}/rounds", headers=organiser).json()
    paired = {p for t in started["tables"] for p in t["seats"].values()} | set(started["byes"])
    assert paired == {"p0", "p2", "p4"}
    summary = client.get(f"/tournaments/{tid}").json()
    assert {p["id"]: p["absent"] for p in summary["players"]} == {"p0": False, "p1": True, "p2": False,
                                                                   "p3": True, "p4": False}
    assert {r["player"] for r in client.get(f"/tournaments/{tid}/standings").json()["standings"]} == paired
    before = _log(client, tid)
    message = _refused(client.post(f"/tournaments/{tid}/players/p1/check-in", headers=organiser), 409,
                       "check_in_closed")
    assert "round 1 has started" in message and "late" in message
    assert _log(client, tid) == before
    # a tournament without check-in pairs everyone, and says check-in is not its way
    other, other_organiser = _open(client, 2)
    _refused(client.post(f"/tournaments/{other}/players/p0/check-in", headers=other_organiser), 409, "no_check_in")


def test_i31_check_in_with_too_few_checked_in_refuses_the_round(client: TestClient) -> None:
    tid, organiser = _open(client, 4, check_in=True)
    client.post(f"/tournaments/{tid}/players/p0/check-in", headers=organiser)
    message = _refused(client.post(f"/tournaments/{tid}/rounds", headers=organiser), 409, "too_few_players")
    assert "checked-in" in message


def test_i31_late_entry_counts_each_missed_round_as_a_loss_or_a_bye(client: TestClient) -> None:
    tid, organiser = _open(client, 4)
    early = {"id": "late1", "name": "Late One", "army": "orcs", "missed": "bye"}
    _refused(client.post(f"/tournaments/{tid}/late", json=early, headers=organiser), 409, "registration_open")
    client.post(f"/tournaments/{tid}/rounds", headers=organiser)
    _forfeit_round(client, tid, organiser, 1, 2)
    client.post(f"/tournaments/{tid}/rounds", headers=organiser)
    for late in (early, {"id": "late2", "name": "Late Two", "army": "elves", "missed": "loss"}):
        entered = client.post(f"/tournaments/{tid}/late", json=late, headers=organiser)
        assert entered.status_code == 201, entered.text
        assert (entered.json()["status"], entered.json()["joined"]) == ("late", 3)
    assert _log(client, tid)[-1] == ("player_registered_late", {"id": "late2", "name": "Late Two", "army": "elves",
                                                                "round": 3, "missed": "loss"})
    before = _log(client, tid)
    _refused(client.post(f"/tournaments/{tid}/late", json=early, headers=organiser), 409, "already_registered")
    _refused(client.post(f"/tournaments/{tid}/late", json={**early, "id": "x", "missed": "draw"},
                         headers=organiser), 422, "invalid_request")
    _refused(client.post(f"/tournaments/{tid}/late", json={**early, "id": "x", "army": "gnomes"},
                         headers=organiser), 422, "unknown_army")
    assert _log(client, tid) == before
    rows = {r["player"]: r for r in client.get(f"/tournaments/{tid}/standings").json()["standings"]}
    assert (rows["late1"]["byes"], rows["late1"]["wins"], rows["late1"]["match_points"]) == (2, 2, 6)
    assert (rows["late2"]["losses"], rows["late2"]["match_points"]) == (2, 0)
    summary = client.get(f"/tournaments/{tid}").json()
    assert summary["played_rounds"][0]["missed"] == {"late1": "bye", "late2": "loss"}
    _forfeit_round(client, tid, organiser, 2, 2)
    third = client.post(f"/tournaments/{tid}/rounds", headers=organiser).json()
    paired = [p for t in third["tables"] for p in t["seats"].values()] + third["byes"]
    assert sorted(paired) == ["late1", "late2", "p0", "p1", "p2", "p3"]
    _refused(client.post(f"/tournaments/{tid}/late", json={**early, "id": "late3"}, headers=organiser), 409,
             "tournament_over")


def test_i31_a_dropped_player_is_paired_no_more_and_keeps_results(client: TestClient) -> None:
    tid, organiser = _open(client, 4)
    _refused(client.post(f"/tournaments/{tid}/players/p0/drop", headers=organiser), 409, "not_started")
    first = client.post(f"/tournaments/{tid}/rounds", headers=organiser).json()
    _forfeit_round(client, tid, organiser, 1, 2)
    winner = first["tables"][0]["p1"]
    dropped = client.post(f"/tournaments/{tid}/players/{winner}/drop", json={"reason": "train home"},
                          headers=organiser)
    assert dropped.status_code == 200 and dropped.json()["dropped_after"] == 1
    before = _log(client, tid)
    message = _refused(client.post(f"/tournaments/{tid}/players/{winner}/drop", headers=organiser), 409,
                       "already_dropped")
    assert "dropped already" in message
    _refused(client.post(f"/tournaments/{tid}/players/nobody/drop", headers=organiser), 422, "unknown_player")
    assert _log(client, tid) == before
    second = client.post(f"/tournaments/{tid}/rounds", headers=organiser).json()
    paired = [p for t in second["tables"] for p in t["seats"].values()] + second["byes"]
    assert winner not in paired and len(paired) == 3
    rows = {r["player"]: r for r in client.get(f"/tournaments/{tid}/standings").json()["standings"]}
    assert rows[winner]["match_points"] == 3 and rows[winner]["dropped_after"] == 1, "results kept, shown dropped"
    assert all(r["dropped_after"] is None for p, r in rows.items() if p != winner)


def test_i31_round_1_is_random_from_a_seed_the_tournament_records(client: TestClient) -> None:
    tid, organiser = _open(client, 8)
    assert client.get(f"/tournaments/{tid}").json()["seeding"] == "random"
    started = client.post(f"/tournaments/{tid}/rounds", headers=organiser).json()
    event = next(d for kind, d in _log(client, tid) if kind == "round_started")
    seed = event["seed"]
    assert 0 <= seed < 2 ** 63 and event["seeding"] == "random"
    assert client.get(f"/tournaments/{tid}").json()["played_rounds"][0]["seed"] == seed
    expected = first_round(seeding_order([f"p{i}" for i in range(8)], "random", seed), "random")
    assert [(t["p1"], t["p2"]) for t in started["tables"]] == list(expected.tables), "deterministic given the seed"


def test_i31_round_1_by_rating_reads_the_ratings_statistic(tmp_path: Any) -> None:
    """Two rated games (played out by bots) make a ratings table; round 1 seeded by rating puts the rated first,
    highest first, as ``GET /stats/ratings`` orders them, and records the ratings it used."""
    from api.app import create_app
    from api.settings import Settings

    with TestClient(create_app(Settings(db=str(tmp_path / "rated.duckdb")))) as client:
        for a, b in (("Player 0", "Player 1"), ("Player 2", "Player 3")):
            created = client.post("/games", json={"system": "lords-of-war", "players": [
                {"id": "p1", "name": a, "army": "orcs"}, {"id": "p2", "name": b, "army": "elves"}]})
            assert created.status_code == 201, created.text
            play(client, created.json()["id"], created.json()["tokens"])
        assert client.app.state.stats_projector.wait_idle(60)  # type: ignore[attr-defined]  # both games projected
        ratings = client.get("/stats/ratings", params={"system": "lords-of-war"}).json()["rows"]
        by_name = {r["player"]: r["rating"] for r in ratings}
        tid, organiser = _open(client, 6, seeding="rating")
        started = client.post(f"/tournaments/{tid}/rounds", headers=organiser)
        assert started.status_code == 201, started.text
        event = next(d for kind, d in _log(client, tid) if kind == "round_started")
        assert event["seeding"] == "rating"
        assert event["ratings"] == {f"p{i}": by_name[f"Player {i}"] for i in range(4) if f"Player {i}" in by_name}
        order = seeding_order([f"p{i}" for i in range(6)], "rating", event["seed"], event["ratings"])
        rated = event["ratings"]  # players of equal rating (two winners of one game each) in either order
        assert set(order[: len(rated)]) == set(rated), "the rated first"
        assert [rated[p] for p in order[: len(rated)]] == sorted(rated.values(), reverse=True), "highest first"
        pairs = [(t["p1"], t["p2"]) for t in started.json()["tables"]]
        assert pairs == list(first_round(order, "rating").tables), "top half against bottom half"


def test_i31_a_swap_reseats_two_players_in_new_games_with_a_reason(client: TestClient) -> None:
    tid, organiser = _open(client, 5)
    started = client.post(f"/tournaments/{tid}/rounds", headers=organiser).json()
    one, two = started["tables"]
    a, b, bye = one["p1"], two["p2"], started["bye"]
    url = f"/tournaments/{tid}/rounds/1/swap"
    before = _log(client, tid)
    _refused(client.post(url, json={"players": [a, b]}, headers=organiser), 422, "reason_required")
    _refused(client.post(url, json={"players": [a, b], "reason": " "}, headers=organiser), 422, "reason_required")
    _refused(client.post(url, json={"players": [a, one["p2"]], "reason": "x"}, headers=organiser), 422, "same_table")
    _refused(client.post(url, json={"players": [a, "ghost"], "reason": "x"}, headers=organiser), 422,
             "unknown_player")
    _refused(client.post(f"/tournaments/{tid}/rounds/2/swap", json={"players": [a, b], "reason": "x"},
                         headers=organiser), 422, "unknown_round")
    assert _log(client, tid) == before
    swapped = client.post(url, json={"players": [a, b], "reason": "same club"}, headers=organiser)
    assert swapped.status_code == 201, swapped.text
    tables = {t["table"]: t for t in swapped.json()["tables"]}
    assert tables[1]["seats"] == {"p1": b, "p2": one["p2"]} and tables[2]["seats"] == {"p1": two["p1"], "p2": a}
    assert {tables[1]["game_id"], tables[2]["game_id"]}.isdisjoint({one["game_id"], two["game_id"]})
    assert set(tables[1]["tokens"]) == {"scorekeeper", "p1", "p2"}
    kind, data = _log(client, tid)[-1]
    assert (kind, data["players"], data["reason"]) == ("players_swapped", [a, b], "same club")
    summary = client.get(f"/tournaments/{tid}").json()["played_rounds"][0]
    assert [t["game_id"] for t in summary["tables"]] == [tables[1]["game_id"], tables[2]["game_id"]]
    # the replaced game refuses every action: its table plays the new one
    old = client.post(f"/games/{one['game_id']}/actions", headers=bearer(one["tokens"]["scorekeeper"]),
                      json={"action": {"type": "adjudicate", "reason": "judge", "winner": "p1"}})
    _refused(old, 409, "table_replaced")
    assert client.get(f"/games/{one['game_id']}").json()["status"] != "over"
    # a table and the bye
    with_bye = client.post(url, json={"players": [bye, b], "reason": "late arrival sits out"}, headers=organiser)
    assert with_bye.status_code == 201 and with_bye.json()["byes"] == [b]
    # a table whose game has a move is started: no swap
    table = with_bye.json()["tables"][0]
    play(client, table["game_id"], table["tokens"], max_actions=1)
    other = next(p for p in (two["p1"], a) if p not in table["seats"].values())
    before = _log(client, tid)
    message = _refused(client.post(url, json={"players": [bye, other], "reason": "x"}, headers=organiser), 409,
                       "table_started")
    assert "has started" in message
    assert _log(client, tid) == before


def test_i31_repair_pairs_the_round_again_after_a_drop_and_refuses_once_a_table_started(
        client: TestClient) -> None:
    tid, organiser = _open(client, 6)
    client.post(f"/tournaments/{tid}/rounds", headers=organiser)
    _forfeit_round(client, tid, organiser, 1, 3)
    second = client.post(f"/tournaments/{tid}/rounds", headers=organiser).json()
    leaving = second["tables"][0]["p1"]
    client.post(f"/tournaments/{tid}/players/{leaving}/drop", json={"reason": "left"}, headers=organiser)
    _refused(client.post(f"/tournaments/{tid}/rounds/2/repair", json={}, headers=organiser), 422, "reason_required")
    _refused(client.post(f"/tournaments/{tid}/rounds/1/repair", json={"reason": "x"}, headers=organiser), 409,
             "round_over")
    repaired = client.post(f"/tournaments/{tid}/rounds/2/repair", json={"reason": "a drop before the round"},
                           headers=organiser)
    assert repaired.status_code == 201, repaired.text
    body = repaired.json()
    paired = [p for t in body["tables"] for p in t["seats"].values()] + body["byes"]
    assert leaving not in paired and len(paired) == 5 and len(body["byes"]) == 1
    first_pairs = {frozenset(t["seats"].values()) for t in client.get(f"/tournaments/{tid}").json()[
        "played_rounds"][0]["tables"]}
    assert not first_pairs & {frozenset(t["seats"].values()) for t in body["tables"]}, "no rematch"
    play(client, body["tables"][0]["game_id"], body["tables"][0]["tokens"], max_actions=1)
    before = _log(client, tid)
    _refused(client.post(f"/tournaments/{tid}/rounds/2/repair", json={"reason": "again"}, headers=organiser), 409,
             "table_started")
    assert _log(client, tid) == before


def test_i31_two_organisers_racing_for_a_round_get_one_round_and_a_conflict(client: TestClient) -> None:
    """Two pairing requests at once (threads against the HTTP app): one round is recorded, whole; the other
    request is refused (409) and leaves no table, game or event behind."""
    tid, organiser = _open(client, 8)
    barrier = threading.Barrier(2)
    answers: list[Any] = []

    def pair() -> None:
        barrier.wait()
        answers.append(client.post(f"/tournaments/{tid}/rounds", headers=organiser))

    racers = [threading.Thread(target=pair) for _ in range(2)]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join()
    assert sorted(a.status_code for a in answers) == [201, 409], [a.text for a in answers]
    refused = next(a for a in answers if a.status_code == 409)
    assert refused.json()["error"]["code"] in ("round_unfinished", "conflict")
    rounds = client.get(f"/tournaments/{tid}").json()["played_rounds"]
    assert len(rounds) == 1 and len(rounds[0]["tables"]) == 4
    games = client.get("/games", params={"tournament": tid}).json()["games"]
    assert sorted(g["id"] for g in games) == sorted(t["game_id"] for t in rounds[0]["tables"]), "no stray games"
    assert [kind for kind, _ in _log(client, tid)].count("round_started") == 1
