"""Setting up an Art of War game (§3): seats, decks (a KING and 20 basic cards), the first player, the mode.

    {"system": "art-of-war",
     "players": [{"id": "p1", "name": "Ann", "army": "vanguard"},
                 {"id": "p2", "name": "Bob", "army": {"king": "bow-king", "cards": ["archer", ...20 types]}}],
     "variant": {"mode": "sealed"}, "seed": 42, "first": "p2", "catalogue": {...}?}

``catalogue`` (issue 30) is the catalogue document the game plays (the API resolves a stored id to it); without it,
the built-in KINGs and sample decks. Decks name the KINGs and decks of the game's catalogue.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from engine.art_of_war.catalogue import (
    BASIC_TYPES,
    CATALOGUES,
    DECK_SIZE,
    DEFAULT,
    SQUARES,
    CardBook,
    book_of,
    kings_of,
)
from engine.catalogue import game_catalogue
from engine.errors import SetupError
from engine.system import Seat, SeatCounts, seat_id
from events.art_of_war import (
    DeckRecord,
    GameStarted,
    PositionPlayer,
    PositionRecord,
    SeatRecord,
    Variant,
)

SYSTEM_NAME = "art-of-war"
RULES_VERSION = "art-of-war/2"  # 2: R5-R7 (issue 28)
SEATS = SeatCounts(2, 2)
SHUFFLE = "splitmix64-fisher-yates/1"


def seats_of(setup: Mapping[str, Any]) -> tuple[Seat, ...]:
    players = setup.get("players")
    if not isinstance(players, list) or len(players) not in SEATS or not all(isinstance(p, dict) for p in players):
        raise SetupError("invalid_setup", "§3", f"Art of War is played by {SEATS} players")
    for i, player in enumerate(players):
        if player.get("id", seat_id(i)) != seat_id(i):
            raise SetupError("invalid_setup", "contract", f"players are p1, p2 in seating order, not "
                             f"{player.get('id')!r}")
    return tuple(Seat(id=seat_id(i), index=i) for i in range(len(players)))


def deck_of(seat: str, data: Any, book: CardBook = DEFAULT) -> DeckRecord:
    """A deck of the catalogue by name, or a custom one: a KING of the catalogue and 20 basic units."""
    name = "custom"
    if isinstance(data, str):
        if data not in book.decks:
            raise SetupError("invalid_deck", "§1", f"no deck {data!r} in the catalogue: one of "
                             f"{', '.join(book.decks)}")
        name, sample = data, book.decks[data]
        data = {"king": sample.king, "cards": list(sample.cards)}
    if not isinstance(data, dict) or sorted(set(data) - {"king", "cards"}):
        raise SetupError("invalid_deck", "§1", "a deck is a sample deck's name or {king, cards}")
    king, cards = data.get("king"), data.get("cards")
    kings = kings_of(book)
    if king not in kings:
        raise SetupError("invalid_deck", "§1", f"the KING is one of {', '.join(kings)}, not {king!r}")
    if not isinstance(cards, list) or len(cards) != DECK_SIZE or any(c not in BASIC_TYPES for c in cards):
        raise SetupError("invalid_deck", "§1", f"a deck is a KING and {DECK_SIZE} cards of the five basic types "
                         f"({', '.join(BASIC_TYPES)})")
    return DeckRecord(player=seat, name=name, king=king, cards=tuple(cards))


def start_event(setup: dict[str, Any]) -> GameStarted:
    if not isinstance(setup, dict):
        raise SetupError("invalid_setup", "§3", "a setup is an object")
    seats = seats_of(setup)
    variant = setup.get("variant") or {}
    if not isinstance(variant, dict) or sorted(set(variant) - {"mode"}) or variant.get("mode", "sealed") not in (
            "sealed", "table"):
        raise SetupError("invalid_variant", "§8", "the variant is {mode: sealed | table}")
    mode = variant.get("mode", "sealed")
    seed = setup.get("seed")
    if mode == "sealed":
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            raise SetupError("invalid_setup", "§8", f"a sealed game shuffles from a seed 0 to 2^63-1, not {seed!r}")
    else:
        seed = None
    first = setup.get("first", seats[0].id)
    if first not in [s.id for s in seats]:
        raise SetupError("invalid_setup", "§3.2", f"first is one of the players, not {first!r}")
    catalogue = game_catalogue(setup, CATALOGUES)
    book = book_of(catalogue.document) or DEFAULT
    players = setup["players"]
    decks = tuple(deck_of(s.id, p.get("army"), book) for p, s in zip(players, seats, strict=True))
    names = [str(p.get("name") or s.id) for p, s in zip(players, seats, strict=True)]
    position = None if setup.get("position") is None else position_of(setup["position"], decks)
    return GameStarted(system=SYSTEM_NAME, rules_version=RULES_VERSION,
                       seats=tuple(SeatRecord(id=s.id, name=n) for s, n in zip(seats, names, strict=True)),
                       variant=Variant(mode=mode), decks=decks, first=first, seed=seed,
                       shuffle=SHUFFLE if seed is not None else None, position=position,
                       catalogue=msgspec.UNSET if catalogue.document is None else catalogue.document,
                       catalogue_id=msgspec.UNSET if catalogue.id is None else catalogue.id)


def position_of(data: Any, decks: Sequence[DeckRecord]) -> PositionRecord:
    """docs/art-of-war.md "Position format": per player its hand, deck (top first), standby, kingdom, graveyard and
    battlefield; the KING once, anywhere; 20 basic cards or fewer in all."""
    try:
        position = msgspec.convert(data, PositionRecord)
    except msgspec.ValidationError as error:
        raise SetupError("invalid_position", "docs/art-of-war.md", f"not an Art of War position: {error}") from None
    seats = [d.player for d in decks]
    if sorted(p.player for p in position.players) != sorted(seats) or position.active not in seats or \
            position.turn < 1:
        raise SetupError("invalid_position", "docs/art-of-war.md", "a position gives each player once, the active "
                         "player and a turn of 1 or more")
    for spec in position.players:
        king = next(d.king for d in decks if d.player == spec.player)
        squares = [u.square for u in spec.field]
        if any(sq not in SQUARES for sq in squares) or len(set(squares)) != len(squares):
            raise SetupError("invalid_position", "§2", f"{spec.player}'s units stand on distinct squares A1-C2")
        cards = list(spec.hand) + list(spec.deck) + list(spec.standby) + list(spec.kingdom) + \
            list(spec.graveyard) + [u.card for u in spec.field]
        if any(c not in BASIC_TYPES and c != king for c in cards) or cards.count(king) != 1:
            raise SetupError("invalid_position", "§1", f"{spec.player}'s cards are basic units and its KING "
                             f"({king}) once")
        if len(cards) > DECK_SIZE + 1 or len(spec.standby) > 5:
            raise SetupError("invalid_position", "§1", f"{spec.player} has at most {DECK_SIZE} basic cards and 5 "
                             "in standby")
        _possible(spec, next(d for d in decks if d.player == spec.player))
    return position


ZONES = ("hand", "battlefield", "standby", "kingdom", "graveyard", "deck")


def _possible(spec: PositionPlayer, deck: DeckRecord) -> None:
    """R7: a position is possible only with its player's deck: no more cards of a type, in every zone together,
    than the deck holds (the position names a player's own cards: a kingdom holds none of the opponent's)."""
    zones = {"hand": spec.hand, "battlefield": tuple(u.card for u in spec.field), "standby": spec.standby,
             "kingdom": spec.kingdom, "graveyard": spec.graveyard, "deck": spec.deck}
    for kind in BASIC_TYPES:
        held = {zone: zones[zone].count(kind) for zone in ZONES}
        if sum(held.values()) > deck.cards.count(kind):
            where = ", ".join(f"{zone} {n}" for zone, n in held.items() if n)
            raise SetupError("invalid_position", "R7", f"{spec.player}'s position holds {sum(held.values())} "
                             f"{kind.upper()} cards ({where}) but its {deck.name} deck holds "
                             f"{deck.cards.count(kind)}: an impossible position")


__all__ = ["RULES_VERSION", "SEATS", "SHUFFLE", "SYSTEM_NAME", "deck_of", "position_of", "seats_of",
           "start_event"]
