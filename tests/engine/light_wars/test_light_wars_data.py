"""Light Wars' built-in data ships in its package (issue 29 item 1): the engine reads nothing of the checkout."""

from __future__ import annotations

import json
from pathlib import Path

from engine.light_wars.catalogue import ARMIES, TACTICS, UNIT_TYPES
from tests.engine.outside_checkout import ROOT, run_outside_checkout

DATA = ROOT / "engine" / "light_wars" / "data" / "catalogue.json"


def test_light_wars_catalogue_is_read_from_the_package_without_a_checkout(tmp_path: Path) -> None:
    shown = run_outside_checkout(tmp_path, (
        "import engine.light_wars\n"
        "from engine.light_wars.catalogue import ARMIES, TACTICS, UNIT_TYPES\n"
        "print(sorted(UNIT_TYPES), sorted(TACTICS), sorted(ARMIES))\n"))
    assert shown.strip() == f"{sorted(UNIT_TYPES)} {sorted(TACTICS)} {sorted(ARMIES)}"


def test_light_wars_catalogue_is_its_package_data() -> None:
    raw = json.loads(DATA.read_text(encoding="utf-8"))
    assert (set(UNIT_TYPES), set(TACTICS), set(ARMIES)) == (set(raw["units"]), set(raw["tactics"]), set(raw["armies"]))
    assert not (ROOT / "fixtures" / "light_wars" / "catalogue.json").exists()  # fixtures/ keeps test data only
