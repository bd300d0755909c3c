"""Rate limits of the write routes: a token bucket per bearer token, and per client address without one.

Every ``POST``, ``PUT``, ``PATCH`` and ``DELETE`` (actions, game creation, tournament writes, token reissue) takes
one token from its bucket before anything else happens; an empty bucket answers 429 ``rate_limited`` with
``Retry-After`` (whole seconds, at least 1), and the request is not even read, so it stores nothing. Reads are not
limited. The ``/local`` routes (this machine's ``warlog`` commands, holding the server's local key) are not either.

- Whose bucket: a credential the server has checked, by its SHA-256: the server's admin key (``X-Admin-Key`` or
  bearer), a token valid for the game of a ``/games/{id}/...`` path, the organiser's token of a
  ``/tournaments/{id}/...`` path (``api.auth.checked_credential``). Anything else, a made-up or wrong token
  included, takes from its client address's bucket (``scope["client"]``, which uvicorn takes from
  ``X-Forwarded-For`` when the proxy is trusted, ``--forwarded-allow-ips``): a credential nothing checks must not
  choose its bucket, or each made-up value would buy a fresh one (issue 28 item 15). The check reads the game's row
  as the route does (the store's row cache) or the tournament's log. The limits keep a runaway client or retry
  loop from taking the store's write capacity from everyone else; they are not a defence against floods (reads
  are not limited).
- Buckets refill continuously at ``rate`` per second up to ``burst``, on the monotonic clock. Defaults
  (api/settings.py): 20/s with bursts of 300 per token (the longest bot game in bench/live.py's corpus has 265
  actions, so one scorekeeper or bot can play a whole game at any speed), 10/s with bursts of 200 per address.
- Memory is bounded: a bucket unused for ``burst / rate`` seconds is full again, the same as no bucket, and is
  dropped; at most ``MAX_BUCKETS`` are kept (the least recently used go first).
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI
from starlette.types import ASGIApp, Receive, Scope, Send

from api.errors import error_body

WRITES = frozenset(("POST", "PUT", "PATCH", "DELETE"))
UNLIMITED = ("/local/",)  # path prefixes left alone
MAX_BUCKETS = 100_000  # about 150 bytes each


class TokenBuckets:
    """One token bucket per key: ``rate`` tokens a second, at most ``burst``. Thread-safe."""

    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic, max_buckets: int = MAX_BUCKETS
    ) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("a token bucket needs a rate > 0 and a burst >= 1")
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._max = max_buckets
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key -> (tokens, at), oldest first
        self._lock = threading.Lock()

    def take(self, key: str) -> float:
        """Take one token from ``key``'s bucket: 0.0 if there was one, else the seconds until there is one (and
        nothing is taken)."""
        now = self._clock()
        with self._lock:
            self._drop_full(now)
            tokens, at = self._buckets.pop(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - at) * self.rate)
            wait = 0.0 if tokens >= 1 else (1 - tokens) / self.rate
            self._buckets[key] = (tokens - 1 if wait == 0.0 else tokens, now)  # to the end: the most recent
            while len(self._buckets) > self._max:
                self._buckets.popitem(last=False)
            return wait

    def __len__(self) -> int:
        return len(self._buckets)

    def _drop_full(self, now: float) -> None:
        """Drop the buckets that have refilled. They are ordered by last use, and any bucket last used more than
        ``burst / rate`` seconds ago is full, so those are all at the front."""
        buckets = self._buckets
        while buckets:
            tokens, at = next(iter(buckets.values()))
            if tokens + (now - at) * self.rate < self.burst:
                return
            buckets.popitem(last=False)


def retry_after(wait: float) -> int:
    """``Retry-After`` in whole seconds, at least 1 (RFC 9110 §10.2.3)."""
    return max(1, math.ceil(wait))


Check = Callable[[Scope, bytes], Awaitable[bool]]  # is this credential valid where this request sends it?


async def _nothing_checked(scope: Scope, credential: bytes) -> bool:
    return False


class WriteLimit:
    """ASGI middleware: the write routes' rate limits (module docstring). ``rate`` 0 turns a limit off. ``check``
    says whether a credential the request carries is valid for it (``api.auth.checked_credential``); without it
    every write takes from its address's bucket."""

    def __init__(
        self, app: ASGIApp, rate: float, burst: int, address_rate: float, address_burst: int,
        clock: Callable[[], float] = time.monotonic, check: Check = _nothing_checked,
    ) -> None:
        self.app = app
        self.tokens = TokenBuckets(rate, burst, clock) if rate > 0 else None
        self.addresses = TokenBuckets(address_rate, address_burst, clock) if address_rate > 0 else None
        self.check = check

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope["type"] != "http" or scope["method"] not in WRITES or scope["path"].startswith(UNLIMITED)
                or (self.tokens is None and self.addresses is None)):
            await self.app(scope, receive, send)
            return
        credential = await self._checked(scope)
        if credential is not None:
            buckets, whose, key = self.tokens, "with this token", "t" + hashlib.sha256(credential).hexdigest()
        else:
            client = scope.get("client")
            buckets, whose, key = (self.addresses, "from this address without a valid token",
                                   f"a{client[0] if client else ''}")
        if buckets is not None:
            wait = buckets.take(key)
            if wait > 0:
                await _refuse(send, retry_after(wait), whose, buckets)
                return
        await self.app(scope, receive, send)

    async def _checked(self, scope: Scope) -> bytes | None:
        """The first credential of the request that ``check`` finds valid, or None."""
        for credential in _credentials(scope):
            if await self.check(scope, credential):
                return credential
        return None


