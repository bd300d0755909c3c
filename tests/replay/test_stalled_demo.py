"""``warlog demo``'s bot games (``replay.log.demo.record_bot_game``) end a game its system calls stalled (the optional
``engine.system.Stalling``) as a draw, by the scorekeeper's ``adjudicate`` with reason ``stalled`` (issue 28), as
``engine.play.play`` does; a system without the capability plays to its rules' end."""

from __future__ import annotations

from warlog_pebbles.rules import PEBBLES

from engine.adjudication import SCOREKEEPER, Adjudicate
from replay.log.demo import record_bot_game
from replay.log.service import GameService
from replay.log.verify import verify_game
from replay.store.memory_store import MemoryEventStore
from tests.engine.test_adjudication import STALLS


def test_a_stalled_demo_game_ends_as_an_adjudicated_draw() -> None:
    system = STALLS
    service = GameService(MemoryEventStore(), system_lookup=lambda name: system)
    game = record_bot_game(service, PEBBLES.sample_setup(0, 3), bots=("greedy",))
    assert game.outcome.is_draw and game.outcome.adjudication == "stalled"
    events = [r.event for r in service.events(game.game_id)]
    last = system.recorded_actions(events)[-1]
    assert last.seat == SCOREKEEPER and last.action == Adjudicate(reason="stalled", placings=(("p1", "p2", "p3"),))
    assert service.store.get_game(game.game_id).metadata["adjudication"] == "stalled"
    assert verify_game(service, game.game_id) == []


def test_a_demo_game_of_a_system_without_stalling_ends_by_its_rules() -> None:
    service = GameService(MemoryEventStore(), system_lookup=lambda name: PEBBLES)
    game = record_bot_game(service, PEBBLES.sample_setup(0, 3), bots=("greedy",))
    assert game.outcome.reason == "heap_empty" and game.outcome.adjudication is None
