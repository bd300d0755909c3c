"""Request and response bodies of the HTTP API (pydantic). Requests refuse unknown fields (``extra="forbid"``);
sizes are bounded so absurd input gets a 422 with a clear message, never a 500."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, model_validator

from api.options import MAX_ROUNDS, MAX_SCORE
from engine.system import MAX_SEATS, MIN_SEATS
from engine.systems import DEFAULT_SYSTEM

EXAMPLE_SYSTEM = DEFAULT_SYSTEM  # for the examples of the OpenAPI document

MAX_SEQ = 2**62
Seq = Annotated[int, Field(ge=0, le=MAX_SEQ)]
Slug = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:-]*$")]
SeatId = Annotated[str, Field(pattern=rf"^p[1-{MAX_SEATS}]$", description="a seat: p1, p2, ... in seating order")]
CardId = Annotated[str, Field(min_length=1, max_length=100)]
CardList = Annotated[list[CardId], Field(min_length=1, max_length=200)]
# a deck or army list the player brings, field by field as the system's setup takes it (issue 30; each system's
# fields: its setup model in the OpenAPI document, and docs/api.md "Decks at registration")
ArmyList = Annotated[dict[Annotated[str, Field(min_length=1, max_length=32)], CardId | CardList | None],
                     Field(min_length=1, max_length=8)]
Army = Annotated[
    str | CardList | ArmyList,
    Field(description="what a player brings, as the game system takes it: a deck or army of the tournament's "
          "catalogue by name, a list of its cards' ids, or the system's own list (the fields its "
          "setup model's army takes); the system judges it (docs/api.md, \"Decks at registration\")",
          examples=["orcs"]),
]

# Option values of a variant: flat, JSON-safe integers (I-JSON, RFC 7493), short strings.
OptionValue = bool | Annotated[int, Field(ge=-(2**53), le=2**53)] | Annotated[str, Field(max_length=64)]
Variant = Annotated[dict[Annotated[str, Field(max_length=64)], OptionValue], Field(max_length=16)]


class Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


# -- games ----------------------------------------------------------------------------------------------
# The body of POST /games is each system's own model (api.plugin.GameSetup, api.systems.game_in).


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
    army: str | None = None


class GameOut(BaseModel):
    id: str
    system: str
    created_at: str
    players: list[SeatOut]
    variant: dict[str, Any]
    status: Literal["active", "over"]
    winner: str | None = Field(None, description="the winning seat, or draw; None while the game runs (and when "
                               "several seats share the win: see placings)")
    end_reason: str | None = None
    placings: list[list[str]] | None = Field(
        None, description="once over: every seat in finishing order, tied seats (or a team) together")
    seq: int
    tournament: str | None = None
    round: int | None = None
    table: int | None = None
    seed_chosen: bool = Field(
        False, description="true: the game's creator chose its seed (insecure_seed), so it may know every hidden card "
        "and die; false: the server drew it")
    catalogue: str | None = Field(None, description="the id of the catalogue the game plays (GET /catalogues/{id}); "
                                  "null: its system's default catalogue")


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
    active: str | None = Field(description="the seat whose actions these are (None: the game awaits nobody)")
    actions: list[dict[str, Any]]
    to_act: list[str] = Field(description="every seat the game awaits now, in the order expected")


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


class StepExplanation(BaseModel):
    text: str
    cause: dict[str, Any]


class StepOut(BaseModel):
    seq: int
    turn: int = Field(description="the turn (or round) after the event, as the game's system counts them (0 before "
                      "the first): the replay page groups its steps by it")
    state: StateOut = Field(description="the state after event seq, in the view (as GET /games/{id}/state answers)")
    explanation: StepExplanation | None = Field(
        description="the event's explanation (as GET /games/{id}/explanations has it); null for an event the view "
        "may not see")


class StepsOut(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{
        "view": "spectator", "last_seq": 204, "next": None,
        "steps": [{"seq": 4, "turn": 0, "state": {"seq": 4, "turn": 0, "phase": "reinforce", "board": [
            {"square": "C3", "card": "orcs/orc-ravager-1", "owner": "p1"}]},
            "explanation": {"text": "p1 places Orc Ravager at C3 (the challenge, \u00a74)",
                            "cause": {"type": "placed", "square": "C3", "rule": "\u00a74"}}}],
    }]})

    view: str
    last_seq: int = Field(description="the game's last seq when this answer was read")
    steps: list[StepOut]
    next: int | None = Field(description="the first seq of the range not in this answer (ask again with from=next), "
                             "or null")


# -- tournaments ----------------------------------------------------------------------------------------


class TournamentIn(Request):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"name": "Spring Open", "system": EXAMPLE_SYSTEM, "format": "swiss", "rounds": 4}]
        },
    )

    name: str = Field(min_length=1, max_length=200)
    system: str = Field(min_length=1, max_length=64, examples=[EXAMPLE_SYSTEM])
    format: Literal["swiss"] = "swiss"
    rounds: int = Field(ge=1, le=MAX_ROUNDS)
    variant: Variant = Field(default_factory=dict, description="the variant every game of the tournament uses")
    seats: int | None = Field(
        None, ge=MIN_SEATS, le=MAX_SEATS,
        description="seats a table: 2 pairs players (Swiss), more seats them in pods of that many (one fewer where "
        "the count demands); default: 2 when the system allows two, else the most its variant allows")
    entrants: Literal["players", "teams"] = Field(
        "players", description="who registers: players (one a seat), or teams (a fixed team of seats/2 members "
        "registers once and plays every round as one entrant; for a variant played by two teams of equal size, "
        "odd seats against even: docs/api.md, \"Tournaments\", lists them)")
    tiebreaks: list[Annotated[str, Field(max_length=32)]] | None = Field(
        None, max_length=7, description="the standings' order, from: match_points, opponents_match_win, game_win, "
        "opponents_game_win, score_difference, strength_of_schedule, head_to_head (default: match_points, "
        "opponents_match_win, score_difference); the entrant id settles what is still tied")
    cut_draws: Literal["replay", "time_rule"] = Field(
        "replay", description="a drawn game of the cut: replayed, or decided by the system's time rule (the higher "
        "seed goes through if that is a draw too)")
    seeding: Literal["random", "rating", "registration"] = Field(
        "random", description="round 1's order: random (from a seed the server draws and records), rating (the "
        "ratings statistic, top half against bottom half), or registration order")
    check_in: StrictBool = Field(False, description="only players who checked in are paired in round 1")
    catalogue: str | None = Field(None, min_length=1, max_length=64, description="the format (issue 30): a stored "
                                  "catalogue of the system, by id (GET /catalogues); default: the system's built-in "
                                  "data")
    decks_required: StrictBool = Field(False, description="every entrant registers with a deck or army")
    points_limit: int | None = Field(None, ge=1, le=100_000, description="the most points an army may have (a "
                                     "system whose armies have points; 422 invalid_points_limit for any other)")


class TournamentCreated(BaseModel):
    id: str
    token: str = Field(description="the organiser's bearer token, shown once")


class EntrantIn(Request):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"id": "alice", "name": "Alice", "army": "orcs"}]}
    )

    id: Slug
    name: str = Field("", max_length=100)
    army: Army | None = Field(None, description="what the player brings to every game, as the tournament's system "
                              "takes it (leave it out for a system whose players bring nothing)")


class MemberIn(Request):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=100)
    army: Army | None = Field(None, description="what the member brings to every game, as the system takes it")


class TeamIn(Request):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"id": "hammers", "name": "The Hammers", "members": [
            {"name": "Ana", "army": "orcs"}, {"name": "Ben", "army": "dwarves"}]}]}
    )

    id: Slug
    name: str = Field("", max_length=100)
    members: list[MemberIn] = Field(min_length=1, max_length=MAX_SEATS, description="exactly seats/2 members, in the "
                                    "order they take their team's seats (odd p1, p3, p5 or even p2, p4, p6)")


class MemberOut(BaseModel):
    name: str
    army: str | None = None


class TeamOut(BaseModel):
    id: str
    name: str
    members: list[MemberOut]


Score = Annotated[int, Field(ge=0, le=MAX_SCORE)]


class ResultIn(Request):
    """A forfeit: ``placings`` (every seat of the table once, in finishing order, tied seats together) and
    ``scores``; or, at a two-seat table, ``winner`` (a seat or ``draw``) and ``kills`` (the scores' first name)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"winner": "p1"}, {"placings": [["p2"], ["p1", "p3"], ["p4"]],
                                                          "scores": {"p2": 9, "p1": 4, "p3": 4}}]},
    )

    placings: list[Annotated[list[SeatId], Field(min_length=1, max_length=MAX_SEATS)]] | None = Field(
        None, min_length=1, max_length=MAX_SEATS, description="the table's seats in finishing order, ties grouped")
    scores: dict[SeatId, Score] | None = Field(
        None, description="scores to count for the score-difference tie-break (a seat left out: 0)")
    winner: SeatId | Literal["draw"] | None = Field(
        None, description="two-seat tables: the seat that wins by forfeit, or a draw (instead of placings)")
    kills: dict[SeatId, Score] | None = Field(None, description="the same as scores (its two-seat name)")
    winning_team: Slug | None = Field(
        None, description="team tournaments: the team (its id) that wins by forfeit, or draw (instead of placings)")
    team_scores: dict[Slug, Score] | None = Field(
        None, description="team tournaments: each team's score for the tie-break (a team left out: 0)")

    @model_validator(mode="after")
    def _one_form(self) -> ResultIn:
        if sum(x is not None for x in (self.placings, self.winner, self.winning_team)) != 1:
            raise ValueError("give exactly one of placings, winner (a two-seat table) and winning_team (a team "
                             "tournament)")
        if sum(x is not None for x in (self.scores, self.kills, self.team_scores)) > 1:
            raise ValueError("give one of scores, kills (the same) and team_scores")
        return self


