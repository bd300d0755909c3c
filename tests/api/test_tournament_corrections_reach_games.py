"""Issue 31 item 3: a corrected result is one fact with its game's. The organiser's correction is written to the
table's game (a ``game_ended`` whose adjudication is the ``correction``, by the organiser, with the reason, after
the one it corrects), so the game's page, its record (export, import, verify), every statistic of games (ratings,
win rates, end reasons) and the standings agree; the game's stream keeps both results."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from openskill.models import PlackettLuce

from api.app import create_app
from api.cli import main
from api.settings import Settings
from replay.store.duckdb_store import DuckDBEventStore
from tests.api.day_helpers import error, open_tournament, start_round, state, summary
from tests.api.helpers import bearer
from tests.api.test_pebbles_api import _pods_tournament, play_out
from tests.pg import fresh_schema
from tests.plugins.installed import pebbles_registered


def _concede(client: TestClient, table: dict[str, Any], seat: str = "p1") -> None:
    """The seat concedes at once: the game ends by its rules (a concession), not by an adjudication."""
    response = client.post(f"/games/{table['game_id']}/actions",
                           json={"action": {"type": "concede", "player": seat}}, headers=bearer(table["tokens"][seat]))
    assert response.status_code == 201, response.text


def _events(client: TestClient, game_id: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in client.get(f"/games/{game_id}/events").text.splitlines()]


def _played_day(client: TestClient, players: int = 4, rounds: int = 2) -> tuple[str, dict[str, str], list[Any]]:
    """A tournament of ``rounds`` rounds whose every game ends by p1 conceding (rules endings)."""
    tid, organiser = open_tournament(client, players=players, rounds=rounds)
    played = []
    for _ in range(rounds):
        tables = start_round(client, tid, organiser)["tables"]
        for table in tables:
            _concede(client, table)
        played.append(tables)
    return tid, organiser, played


def test_a_correction_is_written_to_the_game_which_shows_the_corrected_result_once_and_keeps_both(client):
    tid, organiser, played = _played_day(client, players=2, rounds=1)
    table = played[0][0]
    corrected = client.post(f"/tournaments/{tid}/rounds/1/tables/1/correction",
                            json={"winner": "p1", "reason": "conceded by mistake"}, headers=organiser)
    assert corrected.status_code == 201, corrected.text
    assert corrected.json()["original"]["winner"] == "p2" and corrected.json()["winner"] == "p1"
    game = client.get(f"/games/{table['game_id']}").json()
    assert (game["status"], game["winner"], game["placings"]) == ("over", "p1", [["p1"], ["p2"]])
    shown = state(client, table["game_id"])
    assert shown["winner"] == "p1" and shown["end_reason"] == "adjudicated"
    assert shown["adjudication"] == {"reason": "correction", "placings": [["p1"], ["p2"]],
                                     "note": "conceded by mistake", "by": "organiser"}
    ended = [e for e in _events(client, table["game_id"]) if e["type"] == "game_ended"]
    assert [(e["winner"], e["reason"]) for e in ended] == [("p2", "concession"), ("p1", "adjudicated")]
    explained = client.get(f"/games/{table['game_id']}/explanations").json()["explanations"][-1]["text"]
    assert explained == "the organiser corrects the result: p1 wins (reason: conceded by mistake)"
    listed = [g["metadata"] for g in client.get("/games", params={"tournament": tid}).json()["games"]]
    assert [(g["winner"], g["adjudication"]) for g in listed] == [("p1", "correction")]
    standings = {r["player"]: r for r in client.get(f"/tournaments/{tid}/standings").json()["standings"]}
    assert standings[table["p1"]]["wins"] == 1 and standings[table["p2"]]["losses"] == 1
    # corrected again: the latest counts, every result stays in the game's stream and the tournament's history
    again = client.post(f"/tournaments/{tid}/rounds/1/tables/1/correction",
                        json={"winner": "draw", "reason": "judge: both conceded"}, headers=organiser)
    assert again.status_code == 201 and again.json()["original"]["winner"] == "p2"
    assert client.get(f"/games/{table['game_id']}").json()["winner"] == "draw"
    ended = [e for e in _events(client, table["game_id"]) if e["type"] == "game_ended"]
    assert [e["winner"] for e in ended] == ["p2", "p1", "draw"]
    history = [e["data"] for e in client.get(f"/tournaments/{tid}/history").json()["events"]
               if e["type"] == "result_corrected"]
    assert [(h["reason"], h["was"]["winner"]) for h in history] == [("conceded by mistake", "p2"),
                                                                     ("judge: both conceded", "p1")]


def test_a_correction_of_a_forfeited_table_corrects_the_game_the_forfeit_ended(client):
    tid, organiser = open_tournament(client, players=2, rounds=1)
    table = start_round(client, tid, organiser)["tables"][0]
    entered = client.post(f"/tournaments/{tid}/rounds/1/tables/1/result", json={"winner": "p2"}, headers=organiser)
    assert entered.status_code == 201, entered.text
    corrected = client.post(f"/tournaments/{tid}/rounds/1/tables/1/correction",
                            json={"winner": "p1", "reason": "wrong seat on the slip"}, headers=organiser)
    assert corrected.status_code == 201 and corrected.json()["original"]["status"] == "forfeit"
    ended = [e for e in _events(client, table["game_id"]) if e["type"] == "game_ended"]
    assert [e["adjudication"]["reason"] for e in ended] == ["judge", "correction"]
    assert client.get(f"/games/{table['game_id']}").json()["winner"] == "p1"


def test_a_client_cannot_send_a_correction_as_an_adjudicate_action(client):
    tid, _, played = _played_day(client, players=2, rounds=1)
    table = played[0][0]
    before = _events(client, table["game_id"])
    refused = client.post(f"/games/{table['game_id']}/actions",
                          json={"action": {"type": "adjudicate", "reason": "correction", "winner": "p1",
                                           "note": "I say so"}},
                          headers=bearer(table["tokens"]["scorekeeper"]))
    assert error(refused) == (422, "illegal_action")
    assert "corrected by the tournament's organiser" in refused.json()["error"]["message"]
    assert _events(client, table["game_id"]) == before


def test_a_correction_logged_before_corrections_reached_games_is_written_to_its_game_when_read(client):
    """A ``result_corrected`` of issue 31's first version (no ``was``; its game never told): the first read of the
    tournament's results writes it to the game, once."""
    tid, _, played = _played_day(client, players=2, rounds=1)
    table = played[0][0]
    service = client.app.state.tournaments  # type: ignore[attr-defined]
    t = service.log.read(tid)
    service.log.append(tid, [("result_corrected", {"round": 1, "table": 1, "placings": [["p1"], ["p2"]],
                                                   "scores": {"p1": 0, "p2": 0}, "reason": "old slip",
                                                   "at": "2026-05-02T10:00:00+00:00"})], t[-1].seq)
    assert client.get(f"/games/{table['game_id']}").json()["winner"] == "p2"  # not read yet
    shown = summary(client, tid)["played_rounds"][0]["tables"][0]
    assert shown["status"] == "corrected" and shown["original"]["winner"] == "p1"  # as that version read it
    assert client.get(f"/games/{table['game_id']}").json()["winner"] == "p1"
    client.get(f"/tournaments/{tid}/standings")
    ended = [e for e in _events(client, table["game_id"]) if e["type"] == "game_ended"]
    assert [e["winner"] for e in ended] == ["p2", "p1"], "written once"


