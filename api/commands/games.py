"""``warlog games``: the stored games, newest first, to find a game's id (issue 28 item 23).

    warlog games [--system S] [--player NAME] [--tournament T] [--army A] [--status live|over] [--limit N]
                 [--json | --csv] [--db PATH]

The filters are ``GET /games``'s (the same store query, ``replay.archive.games.listed_games``), ``--status live``
its ``status=active``. The table is fitted to the terminal as ``warlog stats`` fits its own; ``--json`` prints the
games as ``GET /games?order=newest`` answers them, ``--csv`` every column. Through a running ``warlog serve`` on the
same file, as any other reading command.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections.abc import Sequence
from typing import Any

from api.database import DB_HELP
from api.options import MAX_ROWS, whole

DEFAULT_LIMIT = 20
STATUS = {"live": False, "over": True}  # --status -> the store's ``over``


def _names(game: Any) -> dict[str, str]:
    """Seat -> the player's name: the seats the game was created with (HTTP, tournaments), else the listing's names
    in seat order when there is one a seat (bot and imported games)."""
    seats = game.metadata.get("seats")
    if isinstance(seats, list) and seats:
        return {str(s.get("id")): str(s.get("name") or s.get("id")) for s in seats if isinstance(s, dict)}
    placings = game.metadata.get("placings")
    count = sum(len(group) for group in placings) if isinstance(placings, list) else len(game.players)
    if count == len(game.players):
        return {f"p{i + 1}": name for i, name in enumerate(game.players)}
    return {}


def players(game: Any) -> str:
    """``Alice vs Bob``; ``Ann, Ben, Cas, Dee`` for more seats."""
    names = list(_names(game).values()) or list(game.players)
    return " vs ".join(names) if len(names) == 2 else ", ".join(names)


def result(game: Any) -> str:
    """``Alice (kills)``, ``Ann + Cas (commanders)`` (seats that win together), ``draw (exhausted)``, or ``live``
    while the game runs."""
    meta = game.metadata
    if meta.get("status") != "over":
        return "live"
    winners = meta.get("winners")
    if not isinstance(winners, list):  # listings written before ``winners``: the one winning seat, or draw
        winners = [] if meta.get("winner") in (None, "draw") else [meta["winner"]]
    names = _names(game)
    who = " + ".join(names.get(str(seat), str(seat)) for seat in winners) or "draw"
    reason = meta.get("end_reason")
    return f"{who} ({reason})" if reason else who


def row(game: Any) -> dict[str, Any]:
    """The table's columns (left to right; the narrowest terminal loses them from the right)."""
    created = str(game.created_at)
    return {"id": game.game_id, "date": f"{created[:10]} {created[11:16]}", "players": players(game),
            "result": result(game), "system": game.system}


def csv_row(game: Any) -> dict[str, Any]:
    meta = game.metadata
    return {**row(game), "created_at": game.created_at, "tournament": game.tournament or "", "seq": game.last_seq,
            "status": "over" if meta.get("status") == "over" else "live", "winner": meta.get("winner") or "",
            "end_reason": meta.get("end_reason") or ""}


def _print_csv(games: Sequence[Any]) -> None:
    writer = None
    for game in games:
        values = csv_row(game)
        if writer is None:
            writer = csv.DictWriter(sys.stdout, fieldnames=list(values), lineterminator="\n")
            writer.writeheader()
        writer.writerow(values)


def _games(args: argparse.Namespace) -> int:
    from api.commands.stats import print_table, terminal_width
    from api.remote import game_service
    from replay.archive.games import game_summary, listed_games

    limit = args.limit or None
    with game_service(args.db) as service:
        found = list(listed_games(service, system=args.system, player=args.player, tournament=args.tournament,
                                  army=args.army, newest_first=True, over=STATUS.get(args.status or ""),
                                  limit=None if limit is None else limit + 1))  # one more: were there more?
    more = limit is not None and len(found) > limit
    games = found[:limit] if limit is not None else found
    if args.json:
        print(json.dumps([game_summary(g) for g in games], ensure_ascii=False))
        return 0
    if args.csv:
        _print_csv(games)
        return 0
    if not games:
        print("(no games)")
        return 0
    print_table([row(g) for g in games], width=terminal_width())
    if more:
        print(f"(the newest {limit:,} games: --limit N for more, --limit 0 for all)")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "games", help="list the games, newest first: their ids, players and results",
        description="List the stored games, newest first: id, date (UTC), players, result (the winner's name and how "
                    "the game ended, draw, or live while it runs) and system. The filters are GET /games's.")
    p.add_argument("--system", metavar="S", help="only this game system's games")
    p.add_argument("--player", metavar="NAME", help="only the games this player (a name, as the games list it) sat at")
    p.add_argument("--tournament", metavar="T", help="only the games of tournament T (its id)")
    p.add_argument("--army", metavar="A", help="only games where a seat played this army label, e.g. orcs")
    p.add_argument("--status", choices=sorted(STATUS), help="live: the games still running; over: the finished")
    p.add_argument("--limit", type=whole(0, MAX_ROWS, zero="every game"), default=DEFAULT_LIMIT, metavar="N",
                   help=f"at most N games, the newest (default {DEFAULT_LIMIT}; 0: every game)")
    output = p.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="the games as GET /games?order=newest lists them")
    output.add_argument("--csv", action="store_true", help="every column as CSV")
    p.add_argument("--db", default=None, help=DB_HELP)
    p.set_defaults(func=_games, through_server=True)
