"""Lords of War with three to six players (§10) over HTTP: setups, a token per seat, per-seat views where a
team-mate's hand is hidden too, illegal actions with their rule, the result naming the winning team."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.api.helpers import bearer, play

ARMIES = ("orcs", "dwarves", "elves", "undead", "templars", "lizardmen")


def team_game(client: TestClient, seats: int, **overrides: Any) -> tuple[str, dict[str, str]]:
    armies = list(ARMIES[:seats]) if seats != 3 else ["orcs", "dwarves", "dwarves"]
    body: dict[str, Any] = {
        "system": "lords-of-war",
        "players": [{"id": f"p{i + 1}", "name": f"Player {i + 1}", "army": a} for i, a in enumerate(armies)],
        "seed": 11, "insecure_seed": True,
        "variant": {"teams": True} if seats in (4, 6) else {},
    }
    body.update(overrides)
    response = client.post("/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()["id"], response.json()["tokens"]


def test_teams_game_has_a_token_per_seat_and_the_team_thresholds(client: TestClient) -> None:
    game_id, tokens = team_game(client, 4)
    assert sorted(tokens) == ["p1", "p2", "p3", "p4", "scorekeeper"]
    state = client.get(f"/games/{game_id}/state", params={"view": "all"}, headers=bearer(tokens["scorekeeper"])).json()
    assert state["variant"]["kill_target"] == 30 and state["variant"]["command_target"] == 7
    assert state["variant"]["unbounded"] is True
    assert state["teams"] == {"odd": ["p1", "p3"], "even": ["p2", "p4"]}
    assert state["kills"] == {"odd": {"total": 0, "commanders": 0}, "even": {"total": 0, "commanders": 0}}


def test_teams_views_hide_a_team_mates_hand(client: TestClient) -> None:
    game_id, tokens = team_game(client, 6)
    view = client.get(f"/games/{game_id}/state", params={"view": "p1"}, headers=bearer(tokens["p1"])).json()
    assert "cards" in view["hands"]["p1"] and len(view["hands"]["p1"]["cards"]) == 6
    for mate in ("p2", "p3", "p4", "p5", "p6"):  # p3 and p5 are p1's team-mates: their hands stay hidden too
        assert view["hands"][mate] == {"count": 6}
    refused = client.get(f"/games/{game_id}/state", params={"view": "p3"}, headers=bearer(tokens["p1"]))
    assert refused.status_code == 403  # a team-mate's token does not open a team-mate's view
    events = client.get(f"/games/{game_id}/events", params={"view": "p1"}, headers=bearer(tokens["p1"])).text
    dealt = [line for line in events.splitlines() if '"hand_dealt"' in line]
    assert len(dealt) == 6 and sum('"cards":null' in line for line in dealt) == 5


def test_teams_a_seat_acts_only_with_its_own_token_and_in_its_turn(client: TestClient) -> None:
    game_id, tokens = team_game(client, 4)
    scorekeeper = bearer(tokens["scorekeeper"])
    state = client.get(f"/games/{game_id}/state", params={"view": "all"}, headers=scorekeeper).json()
    card = state["hands"]["p1"]["cards"][0]
    place = {"type": "place", "player": "p1", "card": card, "square": "0,0"}
    assert client.post(f"/games/{game_id}/actions", json={"action": place}, headers=bearer(tokens["p3"])).status_code \
        == 403  # a team-mate cannot act for p1
    wrong = client.post(f"/games/{game_id}/actions", json={"action": {**place, "square": "2,2"}},
                        headers=bearer(tokens["p1"]))
    assert wrong.status_code == 422 and wrong.json()["error"]["rule"] == "R14"
    assert client.post(f"/games/{game_id}/actions", json={"action": place}, headers=bearer(tokens["p1"])).status_code \
        == 201


def test_teams_setups_the_rules_refuse(client: TestClient) -> None:
    players = [{"id": f"p{i + 1}", "army": a} for i, a in enumerate(ARMIES[:4])]
    for body, rule in (
        ({"players": players}, "§10"),  # four without teams
        ({"players": players + [{"id": "p5", "army": "orcs"}], "variant": {"teams": True}}, "§10"),
        ({"players": players[:2], "variant": {"teams": True}}, "§10"),
        ({"players": players, "variant": {"teams": True, "unbounded": False}}, "§10"),  # team games have no mat
        ({"players": players[:3]}, "§10"),  # p3's army is not p2's
    ):
        response = client.post("/games", json={"system": "lords-of-war", "seed": 1, "insecure_seed": True, **body})
        assert response.status_code == 422, response.text
        assert response.json()["error"]["rule"] == rule, response.json()
    assert client.get("/games").json()["games"] == []  # nothing stored


def test_three_players_game_over_http_names_the_winning_team(client: TestClient) -> None:
    game_id, tokens = team_game(client, 3)
    play(client, game_id, tokens)
    game = client.get(f"/games/{game_id}").json()
    over = client.get(f"/games/{game_id}/state", params={"view": "spectator"}).json()
    assert over["phase"] == "over" and over["winner"] in ("solo", "allies")
    winners = ["p1"] if over["winner"] == "solo" else ["p2", "p3"]
    assert game["winner"] == (winners[0] if len(winners) == 1 else None), game  # a team's win: see placings
    assert [sorted(group) for group in game["placings"]] == [winners, sorted({"p1", "p2", "p3"} - set(winners))]
    assert over["middle"] in ([], ["dwarves/krod-klouthammer"])


def test_teams_tournament_tables_record_the_teams_result_and_its_seats_share_the_standing(client: TestClient) -> None:
    created = client.post("/tournaments", json={"name": "Team Cup", "system": "lords-of-war", "rounds": 1,
                                                "seats": 4, "variant": {"teams": True}})
    assert created.status_code == 201, created.text
    tid, organiser = created.json()["id"], bearer(created.json()["token"])
    for i in range(8):
        response = client.post(f"/tournaments/{tid}/players", json={"id": f"e{i}", "name": f"E {i}", "army": "orcs"},
                               headers=organiser)
        assert response.status_code == 201, response.text
    started = client.post(f"/tournaments/{tid}/rounds", headers=organiser).json()
    assert [len(t["seats"]) for t in started["tables"]] == [4, 4] and started["byes"] == []
    winners: set[str] = set()
    for table in started["tables"]:
        play(client, table["game_id"], table["tokens"])
        state = client.get(f"/games/{table['game_id']}/state", params={"view": "spectator"}).json()
        team = state["teams"][state["winner"]]  # the winning team's seats
        winners.update(table["seats"][seat] for seat in team)
    tables = client.get(f"/tournaments/{tid}").json()["played_rounds"][0]["tables"]
    for table in tables:  # the table's result: the teams, each placed together
        assert table["status"] == "finished"
        assert sorted(sorted(group) for group in table["placings"]) == [["p1", "p3"], ["p2", "p4"]]
        assert table["winner"] is None  # two seats share the win: the placings say which
    rows = {r["player"]: r for r in client.get(f"/tournaments/{tid}/standings").json()["standings"]}
    for player, row in rows.items():  # a 4-seat table gives 3, 2, 1, 0: a team's two seats share 3 + 2 or 1 + 0
        assert row["match_points"] == (2.5 if player in winners else 0.5), (player, row)
        assert row["wins"] == (1 if player in winners else 0)


def test_teams_table_game_over_http_counts_copies_per_seats_army(client: TestClient) -> None:
    """§11 with four players: a scorekeeper records the game; hands are unknown to every view, a card whose
    copies are all used by that seat's army is refused with nothing stored, and the game plays to its end."""
    game_id, tokens = team_game(client, 4, variant={"teams": True, "mode": "table"},
                                players=[{"id": f"p{i + 1}", "army": a} for i, a in enumerate(["orcs", "dwarves"] * 2)])
    scorekeeper = bearer(tokens["scorekeeper"])
    state = client.get(f"/games/{game_id}/state", params={"view": "all"}, headers=scorekeeper).json()
    assert state["hands"]["p1"] == {"count": 6, "known": []} and state["deck"]["p3"] == 30
    shanker = "orcs/goblin-shanker-1"  # one copy in each orc army
    for player, square in (("p1", "0,0"), ("p2", "2,2"), ("p3", "4,0")):  # the challenge (R14), each then draws
        card = shanker if player != "p2" else "dwarves/dwarf-slugger-2"
        placed = client.post(f"/games/{game_id}/actions", headers=scorekeeper,
                             json={"action": {"type": "place", "player": player, "card": card, "square": square}})
        assert placed.status_code == 201, placed.text  # p3's own copy, though p1's is on the mat
        assert client.post(f"/games/{game_id}/actions", headers=scorekeeper,
                           json={"action": {"type": "draw", "player": player}}).status_code == 201
    seq = client.get(f"/games/{game_id}/state", params={"view": "all"}, headers=scorekeeper).json()["seq"]
    named = client.post(f"/games/{game_id}/actions", headers=scorekeeper,
                        json={"action": {"type": "place", "player": "p4", "card": "dwarves/dwarf-slugger-2",
                                         "square": "6,2"}})
    assert named.status_code == 201, named.text  # p4's own copy of the card p2 placed
    refused = client.post(f"/games/{game_id}/actions", headers=scorekeeper,
                          json={"action": {"type": "draw", "player": "p4", "card": "dwarves/dwarf-slugger-2"}})
    assert refused.status_code == 422 and refused.json()["error"]["rule"] == "§11", refused.text
    after = client.get(f"/games/{game_id}/state", params={"view": "all"}, headers=scorekeeper).json()
    assert after["seq"] == seq + 1  # the placement only: the refused draw stored nothing
    play(client, game_id, tokens)
    over = client.get(f"/games/{game_id}/state", params={"view": "p1"}, headers=bearer(tokens["p1"])).json()
    assert over["phase"] == "over" and over["winner"] in ("odd", "even")
    assert all(set(hand) == {"count"} for seat, hand in over["hands"].items() if seat != "p1")