def test_a_correction_of_a_table_whose_game_was_never_stored_is_the_tournaments_alone(client):
    """A round logged with a game that was never created (a crash between the two, in an earlier version): the
    entered result and its correction are the tournament's record; there is no game to carry them."""
    tid, organiser = open_tournament(client, players=2, rounds=1)
    service = client.app.state.tournaments  # type: ignore[attr-defined]
    seq = service.log.read(tid)[-1].seq
    service.log.append(tid, [("round_started", {"round": 1, "tables": [
        {"table": 1, "seats": {"p1": "p00", "p2": "p01"}, "game_id": "never-stored"}], "byes": [],
        "rematches": 0})], seq)
    assert client.post(f"/tournaments/{tid}/rounds/1/tables/1/result", json={"winner": "p1"},
                       headers=organiser).status_code == 201
    corrected = client.post(f"/tournaments/{tid}/rounds/1/tables/1/correction",
                            json={"winner": "p2", "reason": "slip misread"}, headers=organiser)
    assert corrected.status_code == 201, corrected.text
    assert corrected.json()["status"] == "corrected" and corrected.json()["original"]["status"] == "forfeit"
    assert client.get("/games/never-stored").status_code == 404
    rows = {r["player"]: r for r in client.get(f"/tournaments/{tid}/standings").json()["standings"]}
    assert rows["p01"]["wins"] == 1 and rows["p00"]["losses"] == 1


