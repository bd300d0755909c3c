"""What L5R adds to the HTTP API and the CLI (``api.plugin.ApiSystem``): the typed body of ``POST /games`` (players
with their decks, the mode, the first player on a tie of honour, a starting position), the options it gives
``warlog tournament`` (``--l5r-mode``, ``--l5r-army``: a deck) and its board drawing for the replay page.

Values of the right type that the rules refuse (a deck under 40 cards, a card not in the catalog) are the engine's
to judge (422 ``invalid_setup`` citing the rule).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field

from api.models import Request, SeatId
from api.plugin import LABELS, ApiParts, GameSetup, ModelOptions, SeatPlayer, WebParts, display_labels
from engine.l5r import SYSTEM
from engine.l5r.catalogue import CARDS, DECKS

NAME = SYSTEM.name
SEATS = SYSTEM.seat_counts()
CardId = Annotated[str, Field(max_length=64, pattern=r"^[a-z0-9][a-z0-9_-]*$",
                                description="a card id of the game's catalogue")]
DeckName = Annotated[str, Field(max_length=32, pattern=r"^[a-z0-9][a-z0-9_-]*$",
                                description="a deck of the game's catalogue")]

EXAMPLE: dict[str, Any] = {
    "system": NAME,
    "players": [{"id": "p1", "name": "Alice", "army": "lion"}, {"id": "p2", "name": "Bob", "army": "crane"}],
    "variant": {"mode": "sealed"},
}


class VariantIn(Request):
    model_config = ConfigDict(extra="forbid", strict=True)

    mode: Literal["sealed", "table"] = Field(
        "sealed", description="sealed: both decks shuffled by the project's generator from the seed; table: a game "
        "at a real table, every card entered as it is drawn or placed face down")


class DeckIn(Request):
    model_config = ConfigDict(extra="forbid", strict=True)

    stronghold: CardId
    sensei: CardId | None = None
    dynasty: list[CardId] = Field(min_length=1, max_length=200, description="40 or more dynasty cards (§1)")
    fate: list[CardId] = Field(min_length=1, max_length=200, description="40 or more fate cards (§1)")


class PlayerIn(SeatPlayer):
    army: DeckName | DeckIn = Field(
        description=f"a deck of the game's catalogue by name (the built-in one's: {', '.join(DECKS)}) or a "
        "stronghold, sensei and 40/40 card ids", examples=["crab"])


class PositionCardIn(Request):
    model_config = ConfigDict(extra="forbid", strict=True)

    card: CardId
    bowed: bool = False
    dishonored: bool = False
    attachments: list[CardId] = Field(default_factory=list, max_length=16)


class PositionProvinceIn(Request):
    model_config = ConfigDict(extra="forbid", strict=True)

    card: CardId | None = None
    face_up: bool = False


class PositionPlayerIn(Request):
    model_config = ConfigDict(extra="forbid", strict=True)

    player: SeatId
    honor: int = Field(ge=-100, le=100)
    home: list[PositionCardIn] = Field(default_factory=list, max_length=60)
    provinces: list[PositionProvinceIn | None] = Field(min_length=4, max_length=4,
                                                       description="4 provinces left to right; null: destroyed")
    hand: list[CardId] = Field(default_factory=list, max_length=8)
    dynasty: list[CardId] = Field(default_factory=list, max_length=200, description="the dynasty deck, top first")
    fate: list[CardId] = Field(default_factory=list, max_length=200, description="the fate deck, top first")
    stronghold_bowed: bool = False


class PositionFocusIn(Request):
    model_config = ConfigDict(extra="forbid", strict=True)

    player: SeatId
    card: CardId
    source: Literal["hand", "deck"]


class PositionDuelIn(Request):
    model_config = ConfigDict(extra="forbid", strict=True)

    challenger: str = Field(max_length=80, examples=["p1:matsu-tsuko"], description="seat:card at home")
    challenged: str = Field(max_length=80, examples=["p2:doji-hotaru"])
    stat: Literal["chi", "force", "honor"] = "chi"
    focuses: list[PositionFocusIn] = Field(default_factory=list, max_length=8)


class PositionIn(Request):
    """A starting position (docs/l5r.md, "Position format"): the game begins in ``active``'s action phase."""

    model_config = ConfigDict(extra="forbid", strict=True)

    turn: int = Field(ge=1, le=10_000)
    active: SeatId
    players: list[PositionPlayerIn] = Field(min_length=2, max_length=2)
    duel: PositionDuelIn | None = None


class L5RGameIn(GameSetup):
    """A game of Legend of the Five Rings (docs/l5r.md)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [EXAMPLE]})

    system: Literal["l5r"]
    players: list[PlayerIn] = Field(min_length=SEATS.min, max_length=SEATS.max, description=f"{SEATS} players")
    variant: VariantIn = Field(default_factory=VariantIn)
    first: SeatId | None = Field(None, description="who goes first when family honours tie (R1: the players "
                                 "decide); refused otherwise")
    position: PositionIn | None = None

    def engine_setup(self) -> dict[str, Any]:
        setup = super().engine_setup()
        if self.position is not None:
            setup["position"] = self.position.model_dump()
        return setup


def catalog() -> dict[str, Any]:
    """The cards as the board drawing reads them (``/static/systems/l5r/catalog.json``)."""
    return {cid: {"name": c.name, "kind": c.kind, "clan": c.clan, "force": c.force, "chi": c.chi,
                  "personal_honor": c.personal_honor, "cost": c.cost, "focus": c.focus, "gold": c.gold,
                  "element": c.element} for cid, c in CARDS.items()}


LABELS_OF = display_labels("Legend of the Five Rings", DECKS, {
    "honor": "Honour victory", "enlightenment": "Enlightenment", "military": "Military victory",
    "card": "A card's victory"}, colours={"p1": "#8c1d18", "p2": "#1f4f99"})
PLUGIN = ApiParts(name=NAME, setup=L5RGameIn, cli=ModelOptions(NAME, L5RGameIn, prefix="l5r-"),
                  web=WebParts(Path(__file__).parent / "web", stats="stats.js",
                               data={"catalog.json": catalog, LABELS: LABELS_OF}))
