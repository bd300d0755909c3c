"""``/local``: the server's store, lent to this machine's ``warlog`` commands while the server holds the file.

Only a served database file gets these routes (``warlog serve`` calls ``install`` with a random key it writes to
the 0600 sidecar ``<db>.server.json``, api/remote.py); every request must carry that key in ``X-Warlog-Local-Key``.
They are not part of the public contract and are left out of the OpenAPI document. Thin: each route is one call
of the store (or the tournament log); the rules run in the command that calls them, as they would on the file.
"""

from __future__ import annotations

import hmac
import os
from collections.abc import Callable
from typing import Any, TypeVar

import msgspec
from fastapi import APIRouter, Depends, FastAPI, Header, Query, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from api.auth import hash_token
from api.errors import ApiError
from api.remote import KEY_HEADER
from replay.errors import CatalogueNotFound, Conflict, CorruptRecord, GameExists, GameNotFound
from replay.store.base import NewEvent
from replay.tournaments.model import TournamentConflict, TournamentNotFound

T = TypeVar("T")


def _local_key(request: Request, key: str | None = Header(None, alias=KEY_HEADER)) -> None:
    expected: str | None = getattr(request.app.state, "local_key", None)
    if not expected:
        raise ApiError(404, "not_found", "Not Found")
    if key is None:
        raise ApiError(401, "unauthorized", f"the local routes need the {KEY_HEADER} header")
    if not hmac.compare_digest(hash_token(key), hash_token(expected)):
        raise ApiError(403, "forbidden", "wrong local key")


router = APIRouter(prefix="/local", include_in_schema=False, dependencies=[Depends(_local_key)])


def install(app: FastAPI, key: str) -> None:
    """Lend the store to holders of ``key`` (``warlog serve`` on a database file)."""
    app.state.local_key = key
    app.include_router(router)


class _Create(msgspec.Struct, forbid_unknown_fields=True):
    game_id: str
    system: str
    players: list[str]
    metadata: dict[str, Any]
    events: list[NewEvent]
    tournament: str | None = None


class _Append(msgspec.Struct, forbid_unknown_fields=True):
    events: list[NewEvent]
    expected_seq: int | None = None
    idempotency_key: str | None = None


class _Catalogue(msgspec.Struct, forbid_unknown_fields=True):
    catalogue_id: str
    system: str
    name: str
    version: str
    document: bytes  # canonical JSON (base64 on the wire, as msgspec writes bytes)


class _Annotation(msgspec.Struct, forbid_unknown_fields=True):
    step: int
    text: str
    role: str
    author: str


class _TournamentAppend(msgspec.Struct, forbid_unknown_fields=True):
    events: list[tuple[str, dict[str, Any]]]
    expected_seq: int
    idempotency_key: str | None = None


def _json(value: Any) -> Response:
    return Response(msgspec.json.encode(value), media_type="application/json")


def _decode(body: bytes, kind: type[T]) -> T:
    try:
        return msgspec.json.decode(body, type=kind)
    except msgspec.DecodeError as error:
        raise ApiError(422, "invalid_request", str(error)) from None


async def _call(fn: Callable[..., Any], *args: Any) -> Any:
    """One store call in a worker thread, its errors as answers the command maps back to the same errors."""
    try:
        return await run_in_threadpool(fn, *args)
    except GameNotFound as e:
        raise ApiError(404, "not_found", str(e), game_id=e.game_id) from None
    except GameExists as e:
        raise ApiError(409, "exists", str(e), game_id=e.game_id) from None
    except Conflict as e:
        raise ApiError(
            409, "conflict", str(e), game_id=e.game_id, expected_seq=e.expected_seq, seq=e.actual_seq
        ) from None
    except CorruptRecord as e:
        raise ApiError(500, "corrupt_record", str(e), game_id=e.game_id, seq=e.seq, reason=e.reason) from None
    except CatalogueNotFound as e:
        raise ApiError(404, "not_found", str(e), catalogue_id=e.catalogue_id) from None
    except TournamentNotFound as e:
        raise ApiError(404, "not_found", e.message, tournament_id=e.tournament_id) from None
    except TournamentConflict as e:
        raise ApiError(409, "tournament_conflict", e.message) from None
    except (ValueError, TypeError) as e:
        raise ApiError(422, "invalid_request", str(e)) from None


def _store(request: Request) -> Any:
    return request.app.state.service.store


@router.get("/ping")
def ping(request: Request) -> dict[str, Any]:
    return {"db": request.app.state.settings.db, "pid": os.getpid()}


@router.get("/games")
async def list_games(
    request: Request,
    system: str | None = None,
    player: str | None = None,
    tournament: str | None = None,
    limit: int = Query(50, ge=1, le=1000),
    cursor: str | None = None,
    army: str | None = None,
    newest_first: bool = False,
    over: bool | None = None,
) -> Response:
    return _json(await _call(_store(request).list_games, system, player, tournament, limit, cursor, army,
                             newest_first, over))


