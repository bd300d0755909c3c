"""Pebbles' API parts (``api.plugin.ApiSystem``): the typed body of ``POST /games`` and the
options it gives ``warlog tournament``: the ``api`` part of the plug-in (``warlog_pebbles.PLUGIN``).

It plugs in exactly as a shipped system would: a ``GameSetup`` keyed on its name, players without armies, its
own variant (``heap``, ``teams``), options derived from the model (``--heap``, ``--teams``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from api.models import Request
from api.plugin import ApiParts, GameSetup, ModelOptions, SeatPlayer
from warlog_pebbles.rules import NAME, PEBBLES

SEATS = PEBBLES.seat_counts()


class PebblesVariantIn(Request):
    model_config = ConfigDict(extra="forbid", strict=True)

    heap: int = Field(21, ge=6, le=99, description="pebbles in the heap at the start (6 to 99)")
    teams: bool = Field(False, description="four seats, p1 and p3 against p2 and p4")


class PebblesGameIn(GameSetup):
    """A game of pebbles (warlog_pebbles.rules)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"system": NAME, "players": [{"id": "p1"}, {"id": "p2"}, {"id": "p3"}], "variant": {"heap": 12}}]})

    system: Literal["pebbles"]
    players: list[SeatPlayer] = Field(min_length=SEATS.min, max_length=SEATS.max)
    variant: PebblesVariantIn = Field(default_factory=PebblesVariantIn)


PLUGIN = ApiParts(name=NAME, setup=PebblesGameIn, cli=ModelOptions(NAME, PebblesGameIn))
