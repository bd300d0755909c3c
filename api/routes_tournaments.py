"""Tournaments: create, register players, start rounds (Swiss pairs or pods; they create the games), forfeits,
standings.

Writes need the organiser's token (shown once when the tournament is created); reading is public.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from fastapi import APIRouter, Path, Query, Request

from api import auth, links
from api.errors import ApiError, error_responses
from api.models import (
    AttendanceOut,
    DeckLists,
    EntrantIn,
    EntrantOut,
    LateEntrantIn,
    ReasonIn,
    RepairIn,
    ResultIn,
    ResultOut,
    RoundIn,
    StandingsOut,
    StartedRoundOut,
    SwapIn,
    TeamIn,
    TeamOut,
    TournamentCreated,
    TournamentIn,
    TournamentList,
    TournamentOut,
)
from api.options import MAX_ROUNDS, MAX_TABLES
from api.web import not_found_page, page, wants_html
from replay.catalogues import defaults
from replay.tournaments import day
from replay.tournaments.decks import army_label, deck_lists
from replay.tournaments.model import (
    Entrant,
    TableResult,
    Tournament,
    TournamentInvalid,
    TournamentNotFound,
    TournamentRefused,
    finished,
    placings_of_winner,
    table_seats,
)
from replay.tournaments.service import TournamentService

router = APIRouter(tags=["tournaments"])

TournamentId = Path(min_length=1, max_length=64)
RoundNumber = Path(ge=1, le=MAX_ROUNDS)
TableNumber = Path(ge=1, le=MAX_TABLES)
_NO_TOURNAMENT = "no such tournament (not_found)"
_READ_ERRORS = error_responses(404, 422, described={404: _NO_TOURNAMENT})
_WRITE_ERRORS = error_responses(401, 403, 404, 409, 413, 422, described={
    401: "no organiser token (unauthorized), or an invalid one (invalid_token)",
    403: "a valid token that is not the organiser's (forbidden)",
    404: _NO_TOURNAMENT,
    409: "refused in the tournament's current state: registration_closed, already_registered, round_unfinished, "
    "tournament_over, too_few_players, game_finished; the day's (docs/api.md): no_result, cut_made, "
    "bracket_advanced, time_already_called, round_over, swiss_unfinished, cut_larger_than_field, cut_round_unfinished, "
    "cut_over, no_cut, cut_needs_two_sides; conflict (another organiser's change came first)",
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
            shown = results[(rnd.number, tb.table)].as_json()
            del shown["round"]
            tables.append(shown)
            if tb.match is not None:
                shown.update(match=tb.match, choice=tb.choice)
        rounds.append({"round": rnd.number, "tables": tables, "bye": rnd.bye, "byes": list(rnd.byes),
                       "seed": rnd.seed, "missed": dict(rnd.missed), "stage": rnd.stage,
                       "bracket_round": rnd.bracket_round, **service.clock_json(rnd)})
    bracket = service.bracket_json(t, list(results.values()))
    return {
        "id": t.id,
        "name": t.name,
        "system": t.system,
        "format": t.format,
        "rounds": t.rounds,
        "seats": t.seats,
        "entrants": t.entry,
        "variant": t.variant,
        "created_at": t.created_at,
        "status": _status(service, t, list(results.values()), bracket),
        "seeding": t.seeding,
        "check_in": t.check_in,
        "players": [{"id": e.id, "name": e.name, "army": army_label(e.army), **attendance_of(e)}
                    for e in t.entrants.values() if not e.members],
        "teams": [{"id": e.id, "name": e.name, "members": [{"name": m.name, "army": army_label(m.army)}
                                                            for m in e.members]}
                  for e in t.entrants.values() if e.members],
        "played_rounds": rounds,
        "tiebreaks": [{"name": name, "explanation": day.TIEBREAKS[name]} for name in t.tiebreaks],
        "cut_draws": t.cut_draws,
        "bracket": bracket,
        **format_of(t),
    }


def format_of(t: Tournament) -> dict[str, Any]:
    """The tournament's format as ``GET /tournaments/{id}`` shows it (issue 30): the catalogue it plays (the pinned
    one, else the system's default), whether decks are required, the points limit."""
    default = defaults().get(t.system)
    return {"catalogue": t.catalogue or (default[0].id if default is not None else None),
            "decks_required": t.decks_required, "points_limit": t.points_limit}


