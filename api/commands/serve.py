"""``warlog serve``: the HTTP service."""

from __future__ import annotations

import argparse
import gc
import sys

# The cyclic garbage collector's generations (CPython's default 700, 10, 10). A full collection walks every
# tracked object, and the service keeps many (game states, rows, routes and models): with the defaults it paused
# the server 30-50 ms several times a minute under live appends (gc.callbacks timing, docs/performance.md). The
# objects built at start are frozen out of the collections; young generations are collected less often.
GC_THRESHOLDS = (20_000, 20, 50)


def _serve(args: argparse.Namespace) -> int:
    import uvicorn
    from pydantic import ValidationError

    from api.app import create_app
    from api.settings import Settings

    try:
        settings = Settings.from_env(
            db=args.db, host=args.host, port=args.port, admin_key=args.admin_key,
            load_samples=args.load_samples or None, memory_limit=args.memory_limit,
        )
    except ValidationError as error:
        print(f"warlog serve: {error}", file=sys.stderr)
        return 2
    app = create_app(settings)
    print(f"warlog: serving {settings.db} at http://{settings.host}:{settings.port}/docs", flush=True)
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        # Open live (SSE) streams must not hold a shutdown hostage.
        uvicorn.run(app, host=settings.host, port=settings.port, log_level="warning", timeout_graceful_shutdown=5)
    finally:
        # Frozen objects are never collected, not even at exit: DuckDB's bindings (nanobind) then printed ~80
        # lines of "nanobind: leaked ... instances" when the server stopped (issue 11). Unfrozen, they are freed.
        gc.unfreeze()
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    serve = sub.add_parser("serve", help="run the HTTP service", description="Run the HTTP service.")
    serve.add_argument("--db", default=None, help="DuckDB file (default ./warlog.duckdb, env WARLOG_DB)")
    serve.add_argument("--host", default=None, help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=None, help="port (default 8000)")
    serve.add_argument("--admin-key", default=None, help="require this key to create games and tournaments")
    serve.add_argument("--load-samples", action="store_true", help="load the sample games into an empty database")
    serve.add_argument(
        "--memory-limit", default=None, metavar="SIZE",
        help="DuckDB's memory cap, e.g. 256MB (the default for a file) or 1GB; 'none': DuckDB's own default "
        "(80%% of RAM); env WARLOG_MEMORY_LIMIT",
    )
    serve.set_defaults(func=_serve)
