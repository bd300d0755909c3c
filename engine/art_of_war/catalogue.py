"""The catalogue: the cards (the digest's five basic units; our sample KINGs and decks: ``engine/art_of_war/data/``,
its SOURCE.md) and the battlefield's geometry.

The data ships inside the package (``data/cards.json``) and is read once at import time with ``importlib.resources``,
so an installed wheel reads it as a checkout does; nothing else in the engine reads data."""

from __future__ import annotations

import functools
import json
from importlib.resources import files
from typing import Any

import msgspec

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


def _load() -> tuple[dict[str, CardType], dict[str, SampleDeck]]:
    raw: dict[str, Any] = json.loads((DATA / "cards.json").read_text(encoding="utf-8"))
    cards: dict[str, CardType] = {}
    for group, king in (("basic", False), ("kings", True)):
        for cid, c in raw[group].items():
            cards[cid] = CardType(id=cid, name=c["name"], attack=c["attack"], defence=tuple(c["defence"]),
                                  range=tuple(tuple(o) for o in c["range"]), king=king)
    decks = {name: SampleDeck(name=name, king=d["king"],
                              cards=tuple(t for t in BASIC_TYPES for _ in range(d["cards"].get(t, 0))))
             for name, d in raw["decks"].items()}
    return cards, decks


CARDS, DECKS = _load()
KINGS = tuple(c for c in CARDS if CARDS[c].king)


@functools.lru_cache(maxsize=4096)
def card_of(instance: str) -> CardType:
    """The card an instance (``p1.archer.3``) or a type (``archer``: a hand card named by its type) is."""
    return CARDS[kind_of(instance)]


def owner_of(instance: str) -> str:
    return instance.split(".", 1)[0]


def kind_of(instance: str) -> str:
    """``archer`` for ``p1.archer.3``, and for ``archer`` itself."""
    parts = instance.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


@functools.lru_cache(maxsize=256)
def instances(player: str, cards: tuple[str, ...]) -> tuple[str, ...]:
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


__all__ = ["BASIC_TYPES", "CARDS", "DECKS", "DECK_SIZE", "KINGS", "SQUARES", "STANDBY_LIMIT", "CardType",
           "SampleDeck", "card_of", "instances", "kind_of", "owner_of", "position", "reaches", "square_at"]