@router.post(
    "/tournaments", status_code=201, response_model=TournamentCreated, summary="Create a tournament",
    responses={
        201: {"description": "the tournament, with the organiser's token (shown once)",
              "links": links.TOURNAMENT_CREATED},
        **error_responses(401, 403, 404, 413, 422, described={
            401: "the server has an admin key and none was sent (unauthorized)", 403: "a wrong admin key (forbidden)",
            404: "no catalogue of that id is stored (not_found)",
            422: "invalid_request (details), the system refuses the variant, unknown_catalogue (another system's), "
            "invalid_points_limit"}),
    },
    **auth.ADMIN,
)
def create_tournament(request: Request, body: TournamentIn) -> TournamentCreated:
    """The answer holds the organiser's bearer token, shown once: it registers players, starts rounds and
    enters forfeits."""
    auth.require_admin(request)
    tokens, hashes = auth.new_tokens(["organiser"])
    tid = _service(request).create(body.name, body.system, body.format, body.rounds, body.variant, hashes["organiser"],
                                   seats=body.seats, entrants=body.entrants, tiebreaks=body.tiebreaks,
                                   cut_draws=body.cut_draws, seeding=body.seeding,
                                   check_in=body.check_in, catalogue=body.catalogue,
                                   decks_required=body.decks_required, points_limit=body.points_limit)
    return TournamentCreated(id=tid, token=tokens["organiser"])


@router.get("/tournaments", response_model=TournamentList, summary="List tournaments",
            responses=error_responses(422))
def list_tournaments(
    request: Request, limit: int = Query(100, ge=1, le=1000),
    system: str | None = Query(None, max_length=64, description="only this system's tournaments"),
    since: str | None = Query(None, alias="from", description="created on or after this day (YYYY-MM-DD, UTC)"),
    until: str | None = Query(None, alias="to", description="created on or before this day (YYYY-MM-DD, UTC)"),
    order: str = Query("oldest", description="oldest (first created first, the default) | newest"),
) -> Any:
    """Each tournament with its ``status`` (as ``GET /tournaments/{id}``), ``stage`` (the last round's: ``swiss``
    or ``cut``; null before round 1), ``round`` (Swiss rounds started), ``in_play`` (a table is playing) and ``cut``
    (its size; null: no cut). The filters apply before ``limit``. 422 ``invalid_filter``."""
    if wants_html(request):  # a browser: the tournaments' page (api/web), which reads this route as JSON
        return page("tournaments")
    first, last = _day_of("from", since), _day_of("to", until)
    if first is not None and last is not None and first > last:
        raise TournamentInvalid(f"from ({since}) is after to ({until}): no day is in that range", "invalid_filter")
    if order not in ("oldest", "newest"):
        raise TournamentInvalid(f"order is oldest or newest, not {order!r}", "invalid_filter")
    service = _service(request)
    chosen = [t for t in service.list(LIST_ALL) if (system is None or t.system == system)
              and (first is None or t.created_at[:10] >= first) and (last is None or t.created_at[:10] <= last)]
    if order == "newest":
        chosen.reverse()
    return {"tournaments": [_listed(service, t) for t in chosen[:limit]]}


LIST_ALL = 100_000  # the tournaments GET /tournaments filters (a server holds hundreds, not this many)


def _day_of(name: str, value: str | None) -> str | None:
    """A date filter's day as YYYY-MM-DD (what created_at starts with), or 422 invalid_filter."""
    if value is None:
        return None
    try:
        day_ = date.fromisoformat(value)
    except ValueError:
        day_ = None
    if day_ is None or day_.isoformat() != value:
        raise TournamentInvalid(f"{name} is a day written YYYY-MM-DD, not {value!r}", "invalid_filter")
    return value


def _listed(service: TournamentService, t: Tournament) -> dict[str, Any]:
    results = service.results(t)
    return {"id": t.id, "name": t.name, "system": t.system, "rounds": t.rounds, "seats": t.seats,
            "created_at": t.created_at, "players": len(t.entrants), "entrants": t.entry,
            "played_rounds": len(t.played), "status": _status(service, t, results),
            "stage": t.played[-1].stage if t.played else None, "round": len(t.swiss_rounds),
            "in_play": any(r.status == "playing" for r in results), "cut": t.cut[0] if t.cut else None}


def _status(service: TournamentService, t: Tournament, results: Sequence[TableResult],
            bracket: dict[str, Any] | None = None) -> str:
    """``registration`` (no round yet), ``finished`` (every Swiss round played, every table decided, the cut's
    champion known if there is a cut) or ``running``."""
    if not t.played:
        return "registration"
    if bracket is None and t.cut is not None:
        bracket = service.bracket_json(t, list(results))
    return "finished" if finished(t, results, bracket) else "running"


