"""Team entrants (issue 18): a fixed team registers once and plays every round as one entrant of a Lords of War
team tournament (seats 4 or 6, variant teams); standings are of teams."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from replay.tournaments.model import Entrant, Member, Round, Table, TableResult, Tournament, team_standings
from tests.api.helpers import bearer, play

TEAMS = {
    "hammers": ("The Hammers", [("Ana", "orcs"), ("Ben", "dwarves")]),
    "arrows": ("The Arrows", [("Cas", "elves"), ("Dee", "undead")]),
    "crowns": ("The Crowns", [("Eli", "templars"), ("Fay", "orcs")]),
    "shields": ("The Shields", [("Gus", "dwarves"), ("Hal", "elves")]),
    "torches": ("The Torches", [("Ivy", "undead"), ("Jon", "templars")]),
}


def _create(client: TestClient, rounds: int = 3, seats: int = 4, entrants: str = "teams",
            variant: dict[str, Any] | None = None) -> tuple[str, dict[str, str]]:
    body = {"name": "Team Cup", "system": "lords-of-war", "rounds": rounds, "seats": seats, "entrants": entrants,
            "variant": {"teams": True} if variant is None else variant,
            "seeding": "registration"}  # round 1 in registration order: these tests name who sits where
    created = client.post("/tournaments", json=body)
    assert created.status_code == 201, created.text
    return created.json()["id"], bearer(created.json()["token"])


def _team(team_id: str) -> dict[str, Any]:
    name, members = TEAMS[team_id]
    return {"id": team_id, "name": name, "members": [{"name": n, "army": a} for n, a in members]}


def _register(client: TestClient, tid: str, organiser: dict[str, str], teams: list[str]) -> None:
    for team_id in teams:
        answer = client.post(f"/tournaments/{tid}/teams", json=_team(team_id), headers=organiser)
        assert answer.status_code == 201, answer.text


def _refused(answer: Any, status: int, code: str) -> str:
    assert answer.status_code == status and answer.json()["error"]["code"] == code, answer.text
    return str(answer.json()["error"]["message"])


def test_creating_a_team_tournament_needs_a_variant_of_two_teams(client: TestClient) -> None:
    for body in ({"seats": 2, "variant": {}}, {"seats": 3, "variant": {}}, {"seats": 3, "variant": {"teams": True}}):
        answer = client.post("/tournaments", json={"name": "x", "system": "lords-of-war", "rounds": 1,
                                                   "entrants": "teams", **body})
        assert answer.status_code == 422, (body, answer.text)
        assert answer.json()["error"]["code"] in ("invalid_entrants", "invalid_seats", "invalid_variant")
    answer = client.post("/tournaments", json={"name": "x", "system": "lords-of-war", "rounds": 1, "seats": 2,
                                               "entrants": "teams"})
    assert "two teams" in _refused(answer, 422, "invalid_entrants")
    wrong = client.post("/tournaments", json={"name": "x", "system": "lords-of-war", "rounds": 1, "entrants": "pairs"})
    _refused(wrong, 422, "invalid_request")
    tid, _ = _create(client, seats=6)
    summary = client.get(f"/tournaments/{tid}").json()
    assert (summary["entrants"], summary["seats"], summary["teams"], summary["players"]) == ("teams", 6, [], [])
    listed = next(t for t in client.get("/tournaments").json()["tournaments"] if t["id"] == tid)
    assert listed["entrants"] == "teams"


def test_team_registration_refusals_name_the_problem(client: TestClient) -> None:
    tid, organiser = _create(client)
    url = f"/tournaments/{tid}/teams"

    def team(**change: Any) -> dict[str, Any]:
        return {**_team("hammers"), **change}

    three = team(members=[{"name": "Ana", "army": "orcs"}, {"name": "Ben", "army": "orcs"},
                          {"name": "Cas", "army": "orcs"}])
    assert "exactly 2 members, not 3" in _refused(client.post(url, json=three, headers=organiser), 422,
                                                   "invalid_members")
    one = team(members=[{"name": "Ana", "army": "orcs"}])
    assert "exactly 2 members, not 1" in _refused(client.post(url, json=one, headers=organiser), 422,
                                                   "invalid_members")
    twice = team(members=[{"name": "Ana", "army": "orcs"}, {"name": " ana", "army": "elves"}])
    assert "named twice" in _refused(client.post(url, json=twice, headers=organiser), 422, "duplicate_member")
    gnomes = team(members=[{"name": "Ana", "army": "orcs"}, {"name": "Ben", "army": "gnomes"}])
    message = client.post(url, json=gnomes, headers=organiser)
    assert message.status_code == 422 and "member 'Ben'" in message.json()["error"]["message"], message.text
    as_player = client.post(f"/tournaments/{tid}/players", json={"id": "ana", "army": "orcs"}, headers=organiser)
    _refused(as_player, 422, "entrants_are_teams")
    assert client.get(f"/tournaments/{tid}").json()["teams"] == [], "nothing was registered by a refusal"
    _register(client, tid, organiser, ["hammers"])
    again = client.post(url, json=_team("hammers"), headers=organiser)
    _refused(again, 409, "already_registered")
    poacher = {"id": "poachers", "name": "Poachers", "members": [{"name": "Ben", "army": "orcs"},
                                                                   {"name": "Zed", "army": "elves"}]}
    assert "already plays for team 'hammers'" in _refused(client.post(url, json=poacher, headers=organiser), 422,
                                                           "duplicate_member")
    draw = {**_team("arrows"), "id": "draw"}
    _refused(client.post(url, json=draw, headers=organiser), 422, "invalid")
    assert client.post(url, json=_team("arrows")).status_code == 401
    one_team = client.post(f"/tournaments/{tid}/rounds", headers=organiser)
    assert "2 registered teams" in _refused(one_team, 409, "too_few_players")
    players_tid = client.post("/tournaments", json={"name": "p", "system": "lords-of-war", "rounds": 1}).json()
    into_players = client.post(f"/tournaments/{players_tid['id']}/teams", json=_team("arrows"),
                               headers=bearer(players_tid["token"]))
    _refused(into_players, 422, "entrants_are_players")


def test_a_team_tournament_over_http(client: TestClient) -> None:
    """Three teams, two rounds: each round one table played out by bots and a bye; standings by hand."""
    tid, organiser = _create(client, rounds=2)
    _register(client, tid, organiser, ["hammers", "arrows", "crowns"])
    summary = client.get(f"/tournaments/{tid}").json()
    assert [t["id"] for t in summary["teams"]] == ["hammers", "arrows", "crowns"]
    assert summary["teams"][0]["members"] == [{"name": "Ana", "army": "orcs"}, {"name": "Ben", "army": "dwarves"}]
    points = {t: 0 for t in TEAMS if t in ("hammers", "arrows", "crowns")}
    difference = dict.fromkeys(points, 0)
    met = []
    for number in (1, 2):
        body = client.post(f"/tournaments/{tid}/rounds", headers=organiser).json()
        assert len(body["tables"]) == 1 and len(body["byes"]) == 1
        points[body["bye"]] += 3
        table = body["tables"][0]
        odd, even = table["seats"]["p1"], table["seats"]["p2"]
        assert table["seats"] == {"p1": odd, "p2": even, "p3": odd, "p4": even}
        met.append(frozenset((odd, even)))
        game = client.get(f"/games/{table['game_id']}").json()
        names = [s["name"] for s in game["players"]]
        assert names == [TEAMS[odd][1][0][0], TEAMS[even][1][0][0], TEAMS[odd][1][1][0], TEAMS[even][1][1][0]]
        assert set(table["tokens"]) == {"scorekeeper", "p1", "p2", "p3", "p4"}
        play(client, table["game_id"], table["tokens"])
        state = client.get(f"/games/{table['game_id']}/state").json()
        result = client.get(f"/tournaments/{tid}").json()["played_rounds"][number - 1]["tables"][0]
        assert result["status"] == "finished"
        winners = result["placings"][0]
        kills = {team: state["kills"][side]["total"] for team, side in ((odd, "odd"), (even, "even"))}
        difference[odd] += kills[odd] - kills[even]
        difference[even] += kills[even] - kills[odd]
        if len(result["placings"]) == 1:
            points[odd] += 1
            points[even] += 1
        else:
            points[odd if set(winners) == {"p1", "p3"} else even] += 3
            assert set(winners) in ({"p1", "p3"}, {"p2", "p4"})
    assert met[0] != met[1], "no rematch while avoidable"
    rows = client.get(f"/tournaments/{tid}/standings").json()["standings"]
    assert {r["player"]: r["match_points"] for r in rows} == points
    assert {r["player"]: r["score_difference"] for r in rows} == difference
    assert {r["player"]: r["members"] for r in rows} == {t: [m for m, _ in TEAMS[t][1]] for t in points}
    assert sum(r["byes"] for r in rows) == 2 and all(len(r["opponents"]) + r["byes"] == 2 for r in rows)
    keys = [(r["match_points"], r["opponents_match_win"], r["score_difference"]) for r in rows]
    assert keys == sorted(keys, reverse=True)
    assert client.get(f"/tournaments/{tid}").json()["status"] == "finished"


def test_a_team_tournament_recorded_at_the_table(client: TestClient) -> None:
    """§11: a team event's variant may say table mode; its tables' games start with every hand unknown and play to
    a team's result that the standings count."""
    tid, organiser = _create(client, rounds=1, variant={"teams": True, "mode": "table"})
    _register(client, tid, organiser, ["hammers", "arrows"])
    table = client.post(f"/tournaments/{tid}/rounds", headers=organiser).json()["tables"][0]
    scorekeeper = bearer(table["tokens"]["scorekeeper"])
    state = client.get(f"/games/{table['game_id']}/state", params={"view": "all"}, headers=scorekeeper).json()
    assert state["variant"]["mode"] == "table" and state["hands"]["p3"] == {"count": 6, "known": []}
    play(client, table["game_id"], table["tokens"])
    rows = client.get(f"/tournaments/{tid}/standings").json()["standings"]
    assert sorted(r["match_points"] for r in rows) in ([0, 3], [1, 1])


