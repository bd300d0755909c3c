"""What HeroScape adds to the HTTP API and the CLI (``api.plugin.ApiSystem``): the typed body of ``POST /games``
(players with their armies, the variant, a starting position) and the options it gives ``warlog tournament``.

The variant's fields are the engine's ``events.heroscape.Variant`` with its defaults; values of the right type that
the rules refuse (two figures on a hex, a squad figure with wounds) are the engine's to judge (422 ``invalid_setup``
citing the rule). The options of ``warlog tournament`` are the models' fields with the prefix ``--hs-``
(``--hs-map river-ford``, ``--hs-army utgar``): option names are shared by every system's commands.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field

from api.models import Request, SeatId
from api.plugin import LABELS, ApiParts, GameSetup, ModelOptions, SeatPlayer, WebParts, display_labels
from engine.heroscape import SYSTEM
from engine.heroscape.catalogue import catalogue, sample_maps
from engine.heroscape.setup import MAX_ROUNDS
from events.heroscape import Variant

NAME = SYSTEM.name
DEFAULTS = Variant()
SEATS = SYSTEM.seat_counts()
CARDS, ARMIES = catalogue()
MAPS = tuple(sample_maps())
JsonInt = Annotated[int, Field(ge=-(2**53), le=2**53)]
Name = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_-]{0,39}$")]  # an id in a catalogue (issue 30)
HexIn = Annotated[list[JsonInt], Field(min_length=2, max_length=2, description="[q, r] (axial coordinates)")]

EXAMPLE: dict[str, Any] = {
    "system": NAME,
    "players": [
        {"id": "p1", "name": "Alice", "army": "utgar"},
        {"id": "p2", "name": "Bob", "army": {"cards": ["raelin", "izumi-samurai"]}},
    ],
    "variant": {"mode": "sealed", "game": "master", "map": "twin-hill", "max_rounds": 12},
}


class VariantIn(Request):
    """HeroScape's options (the engine's ``Variant``); every field may be left out for its default."""

    model_config = ConfigDict(extra="forbid", strict=True)

    mode: Literal["sealed", "table"] = Field(
        DEFAULTS.mode, description="sealed: every die (combat dice and d20) is rolled by the project's generator "
        "from the seed; table: a game at a real table, each die entered as rolled, and line of sight ruled by the "
        "referee with the engine's answer kept beside it (R1)")
    game: Literal["master", "basic"] = Field(
        DEFAULTS.game, description="master: skulls less shields are wounds, destroyed at its life; basic: more "
        "skulls than shields destroys (§5)")
    map: Name | None = Field(None, description=f"a map of the game's catalogue by id (default: its first; built in: "
                             f"{', '.join(MAPS)})")
    max_rounds: JsonInt = Field(DEFAULTS.max_rounds, description=f"the scenario's round limit (1 to {MAX_ROUNDS}, "
                                "§8)", json_schema_extra={"minimum": 1, "maximum": MAX_ROUNDS})


class ArmyIn(Request):
    model_config = ConfigDict(extra="forbid", strict=True)

    cards: list[Name] = Field(
        min_length=1, max_length=20, description=f"army cards of the game's catalogue (built in: {', '.join(CARDS)}), "
        "each once (§1)")


class PlayerIn(SeatPlayer):
    army: Name | ArmyIn = Field(
        description=f"an army of the game's catalogue (built in: {', '.join(ARMIES)}) or its army cards",
        examples=["utgar"])


class PositionFigureIn(Request):
    model_config = ConfigDict(extra="forbid", strict=True)

    owner: SeatId
    figure: str = Field(max_length=40, description="the figure's id: its card, and a squad figure's number",
                        examples=["tarn-vikings/2"])
    hex: HexIn
    tail: HexIn | None = Field(None, description="a double-space figure's second hex")
    wounds: JsonInt = Field(0, json_schema_extra={"minimum": 0})


class PositionIn(Request):
    """A starting position (like a chess FEN): the game begins at the order markers of ``round``; the figures not
    on the map count as destroyed (docs/heroscape.md)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    figures: list[PositionFigureIn] = Field(max_length=64)
    round: JsonInt = Field(1, json_schema_extra={"minimum": 1, "maximum": MAX_ROUNDS})
    used_glyphs: list[str] = Field(default_factory=list, max_length=16, description="power glyphs already used up")
    specials_used: dict[SeatId, list[str]] = Field(default_factory=dict, description="once-a-game special attacks "
                                                   "spent, as card:special")


class HeroScapeGameIn(GameSetup):
    """A game of HeroScape (docs/heroscape.md)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [EXAMPLE]})

    system: Literal["heroscape"]
    players: list[PlayerIn] = Field(min_length=SEATS.min, max_length=SEATS.max,
                                    description=f"{SEATS} players, each with its start zone on the map")
    variant: VariantIn = Field(default_factory=VariantIn, examples=[{"mode": "sealed", "map": "river-ford"}])
    position: PositionIn | None = None


def army_shorthand(text: str) -> Any:
    """``--hs-army``: a sample army's name, or its cards as ``card,card,...`` (or JSON)."""
    return text if text in ARMIES else {"cards": [card.strip() for card in text.split(",") if card.strip()]}


LABELS_OF = display_labels("HeroScape", catalogue()[1], {"annihilation": "Annihilation", "rounds": "The round limit"},
                           colours={"p1": "#b3261e", "p2": "#1f5fbf"})  # as web/board.js paints them
CLI = ModelOptions(NAME, HeroScapeGameIn, prefix="hs-", shorthand={"army": army_shorthand})  # --mode, --army: others'
PLUGIN = ApiParts(name=NAME, setup=HeroScapeGameIn, cli=CLI,
                  web=WebParts(Path(__file__).parent / "web", data={LABELS: LABELS_OF}))
