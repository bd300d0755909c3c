"""The card catalogue: typed, frozen card definitions with per-owner precomputed arrows and target grids.

The data is the package's ``data/cards.json`` (copied with its ``about`` source note from the project's shared
data), read with ``importlib.resources`` so an installed wheel has it too. It is read once at import time, as the
default catalogue (issue 30: ``default_document``), and the engine's cards are that catalogue's (``card_table``);
nothing else in the engine reads data.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from functools import lru_cache
from importlib.resources import files
from typing import Any

import msgspec

from engine.catalogue import JSON_SCHEMA_DIALECT, CatalogueProblem, CatalogueRules, canonical, catalogue_id, child
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


# -- the catalogue document (issue 30: engine.system.Catalogues) --------------------------------------------------
#
# A Lords of War catalogue: its cards (each with its faction) and its armies (a name and the count of each card),
# the shape of ``SCHEMA``. The built-in data is the default catalogue: the six core decks, an army per faction.

CLASSES = ("infantry", "cavalry", "spearman", "ranged", "berserker")  # §2
MAX_CARDS = 1000
MAX_ARMIES = 200
_ID = r"^[a-z0-9][a-z0-9_/-]{0,63}$"
_NAME = r"^[a-z0-9][a-z0-9_-]{0,31}$"
_VALUE = {"type": "integer", "minimum": 1, "maximum": 99}
_OFFSET = {"type": "integer", "minimum": -6, "maximum": 6}

SCHEMA: dict[str, Any] = {
    "$schema": JSON_SCHEMA_DIALECT,
    "$id": "https://warlog.example/schemas/lords-of-war/catalogue",
    "title": "Lords of War catalogue",
    "description": "Cards (§2) and the armies made of them (§2, §9). A card's directions and target grid are in its "
                   "owner's frame (N and dy > 0: away from the owner).",
    "type": "object",
    "required": ["system", "name", "version", "cards", "armies"],
    "additionalProperties": False,
    "properties": {
        "system": {"const": "lords-of-war"},
        "name": {"type": "string", "minLength": 1, "maxLength": 80, "description": "a label, not the identity"},
        "version": {"type": "string", "minLength": 1, "maxLength": 40, "description": "a label"},
        "about": {"type": "string", "maxLength": 2000, "description": "where the data comes from"},
        "cards": {"type": "array", "minItems": 1, "maxItems": MAX_CARDS, "items": {"$ref": "#/$defs/card"}},
        "armies": {"type": "array", "minItems": 1, "maxItems": MAX_ARMIES, "items": {"$ref": "#/$defs/army"}},
    },
    "$defs": {
        "card": {
            "type": "object",
            "required": ["id", "name", "faction", "rank", "class", "defence", "attacks"],
            "additionalProperties": False,
            "properties": {
                "id": {"type": "string", "pattern": _ID, "description": "unique in the catalogue: orcs/orc-warhog-1"},
                "name": {"type": "string", "minLength": 1, "maxLength": 60},
                "faction": {"type": "string", "pattern": _NAME},
                "rank": {"enum": list(RANK_COUNTS)},
                "class": {"enum": list(CLASSES)},
                "defence": {"type": "integer", "minimum": 0, "maximum": 99},
                "attacks": {
                    "type": "object",
                    "description": "the value of each arrow, by direction in the owner's frame",
                    "propertyNames": {"enum": list(DIRECTIONS)},
                    "additionalProperties": _VALUE,
                },
                "ranged": {
                    "type": "object",
                    "description": "a ranged unit's value and target grid (§6): offsets (dx, dy), dy > 0 forward",
                    "required": ["value", "grid"],
                    "additionalProperties": False,
                    "properties": {
                        "value": _VALUE,
                        "grid": {"type": "array", "minItems": 1, "maxItems": 48, "items": {
                            "type": "array", "minItems": 2, "maxItems": 2, "prefixItems": [_OFFSET, _OFFSET]}},
                    },
                },
            },
        },
        "army": {
            "type": "object",
            "required": ["name", "cards"],
            "additionalProperties": False,
            "properties": {
                "name": {"type": "string", "pattern": _NAME, "description": "what a setup names: \"army\": \"orcs\""},
                "cards": {"type": "array", "minItems": 1, "maxItems": ARMY_SIZE, "items": {
                    "type": "object", "required": ["card", "count"], "additionalProperties": False,
                    "properties": {"card": {"type": "string", "pattern": _ID},
                                   "count": {"type": "integer", "minimum": 1, "maximum": ARMY_SIZE}}}},
            },
        },
    },
}


def default_document() -> dict[str, Any]:
    """The built-in data (``data/cards.json``) as a catalogue: every card, and each faction's core deck as an army."""
    raw = json.loads(CATALOGUE.read_text(encoding="utf-8"))
    cards: list[dict[str, Any]] = []
    armies: list[dict[str, Any]] = []
    for faction, entries in raw["factions"].items():
        army: list[dict[str, Any]] = []
        for entry in entries:
            card = {"id": entry["id"], "name": entry["name"], "faction": faction, "rank": entry["rank"],
                    "class": entry["class"], "defence": entry["defence"], "attacks": dict(entry["attacks"])}
            if entry.get("ranged"):
                card["ranged"] = {"value": entry["ranged"]["value"],
                                  "grid": [list(offset) for offset in entry["ranged"]["grid"]]}
            cards.append(card)
            army.append({"card": entry["id"], "count": entry["quantity"]})
        armies.append({"name": faction, "cards": army})
    return {"system": "lords-of-war", "name": "Lords of War core decks", "version": "1",
            "about": raw.get("about", ""), "cards": cards, "armies": armies}


