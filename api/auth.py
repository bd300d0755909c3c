"""Access control: per-game tokens, the organiser's tournament token, the optional admin key.

Model (docs/api.md):
- ``POST /games`` answers once with a scorekeeper token and one token per seat (``secrets.token_urlsafe(24)``);
  the game keeps only their SHA-256 hashes (metadata ``token_hashes``). A presented token is hashed and compared
  with every stored hash in constant time (``hmac.compare_digest``).
- ``Authorization: Bearer <token>``. No token where one is needed: 401 ``unauthorized``. A token that belongs
  to nobody in this game: 401 ``invalid_token`` (RFC 6750). A valid token of a seat that may not do this: 403
  ``forbidden``. A presented token is always checked, even on routes that would be public without it.
- The admin key (``--admin-key`` / ``WARLOG_ADMIN_KEY``), when set, is required to create games and tournaments,
  as ``X-Admin-Key: <key>`` or as the bearer token. Missing: 401; wrong: 403.
- The write routes' rate limits (api/limits.py) give a request the bucket of its credential only when
  ``checked_credential`` finds it valid where it is sent; a made-up one takes its address's bucket.
- The scorekeeper may reissue any token of a running game, its own included (``reissue``): the new token's hash
  replaces the old one's, so the old token is ``invalid_token`` from the moment the answer is sent.

``BEARER`` and ``ADMIN_KEY`` (FastAPI's scheme classes) describe these schemes in the OpenAPI document, for the
Authorize button of ``/docs``; each route says which it reads (``TOKEN``, ``OPTIONAL_TOKEN``, ``ADMIN``). They are
declared in the document only, not as FastAPI dependencies: the checks are the functions below (in the contract's
error format), and a dependency that checks nothing cost ~20-35 us of CPU per request (bench/http_layers.py).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections.abc import Iterable, Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.security import APIKeyHeader, HTTPBearer
from starlette.concurrency import run_in_threadpool
from starlette.types import Scope

from api.errors import ApiError
from replay.errors import StoreError
from replay.tournaments.model import TournamentError

SCOREKEEPER = "scorekeeper"
ALL = "all"
SPECTATOR = "spectator"
TOKEN_BYTES = 24
MAX_TOKEN_CHARS = 256


BEARER = HTTPBearer(
    auto_error=False,
    scheme_name="bearerToken",
    description="A token shown once: a game's scorekeeper or seat token (POST /games), a tournament's organiser "
    "token (POST /tournaments); the admin key is accepted this way too.",
)
ADMIN_KEY = APIKeyHeader(
    name="X-Admin-Key",
    auto_error=False,
    scheme_name="adminKey",
    description="The server's admin key (warlog serve --admin-key, WARLOG_ADMIN_KEY): when the server has one, "
    "creating games and tournaments needs it.",
)
# What a route declares (keyword arguments of its decorator): a token it needs; a token it reads when one is sent
# (anonymous callers are served too: `{}`); the admin key, needed only when the server has one (or as the bearer).
TOKEN: dict[str, Any] = {"openapi_extra": {"security": [{BEARER.scheme_name: []}]}}
OPTIONAL_TOKEN: dict[str, Any] = {"openapi_extra": {"security": [{BEARER.scheme_name: []}, {}]}}
ADMIN: dict[str, Any] = {"openapi_extra": {"security": [{ADMIN_KEY.scheme_name: []}, {BEARER.scheme_name: []}, {}]}}


def declare_schemes(app: FastAPI) -> None:
    """Add the schemes the routes name to the app's OpenAPI document (``components.securitySchemes``)."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = generate()  # FastAPI's, built once
            schemes = document.setdefault("components", {}).setdefault("securitySchemes", {})
            for scheme in (BEARER, ADMIN_KEY):
                schemes[scheme.scheme_name] = jsonable_encoder(scheme.model, by_alias=True, exclude_none=True)
            app.openapi_schema = document
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_tokens(roles: Iterable[str]) -> tuple[dict[str, str], dict[str, str]]:
    """Fresh tokens for ``roles`` -> (tokens to show once, their hashes to store)."""
    tokens = {role: secrets.token_urlsafe(TOKEN_BYTES) for role in roles}
    return tokens, {role: hash_token(token) for role, token in tokens.items()}


_REISSUE = threading.Lock()  # token_hashes is read, changed and written back whole: one reissue at a time


def reissue(store: Any, game_id: str, role: str) -> str:
    """A new token for ``role`` of the game in ``store`` (an ``EventStore``): its hash replaces the role's in the game's
    ``token_hashes``, so the old token is refused from then on. Returns the token (shown once)."""
    tokens, hashes = new_tokens([role])
    with _REISSUE:  # two reissues at once (p1 and p2) must not write back each other's old hashes
        stored = dict(store.get_game(game_id).metadata.get("token_hashes") or {})
        stored[role] = hashes[role]
        store.update_metadata(game_id, {"token_hashes": stored})
    return tokens[role]


