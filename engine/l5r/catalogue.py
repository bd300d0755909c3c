"""The catalogue: the cards and the four sample decks, our sample data (``engine/l5r/data/``, its SOURCE.md).

The data ships inside the package (``data/cards.json``, ``data/decks.json``) and is read once at import time with
``importlib.resources``, so an installed wheel reads it as a checkout does; nothing else in the engine reads data. A
card instance is named ``<seat>.<card id>.<copy>``; ``card_of`` gives its card.
"""

from __future__ import annotations

import functools
import json
from importlib.resources import files
from typing import Any

import msgspec

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


def _load() -> tuple[dict[str, Card], dict[str, SampleDeck]]:
    raw: dict[str, Any] = json.loads((DATA / "cards.json").read_text(encoding="utf-8"))
    cards: dict[str, Card] = {}
    for group, kind in (("strongholds", "stronghold"), ("senseis", "sensei"), ("personalities", "personality"),
                        ("holdings", "holding"), ("events", "event"), ("followers", "follower"),
                        ("items", "item"), ("spells", "spell"), ("rings", "ring"), ("strategies", "strategy")):
        for entry in raw[group]:
            cards[entry["id"]] = msgspec.convert({**entry, "kind": kind}, Card)
    decks_raw: dict[str, Any] = json.loads((DATA / "decks.json").read_text(encoding="utf-8"))["decks"]
    decks = {
        name: SampleDeck(name=name, stronghold=d["stronghold"], sensei=d["sensei"],
                         dynasty=tuple(c for c, n in d["dynasty"] for _ in range(n)),
                         fate=tuple(c for c, n in d["fate"] for _ in range(n)))
        for name, d in decks_raw.items()
    }
    return cards, decks


CARDS, DECKS = _load()


@functools.lru_cache(maxsize=16384)
def card_of(instance: str) -> Card:
    """The card of an instance name ``p1.hida-yakamo.2`` (cached: the names of a game's cards repeat)."""
    return CARDS[instance.split(".")[1]]


def owner_of(instance: str) -> str:
    return instance.split(".", 1)[0]


def name_of(instance: str) -> str:
    return card_of(instance).name


@functools.lru_cache(maxsize=1024)
def instances(player: str, cards: tuple[str, ...]) -> tuple[str, ...]:
    """The instance names of a deck list, copies numbered in list order (cached: decks repeat across games)."""
    seen: dict[str, int] = {}
    out = []
    for card in cards:
        seen[card] = seen.get(card, 0) + 1
        out.append(f"{player}.{card}.{seen[card]}")
    return tuple(out)


__all__ = ["CARDS", "DECKS", "DECK_SIZE", "ELEMENTS", "MAX_COPIES", "MAX_UNIQUE_COPIES", "Card", "SampleDeck",
           "card_of", "instances", "name_of", "owner_of"]
