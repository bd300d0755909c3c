"""The sample data (R1): the map, the unit types, the tactic tiles and the named armies.

The data ships inside the package (``data/catalogue.json``: our sample data, its SOURCE.md beside it) and is read once
at import time with ``importlib.resources``, so an installed wheel reads it as a checkout does; nothing else in the
engine reads data.
"""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any

import msgspec

DATA = files(__package__) / "data"

MAX_UNITS = 10  # §2.2
SIZES: dict[str, tuple[int, int]] = {"small": (20, 5), "medium": (30, 8), "large": (40, 12)}  # §2.1
MAX_TOTAL_COST = 200  # a custom scenario's bounds (ours: the text sets none)
MAX_TURNS = 30


class UnitType(msgspec.Struct, frozen=True, kw_only=True):
    id: str  # "infantry"
    name: str  # "Infantry"
    letter: str  # "I": unit ids are the letter and a number ("I2"); the King is "K"
    cost: int
    move: int
    attack: int
    skill: str | None  # "shoot" | "first_strike" | None

    @property
    def shoots(self) -> bool:
        return self.skill == "shoot"

    @property
    def first_strike(self) -> bool:
        return self.skill == "first_strike"

    @property
    def is_king(self) -> bool:
        return self.id == "king"


class Tactic(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    cost: int
    effect: str  # "move" | "attack_total" | "shooting"
    value: int
    text: str


class SampleArmy(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    units: tuple[str, ...]
    tactics: tuple[str, ...]


def _load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / "catalogue.json").read_text(encoding="utf-8"))
    return data


_DATA = _load()
WIDTH: int = _DATA["map"]["width"]
HEIGHT: int = _DATA["map"]["height"]
TERRITORY_ROWS: int = _DATA["map"]["territory_rows"]
BASES: int = _DATA["map"]["bases"]
UNIT_TYPES: dict[str, UnitType] = {key: UnitType(id=key, **value) for key, value in _DATA["units"].items()}
TACTICS: dict[str, Tactic] = {key: Tactic(id=key, **value) for key, value in _DATA["tactics"].items()}
ARMIES: dict[str, SampleArmy] = {
    key: SampleArmy(name=key, units=tuple(value["units"]), tactics=tuple(value["tactics"]))
    for key, value in _DATA["armies"].items()
}
LETTERS: dict[str, str] = {t.letter: t.id for t in UNIT_TYPES.values()}


def army_cost(units: tuple[str, ...], tactics: tuple[str, ...]) -> int:
    return sum(UNIT_TYPES[u].cost for u in units) + sum(TACTICS[t].cost for t in tactics)


__all__ = [
    "ARMIES", "BASES", "HEIGHT", "LETTERS", "MAX_TOTAL_COST", "MAX_TURNS", "MAX_UNITS", "SIZES", "TACTICS",
    "TERRITORY_ROWS", "UNIT_TYPES", "WIDTH", "SampleArmy", "Tactic", "UnitType", "army_cost",
]