@router.post("/games")
async def create_game(request: Request) -> Response:
    body = _decode(await request.body(), _Create)
    store = _store(request)
    return _json(await _call(store.create_game, body.game_id, body.system, body.players, body.metadata, body.events,
                             body.tournament))


@router.get("/games/{game_id}")
async def get_game(request: Request, game_id: str) -> Response:
    return _json(await _call(_store(request).get_game, game_id))


@router.patch("/games/{game_id}")
async def update_metadata(request: Request, game_id: str) -> Response:
    patch = _decode(await request.body(), dict[str, Any])
    await _call(_store(request).update_metadata, game_id, patch)
    return _json({"ok": True})


@router.get("/games/{game_id}/events")
async def read(
    request: Request,
    game_id: str,
    from_seq: int = Query(1, alias="from", ge=1),
    to_seq: int | None = Query(None, alias="to"),
) -> Response:
    store = _store(request)
    await _call(store.get_game, game_id)  # GameNotFound for an unknown game, whatever the store does on read
    return _json(await _call(store.read, game_id, from_seq, to_seq))


@router.post("/games/{game_id}/events")
async def append(request: Request, game_id: str) -> Response:
    body = _decode(await request.body(), _Append)
    # live streams wake through the store's commit listener (api/app.py), as for every append of this process
    return _json(await _call(_store(request).append, game_id, body.events, body.expected_seq, body.idempotency_key))


@router.get("/games/{game_id}/idempotent")
async def find_idempotent(request: Request, game_id: str, key: str) -> Response:
    return _json(await _call(_store(request).find_idempotent, game_id, key))


@router.get("/games/{game_id}/annotations")
async def list_annotations(request: Request, game_id: str) -> Response:
    """A game's annotations (``warlog export`` through the server writes them as comments)."""
    return _json(await _call(_store(request).annotations, game_id))


@router.post("/games/{game_id}/annotations")
async def add_annotation(request: Request, game_id: str) -> Response:
    """An annotation the command checked (replay.log.annotations.add), stored by the server's store."""
    body = _decode(await request.body(), _Annotation)
    return _json(await _call(_store(request).add_annotation, game_id, body.step, body.text, body.role, body.author))


@router.get("/contents/{digest}")
async def games_with_content(request: Request, digest: str) -> Response:
    """The games whose content hash is ``digest`` (``replay.log.contents``: an import's duplicate check, done here
    in the store's own database instead of reading every game through these routes)."""
    from replay.log.contents import duplicates_of

    return _json(await _call(duplicates_of, _store(request), digest))


@router.post("/catalogues")
async def add_catalogue(request: Request) -> Response:
    """``warlog catalogue import``: the command checked the document (as on the file); the store keeps it."""
    body = _decode(await request.body(), _Catalogue)
    record, added = await _call(_store(request).add_catalogue, body.catalogue_id, body.system, body.name,
                                body.version, body.document)
    return _json({"record": record, "added": added})


@router.get("/catalogues")
async def list_catalogues(request: Request, system: str | None = None) -> Response:
    return _json(await _call(_store(request).list_catalogues, system))


@router.get("/catalogues/{catalogue_id}")
async def get_catalogue(request: Request, catalogue_id: str) -> Response:
    return _json(await _call(_store(request).get_catalogue, catalogue_id))


@router.post("/reproject")
async def reproject(request: Request) -> Response:
    """``warlog reproject``: the server's projector rebuilds every projection from the log (one pass at a time:
    its lock keeps the background passes out meanwhile)."""
    projector = getattr(request.app.state, "stats_projector", None)
    if projector is None:
        raise ApiError(503, "stats_unavailable", "this server keeps no projections")
    return _json({"games": await _call(projector.rebuild)})


@router.get("/tournaments")
async def list_tournaments(request: Request, limit: int = Query(100, ge=1, le=100_000)) -> Response:
    return _json(await _call(request.app.state.tournaments.log.list_ids, limit))


@router.get("/tournaments/{tournament_id}/events")
async def read_tournament(request: Request, tournament_id: str) -> Response:
    rows = await _call(request.app.state.tournaments.log.read, tournament_id)
    return _json([{"seq": r.seq, "type": r.type, "data": r.data, "recorded_at": r.recorded_at} for r in rows])


@router.post("/tournaments/{tournament_id}/events")
async def append_tournament(request: Request, tournament_id: str) -> Response:
    body = _decode(await request.body(), _TournamentAppend)
    seq = await _call(request.app.state.tournaments.log.append, tournament_id, body.events, body.expected_seq,
                      body.idempotency_key)
    return _json({"seq": seq})
