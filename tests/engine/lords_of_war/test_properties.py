"""Property tests over bot games (hypothesis): determinism, termination, invariants, R6, table-mode replay.

The default run plays ~100 games; ``-m slow`` plays 36 faction pairings x 28 games = 1,008 more across the
variants (plain, intermediate, unbounded, both) and bot pairings.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import RuleError
from engine.lords_of_war import CARDS, FACTIONS, decide, evolve, fold, initial_state, start, verify
from engine.lords_of_war import geometry as geo
from engine.lords_of_war.actions import Draw, Place, Recall, Shoot
from engine.lords_of_war.bots import play_bot_game
from engine.lords_of_war.history import recorded_actions
from engine.lords_of_war.rules import legal_actions, legal_placements, legal_shots, recallable_squares
from engine.lords_of_war.state import PLAYERS
from events.lords_of_war import CODEC, BerserkerMoved, Eliminated, GameEnded, GameStarted, Placed

VARIANTS = [{}, {"intermediate": True}, {"unbounded": True}, {"intermediate": True, "unbounded": True},
            {"kill_target": 8, "command_target": 2}]
BOTS = [("random", "random"), ("greedy", "random"), ("random", "greedy"), ("greedy", "greedy")]

games = st.tuples(
    st.integers(min_value=0, max_value=2**63 - 1),
    st.sampled_from(FACTIONS),
    st.sampled_from(FACTIONS),
    st.sampled_from(VARIANTS),
    st.sampled_from(BOTS),
)


def check_invariants(events: list[Any]) -> None:
    state = initial_state()
    for i, event in enumerate(events):
        if isinstance(event, Placed):
            assert state.phase == "deploy"
            assert geo.parse(event.square, state.unbounded) not in state.board, "two units on a square"
        if isinstance(event, BerserkerMoved):
            assert geo.parse(event.target, state.unbounded) not in state.board, "berserker onto a unit"
        state = evolve(state, event)
        if state.phase == "setup" or i < 2:
            continue
        for p in (0, 1):
            assert 0 <= state.hand_counts[p] <= 6
            assert len(state.hands[p]) == state.hand_counts[p]
            assert len(state.decks[p]) == state.deck_counts[p]
            on_mat = [c for c, o in state.board.values() if o == p]
            destroyed = list(state.piles[1 - p])
            everything = Counter(state.decks[p]) + Counter(state.hands[p]) + Counter(on_mat) + Counter(destroyed)
            assert everything == Counter(state.armies[p].cards), "36 cards accounted for"
            # kills equal destroyed cards
            assert state.kills[p] == len(state.piles[p])
            assert state.commanders[p] == sum(CARDS[c].is_commander for c in state.piles[p])
    assert sum(len(e.units) for e in events if isinstance(e, Eliminated)) == sum(state.kills)


def check_game(events: list[Any]) -> None:
    assert isinstance(events[0], GameStarted)
    # every game ends, by the rules (not by the bot helper's safety net)
    assert isinstance(events[-1], GameEnded) and events[-1].reason != "concession"
    assert sum(isinstance(e, GameEnded) for e in events) == 1
    # fold is deterministic, also through the JSON and msgpack codecs (export -> import is the identity)
    final = fold(events)
    assert final.phase == "over"
    assert fold(events) == final
    assert fold([CODEC.decode_json(CODEC.encode_json(e)) for e in events]) == final
    assert fold([CODEC.decode_msgpack(CODEC.encode_msgpack(e)) for e in events]) == final
    # stepping to n then back to k equals fold(events[:k])
    k = len(events) // 2
    assert fold(events[k:], fold(events[:k])) == final
    check_invariants(events)
    # decide re-derives every recorded event; R6: incremental elimination == full elimination
    assert verify(events) is None
    assert verify(events, full_check=True) is None


def check_legal_actions(events: list[Any]) -> None:
    """What the enumeration offers, decide accepts (placements, their shots, recalls), on a sample of states."""
    state = initial_state()
    actions = recorded_actions(events)
    for event in events[: actions[0][0]]:
        state = evolve(state, event)
    for n, (first, end, _) in enumerate(actions):
        if n % 7 == 0 and state.phase == "deploy":
            placements = legal_placements(state)
            assert placements
            for place in placements[:: max(1, len(placements) // 6)]:
                decide(state, place)
                for shooter, targets in legal_shots(state, place).items():
                    shot = Shoot(shooter=shooter, target=targets[-1])
                    decide(state, Place(player=place.player, card=place.card, square=place.square, shots=(shot,)))
        if n % 5 == 0 and state.phase == "reinforce":
            for action in legal_actions(state):
                decide(state, action)
            player = PLAYERS[state.active]
            for k, (_, owner) in state.board.items():
                square = geo.name(k, state.unbounded)
                if owner == state.active and square not in recallable_squares(state):
                    with pytest.raises(RuleError):
                        decide(state, Recall(player=player, square=square))
        for event in events[first:end]:
            state = evolve(state, event)


def check_table_pools(state: Any) -> None:
    """§11: each army's unknown pool (its 36 cards minus those known to have left it) is exactly its deck and the
    unknown cards of its players' hands; nothing leaves a pool more often than the army holds the card."""
    layout = state.layout
    for army in sorted(set(layout.stock)):
        seats = [s for s in range(layout.seats) if layout.stock[s] == army]
        cards = Counter(state.armies[seats[0]].cards)
        spent = Counter(state.spent[army])
        assert not spent - cards, "more copies out than the army holds"
        unknown = sum(state.hand_counts[s] - len(state.hands[s]) for s in seats)
        assert sum(cards.values()) - sum(spent.values()) == state.deck_counts[army] + unknown, "pool accounted for"


