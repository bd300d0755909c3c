"""``warlog analytics``: the statistics beside a PostgreSQL log, in a process of their own (issue 19).

The process takes part in the analytics' leader election (``replay.analytics.beside``): it leads (mirrors the log
into DuckDB, projects it and publishes the statistics' file every server reads) while it holds the advisory lock,
and stands by, trying again every few seconds, while another process holds it. ``warlog serve --workers N`` starts
one beside its workers, at a lower CPU priority, and starts it again if it dies; on several machines, run it on any
one of them (a second one is a warm standby). A plain ``warlog serve`` on PostgreSQL runs the same election in its
own process, so a deployment needs no ``warlog analytics`` at all (docs/deploy.md).
"""

from __future__ import annotations

import argparse
import os
import signal
import threading

from api.commands.serve import shown
from api.database import DB_HELP, CliError
from api.options import whole


def _analytics(args: argparse.Namespace) -> int:
    from api.settings import Settings
    from replay.analytics.beside import Beside
    from replay.store.open import is_postgres_url, open_store

    settings = Settings.from_env(db=args.db, stats_db=args.stats_db, analytics_scope=args.scope)
    if not is_postgres_url(settings.db):
        raise CliError(
            f"{settings.db} is a DuckDB file: its statistics are kept by the `warlog serve` that holds it; "
            "`warlog analytics` serves a PostgreSQL database (--db postgresql://...)", status=2)
    if args.nice:
        os.nice(args.nice)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    store = open_store(settings.db, statement_timeout_ms=settings.pg_statement_timeout_ms, pool_size=2)
    try:
        keeper = Beside(store, settings.stats_path(), scope=settings.analytics_scope)
        print(f"warlog analytics: publishing the statistics of {shown(settings.db)} to {settings.stats_path()} "
              f"while this process leads (pid {os.getpid()})", flush=True)
        try:
            leading = None
            while not stop.wait(0.5):
                if keeper.leader != leading:
                    leading = keeper.leader
                    print("warlog analytics: " + ("leading" if leading else "standing by (another process leads)"),
                          flush=True)
        finally:
            keeper.close()
    finally:
        store.close()
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "analytics", help="keep the statistics beside a PostgreSQL log (a process of their own)",
        description="Mirror a PostgreSQL log into DuckDB, project it and publish the statistics' file while this "
        "process holds the analytics' lock (one process at a time leads; the others stand by).",
    )
    parser.add_argument("--db", default=None, help=DB_HELP)
    parser.add_argument(
        "--stats-db", default=None, metavar="FILE",
        help="the DuckDB file the statistics are published to (default ./warlog-stats.duckdb; the mirror of the "
        "log is FILE.mirror); env WARLOG_STATS_DB",
    )
    parser.add_argument("--scope", default=None, metavar="NAME",
                        help="the processes sharing one leader and one published file (default: this machine's "
                        "host name); env WARLOG_ANALYTICS_SCOPE")
    parser.add_argument("--nice", type=whole(0, 19), default=0, metavar="N",
                        help="lower this process's CPU priority by N (warlog serve --workers gives 5)")
    parser.set_defaults(func=_analytics)
