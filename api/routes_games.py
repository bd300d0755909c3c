"""Games: create, list, get, act, events (NDJSON), state, explanations, steps, legal actions, live (SSE).

Thin: check access, call the service, shape the answer. Rules live in the engine, storage in ``replay``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

import msgspec
from fastapi import APIRouter, Header, Path, Query, Request
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from api import auth, links
from api.errors import ApiError, ErrorBody, error_body, error_responses
from api.live import RETRY_AFTER_SECONDS, LiveResponse, TooManyStreams, sse_stream
from api.models import (
    MAX_SEQ,
    ActionIn,
    ActOut,
    ExplanationsOut,
    GameCreated,
    GameOut,
    LegalOut,
    SeatOut,
    StateOut,
    StepsOut,
)
from api.plugin import GameSetup
from engine.adjudication import SCOREKEEPER, acting_seat
from engine.errors import SetupError
from engine.system import GameSystem
from engine.systems import UnknownSystem, get_system
from replay.archive.games import game_summary
from replay.errors import Conflict
from replay.log.explain import explain_game
from replay.log.service import GameService
from replay.log.steps import game_steps
from replay.log.views import event_view, state_view
from replay.store.base import GameRecord
from replay.tournaments.service import game_outcome, seat_listing

router = APIRouter()

GameId = Path(min_length=1, max_length=64, description="the game's id")
ViewQuery = Query(
    None,
    max_length=16,
    pattern=r"^(all|spectator|p[1-9])$",
    description="all | spectator | a seat: p1, p2, ... (default: the widest your token allows; spectator without one)",
)
_NO_GAME = "no such game (not_found)"
_BAD_TOKEN = "a token that is not valid for this game, or a malformed Authorization header (invalid_token)"
_SEE = "a view the token may not see (forbidden): pN needs pN's or the scorekeeper's token, all the scorekeeper's"
_READ_ERRORS = error_responses(401, 403, 404, 422, described={
    401: _BAD_TOKEN, 403: _SEE, 404: _NO_GAME, 422: "invalid_request, invalid_view"})


class Health(BaseModel):
    status: str


class GameSummary(BaseModel):
    id: str
    system: str
    created_at: str
    players: list[str]
    tournament: str | None
    seq: int
    catalogue: str | None = None  # the catalogue the game plays (issue 30); None: its system's default
    metadata: dict[str, Any]


class GamePage(BaseModel):
    games: list[GameSummary]
    next_cursor: str | None


class TokenReissued(BaseModel):
    seat: str
    token: str


@dataclass(frozen=True)
class Access:
    """One game as a caller reaches it: the record, its system, and the caller's role (None: anonymous)."""

    service: GameService
    record: GameRecord
    system: GameSystem
    role: str | None

    @cached_property
    def seats(self) -> tuple[str, ...]:
        """The game's seats: as created (its metadata), else the system's seats of its recorded setup (an
        imported game)."""
        listed = tuple(str(s["id"]) for s in self.record.metadata.get("seats", ()))
        if listed:
            return listed
        opening = [r.event for r in self.service.events(self.record.game_id, 1, 1)]
        return tuple(seat.id for seat in self.system.seats(self.system.recorded_setup(opening)))

    @property
    def over(self) -> bool:
        return self.record.metadata.get("status") == "over"

    def view(self, asked: str | None) -> str:
        return auth.check_view(self.role, asked or auth.default_view(self.role), self.seats, self.over)


def access(request: Request, game_id: str, query_token: str | None = None) -> Access:
    service: GameService = request.app.state.service
    record = service.store.get_game(game_id)
    role = auth.caller_role(request, record.metadata.get("token_hashes") or {}, query_token)
    return Access(service, record, service.system_of(record), role)


def seats_of(game: Access) -> list[SeatOut]:
    """The game's seats with their players' names and army labels: as created (its metadata), else (an imported
    or bot game) the names its record lists in seating order and the army labels of its listing."""
    listed = game.record.metadata.get("seats")
    if listed:
        return [SeatOut(**s) for s in listed]
    armies = game.record.metadata.get("armies") or {}
    names = game.record.players
    return [SeatOut(id=seat, name=names[i] if i < len(names) else seat, army=armies.get(seat))
            for i, seat in enumerate(game.seats)]


