"""Statistics: ``GET /stats/...``, one route per entry of the statistics catalogue (``replay.analytics.catalogue``:
the core's and each registered system's; ``build_router`` makes them when the app is created). Thin: filters from
query parameters, the statistic's own parameters from the query or the path, one call into ``replay.analytics``,
the typed result as JSON. Response models are derived
from the msgspec result Structs so the OpenAPI schema says exactly what ``replay`` returns.

The router's lifespan attaches the projector (``replay.analytics.projections.attach``) to the service's DuckDB store: it
catches up on start and then follows every commit. On a PostgreSQL store it starts the process's part of the
analytics beside the log (``replay.analytics.beside``): the statistics are read from the DuckDB file its leader
publishes.
"""

from __future__ import annotations

import inspect
import re
import types
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import date
from typing import Annotated, Any, Literal, Union, get_args, get_origin, get_type_hints
from urllib.parse import quote, urlencode

import msgspec
from fastapi import APIRouter, Depends, FastAPI, Path, Query, Request
from fastapi.responses import RedirectResponse
from pydantic import BaseModel, BeforeValidator, Field, create_model
from pydantic.fields import FieldInfo

from api.errors import ApiError, error_responses
from engine.systems import DEFAULT_SYSTEM
from replay.analytics.catalogue import catalogue, new_caches, run, unsupported_filter
from replay.analytics.model import Parameter, Statistic
from replay.analytics.stats import Filters, known_armies
from replay.errors import StoreUnavailable
from replay.store.base import CommitListening, SharedLog, SqlReadable
from replay.systems import plugin_names

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
    keeper = None
    projector = None
    if isinstance(store, SharedLog):  # PostgreSQL: one process projects, every process reads the published file
        from replay.analytics.beside import Beside

        keeper = Beside(store, app.state.settings.stats_path(), lead=app.state.settings.analytics,
                        scope=app.state.settings.analytics_scope)
        app.state.stats_source = keeper.stats
    elif isinstance(store, CommitListening) and isinstance(store, SqlReadable):
        projector = attach(store)
        app.state.stats_source = store
    else:
        app.state.stats_source = None
    app.state.stats_projector = projector
    app.state.stats_beside = keeper
    app.state.stats_caches = new_caches()
    try:
        yield
    finally:
        if projector is not None:
            projector.close()
        if keeper is not None:
            keeper.close()


def filters(
    system: str = Query(DEFAULT_SYSTEM, max_length=64, description=f"the game system (default: {DEFAULT_SYSTEM})"),
    date_from: Day | None = Query(None, description="first day (inclusive) the games started, YYYY-MM-DD"),
    date_to: Day | None = Query(None, description="last day (inclusive), YYYY-MM-DD"),
    tournament: str | None = Query(None, max_length=128, description="a tournament's id"),
    army: str | None = Query(None, max_length=64, description="army, faction or clan label, e.g. orcs"),
    variant: str | None = Query(None, max_length=64, description="the system's variant label, e.g. standard"),
    rules_version: str | None = Query(
        None, max_length=64, description="the rules version the games were recorded under (a game's rules_version)"
    ),
    min_games: int = Query(0, ge=0, le=1_000_000, description="leave out groups with fewer games"),
    ending: Literal["rules", "adjudicated", "all"] | None = Query(
        None, description="the core statistics' games: decided by their rules (the default; end-reasons: all), "
        "ended by the scorekeeper's adjudicate, or all (a system's own statistics: rules only)"),
    catalogue: str | None = Query(None, max_length=64, description="only the games played on this catalogue (its "
                                  "id, GET /catalogues); every statistic (a system's own name its cards as "
                                  "that catalogue does)"),
) -> Filters:
    try:
        return Filters(
            system=system, date_from=date_from, date_to=date_to, tournament=tournament, army=army, variant=variant,
            rules_version=rules_version, min_games=min_games, ending=ending, catalogue=catalogue or None,
        )
    except ValueError as error:
        raise ApiError(422, "invalid_filters", str(error)) from None


def _run(request: Request, compute: Callable[[Any], msgspec.Struct]) -> Any:
    source = getattr(request.app.state, "stats_source", None)  # the DuckDB store, or the file published beside PG
    if source is None:
        raise ApiError(503, "stats_unavailable", "statistics need the DuckDB event store or a PostgreSQL one")
    try:
        conn = source.reader()
    except StoreUnavailable as error:
        raise ApiError(503, "stats_unavailable", str(error), headers={"Retry-After": "2"}) from None
    try:
        return msgspec.to_builtins(compute(conn))
    finally:
        conn.close()