# -- the statistics ---------------------------------------------------------------------------------------------


def _elo(games: list[tuple[str, str, str, str, str]]) -> dict[str, float]:
    """Elo as docs/statistics.md says it, counted here independently: every player from 1500, K = 32, the games in
    the order they ended (then by id); ``games``: (ended_at, game_id, p1's name, p2's name, winner)."""
    rating: dict[str, float] = {}
    for _, _, a, b, winner in sorted(games):
        ra, rb = rating.get(a, 1500.0), rating.get(b, 1500.0)
        score = {"p1": 1.0, "draw": 0.5, "p2": 0.0}[winner]
        change = 32.0 * (score - 1.0 / (1.0 + 10.0 ** ((rb - ra) / 400.0)))
        rating[a], rating[b] = ra + change, rb - change
    return {player: round(value, 2) for player, value in rating.items()}


def _games_as_recorded(client: TestClient, played: list[list[dict[str, Any]]],
                       rules_only: bool) -> list[tuple[str, str, str, str, str]]:
    """Each game of the day as its own record says it: when its result became known (its last event), its
    players, its winner; ``rules_only``: the games decided by their rules (not adjudicated, not corrected)."""
    out = []
    for tables in played:
        for table in tables:
            game = client.get(f"/games/{table['game_id']}").json()
            if rules_only and game["end_reason"] == "adjudicated":
                continue
            names = {p["id"]: p["name"] for p in game["players"]}
            ended_at = _events(client, table["game_id"])[-1]["recorded_at"]
            out.append((ended_at, game["id"], names["p1"], names["p2"], game["winner"]))
    return out


def _ratings(client: TestClient, **filters: str) -> dict[str, float]:
    body = client.get("/stats/ratings", params=filters).json()
    return {row["player"]: row["rating"] for row in body["rows"]}


@pytest.fixture
def stats_client(tmp_path: Path) -> Iterator[TestClient]:
    path = str(tmp_path / "day.duckdb")
    store = DuckDBEventStore(path)
    with TestClient(create_app(Settings(db=path), store=store)) as http:
        yield http
    store.close()


def test_a_correction_changes_the_ratings(stats_client):
    client = stats_client
    projector = client.app.state.stats_projector  # type: ignore[attr-defined]
    tid, organiser, played = _played_day(client)
    assert projector.wait_idle(60)
    before = {"rules": _ratings(client), "all": _ratings(client, ending="all")}
    assert before["rules"] == before["all"] == _elo(_games_as_recorded(client, played, rules_only=True))
    assert len(before["rules"]) == 4
    # round 1 table 1: p2 won by p1's concession; the organiser corrects it to p1
    corrected = client.post(f"/tournaments/{tid}/rounds/1/tables/1/correction",
                            json={"winner": "p1", "reason": "conceded by mistake"}, headers=organiser)
    assert corrected.status_code == 201, corrected.text
    assert projector.wait_idle(60)
    after = {"rules": _ratings(client), "all": _ratings(client, ending="all")}
    # every game, the corrected one with its corrected result, at the time that result became known
    assert after["all"] == _elo(_games_as_recorded(client, played, rules_only=False))
    # the statistics of games decided by their rules (the default) no longer count it: the rules' result is gone
    assert after["rules"] == _elo(_games_as_recorded(client, played, rules_only=True))
    assert after["all"] != before["all"] and after["rules"] != before["rules"]
    games = _games_as_recorded(client, played, rules_only=False)
    rows = {r["player"]: r for r in client.get("/stats/ratings", params={"ending": "all"}).json()["rows"]}
    for player, row in rows.items():  # wins and losses as the games now say them
        assert row["wins"] == sum(1 for g in games if g[2 + (g[4] == "p2")] == player and g[4] != "draw")
        assert row["losses"] == sum(1 for g in games if g[2 + (g[4] == "p1")] == player and g[4] != "draw")
    reasons = client.get("/stats/end-reasons").json()["rows"]
    assert [(r["end_reason"], r["adjudication"], r["games"]) for r in reasons] == [
        ("adjudicated", "correction", 1), ("concession", None, 3)]
    assert client.get("/stats/first-player", params={"ending": "all"}).json()["overall"]["games"] == 4
    assert client.get("/stats/first-player").json()["overall"]["games"] == 3