def record_outcome(service: GameService, record: GameRecord) -> dict[str, Any]:
    """The game's status from its system's ``outcome`` (with its ``placings``). ``GameService`` notes the outcome
    when a game ends; this repairs the metadata of a game whose server stopped between the append and that
    update."""
    result = game_outcome(service, record.game_id)
    status = {
        "status": "over" if result.over else "active",
        "winner": result.winner,
        "end_reason": result.end_reason,
    }
    if result.over and any(record.metadata.get(k) != v for k, v in status.items()):
        service.store.update_metadata(record.game_id, status)
    placings = [list(group) for group in result.outcome.placings] if result.outcome is not None else None
    return {**status, "placings": placings}


@router.get("/health", response_model=Health, tags=["service"])
def health() -> Health:
    return Health(status="ok")


def setup_router(game_in: type[BaseModel]) -> APIRouter:
    """``POST /games``, its body ``game_in``: the union of the registered systems' setup models
    (``api.systems.game_in``), which the app builds when it is created."""
    setup = APIRouter()

    def create(request: Request, body: Any) -> GameCreated:
        """Start a game. The answer holds the scorekeeper's and each seat's bearer token: they are shown once."""
        return create_game(request, body.root)

    create.__annotations__["body"] = game_in  # the model of this app, not a name in this module
    setup.post(
        "/games",
        status_code=201,
        response_model=GameCreated,
        tags=["games"],
        summary="Create a game",
        responses={
            201: {"description": "the game, with its tokens (shown once)", "links": links.GAME_CREATED},
            **error_responses(401, 403, 413, 422, described={
                401: "the server has an admin key and none was sent (unauthorized)",
                403: "a wrong admin key (forbidden)",
                422: "invalid_request (the system's fields, details), or invalid_setup: the system refuses the setup "
                "(reason: invalid_army, invalid_variant, ...)",
            }),
        },
        **auth.ADMIN,
    )(create)
    return setup


def create_game(request: Request, body: GameSetup) -> GameCreated:
    """A token per seat of the system's seating, and the scorekeeper's."""
    auth.require_admin(request)
    service: GameService = request.app.state.service
    setup = body.engine_setup()
    try:
        system = get_system(body.system)
    except UnknownSystem as exc:
        raise SetupError("unknown_system", "contract", str(exc.args[0])) from None
    seats = [seat.id for seat in system.seats(setup)]
    tokens, hashes = auth.new_tokens([auth.SCOREKEEPER, *seats])
    metadata = {
        "status": "active",
        "variant": setup.get("variant", {}),
        "seats": seat_listing(setup["players"]),
        "token_hashes": hashes,
        **({"seed_chosen": True} if body.seed_chosen else {}),  # a caller's seed (insecure_seed): said publicly
    }
    result = service.create_game(setup, metadata)
    return GameCreated(id=result.game_id, seq=result.seq, tokens=tokens)


@router.get(
    "/games", response_model=GamePage, tags=["games"], summary="List games (paged)",
    responses=error_responses(422, described={422: "invalid_request, invalid_cursor"}),
)
def list_games(
    request: Request,
    system: str | None = Query(None, max_length=64),
    player: str | None = Query(None, max_length=128),
    tournament: str | None = Query(None, max_length=128),
    army: str | None = Query(None, max_length=128, description="an army label one of the game's seats played "
                             "(metadata.armies: the system's labels, as the statistics' army filter, e.g. orcs)"),
    order: str = Query("oldest", pattern="^(oldest|newest)$", description="oldest (the default) or newest first"),
    status: Literal["active", "over"] | None = Query(None, description="active: the games still running (and "
                                                      "imported games not played to the end); over: the finished"),
    limit: int = Query(50, ge=1, le=500),
    cursor: str | None = Query(None, max_length=512, description="next_cursor of the previous page (same order)"),
) -> GamePage:
    try:
        page = request.app.state.service.store.list_games(
            system=system, player=player, tournament=tournament, army=army, limit=limit, cursor=cursor,
            newest_first=order == "newest", over=None if status is None else status == "over",
        )
    except ValueError as exc:
        raise ApiError(422, "invalid_cursor", str(exc)) from None
    return GamePage(games=[GameSummary(**game_summary(g)) for g in page.games], next_cursor=page.next_cursor)


