"""The catalogue: the cards (the digest's five basic units; the KINGs and decks of a catalogue, issue 30:
``engine.system.Catalogues``, the document's ``SCHEMA``) and the battlefield's geometry.

The built-in data is the package's ``data/cards.json`` (its SOURCE.md: the basic units are the digest's, the KINGs
and decks our sample data), read once at import time with ``importlib.resources`` (an installed wheel reads it as a
checkout does). Its KINGs and decks are the default catalogue (``default_document``), and the built-in cards are that
document's (``card_table``). A game on another catalogue carries the document in its ``game_started``; its state
holds the document's ``CardBook`` (``State.catalogue``), and the rules, bots and views read a card through
``cards_of(state)``."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from importlib.resources import files
from typing import Any

import msgspec

from engine import catalogue
from engine.catalogue import CatalogueProblem, CatalogueRules, child, document_schema, repeated

DATA = files(__package__) / "data"
BASIC_TYPES = ("soldier", "archer", "priest", "guardian", "wizard")
SQUARES = ("A1", "B1", "C1", "A2", "B2", "C2")  # a player's own: row 1 front, row 2 back
DECK_SIZE = 20
HAND_LIMIT = None  # the digest sets none
STANDBY_LIMIT = 5


class CardType(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    attack: int | None  # None: X (SOLDIER: cards in hand when the attack is declared)
    defence: tuple[int, int]  # upright, sideways
    range: tuple[tuple[int, int], ...]  # offsets toward the opponent (dx, dy)
    king: bool = False


class SampleDeck(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    king: str
    cards: tuple[str, ...]


# -- the catalogue document (issue 30: engine.system.Catalogues) --------------------------------------------------
#
# An Art of War catalogue: its KINGs (each its own attack, defence and range, §1) and its decks (a KING and the count
# of each of the five basic types, 20 in all), the shape of ``SCHEMA``. The five basic units are the rules' (§1, R1):
# a catalogue does not change them. The built-in data is the default catalogue: our four KINGs and four decks.

MAX_KINGS = 200
MAX_DECKS = 200
_ID = r"^[a-z0-9][a-z0-9_-]{0,63}$"  # no dot: a card instance is <seat>.<card id>.<copy>
_NAME = r"^[a-z0-9][a-z0-9_-]{0,31}$"
_DEFENCE = {"type": "integer", "minimum": 1, "maximum": 99}
_COUNT = {"type": "integer", "minimum": 0, "maximum": DECK_SIZE}

SCHEMA: dict[str, Any] = document_schema(
    "art-of-war", "Art of War catalogue",
    "KING cards (§1) and the decks made of a KING and 20 basic units (§1). The five basic units are the rules' and "
    "are not part of a catalogue. A range's offsets (dx, dy) point toward the opponent (§2, R1).",
    {"kings": ("king", MAX_KINGS), "decks": ("deck", MAX_DECKS)},
    {
        "king": {
            "type": "object",
            "required": ["id", "name", "attack", "defence", "range"],
            "additionalProperties": False,
            "properties": {
                "id": {"type": "string", "pattern": _ID, "description": "unique in the catalogue: iron-king"},
                "name": {"type": "string", "minLength": 1, "maxLength": 60},
                "attack": {"type": "integer", "minimum": 0, "maximum": 99},
                "defence": {"type": "array", "minItems": 2, "maxItems": 2, "prefixItems": [_DEFENCE, _DEFENCE],
                            "description": "[upright, sideways]"},
                "range": {"type": "array", "minItems": 1, "maxItems": 15, "description": "offsets [dx, dy] toward "
                          "the opponent: dx -2..2 across, dy 1..3 ahead", "items": {
                              "type": "array", "minItems": 2, "maxItems": 2, "prefixItems": [
                                  {"type": "integer", "minimum": -2, "maximum": 2},
                                  {"type": "integer", "minimum": 1, "maximum": 3}]}},
            },
        },
        "deck": {
            "type": "object",
            "required": ["name", "king", "cards"],
            "additionalProperties": False,
            "properties": {
                "name": {"type": "string", "pattern": _NAME, "description": "what a setup names: \"army\": "
                         "\"vanguard\""},
                "king": {"type": "string", "pattern": _ID},
                "cards": {"type": "object", "description": f"the count of each basic type, {DECK_SIZE} in all",
                          "propertyNames": {"enum": list(BASIC_TYPES)}, "additionalProperties": _COUNT},
            },
        },
    },
)


def _raw() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / "cards.json").read_text(encoding="utf-8"))
    return data


def default_document() -> dict[str, Any]:
    """The built-in data (``data/cards.json``) as a catalogue: its KINGs and its decks."""
    raw = _raw()
    kings = [{"id": kid, "name": k["name"], "attack": k["attack"], "defence": list(k["defence"]),
              "range": [list(o) for o in k["range"]]} for kid, k in raw["kings"].items()]
    decks = [{"name": name, "king": d["king"], "cards": dict(d["cards"])} for name, d in raw["decks"].items()]
    return {"system": "art-of-war", "name": "Art of War sample KINGs", "version": "1", "about": raw["about"],
            "kings": kings, "decks": decks}


def rule_problems(document: dict[str, Any]) -> Iterator[CatalogueProblem]:
    """Every rule a catalogue of ``SCHEMA``'s shape cannot be played by: KING ids unique and none a basic type's, a
    range naming no offset twice, and every deck a KING of the catalogue and 20 basic units (§1)."""
    yield from repeated(document["kings"], "kings", "id", "KING id")
    kings = {king["id"] for king in document["kings"]}
    for i, king in enumerate(document["kings"]):
        where = child("kings", i)
        if king["id"] in BASIC_TYPES:
            yield CatalogueProblem(child(where, "id"), f"{king['id']!r} is a basic unit's name: a KING has its own",
                                   "§1")
        offsets = [tuple(o) for o in king["range"]]
        if len(set(offsets)) != len(offsets):
            yield CatalogueProblem(child(where, "range"), f"{king['name']}'s range names an offset twice", "§1")
    yield from repeated(document["decks"], "decks", "name", "deck")
    for d, deck in enumerate(document["decks"]):
        where = child("decks", d)
        if deck["king"] not in kings or deck["king"] in BASIC_TYPES:
            yield CatalogueProblem(child(where, "king"), f"deck {deck['name']!r}: {deck['king']!r} is not a KING of "
                                   "this catalogue", "§1")
        size = sum(deck["cards"].values())
        if size != DECK_SIZE:
            yield CatalogueProblem(child(where, "cards"), f"deck {deck['name']!r} has {size} basic units: a deck is a "
                                   f"KING and {DECK_SIZE} cards of the five basic types", "§1")


CATALOGUES = CatalogueRules(SCHEMA, default_document, rule_problems,
                            armies_of=lambda document: [deck["name"] for deck in document["decks"]])


# -- the card table of a catalogue ------------------------------------------------------------------------------


def _card_type(cid: str, c: dict[str, Any], king: bool) -> CardType:
    return CardType(id=cid, name=c["name"], attack=c["attack"], defence=(int(c["defence"][0]), int(c["defence"][1])),
                    range=tuple((int(dx), int(dy)) for dx, dy in c["range"]), king=king)


BASIC: dict[str, CardType] = {cid: _card_type(cid, c, False) for cid, c in _raw()["basic"].items()}  # §1, R1


def card_table(document: dict[str, Any]) -> tuple[dict[str, CardType], dict[str, SampleDeck]]:
    """A playable catalogue's cards (the five basic units, then its KINGs) and decks (each its KING and its 20
    basic units, type by type in the rules' order: the order a sealed shuffle starts from)."""
    cards = dict(BASIC)
    cards.update({k["id"]: _card_type(k["id"], k, True) for k in document["kings"]})
    decks = {d["name"]: SampleDeck(name=d["name"], king=d["king"],
                                   cards=tuple(t for t in BASIC_TYPES for _ in range(d["cards"].get(t, 0))))
             for d in document["decks"]}
    return cards, decks


