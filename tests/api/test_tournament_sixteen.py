"""Issue 31: the first half of a 16-player Swiss day over HTTP (rounds 1-3 of 6): two late entries (one with byes,
one with losses for the missed round), two drops (one between rounds, one after round 3 was paired, which is then
re-paired), a swap with a reason; every round checked against the pairing rules."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.api.helpers import bearer

ARMIES = ["orcs", "dwarves", "elves", "undead", "templars", "lizardmen"]


def _paired(body: dict[str, Any]) -> list[str]:
    return [p for table in body["tables"] for p in table["seats"].values()] + list(body["byes"])


def _decide(client: TestClient, tid: str, organiser: dict[str, str], number: int, tables: int) -> None:
    """Every table decided by the organiser: p1 wins at odd tables, p2 at even ones, table 2 a draw."""
    for table in range(1, tables + 1):
        body = {"winner": "draw" if table == 2 else "p1" if table % 2 else "p2"}
        done = client.post(f"/tournaments/{tid}/rounds/{number}/tables/{table}/result", json=body, headers=organiser)
        assert done.status_code == 201, done.text


def _standings(client: TestClient, tid: str) -> list[str]:
    return [r["player"] for r in client.get(f"/tournaments/{tid}/standings").json()["standings"]]


def _check_round(ranked: list[str], body: dict[str, Any], active: set[str], met: set[frozenset[str]],
                 byes: set[str]) -> None:
    """The round pairs every active player once, nobody else; no rematch (a field this size always allows one);
    a bye (if any) to the lowest-ranked active player without one in the standings it was paired from
    (``ranked``)."""
    paired = _paired(body)
    assert sorted(paired) == sorted(active)
    pairs = {frozenset(t["seats"].values()) for t in body["tables"]}
    assert not pairs & met, "no rematch"
    if body["byes"]:
        (bye,) = body["byes"]
        assert bye not in byes
        assert [p for p in ranked if p in active and p not in byes][-1] == bye, "the lowest-ranked without a bye"


def test_i31_sixteen_players_first_half_with_two_late_and_two_drops(client: TestClient) -> None:
    created = client.post("/tournaments", json={"name": "Sixteen", "system": "lords-of-war", "rounds": 6})
    tid, organiser = created.json()["id"], bearer(created.json()["token"])
    for i in range(16):
        entrant = {"id": f"s{i:02d}", "name": f"Seat {i:02d}", "army": ARMIES[i % len(ARMIES)]}
        assert client.post(f"/tournaments/{tid}/players", json=entrant, headers=organiser).status_code == 201
    active = {f"s{i:02d}" for i in range(16)}
    met: set[frozenset[str]] = set()
    byes: set[str] = set()

    def started(body: dict[str, Any], ranked: list[str]) -> None:
        _check_round(ranked, body, active, met, byes)
        met.update(frozenset(t["seats"].values()) for t in body["tables"])
        byes.update(body["byes"])

    first = client.post(f"/tournaments/{tid}/rounds", headers=organiser).json()
    assert len(first["tables"]) == 8 and not first["byes"]
    started(first, [])
    _decide(client, tid, organiser, 1, 8)

    # two late entries during round 2's pairing window: one counts round 1 as a bye, one as a loss
    for late, missed in (("late-bye", "bye"), ("late-loss", "loss")):
        entered = client.post(f"/tournaments/{tid}/late", json={"id": late, "name": late.title(), "army": "orcs",
                                                                  "missed": missed}, headers=organiser)
        assert entered.status_code == 201, entered.text
        active.add(late)
    byes.add("late-bye")  # a missed round counted as a bye is a bye

    ranked = _standings(client, tid)
    second = client.post(f"/tournaments/{tid}/rounds", headers=organiser).json()
    assert len(second["tables"]) == 9
    started(second, ranked)
    groups = {r["player"]: r["match_points"] for r in client.get(f"/tournaments/{tid}/standings").json()["standings"]}
    crossing = [t for t in second["tables"] if len({groups[p] for p in t["seats"].values()}) > 1]
    assert len(crossing) <= 3, "score groups: pairs cross groups only where a group's count is odd"
    _decide(client, tid, organiser, 2, 9)

    # a drop between rounds: paired no more
    leaver = second["tables"][-1]["seats"]["p1"]
    assert client.post(f"/tournaments/{tid}/players/{leaver}/drop", json={"reason": "went home"},
                       headers=organiser).status_code == 200
    active.discard(leaver)
    ranked = _standings(client, tid)
    third = client.post(f"/tournaments/{tid}/rounds", headers=organiser).json()
    assert len(third["tables"]) == 8 and len(third["byes"]) == 1
    _check_round(ranked, third, active, met, byes)

    # a second drop after round 3 was paired, before it started: the round is re-paired without them
    second_leaver = third["tables"][0]["seats"]["p2"]
    assert client.post(f"/tournaments/{tid}/players/{second_leaver}/drop", headers=organiser).status_code == 200
    active.discard(second_leaver)
    repaired = client.post(f"/tournaments/{tid}/rounds/3/repair", json={"reason": "a drop before the round"},
                           headers=organiser)
    assert repaired.status_code == 201, repaired.text
    third = repaired.json()
    assert len(third["tables"]) == 8 and not third["byes"]
    _check_round(ranked, third, active, met, byes)

    # a swap with a reason: two players of two tables who came together trade seats
    a, b = third["tables"][2]["seats"]["p1"], third["tables"][3]["seats"]["p1"]
    swapped = client.post(f"/tournaments/{tid}/rounds/3/swap", json={"players": [a, b], "reason": "one club"},
                          headers=organiser)
    assert swapped.status_code == 201, swapped.text
    summary = client.get(f"/tournaments/{tid}").json()
    now = summary["played_rounds"][2]["tables"]
    assert now[2]["seats"]["p1"] == b and now[3]["seats"]["p1"] == a
    met.update(frozenset(t["seats"].values()) for t in now)
    _decide(client, tid, organiser, 3, 8)

    rows = {r["player"]: r for r in client.get(f"/tournaments/{tid}/standings").json()["standings"]}
    assert len(rows) == 18, "dropped players stay in the standings"
    assert rows[leaver]["dropped_after"] == 2 and rows[second_leaver]["dropped_after"] == 3
    assert rows[leaver]["wins"] + rows[leaver]["draws"] + rows[leaver]["losses"] == 2  # a bye is one of the wins
    assert rows[second_leaver]["wins"] + rows[second_leaver]["draws"] + rows[second_leaver]["losses"] == 2, \
        "round 3 was re-paired without them: two rounds played"
    assert rows["late-bye"]["byes"] >= 1 and rows["late-loss"]["losses"] >= 1
    assert sum(r["wins"] + r["draws"] + r["losses"] for r in rows.values()) == 16 + 2 + 18 + 16, \
        "round 1, the late entrants' missed round 1, round 2, round 3 as re-paired"
    assert summary["status"] == "running"
    assert [p["id"] for p in summary["players"] if p["joined"] == 2] == ["late-bye", "late-loss"]
