"""Pods of a multi-seat tournament (replay/tournaments/pods.py) and place points: pure functions."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.system import Outcome
from replay.tournaments.model import place_points
from replay.tournaments.pods import pod_pairing, table_sizes


@pytest.mark.parametrize(
    ("players", "smallest", "largest", "sizes", "byes"),
    [
        (8, 3, 4, (4, 4), 0),
        (10, 3, 4, (4, 3, 3), 0),
        (7, 3, 4, (4, 3), 0),
        (5, 3, 4, (4,), 1),
        (6, 4, 4, (4,), 2),
        (2, 3, 4, (), 2),
        (13, 5, 6, (6, 6), 1),
        (9, 5, 6, (6,), 3),
        (11, 5, 6, (6, 5), 0),
    ],
)
def test_table_sizes_fewest_byes_then_fewest_tables(players: int, smallest: int, largest: int,
                                                    sizes: tuple[int, ...], byes: int) -> None:
    assert table_sizes(players, smallest, largest) == (sizes, byes)


@settings(max_examples=150, deadline=None)
@given(n=st.integers(3, 20), largest=st.integers(3, 6), rounds=st.integers(1, 5), data=st.data())
def test_every_round_seats_everyone_once_or_gives_a_bye(n: int, largest: int, rounds: int,
                                                        data: st.DataObject) -> None:
    smallest = largest - 1
    players = [f"e{i}" for i in range(n)]
    played: list[tuple[str, ...]] = []
    byes: list[str] = []
    history: dict[str, list[tuple[int, int]]] = {}
    for _ in range(rounds):
        ranked = data.draw(st.permutations(players))
        pods = pod_pairing(ranked, played, byes, history, smallest, largest)
        seated = [p for table in pods.tables for p in table]
        assert sorted(seated + list(pods.byes)) == sorted(players)
        assert all(smallest <= len(t) <= largest for t in pods.tables)
        assert len(pods.byes) == table_sizes(n, smallest, largest)[1]
        fresh = [p for p in ranked if p not in byes]
        if len(fresh) >= len(pods.byes):
            assert not set(pods.byes) & set(byes), "a second bye while a player had none"
            assert set(pods.byes) == set(fresh[len(fresh) - len(pods.byes):]), "byes go to the lowest-ranked"
        for table in pods.tables:
            for index, who in enumerate(table):
                history.setdefault(who, []).append((index, len(table)))
        played.extend(pods.tables)
        byes.extend(pods.byes)


def test_a_table_starts_with_the_highest_ranked_and_avoids_those_met() -> None:
    pods = pod_pairing(list("abcdefgh"), [("a", "b", "c", "d"), ("e", "f", "g", "h")], [], {}, 3, 4)
    # a, then e (new to a), then b and f (each has met one of the table: the highest-ranked first), ...
    assert pods.tables == (("a", "b", "e", "f"), ("c", "d", "g", "h"))  # no history: seats in rank order
    assert pods.repeats == 4  # a-b, e-f, c-d, g-h: two tables of eight who met in two tables cannot avoid it


def test_seats_go_earlier_to_who_sat_later() -> None:
    history = {"a": [(0, 3)], "b": [(1, 3)], "c": [(2, 3)]}
    assert pod_pairing(["a", "b", "c"], [], [], history, 3, 3).tables == (("c", "b", "a"),)


def test_place_points_share_tied_places() -> None:
    outcome = Outcome.ranked([("p2", "p4"), ("p1",), ("p3",)], "game")
    assert [place_points(outcome, s, 4) for s in ("p2", "p4", "p1", "p3")] == [Fraction(5, 2), Fraction(5, 2), 1, 0]
    draw = Outcome.ranked([("p1", "p2", "p3")], "game")
    assert sum(place_points(draw, s, 3) for s in ("p1", "p2", "p3")) == 3
    in_order = Outcome.ranked([("p1",), ("p2",), ("p3",)], "game")
    counts = Counter(place_points(in_order, s, 3) for s in ("p1", "p2", "p3"))
    assert counts == Counter({2: 1, 1: 1, 0: 1})