def owner_of(instance: str) -> str:
    return instance.split(".", 1)[0]


def kind_of(instance: str) -> str:
    """``archer`` for ``p1.archer.3``, and for ``archer`` itself."""
    parts = instance.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


CardBook = catalogue.CardBook[CardType, SampleDeck]
BOOKS: catalogue.CardBooks[CardType, SampleDeck] = catalogue.CardBooks(card_table, default_document(), card_id=kind_of)
book_of = BOOKS.of  # a game's cards: the CardBook of its game_started's catalogue, None for the built-in ones
cards_of = BOOKS.in_game  # the cards a game's state plays
DEFAULT = BOOKS.default


def kings_of(book: CardBook) -> tuple[str, ...]:
    """The KINGs of a game's cards, in the catalogue's order."""
    return tuple(c for c, card in book.cards.items() if card.king)


CARDS, DECKS = DEFAULT.cards, DEFAULT.decks  # the built-in ones
KINGS = kings_of(DEFAULT)
card_of = DEFAULT.card  # the built-in cards' (a game reads ``cards_of(state)``)


@functools.lru_cache(maxsize=256)
@functools.lru_cache(maxsize=256)
def instances(player: str, cards: tuple[str, ...]) -> tuple[str, ...]:
    """A deck list's card instances, ``seat.type.n``, copies numbered in list order (cached: a pure function of
    immutable arguments, and every game of a deck starts with it)."""
    seen: dict[str, int] = {}
    out = []
    for card in cards:
        seen[card] = seen.get(card, 0) + 1
        out.append(f"{player}.{card}.{seen[card]}")
    return tuple(out)


def position(index: int, square: str) -> tuple[int, int]:
    """A player's square on the one 3 x 4 grid (§2): x = column, y from p1's back row (0) to p2's back row (3)."""
    x = "ABC".index(square[0])
    front = square[1] == "1"
    if index == 0:
        return x, 1 if front else 0
    return x, 2 if front else 3


def square_at(index: int, x: int, y: int) -> str | None:
    if not 0 <= x <= 2:
        return None
    rows = {1: "1", 0: "2"} if index == 0 else {2: "1", 3: "2"}
    row = rows.get(y)
    return None if row is None else "ABC"[x] + row


def reaches(index: int, card: CardType, square: str, target: str) -> bool:
    """Whether a unit of player ``index`` on ``square`` reaches the opponent's ``target`` (offsets toward the
    opponent; p2's mirrored, §2)."""
    x, y = position(index, square)
    tx, ty = position(1 - index, target)
    sign = 1 if index == 0 else -1
    return any((x + dx, y + sign * dy) == (tx, ty) for dx, dy in card.range)


__all__ = ["BASIC_TYPES", "CARDS", "CATALOGUES", "DECKS", "DECK_SIZE", "DEFAULT", "KINGS", "SCHEMA", "SQUARES",
           "STANDBY_LIMIT", "CardBook", "CardType", "SampleDeck", "book_of", "card_of", "card_table", "cards_of",
           "default_document", "instances", "kind_of", "kings_of", "owner_of", "position", "reaches", "rule_problems",
           "square_at"]