def test_teams_a_seats_view_of_seq_zero(client: TestClient) -> None:
    """Before ``game_started`` (seq 0) the state knows no seats: p3's view of it is the empty state, not an unknown
    view (the replay's first step, in the browser and in ``warlog replay --view p3``, refused it)."""
    game_id, tokens = team_game(client, 6)
    first = client.get(f"/games/{game_id}/state", params={"view": "p3", "seq": 0}, headers=bearer(tokens["p3"]))
    assert first.status_code == 200, first.text
    assert first.json()["phase"] == "setup" and first.json()["board"] == []
    unknown = client.get(f"/games/{game_id}/state", params={"view": "p7", "seq": 0}, headers=bearer(tokens["p3"]))
    assert unknown.status_code == 422 and unknown.json()["error"]["code"] == "invalid_view", unknown.text


# -- issue 28 item 25: four (or six) players without the team rules are told how to fix it ----------------------

TEAM_RULES = 'set "variant": {"teams": true}'


def test_four_players_without_the_team_rules_are_told_to_set_variant_teams(client: TestClient) -> None:
    for seats in (4, 6):
        body = {"system": "lords-of-war",
                "players": [{"id": f"p{i + 1}", "name": f"P{i + 1}", "army": a} for i, a in enumerate(ARMIES[:seats])]}
        refused = client.post("/games", json=body)
        assert refused.status_code == 422, refused.text
        error = refused.json()["error"]
        assert error["code"] == "invalid_setup" and error["reason"] == "invalid_variant" and error["rule"] == "§10"
        assert error["message"] == f"{seats} players play the team rules (§10): {TEAM_RULES}"
    assert client.get("/games").json()["games"] == []


