"""Tie-breaks of a tournament's choice (issue 31 item 6), recomputed from results: a log of entered results is
folded and its standings compared with the values worked out by hand."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from replay.tournaments import day
from replay.tournaments.model import GameResult, LoggedEvent, fold, standings, table_result


def _log(tiebreaks: list[str] | None, rounds: list[list[tuple[str, str, str, int, int]]]) -> list[LoggedEvent]:
    """Players a-d; each round's tables (p1, p2, winner seat or draw, p1's score, p2's score), entered results."""
    created: dict[str, Any] = {"name": "t", "system": "lords-of-war", "format": "swiss", "rounds": len(rounds),
                               "organiser_hash": "x", "seats": 2}
    if tiebreaks is not None:
        created["tiebreaks"] = tiebreaks
    events = [("tournament_created", created)]
    events += [("player_registered", {"id": p, "name": p.upper()}) for p in "abcd"]
    for number, tables in enumerate(rounds, 1):
        events.append(("round_started", {"round": number, "byes": [], "tables": [
            {"table": i, "seats": {"p1": a, "p2": b}, "game_id": f"g{number}{i}"}
            for i, (a, b, _, _, _) in enumerate(tables, 1)]}))
        for i, (_, _, winner, s1, s2) in enumerate(tables, 1):
            events.append(("result_entered", {"round": number, "table": i, "winner": winner,
                                              "kills": {"p1": s1, "p2": s2}}))
    return [LoggedEvent(seq, kind, data, "2026-05-02T09:00:00+00:00") for seq, (kind, data) in enumerate(events, 1)]


# a beats b 5-1, c draws d 2-2; a beats c 3-0, b beats d 4-2 -> points a 6, b 3, c 1, d 1
DAY = [[("a", "b", "p1", 5, 1), ("c", "d", "draw", 2, 2)], [("a", "c", "p1", 3, 0), ("b", "d", "p1", 4, 2)]]


def _rows(tiebreaks: list[str] | None, rounds: Any = DAY) -> list[Any]:
    t = fold("t-1", _log(tiebreaks, rounds))
    results = [table_result(r.number, tb, lambda g: GameResult(None)) for r in t.played for tb in r.tables]
    return standings(t, results)


def _values(rows: list[Any]) -> dict[str, dict[str, Any]]:
    return {r.player: {tb["name"]: tb["value"] for tb in r.tiebreaks} for r in rows}


def test_item6_every_tiebreak_is_recomputed_from_the_results():
    every = ["match_points", "opponents_match_win", "game_win", "opponents_game_win", "score_difference",
             "strength_of_schedule"]
    values = _values(_rows(every))
    third = round(float(Fraction(1, 3)), 4)
    assert values["a"] == {"match_points": 6, "opponents_match_win": round(5 / 12, 4), "game_win": 1,
                           "opponents_game_win": round(5 / 12, 4), "score_difference": 7,
                           "strength_of_schedule": 4}
    assert values["b"] == {"match_points": 3, "opponents_match_win": round(2 / 3, 4), "game_win": 0.5,
                           "opponents_game_win": round(2 / 3, 4), "score_difference": -2,
                           "strength_of_schedule": 7}
    assert values["c"]["game_win"] == third and values["c"]["opponents_match_win"] == round(2 / 3, 4)
    assert (values["c"]["score_difference"], values["d"]["score_difference"]) == (-3, -2)
    assert (values["c"]["strength_of_schedule"], values["d"]["strength_of_schedule"]) == (7, 4)


@pytest.mark.parametrize(("tiebreaks", "order"), [
    (None, "abcd"),  # points, then opponents' match-win % (c 2/3 over d 5/12)
    (["match_points", "score_difference"], "abdc"),  # d -2 over c -3
    (["match_points", "head_to_head"], "abcd"),  # c and d drew: 1/2 each, then the id
    (["strength_of_schedule"], "bcad"),  # b and c 7, a and d 4; ids settle the rest
    (["match_points", "strength_of_schedule"], "abcd"),
])
def test_item6_standings_follow_the_chosen_tiebreaks_in_order_then_the_id(tiebreaks, order):
    assert "".join(r.player for r in _rows(tiebreaks)) == order
    assert [r.rank for r in _rows(tiebreaks)] == [1, 2, 3, 4]


def test_item6_head_to_head_counts_only_games_between_the_entrants_still_tied():
    # a beats b 1-0, c beats d; c beats a 5-0, b beats d 9-0: a and b on 3 points, b far ahead on score
    rounds = [[("a", "b", "p1", 1, 0), ("c", "d", "p1", 1, 0)], [("c", "a", "p1", 5, 0), ("b", "d", "p1", 9, 0)]]
    assert "".join(r.player for r in _rows(["match_points", "score_difference"], rounds)) == "cbad"
    rows = _rows(["match_points", "head_to_head", "score_difference"], rounds)
    assert "".join(r.player for r in rows) == "cabd"
    values = _values(rows)
    assert (values["a"]["head_to_head"], values["b"]["head_to_head"]) == (1, 0)
    assert values["c"]["head_to_head"] == 0  # alone on 6 points: nobody to be compared with


def test_item6_each_tiebreak_has_a_one_line_explanation_and_bad_choices_are_named():
    assert all(text and "\n" not in text for text in day.TIEBREAKS.values())
    assert day.check_tiebreaks(["match_points", "coin"]) == (
        "unknown tie-break 'coin' (known: " + ", ".join(day.TIEBREAKS) + ")")
    assert day.check_tiebreaks([]) is not None and day.check_tiebreaks(["game_win", "game_win"]) is not None
    assert day.check_tiebreaks(list(day.TIEBREAKS)) is None


def test_item5_the_bracket_seeds_1v8_4v5_2v7_3v6_and_winners_meet_in_order():
    assert day.bracket_order(8) == [(1, 8), (4, 5), (2, 7), (3, 6)]
    assert day.bracket_order(4) == [(1, 4), (2, 3)]
    assert day.bracket_order(2) == [(1, 2)]
    seeds = [f"s{i}" for i in range(1, 9)]

    def won(winner: str, loser: str, rnd: int, table: int) -> list[day.CutGame]:
        return [day.CutGame(rnd, table, f"g{rnd}{table}", "first", ((winner,), (loser,)), "finished")]

    games = {(1, 1): won("s8", "s1", 4, 1), (1, 2): won("s4", "s5", 4, 2), (1, 3): won("s2", "s7", 4, 3),
             (1, 4): won("s3", "s6", 4, 4)}
    rounds = day.bracket(8, seeds, games, "replay", lambda game: None)
    assert [(m.higher, m.lower) for m in rounds[1]] == [("s4", "s8"), ("s2", "s3")]  # the higher seed first
    assert rounds[2][0].status == "waiting" and day.champion(rounds) is None


def test_item5_a_drawn_cut_game_under_the_time_rule_goes_to_whom_the_rule_names():
    drawn = [day.CutGame(4, 1, "g", "first", (("s1", "s2"),), "finished")]
    by_rule = day.bracket(2, ["s1", "s2"], {(1, 1): drawn}, "time_rule", lambda game: "s2")
    assert (by_rule[0][0].winner, by_rule[0][0].decided_by, day.champion(by_rule)) == ("s2", "time_rule", "s2")
    replayed = day.bracket(2, ["s1", "s2"], {(1, 1): drawn}, "replay", lambda game: "s2")
    assert replayed[0][0].status == "replay" and day.champion(replayed) is None
