"""What Art of War adds to the HTTP API and the CLI: the typed body of ``POST /games`` (players with their decks,
the mode, the first player), the options of ``warlog tournament`` (``--aow-mode``, ``--aow-army``) and its board
drawing. Values the rules refuse (a deck of 19 cards) are the engine's to judge (422 citing the rule)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field

from api.models import Request, SeatId
from api.plugin import LABELS, ApiParts, GameSetup, ModelOptions, SeatPlayer, WebParts, display_labels
from engine.art_of_war import SYSTEM
from engine.art_of_war.catalogue import BASIC_TYPES, CARDS, DECK_SIZE, DECKS, KINGS

NAME = SYSTEM.name
SEATS = SYSTEM.seat_counts()

EXAMPLE: dict[str, Any] = {
    "system": NAME,
    "players": [{"id": "p1", "name": "Alice", "army": "vanguard"}, {"id": "p2", "name": "Bob", "army": "longbow"}],
    "variant": {"mode": "sealed"}, "first": "p1",
}


class VariantIn(Request):
    model_config = ConfigDict(extra="forbid", strict=True)

    mode: Literal["sealed", "table"] = Field(
        "sealed", description="sealed: the decks shuffled from the seed; table: every card entered as drawn (§8)")


class DeckIn(Request):
    model_config = ConfigDict(extra="forbid", strict=True)

    king: str = Field(max_length=64, pattern=r"^[a-z0-9][a-z0-9_-]*$",
                      description=f"a KING of the game's catalogue (the built-in one's: {', '.join(KINGS)})")
    cards: list[Literal[tuple(BASIC_TYPES)]] = Field(  # type: ignore[valid-type]
        min_length=1, max_length=2 * DECK_SIZE, description=f"{DECK_SIZE} basic units (§1)")


class PlayerIn(SeatPlayer):
    army: Annotated[str, Field(max_length=32, pattern=r"^[a-z0-9][a-z0-9_-]*$")] | DeckIn = Field(
        description=f"a deck of the game's catalogue by name (the built-in one's: {', '.join(DECKS)}) or a KING and "
        f"{DECK_SIZE} basic units", examples=["vanguard"])


class PositionUnitIn(Request):
    model_config = ConfigDict(extra="forbid", strict=True)

    square: Literal["A1", "B1", "C1", "A2", "B2", "C2"]
    card: str = Field(max_length=40, description="a basic type or the player's KING")
    upright: bool = True


class PositionPlayerIn(Request):
    model_config = ConfigDict(extra="forbid", strict=True)

    player: SeatId
    hand: list[str] = Field(default_factory=list, max_length=21)
    deck: list[str] = Field(default_factory=list, max_length=21, description="top first")
    standby: list[str] = Field(default_factory=list, max_length=5, description="oldest first")
    kingdom: list[str] = Field(default_factory=list, max_length=42)
    graveyard: list[str] = Field(default_factory=list, max_length=21)
    field: list[PositionUnitIn] = Field(default_factory=list, max_length=6)


class PositionIn(Request):
    """A starting position (docs/art-of-war.md "Position format"): ``active``'s turn ``turn``, after its draw."""

    model_config = ConfigDict(extra="forbid", strict=True)

    active: SeatId
    turn: int = Field(ge=1, le=10_000)
    players: list[PositionPlayerIn] = Field(min_length=2, max_length=2)


class ArtOfWarGameIn(GameSetup):
    """A game of Art of War: The Card Game (docs/art-of-war.md)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [EXAMPLE]})

    system: Literal["art-of-war"]
    players: list[PlayerIn] = Field(min_length=SEATS.min, max_length=SEATS.max, description=f"{SEATS} players")
    variant: VariantIn = Field(default_factory=VariantIn)
    first: SeatId | None = Field(None, description="who goes first, as the players decided (§3.2; default p1)")
    position: PositionIn | None = None

    def engine_setup(self) -> dict[str, Any]:
        setup = super().engine_setup()
        if self.position is not None:
            setup["position"] = self.position.model_dump()
        return setup


def catalog() -> dict[str, Any]:
    return {cid: {"name": c.name, "attack": c.attack, "defence": list(c.defence), "king": c.king}
            for cid, c in CARDS.items()}


LABELS_OF = display_labels("Art of War", DECKS, {
    "execution": "Execution", "nation_building": "Nation-building", "end_of_war": "The end of the war",
    "annihilation": "Annihilation"}, colours={"p1": "#8c1d18", "p2": "#1f4f99"})
PLUGIN = ApiParts(name=NAME, setup=ArtOfWarGameIn, cli=ModelOptions(NAME, ArtOfWarGameIn, prefix="aow-"),
                  web=WebParts(Path(__file__).parent / "web", data={"catalog.json": catalog, LABELS: LABELS_OF}))
