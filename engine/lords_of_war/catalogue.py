"""The card catalogue: typed, frozen card definitions with per-owner precomputed arrows and target grids.

The data is the package's ``data/cards.json`` (copied with its ``about`` source note from the project's shared
data), read with ``importlib.resources`` so an installed wheel has it too. It is read once at import time; nothing
else in the engine reads data.
"""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any

import msgspec

from engine.lords_of_war.geometry import DIRECTION_STEPS, DIRECTIONS, delta, frame

CATALOGUE = files(__package__) / "data" / "cards.json"  # package data (pyproject: engine = ["*/data/*.json"])

RANK_COUNTS: dict[str, int] = {  # §2: per army
    "general": 1,
    "command": 5,
    "special": 4,
    "elite": 4,
    "veteran": 6,
    "regular": 8,
    "recruit": 8,
}
ARMY_SIZE = 36
COMMANDER_RANKS = frozenset({"general", "command"})
SUPPORT_CLASSES = frozenset({"spearman", "ranged"})  # §2


class Card(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    faction: str
    rank: str
    cls: str  # infantry | cavalry | spearman | ranged | berserker
    defence: int
    attacks: tuple[tuple[str, int], ...]  # (direction, value) in the owner's frame, direction order
    ranged_value: int
    grid: tuple[tuple[int, int], ...]  # owner's frame, dy > 0 forward
    quantity: int
    # precomputed per owner (index 0 = p1, 1 = p2):
    arrows: tuple[tuple[tuple[int, int, str], ...], ...]  # (board delta, value, direction)
    points: tuple[dict[int, int], ...]  # board delta -> value (what the unit points at)
    grid_deltas: tuple[frozenset[int], ...]

    @property
    def is_support(self) -> bool:
        return self.cls in SUPPORT_CLASSES

    @property
    def is_commander(self) -> bool:
        return self.rank in COMMANDER_RANKS

    @property
    def is_ranged(self) -> bool:
        return self.ranged_value > 0 and bool(self.grid)


def _card(faction: str, raw: dict[str, Any]) -> Card:
    attacks = tuple((d, int(raw["attacks"][d])) for d in DIRECTIONS if int(raw["attacks"].get(d, 0)) > 0)
    ranged = raw.get("ranged") or {}
    grid = tuple((int(dx), int(dy)) for dx, dy in ranged.get("grid", ()))
    arrows = tuple(
        tuple((delta(*frame(*DIRECTION_STEPS[d], owner)), v, d) for d, v in attacks) for owner in (0, 1)
    )
    return Card(
        id=raw["id"],
        name=raw["name"],
        faction=faction,
        rank=raw["rank"],
        cls=raw["class"],
        defence=int(raw["defence"]),
        attacks=attacks,
        ranged_value=int(ranged.get("value", 0)),
        grid=grid,
        quantity=int(raw["quantity"]),
        arrows=arrows,
        points=tuple({d: v for d, v, _ in arrows[owner]} for owner in (0, 1)),
        grid_deltas=tuple(frozenset(delta(*frame(dx, dy, owner)) for dx, dy in grid) for owner in (0, 1)),
    )


def _load() -> tuple[dict[str, Card], dict[str, tuple[str, ...]], str]:
    raw = json.loads(CATALOGUE.read_text(encoding="utf-8"))
    cards: dict[str, Card] = {}
    decks: dict[str, tuple[str, ...]] = {}
    for faction, entries in raw["factions"].items():
        deck: list[str] = []
        for entry in entries:
            card = _card(faction, entry)
            cards[card.id] = card
            deck.extend([card.id] * card.quantity)
        decks[faction] = tuple(deck)
    return cards, decks, raw.get("about", "")


CARDS, CORE_DECKS, ABOUT = _load()
FACTIONS: tuple[str, ...] = tuple(CORE_DECKS)
