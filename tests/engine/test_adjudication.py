"""engine.adjudication: the scorekeeper's ``adjudicate`` (issue 28 item 11), its checks written once for every
system, through the test system pebbles (three or four seats, teams); Outcome's reading of it; the time rule when no
result is named (item 12); ``play`` ending a stalled game (the optional ``Stalling`` capability)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from warlog_pebbles.rules import PEBBLES, State

from engine.adjudication import SCOREKEEPER, Adjudicate, recorded_adjudication
from engine.errors import RuleError
from engine.play import play, verify
from engine.system import Outcome, Stalling, TimeRuling
from events import Adjudication


def _running(players: int = 3, teams: bool = False, heap: int = 21) -> tuple[list[Any], State]:
    setup = {"system": "pebbles", "players": [{"id": f"p{i + 1}", "name": f"n{i + 1}"} for i in range(players)],
             "variant": {"heap": heap, "teams": teams}, "seed": 5}
    events = list(PEBBLES.start(setup))
    state = PEBBLES.fold(events)
    for count in (3, 2):
        produced = PEBBLES.decide(state, PEBBLES.parse_action({"type": "take", "player": PEBBLES.to_act(state)[0],
                                                                "count": count}))
        events.extend(produced)
        state = PEBBLES.fold(produced, state)
    return events, state


def _adjudicated(action: dict[str, Any], players: int = 3, teams: bool = False) -> tuple[list[Any], State]:
    events, state = _running(players, teams)
    produced = PEBBLES.decide(state, PEBBLES.parse_action({"type": "adjudicate", **action}))
    return events + list(produced), PEBBLES.fold(produced, state)


def _refusal(action: dict[str, Any], players: int = 3, teams: bool = False) -> RuleError:
    _, state = _running(players, teams)
    with pytest.raises(RuleError) as refused:
        PEBBLES.decide(state, PEBBLES.parse_action({"type": "adjudicate", **action}))
    return refused.value


def test_adjudicate_names_the_winner_and_ends_the_game_adjudicated():
    events, state = _adjudicated({"winner": "p2", "reason": "judge", "note": "p1 and p3 left the hall"})
    ended = events[-1]
    assert ended.reason == "adjudicated" and ended.adjudication == Adjudication(
        reason="judge", placings=(("p2",), ("p1", "p3")), note="p1 and p3 left the hall")
    outcome = PEBBLES.outcome(state)
    assert outcome == Outcome(winners=("p2",), placings=(("p2",), ("p1", "p3")), reason="adjudicated",
                              scores=outcome.scores, adjudication="judge")
    assert PEBBLES.to_act(state) == ()


def test_adjudicate_a_draw_places_every_seat_together():
    _, state = _adjudicated({"winner": "draw", "reason": "agreement"})
    outcome = PEBBLES.outcome(state)
    assert outcome is not None and outcome.is_draw and outcome.placings == (("p1", "p2", "p3"),)
    assert outcome.adjudication == "agreement"


def test_adjudicate_placings_rank_more_than_two_seats_with_ties():
    _, state = _adjudicated({"placings": [["p3"], ["p4", "p1"], ["p2"]], "reason": "judge"}, players=4)
    outcome = PEBBLES.outcome(state)
    assert outcome is not None and outcome.placings == (("p3",), ("p1", "p4"), ("p2",))  # a group in seat order
    assert outcome.winners == ("p3",) and outcome.place_of("p2") == 4


def test_adjudicate_a_winner_and_placings_that_agree():
    _, state = _adjudicated({"winner": "p3", "placings": [["p3"], ["p1"], ["p2"]], "reason": "stalled"})
    assert PEBBLES.outcome(state).placings == (("p3",), ("p1",), ("p2",))


def test_adjudicate_with_teams_a_seat_wins_for_its_team():
    _, state = _adjudicated({"winner": "p2", "reason": "judge"}, players=4, teams=True)
    assert PEBBLES.outcome(state).placings == (("p2", "p4"), ("p1", "p3"))
    _, by_name = _adjudicated({"winner": "odd", "reason": "judge"}, players=4, teams=True)
    assert PEBBLES.outcome(by_name).placings == (("p1", "p3"), ("p2", "p4"))


def test_adjudicate_time_without_a_result_applies_the_systems_time_rule():
    events, state = _running()
    ruling = PEBBLES.on_time(state)
    produced = PEBBLES.decide(state, Adjudicate(reason="time"))
    adjudication = produced[-1].adjudication
    assert adjudication.placings == ruling.placings and adjudication.explanation == ruling.explanation
    assert not adjudication.named and "by score" in ruling.explanation


@pytest.mark.parametrize("action, code", [
    ({"winner": "p1", "reason": "boredom"}, "unknown_reason"),
    ({"reason": "judge"}, "no_result"),
    ({"reason": "agreement"}, "no_result"),
    ({"winner": "p9", "reason": "judge"}, "unknown_winner"),
    ({"winner": "odd", "reason": "judge"}, "unknown_winner"),  # no teams in this game
    ({"placings": [["p1"], ["p2"]], "reason": "judge"}, "bad_placings"),  # p3 left out
    ({"placings": [["p1"], ["p2", "p1"], ["p3"]], "reason": "judge"}, "bad_placings"),  # p1 twice
    ({"placings": [["p1"], [], ["p2", "p3"]], "reason": "judge"}, "bad_placings"),
    ({"placings": [["p1"], ["p2", "p7"]], "reason": "judge"}, "unknown_seat"),
    ({"winner": "p2", "placings": [["p1"], ["p2", "p3"]], "reason": "judge"}, "winner_mismatch"),
    ({"winner": "draw", "placings": [["p1"], ["p2", "p3"]], "reason": "judge"}, "winner_mismatch"),
    ({"winner": "p1", "placings": [["p1", "p2", "p3"]], "reason": "judge"}, "winner_mismatch"),
    ({"winner": "p1", "reason": "judge", "note": "x" * 501}, "bad_note"),
    ({"winner": "p1", "reason": "judge", "note": "two\nlines"}, "bad_note"),
    ({"winner": "p1", "reason": "judge", "note": "  "}, "bad_note"),
])
def test_adjudicate_refuses_what_the_contract_does_not_allow_with_the_rule_and_a_reason(action, code):
    refusal = _refusal(action)
    assert refusal.code == code and refusal.rule == "adjudication" and refusal.message


def test_adjudicate_with_teams_refuses_placings_that_split_a_team():
    refusal = _refusal({"placings": [["p1"], ["p2", "p3", "p4"]], "reason": "judge"}, players=4, teams=True)
    assert refusal.code == "team_split" and "p1, p3" in refusal.message


@pytest.mark.parametrize("data", [
    {"type": "adjudicate", "winner": "p1"},  # no reason
    {"type": "adjudicate", "winner": "p1", "reason": "judge", "player": "p1"},  # the scorekeeper acts, not a seat
    {"type": "adjudicate", "winner": 1, "reason": "judge"},
    {"type": "adjudicate", "placings": "p1 p2", "reason": "judge"},
])
def test_adjudicate_of_the_wrong_shape_is_malformed(data):
    with pytest.raises(RuleError) as refused:
        PEBBLES.parse_action(data)
    assert refused.value.code == "malformed"


def test_adjudicate_is_refused_once_the_game_is_over():
    _, state = _adjudicated({"winner": "p1", "reason": "judge"})
    with pytest.raises(RuleError) as refused:
        PEBBLES.decide(state, Adjudicate(winner="p2", reason="judge"))
    assert refused.value.code == "game_over"


def test_adjudicate_is_refused_before_the_game_starts():
    with pytest.raises(RuleError) as refused:
        PEBBLES.decide(PEBBLES.initial_state(), Adjudicate(winner="p2", reason="judge"))
    assert refused.value.code == "not_started" and refused.value.rule == "adjudication"


@pytest.mark.parametrize("action", [
    {"winner": "p2", "reason": "judge", "note": "forfeit"},
    {"winner": "draw", "reason": "agreement"},
    {"placings": [["p3"], ["p1"], ["p2"]], "reason": "stalled"},
    {"reason": "time"},
])
def test_adjudicate_is_recorded_by_the_scorekeeper_and_re_decided_identically(action):
    events, _ = _adjudicated(action)
    last = PEBBLES.recorded_actions(events)[-1]
    assert last.seat == SCOREKEEPER and isinstance(last.action, Adjudicate) and last.stop == len(events)
    assert last.action == recorded_adjudication(events[-1].adjudication)
    assert verify(PEBBLES, events) is None


def test_adjudicate_a_time_ruling_is_re_asked_on_verify():
    events, _ = _adjudicated({"reason": "time"})
    assert PEBBLES.recorded_actions(events)[-1].action == Adjudicate(reason="time")


def test_outcome_of_an_adjudication_says_why_and_refuses_to_be_built_without_it():
    with pytest.raises(ValueError, match="says why"):
        Outcome(winners=("p1",), placings=(("p1",), ("p2",)), reason="adjudicated")
    with pytest.raises(ValueError, match="says why"):
        Outcome(winners=("p1",), placings=(("p1",), ("p2",)), reason="kills", adjudication="time")
    adjudicated = Outcome.adjudicated(Adjudication(reason="time", placings=(("p1", "p2"),)))
    assert adjudicated.is_draw and adjudicated.reason == "adjudicated" and adjudicated.adjudication == "time"


def test_time_ruling_of_a_winner_or_a_draw():
    assert TimeRuling.of_winner(("p1", "p2"), "p2", "why").placings == (("p2",), ("p1",))
    assert TimeRuling.of_winner(("p1", "p2"), None, "why").placings == (("p1", "p2"),)


def _stalled(state: State) -> bool:
    return state.phase == "play" and state.heap <= 10


# Pebbles whose games stall once the heap is down to 10 (the Stalling capability, for play())
STALLS = dataclasses.replace(PEBBLES, is_stalled=_stalled)


def test_play_ends_a_stalled_game_as_a_draw_by_the_scorekeepers_adjudication():
    system = STALLS
    assert isinstance(system, Stalling) and PEBBLES.is_stalled is None
    game = play(system, PEBBLES.sample_setup(0, 3), ("greedy",))
    last = game.actions[-1]
    assert last.seat == SCOREKEEPER and last.action == Adjudicate(winner="draw", reason="stalled")
    outcome = system.outcome(system.fold(game.events))
    assert outcome is not None and outcome.is_draw and outcome.adjudication == "stalled"
    assert not game.conceded_at_limit and verify(system, game.events) is None


def test_play_without_stalling_plays_to_the_rules_end():
    game = play(PEBBLES, PEBBLES.sample_setup(0, 3), ("greedy",))
    assert PEBBLES.outcome(PEBBLES.fold(game.events)).reason == "heap_empty"
