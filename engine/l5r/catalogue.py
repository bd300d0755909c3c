"""The catalogue: the cards and the decks (issue 30: ``engine.system.Catalogues``, the document's ``SCHEMA``).

The built-in data is our sample data (``engine/l5r/data/``, its SOURCE.md): the package's ``data/cards.json`` and
``data/decks.json``, read once at import time with ``importlib.resources`` (an installed wheel reads it as a checkout
does), is the default catalogue (``default_document``), and the built-in cards are that document's (``card_table``).
A game on another catalogue carries the document in its ``game_started``; its state holds the document's
``CardBook`` (``State.catalogue``), and the rules, bots and views read a card through ``cards_of(state)``. A card
instance is named ``<seat>.<card id>.<copy>``.
"""

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
DECK_SIZE = 40  # Ivory Extended 40/40: at least 40 dynasty and 40 fate cards
MAX_COPIES = 3  # R4: at most 3 copies of a card in a deck
MAX_UNIQUE_COPIES = 1  # R4: 1 of a Unique card
ELEMENTS = ("earth", "water", "fire", "air", "void")


class Card(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    kind: str  # stronghold | sensei | personality | holding | event | follower | item | spell | ring | strategy
    clan: str | None = None  # None: a card of no clan (a ronin), R5
    unique: bool = False  # R4: one copy in a deck
    cost: int = 0  # gold
    honor_req: int = 0
    force: int = 0
    chi: int = 0
    personal_honor: int = 0
    shugenja: bool = False
    gold: int = 0  # strongholds and holdings: gold produced; senseis: the modifier
    province_strength: int = 0
    honor: int = 0  # strongholds: starting family honour; senseis: the modifier
    focus: int = 0  # fate cards
    element: str | None = None  # rings

    @property
    def dynasty(self) -> bool:
        return self.kind in ("personality", "holding", "event")

    @property
    def fate(self) -> bool:
        return self.kind in ("follower", "item", "spell", "ring", "strategy")

    @property
    def attachment(self) -> bool:
        return self.kind in ("follower", "item", "spell")


class SampleDeck(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    stronghold: str
    sensei: str | None
    dynasty: tuple[str, ...]
    fate: tuple[str, ...]


# -- the catalogue document (issue 30: engine.system.Catalogues) --------------------------------------------------
#
# An L5R catalogue: its cards, every kind the digest knows (§1), each with the numbers of its kind, its clan (absent:
# a card of no clan, R5) and whether it is Unique (R4); and its decks (a stronghold, a sensei or none, the count of
# each dynasty and fate card), the shape of ``SCHEMA``. The built-in data is the default catalogue: our 54 cards and
# the four sample decks.

KINDS = ("stronghold", "sensei", "personality", "holding", "event", "follower", "item", "spell", "strategy", "ring")
DYNASTY_KINDS = ("personality", "holding", "event")
FATE_KINDS = ("follower", "item", "spell", "strategy", "ring")
NUMBERS = ("cost", "honor_req", "force", "chi", "personal_honor", "gold", "province_strength", "honor", "focus")
MAX_CARDS = 5000  # a real card pool runs to thousands
MAX_DECKS = 200
MAX_PILE = 200  # entries of a deck's dynasty or fate list
_GROUPS = (("strongholds", "stronghold"), ("senseis", "sensei"), ("personalities", "personality"),
           ("holdings", "holding"), ("events", "event"), ("followers", "follower"), ("items", "item"),
           ("spells", "spell"), ("rings", "ring"), ("strategies", "strategy"))  # data/cards.json's groups
_ID = r"^[a-z0-9][a-z0-9_-]{0,63}$"  # no dot: a card instance is <seat>.<card id>.<copy>
_NAME = r"^[a-z0-9][a-z0-9_-]{0,31}$"
_NUMBER = {"type": "integer", "minimum": -99, "maximum": 99}
_PILE = {"type": "array", "minItems": 1, "maxItems": MAX_PILE, "items": {
    "type": "object", "required": ["card", "count"], "additionalProperties": False,
    "properties": {"card": {"type": "string", "pattern": _ID}, "count": {"type": "integer", "minimum": 1,
                                                                          "maximum": 99}}}}

SCHEMA: dict[str, Any] = document_schema(
    "l5r", "Legend of the Five Rings catalogue",
    "Cards of every kind (§1) and the decks made of them (§1, R4). A card's numbers are those of its kind; a number "
    "a card does not give is 0. A card without clan is of no clan (R5).",
    {"cards": ("card", MAX_CARDS), "decks": ("deck", MAX_DECKS)},
    {
        "card": {
            "type": "object",
            "required": ["id", "name", "kind"],
            "additionalProperties": False,
            "properties": {
                "id": {"type": "string", "pattern": _ID, "description": "unique in the catalogue: hida-yakamo"},
                "name": {"type": "string", "minLength": 1, "maxLength": 80},
                "kind": {"enum": list(KINDS)},
                "clan": {"type": "string", "pattern": _NAME, "description": "absent: a card of no clan (R5)"},
                "unique": {"type": "boolean", "description": "R4: a deck holds one copy"},
                "cost": {**_NUMBER, "minimum": 0, "description": "gold"},
                "honor_req": _NUMBER,
                "force": _NUMBER,
                "chi": _NUMBER,
                "personal_honor": _NUMBER,
                "shugenja": {"type": "boolean", "description": "a personality that may hold spells"},
                "gold": {**_NUMBER, "description": "strongholds and holdings: gold produced; senseis: the modifier"},
                "province_strength": _NUMBER,
                "honor": {**_NUMBER, "description": "strongholds: starting family honour; senseis: the modifier"},
                "focus": {**_NUMBER, "minimum": 0, "description": "fate cards: the focus value (§5.2)"},
                "element": {"enum": list(ELEMENTS), "description": "rings: their element"},
            },
        },
        "deck": {
            "type": "object",
            "required": ["name", "stronghold", "dynasty", "fate"],
            "additionalProperties": False,
            "properties": {
                "name": {"type": "string", "pattern": _NAME, "description": "what a setup names: \"army\": \"crab\""},
                "stronghold": {"type": "string", "pattern": _ID},
                "sensei": {"type": "string", "pattern": _ID, "description": "absent: no sensei"},
                "dynasty": _PILE,
                "fate": _PILE,
            },
        },
    },
)


def default_document() -> dict[str, Any]:
    """The built-in data (``data/cards.json``, ``data/decks.json``) as a catalogue: every card, every sample deck."""
    raw: dict[str, Any] = json.loads((DATA / "cards.json").read_text(encoding="utf-8"))
    cards = [{"id": entry["id"], "name": entry["name"], "kind": kind,
              **{k: v for k, v in entry.items() if k not in ("id", "name") and v is not None}}
             for group, kind in _GROUPS for entry in raw[group]]
    decks_raw: dict[str, Any] = json.loads((DATA / "decks.json").read_text(encoding="utf-8"))
    decks = []
    for name, d in decks_raw["decks"].items():
        deck: dict[str, Any] = {"name": name, "stronghold": d["stronghold"]}
        if d["sensei"] is not None:
            deck["sensei"] = d["sensei"]
        deck["dynasty"] = [{"card": c, "count": n} for c, n in d["dynasty"]]
        deck["fate"] = [{"card": c, "count": n} for c, n in d["fate"]]
        decks.append(deck)
    return {"system": "l5r", "name": "L5R sample cards", "version": "1", "about": raw.get("about", ""),
            "cards": cards, "decks": decks}


def rule_problems(document: dict[str, Any]) -> Iterator[CatalogueProblem]:
    """Every rule a catalogue of ``SCHEMA``'s shape cannot be played by: card ids and deck names unique, a ring with
    its element (§1), and every deck one a setup takes (``setup.deck_of``): a stronghold and a sensei of the
    catalogue, dynasty cards in the dynasty deck and fate cards in the fate deck (§1), at least 40 of each (Ivory
    Extended 40/40), at most 3 copies of a card and 1 of a Unique card (R4)."""
    yield from repeated(document["cards"], "cards", "id", "card id")
    kinds: dict[str, dict[str, Any]] = {}
    for i, card in enumerate(document["cards"]):
        where = child("cards", i)
        if card["id"] in kinds:
            continue
        kinds[card["id"]] = card
        if card["kind"] == "ring" and "element" not in card:
            yield CatalogueProblem(child(where, "element"), f"{card['name']} is a ring: it has an element "
                                   f"({', '.join(ELEMENTS)})", "§1")
        if card["kind"] != "ring" and "element" in card:
            yield CatalogueProblem(child(where, "element"), f"{card['name']} is a {card['kind']}: only a ring has "
                                   "an element", "§1")
    yield from repeated(document["decks"], "decks", "name", "deck")
    for d, deck in enumerate(document["decks"]):
        yield from _deck_problems(kinds, deck, child("decks", d))


def _deck_problems(cards: dict[str, dict[str, Any]], deck: dict[str, Any], where: str) -> Iterator[CatalogueProblem]:
    name = deck["name"]
    for field, kind in (("stronghold", "stronghold"), ("sensei", "sensei")):
        if field in deck and cards.get(deck[field], {}).get("kind") != kind:
            yield CatalogueProblem(child(where, field), f"deck {name!r}: {deck[field]!r} is not a {kind} of this "
                                   "catalogue", "§1")
    for pile, allowed in (("dynasty", DYNASTY_KINDS), ("fate", FATE_KINDS)):
        seen: set[str] = set()
        size = 0
        for e, entry in enumerate(deck[pile]):
            at = child(child(where, pile), e)
            card = cards.get(entry["card"])
            if card is None:
                yield CatalogueProblem(child(at, "card"), f"{entry['card']!r} is not a card of this catalogue")
                continue
            if entry["card"] in seen:
                yield CatalogueProblem(child(at, "card"), f"{card['name']} ({entry['card']}) is listed twice in "
                                       f"deck {name!r}'s {pile} deck")
            seen.add(entry["card"])
            size += entry["count"]
            if card["kind"] not in allowed:
                yield CatalogueProblem(child(at, "card"), f"{card['name']} ({entry['card']}) is a {card['kind']}: "
                                       f"a {pile} deck holds {', '.join(allowed)} cards", "§1")
            if card.get("unique", False) and entry["count"] > MAX_UNIQUE_COPIES:
                yield CatalogueProblem(child(at, "count"), f"{card['name']} ({entry['card']}) is Unique: a deck "
                                       f"holds 1 copy of it, and deck {name!r}'s {pile} deck holds {entry['count']}",
                                       "R4")
            elif entry["count"] > MAX_COPIES:
                yield CatalogueProblem(child(at, "count"), f"a deck holds at most {MAX_COPIES} copies of a card, and "
                                       f"deck {name!r}'s {pile} deck holds {entry['count']} of {card['name']} "
                                       f"({entry['card']})", "R4")
        if size < DECK_SIZE:
            yield CatalogueProblem(child(where, pile), f"deck {name!r} has {size} {pile} cards: a deck holds at least "
                                   f"{DECK_SIZE} dynasty and {DECK_SIZE} fate cards (Ivory Extended 40/40)", "§1")


CATALOGUES = CatalogueRules(SCHEMA, default_document, rule_problems,
                            armies_of=lambda document: [deck["name"] for deck in document["decks"]])


# -- the card table of a catalogue ------------------------------------------------------------------------------


def card_table(document: dict[str, Any]) -> tuple[dict[str, Card], dict[str, SampleDeck]]:
    """A playable catalogue's cards (typed) and decks (each pile its card ids, a card as many times as the deck
    counts it, in the document's order: the order a sealed shuffle starts from)."""
    cards = {raw["id"]: msgspec.convert(raw, Card) for raw in document["cards"]}
    decks = {
        d["name"]: SampleDeck(name=d["name"], stronghold=d["stronghold"], sensei=d.get("sensei"),
                              dynasty=tuple(e["card"] for e in d["dynasty"] for _ in range(e["count"])),
                              fate=tuple(e["card"] for e in d["fate"] for _ in range(e["count"])))
        for d in document["decks"]
    }
    return cards, decks


CardBook = catalogue.CardBook[Card, SampleDeck]
BOOKS: catalogue.CardBooks[Card, SampleDeck] = catalogue.CardBooks(card_table, default_document())
book_of = BOOKS.of  # a game's cards: the CardBook of its game_started's catalogue, None for the built-in ones
cards_of = BOOKS.in_game  # the cards a game's state plays
DEFAULT = BOOKS.default
CARDS, DECKS = DEFAULT.cards, DEFAULT.decks  # the built-in ones
card_of = DEFAULT.card  # the built-in cards' (a game reads ``cards_of(state)``)


def owner_of(instance: str) -> str:
    return instance.split(".", 1)[0]


def name_of(instance: str) -> str:
    return card_of(instance).name


def name_in(book: CardBook, instance: str) -> str:
    """The name of an instance's card in a game's cards."""
    return book.card(instance).name


@functools.lru_cache(maxsize=1024)
def instances(player: str, cards: tuple[str, ...]) -> tuple[str, ...]:
    """The instance names of a deck list, copies numbered in list order (cached: decks repeat across games)."""
    seen: dict[str, int] = {}
    out = []
    for card in cards:
        seen[card] = seen.get(card, 0) + 1
        out.append(f"{player}.{card}.{seen[card]}")
    return tuple(out)


__all__ = ["CARDS", "CATALOGUES", "DECKS", "DECK_SIZE", "DEFAULT", "ELEMENTS", "KINDS", "MAX_COPIES",
           "MAX_UNIQUE_COPIES", "SCHEMA", "Card", "CardBook", "SampleDeck", "book_of", "card_of", "card_table",
           "cards_of", "default_document", "instances", "name_in", "name_of", "owner_of", "rule_problems"]
