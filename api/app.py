"""The FastAPI application: wiring only. Routes live in ``api/routes_*.py`` and stay thin."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from api.errors import install_error_handlers
from api.routes_games import router as games_router
from api.settings import Settings
from replay.games import GameService
from replay.store import EventStore


def open_store(settings: Settings) -> EventStore:
    from replay.store_duckdb import DuckDBEventStore

    return DuckDBEventStore(settings.db)


def create_app(settings: Settings | None = None, store: EventStore | None = None) -> FastAPI:
    """Build the app. A given ``store`` is used as is (tests); otherwise the DuckDB file of the settings."""
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        own = store is None
        the_store = open_store(settings) if own else store
        app.state.service = GameService(the_store)
        app.state.settings = settings
        if settings.load_samples:
            from api.samples import load_samples

            load_samples(app.state.service)
        try:
            yield
        finally:
            if own:
                the_store.close()

    app = FastAPI(
        title="warlog",
        version="0.1.0",
        summary="Record and replay service for tactical card and board war games.",
        lifespan=lifespan,
    )
    install_error_handlers(app)
    app.include_router(games_router)
    return app
