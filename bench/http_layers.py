"""Per-request CPU cost of the HTTP layers, in process: the FastAPI app called as ASGI (no socket, no uvicorn).

    .venv/bin/python bench/http_layers.py [--requests 2000] [--rounds 5]

1. Routes: the service's app on a memory store, a few read routes with and without a token.
2. Layers: what a layer adds to every request, as the difference between two minimal FastAPI apps measured in
   short batches in turn in this process (so that a busy machine slows both alike): the ``Defects`` middleware
   (api/errors.py); the security schemes as the routes declare them (OpenAPI only, api/auth.py), and, for
   comparison, the same schemes as FastAPI dependencies (``Security(HTTPBearer(auto_error=False))``), which
   api/auth.py does not use for that cost.

Measures ``time.process_time`` (this process's CPU), not the wall clock; prints the best round, in microseconds per
request. The throughput and latency of a real server are bench/live.py's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fastapi import FastAPI, Security  # noqa: E402

from api import auth  # noqa: E402
from api.app import create_app  # noqa: E402
from api.errors import Defects  # noqa: E402
from api.settings import Settings  # noqa: E402
from replay.store.memory_store import MemoryEventStore  # noqa: E402

SETUP = {"system": "lords-of-war", "players": [{"id": "p1", "army": "orcs"}, {"id": "p2", "army": "dwarves"}],
         "seed": 3, "insecure_seed": True}


async def call(app: Any, method: str, path: str, headers: list[tuple[bytes, bytes]], body: bytes = b"") -> dict:
    scope = {"type": "http", "http_version": "1.1", "method": method, "path": path, "raw_path": path.encode(),
             "root_path": "", "scheme": "http", "query_string": b"", "headers": [(b"host", b"bench"), *headers],
             "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80)}
    delivered = False

    async def receive() -> dict:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.sleep(3600)  # no disconnect while the answer is sent
        return {"type": "http.disconnect"}

    answer: dict[str, Any] = {"body": b""}

    async def send(message: dict) -> None:
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
        elif message["type"] == "http.response.body":
            answer["body"] += message.get("body", b"")

    await app(scope, receive, send)
    return answer


async def measure(requests: int, rounds: int) -> None:
    app = create_app(Settings(db=":memory:"), store=MemoryEventStore())
    async with app.router.lifespan_context(app):
        created = await call(app, "POST", "/games", [(b"content-type", b"application/json")],
                             json.dumps(SETUP).encode())
        game = json.loads(created["body"])
        keeper = [(b"authorization", f"Bearer {game['tokens']['scorekeeper']}".encode())]
        routes = {
            "GET /health": ("/health", []),
            "GET /games/{id} (no token)": (f"/games/{game['id']}", []),
            "GET /games/{id}/state (token)": (f"/games/{game['id']}/state", keeper),
            "GET /games/{id}/legal (token)": (f"/games/{game['id']}/legal", keeper),
        }
        for name, (path, headers) in routes.items():
            for _ in range(200):  # warm-up
                assert (await call(app, "GET", path, headers))["status"] == 200
            best = float("inf")
            for _ in range(rounds * 20):  # short batches: the best is the least disturbed
                best = min(best, await best_of(app, path, headers, max(requests // 20, 50)))
            print(f"  {name:32s} {best:7.1f} us/request (CPU, best batch)")


def minimal(defects: bool = False, **route: Any) -> FastAPI:
    app = FastAPI()

    @app.get("/x", **route)
    def x() -> dict[str, bool]:
        return {"ok": True}

    if defects:
        app.add_middleware(Defects)
    return app


async def best_of(app: Any, path: str, headers: list[tuple[bytes, bytes]], requests: int) -> float:
    started = time.process_time()
    for _ in range(requests):
        await call(app, "GET", path, headers)
    return (time.process_time() - started) / requests * 1e6


async def layers(requests: int, rounds: int) -> None:
    token = [(b"authorization", b"Bearer 0123456789abcdef")]
    pairs = {
        "Defects middleware": (minimal(), minimal(defects=True), []),
        "schemes as declared (token)": (minimal(), minimal(**auth.TOKEN), token),
        "schemes as declared (admin)": (minimal(), minimal(**auth.ADMIN), token),
        "bearer as a dependency (token)": (minimal(), minimal(dependencies=[Security(auth.BEARER)]), token),
        "admin+bearer as dependencies": (
            minimal(), minimal(dependencies=[Security(auth.ADMIN_KEY), Security(auth.BEARER)]), token),
    }
    for name, (without, with_layer, headers) in pairs.items():
        for app in (without, with_layer):
            for _ in range(200):
                assert (await call(app, "GET", "/x", headers))["status"] == 200
        base, layered = float("inf"), float("inf")
        for _ in range(rounds * 20):  # short batches in turn: the best of each is the least disturbed
            base = min(base, await best_of(without, "/x", headers, max(requests // 20, 50)))
            layered = min(layered, await best_of(with_layer, "/x", headers, max(requests // 20, 50)))
        print(f"  {name:32s} {layered - base:+7.1f} us/request ({base:.1f} -> {layered:.1f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print("routes:")
    asyncio.run(measure(args.requests, args.rounds))
    print("layers (added CPU per request):")
    asyncio.run(layers(args.requests, args.rounds))


if __name__ == "__main__":
    main()