def bearer(request: Request) -> str | None:
    """The bearer token of the request, or None when there is none."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise ApiError(401, "invalid_token", "the Authorization header must be 'Bearer <token>'")
    if len(token) > MAX_TOKEN_CHARS:
        raise ApiError(401, "invalid_token", "this token is not valid for this resource")
    return token


def role_of(token: str, hashes: Mapping[str, str]) -> str | None:
    """The role whose stored hash matches ``token``; every hash is compared (constant time per hash)."""
    digest = hash_token(token)
    found = None
    for role, stored in hashes.items():
        if hmac.compare_digest(digest, str(stored)) and found is None:
            found = role
    return found


def caller_role(request: Request, hashes: Mapping[str, str], query_token: str | None = None) -> str | None:
    """None for an anonymous caller; the role of a valid token; 401 for a token nobody here holds.
    ``query_token``: the ``access_token`` query parameter (RFC 6750 §2.3), accepted where a browser cannot send
    headers (``EventSource``); the header wins when both are given."""
    token = bearer(request)
    if token is None and query_token:
        token = query_token if len(query_token) <= MAX_TOKEN_CHARS else "-"
    if token is None:
        return None
    role = role_of(token, hashes)
    if role is None:
        raise ApiError(401, "invalid_token", "this token is not valid for this resource")
    return role


def require(role: str | None, allowed: Iterable[str], what: str) -> str:
    """The caller's role if it is one of ``allowed``; 401 without a token, 403 with another seat's."""
    allowed = tuple(allowed)
    if role is None:
        raise ApiError(401, "unauthorized", f"{what} needs a bearer token ({' or '.join(allowed)})")
    if role not in allowed:
        raise ApiError(403, "forbidden", f"the {role} token may not {what} (needs {' or '.join(allowed)})")
    return role


def default_view(role: str | None) -> str:
    """The view a caller gets when none is asked for: the widest their token allows."""
    if role is None:
        return SPECTATOR
    return ALL if role == SCOREKEEPER else role


def check_view(role: str | None, view: str, seats: Iterable[str], over: bool) -> str:
    """May ``role`` see ``view``? Spectator: anyone. pN: pN or the scorekeeper. all: the scorekeeper.
    Once the game is over every view is public."""
    seats = tuple(seats)
    if view not in (ALL, SPECTATOR, *seats):
        raise ApiError(422, "invalid_view", f"view must be one of all, spectator, {', '.join(seats)}; got {view!r}")
    if view == SPECTATOR or over:
        return view
    allowed = (SCOREKEEPER,) if view == ALL else (view, SCOREKEEPER)
    require(role, allowed, f"see view={view}")
    return view


def require_admin(request: Request) -> None:
    """When the server has an admin key, the request must carry it (``X-Admin-Key`` or bearer)."""
    key: str | None = request.app.state.settings.admin_key
    if not key:
        return
    given = request.headers.get("x-admin-key")
    if given is None:
        header = request.headers.get("authorization", "")
        scheme, _, token = header.strip().partition(" ")
        given = token.strip() if scheme.lower() == "bearer" and token.strip() else None
    if given is None:
        raise ApiError(401, "unauthorized", "this server requires the admin key (X-Admin-Key header) for this")
    if not hmac.compare_digest(hash_token(given), hash_token(key)):
        raise ApiError(403, "forbidden", "wrong admin key")



async def checked_credential(scope: Scope, credential: bytes) -> bool:
    """Whether ``credential`` (a bearer token or an ``X-Admin-Key`` value) is valid where this request sends it: the
    server's admin key on any route, a token of the game of a ``/games/{id}/...`` path (its row, as the route reads
    it: the store's row cache), the organiser's token of a ``/tournaments/{id}/...`` path. False for anything else
    (an unknown game, a store that cannot answer): the route itself then says what is wrong."""
    if len(credential) > MAX_TOKEN_CHARS:
        return False
    token = credential.decode("utf-8", "replace")
    state = scope["app"].state
    key: str | None = state.settings.admin_key
    if key and hmac.compare_digest(hash_token(token), hash_token(key)):
        return True
    parts = scope["path"].split("/")  # "", "games", id, ...
    if len(parts) < 4 or not parts[2]:
        return False
    try:
        if parts[1] == "games":
            hashes = state.service.store.get_game(parts[2]).metadata.get("token_hashes") or {}
        elif parts[1] == "tournaments":
            tournament = await run_in_threadpool(state.tournaments.get, parts[2])
            hashes = {"organiser": tournament.organiser_hash}
        else:
            return False
    except (StoreError, TournamentError):
        return False
    return role_of(token, hashes) is not None
