"""Sample games for a new database (make run)."""

from __future__ import annotations

from collections import Counter

from api.samples import FIXTURE_GAMES, load_samples
from engine.systems import system_names
from replay.log.service import GameService
from replay.store.memory_store import MemoryEventStore
from tests.plugins.installed import pebbles_registered


def test_samples_load_fixture_and_demo_games_into_an_empty_store_once():
    service = GameService(MemoryEventStore())
    fixtures = len(list(FIXTURE_GAMES.glob("*.jsonl")))
    others = len(system_names()) - 1  # every registered system but the first gets its own bot games
    assert fixtures >= 1
    assert load_samples(service, demo_games=2, other_games=1) == fixtures + 2 + others
    games = service.store.list_games(limit=100).games
    assert len(games) == fixtures + 2 + others
    assert load_samples(service, demo_games=2, other_games=1) == 0  # not an empty store any more
    assert len(service.store.list_games(limit=100).games) == fixtures + 2 + others


def test_samples_have_bot_games_of_every_registered_system():
    built_in = system_names()
    with pebbles_registered():
        service = GameService(MemoryEventStore())
        fixtures = len(list(FIXTURE_GAMES.glob("*.jsonl")))
        others = [name for name in (*built_in, "pebbles") if name != "lords-of-war"]
        assert load_samples(service, demo_games=3, other_games=2) == fixtures + 3 + 2 * len(others)
        systems = Counter(g.system for g in service.store.list_games(limit=100).games)
    assert systems == {"lords-of-war": fixtures + 3, **{name: 2 for name in others}}
