"""Analytics beside a PostgreSQL log (issue 19): the statistics stay on DuckDB, fed from the shared log.

Every server process on one PostgreSQL database runs a ``Beside`` (or, under ``warlog serve --workers``, one
``warlog analytics`` process runs it for the workers, which only read what it publishes); exactly one of them, the
**leader**, does the work: the one holding a session advisory lock (``pg_try_advisory_lock``, keyed by the
store's schema). The others try to take the lock every ``RETRY`` seconds, so when the leader dies (its session
ends, the lock with it) another process takes over within that time. The leader:

1. **mirrors** the log into a DuckDB file of its own (``<stats-db>.mirror``: the DuckDB store's schema, written
   only by the mirror): every game written (``games.changed_xid``, the id of the last transaction that wrote it)
   by a transaction at or after the *horizon*, the oldest transaction that was still running at the previous sync
   (``pg_snapshot_xmin``): transaction ids are taken in one order and committed in another, and every transaction
   before the horizon had ended, so none is skipped. A game read again that the mirror already has as it is
   (same last seq, metadata and tournament) is left alone; one that differs is updated with the events it lacks.
   It syncs when any process's commit is notified (LISTEN/NOTIFY through the store) and at least every
   ``SYNC_INTERVAL`` seconds;
2. runs the **projector** (``replay.analytics.projections``, unchanged) over that mirror, as the DuckDB server does
   over its own file;
3. **publishes** the projections: at most every ``PUBLISH_INTERVAL`` seconds, when they changed, it writes a new
   DuckDB file with the statistics' tables only (no events) and renames it over ``<stats-db>`` at once.

Every process (the leader too) answers statistics from the published file, opened read-only, re-opened when a new
one has been published: the same answer from whichever process a request reaches, at DuckDB's speed.

The lag bound, from an append to the statistics: the mirror's sync (on the notification, at most every
``SYNC_GAP`` s, at least every ``SYNC_INTERVAL`` s) + the projector's (a game at most every ``GAME_INTERVAL`` s,
passes every ``INTERVAL`` s) + publication (every ``PUBLISH_INTERVAL`` s, or ``PUBLISH_SHARE`` times as long as
the last publication took if that is longer): about 17 s with the defaults, while the projector keeps up and a
publication takes under half a second (docs/deploy.md). A leader that
takes over starts from its mirror file where the previous one left it (the file is kept), or from nothing on
another machine.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import duckdb

from replay.errors import CatalogueNotFound
from replay.store.sql import sql

log = logging.getLogger("warlog.analytics")

SYNC_INTERVAL = 1.0  # seconds between the leader's syncs without a notification
SYNC_GAP = 0.25  # seconds between two syncs at least: under load every append notifies, a sync each would cost more
PUBLISH_INTERVAL = 5.0  # seconds between publications at least (each rewrites every statistics table: see docs)
PUBLISH_SHARE = 10  # and at least 10 times as long as the last one took: publishing takes at most ~10% of a core
RETRY = 2.0  # seconds between a follower's tries to become the leader
PAGE = 1000  # games per sync statement


class LogMirror:
    """The PostgreSQL log copied into a DuckDB file, for the projector (which reads it as it reads a DuckDB store:
    ``reader``, ``migrate`` and commit listeners, called after each sync with the games it copied)."""

    def __init__(self, pg: Any, path: str | Path) -> None:
        from replay.store.duckdb_store import DuckDBEventStore

        self._pg = pg
        self.duck = DuckDBEventStore(path, memory_limit="256MB")
        self._conn = self.duck.reader()
        self._horizon = "0"  # games written by transactions before this one are mirrored (0: compare every game)
        self._listeners: list[Callable[[list[str]], None]] = []
        self._catalogues: set[str] = set()  # the catalogues the mirror holds (``_copy_catalogues``)

    # what the projector uses of a store
    def reader(self) -> duckdb.DuckDBPyConnection:
        return self.duck.reader()

    def migrate(self, *folders: Any) -> Any:
        return self.duck.migrate(*folders)

    def add_commit_listener(self, listener: Callable[[list[str]], None]) -> None:
        self._listeners.append(listener)

    def remove_commit_listener(self, listener: Callable[[list[str]], None]) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def sync(self) -> int:
        """Copy what changed in the log since the last sync; returns how many games changed in the mirror."""
        from replay.store.postgres_store import PG

        after_xid, after_game = self._horizon, ""
        horizon: str | None = None
        copied = 0
        while True:
            with self._pg.connection() as conn:
                rows = conn.execute(
                    PG("mirror_changed"), {"after_xid": after_xid, "after_game_id": after_game, "limit": PAGE}
                ).fetchall()
            if horizon is None:  # the first statement's horizon: the oldest of the sync, so the safe one
                horizon = rows[0][8]
            rows = [row for row in rows if row[0] is not None]  # no game: the one row carries only the horizon
            if not rows:
                break
            copied += self._copy(rows)
            after_xid, after_game = rows[-1][7], rows[-1][0]
            if len(rows) < PAGE:
                break
        if horizon is not None:
            self._horizon = horizon
        return copied

    def _copy(self, rows: Sequence[tuple]) -> int:
        """One page of games written in the log into the mirror (those that differ from it), in one transaction,
        then the listeners (the projector) with the games that changed."""
        from replay.store.postgres_store import PG

        held = {
            game_id: (last_seq, metadata, tournament)
            for game_id, last_seq, metadata, tournament in self._conn.execute(
                sql("mirror_games_of"), {"game_ids": [row[0] for row in rows]}
            ).fetchall()
        }
        changed = [row for row in rows if held.get(row[0]) != (row[6], row[5], row[4])]
        if not changed:
            return 0
        behind = [(row[0], held[row[0]][0] if row[0] in held else 0, row[6]) for row in changed]
        behind = [b for b in behind if b[2] > b[1]]
        events: list[tuple] = []
        if behind:
            with self._pg.connection() as conn:
                events = conn.execute(
                    PG("mirror_events"),
                    {"game_ids": [g for g, _, _ in behind], "after_seqs": [a for _, a, _ in behind],
                     "to_seqs": [t for _, _, t in behind]},
                ).fetchall()
        conn = self._conn
        conn.begin()
        try:
            conn.execute(
                sql("mirror_upsert_games"),
                {
                    "game_ids": [r[0] for r in changed], "systems": [r[1] for r in changed],
                    "created_ats": [r[2] for r in changed], "players": [list(r[3]) for r in changed],
                    "tournaments": [r[4] for r in changed], "metadatas": [r[5] for r in changed],
                    "last_seqs": [r[6] for r in changed],
                },
            )
            if events:
                columns = list(zip(*events, strict=True))
                conn.execute(
                    sql("insert_events"),
                    {"game_ids": list(columns[0]), "seqs": list(columns[1]), "types": list(columns[2]),
                     "schema_versions": list(columns[3]), "payloads": list(columns[4]),
                     "recorded_ats": list(columns[5]), "hashes": list(columns[6])},
                )
            conn.commit()
        except BaseException:
            conn.rollback()
            raise
        self._copy_catalogues(changed)
        ids = [r[0] for r in changed]
        for listener in list(self._listeners):
            listener(ids)
        return len(ids)

    def _copy_catalogues(self, rows: Sequence[tuple]) -> None:
        """The catalogues the games of ``rows`` play (their metadata's ``catalogue``, issue 30), copied from the log
        into the mirror when it lacks them: the published file holds them, so a system's statistics filtered by a
        catalogue name its cards as it does (``replay.analytics.stats.catalogue_document``). Catalogues are
        immutable: one copied is never copied again."""
        for metadata in (row[5] for row in rows):
            listed = json.loads(metadata) if isinstance(metadata, str | bytes) else metadata
            identity = listed.get("catalogue") if isinstance(listed, dict) else None
            if not isinstance(identity, str) or identity in self._catalogues:
                continue
            try:
                self.duck.get_catalogue(identity)
            except CatalogueNotFound:
                try:
                    held = self._pg.get_catalogue(identity)
                except CatalogueNotFound:
                    continue  # a game whose catalogue the log does not hold (an old import): its cards keep ids
                self.duck.add_catalogue(held.catalogue_id, held.system, held.name, held.version, held.document)
            self._catalogues.add(identity)

    def close(self) -> None:
        self._conn.close()
        self.duck.close()


def publish(mirror: LogMirror, target: Path) -> None:
    """Write the statistics' tables of the mirror to a new file and rename it over ``target`` (readers that have
    the old file open keep reading it; the next ``StatsFile.reader`` opens the new one)."""
    from replay.analytics.projections import system_chains
    from replay.store.duckdb_store import DuckDBEventStore

    template = template_path(target)
    if not template.exists():  # the schema (tables, macros) by the store's own migrations, made once per leader
        building = template.with_name(f"{template.name}.{os.getpid()}.tmp")
        building.unlink(missing_ok=True)
        fresh = DuckDBEventStore(building)
        try:
            fresh.migrate(*system_chains())
        finally:
            fresh.close()
        os.replace(building, template)
    temporary = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    shutil.copyfile(template, temporary)
    conn = mirror.reader()
    try:
        conn.execute("ATTACH ? AS published", [str(temporary)])
        try:
            tables = [row[0] for row in conn.execute(sql("mirror_tables")).fetchall()]
            conn.begin()
            try:
                for table in tables:  # names from the catalog, quoted: no outside text reaches this SQL
                    name = '"' + table.replace('"', '""') + '"'
                    conn.execute(f"INSERT INTO published.{name} SELECT * FROM main.{name}")
                conn.commit()
            except BaseException:
                conn.rollback()
                raise
        finally:
            conn.execute("DETACH published")
    finally:
        conn.close()
    os.replace(temporary, target)


def template_path(target: Path) -> Path:
    return target.with_name(f"{target.name}.template")


def _open_read_only(path: Path) -> duckdb.DuckDBPyConnection:
    """The file, read-only, in a database instance of its own. Not ``duckdb.connect(path)``: DuckDB keeps one
    instance per path in a process, so while a cursor on the replaced file is still open it would hand back the old
    file's contents under the same name."""
    conn = duckdb.connect(":memory:")
    try:
        conn.execute("ATTACH ? AS published (READ_ONLY)", [str(path)])
        conn.execute("USE published")
    except BaseException:
        conn.close()
        raise
    return conn


