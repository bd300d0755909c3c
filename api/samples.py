"""Sample games for a new database (``warlog serve --load-samples``, used by ``make run``)."""

from __future__ import annotations

import sys
from pathlib import Path

from replay.log.demo import record_demo_games
from replay.log.service import GameService
from replay.records.record import import_text

FIXTURE_GAMES = Path(__file__).resolve().parent.parent / "fixtures" / "games"
SAMPLE_DEMO_GAMES = 12


def load_samples(service: GameService, demo_games: int = SAMPLE_DEMO_GAMES) -> int:
    """Into an empty store only: the fixture games (re-decided through the rules), then bot games. Returns the count."""
    if service.store.list_games(limit=1).games:
        return 0
    added = 0
    for path in sorted(FIXTURE_GAMES.glob("*.jsonl")):
        import_text(service, path.read_text(encoding="utf-8"), name=path.name)
        added += 1
    for _ in record_demo_games(service, demo_games, seed=2026):
        added += 1
    print(f"warlog: loaded {added} sample games", file=sys.stderr, flush=True)
    return added
