"""``warlog annotate``: add a comment to a step of a game, through a running server (issue 32 item 6).

    warlog annotate GAME STEP TEXT [--author NAME] [--token TOKEN] [--server URL]

It posts to the server's ``POST /games/{GAME}/annotations`` with the game's scorekeeper token or its tournament's
organiser token (``--token``, else ``WARLOG_TOKEN``), so the server checks, times and stores it as it does for any
client; the server is ``--server``, else ``WARLOG_SERVER``, else ``http://127.0.0.1:8000`` (``warlog serve``'s
default). The answer is printed in one line; a refusal is the server's error in one line (exit 1).
"""

from __future__ import annotations

import argparse
import json
import os
import urllib.error
import urllib.request
from urllib.parse import quote, urlsplit

from api.database import CliError
from api.options import whole

MAX_STEP = 2**31 - 1  # the route's bound (POST /games/{id}/annotations: step)

DEFAULT_SERVER = "http://127.0.0.1:8000"
TIMEOUT = 30.0


def _server(value: str | None) -> str:
    url = (value or os.environ.get("WARLOG_SERVER") or DEFAULT_SERVER).rstrip("/")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise CliError(f"--server must be an http:// or https:// URL of a running warlog serve, not {url!r}", status=2)
    return url


def _annotate(args: argparse.Namespace) -> int:
    server = _server(args.server)
    token = args.token or os.environ.get("WARLOG_TOKEN")
    if not token:
        raise CliError("annotating needs the game's scorekeeper token or its tournament's organiser token: give "
                       "--token or set WARLOG_TOKEN", status=2)
    body = {"step": args.step, "text": args.text, **({"author": args.author} if args.author else {})}
    request = urllib.request.Request(
        f"{server}/games/{quote(args.game_id, safe='')}/annotations", data=json.dumps(body).encode(), method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json",
                 "Accept": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:  # noqa: S310 - the URL is http(s), above
            note = json.loads(response.read())
    except urllib.error.HTTPError as error:
        try:
            refused = json.loads(error.read())["error"]
            said = f"{refused['code']}: {refused['message']}"
        except (ValueError, KeyError, TypeError):
            said = f"HTTP {error.code}"
        raise CliError(f"the server at {server} refused the annotation ({said})") from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise CliError(f"no warlog server answered at {server} ({reason}): start one with `warlog serve`, or give "
                       "--server URL") from None
    by = note["author"] if note["author"] == note["role"] else f"{note['author']} ({note['role']})"
    print(f"annotation {note['n']} of game {args.game_id} on step {note['step']} by {by} at {note['created_at']}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "annotate", help="add a comment to a step of a game, through a running server",
        description="Add a comment to one step of a game (an event's seq, as the replay page numbers its steps) "
                    "through a running warlog serve: POST /games/GAME/annotations with the game's scorekeeper token "
                    "or its tournament's organiser token. Annotations are kept apart from the game's events (they "
                    "never change it or its verification), are never changed or deleted, and exports carry them as "
                    "record comments.")
    p.add_argument("game_id", metavar="GAME", help="the game's id")
    p.add_argument("step", metavar="STEP", type=whole(1, MAX_STEP),
                   help="the step: an event's seq, 1 to the game's last")
    p.add_argument("text", metavar="TEXT", help="the comment: one line, up to 1,000 characters")
    p.add_argument("--author", metavar="NAME", help="the author's name (default: the token's role)")
    p.add_argument("--token", help="the scorekeeper's or organiser's token (default: WARLOG_TOKEN)")
    p.add_argument("--server", metavar="URL", help=f"the server (default: WARLOG_SERVER, else {DEFAULT_SERVER})")
    p.set_defaults(func=_annotate)