def _parameter(parameter: Parameter) -> inspect.Parameter:
    """The endpoint's argument for one of a statistic's own parameters: a path segment or a query parameter."""
    if parameter.in_path:
        default: Any = Path(..., max_length=parameter.max_length, description=parameter.help or None)
        annotation: Any = parameter.type
    elif parameter.type is str:
        default = Query(parameter.default, max_length=parameter.max_length, description=parameter.help or None)
        annotation = str | None
    else:
        default = Query(parameter.default, ge=parameter.ge, le=parameter.le, description=parameter.help or None)
        annotation = parameter.type
    return inspect.Parameter(parameter.name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)


def _endpoint(statistic: Statistic) -> Callable[..., Any]:
    def endpoint(request: Request, f: Filters, **params: Any) -> Any:
        refused = unsupported_filter(statistic, f)
        if refused is not None:
            raise ApiError(422, "invalid_filters", refused)
        caches = getattr(request.app.state, "stats_caches", None)
        return _run(request, lambda conn: run(statistic, conn, f, params, caches))

    endpoint.__name__ = statistic.name.replace("-", "_")
    endpoint.__doc__ = statistic.summary
    endpoint.__signature__ = inspect.Signature(  # type: ignore[attr-defined]  # what FastAPI reads
        [
            inspect.Parameter("request", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Request),
            inspect.Parameter("f", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=Depends(filters),
                              annotation=Filters),
            *(_parameter(p) for p in statistic.parameters),
        ]
    )
    return endpoint


# -- GET /stats: the catalogue as JSON (a browser asking for HTML gets the statistics page) --------------------


class ParameterOut(BaseModel):
    name: str = Field(description="the query parameter (or the path segment when in_path)")
    type: str = Field(description="string, integer, boolean or date (YYYY-MM-DD)")
    default: Any = Field(description="its value when not given")
    description: str
    in_path: bool = Field(False, description="a segment of the statistic's path ({name}), required")
    minimum: int | None = None
    maximum: int | None = None
    choices: list[str] | None = Field(None, description="the values it takes, where they are few (ending)")


class StatisticOut(BaseModel):
    name: str = Field(description="the statistic's name (`warlog stats NAME`)", examples=["armies"])
    path: str = Field(description="its route, path parameters as {name}", examples=["/stats/armies"])
    summary: str
    system: str | None = Field(description="the game system it belongs to; null: the core, for every system")
    parameters: list[ParameterOut] = Field(description="its own parameters, besides the common filters")


class SystemArmies(BaseModel):
    name: str
    armies: list[str] = Field(description="the labels the army filter knows: the system's own and every army "
                                          "played in a stored game")


class StatisticsCatalogue(BaseModel):
    """Every statistic the server answers, the filters they all take, and the systems' armies."""

    filters: list[ParameterOut]
    statistics: list[StatisticOut]
    systems: list[SystemArmies]


_TYPES = {str: "string", int: "integer", bool: "boolean", date: "date"}


def _type_name(annotation: Any) -> str:
    """The JSON Schema-ish name of a parameter's type (``Day | None`` -> date, ``str | None`` -> string)."""
    candidates = [annotation]
    while candidates:
        tp = candidates.pop(0)
        if tp in _TYPES:
            return _TYPES[tp]
        candidates.extend(a for a in get_args(tp) if a is not type(None))
    return "string"


def _choices(annotation: Any) -> list[str] | None:
    """The values of a ``Literal`` parameter (``Literal[...] | None``), else None."""
    candidates = [annotation]
    while candidates:
        tp = candidates.pop(0)
        if get_origin(tp) is Literal:
            return [str(value) for value in get_args(tp)]
        candidates.extend(a for a in get_args(tp) if a is not type(None))
    return None


def _bounds(info: FieldInfo) -> tuple[int | None, int | None]:
    low = high = None
    for item in info.metadata:
        low = getattr(item, "ge", low)
        high = getattr(item, "le", high)
    return low, high


