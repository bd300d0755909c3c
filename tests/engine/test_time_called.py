"""Each system's own rule for time called (``Results.on_time``, issue 28 item 12), by name, and ``adjudicate`` with
reason ``time`` and no winner applying it with its explanation:

- Lords of War: more cards destroyed wins, then more commanders, else a draw (§10: a team's count);
- Art of War: the end-of-war count of §7.3 (more kingdom cards, then fewer graveyard cards, else a draw);
- Light Wars: §5.3's score rule as at the end of the last turn (higher score, then more bases in stock, else a draw);
- HeroScape: points of army cards on the map (equal: a draw);
- L5R: more provinces standing, then higher family honour, else a draw.

Given a running game's state with the counts set, when time is called, then the placings and the sentence."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from engine.adjudication import Adjudicate
from engine.heroscape.state import points_on_map
from engine.systems import get_system


def _running(name: str, index: int = 0, actions: int = 0, seats: int | None = None) -> tuple[Any, Any]:
    """A game of ``name`` after its opening and ``actions`` random bot actions: (system, state)."""
    system = get_system(name)
    state = system.fold(system.start(system.sample_setup(index, 11, seats)))
    bots = {seat.id: system.bots["random"](7 + seat.index)
            for seat in system.seats(system.sample_setup(index, 11, seats))}
    for _ in range(actions):
        seat = system.to_act(state)[0]
        state = system.fold(system.decide(state, bots[seat].choose(state, seat)), state)
    assert system.outcome(state) is None
    return system, state


def _called(system: Any, state: Any) -> Any:
    """Time called by the scorekeeper without a result: the adjudication the game ends with."""
    ended = system.decide(state, Adjudicate(reason="time"))[-1]
    ruling = system.on_time(state)
    assert ended.adjudication.placings == ruling.placings and ended.adjudication.explanation == ruling.explanation
    outcome = system.outcome(system.fold([ended], state))
    assert outcome.reason == "adjudicated" and outcome.adjudication == "time" and outcome.placings == ruling.placings
    return ended


# -- Lords of War -----------------------------------------------------------------------------------------------


def _lords_of_war(kills: tuple[int, int], commanders: tuple[int, int], seats: int | None = None) -> tuple[Any, Any]:
    system, state = _running("lords-of-war", seats=seats)
    return system, msgspec.structs.replace(state, kills=kills, commanders=commanders)


def test_lords_of_war_time_called_more_cards_destroyed_wins():
    system, state = _lords_of_war((12, 9), (0, 3))
    ended = _called(system, state)
    assert ended.winner == "p1" and ended.adjudication.placings == (("p1",), ("p2",))
    assert ended.adjudication.explanation == "p1 destroyed more cards (12 to 9)"


def test_lords_of_war_time_called_equal_cards_more_commanders_wins():
    system, state = _lords_of_war((10, 10), (1, 2))
    ended = _called(system, state)
    assert ended.winner == "p2" and "p2 destroyed more commanders (2 to 1)" in ended.adjudication.explanation


def test_lords_of_war_time_called_equal_cards_and_commanders_is_a_draw():
    system, state = _lords_of_war((7, 7), (2, 2))
    ended = _called(system, state)
    assert ended.winner == "draw" and ended.adjudication.placings == (("p1", "p2"),)
    assert system.state_to_builtins(system.fold([ended], state))["winner"] == "draw"


def test_lords_of_war_time_called_counts_a_teams_cards_s10():
    system, state = _lords_of_war((3, 5), (1, 0), seats=4)
    ended = _called(system, state)
    assert ended.winner == "even" and ended.adjudication.placings == (("p2", "p4"), ("p1", "p3"))
    assert ended.adjudication.explanation == "team even destroyed more cards (5 to 3)"


# -- Art of War -------------------------------------------------------------------------------------------------


def _art_of_war(kingdoms: tuple[int, int], graves: tuple[int, int]) -> tuple[Any, Any]:
    system, state = _running("art-of-war")
    players = tuple(msgspec.structs.replace(p, kingdom=tuple(f"{p.id}.soldier.{i + 1}" for i in range(kingdoms[n])),
                                            graveyard=tuple(f"{p.id}.archer.{i + 1}" for i in range(graves[n])))
                    for n, p in enumerate(state.players))
    return system, msgspec.structs.replace(state, players=players)


def test_art_of_war_time_called_more_kingdom_cards_wins_s7_3():
    system, state = _art_of_war((2, 4), (0, 5))
    ended = _called(system, state)
    assert ended.winner == "p2" and ended.adjudication.explanation == \
        "p2 has more cards in its kingdom, 4 to 2 (§7.3)"


def test_art_of_war_time_called_equal_kingdoms_fewer_graveyard_cards_wins_s7_3():
    system, state = _art_of_war((3, 3), (1, 4))
    ended = _called(system, state)
    assert ended.winner == "p1" and "p1 has fewer in its graveyard, 1 to 4" in ended.adjudication.explanation


def test_art_of_war_time_called_equal_kingdoms_and_graveyards_is_a_draw_s7_3():
    system, state = _art_of_war((2, 2), (3, 3))
    ended = _called(system, state)
    assert ended.winner is None and ended.adjudication.placings == (("p1", "p2"),)
    assert system.state_to_builtins(system.fold([ended], state))["winner"] == "draw"


# -- Light Wars -------------------------------------------------------------------------------------------------


def _light_wars(scores: tuple[int, int], stock: tuple[int, int]) -> tuple[Any, Any]:
    system, state = _running("light-wars")
    return system, msgspec.structs.replace(state, scores=scores, stock=stock)


def test_light_wars_time_called_the_higher_score_wins_s5_3():
    system, state = _light_wars((6, 9), (4, 0))
    ended = _called(system, state)
    assert ended.winner == "p2" and ended.adjudication.explanation == "p2 scores more, 9 to 6 (§5.3)"
    assert ended.scores == {"p1": 6, "p2": 9}


def test_light_wars_time_called_level_scores_more_bases_in_stock_wins_s5_3():
    system, state = _light_wars((5, 5), (3, 1))
    assert _called(system, state).winner == "p1"


def test_light_wars_time_called_level_scores_and_stock_is_a_draw_s5_3():
    system, state = _light_wars((5, 5), (2, 2))
    ended = _called(system, state)
    assert ended.winner is None and "a draw" in ended.adjudication.explanation


# -- HeroScape --------------------------------------------------------------------------------------------------


def test_heroscape_time_called_before_any_figure_is_on_the_map_is_a_draw():
    system, state = _running("heroscape")
    ended = _called(system, state)
    assert ended.winner is None and ended.adjudication.explanation == "both armies have 0 points on the map: a draw"


@pytest.mark.parametrize("actions", [1, 2, 30, 60])
def test_heroscape_time_called_more_points_on_the_map_wins(actions):
    system, state = _running("heroscape", actions=actions)
    points = (points_on_map(state, 0), points_on_map(state, 1))
    ended = _called(system, state)
    expected = None if points[0] == points[1] else "p1" if points[0] > points[1] else "p2"
    assert ended.winner == expected and ended.points == {"p1": points[0], "p2": points[1]}
    if expected is not None:
        assert ended.adjudication.explanation == \
            f"{expected} has more points on the map, {max(points)} to {min(points)}"


def test_heroscape_time_called_placed_army_against_none_wins():
    system, state = _running("heroscape", actions=1)  # the first army placed (the opening awaits placements)
    points = (points_on_map(state, 0), points_on_map(state, 1))
    assert sorted(points)[0] == 0 and max(points) > 0
    assert _called(system, state).winner == ("p1" if points[0] else "p2")


# -- L5R --------------------------------------------------------------------------------------------------------


def _l5r(provinces: tuple[int, int], honor: tuple[int, int]) -> tuple[Any, Any]:
    system, state = _running("l5r")
    players = tuple(msgspec.structs.replace(p, provinces=p.provinces[: provinces[n]], honor=honor[n])
                    for n, p in enumerate(state.players))
    return system, msgspec.structs.replace(state, players=players)


def test_l5r_time_called_more_provinces_standing_wins():
    system, state = _l5r((2, 3), (30, 5))
    ended = _called(system, state)
    assert ended.winner == "p2" and ended.adjudication.explanation == "p2 has more provinces standing, 3 to 2"


def test_l5r_time_called_level_provinces_higher_family_honour_wins():
    system, state = _l5r((4, 4), (12, 9))
    ended = _called(system, state)
    assert ended.winner == "p1" and "the higher family honour, 12 to 9" in ended.adjudication.explanation
    assert ended.honor == (12, 9)


def test_l5r_time_called_level_provinces_and_honour_is_a_draw():
    system, state = _l5r((3, 3), (10, 10))
    ended = _called(system, state)
    assert ended.winner is None
    assert system.state_to_builtins(system.fold([ended], state))["winner"] == "draw"
