"""What Light Wars adds to the HTTP API and the CLI (``api.plugin.ApiSystem``): the typed body of ``POST /games``
(players with their armies, the variant, a starting position) and the options it gives ``warlog tournament``.

The variant's fields are the engine's ``events.light_wars.Variant`` with its defaults; values of the right type that
the rules refuse (an army over the total cost, a unit on the enemy Castle) are the engine's to judge (422
``invalid_setup`` citing the rule). The options of ``warlog tournament`` are the models' fields with the prefix
``--lw-`` (``--lw-size medium``, ``--lw-army riders``): option names are shared by every system's commands.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field

from api.models import Request, SeatId
from api.plugin import LABELS, ApiParts, GameSetup, ModelOptions, SeatPlayer, WebParts, display_labels
from engine.light_wars import SYSTEM
from engine.light_wars.catalogue import ARMIES, MAX_TOTAL_COST, MAX_TURNS, MAX_UNITS, TACTICS, UNIT_TYPES
from engine.light_wars.geometry import ARROWS, castle, territory_rows
from events.light_wars import Variant

NAME = SYSTEM.name
DEFAULTS = Variant()
SEATS = SYSTEM.seat_counts()
JsonInt = Annotated[int, Field(ge=-(2**53), le=2**53)]
Name = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_-]{0,31}$")]  # a name in a catalogue (issue 30)

EXAMPLE: dict[str, Any] = {
    "system": NAME,
    "players": [
        {"id": "p1", "name": "Alice", "army": "balanced"},
        {"id": "p2", "name": "Bob", "army": {"units": ["king", "cavalry", "cavalry", "archer"],
                                             "tactics": ["battle-cry"]}},
    ],
    "variant": {"mode": "sealed", "size": "small", "deployment": "alternate"},
}


class VariantIn(Request):
    """Light Wars' options (the engine's ``Variant``); every field may be left out for its default."""

    model_config = ConfigDict(extra="forbid", strict=True)

    mode: Literal["sealed", "table"] = Field(
        DEFAULTS.mode, description="sealed: every die is rolled by the project's generator from the seed; table: a "
        "game at a real table, each die entered as rolled (1 to 6)")
    size: Literal["small", "medium", "large", "custom"] | None = Field(
        None, description="small (total cost 20, 5 turns), medium (30, 8), large (40, 12) or custom (give "
        "total_cost and max_turns) (§2.1); default small, or custom when total_cost or max_turns is given")
    total_cost: JsonInt | None = Field(None, description=f"a custom battle's total cost (1 to {MAX_TOTAL_COST}, §2.1)",
                                       json_schema_extra={"minimum": 1, "maximum": MAX_TOTAL_COST})
    max_turns: JsonInt | None = Field(None, description=f"a custom battle's turns (1 to {MAX_TURNS}, §2.1)",
                                      json_schema_extra={"minimum": 1, "maximum": MAX_TURNS})
    deployment: Literal["alternate", "screen"] = Field(
        DEFAULTS.deployment, description="alternate: one unit at a time after a roll-off; screen: all at once, "
        "hidden until both have deployed (§2.3)")
    map: Name | None = Field(None, description="a map of the game's catalogue by name (default: its first; the "
                             "built-in catalogue's one map is sample)")


class ArmyIn(Request):
    model_config = ConfigDict(extra="forbid", strict=True)

    units: list[Name] = Field(
        max_length=4 * MAX_UNITS, description=f"unit types of the game's catalogue (built in: {', '.join(UNIT_TYPES)}"
        f"), exactly one king, at most {MAX_UNITS} units (§2.2, R2)")
    tactics: list[Name] = Field(
        default_factory=list, max_length=16, description="tactic tiles of the game's catalogue (built in: "
        f"{', '.join(TACTICS)}), each once")


class PlayerIn(SeatPlayer):
    army: Name | ArmyIn = Field(
        description=f"an army of the game's catalogue (built in: {', '.join(ARMIES)}) or its units and tactic "
        "tiles; costs at most the total cost (§2.2)", examples=["balanced"])


class PositionUnitIn(Request):
    model_config = ConfigDict(extra="forbid", strict=True)

    owner: SeatId
    unit: str = Field(max_length=8, description="the unit's id in its owner's army: K, I1, C2, ...", examples=["I1"])
    square: str = Field(max_length=8, examples=["C3"])
    facing: Literal["N", "E", "S", "W"]


class PositionIn(Request):
    """A starting position (like a chess FEN): the game begins at ``to_move``'s tactics step of ``turn``; the
    army units not on the map count as removed (docs/light-wars.md)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    units: list[PositionUnitIn] = Field(max_length=2 * MAX_UNITS)
    to_move: SeatId
    first: SeatId | None = Field(None, description="the first player (default: to_move)")
    turn: JsonInt | None = Field(None, description="the turn (default 1)", json_schema_extra={"minimum": 1})
    stock: dict[SeatId, JsonInt] | None = Field(None, description="bases in stock (default: 12 less the units on "
                                                "the map)")
    scores: dict[SeatId, JsonInt] | None = Field(None, description="scores (default: the cost of the opponent's "
                                                 "units not on the map)")


class LightWarsGameIn(GameSetup):
    """A game of Light Wars (docs/light-wars.md)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [EXAMPLE]})

    system: Literal["light-wars"]
    players: list[PlayerIn] = Field(min_length=SEATS.min, max_length=SEATS.max,
                                    description=f"{SEATS} players: p1 red (rows 1-2), p2 blue (rows 8-9)")
    variant: VariantIn = Field(default_factory=VariantIn, examples=[{"mode": "sealed", "size": "medium"}])
    position: PositionIn | None = None

    def engine_setup(self) -> dict[str, Any]:
        setup = super().engine_setup()
        variant = setup.get("variant") or {}
        setup["variant"] = {k: v for k, v in variant.items() if v is not None}
        return setup


def army_shorthand(text: str) -> Any:
    """``--lw-army``: a sample army's name, or its units and tactic tiles as ``unit,unit+tile,tile`` (or JSON)."""
    if text in ARMIES:
        return text
    units, _, tiles = text.partition("+")
    return {"units": [u.strip() for u in units.split(",") if u.strip()],
            "tactics": [t.strip() for t in tiles.split(",") if t.strip()]}


def catalogue() -> dict[str, Any]:
    """The sample data as the board drawing reads it (``/static/systems/light-wars/catalogue.json``)."""
    return {
        "units": {k: {"name": t.name, "letter": t.letter, "cost": t.cost, "move": t.move, "attack": t.attack,
                      "skill": t.skill} for k, t in UNIT_TYPES.items()},
        "tactics": {k: {"name": t.name, "cost": t.cost, "text": t.text} for k, t in TACTICS.items()},
        "castles": {"p1": castle(0), "p2": castle(1)},
        "territory": {"p1": [r + 1 for r in territory_rows(0)], "p2": [r + 1 for r in territory_rows(1)]},
        "arrows": ARROWS,
    }


LABELS_OF = display_labels("Light Wars", ARMIES, {"king": "The King removed", "castle": "A Castle taken",
                                                  "score": "The higher score"},
                           colours={"p1": "#b3261e", "p2": "#1f5fbf"})  # red and blue, as web/board.js paints them
CLI = ModelOptions(NAME, LightWarsGameIn, prefix="lw-", shorthand={"army": army_shorthand})  # --mode, --army: others'
PLUGIN = ApiParts(name=NAME, setup=LightWarsGameIn, cli=CLI,
                  web=WebParts(Path(__file__).parent / "web", data={"catalogue.json": catalogue, LABELS: LABELS_OF}))