def check_table_replay(events: list[Any], named: bool = False) -> None:
    """§11: the same game recorded by a scorekeeper in table mode (hands unknown, forced placements with the
    revealed hand; with ``named`` every other drawn card is seen and named) is accepted, keeps every army's
    unknown pool accounted for, and ends identically."""
    started = events[0]
    variant = {f: getattr(started.variant, f) for f in started.variant.__struct_fields__}
    if len(started.players) in (4, 6):
        variant["teams"] = True  # §10: recorded by the number of seats
    opening = start({
        "players": [{"id": a.id, "name": a.name, "army": list(a.cards)} for a in started.players],
        "variant": {**variant, "mode": "table"},
    })
    state = fold(opening)
    check_table_pools(state)
    recorded = list(opening)
    for n, (_, _, action) in enumerate(recorded_actions(events, table=True)):
        if isinstance(action, Draw) and not (named and n % 2):
            action = Draw(player=action.player)  # the scorekeeper does not see drawn cards
        for event in decide(state, action):
            state = evolve(state, event)
            recorded.append(event)
        check_table_pools(state)
    sealed = fold(events)
    assert state.board == sealed.board and state.kills == sealed.kills
    assert (state.winner, state.end_reason) == (sealed.winner, sealed.end_reason)
    assert state.hand_counts == sealed.hand_counts and state.deck_counts == sealed.deck_counts
    assert fold(recorded) == state  # fold equals the evolve loop (two seats: its copy-on-write paths) for table games


def play(game: tuple[int, str, str, dict[str, Any], tuple[str, str]]) -> list[Any]:
    seed, a, b, variant, bots = game
    return play_bot_game(seed, (a, b), variant, bots)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(games)
def test_properties_bot_games_hold_the_invariants(game):
    events = play(game)
    check_game(events)
    if game[0] % 4 == 0:
        check_legal_actions(events)
    if game[0] % 3 == 0:
        check_table_replay(events, named=game[0] % 2 == 0)


def test_properties_bot_games_are_reproducible():
    assert play_bot_game(5, ("orcs", "elves"), {"intermediate": True}, ("random", "greedy")) == \
        play_bot_game(5, ("orcs", "elves"), {"intermediate": True}, ("random", "greedy"))


@pytest.mark.slow
@pytest.mark.parametrize("pairing", [(a, b) for a in FACTIONS for b in FACTIONS], ids=lambda p: f"{p[0]}-{p[1]}")
def test_properties_slow_every_pairing_and_variant(pairing):
    a, b = pairing

    @settings(max_examples=28, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True,
              database=None)
    @given(st.integers(min_value=0, max_value=2**63 - 1), st.sampled_from(VARIANTS), st.sampled_from(BOTS))
    def run(seed, variant, bots):
        events = play_bot_game(seed, (a, b), variant, bots)
        check_game(events)
        check_table_replay(events)
        if seed % 5 == 0:
            check_legal_actions(events)

    run()