def _filter_parameters() -> list[ParameterOut]:
    """The common filters, read from the ``filters`` dependency itself (one source for the routes and this)."""
    out = []
    hints = get_type_hints(filters, include_extras=True)
    for name, parameter in inspect.signature(filters).parameters.items():
        info: FieldInfo = parameter.default
        low, high = _bounds(info)
        out.append(ParameterOut(name=name, type=_type_name(hints[name]), default=info.default,
                                description=info.description or "", minimum=low, maximum=high,
                                choices=_choices(hints[name])))
    return out


def _statistic_out(statistic: Statistic) -> StatisticOut:
    return StatisticOut(
        name=statistic.name, path="/stats" + statistic.path, summary=statistic.summary, system=statistic.system,
        parameters=[
            ParameterOut(name=p.name, type=_TYPES.get(p.type, "string"), default=p.default, description=p.help,
                         in_path=p.in_path, minimum=p.ge, maximum=p.le)
            for p in statistic.parameters
        ],
    )


def _systems_armies(request: Request) -> list[SystemArmies]:
    source = getattr(request.app.state, "stats_source", None)
    try:
        conn = source.reader() if source is not None else None
    except StoreUnavailable:  # not published yet (PostgreSQL): no armies known so far
        conn = None
    if conn is None:
        return [SystemArmies(name=name, armies=[]) for name in plugin_names()]
    try:
        return [SystemArmies(name=name, armies=known_armies(conn, name)) for name in plugin_names()]
    finally:
        conn.close()


def _catalogue_route(router: APIRouter) -> None:
    from api.web import page, wants_html

    @router.get("", response_model=StatisticsCatalogue, summary="The statistics: their names, paths and parameters")
    def statistics_catalogue(request: Request) -> Any:
        """Every ``/stats`` route below with its own parameters, the filters every one takes, and each system's
        known armies. A browser asking for HTML (``Accept: text/html`` first) gets the statistics' index page
        instead (a page per system: ``/stats/{system}``; ``/stats?system=S&...``, an older link, goes there)."""
        if wants_html(request):
            system = request.query_params.get("system")
            if system and system in plugin_names():
                rest = urlencode([(k, v) for k, v in request.query_params.multi_items() if k != "system"])
                return RedirectResponse(f"/stats/{quote(system, safe='')}" + (f"?{rest}" if rest else ""), 307)
            return page("stats")
        return StatisticsCatalogue(filters=_filter_parameters(), statistics=[_statistic_out(s) for s in catalogue()],
                                   systems=_systems_armies(request))

    router.head("", include_in_schema=False)(statistics_catalogue)


def _system_route(router: APIRouter) -> None:
    """``GET /stats/{system}`` (after every statistic's route, so that ``/stats/armies`` stays the statistic's): the
    system's statistics page to a browser, its part of the catalogue as JSON to other clients. Left out of the OpenAPI
    document (as the pages are): every /stats path there is a statistic's, which clients iterate over."""
    from api.web import not_found_page, page, wants_html

    @router.get("/{system}", response_model=StatisticsCatalogue, include_in_schema=False)  # docs/api.md
    def system_statistics(request: Request, system: str = Path(..., max_length=64)) -> Any:
        """The statistics of one game system: the core's (for every system) and the system's own, with the filters
        they take and the system's known armies. A browser asking for HTML gets the system's statistics page."""
        known = plugin_names()
        if system not in known:
            message = f"there is no game system {system!r} (known: {', '.join(known)})"
            if wants_html(request):
                return not_found_page(message)
            raise ApiError(404, "not_found", message)
        if wants_html(request):
            return page("stats")
        return StatisticsCatalogue(
            filters=_filter_parameters(),
            statistics=[_statistic_out(s) for s in catalogue() if s.system in (None, system)],
            systems=[s for s in _systems_armies(request) if s.name == system],
        )

    # no HEAD route: it would match /stats/armies too, and its 405s would offer HEAD


def build_router() -> APIRouter:
    """The /stats routes of every statistic in the catalogue now (the app builds them when it is created, after
    the systems registered), and ``GET /stats``, the catalogue itself."""
    router = APIRouter(
        prefix="/stats", tags=["statistics"], lifespan=_lifespan,
        responses=error_responses(422, described={422: "invalid_request (details), invalid_filters"}),
    )
    _catalogue_route(router)
    for statistic in catalogue():
        router.get(statistic.path, response_model=_pydantic(statistic.result), summary=statistic.summary,
                   name=statistic.name)(_endpoint(statistic))
    _system_route(router)
    return router
