"""engine.system's value types: Outcome, SeatCounts, Seat."""

from __future__ import annotations

import msgspec
import pytest

from engine.system import MAX_SEATS, Outcome, Seat, SeatCounts, seat_id


def test_outcome_ranked_first_group_wins_and_places_skip_after_a_tie():
    outcome = Outcome.ranked([("p3",), ("p1", "p4"), ("p2",)], "heap_empty", {"p1": 5, "p2": 1, "p3": 9, "p4": 5})
    assert outcome.winners == ("p3",) and not outcome.is_draw
    assert [outcome.place_of(s) for s in ("p3", "p1", "p4", "p2")] == [1, 2, 2, 4]
    assert outcome.seats == ("p3", "p1", "p4", "p2")


def test_outcome_ranked_one_group_is_a_draw_without_winners():
    outcome = Outcome.ranked([("p1", "p2")], "exhausted")
    assert outcome.winners == () and outcome.is_draw and outcome.place_of("p2") == 1


def test_outcome_shared_first_place_gives_several_winners_a_team_wins_together():
    outcome = Outcome.ranked([("p1", "p3"), ("p2", "p4")], "kills")
    assert outcome.winners == ("p1", "p3") and not outcome.is_draw


@pytest.mark.parametrize("fields, problem", [
    ({"winners": (), "placings": (), "reason": "kills"}, "non-empty"),
    ({"winners": (), "placings": (("p1",), ()), "reason": "kills"}, "non-empty"),
    ({"winners": (), "placings": (("p1",), ("p1",)), "reason": "kills"}, "placed twice"),
    ({"winners": ("p2",), "placings": (("p1",), ("p2",)), "reason": "kills"}, "not the first placing"),
    ({"winners": ("p1", "p2"), "placings": (("p1", "p2"),), "reason": "kills"}, "draw"),
    ({"winners": ("p1",), "placings": (("p1",), ("p2",)), "reason": ""}, "reason"),
    ({"winners": (), "placings": (("p1",), ("p2",)), "reason": "kills", "scores": {"p1": 3}}, "scores"),
])
def test_outcome_refuses_an_inconsistent_result(fields, problem):
    with pytest.raises(ValueError, match=problem):
        Outcome(**fields)


def test_outcome_is_json_and_back():
    outcome = Outcome.ranked([("p2",), ("p1",)], "concession", {"p1": 0, "p2": 2})
    data = msgspec.json.encode(outcome)
    assert msgspec.json.decode(data) == {"winners": ["p2"], "placings": [["p2"], ["p1"]], "reason": "concession",
                                         "scores": {"p1": 0, "p2": 2}, "adjudication": None}
    assert msgspec.json.decode(data, type=Outcome) == outcome


def test_outcome_place_of_an_unknown_seat_is_a_key_error():
    with pytest.raises(KeyError):
        Outcome.ranked([("p1",), ("p2",)], "kills").place_of("p3")


def test_seat_counts_hold_the_counts_between_their_bounds():
    counts = SeatCounts(3, 4)
    assert [n for n in range(8) if n in counts] == [3, 4] and "3" not in counts
    assert (str(counts), str(SeatCounts(2, 2))) == ("3 to 4", "2")
    for bad in ((1, 2), (4, 3), (2, MAX_SEATS + 1), (2, 6, (6,)), (2, 6, (2,))):
        with pytest.raises(ValueError):
            SeatCounts(*bad)


def test_seat_counts_may_leave_gaps():
    counts = SeatCounts(2, 6, gaps=(5,))
    assert [n for n in range(8) if n in counts] == [2, 3, 4, 6] == list(counts.counts)
    assert (str(counts), str(SeatCounts(4, 6, gaps=(5,)))) == ("2, 3, 4 or 6", "4 or 6")


def test_seat_ids_are_p1_p2_in_seating_order():
    assert [seat_id(i) for i in range(3)] == ["p1", "p2", "p3"]
    assert Seat(id="p2", index=1) == Seat(id="p2", index=1, team=None)
    assert msgspec.json.encode(Seat(id="p1", index=0, team="odd")) == b'{"id":"p1","index":0,"team":"odd"}'
