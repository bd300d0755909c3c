"""HeroScape sample army cards: ``fixtures/heroscape/armies.json`` (our sample data, fixtures/heroscape/SOURCE.md).

A card (§1): name, kind (hero or squad), figures, life (squads: 1), move, range, attack, defense, height, points,
space (1 single, 2 double), powers. An army is a list of card keys.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.errors import SetupError

ARMIES_PATH = Path(__file__).resolve().parents[2] / "fixtures" / "heroscape" / "armies.json"
NUMBERS = ("figures", "life", "move", "range", "attack", "defense", "height", "points")


@dataclass(frozen=True, slots=True)
class SpecialAttack:
    """A special attack (§5, §7): its range and dice; ``extra`` besides the normal attack, ``area`` also strikes
    every figure around the target, ``once`` a game."""

    name: str
    range: int
    attack: int
    extra: bool = False
    area: bool = False
    once: bool = False


@dataclass(frozen=True, slots=True)
class Card:
    key: str
    name: str
    kind: str
    figures: int
    life: int
    move: int
    range: int
    attack: int
    defense: int
    height: int
    points: int
    space: int
    powers: tuple[str, ...]
    specials: tuple[SpecialAttack, ...] = ()


def _special(key: str, data: Any) -> SpecialAttack:
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise SetupError("bad_card", "§7", f"card {key}: a special attack is {{name, range, attack, extra?, area?, "
                         f"once?}}, not {data!r}")
    unknown = sorted(set(data) - {"name", "range", "attack", "extra", "area", "once"})
    if unknown:
        raise SetupError("bad_card", "§7", f"card {key}: unknown special attack field {unknown[0]!r}")
    for name in ("range", "attack"):
        if type(data.get(name)) is not int or data[name] < 1:
            raise SetupError("bad_card", "§7", f"card {key}: special {data['name']}: {name} is a whole number ≥ 1")
    flags = {name: data.get(name, False) for name in ("extra", "area", "once")}
    if not all(isinstance(v, bool) for v in flags.values()):
        raise SetupError("bad_card", "§7", f"card {key}: special {data['name']}: extra, area and once are true/false")
    return SpecialAttack(data["name"], data["range"], data["attack"], **flags)


def parse_card(key: str, data: Mapping[str, Any]) -> Card:
    """A card from its JSON form; a malformed card is a ``SetupError`` citing §1."""
    if data.get("kind") not in ("hero", "squad"):
        raise SetupError("bad_card", "§1", f"card {key}: kind is hero or squad, not {data.get('kind')!r}")
    for name in NUMBERS:
        value = data.get(name)
        if type(value) is not int or value < (0 if name in ("attack", "defense", "points") else 1):
            raise SetupError("bad_card", "§1", f"card {key}: {name} must be a whole number, not {value!r}")
    if data["kind"] == "squad" and data["life"] != 1:
        raise SetupError("bad_card", "§1", f"card {key}: squad figures have life 1")
    if data.get("space", 1) not in (1, 2):
        raise SetupError("bad_card", "§1", f"card {key}: space is 1 (single) or 2 (double)")
    powers = data.get("powers", [])
    if not (isinstance(powers, list) and all(isinstance(p, str) for p in powers)):
        raise SetupError("bad_card", "§1", f"card {key}: powers is a list of names")
    specials = data.get("specials", [])
    if not isinstance(specials, list):
        raise SetupError("bad_card", "§7", f"card {key}: specials is a list")
    n = {name: int(data[name]) for name in NUMBERS}
    return Card(
        key=key,
        name=str(data.get("name", key)),
        kind=str(data["kind"]),
        figures=n["figures"],
        life=n["life"],
        move=n["move"],
        range=n["range"],
        attack=n["attack"],
        defense=n["defense"],
        height=n["height"],
        points=n["points"],
        space=int(data.get("space", 1)),
        powers=tuple(powers),
        specials=tuple(_special(key, sp) for sp in specials),
    )


def load_cards(path: Path = ARMIES_PATH) -> tuple[dict[str, Card], dict[str, tuple[str, ...]]]:
    """The sample cards by key and the sample armies (army key -> card keys)."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    cards = {key: parse_card(key, value) for key, value in raw["cards"].items()}
    armies: dict[str, tuple[str, ...]] = {}
    for key, army in raw["armies"].items():
        missing = [c for c in army["cards"] if c not in cards]
        if missing:
            raise SetupError("bad_army", "§1", f"army {key} names unknown cards {missing}")
        armies[key] = tuple(army["cards"])
    return cards, armies
