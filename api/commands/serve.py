"""``warlog serve``: the HTTP service."""

from __future__ import annotations

import argparse


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from api.app import create_app
    from api.settings import Settings

    settings = Settings.from_env(
        db=args.db, host=args.host, port=args.port, admin_key=args.admin_key, load_samples=args.load_samples or None
    )
    app = create_app(settings)
    print(f"warlog: serving {settings.db} at http://{settings.host}:{settings.port}/docs", flush=True)
    # Open live (SSE) streams must not hold a shutdown hostage.
    uvicorn.run(app, host=settings.host, port=settings.port, log_level="warning", timeout_graceful_shutdown=5)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    serve = sub.add_parser("serve", help="run the HTTP service", description="Run the HTTP service.")
    serve.add_argument("--db", default=None, help="DuckDB file (default ./warlog.duckdb, env WARLOG_DB)")
    serve.add_argument("--host", default=None, help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=None, help="port (default 8000)")
    serve.add_argument("--admin-key", default=None, help="require this key to create games and tournaments")
    serve.add_argument("--load-samples", action="store_true", help="load the sample games into an empty database")
    serve.set_defaults(func=_serve)
