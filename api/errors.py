"""The one place that maps domain errors to HTTP statuses and the contract's error body.

Every error answer is ``{"error": {"code": "...", "message": "...", ...}}``.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from engine.errors import RuleError, SetupError
from replay.errors import Conflict, CorruptRecord, GameExists, GameNotFound


class ApiError(Exception):
    """An error raised by the API layer itself (auth, limits, bad parameters)."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, **extra}}


def _json(status: int, code: str, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse(status_code=status, content=error_body(code, message, **extra))


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def api_error(_: Request, exc: ApiError) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
        response = _json(exc.status, exc.code, exc.message, **exc.extra)
        if headers:
            response.headers.update(headers)
        return response

    @app.exception_handler(SetupError)
    async def setup_error(_: Request, exc: SetupError) -> JSONResponse:
        return _json(422, "invalid_setup", exc.message, rule=exc.rule, reason=exc.code)

    @app.exception_handler(RuleError)
    async def rule_error(_: Request, exc: RuleError) -> JSONResponse:
        if exc.code == "malformed":
            return _json(422, "malformed_action", exc.message, rule=exc.rule)
        return _json(422, "illegal_action", exc.message, rule=exc.rule, reason=exc.code)

    @app.exception_handler(GameNotFound)
    async def not_found(_: Request, exc: GameNotFound) -> JSONResponse:
        return _json(404, "not_found", str(exc))

    @app.exception_handler(GameExists)
    async def exists(_: Request, exc: GameExists) -> JSONResponse:
        return _json(409, "exists", str(exc))

    @app.exception_handler(Conflict)
    async def conflict(_: Request, exc: Conflict) -> JSONResponse:
        return _json(409, "conflict", str(exc), expected_seq=exc.expected_seq, seq=exc.actual_seq)

    @app.exception_handler(CorruptRecord)
    async def corrupt(_: Request, exc: CorruptRecord) -> JSONResponse:
        return _json(500, "corrupt_record", str(exc), game_id=exc.game_id, seq=exc.seq)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        details = [
            {"loc": [str(p) for p in e.get("loc", ())], "message": str(e.get("msg", ""))} for e in exc.errors()
        ]
        first = details[0] if details else {"loc": [], "message": "invalid request"}
        message = f"{'.'.join(first['loc'][1:]) or 'request'}: {first['message']}"
        return _json(422, "invalid_request", message, details=details)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return _json(exc.status_code, code, str(exc.detail))
