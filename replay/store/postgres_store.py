"""The PostgreSQL event store: one log shared by several server processes (issue 19; docs/store.md, docs/deploy.md).

Selected by a URL (``postgresql://...`` as ``--db`` or ``WARLOG_DB``, ``replay.store.open.open_store``). The same
contract as the DuckDB store (tests/replay/test_store_contract.py runs against both); what differs is that other
processes write the same tables, so this store trusts the database for everything but one cache (the games' rows,
below):

- **Appends**: one round trip, one transaction each: the function ``warlog_append`` (migration 001) reads the last
  seq, checks ``expected_seq`` and the idempotency key, inserts the events after it and moves the game's last seq
  on. Optimistic: a race on the same seqs meets ``PRIMARY KEY (game_id, seq)``, the loser looks again (a conflict
  with an expected seq, the first answer with a repeated key). Concurrent appends from every process share the
  server's WAL flushes (PostgreSQL's own group commit); bulk imports go through ``COPY``.
- **Connections**: a ``psycopg_pool`` pool; each connection has a ``statement_timeout``. A database that cannot
  be reached raises ``StoreUnavailable``, a cancelled statement ``StoreTimeout`` (the API answers 503 with a clear
  code). Reads are tried once more on a fresh connection; a write is not (its outcome is unknown: the caller
  retries it with its idempotency key).
- **Down and back** (issue 28 item 14; ``replay/store/breaker.py``): a call that finds the database unreachable (its
  connection broken under it, or no connection within the pool's timeout) opens a circuit breaker: from then on
  every call fails at once with ``StoreUnavailable`` instead of waiting for a connection (waiting, requests took
  4 s with one client and 8-37 s under load, some on the server's event loop). One thread probes the database at
  once and every ``PROBE_INTERVAL`` s; the first probe that connects drops the pool's broken idle connections and
  closes the breaker. The pool's own reconnection gives up after ``POOL_RECONNECT`` s (it grows again on demand):
  with a long reconnect timeout its backoff doubled up to minutes, and the service answered 503 for ~18 s after
  a 10 s outage.
- **Commits seen by other processes**: after its commits a store sends ``pg_notify('warlog_events', game_id)``
  for the games they wrote (a thread, one statement for every game committed meanwhile; not inside the writing
  transaction, where NOTIFY holds a database-wide lock through the commit's WAL flush and serialised every
  append); one connection per store LISTENs and calls the commit listeners for games written by *other*
  processes (this process's own commits call them directly, after the commit). A listener connection that
  drops reconnects by itself; what it missed meanwhile is found by the live streams' once-a-second check
  (``EventStore.last_seqs``) and by the analytics mirror's change numbers (``games.changed``).
- **The games' rows** (``get_game``: system, players, metadata with the token hashes; every request's access check
  reads one) are cached while the LISTEN connection is up, and only then: this process's own commits update or
  drop a cached row as they commit, another process's commit drops it when its notification arrives, and a LISTEN
  connection that drops (or comes back) empties the cache, since notifications may have been missed meanwhile. A
  row read from the database is cached only if nothing was dropped while it was being read (``_generation``). So a
  row may lag another process's commit by that commit's notification (a few milliseconds: bench/postgres.py's
  fan-out figure), never this process's own; the events (``read``), ``last_seq``, appends, conflicts and
  idempotency keys are always the database's. The read cost a round trip on the server's event loop per action
  (bench/RESULTS.md "PostgreSQL").
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import msgspec
import psycopg
import psycopg.errors
from psycopg_pool import ConnectionPool, PoolTimeout

from replay.errors import (
    CatalogueNotFound,
    Conflict,
    GameExists,
    GameNotFound,
    StoreBusy,
    StoreError,
    StoreTimeout,
    StoreUnavailable,
)
from replay.store.base import (
    ANNOTATION_RETRIES,
    GAME,
    Annotation,
    AppendResult,
    CatalogueRecord,
    Clock,
    GameRecord,
    NewEvent,
    Page,
    StoredEvent,
    StreamPage,
    StreamRecord,
    annotation,
    catalogue_record,
    check_batch,
    check_kind,
    check_limit,
    check_metadata,
    check_seq_args,
    check_stream,
    decode_cursor,
    encode_cursor,
    iso_utc,
    utc_now,
)
from replay.store.breaker import Breaker
from replay.store.sql import SQL_DIR, SqlFolder

log = logging.getLogger("warlog.postgres")

CHANNEL = "warlog_events"
STATEMENT_TIMEOUT_MS = 5000  # default: a statement running longer is cancelled (StoreTimeout)
POOL_SIZE = 10  # connections per process at most
POOL_TIMEOUT = 2.0  # seconds to wait for a connection before StoreUnavailable (the longest a request waits while
# the database is down: then 503 store_unavailable)
CONNECT_TIMEOUT = 3  # seconds for one connection attempt
PROBE_INTERVAL = 0.2  # seconds between two probes of a database found unreachable (the breaker, above)
# seconds a read that found its connection broken waits for the first probe before its retry: a bound on a hang, not
# a latency. The probe ends by itself (it connects, or fails within CONNECT_TIMEOUT); on a loaded machine connecting
# takes more than the half second this was, and the read failed although the database was there (issue 28 item 21).
FIRST_VERDICT = 30.0
POOL_RECONNECT = 0.5  # seconds the pool keeps trying to replace a connection before it gives up (and grows again
# when a call needs one); its retries back off (1 s, doubled) within that, so they are never far apart
ROW_CACHE = 10_000  # games' rows cached at most (a row with its metadata is about 1 kB)
_NO_END = 2**62
_PARAM = re.compile(r"\$([a-z_][a-z0-9_]*)")
_TAKEN = re.compile(r"^Key \(stream_id\)=\((.*)\) already exists")


class PostgresSql(SqlFolder):
    """The PostgreSQL statements (``replay/sql/postgres``): ``$name`` parameters become psycopg's ``%(name)s``."""

    def __call__(self, name: str) -> str:
        text = super().__call__(name)
        body = "\n".join(line for line in text.splitlines() if not line.startswith("--"))
        return _PARAM.sub(r"%(\1)s", body.replace("%", "%%"))


