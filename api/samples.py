"""Sample games for a new database (``warlog serve --load-samples``, used by ``make run``)."""

from __future__ import annotations

import sys
from pathlib import Path

from engine.play import play
from engine.systems import DEFAULT_SYSTEM, get_system, system_names
from replay.archive.games import import_text, store_events
from replay.log.demo import demo_setup, lineups
from replay.log.service import GameService

FIXTURE_GAMES = Path(__file__).resolve().parent.parent / "fixtures" / "games"
SAMPLE_DEMO_GAMES = 12  # bot games of the default system (engine.systems.DEFAULT_SYSTEM)
SAMPLE_OTHER_GAMES = 4  # bot games of every other registered system


def load_samples(service: GameService, demo_games: int = SAMPLE_DEMO_GAMES,
                 other_games: int = SAMPLE_OTHER_GAMES) -> int:
    """Into an empty store only: the fixture games (re-decided through the rules), then bot games: ``demo_games``
    of the default system and ``other_games`` of each other one, so every system has games to replay and
    statistics to show. Returns the count."""
    if service.store.list_games(limit=1).games:
        return 0
    added = 0
    for path in sorted(FIXTURE_GAMES.glob("*.jsonl")):
        import_text(service, path.read_text(encoding="utf-8"), name=path.name)
        added += 1
    for name in system_names():
        count = demo_games if name == DEFAULT_SYSTEM else other_games
        added += _bot_games(service, name, count, seed=2026)
    print(f"warlog: loaded {added} sample games", file=sys.stderr, flush=True)
    return added


def _bot_games(service: GameService, name: str, count: int, seed: int) -> int:
    """``count`` bot games of ``name``, as ``warlog demo`` sets them up (``demo_setup``, the bots' ``lineups`` in
    turn), played in memory and stored each in one atomic write (``store_events``): a new server starts in seconds
    instead of committing every action on its own."""
    system = get_system(name)
    for index in range(count):
        setup = demo_setup(index, seed, name)
        table = lineups(system, len(system.seats(setup)))
        played = play(system, setup, table[index % len(table)])
        store_events(service, name, played.events, service.new_game_id(), metadata={"source": "demo"})
    return count