def test_a_tournament_of_four_seats_without_the_team_rules_is_told_to_set_variant_teams(client: TestClient) -> None:
    refused = client.post("/tournaments", json={"name": "Cup", "system": "lords-of-war", "rounds": 1, "seats": 4})
    assert refused.status_code == 422, refused.text
    error = refused.json()["error"]
    assert error["code"] == "invalid_seats"
    assert error["message"] == f"lords-of-war: 4 players play the team rules (§10): {TEAM_RULES}"


def test_cli_a_tournament_of_four_seats_without_the_team_rules_names_the_option(tmp_path) -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    env = {k: v for k, v in os.environ.items() if not k.startswith("WARLOG_")} | {"PYTHONPATH": str(root)}
    db = tmp_path / "t.duckdb"
    done = subprocess.run([sys.executable, "-m", "api.cli", "tournament", "create", "--name", "Cup", "--rounds", "1",
                           "--seats", "4", "--db", str(db)], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (f"warlog tournament create: invalid_seats: lords-of-war: 4 players play the team rules "
                           f"(§10): {TEAM_RULES} (on the command line: --team-rules)\n")
    assert not db.exists()  # judged before the database is opened: nothing created
    made = subprocess.run([sys.executable, "-m", "api.cli", "tournament", "create", "--name", "Cup", "--rounds", "1",
                           "--seats", "4", "--team-rules", "--db", str(db)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    assert "rounds of 4-seat pods of lords-of-war" in made.stdout
