"""Statistics: ``GET /stats/...``. Thin: filters from query parameters, one call into ``replay.analytics.stats`` /
``replay.analytics.ratings``, the typed result as JSON. Response models are derived from the msgspec result Structs so the
OpenAPI schema says exactly what ``replay`` returns.

The router's lifespan attaches the projector (``replay.analytics.projections.attach``) to the service's DuckDB store: it
catches up on start and then follows every commit.
"""

from __future__ import annotations

import re
import types
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import date
from typing import Annotated, Any, Union, get_args, get_origin

import msgspec
from fastapi import APIRouter, Depends, FastAPI, Path, Query, Request
from pydantic import BaseModel, BeforeValidator, create_model

from api.errors import ApiError, error_responses
from replay.analytics import ratings, stats
from replay.analytics.stats import Filters

_MODELS: dict[type, type[BaseModel]] = {}


def _pydantic(tp: Any) -> Any:
    if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
        if tp not in _MODELS:
            fields = {f.name: (_pydantic(f.type), ...) for f in msgspec.structs.fields(tp)}
            _MODELS[tp] = create_model(tp.__name__, __doc__=tp.__doc__, **fields)  # type: ignore[call-overload]
        return _MODELS[tp]
    origin = get_origin(tp)
    if origin is list:
        return list[_pydantic(get_args(tp)[0])]  # type: ignore[misc]
    if origin in (Union, types.UnionType):
        return Union[tuple(_pydantic(a) for a in get_args(tp))]  # noqa: UP007
    return tp


def _iso_day(value: Any) -> Any:
    """Only ``YYYY-MM-DD``, as documented (``format: date``): pydantic alone also took a number as a Unix time."""
    if isinstance(value, str) and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        raise ValueError("a day is written YYYY-MM-DD")
    return value


Day = Annotated[date, BeforeValidator(_iso_day)]


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    from replay.analytics.projections import attach

    store = app.state.service.store
    projector = attach(store) if hasattr(store, "add_commit_listener") else None
    app.state.stats_projector = projector
    app.state.ratings_cache = ratings.RatingsCache()
    try:
        yield
    finally:
        if projector is not None:
            projector.close()


router = APIRouter(
    prefix="/stats", tags=["statistics"], lifespan=_lifespan,
    responses=error_responses(422, described={422: "invalid_request (details), invalid_filters"}),
)


def filters(
    system: str = Query("lords-of-war", max_length=64),
    date_from: Day | None = Query(None, description="first day (inclusive) the games started, YYYY-MM-DD"),
    date_to: Day | None = Query(None, description="last day (inclusive), YYYY-MM-DD"),
    tournament: str | None = Query(None, max_length=128),
    army: str | None = Query(None, max_length=64, description="faction or army name, e.g. orcs"),
    variant: str | None = Query(None, max_length=64, description="standard, intermediate, unbounded, targets-K-C"),
    rules_version: str | None = Query(None, max_length=64, description="e.g. lords-of-war/1"),
    min_games: int = Query(0, ge=0, le=1_000_000, description="leave out groups with fewer games"),
) -> Filters:
    try:
        return Filters(
            system=system, date_from=date_from, date_to=date_to, tournament=tournament, army=army, variant=variant,
            rules_version=rules_version, min_games=min_games,
        )
    except ValueError as error:
        raise ApiError(422, "invalid_filters", str(error)) from None


def _run(request: Request, compute: Callable[[Any], msgspec.Struct]) -> Any:
    store = request.app.state.service.store
    if not hasattr(store, "reader"):
        raise ApiError(503, "stats_unavailable", "statistics need the DuckDB event store")
    conn = store.reader()
    try:
        return msgspec.to_builtins(compute(conn))
    finally:
        conn.close()


@router.get("/armies", response_model=_pydantic(stats.ArmyWinRates), summary="Win rate by army (mirrors left out)")
def armies(request: Request, f: Filters = Depends(filters)) -> Any:
    return _run(request, lambda c: stats.army_win_rates(c, f))


@router.get("/matchups", response_model=_pydantic(stats.Matchups), summary="Army-vs-army matrix")
def matchups(request: Request, f: Filters = Depends(filters)) -> Any:
    return _run(request, lambda c: stats.matchups(c, f))


@router.get("/first-player", response_model=_pydantic(stats.FirstPlayer), summary="First-player advantage")
def first_player(request: Request, f: Filters = Depends(filters)) -> Any:
    return _run(request, lambda c: stats.first_player(c, f))


@router.get("/game-length", response_model=_pydantic(stats.GameLength), summary="Game length in turns")
def game_length(request: Request, f: Filters = Depends(filters)) -> Any:
    return _run(request, lambda c: stats.game_length(c, f))


@router.get("/end-reasons", response_model=_pydantic(stats.EndReasons), summary="How games end")
def end_reasons(request: Request, f: Filters = Depends(filters)) -> Any:
    return _run(request, lambda c: stats.end_reasons(c, f))


@router.get("/cards", response_model=_pydantic(stats.CardTable), summary="Per-card statistics")
def cards(request: Request, f: Filters = Depends(filters)) -> Any:
    return _run(request, lambda c: stats.cards(c, f))


@router.get("/heatmap", response_model=_pydantic(stats.HeatMap), summary="Placements per square")
def heatmap(
    request: Request,
    f: Filters = Depends(filters),
    card: str | None = Query(None, max_length=128, description="one card id, e.g. orcs/orc-catapult"),
    owner_view: bool = Query(False, description="squares seen from the placing player's edge"),
    include_challenge: bool = Query(False, description="count the challenge placements (C3, E4)"),
) -> Any:
    return _run(request, lambda c: stats.heatmap(c, f, card, owner_view, include_challenge))


@router.get("/ratings", response_model=_pydantic(ratings.Ratings), summary="Elo ratings (K=32, start 1500)")
def player_ratings(
    request: Request, f: Filters = Depends(filters), limit: int = Query(100, ge=1, le=10_000)
) -> Any:
    return _run(request, lambda c: ratings.ratings(c, f, limit, request.app.state.ratings_cache))


@router.get(
    "/ratings/{player}/history", response_model=_pydantic(ratings.RatingHistory), summary="A player's rating history"
)
def rating_history(
    request: Request, player: str = Path(..., max_length=128), f: Filters = Depends(filters)
) -> Any:
    return _run(request, lambda c: ratings.rating_history(c, player, f, request.app.state.ratings_cache))


@router.get("/head-to-head", response_model=_pydantic(stats.HeadToHead), summary="Head-to-head records")
def head_to_head(
    request: Request,
    f: Filters = Depends(filters),
    player: str | None = Query(None, max_length=128),
    opponent: str | None = Query(None, max_length=128),
) -> Any:
    return _run(request, lambda c: stats.head_to_head(c, f, player, opponent))