def test_seats_alternate_and_forfeits_name_the_winning_team(client: TestClient) -> None:
    tid, organiser = _create(client, rounds=3, seats=6)
    six = {tid_: (n, [*m, (m[0][0] + "2", m[0][1])]) for tid_, (n, m) in TEAMS.items()}
    teams = ["hammers", "arrows", "crowns", "shields"]
    for team_id in teams:
        name, members = six[team_id]
        answer = client.post(f"/tournaments/{tid}/teams", headers=organiser, json={
            "id": team_id, "name": name, "members": [{"name": n, "army": a} for n, a in members]})
        assert answer.status_code == 201, answer.text
    odd_count = dict.fromkeys(teams, 0)
    for number in (1, 2, 3):
        before = {r["player"]: r["rank"] for r in client.get(f"/tournaments/{tid}/standings").json()["standings"]}
        body = client.post(f"/tournaments/{tid}/rounds", headers=organiser).json()
        assert len(body["tables"]) == 2 and body["byes"] == []
        for table in body["tables"]:
            odd, even = table["seats"]["p1"], table["seats"]["p2"]
            assert list(table["seats"].values()) == [odd, even] * 3
            # the rule: the team odd less often is odd, then the higher-ranked
            assert odd_count[odd] < odd_count[even] or (odd_count[odd] == odd_count[even] and
                                                         (number == 1 or before[odd] < before[even]))
            odd_count[odd] += 1
            game = client.get(f"/games/{table['game_id']}").json()
            assert [s["name"] for s in game["players"]][::2] == [n for n, _ in six[odd][1]]
        url = f"/tournaments/{tid}/rounds/{number}/tables"
        first, second = body["tables"]
        refused = client.post(f"{url}/1/result", json={"winning_team": "torches"}, headers=organiser)
        assert "the table's teams" in _refused(refused, 422, "invalid_result")
        split = client.post(f"{url}/1/result", json={"placings": [["p1", "p2", "p3", "p5"], ["p4", "p6"]]},
                            headers=organiser)
        assert "split" in _refused(split, 422, "invalid_result")
        win = first["seats"]["p2"]
        won = client.post(f"{url}/1/result", headers=organiser,
                          json={"winning_team": win, "team_scores": {win: 9, first["seats"]["p1"]: 4}})
        assert won.status_code == 201, won.text
        assert won.json()["placings"] == [["p2", "p4", "p6"], ["p1", "p3", "p5"]]
        assert won.json()["scores"] == {"p1": 4, "p2": 9, "p3": 4, "p4": 9, "p5": 4, "p6": 9}
        drawn = client.post(f"{url}/2/result", json={"winning_team": "draw"}, headers=organiser)
        assert drawn.status_code == 201 and drawn.json()["winner"] == "draw"
    assert sorted(odd_count.values()) == [1, 1, 2, 2], "nobody is odd every round"
    rows = client.get(f"/tournaments/{tid}/standings").json()["standings"]
    assert sum(r["wins"] for r in rows) == 3 and sum(r["draws"] for r in rows) == 6
    players = client.post("/tournaments", json={"name": "p", "system": "lords-of-war", "rounds": 1}).json()
    for pid, army in (("a", "orcs"), ("b", "elves")):
        client.post(f"/tournaments/{players['id']}/players", json={"id": pid, "army": army},
                    headers=bearer(players["token"]))
    client.post(f"/tournaments/{players['id']}/rounds", headers=bearer(players["token"]))
    not_teams = client.post(f"/tournaments/{players['id']}/rounds/1/tables/1/result",
                            json={"winning_team": "a"}, headers=bearer(players["token"]))
    _refused(not_teams, 422, "invalid_result")


