"""Games: create, list, get, act, events (NDJSON), state, explanations, legal actions, live (SSE).

Thin: check access, call the service, shape the answer. Rules live in the engine, storage in ``replay``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import msgspec
from fastapi import APIRouter, Header, Path, Query, Request
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from api import auth, links
from api.errors import ApiError, error_responses
from api.live import sse_stream
from api.models import (
    MAX_SEQ,
    ActionIn,
    ActOut,
    ExplanationsOut,
    GameCreated,
    GameIn,
    GameOut,
    LegalOut,
    SeatOut,
    StateOut,
)
from engine.system import GameSystem
from replay.errors import Conflict
from replay.explain import explain_game
from replay.games import GameService
from replay.store import GameRecord
from replay.tournaments import game_outcome
from replay.views import event_view, state_view

router = APIRouter()

GameId = Path(min_length=1, max_length=64, description="the game's id")
ViewQuery = Query(
    None,
    max_length=16,
    pattern=r"^(all|spectator|p[1-9])$",
    description="all | spectator | p1 | p2 (default: the widest your token allows; spectator without one)",
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
    metadata: dict[str, Any]


class GamePage(BaseModel):
    games: list[GameSummary]
    next_cursor: str | None


@dataclass(frozen=True)
class Access:
    """One game as a caller reaches it: the record, its system, and the caller's role (None: anonymous)."""

    service: GameService
    record: GameRecord
    system: GameSystem
    role: str | None

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(s["id"] for s in self.record.metadata.get("seats", ())) or ("p1", "p2")

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


def record_outcome(service: GameService, record: GameRecord) -> dict[str, Any]:
    """The game's status from its state. ``GameService`` notes the outcome when a game ends; this repairs the
    metadata of a game whose server stopped between the append and that update."""
    outcome = game_outcome(service, record.game_id)
    status = {
        "status": "over" if outcome.over else "active",
        "winner": outcome.winner,
        "end_reason": outcome.end_reason,
    }
    if outcome.over and any(record.metadata.get(k) != v for k, v in status.items()):
        service.store.update_metadata(record.game_id, status)
    return status


@router.get("/health", response_model=Health, tags=["service"])
def health() -> Health:
    return Health(status="ok")


@router.post(
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
            422: "invalid_request (details), or invalid_setup: the system refuses the setup (reason: invalid_army, "
            "invalid_variant, ...)",
        }),
    },
    **auth.ADMIN,
)
def create_game(request: Request, body: GameIn) -> GameCreated:
    """Start a game. The answer holds the scorekeeper's and each seat's bearer token: they are shown once."""
    auth.require_admin(request)
    service: GameService = request.app.state.service
    setup = body.model_dump(exclude_none=True)
    for player in setup["players"]:
        player["name"] = player.get("name") or player["id"]
    tokens, hashes = auth.new_tokens([auth.SCOREKEEPER, *(p["id"] for p in setup["players"])])
    metadata = {
        "status": "active",
        "variant": body.variant,
        "seats": [{"id": p["id"], "name": p["name"], "army": army_label(p["army"])} for p in setup["players"]],
        "token_hashes": hashes,
    }
    result = service.create_game(setup, metadata)
    return GameCreated(id=result.game_id, seq=result.seq, tokens=tokens)


def army_label(army: Any) -> str:
    return army if isinstance(army, str) else f"custom ({len(army)} cards)"


@router.get(
    "/games", response_model=GamePage, tags=["games"], summary="List games (paged)",
    responses=error_responses(422, described={422: "invalid_request, invalid_cursor"}),
)
def list_games(
    request: Request,
    system: str | None = Query(None, max_length=64),
    player: str | None = Query(None, max_length=128),
    tournament: str | None = Query(None, max_length=128),
    limit: int = Query(50, ge=1, le=500),
    cursor: str | None = Query(None, max_length=512, description="next_cursor of the previous page"),
) -> GamePage:
    try:
        page = request.app.state.service.store.list_games(
            system=system, player=player, tournament=tournament, limit=limit, cursor=cursor
        )
    except ValueError as exc:
        raise ApiError(422, "invalid_cursor", str(exc)) from None
    return GamePage(
        games=[
            GameSummary(
                id=g.game_id,
                system=g.system,
                created_at=g.created_at,
                players=g.players,
                tournament=g.tournament,
                seq=g.last_seq,
                metadata={k: v for k, v in g.metadata.items() if k != "token_hashes"},
            )
            for g in page.games
        ],
        next_cursor=page.next_cursor,
    )


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
        players=[SeatOut(**s) for s in meta.get("seats", ())],
        variant=meta.get("variant", {}),
        seq=game.service.store.last_seq(game_id),
        tournament=game.record.tournament,
        round=meta.get("round"),
        table=meta.get("table"),
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
            403: "a seat's token acting for another seat (forbidden)",
            404: _NO_GAME,
            409: "expected_seq is stale (conflict, with expected_seq and the game's seq)",
            422: "illegal_action (rule, reason), malformed_action (rule) or invalid_request (details)",
        }),
    },
    **auth.TOKEN,
)
async def act(request: Request, body: ActionIn, game_id: str = GameId) -> JSONResponse:
    """Decide an action and store what it causes. Needs the scorekeeper's token or the acting player's own.
    A repeated ``idempotency_key`` returns the first answer (header ``Idempotent-Replayed: true``)."""
    # On the event loop, not in a worker thread: the common case (state cached, legal action) decides here and
    # awaits the store's group commit (GameService.begin_act); the hop to a worker thread and back cost about as
    # much as all of GET /health (sync: 2,050 req/s, async: 4,500 at 128 clients). Everything else is
    # GameService.act in a worker thread, as before. The access check reads the store's row cache.
    game = access(request, game_id)
    if game.role is None:
        raise ApiError(401, "unauthorized", "recording an action needs a bearer token (scorekeeper or the player's)")
    typed = game.system.parse_action(body.action)
    player = body.action.get("player")
    auth.require(game.role, (auth.SCOREKEEPER, str(player)), f"act for {player}")
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


@router.get(
    "/games/{game_id}/legal",
    response_model=LegalOut,
    tags=["games"],
    summary="Legal actions for the side to act",
    responses=error_responses(401, 403, 404, 422, described={
        401: "no token (unauthorized), or one that is not valid for this game (invalid_token)",
        403: "a seat that is not to act (forbidden)", 404: _NO_GAME}),
    **auth.TOKEN,
)
def legal(request: Request, game_id: str = GameId) -> LegalOut:
    """Every legal action of the side to act (placements without shots). The scorekeeper or the active player."""
    game = access(request, game_id)
    seq, current = game.service.state(game_id)
    data = game.system.state_to_builtins(current)
    active = None if data.get("phase") == "over" else data.get("active")
    auth.require(game.role, (auth.SCOREKEEPER, *([str(active)] if active else [])), "list the legal actions")
    actions = [msgspec.to_builtins(a) for a in game.system.legal_actions(current)] if active else []
    return LegalOut(seq=seq, active=active, actions=actions)


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
    def read(from_seq: int) -> tuple[list[tuple[int, dict[str, Any] | None]], bool]:
        recorded = service.events(game_id, from_seq)
        over = any(type(r.event).tag_name() == "game_ended" for r in recorded)
        if not over and not recorded:
            over = service.store.get_game(game_id).metadata.get("status") == "over"
        return [(r.seq, event_view(system_name, r, chosen)) for r in recorded], over

    return StreamingResponse(
        sse_stream(request.app.state.live, game_id, start, read, timeout),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