@router.get(
    "/games/{game_id}", response_model=GameOut, tags=["games"], summary="One game",
    responses=error_responses(401, 404, 422, described={401: _BAD_TOKEN, 404: _NO_GAME}), **auth.OPTIONAL_TOKEN,
)
def get_game(request: Request, game_id: str = GameId) -> GameOut:
    game = access(request, game_id)
    status = record_outcome(game.service, game.record)
    meta = game.record.metadata
    return GameOut(
        id=game.record.game_id,
        system=game.record.system,
        created_at=game.record.created_at,
        players=seats_of(game),
        variant=meta.get("variant", {}),
        seq=game.service.store.last_seq(game_id),
        tournament=game.record.tournament,
        round=meta.get("round"),
        table=meta.get("table"),
        seed_chosen=bool(meta.get("seed_chosen")),
        catalogue=meta.get("catalogue"),
        **status,
    )


@router.post(
    "/games/{game_id}/actions",
    status_code=201,
    response_model=ActOut,
    tags=["games"],
    summary="Record an action",
    responses={
        201: {"description": "the events the action caused", "links": links.ACTION_RECORDED},
        **error_responses(401, 403, 404, 409, 413, 422, described={
            401: "no token (unauthorized), or one that is not valid for this game (invalid_token)",
            403: "a seat's token acting for another seat, or adjudicating (forbidden)",
            404: _NO_GAME,
            409: "expected_seq is stale (conflict, with expected_seq and the game's seq), or the game is over "
            "(game_over: its result stands)",
            422: "illegal_action (rule, reason), malformed_action (rule) or invalid_request (details)",
        }),
    },
    **auth.TOKEN,
)
async def act(request: Request, body: ActionIn, game_id: str = GameId) -> JSONResponse:
    """Decide an action and store what it causes. Needs the scorekeeper's token or the acting player's own;
    ``adjudicate`` (docs/contract.md) the scorekeeper's. A repeated ``idempotency_key`` returns the first answer
    (header ``Idempotent-Replayed: true``)."""
    # On the event loop, not in a worker thread: the common case (state cached, legal action) decides here and
    # awaits the store's group commit (GameService.begin_act); the hop to a worker thread and back cost about as
    # much as all of GET /health (sync: 2,050 req/s, async: 4,500 at 128 clients). Everything else is
    # GameService.act in a worker thread, as before. The access check reads the store's row cache.
    game = access(request, game_id)
    if game.role is None:
        raise ApiError(401, "unauthorized", "recording an action needs a bearer token (scorekeeper or the player's)")
    typed = game.system.parse_action(body.action)
    seat = acting_seat(typed)
    if seat == SCOREKEEPER:  # adjudicate: the scorekeeper's alone
        auth.require(game.role, (auth.SCOREKEEPER,), "adjudicate the game")
    else:
        auth.require(game.role, (auth.SCOREKEEPER, seat), f"act for {seat}")
    tournaments = request.app.state.tournaments
    if game.record.tournament is not None and not game.over and not tournaments.is_settled(game_id):
        # a forfeit logged for its table while the game ran (an earlier version) ends the game first (issue 28)
        await run_in_threadpool(tournaments.settle_game, game.record.tournament, game_id)
    service = game.service
    result = None
    pending = service.begin_act(game_id, typed, expected_seq=body.expected_seq, idempotency_key=body.idempotency_key)
    if pending is not None:
        assert pending.future is not None
        try:
            stored = await asyncio.wrap_future(pending.future)
        except Conflict:
            service.forget(game_id)  # another writer got in first: act decides again or reports the conflict
        else:
            result = service.complete_act(pending, stored)
            if pending.ended:
                await run_in_threadpool(service.note_outcome, pending)
    if result is None:
        result = await run_in_threadpool(
            service.act, game_id, typed, expected_seq=body.expected_seq, idempotency_key=body.idempotency_key
        )
    if not result.replayed:
        request.app.state.live.published(game_id)
    view = auth.default_view(game.role)
    events = [e for e in (event_view(game.record.system, r, view) for r in result.events) if e is not None]
    headers = {"Idempotent-Replayed": "true"} if result.replayed else None
    return JSONResponse(status_code=201, content={"seq": result.seq, "events": events}, headers=headers)


