"""The one place that maps domain errors to HTTP statuses and the contract's error body.

Every error answer is ``{"error": {"code": "...", "message": "...", ...}}``: ``ErrorBody`` documents it in the
OpenAPI document, on every route's error statuses (``error_responses``).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from engine.catalogue import CatalogueError, CatalogueTooLarge
from engine.errors import RuleError, SetupError
from replay.errors import (
    CatalogueNotFound,
    CatalogueRefused,
    Conflict,
    CorruptRecord,
    GameExists,
    GameNotFound,
    StoreBusy,
    StoreTimeout,
    StoreUnavailable,
)
from replay.tournaments.model import (
    TournamentConflict,
    TournamentError,
    TournamentInvalid,
    TournamentNotFound,
    TournamentRefused,
)


class ApiError(Exception):
    """An error raised by the API layer itself (auth, limits, bad parameters)."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None, **extra: Any
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}  # e.g. Retry-After with a 503
        self.extra = extra


class InvalidField(BaseModel):
    loc: list[str] = Field(description="where: body, query, path or header, then the field's path", examples=[
        ["body", "players", "0", "army"]])
    message: str


class CatalogueProblemOut(BaseModel):
    path: str = Field(description="where in the catalogue, as a JSON path ('' for the whole document)",
                      examples=["cards[12].defence"])
    message: str = Field(examples=["must be >= 0"])
    rule: str | None = Field(None, description="the rule the catalogue breaks (§2); null: the schema's shape")


class ErrorObject(BaseModel):
    """What went wrong. ``code`` is stable and machine-readable; ``message`` is for people. The other fields
    appear with the codes that have them; a client must accept fields it does not know."""

    model_config = ConfigDict(extra="allow")

    code: str = Field(description="e.g. not_found, unauthorized, invalid_token, forbidden, conflict, "
                      "payload_too_large, invalid_request, illegal_action (docs/api.md, Errors)", examples=["conflict"])
    message: str = Field(examples=["game 'Xa3kP9qz': expected last seq 3, but it is 5"])
    rule: str | None = Field(None, description="illegal_action, malformed_action, invalid_setup: the rule refused "
                             "(a ruling such as R7 or a section such as §5.1)")
    reason: str | None = Field(None, description="illegal_action, invalid_setup: a stable sub-code such as contact "
                               "or invalid_army")
    details: list[InvalidField] | list[CatalogueProblemOut] | None = Field(
        None, description="invalid_request, invalid_json: every problem found; invalid_catalogue: every problem of "
        "the catalogue, each {path, message, rule}")
    expected_seq: int | None = Field(None, description="conflict: the expected_seq sent")
    seq: int | None = Field(None, description="conflict: the game's last seq; corrupt_record: the damaged event")
    game_id: str | None = Field(None, description="corrupt_record: the game")


class ErrorBody(BaseModel):
    """Every error answer: ``{"error": {"code", "message", ...}}``."""

    error: ErrorObject


# What each status means when a route does not say more (docs/api.md, Access and Errors).
ERROR_STATUSES: dict[int, str] = {
    401: "no token where one is needed (unauthorized), or a token that is not valid here (invalid_token)",
    403: "a valid token that may not do this (forbidden)",
    404: "not found (not_found)",
    409: "refused in the current state",
    413: "the body is larger than the server's limit, 64 KiB by default (payload_too_large)",
    422: "invalid parameters or body: invalid_request (details lists every problem) or invalid_json",
}


# An example body per status, shown by /docs (each is what the server answers in a common case).
ERROR_EXAMPLES: dict[int, dict[str, Any]] = {
    401: {"code": "unauthorized", "message": "recording an action needs a bearer token (scorekeeper or the player's)"},
    403: {"code": "forbidden", "message": "the p2 token may not act for p1 (needs scorekeeper or p1)"},
    404: {"code": "not_found", "message": "game 'Xa3kP9qz' not found"},
    409: {"code": "conflict", "message": "game 'Xa3kP9qz': expected last seq 3, but it is 5", "expected_seq": 3,
          "seq": 5},
    413: {"code": "payload_too_large", "message": "the request body is larger than 65536 bytes"},
    422: {"code": "invalid_request", "message": "players.0.army: Field required",
          "details": [{"loc": ["body", "players", "0", "army"], "message": "Field required"}]},
}


