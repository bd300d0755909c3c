"""Art of War's built-in data ships in its package (issue 29 item 1): the engine reads nothing of the checkout."""

from __future__ import annotations

import json
from pathlib import Path

from engine.art_of_war.catalogue import CARDS, DECKS
from tests.engine.outside_checkout import ROOT, run_outside_checkout

DATA = ROOT / "engine" / "art_of_war" / "data" / "cards.json"


def test_art_of_war_cards_and_decks_are_read_from_the_package_without_a_checkout(tmp_path: Path) -> None:
    shown = run_outside_checkout(tmp_path, (
        "import engine.art_of_war\n"
        "from engine.art_of_war.catalogue import CARDS, DECKS\n"
        "print(sorted(CARDS), sorted(DECKS))\n"))
    assert shown.strip() == f"{sorted(CARDS)} {sorted(DECKS)}"


def test_art_of_war_catalogue_is_its_package_data() -> None:
    raw = json.loads(DATA.read_text(encoding="utf-8"))
    assert set(CARDS) == set(raw["basic"]) | set(raw["kings"])
    assert set(DECKS) == set(raw["decks"])
    assert not (ROOT / "fixtures" / "art_of_war" / "cards.json").exists()  # fixtures/ keeps test data only