@router.get("/tournaments/{tournament_id}", response_model=TournamentOut,
            summary="A tournament: players, rounds, tables", responses=_READ_ERRORS)
def get_tournament(request: Request, tournament_id: str = TournamentId) -> Any:
    service = _service(request)
    if wants_html(request):  # a browser: the tournament's page (api/web), which reads this route as JSON
        try:
            service.get(tournament_id)
        except TournamentNotFound:
            return not_found_page(f"There is no tournament {tournament_id!r}.")
        return page("tournament")
    return _summary(service, service.get(tournament_id))


@router.post("/tournaments/{tournament_id}/players", status_code=201, response_model=EntrantOut,
             summary="Register a player", responses=_WRITE_ERRORS, **auth.TOKEN)
def register(request: Request, body: EntrantIn, tournament_id: str = TournamentId) -> dict[str, Any]:
    """Before the first round only, in a tournament of players (a team tournament: 422 entrants_are_teams). The deck
    or army is judged by the tournament's format: the system's rules on its catalogue (422 with the system's code,
    ``invalid_deck`` or ``invalid_army``, and the ``rule`` broken), ``deck_required``, the points limit."""
    service = _service(request)
    _organiser(request, service.get(tournament_id))
    entrant = service.register(tournament_id, body.id, body.name, body.army)
    return {"id": entrant.id, "name": entrant.name}


@router.post("/tournaments/{tournament_id}/teams", status_code=201, response_model=TeamOut,
             summary="Register a team", responses=_WRITE_ERRORS, **auth.TOKEN)
def register_team(request: Request, body: TeamIn, tournament_id: str = TournamentId) -> dict[str, Any]:
    """A team tournament only (a tournament of players: 422 entrants_are_players), before the first round:
    exactly seats/2 members (422 invalid_members), no member twice nor in another team (422 duplicate_member),
    each member's army checked by the game system."""
    service = _service(request)
    _organiser(request, service.get(tournament_id))
    team = service.register_team(tournament_id, body.id, body.name, [(m.name, m.army) for m in body.members])
    return {"id": team.id, "name": team.name,
            "members": [{"name": m.name, "army": army_label(m.army)} for m in team.members]}


@router.post("/tournaments/{tournament_id}/rounds", status_code=201, response_model=StartedRoundOut,
             summary="Pair and start the next round",
             responses={201: {"description": "the round's tables, each game's tokens (shown once)",
                              "links": links.ROUND_STARTED}, **_WRITE_ERRORS}, **auth.TOKEN)
def start_round(request: Request, tournament_id: str = TournamentId, body: RoundIn | None = None) -> dict[str, Any]:
    """Two seats a table: Swiss pairs (no rematch while avoidable, bye to the lowest-ranked player without one,
    seats balanced); more: pods in standings order (docs/api.md). Creates one game per table; the answer holds
    each game's tokens (the scorekeeper's and every seat's), shown once. ``duration``: minutes on the round's
    clock (time is called when it runs out)."""
    service = _service(request)
    _organiser(request, service.get(tournament_id))
    return service.start_round(tournament_id, auth.new_tokens, body.duration if body else None).as_json()


@router.post("/tournaments/{tournament_id}/rounds/{round_number}/tables/{table_number}/result", status_code=201,
             response_model=ResultOut, summary="Enter a forfeit result", responses=_WRITE_ERRORS, **auth.TOKEN)
def enter_result(
    request: Request,
    body: ResultIn,
    tournament_id: str = TournamentId,
    round_number: int = RoundNumber,
    table_number: int = TableNumber,
) -> dict[str, Any]:
    """For a game that was not played out: ``placings`` (every seat of the table, in finishing order, ties
    together) and ``scores``; at a two-seat table also ``winner`` and ``kills``; in a team tournament
    ``winning_team`` (a team id or draw) and ``team_scores``. A finished game's result stands (409
    ``game_finished``)."""
    service = _service(request)
    t = service.get(tournament_id)
    _organiser(request, t)
    placings, scores = result_of(service, t, round_number, table_number, body)
    return service.enter_result(tournament_id, round_number, table_number, placings, scores).as_json()


