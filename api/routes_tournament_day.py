"""The tournament day (issue 31): corrected results, time called, the cut to a final and its bracket, the history,
exports. Writes need the organiser's token; reading is public. The rules: replay/tournaments/day_service.py and
docs/api.md, "Tournaments"."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response

from api import auth
from api.models import CorrectionIn, CutIn, CutNextIn, ResultOut, StartedRoundOut
from api.routes_tournaments import (
    _READ_ERRORS,
    _WRITE_ERRORS,
    RoundNumber,
    TableNumber,
    TournamentId,
    _organiser,
    _service,
    decks_shown,
    result_of,
)
from api.web import not_found_page, page, wants_html
from replay.tournaments.decks import without_lists
from replay.tournaments.model import TournamentNotFound

router = APIRouter(tags=["tournaments"])

CLOCK_SWEEP = 5.0  # seconds between the server's checks of running rounds' deadlines


@router.post("/tournaments/{tournament_id}/rounds/{round_number}/tables/{table_number}/correction",
             status_code=201, response_model=ResultOut, summary="Correct a table's result",
             responses=_WRITE_ERRORS, **auth.TOKEN)
def correct_result(request: Request, body: CorrectionIn, tournament_id: str = TournamentId,
                   round_number: int = RoundNumber, table_number: int = TableNumber) -> dict[str, Any]:
    """A wrong result corrected, with a ``reason`` (422 ``reason_required`` without one), in any form a result
    takes. The table's game is corrected first (a further ``game_ended``, adjudication ``correction`` by the
    organiser: the game's page, record and statistics follow), then the tournament's result: the table reads
    ``status: "corrected"``, its ``original`` result and its ``corrections``; standings follow.
    409 ``no_result`` (nothing to correct yet), ``cut_made`` (a Swiss table once the cut is seeded),
    ``bracket_advanced`` (a cut table once a later round started); 422 ``correction_unchanged``."""
    service = _service(request)
    t = service.get(tournament_id)
    _organiser(request, t)
    placings, scores = result_of(service, t, round_number, table_number, body)
    return service.correct_result(tournament_id, round_number, table_number, placings, scores,
                                  body.reason).as_json()


@router.post("/tournaments/{tournament_id}/rounds/{round_number}/time", status_code=201,
             summary="Call time on a round", responses=_WRITE_ERRORS, **auth.TOKEN)
def call_time(request: Request, tournament_id: str = TournamentId,
              round_number: int = RoundNumber) -> dict[str, Any]:
    """Every game of the round still running is ended by ``adjudicate`` with reason ``time`` (each system's time
    rule decides). -> ``{"round", "at", "by": "organiser", "tables": [the tables it ended]}``. 409
    ``time_already_called`` (by the organiser or the clock), ``round_over`` (a later round started, or every table
    has its result)."""
    service = _service(request)
    _organiser(request, service.get(tournament_id))
    return {"round": round_number, **service.call_time(tournament_id, round_number)}


@router.post("/tournaments/{tournament_id}/cut", status_code=201, response_model=StartedRoundOut,
             summary="Cut to a final: seed the bracket, start its first games", responses=_WRITE_ERRORS,
             **auth.TOKEN)
def start_cut(request: Request, body: CutIn, tournament_id: str = TournamentId) -> dict[str, Any]:
    """After the Swiss rounds: the top ``size`` (2, 4 or 8) of the standings, dropped entrants left out, seeded
    1 v 8, 4 v 5, 2 v 7, 3 v 6; each higher seed's ``choices`` (``first``, the default, or ``second``) decides
    who sits p1. Starts the first bracket round's games (a round of the tournament, ``stage: "cut"``). 422
    ``invalid_cut``, ``invalid_choice``; 409 ``swiss_unfinished``, ``cut_larger_than_field``, ``cut_made``."""
    service = _service(request)
    _organiser(request, service.get(tournament_id))
    return service.start_cut(tournament_id, body.size, auth.new_tokens, body.choices, body.duration).as_json()


@router.post("/tournaments/{tournament_id}/cut/next", status_code=201, response_model=StartedRoundOut,
             summary="Start the bracket's next games", responses=_WRITE_ERRORS, **auth.TOKEN)
def next_cut_games(request: Request, tournament_id: str = TournamentId,
                   body: CutNextIn | None = None) -> dict[str, Any]:
    """A replay of each drawn match (``cut_draws: "replay"``), else the next bracket round once every match of
    this one is decided. 409 ``cut_round_unfinished``, ``cut_over``, ``no_cut``."""
    service = _service(request)
    _organiser(request, service.get(tournament_id))
    return service.next_cut_games(tournament_id, auth.new_tokens, body.choices if body else None,
                                  body.duration if body else None).as_json()


@router.get("/tournaments/{tournament_id}/bracket", summary="The cut's bracket", responses=_READ_ERRORS)
def bracket(request: Request, tournament_id: str = TournamentId) -> Any:
    """``{"bracket": null}`` before the cut; then its size, seeds, rounds of matches (each with its higher and
    lower seed, status, winner, how it was decided, and its games) and the champion. A browser asking for HTML
    gets the bracket page (docs/web.md)."""
    service = _service(request)
    if wants_html(request):
        try:
            service.get(tournament_id)
        except TournamentNotFound:
            return not_found_page(f"There is no tournament {tournament_id!r}.")
        return page("bracket")
    t = service.get(tournament_id)
    return {"bracket": service.bracket_json(t, service.results(t))}


@router.get("/tournaments/{tournament_id}/history", summary="The tournament's history", responses=_READ_ERRORS)
def history(request: Request, tournament_id: str = TournamentId) -> dict[str, Any]:
    """Every event of the tournament in order (``seq``, ``type``, ``recorded_at``, ``data``): results entered and
    corrected (with their reasons) side by side, rounds started, time called, the cut. Registrations show each
    deck or army by its label until the deck lists are public (``GET .../decks``: the organiser's token, or the
    tournament's end)."""
    service = _service(request)
    events = service.history(tournament_id)
    if not decks_shown(request, service, service.get(tournament_id)):
        events = [{**e, "data": without_lists(e["data"])} for e in events]
    return {"events": events}


@router.get("/tournaments/{tournament_id}/export", summary="Export pairings, results or standings",
            responses={200: {"content": {"text/csv": {}, "application/json": {}}}, **_READ_ERRORS})
def export(request: Request, tournament_id: str = TournamentId,
           what: str = Query("standings", description="pairings | results | standings"),
           format: str = Query("csv", description="csv | json")) -> Response:
    """One row a seat (pairings: round, table, seat, entrant, name, game), a table (results: status, placings,
    scores, the last correction's reason) or an entrant (standings: rank, points, W-D-L, byes, dropped, each
    tie-break's value). 422 ``invalid_export``."""
    text = _service(request).export(tournament_id, what, format)
    media = "application/json" if format == "json" else "text/csv; charset=utf-8"
    return Response(text, media_type=media, headers={
        "Content-Disposition": f'attachment; filename="{tournament_id}-{what}.{format}"'})


async def sweep_clocks(app: FastAPI) -> None:
    """The server's clock sweep: every ``CLOCK_SWEEP`` seconds, call time in running rounds whose deadline passed
    (a read or write of the tournament calls it too; this catches a tournament nobody reads)."""
    while True:
        await asyncio.sleep(CLOCK_SWEEP)
        try:
            await run_in_threadpool(app.state.tournaments.sweep_clocks)
        except Exception:  # a failed sweep (the database away) is tried again at the next one
            continue