def rule_problems(document: dict[str, Any]) -> Iterator[CatalogueProblem]:
    """Every rule a catalogue of ``SCHEMA``'s shape cannot be played by: ids and army names unique, every card an
    army counts in the catalogue, a ranged unit with a value and grid that can reach a square (§6), and every army
    one that can be dealt and played: 36 cards with the rank counts of §2 and exactly one general (§3, §9)."""
    ids: dict[str, int] = {}
    for i, card in enumerate(document["cards"]):
        path = child(child("cards", i), "id")
        if card["id"] in ids:
            yield CatalogueProblem(path, f"card id {card['id']!r} is already cards[{ids[card['id']]}]'s")
        ids.setdefault(card["id"], i)
        ranged = card.get("ranged")
        if card["class"] == "ranged" and ranged is None:
            yield CatalogueProblem(child(child("cards", i), "ranged"),
                                   f"{card['name']} is a ranged unit: it needs a ranged value and a target grid", "§6")
        if ranged is not None:
            grid = [tuple(offset) for offset in ranged["grid"]]
            where = child(child(child("cards", i), "ranged"), "grid")
            if (0, 0) in grid:
                yield CatalogueProblem(where, f"{card['name']} cannot shoot its own square (0, 0)", "§6")
            if len(set(grid)) != len(grid):
                yield CatalogueProblem(where, f"{card['name']}'s target grid names a square twice", "§6")
    names: dict[str, int] = {}
    for a, army in enumerate(document["armies"]):
        path = child("armies", a)
        if army["name"] in names:
            yield CatalogueProblem(child(path, "name"),
                                   f"army {army['name']!r} is already armies[{names[army['name']]}]'s name")
        names.setdefault(army["name"], a)
        yield from _army_problems(document["cards"], ids, army, path)


def _army_problems(cards: list[dict[str, Any]], ids: dict[str, int], army: dict[str, Any],
                   path: str) -> Iterator[CatalogueProblem]:
    ranks: Counter[str] = Counter()
    seen: set[str] = set()
    for e, entry in enumerate(army["cards"]):
        where = child(child(path, "cards"), e)
        if entry["card"] not in ids:
            yield CatalogueProblem(child(where, "card"), f"{entry['card']!r} is not a card of this catalogue")
            continue
        if entry["card"] in seen:
            yield CatalogueProblem(child(where, "card"), f"{entry['card']!r} is listed twice in army {army['name']!r}")
        seen.add(entry["card"])
        ranks[cards[ids[entry["card"]]]["rank"]] += entry["count"]
    name = army["name"]
    size = sum(ranks.values())
    if size != ARMY_SIZE:
        yield CatalogueProblem(child(path, "cards"), f"army {name!r} has {size} cards; an army has {ARMY_SIZE}", "§2")
    if ranks["general"] != 1:
        yield CatalogueProblem(
            child(path, "cards"),
            f"army {name!r} has {ranks['general']} generals: each player takes the army's one general into the hand "
            "and is dealt 5 more cards, so its deck cannot be dealt", "§3")
    wrong = [f"{rank} {ranks[rank]} instead of {n}" for rank, n in RANK_COUNTS.items()
             if rank != "general" and ranks[rank] != n]
    if wrong:
        yield CatalogueProblem(child(path, "cards"), f"army {name!r} has the wrong rank counts: {'; '.join(wrong)}",
                               "§2")


def army_names(document: dict[str, Any]) -> tuple[str, ...]:
    """The armies a setup may name (``"army": "fenlings"``), in the document's order."""
    return tuple(army["name"] for army in document["armies"])