def result_of(service: TournamentService, t: Tournament, round_number: int, table_number: int,
              body: ResultIn) -> tuple[Sequence[Sequence[str]], Mapping[str, int] | None]:
    """A result's placings and scores as the table's seats hold them, from whichever form the body uses."""
    seats = table_seats(t, round_number, table_number)
    if body.winning_team is not None or body.team_scores is not None:
        if t.entry != "teams":
            raise TournamentInvalid("winning_team and team_scores are for team tournaments; this one's entrants are "
                                    "players", "invalid_result")
    placings: Sequence[Sequence[str]]
    if body.winning_team is not None:
        placings = service.team_placings(t, round_number, table_number, body.winning_team)
    elif body.placings is not None:
        placings = body.placings
    else:
        placings = placings_of_winner(str(body.winner), seats)
    scores = body.scores if body.scores is not None else body.kills
    if body.team_scores is not None:
        scores = service.team_seat_scores(t, round_number, table_number, body.team_scores)
    return placings, scores


@router.get("/tournaments/{tournament_id}/standings", response_model=StandingsOut, summary="Standings with tiebreaks",
            responses=_READ_ERRORS)
def standings(request: Request, tournament_id: str = TournamentId) -> dict[str, Any]:
    """Ordered by points (two seats: 3/1/0; pods: place points; a bye is a win), opponents' match-win % (floor
    1/3), score difference, then player id. Only finished (or forfeited) tables count."""
    return {"standings": [s.as_json() for s in _service(request).standings(tournament_id)]}



# -- attendance, swaps and re-pairings (issue 31: docs/api.md, "Tournaments", "The day") ------------------------

PlayerId = Path(min_length=1, max_length=64)
_DAY_ERRORS = error_responses(401, 403, 404, 409, 413, 422, described={
    401: "no organiser token (unauthorized), or an invalid one (invalid_token)",
    403: "a valid token that is not the organiser's (forbidden)",
    404: _NO_TOURNAMENT,
    409: "refused by the rule of the day: unregister_closed, no_check_in, check_in_closed, registration_open, "
    "already_registered, tournament_over, not_started, already_dropped, not_playing, round_over, table_started",
    422: "invalid_request (details), unknown_player, invalid_missed, reason_required, not_in_round, same_table, "
    "unknown_round, or the system refuses the army",
})


def attendance_of(entrant: Entrant) -> dict[str, Any]:
    """An entrant's attendance as ``GET /tournaments/{id}`` lists it."""
    return {"checked_in": entrant.checked_in, "absent": entrant.absent, "dropped_after": entrant.dropped_after,
            "joined": entrant.joined, "missed": entrant.missed}


def _attended(entrant: Entrant, status: str) -> dict[str, Any]:
    return {"id": entrant.id, "name": entrant.name, "status": status, "dropped_after": entrant.dropped_after,
            "joined": entrant.joined}


@router.delete("/tournaments/{tournament_id}/players/{player}", response_model=AttendanceOut,
               summary="Unregister a player (before round 1)", responses=_DAY_ERRORS, **auth.TOKEN)
def unregister(request: Request, tournament_id: str = TournamentId, player: str = PlayerId,
               reason: str | None = Query(None, max_length=500, description="why (recorded)")) -> dict[str, Any]:
    """Before round 1 only (409 ``unregister_closed`` after: drop the player instead)."""
    service = _service(request)
    _organiser(request, service.get(tournament_id))
    return _attended(service.unregister(tournament_id, player, reason), "unregistered")


@router.post("/tournaments/{tournament_id}/players/{player}/check-in", response_model=AttendanceOut,
             summary="Check a player in (before round 1)", responses=_DAY_ERRORS, **auth.TOKEN)
def check_in(request: Request, tournament_id: str = TournamentId, player: str = PlayerId) -> dict[str, Any]:
    """A tournament created with ``check_in``: only checked-in players are paired in round 1 (409 ``no_check_in``
    otherwise; ``check_in_closed`` once round 1 has started). Checking in twice changes nothing."""
    service = _service(request)
    _organiser(request, service.get(tournament_id))
    return _attended(service.check_in(tournament_id, player), "checked_in")


@router.post("/tournaments/{tournament_id}/late", status_code=201, response_model=AttendanceOut,
             summary="Register a player late (a running tournament)", responses=_DAY_ERRORS, **auth.TOKEN)
def register_late(request: Request, body: LateEntrantIn, tournament_id: str = TournamentId) -> dict[str, Any]:
    """After round 1 has started: the player is paired from the next round; each round already started counts as
    ``missed``: ``loss`` or ``bye`` (the organiser's choice, recorded). A player absent from round 1 (not checked
    in) enters late under their id."""
    service = _service(request)
    _organiser(request, service.get(tournament_id))
    return _attended(service.register_late(tournament_id, body.id, body.name, body.army, body.missed), "late")


