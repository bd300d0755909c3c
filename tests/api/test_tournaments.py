"""Tournaments over HTTP and the CLI; the tournament log, streams of the event store, on the memory and DuckDB
backends (DuckDB: durable across reopen)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.cli import main
from api.settings import Settings
from replay.store.duckdb_store import DuckDBEventStore
from replay.store.memory_store import MemoryEventStore
from replay.tournaments.log import StoreTournamentLog
from replay.tournaments.model import LoggedEvent, TournamentConflict, TournamentNotFound
from tests.api.helpers import bearer, play

ARMIES = ["orcs", "dwarves", "elves", "undead", "templars"]


def _open(client: TestClient, rounds: int = 3, players: int = 5) -> tuple[str, dict[str, str]]:
    created = client.post("/tournaments", json={"name": "Spring Open", "system": "lords-of-war", "rounds": rounds})
    assert created.status_code == 201
    tid, organiser = created.json()["id"], bearer(created.json()["token"])
    for i in range(players):
        entrant = {"id": f"player-{i}", "name": f"Player {i}", "army": ARMIES[i % len(ARMIES)]}
        assert client.post(f"/tournaments/{tid}/players", json=entrant, headers=organiser).status_code == 201
    return tid, organiser


def test_a_swiss_tournament_over_http(client: TestClient) -> None:
    tid, organiser = _open(client)
    seen_pairs: set[frozenset[str]] = set()
    byes = []
    for number in (1, 2, 3):
        started = client.post(f"/tournaments/{tid}/rounds", headers=organiser)
        assert started.status_code == 201, started.text
        body = started.json()
        assert body["round"] == number and len(body["tables"]) == 2 and body["bye"]
        byes.append(body["bye"])
        for table in body["tables"]:
            pair = frozenset((table["p1"], table["p2"]))
            assert pair not in seen_pairs
            seen_pairs.add(pair)
            game = client.get(f"/games/{table['game_id']}").json()
            assert game["tournament"] == tid and game["round"] == number and game["table"] == table["table"]
            assert set(table["tokens"]) == {"scorekeeper", "p1", "p2"}
        # the next round waits for this one
        early = client.post(f"/tournaments/{tid}/rounds", headers=organiser)
        assert early.status_code == 409
        assert early.json()["error"]["code"] == ("round_unfinished" if number < 3 else "tournament_over")
        first, second = body["tables"]
        play(client, first["game_id"], first["tokens"])  # played out with bots
        forfeit = client.post(f"/tournaments/{tid}/rounds/{number}/tables/2/result", json={"winner": "p2"},
                              headers=organiser)
        assert forfeit.status_code == 201 and forfeit.json()["status"] == "forfeit"
        refused = client.post(f"/tournaments/{tid}/rounds/{number}/tables/1/result", json={"winner": "draw"},
                              headers=organiser)
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "game_finished"
    assert len(set(byes)) == 3, "nobody gets a second bye while others have had none"
    over = client.post(f"/tournaments/{tid}/rounds", headers=organiser)
    assert over.status_code == 409 and over.json()["error"]["code"] == "tournament_over"
    rows = client.get(f"/tournaments/{tid}/standings").json()["standings"]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4, 5]
    assert sum(r["wins"] for r in rows) == 3 * 3  # two tables and a bye per round, no draws by forfeit
    points = [(r["match_points"], r["opponents_match_win"], r["kill_difference"]) for r in rows]
    assert points == sorted(points, reverse=True)
    summary = client.get(f"/tournaments/{tid}").json()
    assert summary["status"] == "finished" and len(summary["played_rounds"]) == 3
    assert len(client.get("/games", params={"tournament": tid}).json()["games"]) == 6
    late = client.post(f"/tournaments/{tid}/players", json={"id": "late", "army": "orcs"}, headers=organiser)
    assert late.status_code == 409 and late.json()["error"]["code"] == "registration_closed"


def test_a_finished_games_result_counts_with_its_kills(client: TestClient) -> None:
    tid, organiser = _open(client, rounds=1, players=2)
    table = client.post(f"/tournaments/{tid}/rounds", headers=organiser).json()["tables"][0]
    play(client, table["game_id"], table["tokens"])
    game = client.get(f"/games/{table['game_id']}").json()
    kills = client.get(f"/games/{table['game_id']}/state").json()["kills"]
    rows = {r["player"]: r for r in client.get(f"/tournaments/{tid}/standings").json()["standings"]}
    p1, p2 = rows[table["p1"]], rows[table["p2"]]
    assert p1["kill_difference"] == kills["p1"]["total"] - kills["p2"]["total"] == -p2["kill_difference"]
    if game["winner"] == "p1":
        assert (p1["match_points"], p2["match_points"]) == (3, 0)
    elif game["winner"] == "p2":
        assert (p1["match_points"], p2["match_points"]) == (0, 3)


def test_registration_checks_ids_and_duplicates(client: TestClient) -> None:
    tid, organiser = _open(client, players=1)
    again = client.post(f"/tournaments/{tid}/players", json={"id": "player-0", "army": "orcs"}, headers=organiser)
    assert again.status_code == 409
    one = client.post(f"/tournaments/{tid}/rounds", headers=organiser)
    assert one.status_code == 409 and one.json()["error"]["code"] == "too_few_players"
    assert client.get("/tournaments/missing").status_code == 404


# -- the log on both backends ---------------------------------------------------------------------------


@pytest.fixture(params=["memory", "duckdb"])
def log(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    store = MemoryEventStore() if request.param == "memory" else DuckDBEventStore(tmp_path / "t.duckdb")
    yield StoreTournamentLog(store)
    store.close()


def test_log_appends_in_order_and_refuses_stale_writers(log: Any) -> None:
    assert log.append("t1", [("tournament_created", {"name": "A"})], expected_seq=0) == 1
    assert log.append("t1", [("player_registered", {"id": "x"}), ("player_registered", {"id": "y"})], 1) == 3
    with pytest.raises(TournamentConflict):
        log.append("t1", [("player_registered", {"id": "z"})], 1)
    with pytest.raises(TournamentConflict):
        log.append("t1", [("tournament_created", {"name": "again"})], 0)
    events = log.read("t1")
    assert [(e.seq, e.type, e.data.get("id")) for e in events] == [
        (1, "tournament_created", None), (2, "player_registered", "x"), (3, "player_registered", "y")
    ]
    assert all(isinstance(e, LoggedEvent) and e.recorded_at.endswith("Z") for e in events)
    with pytest.raises(TournamentNotFound):
        log.read("nope")
    log.append("t2", [("tournament_created", {"name": "B"})], 0)
    assert log.list_ids() == ["t1", "t2"]


def test_log_is_a_stream_of_the_games_store_and_no_game(log: Any) -> None:
    """A tournament's log is a stream of kind ``tournament`` in the store that holds the games: one id space (a
    game's id is no tournament, a tournament's no game), the store's own append (keys replay the first append)."""
    store = log.store
    store.create_game("g1", "lords-of-war", ["p1", "p2"], {}, [])
    assert log.append("t1", [("tournament_created", {"name": "A", "system": "lords-of-war"})], 0) == 1
    stream = store.get_stream("t1")
    assert (stream.kind, stream.system, stream.last_seq) == ("tournament", "lords-of-war", 1)
    assert [g.game_id for g in store.list_games().games] == ["g1"]
    with pytest.raises(TournamentNotFound):
        log.read("g1")
    with pytest.raises(TournamentConflict):
        log.append("g1", [("player_registered", {"id": "x"})], 0)
    with pytest.raises(TournamentConflict):
        log.append("g1", [("player_registered", {"id": "x"})], 1)
    assert store.get_game("g1").last_seq == 0
    assert log.append("t1", [("player_registered", {"id": "x"})], 1, idempotency_key="register-x") == 2
    assert log.append("t1", [("player_registered", {"id": "x"})], 1, idempotency_key="register-x") == 2
    assert [(e.seq, e.type, e.data) for e in log.read("t1")][1:] == [(2, "player_registered", {"id": "x"})]
    assert log.list_ids() == ["t1"]