@router.post(
    "/games/{game_id}/tokens/{seat}",
    status_code=201,
    response_model=TokenReissued,
    tags=["games"],
    summary="Reissue a seat's token",
    responses=error_responses(401, 403, 404, 409, 413, 422, described={
        401: "no token (unauthorized), or one that is not valid for this game (invalid_token)",
        403: "a seat's token (only the scorekeeper may reissue)",
        404: "no such game, or no such seat in it (not_found)",
        409: "the game is over (game_over)",
        422: "invalid_request",
    }),
    **auth.TOKEN,
)
def reissue_token(
    request: Request,
    game_id: str = GameId,
    seat: str = Path(min_length=1, max_length=64, description="a seat (p1, p2, ...) or scorekeeper"),
) -> TokenReissued:
    """A new token for a seat, or for the scorekeeper, with the scorekeeper's token. The old token of that seat
    is refused (401 ``invalid_token``) from then on; the new one is shown once (only its hash is kept)."""
    game = access(request, game_id)
    auth.require(game.role, (auth.SCOREKEEPER,), f"reissue the {seat} token")
    if seat not in (auth.SCOREKEEPER, *game.seats):
        raise ApiError(404, "not_found", f"game {game_id!r} has no seat {seat!r} (seats: "
                       f"{', '.join(game.seats)}; or {auth.SCOREKEEPER})")
    if record_outcome(game.service, game.record)["status"] == "over":
        raise ApiError(409, "game_over", f"game {game_id!r} is over: its tokens grant nothing more (every view is "
                       "public, no action is legal), so none is reissued")
    token = auth.reissue(game.service.store, game_id, seat)
    request.app.state.live.published(game_id)  # its open streams check their tokens now (api/live.py: refusal)
    return TokenReissued(seat=seat, token=token)


@router.get(
    "/games/{game_id}/events",
    tags=["games"],
    summary="The event log (NDJSON)",
    response_class=StreamingResponse,
    responses={
        **_READ_ERRORS,
        200: {
            "description": "one JSON event per line, each with seq and type, in the chosen view",
            "content": {"application/x-ndjson": {"example": '{"seq":1,"type":"game_started",...}\n'}},
        },
    },
    **auth.OPTIONAL_TOKEN,
)
def events(
    request: Request,
    game_id: str = GameId,
    view: str | None = ViewQuery,
    from_seq: int = Query(1, alias="from", ge=1, le=MAX_SEQ, description="first seq"),
    to_seq: int | None = Query(None, alias="to", ge=0, le=MAX_SEQ, description="last seq (default: the end)"),
) -> StreamingResponse:
    game = access(request, game_id)
    chosen = game.view(view)
    recorded = game.service.events(game_id, from_seq, to_seq)
    def lines() -> Iterator[bytes]:
        for r in recorded:
            data = event_view(game.record.system, r, chosen)
            if data is not None:
                yield json.dumps(data, separators=(",", ":")).encode() + b"\n"

    return StreamingResponse(lines(), media_type="application/x-ndjson")


@router.get(
    "/games/{game_id}/state", response_model=StateOut, tags=["games"], summary="State at a seq",
    responses=error_responses(401, 403, 404, 422, described={
        401: _BAD_TOKEN, 403: _SEE, 404: _NO_GAME, 422: "invalid_request, invalid_view, invalid_seq (beyond the log)"}),
    **auth.OPTIONAL_TOKEN,
)
def state(
    request: Request,
    game_id: str = GameId,
    seq: int | None = Query(None, ge=0, le=MAX_SEQ, description="the state after event seq (default: latest)"),
    view: str | None = ViewQuery,
) -> JSONResponse:
    """The state after event ``seq`` in a view: hidden cards are absent from views that may not see them."""
    game = access(request, game_id)
    chosen = game.view(view)
    last = game.service.store.last_seq(game_id)
    if seq is not None and seq > last:
        raise ApiError(422, "invalid_seq", f"game {game_id!r} has {last} events; seq {seq} does not exist yet")
    at, current = game.service.state(game_id, seq)
    data = state_view(game.record.system, current, chosen)
    return JSONResponse({**data, "seq": at})