def _standing_table(results: list[tuple[str, str, str | None, int, int]],
                    byes: tuple[str, ...] = ()) -> list[tuple[str, int, float, int]]:
    """Standings of teams a..e from (odd team, even team, winner or None for a draw, odd score, even score)."""
    t = Tournament("t", "T", "lords-of-war", "swiss", 3, {"teams": True}, "h", "now", seats=4, entry="teams")
    for team in "abcde":
        t.entrants[team] = Entrant(team, team.upper(), None, [Member(team + "1"), Member(team + "2")])
    t.played.append(Round(1, [], list(byes)))
    rows = []
    for i, (odd, even, winner, s_odd, s_even) in enumerate(results, 1):
        seats = {"p1": odd, "p2": even, "p3": odd, "p4": even}
        t.played[0].tables.append(Table(i, seats, f"g{i}"))
        if winner is None:
            placings: tuple[tuple[str, ...], ...] = (("p1", "p2", "p3", "p4"),)
        else:
            placings = (tuple(s for s in seats if seats[s] == winner), tuple(s for s in seats if seats[s] != winner))
        rows.append(TableResult(1, i, seats, f"g{i}", "finished", placings,
                                {"p1": s_odd, "p3": s_odd, "p2": s_even, "p4": s_even}))
    return [(s.player, s.match_points, s.opponents_match_win, s.score_difference) for s in team_standings(t, rows)]