def test_duckdb_tournaments_survive_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "w.duckdb")
    with TestClient(create_app(Settings(db=db))) as client:
        tid, organiser = _open(client, rounds=2, players=4)
        tables = client.post(f"/tournaments/{tid}/rounds", headers=organiser).json()["tables"]
    with TestClient(create_app(Settings(db=db))) as client:
        summary = client.get(f"/tournaments/{tid}").json()
        assert len(summary["players"]) == 4
        assert [t["game_id"] for t in summary["played_rounds"][0]["tables"]] == [t["game_id"] for t in tables]
        assert client.get(f"/games/{tables[0]['game_id']}").json()["tournament"] == tid


def test_the_cli_runs_a_tournament(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "cli.duckdb")
    assert main(["tournament", "create", "--db", db, "--name", "Club night", "--rounds", "2", "--seeding",
                 "registration"]) == 0
    tid = capsys.readouterr().out.split()[1]
    for name, army in (("ann", "orcs"), ("ben", "dwarves"), ("cat", "elves")):
        assert main(["tournament", "register", tid, name, "--army", army, "--db", db]) == 0
    assert main(["tournament", "register", tid, "dan", "--army", "gnomes", "--db", db]) == 1
    capsys.readouterr()
    assert main(["tournament", "round", tid, "--json", "--db", db]) == 0
    started = json.loads(capsys.readouterr().out)
    assert len(started["tables"]) == 1 and started["bye"] == "cat"
    assert main(["tournament", "round", tid, "--db", db]) == 1  # the table is not finished
    assert "round_unfinished" in capsys.readouterr().err
    assert main(["tournament", "result", tid, "1", "1", "--winner", "p1", "--kills", "5", "2", "--db", db]) == 0
    capsys.readouterr()
    assert main(["tournament", "standings", tid, "--json", "--db", db]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["player"], r["match_points"]) for r in rows][:1] in ([("ann", 3)], [("cat", 3)])
    assert {r["player"]: r["kill_difference"] for r in rows} == {"ann": 3, "ben": -3, "cat": 0}
    assert main(["tournament", "show", tid, "--db", db]) == 0
    assert "forfeit" in capsys.readouterr().out
    assert main(["tournament", "list", "--db", db]) == 0
    assert tid in capsys.readouterr().out