def error_responses(*statuses: int, described: dict[int, str] | None = None) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a route's error statuses, each an ``ErrorBody``; ``described`` says what a
    status means on this route (else ``ERROR_STATUSES``)."""
    described = described or {}
    if set(described) - set(statuses):
        raise ValueError(f"described statuses {sorted(set(described) - set(statuses))} are not among {statuses}")
    responses: dict[int | str, dict[str, Any]] = {
        status: {
            "model": ErrorBody,
            "description": described.get(status, ERROR_STATUSES[status]),
            "content": {"application/json": {"example": {"error": ERROR_EXAMPLES[status]}}},
        }
        for status in statuses
    }
    if 401 in responses:
        responses[401]["headers"] = {"WWW-Authenticate": {"description": "Bearer (RFC 6750)",
                                                          "schema": {"type": "string"}}}
    return responses


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, **extra}}


def _json(status: int, code: str, message: str, headers: dict[str, str] | None = None, **extra: Any) -> JSONResponse:
    return JSONResponse(status_code=status, content=error_body(code, message, **extra), headers=headers)


INTERNAL_ERROR = "an unexpected error occurred; nothing was stored by this request"
log = logging.getLogger("uvicorn.error")  # the server's error log, where uvicorn itself reports failures


def install_error_handlers(app: FastAPI) -> None:
    app.add_middleware(Defects)

    @app.exception_handler(ApiError)
    async def api_error(_: Request, exc: ApiError) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else {}
        response = _json(exc.status, exc.code, exc.message, **exc.extra)
        response.headers.update({**headers, **exc.headers})
        return response

    @app.exception_handler(SetupError)
    async def setup_error(_: Request, exc: SetupError) -> JSONResponse:
        return _json(422, "invalid_setup", exc.message, rule=exc.rule, reason=exc.code)

    @app.exception_handler(RuleError)
    async def rule_error(_: Request, exc: RuleError) -> JSONResponse:
        if exc.code == "malformed":
            return _json(422, "malformed_action", exc.message, rule=exc.rule)
        if exc.code == "game_over":  # the game's result stands (ended by its rules, adjudicated, a table decided)
            return _json(409, "game_over", exc.message, rule=exc.rule)
        return _json(422, "illegal_action", exc.message, rule=exc.rule, reason=exc.code)

    @app.exception_handler(CatalogueError)
    async def catalogue_refused(_: Request, exc: CatalogueError) -> JSONResponse:
        if isinstance(exc, CatalogueTooLarge):
            return _json(413, "catalogue_too_large", exc.problems[0].message)
        details = [{"path": p.path, "message": p.message, "rule": p.rule} for p in exc.problems]
        return _json(422, "invalid_catalogue", str(exc), details=details)

    @app.exception_handler(CatalogueRefused)
    async def catalogue_refused_for_game(_: Request, exc: CatalogueRefused) -> JSONResponse:
        return _json(422, exc.code, exc.message)

    @app.exception_handler(CatalogueNotFound)
    async def no_catalogue(_: Request, exc: CatalogueNotFound) -> JSONResponse:
        return _json(404, "not_found", str(exc))

    @app.exception_handler(GameNotFound)
    async def not_found(_: Request, exc: GameNotFound) -> JSONResponse:
        return _json(404, "not_found", str(exc))

    @app.exception_handler(GameExists)
    async def exists(_: Request, exc: GameExists) -> JSONResponse:
        return _json(409, "exists", str(exc))

    @app.exception_handler(Conflict)
    async def conflict(_: Request, exc: Conflict) -> JSONResponse:
        return _json(409, "conflict", str(exc), expected_seq=exc.expected_seq, seq=exc.actual_seq)

    @app.exception_handler(StoreUnavailable)
    async def unavailable(_: Request, exc: StoreUnavailable) -> JSONResponse:
        # PostgreSQL down or restarting, or a statement past its timeout: nothing is hung, the client retries
        if isinstance(exc, StoreTimeout):
            return _json(503, "store_timeout", str(exc), headers={"Retry-After": "1"})
        if isinstance(exc, StoreBusy):
            return _json(503, "store_busy", str(exc), headers={"Retry-After": "1"})
        return _json(503, "store_unavailable", str(exc), headers={"Retry-After": "1"})

    @app.exception_handler(CorruptRecord)
    async def corrupt(_: Request, exc: CorruptRecord) -> JSONResponse:
        return _json(500, "corrupt_record", str(exc), game_id=exc.game_id, seq=exc.seq)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        details = [
            {"loc": [str(p) for p in e.get("loc", ())], "message": str(e.get("msg", ""))} for e in exc.errors()
        ]
        if any(e.get("type") == "json_invalid" for e in exc.errors()):
            return _json(422, "invalid_json", "the request body is not valid JSON", details=details)
        first = details[0] if details else {"loc": [], "message": "invalid request"}
        message = f"{'.'.join(first['loc'][1:]) or 'request'}: {first['message']}"
        return _json(422, "invalid_request", message, details=details)

    @app.exception_handler(TournamentError)
    async def tournament_error(_: Request, exc: TournamentError) -> JSONResponse:
        status = {TournamentNotFound: 404, TournamentRefused: 409, TournamentConflict: 409, TournamentInvalid: 422}
        if exc.rule is not None:  # a refused deck or army: the rule it breaks
            return _json(status.get(type(exc), 422), exc.code, exc.message, rule=exc.rule)
        return _json(status.get(type(exc), 422), exc.code, exc.message)

    @app.exception_handler(RecursionError)
    async def too_deep(_: Request, exc: RecursionError) -> JSONResponse:
        return _json(422, "invalid_request", "the request body is nested too deeply")

    @app.exception_handler(Exception)
    async def unexpected(_: Request, exc: Exception) -> JSONResponse:
        return _json(500, "internal_error", INTERNAL_ERROR)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            allowed = allowed_methods(request) or [m.strip() for m in headers.get("Allow", "").split(",") if m]
            headers["Allow"] = ", ".join(allowed)
            message = f"{request.method} is not allowed on {request.url.path}; allowed: {headers['Allow']}"
            return _json(405, "method_not_allowed", message, headers=headers)
        if exc.status_code == 400 and isinstance(exc.__cause__, ValueError):  # FastAPI could not decode the body
            return _json(422, "invalid_json", "the request body is not valid JSON (it is not UTF-8 text)")
        code = {404: "not_found"}.get(exc.status_code, "http_error")
        return _json(exc.status_code, code, str(exc.detail), headers=headers or None)


METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def allowed_methods(request: Request) -> list[str]:
    """Every method some route of the app accepts on the request's path, for the ``Allow`` header of a 405
    (RFC 9110 §15.5.6). The router's own 405 names only the methods of the first route whose path matched (GET
    and POST of /games are two routes), so each method is tried against every route."""
    routes = request.app.router.routes
    base = {"type": "http", "path": request.scope["path"], "root_path": request.scope.get("root_path", "")}
    return [m for m in METHODS if any(r.matches({**base, "method": m})[0] == Match.FULL for r in routes)]


class Defects:
    """A defect (an exception no handler maps) answers the contract's 500 here and is logged with its traceback.

    Starlette's last-resort handler (``exception_handler(Exception)`` above, kept for failures outside this
    middleware) sends the same answer but then re-raises to the server, and uvicorn closes the connection after
    it: a client's next request on its kept-alive connection was reset. A response already under way cannot be
    replaced, so a failure after the first byte is re-raised and the server ends that connection."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception:
            if started:
                raise
            log.exception("unexpected error in %s %s", scope.get("method"), scope.get("path"))
            await _json(500, "internal_error", INTERNAL_ERROR)(scope, receive, send)


