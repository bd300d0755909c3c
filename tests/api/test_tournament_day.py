"""The tournament day over HTTP (issue 31 items 3-6): results entered and corrected, the round clock and time
called, the cut to a final, tie-breaks, history and exports; every refusal names its rule and changes nothing."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api import auth
from api.installed import load_systems
from engine.systems import get_system, system_names
from replay.tournaments.log import StoreTournamentLog
from replay.tournaments.model import fold
from replay.tournaments.service import TournamentService
from tests.api.day_helpers import Clock, clocked, end_at_table, error, open_tournament, start_round, state, summary
from tests.api.helpers import bearer

load_systems()
TWO_SEAT_SYSTEMS = [name for name in system_names() if 2 in get_system(name).seat_counts(None)]


def _history(client: TestClient, tid: str) -> list[dict[str, Any]]:
    return list(client.get(f"/tournaments/{tid}/history").json()["events"])


# -- item 3: results ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("system", TWO_SEAT_SYSTEMS)
def test_item3_an_entered_draw_ends_the_game_as_a_draw_and_counts_the_scores_entered(client, system):
    setup = get_system(system).sample_setup(0, 5)
    created = client.post("/tournaments", json={"name": "Cup", "system": system, "rounds": 1,
                                                "variant": setup.get("variant", {}), "seeding": "registration"})
    assert created.status_code == 201, created.text
    tid, organiser = created.json()["id"], bearer(created.json()["token"])
    for i, player in enumerate(setup["players"][:2]):
        entrant = {"id": f"e{i}", "name": f"Entrant {i}", **({"army": player["army"]} if "army" in player else {})}
        assert client.post(f"/tournaments/{tid}/players", json=entrant, headers=organiser).status_code == 201
    table = start_round(client, tid, organiser)["tables"][0]
    entered = client.post(f"/tournaments/{tid}/rounds/1/tables/1/result",
                          json={"winner": "draw", "scores": {"p1": 4, "p2": 6}}, headers=organiser)
    assert entered.status_code == 201, entered.text
    assert entered.json()["winner"] == "draw" and entered.json()["scores"] == {"p1": 4, "p2": 6}
    game = state(client, table["game_id"])
    assert game["phase"] == "over" and game["end_reason"] == "adjudicated" and game["winner"] == "draw"
    rows = {r["player"]: r for r in client.get(f"/tournaments/{tid}/standings").json()["standings"]}
    assert rows["e0"]["match_points"] == rows["e1"]["match_points"] == 1
    assert (rows["e0"]["score_difference"], rows["e1"]["score_difference"]) == (-2, 2)


def test_item3_a_result_for_a_table_of_another_round_is_refused_and_changes_nothing(client):
    tid, organiser = open_tournament(client, players=4)
    start_round(client, tid, organiser)
    seq = len(_history(client, tid))
    for path in ("rounds/2/tables/1/result", "rounds/1/tables/3/result"):
        refused = client.post(f"/tournaments/{tid}/{path}", json={"winner": "p1"}, headers=organiser)
        assert refused.status_code == 422, refused.text
        assert "round 2" in refused.json()["error"]["message"] or "no table 3" in refused.json()["error"]["message"]
    assert len(_history(client, tid)) == seq


def test_item3_a_correction_changes_the_tournament_result_and_its_game_and_the_history_shows_both(client):
    tid, organiser = open_tournament(client, players=4)
    tables = start_round(client, tid, organiser)["tables"]
    end_at_table(client, tables[0], "p1")  # the table's game named p1
    client.post(f"/tournaments/{tid}/rounds/1/tables/2/result", json={"winner": "p2"}, headers=organiser)
    winner_before = summary(client, tid)["played_rounds"][0]["tables"][0]["p1"]
    top_before = client.get(f"/tournaments/{tid}/standings").json()["standings"]
    assert winner_before in {r["player"] for r in top_before[:2]}
    corrected = client.post(f"/tournaments/{tid}/rounds/1/tables/1/correction",
                            json={"winner": "p2", "kills": {"p1": 1, "p2": 3}, "reason": "score sheet misread"},
                            headers=organiser)
    assert corrected.status_code == 201, corrected.text
    body = corrected.json()
    assert body["status"] == "corrected" and body["winner"] == "p2" and body["scores"] == {"p1": 1, "p2": 3}
    assert body["original"] == {"status": "finished", "winner": "p1", "placings": [["p1"], ["p2"]],
                                "scores": {"p1": 0, "p2": 0}}
    assert [c["reason"] for c in body["corrections"]] == ["score sheet misread"]
    game = state(client, tables[0]["game_id"])  # one fact: the game carries the correction (its stream keeps both)
    assert game["winner"] == "p2" and game["adjudication"]["reason"] == "correction"
    rows = {r["player"]: r for r in client.get(f"/tournaments/{tid}/standings").json()["standings"]}
    assert rows[tables[0]["p1"]]["wins"] == 0 and rows[tables[0]["p2"]]["wins"] == 1  # standings recompute
    # the second table: its entered result and its correction are both in the history
    client.post(f"/tournaments/{tid}/rounds/1/tables/2/correction", json={"winner": "draw", "reason": "judge call"},
                headers=organiser)
    events = [(e["type"], e["data"].get("table"), e["data"].get("reason")) for e in _history(client, tid)]
    assert ("result_entered", 2, None) in events and ("result_corrected", 2, "judge call") in events
    assert ("result_corrected", 1, "score sheet misread") in events
    assert all("organiser_hash" not in e["data"] for e in _history(client, tid))
    shown = summary(client, tid)["played_rounds"][0]["tables"][1]
    assert shown["status"] == "corrected" and shown["original"]["status"] == "forfeit"


def test_item3_a_correction_without_a_reason_is_refused_and_changes_nothing(client):
    tid, organiser = open_tournament(client, players=2)
    end_at_table(client, start_round(client, tid, organiser)["tables"][0], "p1")
    before = summary(client, tid)
    for body in ({"winner": "p2"}, {"winner": "p2", "reason": "   "}):
        refused = client.post(f"/tournaments/{tid}/rounds/1/tables/1/correction", json=body, headers=organiser)
        assert error(refused) == (422, "reason_required")
        assert "reason" in refused.json()["error"]["message"]
    assert summary(client, tid) == before


def test_item3_a_table_still_playing_has_no_result_to_correct(client):
    tid, organiser = open_tournament(client, players=2)
    start_round(client, tid, organiser)
    refused = client.post(f"/tournaments/{tid}/rounds/1/tables/1/correction",
                          json={"winner": "p2", "reason": "x"}, headers=organiser)
    assert error(refused) == (409, "no_result")


def test_item3_a_correction_that_changes_nothing_is_refused(client):
    tid, organiser = open_tournament(client, players=2)
    end_at_table(client, start_round(client, tid, organiser)["tables"][0], "p1")
    refused = client.post(f"/tournaments/{tid}/rounds/1/tables/1/correction",
                          json={"winner": "p1", "reason": "x"}, headers=organiser)
    assert error(refused) == (422, "correction_unchanged")


def test_item3_a_correction_needs_the_organisers_token(client):
    tid, organiser = open_tournament(client, players=2)
    table = start_round(client, tid, organiser)["tables"][0]
    end_at_table(client, table, "p1")
    for headers in ({}, bearer(table["tokens"]["scorekeeper"])):
        refused = client.post(f"/tournaments/{tid}/rounds/1/tables/1/correction",
                              json={"winner": "p2", "reason": "x"}, headers=headers)
        assert refused.status_code in (401, 403)


def test_item3_two_organisers_racing_get_a_conflict_not_a_corrupt_round(client):
    """Two servers on one store: the second correction is written while the first is being decided; the first is
    refused (409 conflict) and the history holds exactly one correction."""
    tid, organiser = open_tournament(client, players=2)
    end_at_table(client, start_round(client, tid, organiser)["tables"][0], "p1")
    app = client.app
    other = TournamentService(StoreTournamentLog(app.state.service.store), app.state.service)  # type: ignore[attr-defined]
    mine: TournamentService = app.state.tournaments  # type: ignore[attr-defined]
    append = mine.log.append

    def racing(*args: Any, **kwargs: Any) -> int:
        other.correct_result(tid, 1, 1, [["p1", "p2"]], None, "the other organiser's draw")
        return append(*args, **kwargs)

    mine.log.append = racing  # type: ignore[method-assign]
    try:
        raced = client.post(f"/tournaments/{tid}/rounds/1/tables/1/correction", json={"winner": "p2", "reason": "x"},
                            headers=organiser)
    finally:
        mine.log.append = append  # type: ignore[method-assign]
    assert error(raced) == (409, "conflict")
    corrections = [e for e in _history(client, tid) if e["type"] == "result_corrected"]
    assert [c["data"]["reason"] for c in corrections] == ["the other organiser's draw"]
    assert summary(client, tid)["played_rounds"][0]["tables"][0]["winner"] == "draw"


# -- item 4: the round clock ----------------------------------------------------------------------------------


def test_item4_a_round_records_its_start_and_shows_its_deadline_and_time_left(client):
    clock = clocked(client)
    tid, organiser = open_tournament(client, players=4)
    start_round(client, tid, organiser, duration=90)
    clock.advance(30)
    rnd = summary(client, tid)["played_rounds"][0]
    assert rnd["started_at"] == "2026-05-02T09:00:00+00:00" and rnd["duration"] == 90
    assert rnd["deadline"] == "2026-05-02T10:30:00+00:00" and rnd["time_left"] == 60 * 60
    assert rnd["time_called"] is None
    started = [e for e in _history(client, tid) if e["type"] == "round_started"][0]["data"]
    assert (started["started_at"], started["duration"]) == ("2026-05-02T09:00:00+00:00", 90)


def test_item4_a_round_without_a_duration_has_no_clock_and_a_bad_duration_is_refused(client):
    tid, organiser = open_tournament(client, players=4)
    refused = client.post(f"/tournaments/{tid}/rounds", json={"duration": 0}, headers=organiser)
    assert refused.status_code == 422 and not summary(client, tid)["played_rounds"]
    start_round(client, tid, organiser)
    rnd = summary(client, tid)["played_rounds"][0]
    assert rnd["duration"] is None and rnd["deadline"] is None and rnd["time_left"] is None


def test_item4_time_called_by_the_organiser_ends_open_games_by_the_time_rule_and_spares_ended_ones(client):
    clock = clocked(client)
    tid, organiser = open_tournament(client, players=4)
    first, second = start_round(client, tid, organiser, duration=60)["tables"]
    end_at_table(client, first, "p2")  # its scorekeeper ended it first
    clock.advance(45)
    called = client.post(f"/tournaments/{tid}/rounds/1/time", headers=organiser)
    assert called.status_code == 201, called.text
    assert called.json() == {"round": 1, "at": "2026-05-02T09:45:00+00:00", "by": "organiser", "tables": [2]}
    assert state(client, first["game_id"])["adjudication"]["reason"] == "agreement"
    timed = state(client, second["game_id"])
    assert timed["phase"] == "over" and timed["adjudication"]["reason"] == "time"
    assert timed["adjudication"]["note"] == "time called by the organiser for round 1"
    assert timed["winner"] == "draw"  # Lords of War's time rule: no cards destroyed either side
    rnd = summary(client, tid)["played_rounds"][0]
    assert rnd["time_left"] == 0 and rnd["time_called"]["by"] == "organiser"
    assert [t["status"] for t in rnd["tables"]] == ["finished", "finished"]


def test_item4_time_called_twice_is_refused_and_changes_nothing(client):
    tid, organiser = open_tournament(client, players=4)
    start_round(client, tid, organiser)
    assert client.post(f"/tournaments/{tid}/rounds/1/time", headers=organiser).status_code == 201
    history = _history(client, tid)
    again = client.post(f"/tournaments/{tid}/rounds/1/time", headers=organiser)
    assert error(again) == (409, "time_already_called") and "already called" in again.json()["error"]["message"]
    assert _history(client, tid) == history


def test_item4_time_on_a_round_that_is_over_or_missing_is_refused(client):
    tid, organiser = open_tournament(client, players=2, rounds=2)
    end_at_table(client, start_round(client, tid, organiser)["tables"][0], "p1")
    assert error(client.post(f"/tournaments/{tid}/rounds/1/time", headers=organiser)) == (409, "round_over")
    assert client.post(f"/tournaments/{tid}/rounds/2/time", headers=organiser).status_code == 422


def test_item4_the_clock_calls_time_at_the_first_read_after_the_deadline(client):
    clock = clocked(client)
    tid, organiser = open_tournament(client, players=4)
    first, second = start_round(client, tid, organiser, duration=50)["tables"]
    clock.advance(49)
    assert summary(client, tid)["played_rounds"][0]["time_called"] is None
    assert state(client, second["game_id"])["phase"] != "over"
    clock.advance(2)
    called = summary(client, tid)["played_rounds"][0]["time_called"]
    assert called == {"at": "2026-05-02T09:51:00+00:00", "by": "clock", "tables": [1, 2]}
    for table in (first, second):
        assert state(client, table["game_id"])["adjudication"]["note"] == "time called by the clock for round 1"
    refused = client.post(f"/tournaments/{tid}/rounds/1/time", headers=organiser)
    assert error(refused) == (409, "time_already_called") and "the clock" in refused.json()["error"]["message"]


def test_item4_the_servers_sweep_calls_time_in_a_tournament_nobody_reads(client):
    """A service of its own over the app's store (the app's own sweep, every few seconds, must not race the
    counts): its sweep calls time on the round whose deadline passed, once."""
    clock = Clock()
    service = TournamentService(StoreTournamentLog(client.app.state.service.store),  # type: ignore[attr-defined]
                                client.app.state.service, clock=clock)  # type: ignore[attr-defined]
    tid = service.create("Night", "lords-of-war", "swiss", 1, {}, "hash")
    for i, army in enumerate(("orcs", "dwarves")):
        service.register(tid, f"e{i}", f"E{i}", army)
    game_id = service.start_round(tid, auth.new_tokens, duration=30).tables[0].game_id
    assert service.sweep_clocks() == 0
    clock.advance(31)
    assert service.sweep_clocks() == 1
    assert state(client, game_id)["adjudication"]["reason"] == "time"
    assert service.sweep_clocks() == 0
    assert fold(tid, service.log.read(tid)).played[0].time_called == {
        "at": "2026-05-02T09:31:00+00:00", "by": "clock", "tables": [1]}


# -- item 5: the cut ----------------------------------------------------------------------------------------


def _swiss_done(client: TestClient, players: int = 6, rounds: int = 2,
                **extra: Any) -> tuple[str, dict[str, str]]:
    tid, organiser = open_tournament(client, players=players, rounds=rounds, **extra)
    for _ in range(rounds):
        for table in start_round(client, tid, organiser)["tables"]:
            end_at_table(client, table, "p1")
    return tid, organiser


def test_item5_a_cut_before_the_swiss_rounds_end_or_larger_than_the_field_is_refused(client):
    tid, organiser = open_tournament(client, players=6, rounds=2)
    for table in start_round(client, tid, organiser)["tables"]:
        end_at_table(client, table, "p1")
    early = client.post(f"/tournaments/{tid}/cut", json={"size": 4}, headers=organiser)
    assert error(early) == (409, "swiss_unfinished") and "1 of 2" in early.json()["error"]["message"]
    for table in start_round(client, tid, organiser)["tables"]:
        end_at_table(client, table, "p1")
    history = _history(client, tid)
    large = client.post(f"/tournaments/{tid}/cut", json={"size": 8}, headers=organiser)
    assert error(large) == (409, "cut_larger_than_field") and "the field has 6" in large.json()["error"]["message"]
    odd = client.post(f"/tournaments/{tid}/cut", json={"size": 3}, headers=organiser)
    assert error(odd) == (422, "invalid_cut")
    assert _history(client, tid) == history and client.get(f"/tournaments/{tid}/bracket").json() == {"bracket": None}


def test_item5_a_top_4_cut_seeds_1v4_2v3_and_the_higher_seed_chooses_to_go_first_or_second(client):
    tid, organiser = _swiss_done(client)
    seeds = [r["player"] for r in client.get(f"/tournaments/{tid}/standings").json()["standings"][:4]]
    bad = client.post(f"/tournaments/{tid}/cut", json={"size": 4, "choices": {seeds[3]: "second"}},
                      headers=organiser)
    assert error(bad) == (422, "invalid_choice")
    cut = client.post(f"/tournaments/{tid}/cut", json={"size": 4, "choices": {seeds[1]: "second"}}, headers=organiser)
    assert cut.status_code == 201, cut.text
    tables = cut.json()["tables"]
    assert cut.json()["round"] == 3
    assert [(t["p1"], t["p2"]) for t in tables] == [(seeds[0], seeds[3]), (seeds[2], seeds[1])]
    bracket = client.get(f"/tournaments/{tid}/bracket").json()["bracket"]
    assert [s["entrant"] for s in bracket["seeds"]] == seeds
    first_round = bracket["rounds"][0]
    assert [(m["higher"], m["lower"], m["games"][0]["choice"]) for m in first_round] == [
        (seeds[0], seeds[3], "first"), (seeds[1], seeds[2], "second")]
    assert bracket["rounds"][1][0]["status"] == "waiting" and bracket["champion"] is None
    assert summary(client, tid)["bracket"] == bracket
    assert error(client.post(f"/tournaments/{tid}/cut", json={"size": 2}, headers=organiser)) == (409, "cut_made")
    assert error(client.post(f"/tournaments/{tid}/cut/next", headers=organiser)) == (409, "cut_round_unfinished")
    # the cut's games do not count in the standings
    standings = client.get(f"/tournaments/{tid}/standings").json()["standings"]
    end_at_table(client, tables[0], "p2")
    end_at_table(client, tables[1], "p1")
    assert client.get(f"/tournaments/{tid}/standings").json()["standings"] == standings
    final = client.post(f"/tournaments/{tid}/cut/next", headers=organiser)
    assert final.status_code == 201, final.text
    assert (final.json()["tables"][0]["p1"], final.json()["tables"][0]["p2"]) == (seeds[2], seeds[3])
    end_at_table(client, final.json()["tables"][0], "p2")
    bracket = client.get(f"/tournaments/{tid}/bracket").json()["bracket"]
    assert bracket["champion"] == seeds[3] and summary(client, tid)["status"] == "finished"
    assert error(client.post(f"/tournaments/{tid}/cut/next", headers=organiser)) == (409, "cut_over")


def test_item5_a_drawn_cut_game_is_replayed_when_the_tournament_replays_draws(client):
    tid, organiser = _swiss_done(client, players=4)
    table = client.post(f"/tournaments/{tid}/cut", json={"size": 2}, headers=organiser).json()["tables"][0]
    end_at_table(client, table, "draw")
    match = client.get(f"/tournaments/{tid}/bracket").json()["bracket"]["rounds"][0][0]
    assert match["status"] == "replay" and match["winner"] is None
    replay = client.post(f"/tournaments/{tid}/cut/next", headers=organiser)
    assert replay.status_code == 201 and replay.json()["tables"][0]["seats"] == table["seats"]
    end_at_table(client, replay.json()["tables"][0], "p2")
    bracket = client.get(f"/tournaments/{tid}/bracket").json()["bracket"]
    assert len(bracket["rounds"][0][0]["games"]) == 2 and bracket["champion"] == table["p2"]


def test_item5_a_drawn_cut_game_goes_to_the_time_rule_then_the_higher_seed(client):
    tid, organiser = _swiss_done(client, players=4, cut_draws="time_rule")
    cut = client.post(f"/tournaments/{tid}/cut", json={"size": 2, "choices": {}}, headers=organiser)
    table = cut.json()["tables"][0]
    end_at_table(client, table, "draw")
    match = client.get(f"/tournaments/{tid}/bracket").json()["bracket"]["rounds"][0][0]
    # Lords of War's time rule on a game with nothing destroyed is a draw too: the higher seed goes through
    assert (match["winner"], match["decided_by"]) == (match["higher"], "higher_seed")


def test_item5_cut_draws_is_chosen_at_creation_from_the_two_ways(client):
    refused = client.post("/tournaments", json={"name": "x", "system": "lords-of-war", "rounds": 1,
                                                "cut_draws": "coin"})
    assert refused.status_code == 422


# -- item 6: tie-breaks --------------------------------------------------------------------------------------


def test_item6_standings_show_the_chosen_tiebreaks_in_order_each_with_value_and_explanation(client):
    tid, organiser = _swiss_done(client, players=4, tiebreaks=["match_points", "head_to_head", "game_win",
                                                                "strength_of_schedule"])
    rows = client.get(f"/tournaments/{tid}/standings").json()["standings"]
    assert [[tb["name"] for tb in r["tiebreaks"]] for r in rows] == [
        ["match_points", "head_to_head", "game_win", "strength_of_schedule"]] * 4
    assert all(tb["explanation"] for r in rows for tb in r["tiebreaks"])
    assert [r["tiebreaks"][0]["value"] for r in rows] == [r["match_points"] for r in rows]
    assert all(r["dropped"] is False for r in rows)
    shown = summary(client, tid)["tiebreaks"]
    assert [t["name"] for t in shown] == ["match_points", "head_to_head", "game_win", "strength_of_schedule"]


def test_item6_the_default_tiebreaks_are_the_order_of_before(client):
    tid, _ = open_tournament(client, players=2)
    assert [t["name"] for t in summary(client, tid)["tiebreaks"]] == [
        "match_points", "opponents_match_win", "score_difference"]


@pytest.mark.parametrize("tiebreaks", [[], ["coin_toss"], ["match_points", "match_points"]])
def test_item6_unknown_or_repeated_tiebreaks_are_refused_at_creation(client, tiebreaks):
    refused = client.post("/tournaments", json={"name": "x", "system": "lords-of-war", "rounds": 1,
                                                "tiebreaks": tiebreaks})
    assert error(refused) == (422, "invalid_tiebreaks")
    assert client.get("/tournaments").json()["tournaments"] == []


# -- exports ----------------------------------------------------------------------------------------------------


def test_export_pairings_results_and_standings_as_csv_and_json(client):
    tid, organiser = _swiss_done(client, players=5, rounds=1)  # a bye too
    client.post(f"/tournaments/{tid}/rounds/1/tables/1/correction", json={"winner": "p2", "reason": "misread"},
                headers=organiser)
    pairings = client.get(f"/tournaments/{tid}/export", params={"what": "pairings", "format": "csv"})
    assert pairings.status_code == 200 and pairings.headers["content-type"].startswith("text/csv")
    assert f'filename="{tid}-pairings.csv"' in pairings.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(pairings.text)))
    assert len(rows) == 5 and sum(r["seat"] == "bye" for r in rows) == 1
    assert {r["entrant"] for r in rows} == {f"p{i:02d}" for i in range(5)}
    results = list(csv.DictReader(io.StringIO(
        client.get(f"/tournaments/{tid}/export", params={"what": "results", "format": "csv"}).text)))
    assert results[0]["status"] == "corrected" and results[0]["correction_reason"] == "misread"
    assert results[0]["placings"] == "p2 > p1"
    standings = client.get(f"/tournaments/{tid}/export", params={"what": "standings", "format": "json"}).json()
    assert standings["what"] == "standings" and len(standings["rows"]) == 5
    assert list(standings["rows"][0])[-2:] == ["opponents_match_win", "score_difference"]  # the tie-breaks' values
    as_csv = list(csv.DictReader(io.StringIO(
        client.get(f"/tournaments/{tid}/export", params={"what": "standings"}).text)))
    assert [r["entrant"] for r in as_csv] == [r["entrant"] for r in standings["rows"]]
    for params in ({"what": "armies"}, {"format": "xml"}):
        assert error(client.get(f"/tournaments/{tid}/export", params=params)) == (422, "invalid_export")