@router.get(
    "/games/{game_id}/explanations",
    response_model=ExplanationsOut,
    tags=["games"],
    summary="The explanation of each step",
    responses=_READ_ERRORS,
    **auth.OPTIONAL_TOKEN,
)
def explanations(request: Request, game_id: str = GameId, view: str | None = ViewQuery) -> dict[str, Any]:
    """One line per event ("Dwarf Marauder at D5 is destroyed: 9 > 4 ...") with its structured cause."""
    game = access(request, game_id)
    chosen = game.view(view)
    out = explain_game(game.record.system, game.service.events(game_id), chosen)
    return {"view": chosen, "explanations": [msgspec.to_builtins(e) for e in out]}


MAX_STEPS = 500


@router.get(
    "/games/{game_id}/steps",
    response_model=StepsOut,
    tags=["games"],
    summary="Many steps at once: the state after each event and its explanation",
    responses=error_responses(401, 403, 404, 422, described={
        401: _BAD_TOKEN, 403: _SEE, 404: _NO_GAME, 422: "invalid_request, invalid_view, invalid_range (to < from)"}),
    **auth.OPTIONAL_TOKEN,
)
def steps(
    request: Request,
    game_id: str = GameId,
    view: str | None = ViewQuery,
    from_seq: int = Query(1, alias="from", ge=1, le=MAX_SEQ, description="the first step's seq"),
    to_seq: int | None = Query(None, alias="to", ge=1, le=MAX_SEQ, description="the last step's seq (default: "
                               "the game's last; a seq beyond it reads to the last)"),
    limit: int = Query(MAX_STEPS, ge=1, le=MAX_STEPS, description="at most this many steps (then ask from=next)"),
) -> JSONResponse:
    """For each event ``from``..``to``: the state after it and its explanation, in a view (what a replay viewer
    steps through, read with one fold instead of a state request per step). At most ``limit`` steps (500): ``next``
    is the seq to ask from for the rest of the range, or null. A range past the game's end is an empty list."""
    game = access(request, game_id)
    chosen = game.view(view)
    if to_seq is not None and to_seq < from_seq:
        raise ApiError(422, "invalid_range", f"to ({to_seq}) is before from ({from_seq})")
    last = game.service.store.last_seq(game_id)
    end = min(last, to_seq if to_seq is not None else last, from_seq + limit - 1)
    shown = (game_steps(game.record.system, game.service.events(game_id, 1, end), chosen, from_seq)
             if end >= from_seq else [])
    wanted_end = min(last, to_seq) if to_seq is not None else last
    return JSONResponse({
        "view": chosen,
        "last_seq": last,
        "steps": [msgspec.to_builtins(step) for step in shown],
        "next": end + 1 if end < wanted_end else None,
    })


@router.get(
    "/games/{game_id}/legal",
    response_model=LegalOut,
    tags=["games"],
    summary="Legal actions for a seat the game awaits",
    responses=error_responses(401, 403, 404, 422, described={
        401: "no token (unauthorized), or one that is not valid for this game (invalid_token)",
        403: "a seat that is not to act (forbidden)", 404: _NO_GAME, 422: "invalid_request, invalid_seat"}),
    **auth.TOKEN,
)
def legal(
    request: Request,
    game_id: str = GameId,
    seat: str | None = Query(None, max_length=16, description="whose actions (default: your seat if the game "
                             "awaits it, else the first seat it awaits)"),
) -> LegalOut:
    """Every legal action of a seat the game awaits (``to_act``: one seat in a turn, several where a system
    collects simultaneous choices), as the system lists them (each system documents what it leaves out, e.g.
    placements without their shots). The scorekeeper, or a seat the game awaits (for itself)."""
    game = access(request, game_id)
    seq, current = game.service.state(game_id)
    awaited = game.system.to_act(current)
    auth.require(game.role, (auth.SCOREKEEPER, *awaited), "list the legal actions")
    if seat is None:
        seat = game.role if game.role in awaited else (awaited[0] if awaited else None)
    elif seat not in game.seats:
        raise ApiError(422, "invalid_seat", f"game {game_id!r} has no seat {seat!r} (seats: {', '.join(game.seats)})")
    else:
        auth.require(game.role, (auth.SCOREKEEPER, seat), f"list the legal actions of {seat}")
    actions = [msgspec.to_builtins(a) for a in game.system.legal_actions(current, seat)] if seat else []
    return LegalOut(seq=seq, active=seat, to_act=list(awaited), actions=actions)