# -- the record: export, import, verify --------------------------------------------------------------------------


def test_a_corrected_game_round_trips_export_import_and_verify(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "day.duckdb")

    def run(*args: str) -> tuple[int, str, str]:
        status = main(list(args))
        out = capsys.readouterr()
        return status, out.out, out.err

    status, out, _ = run("tournament", "create", "--db", db, "--name", "Club night", "--rounds", "1",
                         "--seeding", "registration")
    tid = out.split()[1]
    for name, army in (("ann", "orcs"), ("ben", "dwarves")):
        assert run("tournament", "register", tid, name, "--army", army, "--db", db)[0] == 0
    status, out, _ = run("tournament", "round", tid, "--json", "--db", db)
    game_id = json.loads(out)["tables"][0]["game_id"]
    assert run("tournament", "report", tid, "1", "1", "--winner", "p1", "--db", db)[0] == 0
    status, out, err = run("tournament", "correct", tid, "1", "1", "--winner", "p2", "--reason", "sheet misread",
                           "--db", db)
    assert (status, out.strip()) == (0, "round 1 table 1: p2 (corrected; was p1): sheet misread"), err
    status, record, _ = run("export", game_id, "--db", db)
    assert status == 0 and '[Result "0-1"]' in record and '[Termination "adjudicated"]' in record
    assert '[Adjudication "judge"]' in record and '[Correction1 "p2; p1"]' in record
    assert '[Correction1Note "sheet misread"]' in record
    status, jsonl, _ = run("export", game_id, "--db", db, "--format", "jsonl")
    (tmp_path / "game.txt").write_text(record, encoding="utf-8")
    (tmp_path / "game.jsonl").write_text(jsonl, encoding="utf-8")
    other = str(tmp_path / "other.duckdb")
    status, out, err = run("import", str(tmp_path / "game.txt"), str(tmp_path / "game.jsonl"), "--db", other,
                           "--allow-duplicate")
    assert status == 0 and out.count("imported as") == 2, err
    status, _, err = run("verify", "--db", other)
    assert status == 0 and "verified 2 games: 0 divergences" in err
    status, _, err = run("verify", "--db", db)
    assert status == 0 and "0 divergences" in err
    status, out, _ = run("games", "--db", other, "--json")
    assert [(g["metadata"]["winner"], g["metadata"]["adjudication"]) for g in json.loads(out)] == [
        ("p2", "correction")] * 2


# -- PostgreSQL ------------------------------------------------------------------------------------------------


def test_a_correction_reaches_the_game_and_the_ratings_on_postgresql(tmp_path: Path) -> None:
    from tests.replay.test_postgres_store import wait_for

    with fresh_schema() as url, TestClient(create_app(Settings(db=url, stats_db=str(tmp_path / "s.duckdb")))) as client:
        beside = client.app.state.stats_beside  # type: ignore[attr-defined]
        tid, organiser, played = _played_day(client)
        # flush asks the leader, which this process becomes once its analytics thread has the lock (on a loaded
        # machine, later than the day above is played)
        assert wait_for(lambda: beside.leader, 60)
        assert beside.flush(120)
        assert _ratings(client, ending="all") == _elo(_games_as_recorded(client, played, rules_only=False))
        corrected = client.post(f"/tournaments/{tid}/rounds/1/tables/1/correction",
                                json={"winner": "p1", "reason": "conceded by mistake"}, headers=organiser)
        assert corrected.status_code == 201, corrected.text
        assert client.get(f"/games/{played[0][0]['game_id']}").json()["winner"] == "p1"
        assert beside.flush(120)
        assert _ratings(client, ending="all") == _elo(_games_as_recorded(client, played, rules_only=False))
        assert _ratings(client) == _elo(_games_as_recorded(client, played, rules_only=True))
        reasons = client.get("/stats/end-reasons").json()["rows"]
        assert ("adjudicated", "correction", 1) in [(r["end_reason"], r["adjudication"], r["games"]) for r in reasons]