def _credentials(scope: Scope) -> list[bytes]:
    """The request's bearer token and its ``X-Admin-Key``, those it has."""
    found = []
    for name, value in scope.get("headers") or ():
        if name == b"authorization":
            scheme, _, token = value.strip().partition(b" ")
            if scheme.lower() == b"bearer" and token.strip():
                found.append(token.strip())
        elif name == b"x-admin-key" and value.strip():
            found.append(value.strip())
    return found


async def _refuse(send: Send, seconds: int, whose: str, buckets: TokenBuckets) -> None:
    message = (f"too many writes {whose}: at most {buckets.rate:g} a second (bursts of {buckets.burst}); "
               f"retry after {seconds} s")
    payload = json.dumps(error_body("rate_limited", message, retry_after=seconds)).encode()
    await send({
        "type": "http.response.start",
        "status": 429,
        "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode()),
                    (b"retry-after", str(seconds).encode())],
    })
    await send({"type": "http.response.body", "body": payload})


RATE_LIMITED: dict[str, Any] = {
    "description": "too many writes with this token, or from this address without a valid one (code "
    "rate_limited); nothing was stored",
    "headers": {"Retry-After": {"description": "seconds to wait (at least 1)", "schema": {"type": "integer"}}},
    "content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/ErrorBody"},
        "example": {"error": {"code": "rate_limited",
                              "message": "too many writes with this token: at most 20 a second (bursts of 300); "
                                         "retry in 2 s",
                              "retry_after": 2}},
    }},
}


def install(
    app: FastAPI, rate: float, burst: int, address_rate: float, address_burst: int, check: Check = _nothing_checked
) -> None:
    """Limit the app's write routes, and name their 429 in the OpenAPI document (added to the document as it is
    generated, whoever generates it, so that no route's declaration has to repeat it)."""
    app.add_middleware(WriteLimit, rate=rate, burst=burst, address_rate=address_rate, address_burst=address_burst,
                       check=check)
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        document = generate()
        for path, operations in document.get("paths", {}).items():
            if path.startswith(UNLIMITED):
                continue
            for method, operation in operations.items():
                if method.upper() in WRITES and isinstance(operation, dict):
                    operation.setdefault("responses", {}).setdefault("429", RATE_LIMITED)
        return document

    app.openapi = openapi  # type: ignore[method-assign]
