"""Issue 30: ``verify`` (and ``import``) tell a catalogue changed under a game, in a sentence."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec

from engine.catalogue import catalogue_id
from engine.lords_of_war.bots import play_bot_game
from replay.archive.games import store_events
from replay.log.service import GameService
from replay.log.verify import verify_game
from replay.store.duckdb_store import DuckDBEventStore
from tests.api.records_helpers import warlog

BORDER_MARCHES = Path(__file__).parents[2] / "fixtures" / "lords_of_war" / "catalogues" / "border-marches.json"


def border_marches() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(BORDER_MARCHES.read_text(encoding="utf-8"))
    return document


def tampered_game() -> tuple[list[Any], str]:
    """A bot game on Border Marches whose embedded catalogue was changed afterwards (a card's defence), and the
    id the game recorded."""
    events = play_bot_game(5, armies=("fenlings", "stonewardens"), catalogue=border_marches())
    started = events[0]
    changed = json.loads(json.dumps(started.catalogue))
    changed["cards"][0]["defence"] += 1
    return [msgspec.structs.replace(started, catalogue=changed), *events[1:]], started.catalogue_id


def test_verify_says_the_catalogue_under_a_game_changed(tmp_path: Path) -> None:
    events, identity = tampered_game()
    db = tmp_path / "games.duckdb"
    store = DuckDBEventStore(db)
    try:
        store_events(GameService(store), "lords-of-war", events, "g1")  # the chain is made over the changed event
        (first, *_) = verify_game(GameService(store), "g1")
    finally:
        store.close()
    assert first.kind == "catalogue"
    actual = catalogue_id(events[0].catalogue)
    sentence = (f"the catalogue under this game changed: game_started names catalogue {identity}, but the document "
                f"it carries is {actual}, so its cards are not the ones the game was played with")
    assert first.message == sentence
    checked = warlog("verify", "--db", str(db))
    assert checked.returncode == 1
    assert f"g1 seq 1: catalogue: {sentence}" in checked.stdout


def test_import_refuses_a_record_whose_catalogue_changed(tmp_path: Path) -> None:
    from replay.lords_of_war.notation import export

    events = play_bot_game(6, armies=("stonewardens", "fenlings"), catalogue=border_marches())
    text = export(events)
    start = text.index('[CatalogueJSON "') + len('[CatalogueJSON "')
    carried = json.loads(text[start:text.index('"]\n', start)].replace('\\"', '"'))
    carried["cards"][1]["name"] = "Someone Else"
    changed = json.dumps(carried, separators=(",", ":"), sort_keys=True).replace('"', '\\"')
    path = tmp_path / "game.txt"
    path.write_text(text[:start] + changed + text[text.index('"]\n', start):], encoding="utf-8")
    imported = warlog("import", str(path), "--db", str(tmp_path / "empty.duckdb"))
    assert imported.returncode == 1
    assert "the catalogue under this game changed: the record names" in imported.stderr + imported.stdout
