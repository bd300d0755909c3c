"""``warlog serve``: the HTTP service."""

from __future__ import annotations

import argparse
import gc
import os
import re
import socket
import sys
from typing import Any

from api.database import DB_HELP, CliError, is_file
from api.options import whole

# The cyclic garbage collector's generations (CPython's default 700, 10, 10). A full collection walks every
# tracked object, and the service keeps many (game states, rows, routes and models): with the defaults it paused
# the server 30-50 ms several times a minute under live appends (gc.callbacks timing, docs/performance.md). The
# objects built at start are frozen out of the collections; young generations are collected less often.
GC_THRESHOLDS = (20_000, 20, 50)
MAX_WORKERS = 256  # server processes on one port (each holds its own PostgreSQL pool)


def _serve(args: argparse.Namespace) -> int:
    import uvicorn
    from pydantic import ValidationError

    from api import read_timeouts, remote
    from api.app import create_app
    from api.routes_local import install
    from api.settings import Settings

    try:
        settings = Settings.from_env(
            db=args.db, host=args.host, port=args.port, admin_key=args.admin_key,
            load_samples=args.load_samples or None, memory_limit=args.memory_limit, stats_db=args.stats_db,
            pg_statement_timeout_ms=args.statement_timeout,
        )
    except ValidationError as error:
        raise CliError(Settings.problem(error), status=2) from None
    db = settings.db
    workers = 1 if args.workers is None else args.workers
    supervised = args.workers is not None and is_postgres(db)  # --workers N on PostgreSQL, N = 1 included
    if workers > 1 and not is_postgres(db):
        raise CliError(
            f"--workers {workers} needs a PostgreSQL database (--db postgresql://...): the DuckDB file {db} can be "
            "opened by one process only; run one worker, or move the games to PostgreSQL (docs/deploy.md)",
            status=2,
        )
    _allow_open_files(settings.max_streams)
    # before anything is announced or created: a busy port fails here
    sock = _listen(settings.host, settings.port, reuse_port=supervised or os.environ.get(WORKER) == "1")
    try:
        if is_file(db):
            _check_unlocked(db)
    except BaseException:
        sock.close()
        raise
    if supervised:
        return _serve_workers(settings, workers, sock)
    app = create_app(settings)
    key = remote.new_key() if is_file(db) else None
    if key is not None:
        install(app, key)
    url = remote.local_url(settings.host, sock.getsockname()[1])

    def announce() -> None:
        if key is not None:
            try:
                remote.write_sidecar(db, url, key)
            except OSError as error:
                print(f"warlog serve: cannot write {remote.sidecar_path(db)} ({error.strerror}): other warlog "
                      "commands will not find this server", file=sys.stderr)
        print(f"warlog: serving {shown(db)} at http://{settings.host}:{sock.getsockname()[1]}/docs", flush=True)

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)  # the store is open and the socket listens (or this exits)
            announce()

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            # here, not only after run(): uvicorn re-raises a captured SIGTERM once it has shut down
            forget()
            await super().shutdown(sockets)

    def forget() -> None:
        if key is not None:
            remote.remove_sidecar(db, key)

    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    # Open live (SSE) streams must not hold a shutdown hostage.
    # h11 with a bound on the time a request's headers take (api/read_timeouts.py; the body's: BodyLimit)
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=5,
                            http=read_timeouts.protocol(settings.header_timeout))
    try:
        Server(config).run(sockets=[sock])
    finally:
        forget()
        sock.close()
        # Frozen objects are never collected, not even at exit: DuckDB's bindings (nanobind) then printed ~80
        # lines of "nanobind: leaked ... instances" when the server stopped (issue 11). Unfrozen, they are freed.
        gc.unfreeze()
    return 0


def shown(db: str) -> str:
    """The database as printed: a URL without its password."""
    return re.sub(r"://([^:/@]+):[^@]*@", r"://\1:***@", db)


def is_postgres(db: str) -> bool:
    return db.startswith(("postgresql://", "postgres://"))


WORKER = "WARLOG_SERVE_WORKER"  # set by the supervisor in its workers' environment: listen with SO_REUSEPORT


ANALYTICS_NICE = 5  # the analytics process's CPU priority below the workers': serving first, the statistics lag