class StatsFile:
    """The published statistics file, read-only, in every process: ``reader()`` gives a cursor on the newest one
    (reopened when a new file has replaced it)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._conn: duckdb.DuckDBPyConnection | None = None
        self._stamp: tuple[int, int] | None = None
        self._old: list[duckdb.DuckDBPyConnection] = []

    def reader(self) -> duckdb.DuckDBPyConnection:
        from replay.errors import StoreUnavailable

        try:
            stat = self.path.stat()
        except FileNotFoundError:
            raise StoreUnavailable(
                f"the statistics are not published yet ({self.path}): the analytics leader is catching up"
            ) from None
        stamp = (stat.st_ino, stat.st_mtime_ns)
        with self._lock:
            if self._conn is None or stamp != self._stamp:
                if self._conn is not None:
                    self._old.append(self._conn)  # cursors on it may still be reading
                    while len(self._old) > 2:
                        self._old.pop(0).close()
                self._conn = _open_read_only(self.path)
                self._stamp = stamp
            cursor = self._conn.cursor()
        cursor.execute("USE published")  # per cursor: each is a connection of its own
        return cursor

    def close(self) -> None:
        with self._lock:
            for conn in [*self._old, *([self._conn] if self._conn is not None else [])]:
                conn.close()
            self._old, self._conn = [], None


def default_scope() -> str:
    """One analytics leader per machine and database: the published file is a local file, read by the servers of
    the machine it is on."""
    import socket

    return socket.gethostname()


class Beside:
    """One process's part in the analytics beside a PostgreSQL store: a follower that tries to become the leader,
    or the leader (mirror, projector, publication). ``close`` steps down (the lock goes with the session)."""

    def __init__(
        self, store: Any, stats_path: str | Path, *, game_interval: float | None = None, lead: bool = True,
        scope: str | None = None,
    ) -> None:
        """``lead=False``: a reader only, never the leader (a ``warlog serve --workers`` worker: the analytics run
        in a process of their own, ``warlog analytics``, so that their CPU-bound passes do not hold the worker's
        interpreter lock while it serves). ``scope``: the processes that share one leader (and so one published
        file); None: this machine's (its host name)."""
        self._store = store
        self.scope = scope if scope is not None else default_scope()
        self.stats_path = Path(stats_path)
        self.mirror_path = self.stats_path.with_name(self.stats_path.name + ".mirror")
        self.stats = StatsFile(self.stats_path)
        self._game_interval = game_interval
        self._wake = threading.Event()
        self._closed = threading.Event()
        self.leader = False
        self._published: Any = None
        self._flushes = threading.Condition()
        self._flush_asked = self._flush_done = 0
        self._thread: threading.Thread | None = None
        if lead:
            self._thread = threading.Thread(target=self._run, name="warlog-analytics", daemon=True)
            store.add_commit_listener(self._on_commit)
            self._thread.start()

    def _on_commit(self, _: list[str]) -> None:
        self._wake.set()

    def _run(self) -> None:
        import psycopg

        from replay.store.postgres_store import PG

        while not self._closed.is_set():
            lock: Any = None
            try:
                lock = psycopg.connect(self._store.url, autocommit=True, connect_timeout=3)
                if lock.execute(PG("try_leader"), {"scope": self.scope}).fetchall()[0][0]:
                    self._lead(lock)
            except Exception as error:  # noqa: BLE001 - the database or the files failed: step down, try later
                log.warning("warlog: analytics (pid %d): %s: %s", os.getpid(), type(error).__name__, error)
            finally:
                self.leader = False
                if lock is not None:
                    lock.close()
            self._closed.wait(RETRY)

    def _lead(self, lock: Any) -> None:
        from replay.analytics.projections import GAME_INTERVAL, attach

        template_path(self.stats_path).unlink(missing_ok=True)  # made again by this version's migrations
        mirror = LogMirror(self._store, self.mirror_path)
        projector = None
        try:
            self.leader = True
            log.warning("warlog: this process (pid %d) leads the analytics", os.getpid())
            mirror.sync()
            projector = attach(mirror, game_interval=self._game_interval or GAME_INTERVAL)
            started = time.monotonic()
            self._publish(mirror, projector)
            published = time.monotonic()
            every = max(PUBLISH_INTERVAL, PUBLISH_SHARE * (published - started))
            synced = time.monotonic()
            while not self._closed.is_set():
                self._wake.wait(SYNC_INTERVAL)
                if self._closed.wait(max(0.0, synced + SYNC_GAP - time.monotonic())):
                    break
                self._wake.clear()
                synced = time.monotonic()
                with self._flushes:
                    asked = self._flush_asked
                lock.execute("SELECT 1")  # the session (and its lock) is alive, or this raises and steps down
                mirror.sync()
                # a flush is done once the projector has caught up and that is published; if it has not caught up
                # within 30 s, the flush waits for a later round (its caller's timeout bounds it)
                caught_up = asked > self._flush_done and projector.wait_idle(timeout=30)
                if caught_up or time.monotonic() - published >= every:
                    started = time.monotonic()
                    if self._publish(mirror, projector):
                        published = time.monotonic()
                        every = max(PUBLISH_INTERVAL, PUBLISH_SHARE * (published - started))
                if caught_up:
                    with self._flushes:
                        self._flush_done = asked
                        self._flushes.notify_all()
        finally:
            self.leader = False
            with self._flushes:
                self._flushes.notify_all()
            if projector is not None:
                projector.close()
            mirror.close()

    def _publish(self, mirror: LogMirror, projector: Any) -> bool:
        """Publish if the projections changed since the last publication; whether it did."""
        with projector.paused():  # not between a pass's checkpoints and its Elo sync
            conn = mirror.reader()
            try:
                fingerprint = conn.execute(sql("mirror_fingerprint")).fetchall()[0]
            finally:
                conn.close()
            if fingerprint == self._published and self.stats_path.exists():
                return False
            publish(mirror, self.stats_path)
            self._published = fingerprint
            return True

    def flush(self, timeout: float = 30.0) -> bool:
        """Wait until the leader (this process) has mirrored, projected and published everything committed before
        the call (tests, tools). False if this process is not the leader, or the time ran out."""
        with self._flushes:
            if not self.leader:
                return False
            wanted = self._flush_asked = self._flush_asked + 1
            self._wake.set()
            return self._flushes.wait_for(lambda: self._flush_done >= wanted or not self.leader, timeout) and \
                self._flush_done >= wanted

    def close(self) -> None:
        self._store.remove_commit_listener(self._on_commit)
        self._closed.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        self.stats.close()
