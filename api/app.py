"""The FastAPI application: wiring only. Routes live in ``api/routes_*.py`` and stay thin."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from api import auth, limits, systems, web
from api.errors import BodyLimit, install_error_handlers
from api.installed import load_systems
from api.live import LiveHub
from api.routes_annotations import router as annotations_router
from api.routes_catalogues import BODY_LIMIT as CATALOGUE_BODY_LIMIT
from api.routes_catalogues import router as catalogues_router
from api.routes_export import router as export_router
from api.routes_games import router as games_router
from api.routes_games import setup_router
from api.routes_stats import build_router as stats_router
from api.routes_tournament_day import router as tournament_day_router
from api.routes_tournament_day import sweep_clocks
from api.routes_tournaments import router as tournaments_router
from api.routes_tournaments import statistic
from api.settings import Settings
from replay.log.service import GameService
from replay.store.base import CommitListening, EventStore
from replay.tournaments.log import StoreTournamentLog
from replay.tournaments.service import TournamentService, seeding_ratings


def open_store(settings: Settings) -> EventStore:
    """The DuckDB file of the settings, or the PostgreSQL database of their URL (replay.store.open)."""
    from replay.store.open import open_store as open_db

    return open_db(settings.db, memory_limit=settings.duckdb_memory_limit(),
                   statement_timeout_ms=settings.pg_statement_timeout_ms, pool_size=settings.pg_pool_size)


def create_app(settings: Settings | None = None, store: EventStore | None = None) -> FastAPI:
    """Build the app. A given ``store`` is used as is (tests); otherwise the DuckDB file of the settings. The
    installed game systems are loaded first (``api.installed.load_systems``, once per process); ``POST /games`` takes
    the setup of every system registered then."""
    load_systems()
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        own = store is None
        the_store: EventStore = open_store(settings) if store is None else store
        app.state.service = GameService(the_store)
        app.state.settings = settings
        app.state.tournaments = TournamentService(StoreTournamentLog(the_store), app.state.service,
                                                  ratings=seeding_ratings(lambda name, f: statistic(app, name, f)))
        app.state.live.start(the_store.last_seqs)  # the one change check for every watched game
        # wake live streams for appends made by any code path of this process
        if isinstance(the_store, CommitListening):

            def wake(game_ids: list[str]) -> None:
                for game_id in game_ids:
                    app.state.live.published(game_id)

            the_store.add_commit_listener(wake)
        if settings.load_samples:
            from api.samples import load_samples

            load_samples(app.state.service)
        clocks = asyncio.create_task(sweep_clocks(app))  # tournament rounds' deadlines (issue 31)
        try:
            yield
        finally:
            clocks.cancel()
            if isinstance(the_store, CommitListening):
                the_store.remove_commit_listener(wake)
            await app.state.live.stop()
            if own:
                the_store.close()

    app = FastAPI(
        title="warlog",
        version="0.1.0",
        summary="Record and replay service for tactical card and board war games.",
        lifespan=lifespan,
        docs_url=None,  # served below from the vendored Swagger UI: FastAPI's default loads it from a CDN
        redoc_url=None,
    )
    app.state.live = LiveHub(settings.max_streams, settings.max_streams_per_client,
                             check_every=settings.live_check_every)
    app.state.settings = settings
    install_error_handlers(app)
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes, timeout=settings.body_timeout,
                       wider={"/catalogues": CATALOGUE_BODY_LIMIT})
    app.include_router(export_router)  # before games_router: /games/export, not /games/{game_id}
    app.include_router(setup_router(systems.game_in()))
    app.include_router(games_router)
    app.include_router(annotations_router)
    app.include_router(tournaments_router)
    app.include_router(tournament_day_router)
    app.include_router(catalogues_router)
    app.include_router(stats_router())
    web.install(app)  # the browser pages and their static files
    limits.install(app, settings.write_rate, settings.write_burst, settings.address_write_rate,
                   settings.address_write_burst, check=auth.checked_credential)  # outermost: not even read
    auth.declare_schemes(app)
    web.install_docs(app)
    return app
