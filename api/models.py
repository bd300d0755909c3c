"""Request and response bodies of the HTTP API (pydantic). Requests refuse unknown fields (``extra="forbid"``);
sizes are bounded so absurd input gets a 422 with a clear message, never a 500."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

MAX_SEQ = 2**62
Seq = Annotated[int, Field(ge=0, le=MAX_SEQ)]
Slug = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:-]*$")]
CardId = Annotated[str, Field(min_length=1, max_length=100)]
Army = Annotated[
    str | Annotated[list[CardId], Field(min_length=1, max_length=200)],
    Field(description="a faction name (its core deck) or an explicit list of card ids", examples=["orcs"]),
]

# Option values of a variant: flat, JSON-safe integers (I-JSON, RFC 7493), short strings.
OptionValue = bool | Annotated[int, Field(ge=-(2**53), le=2**53)] | Annotated[str, Field(max_length=64)]
Variant = Annotated[dict[Annotated[str, Field(max_length=64)], OptionValue], Field(max_length=16)]

LORDS_OF_WAR_GAME = {
    "system": "lords-of-war",
    "players": [
        {"id": "p1", "name": "Alice", "army": "orcs"},
        {"id": "p2", "name": "Bob", "army": "dwarves"},
    ],
    "variant": {"mode": "sealed"},
    "seed": 42,
}


class Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


# -- games ----------------------------------------------------------------------------------------------


class PlayerIn(Request):
    id: str = Field(pattern=r"^p[1-9]$", description="the seat: p1, p2, ... in seating order", examples=["p1"])
    name: str = Field("", max_length=100, examples=["Alice"])
    army: Army


class GameIn(Request):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [LORDS_OF_WAR_GAME]})

    system: str = Field(min_length=1, max_length=64, examples=["lords-of-war"])
    players: list[PlayerIn] = Field(min_length=1, max_length=8)
    variant: Variant = Field(
        default_factory=dict,
        description="system options; Lords of War: mode (sealed|table), intermediate, unbounded, kill_target, "
        "command_target",
        examples=[{"mode": "sealed", "kill_target": 20}],
    )
    seed: int | None = Field(None, ge=0, le=2**63 - 1, description="shuffles the decks (drawn if absent)")
    position: dict[str, Any] | None = Field(
        None, max_length=8, description="start from a position: {board: [{square, card, owner}], to_move, kills?}"
    )
    tournament: Slug | None = Field(None, description="the tournament this game belongs to, if any")


class GameCreated(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"id": "Xa3kP9qz", "seq": 3,
                 "tokens": {"scorekeeper": "2Xh...", "p1": "q9T...", "p2": "Lm4..."}}
            ]
        }
    )

    id: str
    seq: int
    tokens: dict[str, str] = Field(description="shown once: the scorekeeper's and each seat's bearer token")


class SeatOut(BaseModel):
    id: str
    name: str
    army: str


class GameOut(BaseModel):
    id: str
    system: str
    created_at: str
    players: list[SeatOut]
    variant: dict[str, Any]
    status: Literal["active", "over"]
    winner: str | None = None
    end_reason: str | None = None
    seq: int
    tournament: str | None = None
    round: int | None = None
    table: int | None = None


class ActionIn(Request):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "action": {"type": "place", "player": "p1", "card": "orcs/orc-ravager-2", "square": "C3"},
                    "expected_seq": 3,
                    "idempotency_key": "tablet-7f3a-0001",
                }
            ]
        },
    )

    action: dict[str, Any] = Field(
        max_length=16, description="the system's action, e.g. {type: place|draw|recall|concede, player, ...}"
    )
    expected_seq: Seq | None = Field(None, description="the last seq you saw; a stale one gets 409 conflict")
    idempotency_key: str | None = Field(
        None, min_length=1, max_length=128, description="a retried request with the same key gets the first answer"
    )


class ActOut(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"seq": 4, "events": [{"seq": 4, "type": "placed", "player": "p1", "card": "orcs/orc-ravager-2",
                                        "square": "C3"}]}
            ]
        }
    )

    seq: int = Field(description="the game's seq after the action")
    events: list[dict[str, Any]] = Field(description="the events the action caused, in the caller's view")


class LegalOut(BaseModel):
    seq: int
    active: str | None
    actions: list[dict[str, Any]]


class StateOut(BaseModel):
    model_config = ConfigDict(extra="allow")
    seq: int


class ExplanationOut(BaseModel):
    seq: int
    text: str
    cause: dict[str, Any]


class ExplanationsOut(BaseModel):
    view: str
    explanations: list[ExplanationOut]


# -- tournaments ----------------------------------------------------------------------------------------


class TournamentIn(Request):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"name": "Spring Open", "system": "lords-of-war", "format": "swiss", "rounds": 4}]},
    )

    name: str = Field(min_length=1, max_length=200)
    system: str = Field(min_length=1, max_length=64, examples=["lords-of-war"])
    format: Literal["swiss"] = "swiss"
    rounds: int = Field(ge=1, le=64)
    variant: Variant = Field(default_factory=dict, description="the variant every game of the tournament uses")


class TournamentCreated(BaseModel):
    id: str
    token: str = Field(description="the organiser's bearer token, shown once")


class EntrantIn(Request):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"id": "alice", "name": "Alice", "army": "orcs"}]}
    )

    id: Slug
    name: str = Field("", max_length=100)
    army: Army


class ResultIn(Request):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"winner": "p1"}]})

    winner: Literal["p1", "p2", "draw"] = Field(description="the seat that wins by forfeit, or a draw")
    kills: dict[Literal["p1", "p2"], Annotated[int, Field(ge=0, le=1000)]] = Field(
        default_factory=dict, description="card kills to count for the kill difference (default 0)"
    )


class EntrantOut(BaseModel):
    id: str
    name: str


class PlayerListed(BaseModel):
    id: str
    name: str
    army: str


class TableOut(BaseModel):
    table: int
    p1: str
    p2: str
    game_id: str
    status: Literal["playing", "finished", "forfeit"]
    winner: str | None
    kills: dict[str, int]


class RoundOut(BaseModel):
    round: int
    tables: list[TableOut]
    bye: str | None


class TournamentOut(BaseModel):
    id: str
    name: str
    system: str
    format: str
    rounds: int
    variant: dict[str, Any]
    created_at: str
    status: Literal["registration", "running", "finished"]
    players: list[PlayerListed]
    played_rounds: list[RoundOut]


class TournamentListed(BaseModel):
    id: str
    name: str
    system: str
    rounds: int
    created_at: str
    players: int
    played_rounds: int


class TournamentList(BaseModel):
    tournaments: list[TournamentListed]


class StartedTableOut(BaseModel):
    table: int
    p1: str = Field(description="the entrant seated p1")
    p2: str
    game_id: str
    tokens: dict[str, str] = Field(description="the game's scorekeeper and seat tokens, shown once")


class StartedRoundOut(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"round": 1, "bye": "erin", "tables": [
                    {"table": 1, "p1": "alice", "p2": "bob", "game_id": "Xa3kP9qz",
                     "tokens": {"scorekeeper": "2Xh...", "p1": "q9T...", "p2": "Lm4..."}}
                ]}
            ]
        }
    )

    round: int
    bye: str | None
    tables: list[StartedTableOut]


class ResultOut(TableOut):
    """A table of a round, with the round it belongs to."""

    round: int


class StandingOut(BaseModel):
    rank: int
    player: str
    name: str
    match_points: int
    wins: int
    draws: int
    losses: int
    byes: int
    opponents_match_win: float = Field(description="0..1, each opponent floored at 1/3")
    kill_difference: int
    opponents: list[str]


class StandingsOut(BaseModel):
    standings: list[StandingOut]
