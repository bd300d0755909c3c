"""Tournaments: create, register players, start Swiss rounds (which create the games), forfeits, standings.

Writes need the organiser's token (shown once when the tournament is created); reading is public.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from fastapi import APIRouter, Path, Query, Request

from api import auth, links
from api.errors import error_responses
from api.models import (
    EntrantIn,
    EntrantOut,
    ResultIn,
    ResultOut,
    StandingsOut,
    StartedRoundOut,
    TournamentCreated,
    TournamentIn,
    TournamentList,
    TournamentOut,
)
from replay.tournaments import Tournament, TournamentService

router = APIRouter(tags=["tournaments"])

TournamentId = Path(min_length=1, max_length=64)
_NO_TOURNAMENT = "no such tournament (not_found)"
_READ_ERRORS = error_responses(404, 422, described={404: _NO_TOURNAMENT})
_WRITE_ERRORS = error_responses(401, 403, 404, 409, 413, 422, described={
    401: "no organiser token (unauthorized), or an invalid one (invalid_token)",
    403: "a valid token that is not the organiser's (forbidden)",
    404: _NO_TOURNAMENT,
    409: "refused in the tournament's current state: registration_closed, already_registered, round_unfinished, "
    "tournament_over, too_few_players, game_finished",
    422: "invalid_request (details), or the system refuses the army",
})


def _service(request: Request) -> TournamentService:
    return request.app.state.tournaments


def _organiser(request: Request, tournament: Tournament) -> None:
    role = auth.caller_role(request, {"organiser": tournament.organiser_hash})
    auth.require(role, ("organiser",), "organise this tournament")


def _summary(service: TournamentService, t: Tournament) -> dict[str, Any]:
    results = {(r.round, r.table): r for r in service.results(t)}
    rounds = []
    for rnd in t.played:
        tables = []
        for tb in rnd.tables:
            r = results[(rnd.number, tb.table)]
            tables.append({"table": tb.table, "p1": tb.p1, "p2": tb.p2, "game_id": tb.game_id,
                           "status": r.status, "winner": r.winner, "kills": r.kills})
        rounds.append({"round": rnd.number, "tables": tables, "bye": rnd.bye})
    finished = len(t.played) == t.rounds and all(r.status != "playing" for r in results.values())
    return {
        "id": t.id,
        "name": t.name,
        "system": t.system,
        "format": t.format,
        "rounds": t.rounds,
        "variant": t.variant,
        "created_at": t.created_at,
        "status": "registration" if not t.played else ("finished" if finished else "running"),
        "players": [{"id": e.id, "name": e.name, "army": e.army if isinstance(e.army, str) else
                     f"custom ({len(e.army)} cards)"} for e in t.entrants.values()],
        "played_rounds": rounds,
    }


@router.post(
    "/tournaments", status_code=201, response_model=TournamentCreated, summary="Create a tournament",
    responses={
        201: {"description": "the tournament, with the organiser's token (shown once)",
              "links": links.TOURNAMENT_CREATED},
        **error_responses(401, 403, 413, 422, described={
            401: "the server has an admin key and none was sent (unauthorized)", 403: "a wrong admin key (forbidden)",
            422: "invalid_request (details), or the system refuses the variant"}),
    },
    **auth.ADMIN,
)
def create_tournament(request: Request, body: TournamentIn) -> TournamentCreated:
    """The answer holds the organiser's bearer token, shown once: it registers players, starts rounds and
    enters forfeits."""
    auth.require_admin(request)
    tokens, hashes = auth.new_tokens(["organiser"])
    tid = _service(request).create(body.name, body.system, body.format, body.rounds, body.variant, hashes["organiser"])
    return TournamentCreated(id=tid, token=tokens["organiser"])


@router.get("/tournaments", response_model=TournamentList, summary="List tournaments",
            responses=error_responses(422))
def list_tournaments(request: Request, limit: int = Query(100, ge=1, le=1000)) -> dict[str, Any]:
    service = _service(request)
    return {"tournaments": [
        {"id": t.id, "name": t.name, "system": t.system, "rounds": t.rounds, "created_at": t.created_at,
         "players": len(t.entrants), "played_rounds": len(t.played)}
        for t in service.list(limit)
    ]}


@router.get("/tournaments/{tournament_id}", response_model=TournamentOut, summary="A tournament: players, rounds, tables",
            responses=_READ_ERRORS)
def get_tournament(request: Request, tournament_id: str = TournamentId) -> dict[str, Any]:
    service = _service(request)
    return _summary(service, service.get(tournament_id))


@router.post("/tournaments/{tournament_id}/players", status_code=201, response_model=EntrantOut, summary="Register a player",
             responses=_WRITE_ERRORS, **auth.TOKEN)
def register(request: Request, body: EntrantIn, tournament_id: str = TournamentId) -> dict[str, Any]:
    """Before the first round only. The army is checked by the game system."""
    service = _service(request)
    _organiser(request, service.get(tournament_id))
    entrant = service.register(tournament_id, body.id, body.name, body.army)
    return {"id": entrant.id, "name": entrant.name}


@router.post("/tournaments/{tournament_id}/rounds", status_code=201, response_model=StartedRoundOut, summary="Pair and start the next round",
             responses={201: {"description": "the round's tables, each game's tokens (shown once)",
                              "links": links.ROUND_STARTED}, **_WRITE_ERRORS}, **auth.TOKEN)
def start_round(request: Request, tournament_id: str = TournamentId) -> dict[str, Any]:
    """Swiss pairing (no rematch while avoidable, bye to the lowest-ranked player without one, seats balanced).
    Creates one game per table; the answer holds each game's tokens, shown once."""
    service = _service(request)
    _organiser(request, service.get(tournament_id))
    started = service.start_round(tournament_id, auth.new_tokens)
    return {"round": started.round, "bye": started.bye, "tables": [asdict(t) for t in started.tables]}


@router.post("/tournaments/{tournament_id}/rounds/{round_number}/tables/{table_number}/result", status_code=201,
             response_model=ResultOut, summary="Enter a forfeit result", responses=_WRITE_ERRORS, **auth.TOKEN)
def enter_result(
    request: Request,
    body: ResultIn,
    tournament_id: str = TournamentId,
    round_number: int = Path(ge=1, le=64),
    table_number: int = Path(ge=1, le=10_000),
) -> dict[str, Any]:
    """For a game that was not played out; a finished game's result stands (409 ``game_finished``)."""
    service = _service(request)
    _organiser(request, service.get(tournament_id))
    result = service.enter_result(tournament_id, round_number, table_number, body.winner, dict(body.kills))
    return asdict(result)


@router.get("/tournaments/{tournament_id}/standings", response_model=StandingsOut, summary="Standings with tiebreaks", responses=_READ_ERRORS)
def standings(request: Request, tournament_id: str = TournamentId) -> dict[str, Any]:
    """Ordered by match points (3/1/0, a bye is a win), opponents' match-win % (floor 1/3), card-kill
    difference, then player id. Only finished (or forfeited) tables count."""
    return {"standings": [asdict(s) for s in _service(request).standings(tournament_id)]}