@router.post("/tournaments/{tournament_id}/players/{player}/drop", response_model=AttendanceOut,
             summary="Drop a player (a running tournament)", responses=_DAY_ERRORS, **auth.TOKEN)
def drop(request: Request, body: ReasonIn | None = None, tournament_id: str = TournamentId,
         player: str = PlayerId) -> dict[str, Any]:
    """The player is paired no more from the next round; their results stand and the standings show them dropped
    (``dropped_after``). Before round 1: 409 ``not_started`` (unregister); twice: 409 ``already_dropped``."""
    service = _service(request)
    _organiser(request, service.get(tournament_id))
    return _attended(service.drop(tournament_id, player, body.reason if body else None), "dropped")


@router.post("/tournaments/{tournament_id}/rounds/{round_number}/swap", status_code=201,
             response_model=StartedRoundOut, summary="Swap two players of a round before their tables start",
             responses=_DAY_ERRORS, **auth.TOKEN)
def swap(request: Request, body: SwapIn, tournament_id: str = TournamentId,
         round_number: int = Path(ge=1, le=MAX_ROUNDS)) -> dict[str, Any]:
    """Two players of the current round (two tables, or a table and the bye) take each other's seats, with a
    reason (422 ``reason_required``), before either table's game has a move (409 ``table_started``). The changed
    tables get new games: the answer lists them with their tokens (shown once); the old games are replaced
    (an action on one: 409 ``table_replaced``)."""
    service = _service(request)
    _organiser(request, service.get(tournament_id))
    first, second = body.players
    return service.swap(tournament_id, round_number, first, second, body.reason or "", auth.new_tokens).as_json()


@router.post("/tournaments/{tournament_id}/rounds/{round_number}/repair", status_code=201,
             response_model=StartedRoundOut, summary="Pair the current round again before its tables start",
             responses=_DAY_ERRORS, **auth.TOKEN)
def repair(request: Request, body: RepairIn, tournament_id: str = TournamentId,
           round_number: int = Path(ge=1, le=MAX_ROUNDS)) -> dict[str, Any]:
    """The current round paired again by the same rules over who is to be paired now (after a drop or a late
    entry), with a reason (422 ``reason_required``), before any of its tables' games has a move (409
    ``table_started``); round 1 keeps its recorded seed. Every table gets a new game (tokens in the answer)."""
    service = _service(request)
    _organiser(request, service.get(tournament_id))
    return service.repair(tournament_id, round_number, body.reason or "", auth.new_tokens).as_json()


def statistic(app: Any, name: str, filters: Any) -> Any:
    """A statistic of the server's analytics (``seeding: "rating"`` reads the ratings); TournamentRefused
    ``ratings_unavailable`` where the server computes none."""
    from replay.analytics.catalogue import run
    from replay.analytics.catalogue import statistic as find

    source = getattr(app.state, "stats_source", None)
    if source is None:
        raise TournamentRefused("seeding by rating needs the ratings statistic, which this server does not compute "
                                "(statistics need the DuckDB store, or PostgreSQL's published file)",
                                "ratings_unavailable")
    conn = source.reader()
    try:
        return run(find(name), conn, filters, {"limit": None}, getattr(app.state, "stats_caches", None))
    finally:
        conn.close()


# -- deck lists (issue 30: decks at registration) ----------------------------------------------------------------

DECKS_HIDDEN = "deck lists are public once the tournament ends"


def decks_shown(request: Request, service: TournamentService, t: Tournament) -> bool:
    """Whether the caller may read ``t``'s deck lists: the organiser always, everyone once the tournament has ended.
    A token that is not the organiser's is 401, as on every organiser route."""
    if auth.caller_role(request, {"organiser": t.organiser_hash}) == "organiser":
        return True
    return service.ended(t)


@router.get("/tournaments/{tournament_id}/decks", response_model=DeckLists, summary="The registered deck lists",
            responses=error_responses(401, 403, 404, 422, described={
                401: "a token that is not the organiser's (invalid_token)",
                403: f"decks_hidden: {DECKS_HIDDEN} (the organiser's token reads them before)",
                404: _NO_TOURNAMENT}))
def decks(request: Request, tournament_id: str = TournamentId) -> dict[str, Any]:
    """Every registered deck or army as given, with a one-line summary, in registration order (a team's members one
    row each). The organiser reads them at any time; everyone once the tournament has ended."""
    service = _service(request)
    t = service.get(tournament_id)
    if not decks_shown(request, service, t):
        raise ApiError(403, "decks_hidden", f"{DECKS_HIDDEN}: tournament {t.id!r} has not ended")
    return {"decks": deck_lists(t)}
