"""Setting up an L5R game (§2): seats, decks, the turn order (R1), the mode, a starting position.

A setup (``POST /games`` body)::

    {"system": "l5r",
     "players": [{"id": "p1", "name": "Ann", "army": "crab"},
                 {"id": "p2", "name": "Bob", "army": {"stronghold": "kyuden-doji", "sensei": null,
                                                      "dynasty": [...40 card ids], "fate": [...40 card ids]}}],
     "variant": {"mode": "sealed"}, "seed": 42, "first": "p2"?, "position": {...}?, "catalogue": {...}?}

``catalogue`` (issue 30) is the catalogue document the game plays (the API resolves a stored id to it); without it,
the built-in cards and sample decks. Decks and positions name the cards and decks of the game's catalogue.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from engine.catalogue import game_catalogue
from engine.errors import SetupError
from engine.l5r.catalogue import CATALOGUES, DECK_SIZE, DEFAULT, MAX_COPIES, MAX_UNIQUE_COPIES, CardBook, book_of
from engine.system import Seat, SeatCounts, seat_id
from events.l5r import DeckRecord, GameStarted, PositionRecord, SeatRecord, Variant

SYSTEM_NAME = "l5r"
RULES_VERSION = "l5r/2"  # l5r/1: before the rulings R4-R9 (docs/l5r.md, "Rules versions")
SEATS = SeatCounts(2, 2)
SHUFFLE = "splitmix64-fisher-yates/1"
MODES = ("sealed", "table")


def seats_of(setup: Mapping[str, Any]) -> tuple[Seat, ...]:
    players = setup.get("players")
    if not isinstance(players, list) or len(players) not in SEATS or not all(isinstance(p, dict) for p in players):
        raise SetupError("invalid_setup", "§2", f"this L5R game is played by {SEATS} players")
    for i, player in enumerate(players):
        if player.get("id", seat_id(i)) != seat_id(i):
            raise SetupError("invalid_setup", "contract", f"players are p1, p2 in seating order, not "
                             f"{player.get('id')!r}")
    return tuple(Seat(id=seat_id(i), index=i) for i in range(len(players)))


def _card(card_id: Any, kinds: tuple[str, ...], what: str, book: CardBook) -> str:
    if not isinstance(card_id, str) or card_id not in book.cards or book.cards[card_id].kind not in kinds:
        raise SetupError("invalid_deck", "§1", f"{card_id!r} is not a {what} of the catalog")
    return card_id


def _copies(pile: list[str], which: str, book: CardBook) -> None:
    """R4: at most 3 copies of a card in a deck, 1 of a Unique card (the first card over, in deck-list order)."""
    counts: dict[str, int] = {}
    for card in pile:
        counts[card] = counts.get(card, 0) + 1
    for card, n in counts.items():
        c = book.cards[card]
        if c.unique and n > MAX_UNIQUE_COPIES:
            raise SetupError("invalid_deck", "R4", f"{c.name} ({card}) is Unique: a deck holds 1 copy of it, and "
                             f"this {which} deck holds {n}")
        if n > MAX_COPIES:
            raise SetupError("invalid_deck", "R4", f"a deck holds at most {MAX_COPIES} copies of a card, and this "
                             f"{which} deck holds {n} of {c.name} ({card})")


def deck_of(seat: str, data: Any, book: CardBook = DEFAULT) -> DeckRecord:
    """A deck of the catalogue by name, or a custom one: stronghold, sensei (or null), 40+ dynasty and 40+ fate card
    ids of the catalogue's cards (``book``: the game's)."""
    name = "custom"
    if isinstance(data, str):
        if data not in book.decks:
            raise SetupError("invalid_deck", "§1", f"no deck {data!r} in the catalogue: one of "
                             f"{', '.join(book.decks)}")
        name, sample = data, book.decks[data]
        data = {"stronghold": sample.stronghold, "sensei": sample.sensei, "dynasty": list(sample.dynasty),
                "fate": list(sample.fate)}
    if not isinstance(data, dict) or sorted(set(data) - {"stronghold", "sensei", "dynasty", "fate"}):
        raise SetupError("invalid_deck", "§1", "a deck is a sample deck's name or {stronghold, sensei, dynasty, "
                         "fate}")
    stronghold = book.cards[_card(data.get("stronghold"), ("stronghold",), "stronghold", book)]
    sensei = None if data.get("sensei") is None else book.cards[_card(data["sensei"], ("sensei",), "sensei", book)]
    dynasty, fate = data.get("dynasty"), data.get("fate")
    if not isinstance(dynasty, list) or not isinstance(fate, list):
        raise SetupError("invalid_deck", "§1", "a deck lists its dynasty and fate cards")
    for card in dynasty:
        _card(card, ("personality", "holding", "event"), "dynasty card", book)
    for card in fate:
        _card(card, ("follower", "item", "spell", "ring", "strategy"), "fate card", book)
    if len(dynasty) < DECK_SIZE or len(fate) < DECK_SIZE:
        raise SetupError("invalid_deck", "§1", f"a deck holds at least {DECK_SIZE} dynasty and {DECK_SIZE} fate "
                         f"cards (Ivory Extended 40/40), not {len(dynasty)} and {len(fate)}")
    for pile, which in ((dynasty, "dynasty"), (fate, "fate")):
        _copies(pile, which, book)
    return DeckRecord(
        player=seat, name=name, clan=stronghold.clan or "", stronghold=stronghold.id,
        sensei=sensei.id if sensei else None, dynasty=tuple(dynasty), fate=tuple(fate),
        honor=stronghold.honor + (sensei.honor if sensei else 0),
        province_strength=stronghold.province_strength + (sensei.province_strength if sensei else 0),
        gold=stronghold.gold + (sensei.gold if sensei else 0))


def variant_of(data: Any) -> Variant:
    if data is None:
        data = {}
    if not isinstance(data, dict) or sorted(set(data) - {"mode"}):
        raise SetupError("invalid_variant", "§2", "the variant is an object with mode: sealed or table")
    mode = data.get("mode", "sealed")
    if mode not in MODES:
        raise SetupError("invalid_variant", "§2", f"mode is sealed (decks shuffled from the seed) or table (cards "
                         f"entered as drawn), not {mode!r}")
    return Variant(mode=mode)


def turn_order(decks: Sequence[DeckRecord], first: Any) -> tuple[str, ...]:
    """R1: the highest family honour goes first; a tie is decided by the players and recorded (``first``; when a
    tie comes without it, as from a tournament's pairing, the first seat goes first: docs/l5r.md D1)."""
    seats = [d.player for d in decks]
    best = max(d.honor for d in decks)
    leaders = [d.player for d in decks if d.honor == best]
    if first is not None and first not in leaders:
        if len(leaders) == 1:
            raise SetupError("invalid_setup", "R1", f"{leaders[0]} has the highest family honour and goes first; "
                             f"first={first!r} is for a tie only")
        raise SetupError("invalid_setup", "R1", f"{' and '.join(leaders)} tie on family honour {best}: first is one "
                         f"of them, not {first!r}")
    start = first if first is not None else leaders[0]
    i = seats.index(start)
    return tuple(seats[i:] + seats[:i])


def position_of(data: Any, decks: Sequence[DeckRecord], book: CardBook = DEFAULT) -> PositionRecord:
    try:
        position = msgspec.convert(data, PositionRecord)
    except msgspec.ValidationError as error:
        raise SetupError("invalid_position", "docs/l5r.md", f"not an L5R position: {error}") from None
    seats = [d.player for d in decks]
    if sorted(p.player for p in position.players) != sorted(seats) or position.active not in seats:
        raise SetupError("invalid_position", "docs/l5r.md", f"a position gives each of {', '.join(seats)} once "
                         "and the active player")
    if position.turn < 1:
        raise SetupError("invalid_position", "docs/l5r.md", "a position's turn is 1 or more")
    for spec in position.players:
        if len(spec.provinces) != 4:
            raise SetupError("invalid_position", "§1", f"{spec.player}'s position lists 4 provinces (null: "
                             "destroyed)")
        for card in [c.card for c in spec.home] + [a for c in spec.home for a in c.attachments]:
            if card not in book.cards or book.cards[card].kind in ("stronghold", "sensei", "event", "strategy"):
                raise SetupError("invalid_position", "§1", f"{card!r} cannot be in play at home")
        for c in spec.home:
            for a in c.attachments:
                if book.cards[c.card].kind != "personality" or not book.cards[a].attachment:
                    raise SetupError("invalid_position", "§1", f"{a!r} cannot be attached to {c.card!r}")
        for card in [pr.card for pr in spec.provinces if pr and pr.card] + list(spec.dynasty):
            if card not in book.cards or not book.cards[card].dynasty:
                raise SetupError("invalid_position", "§1", f"{card!r} is not a dynasty card")
        for card in list(spec.hand) + list(spec.fate):
            if card not in book.cards or not book.cards[card].fate:
                raise SetupError("invalid_position", "§1", f"{card!r} is not a fate card")
        if len(spec.hand) > 8:
            raise SetupError("invalid_position", "§3.4", f"{spec.player} holds more than 8 cards")
    if position.duel is not None:
        d = position.duel
        for ref in (d.challenger, d.challenged):
            seat, _, card = ref.partition(":")
            duel_spec = next((s for s in position.players if s.player == seat), None)
            if duel_spec is None or card not in [c.card for c in duel_spec.home] or \
                    book.cards[card].kind != "personality":
                raise SetupError("invalid_position", "§5.1", f"the duel's {ref!r} is not a personality at home "
                                 "(seat:card)")
        if d.challenger.partition(":")[0] == d.challenged.partition(":")[0]:
            raise SetupError("invalid_position", "§5.1", "a duel is between personalities of two players")
        for f in d.focuses:
            focus_spec = next((s for s in position.players if s.player == f.player), None)
            pool = list(focus_spec.hand if f.source == "hand" else focus_spec.fate) if focus_spec else []
            if focus_spec is None or pool.count(f.card) < sum(1 for g in d.focuses if g.player == f.player
                                                        and g.card == f.card and g.source == f.source):
                raise SetupError("invalid_position", "§5.2", f"focus {f.card!r} is not in {f.player}'s "
                                 f"{'hand' if f.source == 'hand' else 'fate deck'}")
        for seat in {f.player for f in d.focuses}:
            if sum(1 for f in d.focuses if f.player == seat) > 4:
                raise SetupError("invalid_position", "§5.2", f"{seat} has focused more than 4 times")
    return position


def start_event(setup: dict[str, Any]) -> GameStarted:
    if not isinstance(setup, dict):
        raise SetupError("invalid_setup", "§2", "a setup is an object")
    seats = seats_of(setup)
    variant = variant_of(setup.get("variant"))
    seed = setup.get("seed")
    if variant.mode == "sealed":
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            raise SetupError("invalid_setup", "§2", "a sealed game shuffles its decks from a seed: a whole number 0 "
                             f"to 2^63-1, not {seed!r}")
    else:
        seed = None
    catalogue = game_catalogue(setup, CATALOGUES)
    book = book_of(catalogue.document) or DEFAULT
    players = setup["players"]
    decks = tuple(deck_of(s.id, p.get("army"), book) for p, s in zip(players, seats, strict=True))
    names = [str(p.get("name") or s.id) for p, s in zip(players, seats, strict=True)]
    order = turn_order(decks, setup.get("first"))
    position = None if setup.get("position") is None else position_of(setup["position"], decks, book)
    return GameStarted(
        system=SYSTEM_NAME, rules_version=RULES_VERSION,
        seats=tuple(SeatRecord(id=s.id, name=n) for s, n in zip(seats, names, strict=True)), variant=variant,
        decks=decks, order=order, seed=seed, shuffle=SHUFFLE if seed is not None else None, position=position,
        catalogue=msgspec.UNSET if catalogue.document is None else catalogue.document,
        catalogue_id=msgspec.UNSET if catalogue.id is None else catalogue.id)


__all__ = ["MODES", "RULES_VERSION", "SEATS", "SHUFFLE", "SYSTEM_NAME", "deck_of", "position_of", "seats_of",
           "start_event", "turn_order", "variant_of"]