def test_team_standings_tie_breaks() -> None:
    # points first (c: a win and a draw); b and d both lost: b's opponent a has the better match-win
    rows = _standing_table([("a", "b", "a", 30, 10), ("c", "d", "c", 30, 29), ("c", "e", None, 5, 5)])
    assert [r[0] for r in rows] == ["c", "a", "e", "b", "d"]
    by = {r[0]: r for r in rows}
    assert [by[t][1] for t in "caebd"] == [4, 3, 1, 0, 0]
    assert by["b"][2] == 1.0 and by["d"][2] == round(4 / 6, 4)
    assert (by["a"][3], by["b"][3], by["c"][3], by["d"][3], by["e"][3]) == (20, -20, 1, -1, 0)
    # the same points and opponents' match-win (both floored at 1/3): the score difference decides
    rows = _standing_table([("a", "b", "a", 12, 10), ("c", "d", "c", 20, 10)])
    assert [r[0] for r in rows] == ["c", "a", "b", "d", "e"]  # e played nobody: opponents' match-win 0
    # everything equal: the team id
    rows = _standing_table([("b", "a", "b", 12, 10), ("d", "c", "d", 12, 10)])
    assert [r[0] for r in rows] == ["b", "d", "a", "c", "e"]
    rows = _standing_table([("a", "b", "a", 1, 0)], byes=("c",))
    assert rows[:2] == [("a", 3, 0.3333, 1), ("c", 3, 0.0, 0)]  # a bye is a win but no opponent


