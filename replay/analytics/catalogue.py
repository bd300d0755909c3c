"""The statistics catalogue, held once: every statistic's name, path, summary, result type, compute function, extra
parameters and owner (the core, or a game system). ``GET /stats/...`` (api/routes_stats.py), ``warlog stats NAME``
and its flags (api/commands/stats.py) and the command line's client of a running server (api/remote.py) are all
built from it, so a statistic added here (or by a system's ``Analytics.statistics``) is on all three at once.

Order: the core's statistics of games, then each registered system's own, then the core's statistics of players.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from engine.systems import BrokenPlugin, derived
from replay.analytics import multiplayer, ratings, stats
from replay.analytics.model import Compute, Parameter, Statistic
from replay.plugin import ReplaySystem
from replay.systems import plugins

LIMIT = Parameter(name="limit", type=int, default=100, ge=1, le=10_000, cli=False,
                  help="the first N rows of the table (the CLI: --limit)")
PLAYER = Parameter(name="player", help="a player's name")


def _of_filters(compute: Callable[[Any, stats.Filters], Any]) -> Compute:
    """A statistic of the filters alone: no parameters of its own, no cache."""
    return lambda conn, filters, params, cache: compute(conn, filters)


GAMES = tuple(  # the core's statistics of games: of the filters alone, each at /<name>
    Statistic(name=name, path=f"/{name}", summary=summary, result=result, compute=_of_filters(compute))
    for name, summary, result, compute in (
        ("armies", "Win rate by army (mirrors left out)", stats.ArmyWinRates, stats.army_win_rates),
        ("matchups", "Army-vs-army matrix", stats.Matchups, stats.matchups),
        ("first-player", "First-player advantage", stats.FirstPlayer, stats.first_player),
        ("game-length", "Game length in turns", stats.GameLength, stats.game_length),
        ("end-reasons", "How games end", stats.EndReasons, stats.end_reasons),
    )
)

PLAYERS = (
    Statistic(
        name="ratings", path="/ratings", summary="Elo ratings (K=32, start 1500)", result=ratings.Ratings,
        parameters=(LIMIT,), cache=ratings.RatingsCache,
        compute=lambda conn, filters, params, cache: ratings.ratings(conn, filters, params.get("limit"), cache),
    ),
    Statistic(
        name="rating-history", path="/ratings/{player}/history", summary="A player's rating history",
        result=ratings.RatingHistory, parameters=(Parameter(name="player", help="a player's name", in_path=True),),
        cache=ratings.RatingsCache,
        compute=lambda conn, filters, params, cache: ratings.rating_history(conn, params["player"], filters, cache),
    ),
    Statistic(
        name="head-to-head", path="/head-to-head", summary="Head-to-head records", result=stats.HeadToHead,
        parameters=(PLAYER, Parameter(name="opponent", help="the other player's name")),
        compute=lambda conn, filters, params, cache: stats.head_to_head(
            conn, filters, params.get("player"), params.get("opponent")
        ),
    ),
    Statistic(
        name="multiplayer-ratings", path="/multiplayer-ratings",
        summary="Ratings from games of more than two seats (openskill Plackett-Luce)",
        result=multiplayer.MultiplayerRatings, parameters=(LIMIT,), cache=multiplayer.MultiplayerCache,
        compute=lambda conn, filters, params, cache: multiplayer.multiplayer_ratings(
            conn, filters, params.get("limit"), cache
        ),
    ),
)

CORE = GAMES + PLAYERS


def catalogue() -> tuple[Statistic, ...]:
    """Every statistic: the core's and the registered systems' (made once per state of the registry, checked by
    ``check_statistics``)."""
    return derived("statistics", _catalogue)


def _catalogue() -> tuple[Statistic, ...]:
    own: list[Statistic] = []
    checked: list[ReplaySystem] = []
    for plugin in plugins():
        check_statistics(plugin, checked)
        checked.append(plugin)
        own.extend(plugin.analytics.statistics if plugin.analytics is not None else ())
    return GAMES + tuple(own) + PLAYERS


def check_statistics(part: ReplaySystem, others: Iterable[ReplaySystem]) -> None:
    """A system's statistics name itself as their system and take names and paths no other statistic has (the
    core's, or one of ``others``): BrokenPlugin naming the clash."""
    if part.analytics is None:
        return
    taken = {(s.name, s.path): s.system for s in CORE}
    for other in others:
        if other.name != part.name and other.analytics is not None:
            taken |= {(s.name, s.path): s.system for s in other.analytics.statistics}
    names = {name: owner for (name, _), owner in taken.items()}
    paths = {path: owner for (_, path), owner in taken.items()}
    for statistic in part.analytics.statistics:
        if statistic.system != part.name:
            raise BrokenPlugin(f"{part.name}: its statistic {statistic.name!r} says it is {statistic.system!r}'s")
        for key, seen in ((statistic.name, names), (statistic.path, paths)):
            if key in seen:
                raise BrokenPlugin(f"{part.name}: the statistic {key!r} is taken (by {seen[key] or 'the core'})")
        names[statistic.name] = paths[statistic.path] = part.name


def statistic(name: str) -> Statistic:
    """The statistic called ``name``; KeyError names the known ones."""
    for entry in catalogue():
        if entry.name == name:
            return entry
    raise KeyError(f"no statistic {name!r} (known: {', '.join(s.name for s in catalogue())})")


def new_caches() -> dict[Any, Any]:
    """One of each cache the statistics keep (a process or an app keeps these; statistics sharing a cache share
    one)."""
    return {s.cache: s.cache() for s in catalogue() if s.cache is not None}


def unsupported_filter(entry: Statistic, filters: stats.Filters) -> str | None:
    """Why ``entry`` cannot be computed with ``filters``, or None: the catalogue filter (issue 30) is every core
    statistic's and each system statistic's that says it counts by catalogue (``Statistic.by_catalogue``)."""
    if filters.catalogue is not None and entry.system is not None and not entry.by_catalogue:
        return (f"catalogue: the statistic {entry.name!r} is {entry.system}'s own and does not filter by catalogue; "
                "the core's statistics (armies, matchups, first-player, game-length, end-reasons, ratings, "
                "head-to-head) do")
    return None


def run(entry: Statistic, conn: Any, filters: stats.Filters, params: dict[str, Any],
        caches: dict[Any, Any] | None = None) -> Any:
    """``entry`` computed on ``conn`` (the parameters it does not take are ignored; missing ones take defaults).
    ValueError for filters the statistic does not take (``unsupported_filter``)."""
    refused = unsupported_filter(entry, filters)
    if refused is not None:
        raise ValueError(refused)
    values = {p.name: params.get(p.name, p.default) for p in entry.parameters}
    cache = caches.get(entry.cache) if caches is not None and entry.cache is not None else None
    return entry.compute(conn, filters, values, cache)
