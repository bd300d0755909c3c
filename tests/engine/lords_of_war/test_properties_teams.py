"""Property tests over bot games of three to six seats (§10): the team rules (4 and 6) and the three-player game.

Each game: it ends by the rules; fold equals the evolve loop at every prefix; every card of every army is
accounted for at every step; decide re-derives every recorded event (also with the full elimination check, R6);
what the legal-action enumeration offers, decide accepts. The default run plays 24 games; ``-m slow`` 150 more.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import RuleError
from engine.lords_of_war import CARDS, FACTIONS, decide, evolve, fold, initial_state, verify
from engine.lords_of_war import geometry as geo
from engine.lords_of_war.actions import Place, Recall, Shoot
from engine.lords_of_war.bots import play_bot_game
from engine.lords_of_war.history import recorded_actions
from engine.lords_of_war.rules import legal_actions, legal_placements, legal_shots, recallable_squares
from engine.lords_of_war.seating import SEAT_INDEX, SEAT_NAMES
from engine.lords_of_war.state import seat_of
from events.lords_of_war import CODEC, Eliminated, GameEnded, GameStarted
from tests.engine.lords_of_war.test_properties import check_table_pools, check_table_replay

VARIANTS = [{}, {"intermediate": True}, {"unbounded": True}, {"kill_target": 12, "command_target": 3}]
KINDS = ["random", "greedy"]


@st.composite
def games(draw: Any) -> tuple[int, tuple[str, ...], dict[str, Any], tuple[str, ...]]:
    seats = draw(st.sampled_from([3, 4, 6]))
    armies = [draw(st.sampled_from(FACTIONS)) for _ in range(seats)]
    if seats == 3:
        armies[2] = armies[1]  # §10: the team shares one army
    variant = draw(st.sampled_from(VARIANTS))
    if seats > 3:
        variant = {k: v for k, v in variant.items() if k != "unbounded"}  # team games are always unbounded
    bots = tuple(draw(st.sampled_from(KINDS)) for _ in range(seats))
    return draw(st.integers(min_value=0, max_value=2**63 - 1)), tuple(armies), variant, bots


def check_cards(events: list[Any]) -> None:
    """Every card of a side's armies is in their decks, its hands, between the team players, on the mat or
    destroyed (counted by side: §10 lets team-mates of one faction recall each other's units into their hands)."""
    state = initial_state()
    destroyed: Counter[tuple[int, str]] = Counter()  # (side, card)
    for i, event in enumerate(events):
        if isinstance(event, Eliminated):
            for unit in event.units:
                destroyed[(state.layout.side[SEAT_INDEX[unit.owner]], unit.card)] += 1
        state = evolve(state, event)
        if i < state.layout.seats:  # the hands are being dealt
            continue
        layout = state.layout
        for seat in range(layout.seats):
            assert len(state.hands[seat]) == state.hand_counts[seat] <= layout.hand_size[seat] + 1
        for army in sorted(set(layout.stock)):
            assert len(state.decks[army]) == state.deck_counts[army]
        for side in (0, 1):
            seats = [s for s in range(layout.seats) if layout.side[s] == side]
            armies = sorted({layout.stock[s] for s in seats})
            everything = Counter({c: n for (d, c), n in destroyed.items() if d == side})
            everything += Counter(c for _, (c, d) in state.board.items() if d == side)
            for army in armies:
                everything += Counter(state.decks[army])
            for seat in seats:
                everything += Counter(state.hands[seat])
            if layout.shared_general and side == 1:
                everything += Counter(state.middle)
            expected: Counter[str] = Counter()
            for army in armies:
                expected += Counter(state.armies[layout.stock.index(army)].cards)
            assert everything == expected, "36 cards an army accounted for"
            assert state.kills[side] == len(state.piles[side])
            assert state.commanders[side] == sum(CARDS[c].is_commander for c in state.piles[side])
        assert set(state.owners) == set(state.board)
        assert all(layout.side[seat_of(state, k)] == side for k, (_, side) in state.board.items())


def check_game(events: list[Any]) -> None:
    assert isinstance(events[0], GameStarted)
    assert isinstance(events[-1], GameEnded) and events[-1].reason != "concession"  # by the rules
    assert sum(isinstance(e, GameEnded) for e in events) == 1
    state = initial_state()
    for i, event in enumerate(events):  # fold equals the evolve loop at every prefix
        state = evolve(state, event)
        assert fold(events[: i + 1]) == state
    assert state.phase == "over" and state.winner in state.layout.teams
    assert fold([CODEC.decode_json(CODEC.encode_json(e)) for e in events]) == state
    assert fold([CODEC.decode_msgpack(CODEC.encode_msgpack(e)) for e in events]) == state
    check_cards(events)
    assert verify(events) is None
    assert verify(events, full_check=True) is None


def check_legal_actions(events: list[Any]) -> None:
    """What the enumeration offers, decide accepts (placements, their shots, recalls); the rest it refuses."""
    state = initial_state()
    actions = recorded_actions(events)
    for event in events[: actions[0][0]]:
        state = evolve(state, event)
    for n, (first, end, _) in enumerate(actions):
        if n % 5 == 0 and state.phase == "deploy":
            placements = legal_placements(state)
            assert placements
            for place in placements[:: max(1, len(placements) // 5)]:
                decide(state, place)
                for shooter, targets in legal_shots(state, place).items():
                    shot = Shoot(shooter=shooter, target=targets[-1])
                    decide(state, Place(player=place.player, card=place.card, square=place.square, shots=(shot,)))
        if n % 3 == 0 and state.phase == "reinforce":
            for action in legal_actions(state):
                decide(state, action)
            player = SEAT_NAMES[state.active]
            for k in state.board:
                square = geo.name(k, state.unbounded)
                if square not in recallable_squares(state):
                    with pytest.raises(RuleError):
                        decide(state, Recall(player=player, square=square))
        for event in events[first:end]:
            state = evolve(state, event)


def play(game: tuple[int, tuple[str, ...], dict[str, Any], tuple[str, ...]]) -> list[Any]:
    seed, armies, variant, bots = game
    return play_bot_game(seed, armies, variant, bots)


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(games())
def test_properties_teams_bot_games_hold_the_invariants(game):
    events = play(game)
    check_game(events)
    check_legal_actions(events)
    check_table_replay(events, named=game[0] % 2 == 0)  # §11: the same game recorded at the table


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(games())
def test_properties_teams_table_mode_bot_games(game):
    """§11: bots playing a table game (any army card with copies left may be in an unknown hand) end, replay and
    re-decide, and every army's unknown pool stays accounted for at every step."""
    seed, armies, variant, bots = game
    events = play_bot_game(seed, armies, {**variant, "mode": "table"}, bots)
    assert isinstance(events[-1], GameEnded) and sum(isinstance(e, GameEnded) for e in events) == 1
    state = initial_state()
    for event in events:
        state = evolve(state, event)
        if state.phase != "setup" and state.seq > state.layout.seats:
            check_table_pools(state)
    assert fold(events) == state and state.phase == "over"
    assert verify(events) is None


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_properties_teams_bot_games_are_reproducible(seats):
    armies = ("orcs", "dwarves", "dwarves") if seats == 3 else FACTIONS[:seats]
    assert play_bot_game(7, armies) == play_bot_game(7, armies)
    assert play_bot_game(7, armies) != play_bot_game(8, armies)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True,
          database=None)
@given(games())
def test_properties_teams_slow_many_games(game):
    events = play(game)
    check_game(events)
    check_table_replay(events, named=game[0] % 2 == 0)
    if game[0] % 3 == 0:
        check_legal_actions(events)