CATALOGUES = CatalogueRules(SCHEMA, default_document, rule_problems, army_names)


# -- the card table of a catalogue ------------------------------------------------------------------------------


def _card(faction: str, raw: dict[str, Any], quantity: int) -> Card:
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
        quantity=quantity,
        arrows=arrows,
        points=tuple({d: v for d, v, _ in arrows[owner]} for owner in (0, 1)),
        grid_deltas=tuple(frozenset(delta(*frame(dx, dy, owner)) for dx, dy in grid) for owner in (0, 1)),
    )


class CardTable(msgspec.Struct, frozen=True):
    """The cards of one catalogue as the rules read them (issue 30): every card, every army, and the elimination's
    lookup tables. A game's state holds its table (``engine.lords_of_war.state.cards_of``), None for the default
    (``DEFAULT_TABLE``); one table is shared by every state of a game (never copied), and built once per document
    (``table_for``)."""

    id: str  # the catalogue's content id (engine.catalogue.catalogue_id)
    cards: dict[str, Card]
    armies: dict[str, tuple[str, ...]]  # army name -> its card ids, a card as many times as the army counts it
    arrow_at: dict[str, tuple[dict[int, tuple[int, str]], ...]]  # per card and owner: board delta -> (value, dir)
    defence: dict[str, int]
    generals: frozenset[str]
    commanders: frozenset[str]  # §7: the general and command cards

    def __post_init__(self) -> None:  # msgspec runs it on decoding too (a state's snapshot)
        _SEEN[self.id] = self
        while len(_SEEN) > MAX_SEEN:
            del _SEEN[next(iter(_SEEN))]

    @property
    def factions(self) -> tuple[str, ...]:
        """The armies' names, in the catalogue's order."""
        return tuple(self.armies)


# The tables this process has built or decoded, by catalogue id (oldest dropped first): what a reader holding only
# a state's JSON (its ``catalogue`` id; ``replay.lords_of_war.terminal``) finds the game's cards by.
_SEEN: dict[str, CardTable] = {}
MAX_SEEN = 64


def seen_table(identity: str | None) -> CardTable | None:
    """The table of catalogue ``identity`` if this process has met it (None: the default's id or None given)."""
    if identity is None:
        return DEFAULT_TABLE
    return _SEEN.get(identity)


def card_table(document: dict[str, Any]) -> tuple[dict[str, Card], dict[str, tuple[str, ...]]]:
    """A playable catalogue's cards (typed, with per-owner arrows and grids; ``quantity``: its copies in all the
    catalogue's armies) and armies (each its card ids, a card as many times as the army counts it, in the
    document's order: the order a sealed shuffle starts from)."""
    armies = {army["name"]: tuple(entry["card"] for entry in army["cards"] for _ in range(entry["count"]))
              for army in document["armies"]}
    copies = Counter(card for deck in armies.values() for card in deck)
    cards = {raw["id"]: _card(raw["faction"], raw, copies[raw["id"]]) for raw in document["cards"]}
    return cards, armies


def table_of(document: dict[str, Any]) -> CardTable:
    """The ``CardTable`` of a playable catalogue document."""
    cards, armies = card_table(document)
    return CardTable(
        id=catalogue_id(document),
        cards=cards,
        armies=armies,
        arrow_at={card_id: tuple({d: (value, direction) for d, value, direction in arrows} for arrows in card.arrows)
                  for card_id, card in cards.items()},
        defence={card_id: card.defence for card_id, card in cards.items()},
        generals=frozenset(card_id for card_id, card in cards.items() if card.rank == "general"),
        commanders=frozenset(card_id for card_id, card in cards.items() if card.rank in COMMANDER_RANKS),
    )


@lru_cache(maxsize=32)
def _table_of_canonical(text: bytes) -> CardTable:
    return table_of(json.loads(text))


def table_for(document: dict[str, Any]) -> CardTable:
    """``table_of``, built once per document content (a game's every fold meets its game_started again)."""
    return _table_of_canonical(canonical(document))


_DEFAULT = default_document()
DEFAULT_TABLE = table_of(_DEFAULT)
DEFAULT_ID = DEFAULT_TABLE.id
# The default catalogue's cards and armies: what the API's setup schema lists and old tests read. The rules, bots,
# notation and views read a game's cards through ``state.cards_of`` instead.
CARDS, CORE_DECKS = DEFAULT_TABLE.cards, DEFAULT_TABLE.armies
ABOUT: str = _DEFAULT["about"]
FACTIONS: tuple[str, ...] = tuple(CORE_DECKS)
