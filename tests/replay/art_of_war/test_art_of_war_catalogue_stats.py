"""Issue 30: a game on another Art of War catalogue projected for the statistics as ``warlog serve`` projects it:
its own KINGs are KINGs there (the statistics read the game's cards, not the built-in ones)."""

from __future__ import annotations

import json
from pathlib import Path

from replay.analytics.projections import attach
from replay.analytics.stats import Filters
from replay.art_of_war import analytics
from replay.log.service import GameService
from replay.store.duckdb_store import DuckDBEventStore

NORTHERN_REALMS = Path(__file__).parents[2] / "fixtures" / "art_of_war" / "catalogues" / "northern-realms.json"


def test_a_king_of_the_games_catalogue_captured_counts_as_a_king_removal() -> None:
    store = DuckDBEventStore(":memory:")
    projector = attach(store, background=False)
    service = GameService(store)
    setup = {"system": "art-of-war", "variant": {"mode": "table"}, "first": "p1",
             "catalogue": json.loads(NORTHERN_REALMS.read_text(encoding="utf-8")),
             "players": [{"id": "p1", "army": "glacier"}, {"id": "p2", "army": "shadow"}],
             "position": {"active": "p1", "turn": 3, "players": [
                 {"player": "p1", "hand": ["archer"], "deck": ["priest"], "field": [{"square": "B1",
                                                                                     "card": "frost-queen"}]},
                 {"player": "p2", "deck": ["priest"], "field": [{"square": "B1", "card": "shadow-king",
                                                                 "upright": False}]}]}}
    game_id = service.create_game(setup).game_id
    for action in ({"type": "entry", "card": "archer"}, {"type": "battle"},
                   {"type": "attack", "square": "B1", "target": "B1"}, {"type": "pass", "player": "p2"}):
        service.act(game_id, {"player": "p1", **action})
    assert service.state(game_id)[1].end_reason == "execution"
    projector.catch_up()
    reader = store.reader()
    try:
        removals = analytics.removals(reader, Filters(system="art-of-war")).rows
        assert [(r.unit_type, r.captured, r.destroyed) for r in removals] == [("king", 1, 0)]
    finally:
        reader.close()
        projector.close()
        store.close()