def test_an_old_players_log_folds_unchanged_and_a_team_log_survives_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "teams.duckdb")
    with TestClient(create_app(Settings(db=db))) as client:
        tid, organiser = _create(client, rounds=1)
        _register(client, tid, organiser, ["hammers", "arrows"])
        table = client.post(f"/tournaments/{tid}/rounds", headers=organiser).json()["tables"][0]
        service = client.app.state.tournaments  # type: ignore[attr-defined]
        service.log.append("t-players", [
            ("tournament_created", {"name": "Old", "system": "lords-of-war", "format": "swiss", "rounds": 1,
                                    "variant": {"teams": True}, "organiser_hash": "x", "seats": 4}),
            ("player_registered", {"id": "ann", "name": "Ann", "army": "orcs"}),
        ], expected_seq=0)
    with TestClient(create_app(Settings(db=db))) as client:
        summary = client.get(f"/tournaments/{tid}").json()
        assert summary["entrants"] == "teams" and [t["id"] for t in summary["teams"]] == ["hammers", "arrows"]
        assert summary["played_rounds"][0]["tables"][0]["seats"] == table["seats"]
        old = client.get("/tournaments/t-players").json()
        assert (old["entrants"], [p["id"] for p in old["players"]], old["teams"]) == ("players", ["ann"], [])
        assert client.get("/tournaments/t-players/standings").json()["standings"][0]["members"] is None
        log = client.app.state.tournaments.log.read(tid)  # type: ignore[attr-defined]
        assert [e.type for e in log] == ["tournament_created", "team_registered", "team_registered", "round_started"]
        assert log[1].data == {"id": "hammers", "name": "The Hammers", "members": [
            {"name": "Ana", "army": "orcs"}, {"name": "Ben", "army": "dwarves"}]}


@pytest.mark.parametrize("seats", [4, 6])
def test_a_players_tournament_of_team_tables_is_unchanged(client: TestClient, seats: int) -> None:
    tid, organiser = _create(client, rounds=1, seats=seats, entrants="players")
    assert client.get(f"/tournaments/{tid}").json()["entrants"] == "players"
    assert client.post(f"/tournaments/{tid}/players", json={"id": "ann", "army": "orcs"},
                       headers=organiser).status_code == 201


def test_the_cli_runs_a_team_tournament(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from api.cli import main

    db = str(tmp_path / "cli.duckdb")
    assert main(["tournament", "create", "--db", db, "--name", "Pairs", "--rounds", "1", "--seats", "4",
                 "--team-rules", "--entrants", "teams", "--seeding", "registration"]) == 0
    tid = capsys.readouterr().out.split()[1]
    for team_id in ("hammers", "arrows"):
        name, members = TEAMS[team_id]
        args = [arg for n, a in members for arg in ("--member", n, a)]
        assert main(["tournament", "register-team", tid, team_id, "--name", name, *args, "--db", db]) == 0
    assert "registered team arrows (The Arrows): Cas, Dee" in capsys.readouterr().out
    assert main(["tournament", "register-team", tid, "solo", "--member", "Zed", "orcs", "--db", db]) == 1
    assert "invalid_members" in capsys.readouterr().err
    assert main(["tournament", "register", tid, "zed", "--army", "orcs", "--db", db]) == 1
    assert "entrants_are_teams" in capsys.readouterr().err
    assert main(["tournament", "round", tid, "--json", "--db", db]) == 0
    table = json.loads(capsys.readouterr().out)["tables"][0]
    assert table["seats"] == {"p1": "hammers", "p2": "arrows", "p3": "hammers", "p4": "arrows"}
    assert main(["tournament", "result", tid, "1", "1", "--winning-team", "arrows", "--scores", "3", "8", "3", "8",
                 "--db", db]) == 0
    capsys.readouterr()
    assert main(["tournament", "standings", tid, "--json", "--db", db]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["player"], r["match_points"], r["score_difference"], r["members"]) for r in rows] == [
        ("arrows", 3, 5, ["Cas", "Dee"]), ("hammers", 0, -5, ["Ana", "Ben"])]
    assert main(["tournament", "standings", tid, "--db", db]) == 0
    assert "Cas, Dee" in capsys.readouterr().out
    assert main(["tournament", "show", tid, "--db", db]) == 0
    shown = capsys.readouterr().out
    assert "team hammers (The Hammers): Ana, Ben" in shown and "hammers vs arrows" in shown