@router.get(
    "/games/{game_id}/live",
    tags=["games"],
    summary="Follow a game live (Server-Sent Events)",
    response_class=StreamingResponse,
    responses={
        **error_responses(401, 403, 404, 422, described={
            401: _BAD_TOKEN, 403: _SEE, 404: _NO_GAME, 422: "invalid_request, invalid_view, invalid_last_event_id"}),
        200: {
            "description": "text/event-stream: one message per event, id = seq, data = the event in the view; "
            "'event: end' when the game is over. Reconnect with Last-Event-ID to resume.",
            "content": {"text/event-stream": {"example": 'id: 4\ndata: {"seq":4,"type":"placed",...}\n\n'}},
        },
        503: {
            "model": ErrorBody,
            "description": "too_many_streams: the server's cap on open streams, in total or for this client "
            "address, is reached; retry after the Retry-After header's seconds",
            "headers": {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}},
        },
    },
    **auth.OPTIONAL_TOKEN,
)
def live(
    request: Request,
    game_id: str = GameId,
    view: str | None = ViewQuery,
    after: int | None = Query(None, ge=0, le=MAX_SEQ, description="start after this seq (like Last-Event-ID)"),
    timeout: float = Query(300.0, ge=0, le=3600, description="end the stream after this many idle seconds"),
    last_event_id: str | None = Header(None, alias="Last-Event-ID", max_length=24),
    access_token: str | None = Query(
        None, max_length=256, description="the bearer token, for clients that cannot send headers (EventSource)"
    ),
) -> StreamingResponse:
    game = access(request, game_id, access_token)
    chosen = game.view(view)
    start = after or 0
    if last_event_id is not None:
        try:
            start = max(start, int(last_event_id))
        except ValueError:
            raise ApiError(422, "invalid_last_event_id", "Last-Event-ID must be a seq (an integer)") from None
        if not 0 <= start <= MAX_SEQ:
            raise ApiError(422, "invalid_last_event_id", "Last-Event-ID must be a seq >= 0")
    service, system_name = game.service, game.record.system
    token = auth.bearer(request) or access_token

    def read(from_seq: int) -> tuple[list[tuple[int, dict[str, Any] | None]], bool]:
        # shared by every stream of this game and view woken together (api/live.py): nothing of the reader here
        recorded = service.events(game_id, from_seq)
        over = any(type(r.event).tag_name() == "game_ended" for r in recorded)
        if not over and not recorded:
            over = service.store.get_game(game_id).metadata.get("status") == "over"
        return [(r.seq, event_view(system_name, r, chosen)) for r in recorded], over

    def refusal() -> str | None:
        """A token reissued since the stream opened ends it (the reissue wakes the game's streams)."""
        hashes = service.store.get_game(game_id).metadata.get("token_hashes") or {}
        if auth.role_of(token or "", hashes) == game.role:
            return None
        body = error_body("invalid_token", "this token was reissued: the stream ends")
        return f"event: revoked\ndata: {json.dumps(body)}\n\n"

    hub = request.app.state.live
    client = request.client.host if request.client else "unknown"
    try:
        slot = hub.slots.take(client)  # last: a request refused for anything else holds no slot
    except TooManyStreams as full:
        raise ApiError(503, "too_many_streams", str(full), headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
                       scope=full.scope, limit=full.limit) from None
    return LiveResponse(
        slot,
        sse_stream(hub, game_id, start, read, timeout, view=chosen,
                   refusal=refusal if game.role is not None and token is not None else None),
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
