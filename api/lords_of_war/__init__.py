"""What Lords of War adds to the HTTP API and the CLI (``api.plugin.ApiSystem``): the typed body of ``POST /games``
(players with their armies, the variant, a starting position) and the options it gives ``warlog tournament``.

The models state in the OpenAPI document what the rules accept (the variant's fields are the engine's
``events.lords_of_war.Variant``, with its defaults; the setup numbers' bounds of docs/rulings.md). Values of the
right type that the rules refuse (an unknown faction, a kill target of 40) are left to the engine, which answers
422 ``invalid_setup`` citing its rule; a wrong type or an unknown field is 422 ``invalid_request`` naming the field
(``lords-of-war.variant.mode``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field

from api.models import Army, CardId, Request, SeatId
from api.plugin import LABELS, ApiParts, GameSetup, ModelOptions, SeatPlayer, WebParts, display_labels
from engine.lords_of_war import SYSTEM
from engine.lords_of_war.armies import MAX_COMMAND_TARGET, MAX_KILL_TARGET
from engine.lords_of_war.catalogue import ARMY_SIZE, CARDS, FACTIONS
from engine.lords_of_war.seating import TEAM_NAMES
from events.lords_of_war import Variant

NAME = SYSTEM.name
TEAMS = tuple(sorted({name for names in TEAM_NAMES.values() for name in names}))
DEFAULTS = Variant()
SEATS = SYSTEM.seat_counts()
# Integers a JSON reader holds exactly (I-JSON, RFC 7493); inside that, the rules' own bounds are the engine's to
# judge (its message cites the rule), and the schema states them.
JsonInt = Annotated[int, Field(ge=-(2**53), le=2**53)]

EXAMPLE: dict[str, Any] = {
    "system": NAME,
    "players": [
        {"id": "p1", "name": "Alice", "army": "orcs"},
        {"id": "p2", "name": "Bob", "army": "dwarves"},
    ],
    "variant": {"mode": "sealed"},
}


class VariantIn(Request):
    """Lords of War's options (the engine's ``Variant``); every field may be left out for its default."""

    model_config = ConfigDict(extra="forbid", strict=True)

    mode: Literal["sealed", "table"] = Field(
        DEFAULTS.mode, description="sealed: the decks are shuffled from the seed; table: a game at a real table, each "
        "drawn card entered as it is drawn")
    intermediate: bool = Field(DEFAULTS.intermediate, description="the intermediate rules (cavalry charges, R11)")
    unbounded: bool = Field(DEFAULTS.unbounded, description="no mat edge: squares are x,y integers (A1 = 0,0); "
                            "always so with teams")
    teams: bool = Field(False, description="the team rules (§10): 4 or 6 players, odd seats (p1, p3, p5) against "
                        "even seats, unbounded; required with 4 or 6 players. Three players need no flag: p1 plays "
                        "alone against p2 and p3, who share one army")
    kill_target: JsonInt = Field(
        DEFAULTS.kill_target, description=f"cards destroyed to win (§7; default 20, with teams 30 for four players "
        f"and 50 for six, §10; 1 to {MAX_KILL_TARGET} an enemy army)",
        json_schema_extra={"minimum": 1, "maximum": 3 * MAX_KILL_TARGET})
    command_target: JsonInt = Field(
        DEFAULTS.command_target, description=f"commanders destroyed to win (§7; default 4, with teams 7 for four "
        f"players and 9 for six, §10; 1 to {MAX_COMMAND_TARGET} an enemy army)",
        json_schema_extra={"minimum": 1, "maximum": 3 * MAX_COMMAND_TARGET})


class UnitIn(Request):
    model_config = ConfigDict(extra="forbid", strict=True)

    square: str = Field(max_length=32, description="C3 (or x,y in the unbounded variant)", examples=["C3"])
    card: CardId = Field(examples=["orcs/orc-ravager-2"])
    owner: SeatId


class KillsIn(Request):
    model_config = ConfigDict(extra="forbid", strict=True)

    total: JsonInt = Field(0, description="cards this seat has destroyed", json_schema_extra={"minimum": 0})
    commanders: JsonInt = Field(0, description="commanders among them", json_schema_extra={"minimum": 0})


class PositionIn(Request):
    """A starting position (like a chess FEN): the game begins after the challenge, in ``to_move``'s deploy phase;
    the cards on the board count against their owner's army."""

    model_config = ConfigDict(extra="forbid", strict=True)

    board: list[UnitIn] = Field(default_factory=list, max_length=SEATS.max * ARMY_SIZE)
    to_move: SeatId
    kills: dict[SeatId | Literal[TEAMS], KillsIn] | None = Field(  # type: ignore[valid-type]
        None, description="the state's kills, by seat (two players) or by team (§10: odd, even; solo, allies); "
        "one left out counts 0")


class PlayerIn(SeatPlayer):
    army: Army = Field(
        description=f"a faction ({', '.join(FACTIONS)}): its {ARMY_SIZE}-card core deck; or the {ARMY_SIZE} card "
        "ids of an army (§9); with a catalogue (issue 30), the name of one of its armies or its card ids",
        json_schema_extra={"anyOf": [
            {"type": "string", "maxLength": 100, "examples": list(FACTIONS)},
            {"type": "array", "items": {"type": "string", "maxLength": 100}, "minItems": ARMY_SIZE,
             "maxItems": ARMY_SIZE},
        ]},
        examples=["orcs"],
    )


class LordsOfWarGameIn(GameSetup):
    """A game of Lords of War (docs/contract.md)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [EXAMPLE]})

    system: Literal["lords-of-war"]
    players: list[PlayerIn] = Field(min_length=SEATS.min, max_length=SEATS.max,
                                    description=f"{SEATS} players, p1 first (p1 places the first challenge card); "
                                    "3: p1 alone, p2 and p3 a team with one army (p3's army is p2's); 4 or 6: "
                                    "variant teams (§10)")
    variant: VariantIn = Field(default_factory=VariantIn, examples=[{"mode": "sealed", "kill_target": 20}])
    position: PositionIn | None = None


def card_catalogue() -> dict[str, Any]:
    """The cards as the board drawing reads them (``/static/systems/lords-of-war/cards.json``): per id its name,
    faction, rank, class, defence, arrows (``{direction: value}`` in the owner's frame, N = away from the owner)
    and ranged value and grid (``[dx, dy]`` offsets in the owner's frame, dy > 0 forward), from the engine's
    catalogue."""
    return {"cards": {
        card.id: {
            "name": card.name, "faction": card.faction, "rank": card.rank, "class": card.cls, "defence": card.defence,
            "attacks": dict(card.attacks),
            "ranged": {"value": card.ranged_value, "grid": [list(cell) for cell in card.grid]} if card.is_ranged
            else None,
            "commander": card.is_commander,
        }
        for card in CARDS.values()
    }}


LABELS_OF = display_labels("Lords of War", (*FACTIONS, "mercenary"), {
    "kills": "Kill target reached", "commanders": "Commanders destroyed", "exhausted": "No card to deploy (R8)"})
CLI = ModelOptions(NAME, LordsOfWarGameIn, flags={"teams": "--team-rules"})  # --teams is the test system pebbles'
PLUGIN = ApiParts(name=NAME, setup=LordsOfWarGameIn, cli=CLI,
                  web=WebParts(Path(__file__).parent / "web", stats="stats.js",
                               data={"cards.json": card_catalogue, LABELS: LABELS_OF}))
