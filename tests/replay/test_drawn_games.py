"""Issue 28 item 9: a drawn game reads ``"winner": "draw"`` in every output: the state JSON of each system (every
view), the listing (``GET /games``' metadata), the text record's ``Result``, and the statistics' ``winner``. Each
system's game ends here in a draw its events allow (a ``game_ended`` without a winner, as its rules write one;
L5R's rules never draw, so its draw is adjudicated)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.systems import get_system
from events import Adjudication
from events.art_of_war import GameEnded as ArtOfWarEnded
from events.heroscape import GameEnded as HeroScapeEnded
from events.l5r import GameEnded as L5REnded
from events.light_wars import GameEnded as LightWarsEnded
from events.lords_of_war import GameEnded as LordsOfWarEnded
from replay.analytics.model import GameHeader, StreamEvent
from replay.analytics.projections import read_game
from replay.archive.games import export_record, store_events
from replay.log.service import GameService, outcome_metadata
from replay.log.views import state_view, views_of
from replay.store.memory_store import MemoryEventStore
from replay.systems import get_plugin

TWO = {"p1": 0, "p2": 0}
DRAWS: dict[str, Callable[[], Any]] = {
    "lords-of-war": lambda: LordsOfWarEnded(winner=None, reason="exhausted"),
    "art-of-war": lambda: ArtOfWarEnded(winner=None, reason="end_of_war", kingdoms=(2, 2), graveyards=(1, 1)),
    "light-wars": lambda: LightWarsEnded(reason="score", winner=None, scores=TWO, stock=TWO),
    "heroscape": lambda: HeroScapeEnded(reason="rounds", winner=None, points=TWO),
    "l5r": lambda: L5REnded(winner=None, reason="adjudicated", honor=(10, 10),
                            adjudication=Adjudication(reason="agreement", placings=(("p1", "p2"),))),
}


def _played(system: Any, actions: int) -> list[Any]:
    """A game's opening and ``actions`` random bot actions."""
    events = list(system.start(system.sample_setup(0, 3)))
    state = system.fold(events)
    bot = system.bots["random"](5)
    for _ in range(actions):
        produced = system.decide(state, bot.choose(state, system.to_act(state)[0]))
        events.extend(produced)
        state = system.fold(produced, state)
    return events


@pytest.mark.parametrize("name", sorted(DRAWS))
def test_item_9_a_drawn_game_reads_winner_draw_in_state_listing_record_and_statistics(name: str) -> None:
    system = get_system(name)
    events = _played(system, 4) + [DRAWS[name]()]  # the draw ends the game after its fourth action
    state = system.fold(events)
    outcome = system.outcome(state)
    assert outcome is not None and outcome.is_draw
    seats = [seat.id for seat in system.seats(system.recorded_setup(events))]
    for view in views_of(seats):
        assert state_view(name, state, view)["winner"] == "draw", view
    headline = get_plugin(name).terminal.headline(state_view(name, state, "all"))  # warlog replay's last line
    assert "draw" in headline and "won" not in headline
    assert outcome_metadata(system, state, len(events))["winner"] == "draw"
    service = GameService(MemoryEventStore())
    game_id = store_events(service, name, events, "drawn")
    assert service.store.get_game(game_id).metadata["winner"] == "draw"
    record = export_record(service, game_id)
    assert '[Result "1/2-1/2"]' in record and record.rstrip().splitlines()[-1] == "1/2-1/2"
    stream = [StreamEvent(seq, "2026-01-01T00:00:00Z", event) for seq, event in enumerate(events, 1)]
    facts = read_game(GameHeader(game_id="drawn", system=name, created_at="2026-01-01T00:00:00Z"), stream, system)
    assert facts.winner == "draw" and {s.result for s in facts.seats} == {"draw"}