def test_a_tournament_logged_before_seats_folds_as_it_did(client: TestClient) -> None:
    """Logs written before tournaments took any seat count (tables with p1/p2, a bye, a forfeit's winner and
    kills, no seats at creation) read as two-seat tournaments with the same standings."""
    service = client.app.state.tournaments  # type: ignore[attr-defined]
    games = client.app.state.service  # type: ignore[attr-defined]
    g1 = games.create_game({"system": "lords-of-war", "players": [{"id": "p1", "army": "orcs"},
                                                                   {"id": "p2", "army": "elves"}], "seed": 1})
    service.log.append("t-old", [
        ("tournament_created", {"name": "Old", "system": "lords-of-war", "format": "swiss", "rounds": 1,
                                "variant": {}, "organiser_hash": "x"}),
        ("player_registered", {"id": "ann", "name": "Ann", "army": "orcs"}),
        ("player_registered", {"id": "ben", "name": "Ben", "army": "elves"}),
        ("player_registered", {"id": "cy", "name": "Cy", "army": "undead"}),
        ("round_started", {"round": 1, "tables": [{"table": 1, "p1": "ann", "p2": "ben", "game_id": g1.game_id}],
                           "bye": "cy", "rematches": 0}),
        ("result_entered", {"round": 1, "table": 1, "winner": "p2", "kills": {"p1": 4, "p2": 9}}),
    ], expected_seq=0)
    summary = client.get("/tournaments/t-old").json()
    assert summary["seats"] == 2 and summary["status"] == "finished"
    table = summary["played_rounds"][0]["tables"][0]
    assert (table["p1"], table["p2"], table["winner"], table["kills"]) == ("ann", "ben", "p2", {"p1": 4, "p2": 9})
    assert summary["played_rounds"][0]["bye"] == "cy"
    rows = [(r["player"], r["match_points"], r["kill_difference"]) for r in
            client.get("/tournaments/t-old/standings").json()["standings"]]
    assert rows == [("ben", 3, 5), ("cy", 3, 0), ("ann", 0, -5)]


def test_a_forfeit_takes_placings_or_the_two_seat_winner(client: TestClient) -> None:
    tid, organiser = _open(client, rounds=1, players=2)
    client.post(f"/tournaments/{tid}/rounds", headers=organiser)
    url = f"/tournaments/{tid}/rounds/1/tables/1/result"
    for body, code in (({}, "invalid_request"), ({"winner": "p1", "placings": [["p1"], ["p2"]]}, "invalid_request"),
                       ({"winner": "p1", "scores": {"p1": 1}, "kills": {"p1": 1}}, "invalid_request"),
                       ({"winner": "p3"}, "invalid_result"), ({"placings": [["p1"], ["p2"], ["p3"]]}, "invalid_result"),
                       ({"placings": [["p1"]]}, "invalid_result"), ({"placings": [["p2"], ["p1"]],
                                                                     "scores": {"p3": 2}}, "invalid_result")):
        refused = client.post(url, json=body, headers=organiser)
        assert refused.status_code == 422 and refused.json()["error"]["code"] == code, (body, refused.text)
    tied = client.post(url, json={"placings": [["p1", "p2"]], "scores": {"p1": 2, "p2": 2}}, headers=organiser)
    assert tied.status_code == 201
    assert (tied.json()["winner"], tied.json()["placings"], tied.json()["kills"]) == ("draw", [["p1", "p2"]],
                                                                                     {"p1": 2, "p2": 2})
    rows = client.get(f"/tournaments/{tid}/standings").json()["standings"]
    assert [(r["match_points"], r["draws"]) for r in rows] == [(1, 1), (1, 1)]
