"""Sample games for a new database (make run)."""

from __future__ import annotations

from api.samples import FIXTURE_GAMES, load_samples
from replay.log.service import GameService
from replay.store.memory_store import MemoryEventStore


def test_samples_load_fixture_and_demo_games_into_an_empty_store_once():
    service = GameService(MemoryEventStore())
    fixtures = len(list(FIXTURE_GAMES.glob("*.jsonl")))
    assert fixtures >= 1
    assert load_samples(service, demo_games=2) == fixtures + 2
    games = service.store.list_games(limit=100).games
    assert len(games) == fixtures + 2
    assert load_samples(service, demo_games=2) == 0  # not an empty store any more
    assert len(service.store.list_games(limit=100).games) == fixtures + 2
