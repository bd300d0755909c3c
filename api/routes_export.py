"""``GET /games/export``: many games in one stream, as text records or NDJSON, with the ``GET /games`` filters
(lichess's game export is the model). Declared before ``/games/{game_id}`` (api/app.py), which would take it.

Each game is shown as the public may see it: a finished game in the ``all`` view (every view is public once a
game is over), a running one as a spectator sees it. What ``warlog import`` reads back (a running sealed game's
record has ``Seed "?"``: a record for people, not for import).

``GET /games/{id}/export``: one game's record or events as a file to download (the replay page's links), in the
view asked for (a running game's views need their tokens, as every read route).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response, StreamingResponse

from api import auth
from api.errors import error_responses
from api.routes_games import GameId, ViewQuery, access
from replay.archive.games import export_games, export_jsonl, export_record, game_ids, tournament_names
from replay.log.service import GameService

router = APIRouter()

NDJSON = "application/x-ndjson"
RECORD = "text/plain; charset=utf-8"


@router.get(
    "/games/export",
    tags=["games"],
    summary="Export many games (records or NDJSON)",
    response_class=StreamingResponse,
    responses={
        200: {
            "description": "record: text records one after another, a blank line between (docs/record-format.md); "
            "jsonl: one event per line, each game's stream in turn, every line with its game_id",
            "content": {RECORD: {}, NDJSON: {}},
        },
        **error_responses(422),
    },
)
def export(
    request: Request,
    format: Literal["record", "jsonl"] | None = Query(  # noqa: A002 - the parameter's public name
        None, description=f"record or jsonl (default: jsonl when Accept is {NDJSON}, else record)"
    ),
    system: str | None = Query(None, max_length=64),
    player: str | None = Query(None, max_length=128),
    tournament: str | None = Query(None, max_length=128, description="a tournament's id"),
    army: str | None = Query(None, max_length=128, description="an army label one of the game's seats played "
                             "(metadata.armies, as GET /games)"),
    order: Literal["oldest", "newest"] = Query("oldest", description="oldest (the default) or newest first"),
    status: Literal["active", "over"] | None = Query(None, description="active or over, as GET /games"),
    max_games: int | None = Query(None, alias="max", ge=1, le=1_000_000, description="at most this many games"),
    comments: bool = Query(False, description="records: explain eliminations in {comments}"),
) -> StreamingResponse:
    """Games in the order of ``GET /games`` (oldest first unless ``order=newest``; with ``max``, the first or the
    latest that many), streamed as they are read."""
    service: GameService = request.app.state.service
    fmt = format or ("jsonl" if NDJSON in request.headers.get("accept", "") else "record")
    log = getattr(request.app.state.tournaments, "log", None)
    names = tournament_names(log) if log is not None else None

    def public_view(game_id: str) -> str:
        return "all" if service.store.get_game(game_id).metadata.get("status") == "over" else "spectator"

    def body() -> Iterator[bytes]:
        ids = game_ids(service, system=system, player=player, tournament=tournament, limit=max_games, army=army,
                       newest_first=order == "newest", over=None if status is None else status == "over")
        for text in export_games(service, ids, fmt=fmt, view=public_view, comments=comments, names=names):
            yield text.encode()

    return StreamingResponse(body(), media_type=NDJSON if fmt == "jsonl" else RECORD)


@router.get(
    "/games/{game_id}/export",
    tags=["games"],
    summary="One game's record (text or NDJSON), to download",
    response_class=Response,
    responses={
        200: {
            "description": "record: the game's text record (docs/record-format.md); jsonl: its events, one a line, "
            "as warlog export --format jsonl writes them. Sent as an attachment (warlog-<id>.txt / .jsonl)",
            "content": {RECORD: {}, NDJSON: {}},
        },
        **error_responses(401, 403, 404, 422),
    },
    **auth.OPTIONAL_TOKEN,
)
def export_one(
    request: Request,
    game_id: str = GameId,
    format: Literal["record", "jsonl"] | None = Query(  # noqa: A002 - the parameter's public name
        None, description=f"record or jsonl (default: jsonl when Accept is {NDJSON}, else record)"
    ),
    view: str | None = ViewQuery,
) -> Response:
    """The record the replay page downloads. Without ``view``: a finished game in the ``all`` view (every view
    is public once a game is over, as ``GET /games/export`` shows it), a running one in the widest view the token
    allows (spectator without one)."""
    game = access(request, game_id)
    seen = game.view(view or ("all" if game.over else None))
    fmt = format or ("jsonl" if NDJSON in request.headers.get("accept", "") else "record")
    if fmt == "jsonl":
        text, media, suffix = export_jsonl(game.service, game_id, view=seen), NDJSON, "jsonl"
    else:
        log = getattr(request.app.state.tournaments, "log", None)
        names = tournament_names(log) if log is not None else None
        text, media, suffix = export_record(game.service, game_id, view=seen, names=names), RECORD, "txt"
    return Response(text, media_type=media,
                    headers={"Content-Disposition": f'attachment; filename="warlog-{game_id}.{suffix}"'})