PG = PostgresSql(SQL_DIR / "postgres", "postgres")


def redact(url: str) -> str:
    """The URL without its password (for messages)."""
    return re.sub(r"://([^:/@]+):[^@]*@", r"://\1:***@", url)


class BulkGame(msgspec.Struct, frozen=True):  # the same fields as duckdb_store.BulkGame (records.bulk builds those)
    game_id: str
    system: str
    players: list[str]
    metadata: dict[str, Any]
    tournament: str | None
    types: list[str]
    schema_versions: list[int]
    payloads: list[str]
    hashes: list[str]


class PostgresEventStore:
    def __init__(
        self,
        url: str,
        clock: Clock = utc_now,
        pool_size: int = POOL_SIZE,
        statement_timeout_ms: int = STATEMENT_TIMEOUT_MS,
        pool_timeout: float = POOL_TIMEOUT,
        listen: bool = True,
    ) -> None:
        self.url = url
        self._clock = clock
        self._statement_timeout_ms = statement_timeout_ms
        self._own_pids: set[int] = set()  # backends of this store's pool: their notifications are our own commits
        self._closed = False
        self._commit_listeners: list[Callable[[list[str]], None]] = []
        self._rows: OrderedDict[str, tuple] = OrderedDict()  # rows as read (see "The games' rows" above)
        self._rows_lock = threading.Lock()
        self._generation = 0  # counts every drop of cached rows
        self._pool = ConnectionPool(
            url,
            min_size=1,
            max_size=pool_size,
            timeout=pool_timeout,
            kwargs={"autocommit": True, "connect_timeout": CONNECT_TIMEOUT},
            configure=self._configure,
            reconnect_timeout=POOL_RECONNECT,
            name="warlog",
            open=False,
        )
        self._breaker = Breaker(self._probe, self._pool.check, PROBE_INTERVAL, redact(url), StoreUnavailable)
        try:
            self._pool.open(wait=False)
            self._migrate()
        except BaseException:
            self._breaker.stop()
            self._pool.close(timeout=0)
            raise
        self._executor = ThreadPoolExecutor(max_workers=pool_size, thread_name_prefix="warlog-pg-append")
        self._notes: dict[str, None] = {}  # games committed by this process, not yet notified to the others
        self._notes_ready = threading.Condition()
        self._notifier = threading.Thread(target=self._notify_loop, name="warlog-pg-notify", daemon=True)
        self._notifier.start()
        self._listening = threading.Event()  # set while the LISTEN connection is up
        self.listen_pid: int | None = None  # its server process
        self._listener: threading.Thread | None = None
        if listen:
            self._listener = threading.Thread(target=self._listen_loop, name="warlog-pg-listen", daemon=True)
            self._listener.start()

    def __repr__(self) -> str:
        return f"PostgresEventStore({redact(self.url)!r})"

    # -- connections ------------------------------------------------------------------------------------
    def _configure(self, conn: psycopg.Connection) -> None:
        conn.execute(f"SET statement_timeout = {int(self._statement_timeout_ms)}")
        self._own_pids.add(conn.info.backend_pid)

    def _probe(self) -> None:
        """Raise unless the database can be reached now (a connection of its own, not the pool's)."""
        with psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT) as conn:
            conn.execute(PG("current_schema")).fetchall()

    @contextmanager
    def _conn(self) -> Iterator[psycopg.Connection]:
        """A pooled connection (autocommit); database failures become ``StoreUnavailable`` / ``StoreTimeout``, at
        once while the database is known to be unreachable (the breaker)."""
        if self._closed:
            raise RuntimeError("the event store is closed")
        self._breaker.check()
        taken = None
        try:
            with self._pool.connection() as conn:
                taken = conn
                yield conn
        except psycopg.errors.QueryCanceled as error:
            raise StoreTimeout(
                f"a statement ran longer than the statement timeout ({self._statement_timeout_ms} ms) and was "
                f"cancelled ({str(error).strip().splitlines()[0]})"
            ) from None
        except PoolTimeout:
            self._breaker.trip(f"no connection within {self._pool.timeout:g} s")
            raise StoreUnavailable(
                f"no connection to {redact(self.url)} within {self._pool.timeout:g} s (the database is down, "
                "restarting or overloaded); retry shortly"
            ) from None
        except psycopg.OperationalError as error:
            if (error.sqlstate or "").startswith("40"):  # class 40, transaction rollback: a deadlock, a serialization
                raise StoreBusy(f"the database rolled this transaction back ({_first_line(error)})") from None
            if taken is not None and taken.broken:  # the server went away under it (a restart broke them all)
                self._breaker.trip(_first_line(error))
            raise StoreUnavailable(_first_line(error)) from None

    def _read(self, work: Callable[[psycopg.Connection], Any]) -> Any:
        """Run a read; once more on a fresh connection if the first one broke and the database is still there (a
        restart broke it, or an administrator ended its session: the breaker's first probe says which)."""
        try:
            with self._conn() as conn:
                return work(conn)
        except StoreTimeout:
            raise
        except StoreUnavailable:
            if not self._breaker.wait_verdict(FIRST_VERDICT):
                raise
            with self._conn() as conn:
                return work(conn)

    # -- schema ---------------------------------------------------------------------------------------
    def _migrate(self) -> None:
        with self._conn() as conn:
            with conn.transaction():
                conn.execute(PG("migration_unbounded"))
                conn.execute(PG("migration_lock"))
                conn.execute(PG("schema"))
                applied = {row[0] for row in conn.execute(PG("applied_migrations")).fetchall()}
                for version, name, text in PG.migrations():
                    if version in applied:
                        continue
                    conn.execute(text.encode())  # no parameters: the whole file in one simple query
                    conn.execute(
                        PG("record_migration"),
                        {"version": version, "name": name, "applied_at": iso_utc(self._clock())},
                    )

    # -- writes ---------------------------------------------------------------------------------------
    def create_game(
        self,
        game_id: str,
        system: str,
        players: list[str],
        metadata: dict[str, Any],
        events: Sequence[NewEvent],
        tournament: str | None = None,
    ) -> AppendResult:
        return self._create(game_id, GAME, system, players, metadata, events, tournament)

    def create_stream(
        self, stream_id: str, kind: str, system: str, metadata: dict[str, Any], events: Sequence[NewEvent]
    ) -> AppendResult:
        check_kind(kind)
        return self._create(stream_id, kind, system, [], metadata, events, None)

    def _create(self, game_id: str, kind: str, system: str, players: list[str], metadata: dict[str, Any],
                events: Sequence[NewEvent], tournament: str | None) -> AppendResult:
        check_batch(events, allow_empty=True)
        metadata_json = check_metadata(metadata).decode()
        columns = _columns(events)
        now = iso_utc(self._clock())
        with self._conn() as conn, conn.transaction():
            created = conn.execute(
                PG("insert_game"),
                {"game_id": game_id, "kind": kind, "system": system, "created_at": now, "players": list(players),
                 "tournament": tournament, "metadata": metadata_json, "last_seq": len(events)},
            ).fetchall()
            if not created:
                raise GameExists(game_id)
            if events:
                conn.execute(PG("insert_events"), {"game_id": game_id, "first_seq": 1, "recorded_at": now, **columns})
        self._committed([game_id])
        return _result(game_id, 1, events, now)

    def append(
        self,
        game_id: str,
        events: Sequence[NewEvent],
        expected_seq: int | None = None,
        idempotency_key: str | None = None,
    ) -> AppendResult:
        check_batch(events)
        columns = _columns(events)
        now = iso_utc(self._clock())
        with self._conn() as conn:
            status, first, last = conn.execute(
                PG("append"),
                {"game_id": game_id, "expected_seq": expected_seq, "key": idempotency_key, "recorded_at": now,
                 **columns},
            ).fetchall()[0]
        match status:
            case "ok":
                self._row_moved_on(game_id, last)
                self._committed([game_id])
                return _result(game_id, first, events, now)
            case "replayed":
                return AppendResult(game_id, first, last, self.read(game_id, first, last), replayed=True)
            case "conflict":
                raise Conflict(game_id, expected_seq if expected_seq is not None else -1, last)
            case "not_found":
                raise GameNotFound(game_id)
        raise AssertionError(f"warlog_append answered {status!r}")

    def append_future(
        self,
        game_id: str,
        events: Sequence[NewEvent],
        expected_seq: int | None = None,
        idempotency_key: str | None = None,
    ) -> Future[AppendResult]:
        """``append`` on the store's own threads (as many as pooled connections): for callers on an event loop."""
        check_batch(events)
        if self._closed:
            raise RuntimeError("the event store is closed")
        return self._executor.submit(self.append, game_id, events, expected_seq, idempotency_key)

    def update_metadata(self, game_id: str, patch: dict[str, Any]) -> None:
        patch_json = check_metadata(patch, "patch").decode()
        with self._conn() as conn, conn.transaction():
            if not conn.execute(PG("update_metadata"), {"game_id": game_id, "patch": patch_json}).fetchall():
                raise GameNotFound(game_id)
        self._drop_rows([game_id])
        self._committed([game_id])

    def put_snapshot(self, game_id: str, seq: int, state: bytes) -> None:
        with self._conn() as conn:
            rows = conn.execute(PG("last_seq"), {"game_id": game_id}).fetchall()
            if not rows:
                raise GameNotFound(game_id)
            if not 0 <= seq <= rows[0][0]:
                raise ValueError(f"game {game_id!r}: snapshot seq {seq} is outside 0..{rows[0][0]}")
            conn.execute(PG("upsert_snapshot"), {"game_id": game_id, "seq": seq, "state": bytes(state)})

    def create_games_bulk(self, games: Sequence[Any]) -> int:
        """Create many games with all their events in ONE transaction, by ``COPY`` (all or none: ``GameExists`` if
        any id is taken). ``games`` are ``BulkGame``s (this module's or ``duckdb_store``'s: the same fields)."""
        if len({g.game_id for g in games}) != len(games):
            raise ValueError("create_games_bulk: a game id occurs twice")
        for game in games:
            n = len(game.types)
            if not len(game.schema_versions) == len(game.payloads) == len(game.hashes) == n:
                raise ValueError(f"game {game.game_id!r}: its event columns differ in length")
            try:
                for payload in game.payloads:
                    msgspec.json.decode(payload, type=msgspec.Raw)
            except msgspec.DecodeError as error:
                raise ValueError(f"game {game.game_id!r}: an event payload is not valid JSON: {error}") from None
            check_metadata(game.metadata)
        if not games:
            return 0
        try:
            total = self._copy_games(games)
        except psycopg.errors.UniqueViolation as error:  # another process created one of these ids meanwhile
            detail = _TAKEN.search(error.diag.message_detail or "")
            raise GameExists(detail.group(1) if detail else games[0].game_id) from None
        self._committed([g.game_id for g in games])
        return total

    def _copy_games(self, games: Sequence[Any]) -> int:
        now = iso_utc(self._clock())
        total = 0
        with self._conn() as conn, conn.transaction():
            taken = conn.execute(PG("games_taken"), {"game_ids": [g.game_id for g in games]}).fetchall()
            if taken:
                raise GameExists(taken[0][0])
            cursor = conn.cursor()
            with cursor.copy(PG("copy_games")) as copy:
                for g in games:
                    copy.write_row((g.game_id, g.system, now, list(g.players), g.tournament,
                                    msgspec.json.encode(g.metadata).decode(), len(g.types)))
            with cursor.copy(PG("copy_events")) as copy:
                for g in games:
                    for i, (t, v, p, h) in enumerate(zip(g.types, g.schema_versions, g.payloads, g.hashes,
                                                         strict=True), 1):
                        copy.write_row((g.game_id, i, t, v, p, now, h))
                    total += len(g.types)
        return total

    # -- reads ----------------------------------------------------------------------------------------
    def read(self, game_id: str, from_seq: int = 1, to_seq: int | None = None) -> list[StoredEvent]:
        check_seq_args(from_seq, to_seq)
        params = {"game_id": game_id, "from_seq": from_seq, "to_seq": _NO_END if to_seq is None else to_seq}
        rows = self._read(lambda conn: conn.execute(PG("read_events"), params).fetchall())
        return _stream(game_id, from_seq, to_seq, rows)

    def find_idempotent(self, game_id: str, idempotency_key: str) -> AppendResult | None:
        rows = self._read(
            lambda conn: conn.execute(PG("find_idempotency_key"), {"game_id": game_id, "key": idempotency_key})
            .fetchall()
        )
        if not rows:
            raise GameNotFound(game_id)
        first, last = rows[0]
        if first is None:
            return None
        return AppendResult(game_id, first, last, self.read(game_id, first, last), replayed=True)

    def last_seq(self, game_id: str) -> int:
        rows = self._read(lambda conn: conn.execute(PG("last_seq"), {"game_id": game_id}).fetchall())
        if not rows:
            raise GameNotFound(game_id)
        return int(rows[0][0])

    def last_seqs(self, game_ids: Sequence[str]) -> dict[str, int]:
        if not game_ids:
            return {}
        rows = self._read(lambda conn: conn.execute(PG("get_last_seqs"), {"game_ids": list(game_ids)}).fetchall())
        return {game_id: int(seq) for game_id, seq in rows}

    def get_game(self, game_id: str) -> GameRecord:
        row = self._game_row(game_id)
        if row[7] != GAME:
            raise GameNotFound(game_id)
        return _record(row)

    def get_stream(self, stream_id: str) -> StreamRecord:
        return _stream_record(self._game_row(stream_id))

    def list_streams(self, kind: str, limit: int = 50, cursor: str | None = None) -> StreamPage:
        check_limit(limit)
        after_created_at, after_stream_id = decode_cursor(cursor) if cursor is not None else ("", "")
        params = {"kind": kind, "after_created_at": after_created_at, "after_stream_id": after_stream_id,
                  "limit": limit + 1}
        rows = self._read(lambda conn: conn.execute(PG("list_streams"), params).fetchall())
        streams = [_stream_record(row) for row in rows[:limit]]
        if len(rows) > limit:
            return StreamPage(streams, encode_cursor(streams[-1].created_at, streams[-1].stream_id))
        return StreamPage(streams, None)

    def _game_row(self, game_id: str) -> tuple:
        """The stream's row (get_game.sql: a game's or another kind's), from the row cache or the database."""
        with self._rows_lock:
            cached = self._rows.get(game_id)
            if cached is not None:
                self._rows.move_to_end(game_id)
            generation = self._generation
        if cached is not None:
            return cached  # decoded per call (_record): a caller changing its copy changes nothing here
        rows = self._read(lambda conn: conn.execute(PG("get_game"), {"game_id": game_id}).fetchall())
        if not rows:
            raise GameNotFound(game_id)
        with self._rows_lock:
            # nothing dropped since the read began (a commit it may have missed), and other processes are heard
            if generation == self._generation and self._listening.is_set():
                self._rows[game_id] = rows[0]
                while len(self._rows) > ROW_CACHE:
                    self._rows.popitem(last=False)
        return rows[0]

    def _drop_rows(self, game_ids: Sequence[str] | None) -> None:
        """Forget the cached rows of these games (None: of every game)."""
        with self._rows_lock:
            self._generation += 1
            if game_ids is None:
                self._rows.clear()
            else:
                for game_id in game_ids:
                    self._rows.pop(game_id, None)

    def _row_moved_on(self, game_id: str, last_seq: int) -> None:
        """This process's append committed: the cached row (if any) takes its last seq."""
        with self._rows_lock:
            self._generation += 1  # a read racing this commit may hold the row from before it
            cached = self._rows.get(game_id)
            if cached is not None and cached[6] < last_seq:
                self._rows[game_id] = (*cached[:6], last_seq, *cached[7:])

    def list_games(
        self,
        system: str | None = None,
        player: str | None = None,
        tournament: str | None = None,
        limit: int = 50,
        cursor: str | None = None,
        army: str | None = None,
        newest_first: bool = False,
        over: bool | None = None,
    ) -> Page:
        check_limit(limit)
        after_created_at, after_game_id = decode_cursor(cursor) if cursor is not None else ("", "")
        params = {
            "system": system, "player": player, "tournament": tournament, "army": army, "over": over,
            "after_created_at": after_created_at, "after_game_id": after_game_id, "limit": limit + 1,
        }
        name = "list_games_newest" if newest_first else "list_games"
        rows = self._read(lambda conn: conn.execute(PG(name), params).fetchall())
        games = [_record(row) for row in rows[:limit]]
        if len(rows) > limit:
            return Page(games, encode_cursor(games[-1].created_at, games[-1].game_id))
        return Page(games, None)

    def add_catalogue(self, catalogue_id: str, system: str, name: str, version: str,
                      document: bytes) -> tuple[CatalogueRecord, bool]:
        params = {"catalogue_id": catalogue_id, "system": system, "name": name, "version": version,
                  "document": bytes(document).decode("utf-8"), "created_at": iso_utc(self._clock())}
        with self._conn() as conn, conn.transaction():
            added = bool(conn.execute(PG("catalogue_insert"), params).fetchall())
        return self.get_catalogue(catalogue_id), added

    def add_annotation(self, game_id: str, step: int, text: str, role: str, author: str) -> Annotation:
        self.get_game(game_id)  # GameNotFound
        now = iso_utc(self._clock())
        params = {"game_id": game_id, "step": step, "text": text, "role": role, "author": author, "created_at": now}
        for _ in range(ANNOTATION_RETRIES):
            try:
                with self._conn() as conn, conn.transaction():
                    conn.execute(PG("annotation_lock"), {"game_id": game_id}).fetchall()
                    (n,) = conn.execute(PG("annotation_insert"), params).fetchall()[0]
            except psycopg.errors.UniqueViolation:
                continue  # another writer took the same number: number it again after that one
            return Annotation(game_id, int(n), step, text, role, author, now)
        raise StoreError(f"game {game_id!r}: the annotation could not be numbered beside concurrent ones")

    def annotations(self, game_id: str) -> list[Annotation]:
        rows = self._read(lambda conn: conn.execute(PG("annotation_list"), {"game_id": game_id}).fetchall())
        return [annotation(row) for row in rows]

    def get_catalogue(self, catalogue_id: str) -> CatalogueRecord:
        rows = self._read(lambda conn: conn.execute(PG("catalogue_get"), {"catalogue_id": catalogue_id}).fetchall())
        if not rows:
            raise CatalogueNotFound(catalogue_id)
        return catalogue_record(rows[0])

    def list_catalogues(self, system: str | None = None) -> list[CatalogueRecord]:
        rows = self._read(lambda conn: conn.execute(PG("catalogue_list"), {"system": system or ""}).fetchall())
        return [catalogue_record(row) for row in rows]

    def get_snapshot(self, game_id: str, at_or_before: int) -> tuple[int, bytes] | None:
        params = {"game_id": game_id, "at_or_before": at_or_before}
        rows = self._read(lambda conn: conn.execute(PG("get_snapshot"), params).fetchall())
        if not rows:
            raise GameNotFound(game_id)
        seq, state = rows[0]
        return None if seq is None else (int(seq), bytes(state))

    def games_with_content(self, digest: str) -> list[str]:
        """Hash the games new or moved on since the last look (``game_contents``, migration 002), then look the
        digest up, in one transaction: an import's duplicate check without reading every game into Python."""
        for attempt in range(3):
            try:
                with self._conn() as conn, conn.transaction():
                    conn.execute(PG("contents_delete_stale"))
                    conn.execute(PG("contents_insert_missing"))
                    rows = conn.execute(PG("contents_find"), {"content_hash": digest}).fetchall()
                return [row[0] for row in rows]
            except StoreBusy:  # two processes refreshing the same stale rows deadlocked: look again
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    # -- for code beside the store (the analytics mirror) -----------------------------------------------
    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection]:
        """A pooled connection (autocommit) with this store's error translation; give it back quickly."""
        with self._conn() as conn:
            yield conn

    # -- commits --------------------------------------------------------------------------------------
    def add_commit_listener(self, listener: Callable[[list[str]], None]) -> None:
        """``listener(game_ids)`` after each commit of this store that stored events or changed a game, and for
        each notification of another process's commit (on the listening thread). It must return quickly; an
        exception it raises is ignored."""
        self._commit_listeners.append(listener)

    def remove_commit_listener(self, listener: Callable[[list[str]], None]) -> None:
        if listener in self._commit_listeners:
            self._commit_listeners.remove(listener)

    def _committed(self, game_ids: list[str]) -> None:
        """After a commit of this store: tell this process's listeners now, and the other processes soon."""
        with self._notes_ready:
            self._notes.update(dict.fromkeys(game_ids))
            self._notes_ready.notify()
        self._told(game_ids)

    def wait_listening(self, timeout: float) -> bool:
        """Whether this store hears other processes' commits now (its LISTEN connection is up), waiting up to
        ``timeout`` seconds for it."""
        return self._listening.wait(timeout)

    def _told(self, game_ids: list[str]) -> None:
        for listener in list(self._commit_listeners):
            try:
                listener(game_ids)
            except Exception:  # noqa: BLE001 - a listener must never break a write
                pass

    def _listen_loop(self) -> None:
        """LISTEN on its own connection; reconnect (every half second) while the database is away."""
        down_since: float | None = None
        while not self._closed:
            try:
                with psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT) as conn:
                    prefix = f"{conn.execute(PG('current_schema')).fetchall()[0][0]}:"
                    conn.execute(PG("listen"))
                    self.listen_pid = conn.info.backend_pid  # (tests end this session to see a listener lost)
                    self._drop_rows(None)  # commits made while nobody listened were not heard
                    self._listening.set()
                    if down_since is not None:
                        log.warning("warlog: listening to %s again", redact(self.url))
                        down_since = None
                    while not self._closed:
                        for note in conn.notifies(timeout=0.5):
                            # another process's commit in this store's schema (our own commits were told already)
                            if note.pid not in self._own_pids and note.payload.startswith(prefix):
                                game_ids = [note.payload[len(prefix):]]
                                self._drop_rows(game_ids)
                                self._told(game_ids)
            except psycopg.Error as error:
                self._listening.clear()
                self._drop_rows(None)
                if self._closed:
                    return
                if down_since is None:
                    down_since = time.monotonic()
                    log.warning("warlog: lost the notification connection (%s); reconnecting", _first_line(error))
                time.sleep(0.5)

    def _notify_loop(self) -> None:
        """Send the notifications of this process's commits: every game committed since the last round, in one
        statement (one round trip, no WAL flush). A notification lost (the process dies between a commit and
        this, or the database is away) only delays the others: their live streams check every second
        (``last_seqs``) and the analytics mirror reads the transaction horizon, not the notifications."""
        while True:
            with self._notes_ready:
                while not self._notes and not self._closed:
                    self._notes_ready.wait()
                if not self._notes:
                    return
            time.sleep(0.002)  # a moment for the commits just behind: one statement for them all
            with self._notes_ready:
                game_ids, self._notes = list(self._notes), {}
            if self._breaker.is_open:
                log.warning("warlog: %d change notifications not sent (the database cannot be reached)", len(game_ids))
                continue
            try:
                with self._pool.connection() as conn:  # not _conn: the last ones are sent while closing
                    conn.execute(PG("notify"), {"game_ids": game_ids}).fetchall()
            except (psycopg.Error, PoolTimeout) as error:
                log.warning("warlog: %d change notifications not sent (%s)", len(game_ids), _first_line(error))

    def close(self) -> None:
        if self._closed:
            return
        self._executor.shutdown(wait=True)
        with self._notes_ready:
            self._closed = True
            self._notes_ready.notify()
        self._notifier.join(timeout=5)
        if self._listener is not None:
            self._listener.join(timeout=5)
        self._breaker.stop()
        self._pool.close(timeout=5)


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _columns(events: Sequence[NewEvent]) -> dict[str, list[Any]]:
    try:
        payloads = [e.payload.decode("utf-8") for e in events]
    except UnicodeDecodeError as error:
        raise ValueError(f"event payload is not UTF-8: {error}") from None
    return {
        "types": [e.type for e in events],
        "schema_versions": [e.schema_version for e in events],
        "payloads": payloads,
        "hashes": [e.hash for e in events],
    }