# -- pods: the multi-seat ratings (openskill) follow a correction too -------------------------------------------


def _openskill(games: list[tuple[str, str, list[str], list[list[str]]]]) -> dict[str, tuple[float, float]]:
    """openskill's Plackett-Luce (docs/statistics.md), fed here from the games' own records: every player from the
    model's start, the games in the order their results became known (then by id); ``games``: (ended_at, game_id,
    the seats' names by seat, the placings). -> each player's (mu, sigma) as the API rounds them."""
    model = PlackettLuce()
    rating: dict[str, Any] = {}
    for _, _, names, placings in sorted(games):
        place = {seat: i for i, group in enumerate(placings) for seat in group}
        seats = [f"p{i + 1}" for i in range(len(names))]
        teams = [[rating.setdefault(names[i], model.rating(name=names[i]))] for i in range(len(seats))]
        rated = model.rate(teams, ranks=[place[s] for s in seats])
        for i, [new] in enumerate(rated):
            rating[names[i]] = new
    return {player: (round(r.mu, 3), round(r.sigma, 3)) for player, r in rating.items()}


def _pod_games(client: TestClient, tables: list[dict[str, Any]], rules_only: bool) -> list[Any]:
    out = []
    for table in tables:
        game = client.get(f"/games/{table['game_id']}").json()
        if rules_only and game["end_reason"] == "adjudicated":
            continue
        ended_at = _events(client, table["game_id"])[-1]["recorded_at"]
        out.append((ended_at, game["id"], [p["name"] for p in game["players"]], game["placings"]))
    return out


def _pod_ratings(client: TestClient, **filters: str) -> dict[str, tuple[float, float]]:
    body = client.get("/stats/multiplayer-ratings", params={"system": "pebbles", **filters}).json()
    return {row["player"]: (row["mu"], row["sigma"]) for row in body["rows"]}


def test_a_correction_of_a_pod_changes_the_multiplayer_ratings(tmp_path: Path) -> None:
    path = str(tmp_path / "pods.duckdb")
    store = DuckDBEventStore(path)
    with pebbles_registered(), TestClient(create_app(Settings(db=path), store=store)) as client:
        projector = client.app.state.stats_projector  # type: ignore[attr-defined]
        tid, organiser = _pods_tournament(client, 6, rounds=2, seats=3)
        tables: list[dict[str, Any]] = []
        for _ in range(2):
            for table in start_round(client, tid, organiser)["tables"]:
                assert len(table["seats"]) == 3
                play_out(client, table["game_id"], table["tokens"], pick=len(tables))  # ended by the rules
                tables.append(table)
        assert projector.wait_idle(60)
        before = _pod_ratings(client, ending="all")
        assert before == _pod_ratings(client) == _openskill(_pod_games(client, tables, rules_only=True))
        assert len(before) == 6
        # round 1 table 1: the organiser turns the placings upside down
        first = client.get(f"/games/{tables[0]['game_id']}").json()["placings"]
        corrected = client.post(f"/tournaments/{tid}/rounds/1/tables/1/correction",
                                json={"placings": first[::-1], "reason": "places swapped on the sheet"},
                                headers=organiser)
        assert corrected.status_code == 201, corrected.text
        assert client.get(f"/games/{tables[0]['game_id']}").json()["placings"] == first[::-1]
        assert projector.wait_idle(60)
        after = {"all": _pod_ratings(client, ending="all"), "rules": _pod_ratings(client)}
        # every game, the corrected one with its corrected places at the time they became known
        assert after["all"] == _openskill(_pod_games(client, tables, rules_only=False))
        # the default counts games decided by their rules: the corrected one has left it
        assert after["rules"] == _openskill(_pod_games(client, tables, rules_only=True))
        assert after["all"] != before and after["rules"] != before
        assert client.get("/stats/multiplayer-ratings", params={"system": "pebbles"}).json()["games"] == 3
    store.close()