def error_answer(code: str, message: str, close: bool = False) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """The headers and body of an answer in the contract's error format, sent below the routes (the middlewares,
    the server's protocol); ``close``: the connection closes after it (``Connection: close``)."""
    payload = json.dumps(error_body(code, message)).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]
    return headers + ([(b"connection", b"close")] if close else []), payload


class BodyLimit:
    """Refuses request bodies over ``max_bytes`` with 413 ``payload_too_large``: at once when Content-Length says
    so, and while reading a streamed (chunked) body. The body is read here, then handed on unchanged. A body not
    complete ``timeout`` seconds after its headers is answered 408 ``request_timeout`` and its connection closed
    (a slow client, api/read_timeouts.py)."""

    def __init__(self, app: ASGIApp, max_bytes: int, timeout: float = 10.0,
                 wider: Mapping[str, int] | None = None) -> None:
        """``wider``: paths whose bodies may be larger (``POST /catalogues``: a catalogue's own size limit)."""
        self.app = app
        self.max_bytes = max_bytes
        self.timeout = timeout
        self.wider = dict(wider or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS", "DELETE"):
            await self.app(scope, receive, send)
            return
        max_bytes = max(self.max_bytes, self.wider.get(scope.get("path", ""), 0))
        declared = dict(scope.get("headers") or ()).get(b"content-length")
        if declared is not None:
            try:
                too_big = int(declared) > max_bytes
            except ValueError:
                await self._refuse(send, 400, "bad_request", "Content-Length is not a number")
                return
            if too_big:
                await self._too_large(send, max_bytes)
                return
        chunks: list[bytes] = []
        size = 0
        deadline = asyncio.get_running_loop().time() + self.timeout
        while True:
            try:
                async with asyncio.timeout_at(deadline):  # not wait_for: no task per receive
                    message = await receive()
            except TimeoutError:
                await self._refuse(send, 408, "request_timeout", f"the request body did not arrive within "
                                   f"{self.timeout:g} s; the connection is closed", close=True)
                return
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > max_bytes:
                await self._too_large(send, max_bytes)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _too_large(self, send: Send, max_bytes: int) -> None:
        await self._refuse(send, 413, "payload_too_large", f"the request body is larger than {max_bytes} bytes")

    @staticmethod
    async def _refuse(send: Send, status: int, code: str, message: str, close: bool = False) -> None:
        headers, payload = error_answer(code, message, close)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": payload})