def _result(game_id: str, first: int, events: Sequence[NewEvent], recorded_at: str) -> AppendResult:
    stored = [
        StoredEvent(game_id, first + i, e.type, e.schema_version, e.payload, recorded_at, e.hash)
        for i, e in enumerate(events)
    ]
    return AppendResult(game_id, first, first + len(events) - 1, stored, replayed=False)


def _stream(game_id: str, from_seq: int, to_seq: int | None, rows: list[tuple]) -> list[StoredEvent]:
    if not rows:
        raise GameNotFound(game_id)
    last = rows[0][0] if to_seq is None else min(to_seq, rows[0][0])
    events = [
        StoredEvent(game_id, seq, type_, version, payload.encode("utf-8"), recorded_at, hash_)
        for _, seq, type_, version, payload, recorded_at, hash_ in rows
        if seq is not None
    ]
    return check_stream(game_id, from_seq, last, events)


def _record(row: tuple) -> GameRecord:
    """A stream's row (get_game.sql: with its kind last) or a game's (list_games.sql) as a GameRecord."""
    game_id, system, created_at, players, tournament, metadata, last_seq = row[:7]
    return GameRecord(game_id, system, created_at, list(players), tournament, msgspec.json.decode(metadata),
                      int(last_seq))


def _stream_record(row: tuple) -> StreamRecord:
    game = _record(row)
    return StreamRecord(game.game_id, row[7], game.system, game.created_at, game.metadata, game.last_seq)