def _serve_workers(settings: Any, workers: int, sock: socket.socket) -> int:
    """``workers`` processes, each a whole ``warlog serve`` (its own app, store, pool, live hub) listening on the
    same port with SO_REUSEPORT, so the kernel spreads the connections over them evenly (one socket shared by
    uvicorn's workers left most keep-alive connections with whichever process accepted first), and one ``warlog
    analytics`` process (at ``ANALYTICS_NICE``) that keeps the statistics the workers read: in a worker, the
    projector's CPU-bound passes held that worker's interpreter lock while its requests waited for it (appends
    over two workers ran at 1.06 times one worker's rate; bench/RESULTS.md "PostgreSQL"). This process
    supervises: it starts a worker or the analytics process again when one dies, and stops them all on SIGTERM or
    Ctrl-C. It keeps ``sock`` bound without listening (the port stays reserved; no connection is routed to it).
    PostgreSQL only: every process shares its log (issue 19, docs/deploy.md)."""
    import signal
    import subprocess
    import time

    port = sock.getsockname()[1]
    environment = {k: v for k, v in os.environ.items() if not k.startswith("WARLOG_")}
    for name, value in settings.model_dump().items():
        if value is None:
            if name == "memory_limit":
                environment["WARLOG_MEMORY_LIMIT"] = "none"
        else:
            environment[f"WARLOG_{name.upper()}"] = str(value).lower() if isinstance(value, bool) else str(value)
    environment["WARLOG_PORT"] = str(port)
    analytics_environment = dict(environment)
    environment[WORKER] = "1"
    environment["WARLOG_ANALYTICS"] = "false"  # the analytics process below leads; the workers only read
    commands = [[sys.executable, "-m", "api.cli", "serve"]] * workers + [
        [sys.executable, "-m", "api.cli", "analytics", "--nice", str(ANALYTICS_NICE)]]
    environments = [environment] * workers + [analytics_environment]
    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    children = [subprocess.Popen(command, env=env) for command, env in zip(commands, environments, strict=True)]
    print(f"warlog: serving {shown(settings.db)} at http://{settings.host}:{port}/docs with {workers} worker "
          f"process{'es' if workers > 1 else ''} (pids {', '.join(str(c.pid) for c in children[:-1])}) and the "
          f"analytics in pid {children[-1].pid}", flush=True)
    try:
        while not stopping:
            time.sleep(0.2)
            for index, child in enumerate(children):
                if child.poll() is not None and not stopping:
                    what = "the analytics process" if index == workers else "worker"
                    print(f"warlog serve: {what} {child.pid} ended ({child.returncode}); starting another",
                          file=sys.stderr, flush=True)
                    children[index] = subprocess.Popen(commands[index], env=environments[index])
    finally:
        for child in children:
            if child.poll() is None:
                child.terminate()
        deadline = time.monotonic() + 10
        for child in children:
            try:
                child.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        sock.close()
    return 0


def _allow_open_files(streams: int) -> None:
    """Each live stream holds a socket: let the process have ``streams`` of them and some more (the listening
    socket, the database's files, other requests), or the cap on streams would never be what refuses one; the
    usual soft limit is 1,024 while the hard one is far higher. Raised up to the hard limit, never lowered."""
    try:
        import resource
    except ImportError:  # not on POSIX
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = streams + 256
    if soft == resource.RLIM_INFINITY or soft >= want:
        return
    allowed = want if hard == resource.RLIM_INFINITY else min(want, hard)
    if allowed > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (allowed, hard))
    if allowed < want:
        print(f"warlog serve: this process may open {allowed} files (ulimit -Hn), fewer than the {want} that "
              f"{streams} live streams (WARLOG_MAX_STREAMS) need; some may be refused before the cap",
              file=sys.stderr)


def _check_unlocked(db: str) -> None:
    """Open and close the file once, so that a database another process holds is refused in one sentence (the
    top-level handler) rather than by a traceback from the application's start-up."""
    import duckdb

    duckdb.connect(db).close()


def _listen(host: str, port: int, reuse_port: bool = False) -> socket.socket:
    # IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY only on sockets that say they are TCP (without it every answer
    # waited ~40 ms for a delayed ACK)
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if reuse_port:  # --workers: every worker listens on the port, the kernel balances the connections
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        raise CliError(f"cannot listen on {host}:{port} ({error.strerror}): is another server using that port? "
                       "choose another with --port") from None
    return sock


def register(sub: argparse._SubParsersAction) -> None:
    serve = sub.add_parser("serve", help="run the HTTP service", description="Run the HTTP service.")
    serve.add_argument("--db", default=None, help=DB_HELP)
    serve.add_argument("--host", default=None, help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=whole(0, 65535, zero="any free port"), default=None, metavar="PORT",
                       help="port (default 8000; 0: any free port, printed)")
    serve.add_argument("--admin-key", default=None, help="require this key to create games and tournaments")
    serve.add_argument("--load-samples", action="store_true", help="load the sample games into an empty database")
    serve.add_argument(
        "--memory-limit", default=None, metavar="SIZE",
        help="DuckDB's memory cap, e.g. 256MB (the default for a file) or 1GB; 'none': DuckDB's own default "
        "(80%% of RAM); env WARLOG_MEMORY_LIMIT",
    )
    serve.add_argument(
        "--workers", type=whole(1, MAX_WORKERS), default=None, metavar="N",
        help="N server processes on one port and one analytics process beside them (PostgreSQL only: a DuckDB "
        "file is one process's); without it, one process that also keeps the statistics",
    )
    serve.add_argument(
        "--stats-db", default=None, metavar="FILE",
        help="with PostgreSQL: the DuckDB file the statistics are published to (default ./warlog-stats.duckdb; "
        "the leader's mirror of the log is FILE.mirror); env WARLOG_STATS_DB",
    )
    serve.add_argument(
        "--statement-timeout", type=whole(1, 2**31 - 1), default=None, metavar="MS",
        help="with PostgreSQL: cancel a statement after MS milliseconds, answering 503 store_timeout "
        "(default 5000); env WARLOG_PG_STATEMENT_TIMEOUT_MS",
    )
    serve.set_defaults(func=_serve, creates_db=True)
