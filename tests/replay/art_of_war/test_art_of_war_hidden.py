"""R7 (shared rules/art-of-war.md §9): at a table, the id a revealed card gets does not depend on which cards of its
type are still hidden. Twin games (tests/replay/art_of_war/twins.py) differ only in p1's hidden cards and in the
copies its player names; everything p2 and a spectator get of them (the state after every event, the events, the
explanations and the text record, as tests/conformance's view check reads them) is the same, while p1 and ``all``
do see the difference."""

from __future__ import annotations

from typing import Any

import pytest

from engine.art_of_war import SYSTEM
from tests.conformance.test_replay_conformance import _seen
from tests.replay.art_of_war.twins import PAIRS, twin


def played(setup: dict[str, Any], actions: list[dict[str, Any]]) -> list[Any]:
    events = list(SYSTEM.start(setup))
    state = SYSTEM.fold(events)
    for action in actions:
        produced = SYSTEM.decide(state, SYSTEM.parse_action(action))
        events += produced
        state = SYSTEM.fold(produced, state)
    return events


@pytest.mark.parametrize("pair", sorted(PAIRS))
def test_r7_twin_table_games_differing_only_in_hidden_cards_look_the_same_to_the_other_seat_and_spectators(
    pair: str,
) -> None:
    a, b = (played(*twin(pair, which)) for which in ("a", "b"))
    for view in ("spectator", "p2"):
        assert _seen("art-of-war", SYSTEM, a, view) == _seen("art-of-war", SYSTEM, b, view), view
    for view in ("all", "p1"):  # the twins do differ, where one may look
        assert _seen("art-of-war", SYSTEM, a, view) != _seen("art-of-war", SYSTEM, b, view), view