class RoundIn(Request):
    """Options of a round (or the cut's games): minutes on its clock."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"duration": 90}]})

    duration: int | None = Field(None, ge=1, le=24 * 60, description="minutes on the round's clock: time is called "
                                 "when they run out (null: no clock; the organiser may still call time)")


class CorrectionIn(ResultIn):
    """A corrected result (any form of a result) and why: ``reason`` is required."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"winner": "p2", "kills": {"p1": 3, "p2": 5},
                                         "reason": "score sheet misread: p2 destroyed 5 cards"}]},
    )

    reason: str | None = Field(None, max_length=500, description="why the result changes (required)")


class CutIn(Request):
    """The cut: its size, each higher seed's choice to go first or second (default first), the clock."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"size": 4,
                                                                              "choices": {"alice": "second"}}]})

    size: int = Field(ge=1, le=64, description="the top 2, 4 or 8 of the standings")
    choices: dict[Slug, Literal["first", "second"]] | None = Field(
        None, max_length=8, description="a higher seed's choice by entrant id: go first (p1) or second (default first)")
    duration: int | None = Field(None, ge=1, le=24 * 60, description="minutes on the clock of these games")


class CutNextIn(Request):
    model_config = ConfigDict(extra="forbid")

    choices: dict[Slug, Literal["first", "second"]] | None = Field(None, max_length=8)
    duration: int | None = Field(None, ge=1, le=24 * 60)


class EntrantOut(BaseModel):
    id: str
    name: str


class PlayerListed(BaseModel):
    id: str
    name: str
    army: str | None = None
    checked_in: bool = Field(False, description="checked in for round 1 (a tournament with check_in)")
    absent: bool = Field(False, description="not checked in when round 1 was paired: not paired")
    dropped_after: int | None = Field(None, description="dropped when this many rounds had started (null: playing)")
    joined: int = Field(1, description="the first round the player could be paired in (late entry: after 1)")
    missed: Literal["loss", "bye"] | None = Field(None, description="a late entrant's missed rounds count as")


class TableOut(BaseModel):
    table: int
    seats: dict[str, str] = Field(description="seat -> the entrant seated there, in seating order")
    p1: str = Field(description="the entrant seated p1 (also in seats)")
    p2: str = Field(description="the entrant seated p2 (also in seats)")
    game_id: str
    status: Literal["playing", "finished", "forfeit", "corrected"]
    winner: str | None = Field(description="the winning seat, draw, or None (playing; or several seats share the win)")
    placings: list[list[str]] | None = Field(description="the seats in finishing order, ties grouped (None: playing)")
    scores: dict[str, int] = Field(description="each seat's score in the system's terms (Outcome.scores)")
    kills: dict[str, int] = Field(description="the same as scores (its two-seat name)")
    original: dict[str, Any] | None = Field(None, description="a corrected table: its result before the first "
                                            "correction (status, winner, placings, scores); null otherwise")
    corrections: list[dict[str, Any]] = Field(default_factory=list, description="the organiser's corrections in "
                                              "order (placings, scores, reason, at); the last one counts")
    match: int | None = Field(None, description="a cut table: its match in the bracket round")
    choice: str | None = Field(None, description="a cut table: the higher seed chose to go first or second")


class RoundOut(BaseModel):
    round: int
    tables: list[TableOut]
    bye: str | None = Field(description="the player with the bye (the first of byes)")
    byes: list[str]
    stage: Literal["swiss", "cut"] = "swiss"
    bracket_round: int | None = None
    started_at: str | None = Field(None, description="when the round started (the server's clock)")
    duration: int | None = Field(None, description="minutes on the round's clock (null: no clock)")
    deadline: str | None = Field(None, description="started_at + duration")
    time_left: int | None = Field(None, description="seconds left on the clock (0 once time is called)")
    time_called: dict[str, Any] | None = Field(None, description="{at, by: organiser | clock, tables: the tables "
                                               "whose games it ended}")
    seed: int | None = Field(None, description="round 1 of a random or rating seeding: the seed of its order")
    missed: dict[str, Literal["loss", "bye"]] = Field(
        default_factory=dict, description="late entrants who missed this round, and what it counts as")


class TournamentOut(BaseModel):
    id: str
    name: str
    system: str
    format: str
    rounds: int
    seats: int = Field(description="seats a table (2: Swiss pairs; more: pods, or two teams)")
    entrants: Literal["players", "teams"] = Field(description="who the entrants are (tables' seats name them)")
    variant: dict[str, Any]
    created_at: str
    status: Literal["registration", "running", "finished"]
    seeding: Literal["random", "rating", "registration"] = Field(
        "registration", description="round 1's order (tournaments created before seeding: registration)")
    check_in: bool = Field(False, description="only checked-in players are paired in round 1")
    players: list[PlayerListed] = Field(description="the registered players (empty in a team tournament)")
    teams: list[TeamOut] = Field(description="the registered teams with their members (empty unless entrants are "
                                 "teams)")
    played_rounds: list[RoundOut]
    tiebreaks: list[dict[str, str]] = Field(default_factory=list, description="the standings' tie-breaks in order: "
                                            "name and explanation")
    cut_draws: str = "replay"
    bracket: dict[str, Any] | None = Field(None, description="the cut's bracket (GET .../bracket); null: no cut")
    catalogue: str | None = Field(None, description="the catalogue the tournament plays (its format): the pinned "
                                  "one's id, else the system's default's (null: a system without catalogues)")
    decks_required: bool = Field(False, description="every entrant registers with a deck or army")
    points_limit: int | None = Field(None, description="the most points an army may have (null: no limit)")


class DeckListed(BaseModel):
    player: str = Field(description="the entrant's id (a team's, for its members)")
    name: str = Field(description="the player's display name (a team member's name)")
    team: str | None = Field(None, description="a team member's team name (absent for a player)")
    deck: Any = Field(description="the registered deck or army as given (null: none registered)")
    summary: str = Field(description="the deck in one line")


class DeckLists(BaseModel):
    decks: list[DeckListed]


class TournamentListed(BaseModel):
    id: str
    name: str
    system: str
    rounds: int
    seats: int
    created_at: str
    players: int = Field(description="registered entrants: players, or teams (see entrants)")
    entrants: Literal["players", "teams"] = "players"
    played_rounds: int
    status: Literal["registration", "running", "finished"] = Field(
        "registration", description="as GET /tournaments/{id} says it")
    stage: Literal["swiss", "cut"] | None = Field(None, description="the last round's stage (null: no round yet)")
    round: int = Field(0, description="Swiss rounds started")
    in_play: bool = Field(False, description="a table of the tournament is playing")
    cut: int | None = Field(None, description="the cut's size (null: no cut)")


class TournamentList(BaseModel):
    tournaments: list[TournamentListed]


class StartedTableOut(BaseModel):
    table: int
    seats: dict[str, str] = Field(description="seat -> the entrant seated there")
    p1: str = Field(description="the entrant seated p1")
    p2: str
    game_id: str
    tokens: dict[str, str] = Field(description="the game's scorekeeper and seat tokens, shown once")


class StartedRoundOut(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"round": 1, "bye": "erin", "byes": ["erin"], "tables": [
                    {"table": 1, "seats": {"p1": "alice", "p2": "bob"}, "p1": "alice", "p2": "bob",
                     "game_id": "Xa3kP9qz", "tokens": {"scorekeeper": "2Xh...", "p1": "q9T...", "p2": "Lm4..."}}
                ]}
            ]
        }
    )

    round: int
    bye: str | None
    byes: list[str]
    tables: list[StartedTableOut]


class ResultOut(TableOut):
    """A table of a round, with the round it belongs to."""

    round: int


class StandingOut(BaseModel):
    rank: int
    player: str
    name: str
    match_points: int | float = Field(description="two seats: 3 a win, 1 a draw; pods: place points (n-1 .. 0, "
                                      "ties share); a bye is a win")
    wins: int
    draws: int
    losses: int
    byes: int
    opponents_match_win: float = Field(description="0..1, each opponent floored at 1/3")
    score_difference: int | float = Field(description="own score minus the mean of the table's others, summed")
    kill_difference: int | float = Field(description="the same as score_difference (its two-seat name)")
    opponents: list[str]
    members: list[str] | None = Field(None, description="a team entrant's members' names (null: a player)")
    tiebreaks: list[dict[str, Any]] = Field(default_factory=list, description="the tournament's tie-breaks in "
                                            "order, each {name, value, explanation}")
    dropped: bool = False
    dropped_after: int | None = Field(None, description="dropped when this many rounds had started (null: playing)")


class StandingsOut(BaseModel):
    standings: list[StandingOut]


# -- tournaments: attendance, swaps and re-pairings (issue 31) -------------------------------------------------


class LateEntrantIn(EntrantIn):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"id": "dana", "name": "Dana", "army": "elves", "missed": "loss"}]},
    )

    missed: Literal["loss", "bye"] = Field(description="what each round already started counts as for the player")


class ReasonIn(Request):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"reason": "left after round 2"}]})

    reason: str | None = Field(None, max_length=500, description="why (recorded with the event)")


class SwapIn(Request):
    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "examples": [{"players": ["alice", "carol"], "reason": "Alice and Bob came together from one club"}]})

    players: list[Slug] = Field(min_length=2, max_length=2, description="the two players who swap seats")
    reason: str | None = Field(None, max_length=500, description="why (required; recorded with the round)")


class RepairIn(Request):
    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "examples": [{"reason": "Dana dropped before the round began"}]})

    reason: str | None = Field(None, max_length=500, description="why (required; recorded with the round)")


class AttendanceOut(BaseModel):
    id: str
    name: str
    status: Literal["registered", "unregistered", "checked_in", "late", "dropped"] = Field(
        description="what the request made of the player")
    dropped_after: int | None = None
    joined: int = 1

