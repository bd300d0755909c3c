"""The DuckDB event store: one writer thread with group commit, per-thread cursors for reads.

DuckDB costs about a millisecond per statement and a connection must not be used by two threads at once, so every
write goes through one thread. Callers enqueue requests and wait on a future. The writer takes every pending
request, checks each one (game exists, expected_seq, idempotency key) against its cache of each game's last seq
(loaded lazily from the database), writes all accepted requests in ONE transaction with a few bulk statements,
commits, and only then answers each caller. A request that fails its checks is answered at once and does not
touch the others; if the transaction itself fails, the whole batch fails and the caches are dropped.

Reads fetch every row (``fetchall``), never ``fetchone``: a result not read to its end keeps its autocommit
transaction open until the cursor's next statement, and while any transaction is open DuckDB keeps the undo
data of every later commit (about 256 KiB each). One idle handler thread's cursor after a ``fetchone`` grew
the server's DuckDB 'TRANSACTION' memory by 200 MiB in a minute of live appends, and with a memory limit the
spilling slowed appends to a few per second (``duckdb_memory()``; tests/replay/test_store_caches.py).

Durability: DuckDB appends each commit to its write-ahead log and syncs the log to disk before `COMMIT` returns
(`WriteAheadLog::Flush` -> `Sync()`), so an acknowledged append survives `kill -9` and is replayed on open.
"""

from __future__ import annotations

import atexit
import queue
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import duckdb
import msgspec

from replay.errors import CatalogueNotFound, Conflict, CorruptRecord, GameExists, GameNotFound, StoreError
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
from replay.store.sql import SqlFolder, migrations, sql

MAX_BATCH = 4096  # requests per group commit
LINGER_SECONDS = 0.0005  # how long the writer waits for more requests when the last batch was shared
# Caches are bounded by entries, not by the games stored: a row (with its metadata JSON and token hashes) is about
# 1 KiB, so 20,000 rows (every game a large tournament has running, many times over) stay near 20 MiB.
_KEY_CACHE_LIMIT = 20_000
_ROW_CACHE_LIMIT = 20_000  # game rows kept for get_game / last_seq
_CATALOGUE_TRIES = 2000  # of 1 ms: a concurrent store of the same catalogue commits well within 2 s
_LAST_CACHE_LIMIT = 100_000  # the writer's last seq per game (about 150 bytes each)

# Stores still open when the interpreter exits are closed then. An open store's writer thread (a daemon) holds
# DuckDB connections that are never freed, and DuckDB's bindings (nanobind) then print ~80 lines of "nanobind:
# leaked ... instances" at exit, which a user reads as a failure (issue 11).
_OPEN: weakref.WeakSet[DuckDBEventStore] = weakref.WeakSet()


@atexit.register
def _close_open_stores() -> None:
    for store in list(_OPEN):
        store.close()
_check_json = msgspec.json.Decoder(msgspec.Raw).decode  # one JSON value, or DecodeError
_NO_END = 2**62


class _Columns(msgspec.Struct):
    """A batch of new events as columns, prepared by the calling thread (the writer only numbers them)."""

    types: list[str]
    schema_versions: list[int]
    payloads: list[str]
    hashes: list[str]

    @classmethod
    def of(cls, events: Sequence[NewEvent]) -> _Columns:
        try:
            payloads = [e.payload.decode("utf-8") for e in events]
        except UnicodeDecodeError as error:
            raise ValueError(f"event payload is not UTF-8: {error}") from None
        return cls([e.type for e in events], [e.schema_version for e in events], payloads, [e.hash for e in events])


class _Create(msgspec.Struct):
    game_id: str  # the stream's id
    system: str
    players: list[str]
    metadata: dict[str, Any]
    tournament: str | None
    columns: _Columns
    future: Future
    kind: str = GAME


class _Append(msgspec.Struct):
    game_id: str
    columns: _Columns
    expected_seq: int | None
    idempotency_key: str | None
    future: Future


class _Patch(msgspec.Struct):
    game_id: str
    patch: dict[str, Any]
    future: Future


class _Snapshot(msgspec.Struct):
    game_id: str
    seq: int
    state: bytes
    future: Future


_SINGULAR = {
    "game_ids": "game_id", "seqs": "seq", "types": "type", "schema_versions": "schema_version",
    "payloads": "payload", "recorded_ats": "recorded_at", "hashes": "hash",
}

class BulkGame(msgspec.Struct, frozen=True):
    """A whole game for ``create_games_bulk``: its record and its events as columns (seq = position + 1), each
    payload the event's JSON text, already hash-chained. Columns, not ``NewEvent`` structs: cheap to build, and
    cheap to send between processes (``replay.archive.bulk`` prepares games in worker processes)."""

    game_id: str
    system: str
    players: list[str]
    metadata: dict[str, Any]
    tournament: str | None
    types: list[str]
    schema_versions: list[int]
    payloads: list[str]
    hashes: list[str]


class _BulkCreate(msgspec.Struct):
    """Many new games written in one transaction of their own (``create_games_bulk``)."""

    games: list[BulkGame]
    events: Any  # a pyarrow Table (game_id, seq, type, schema_version, payload, hash), or dict of column lists
    future: Future


_GameRequest = _Create | _Append | _Patch | _Snapshot  # one game's request, planned within a batch
_Request = _GameRequest | _BulkCreate
_STOP = object()


class _Batch:
    """What one group commit will write, built request by request."""

    def __init__(self, recorded_at: str) -> None:
        self.recorded_at = recorded_at
        self.last: dict[str, int] = {}  # game -> last seq after this batch
        self.new_games: dict[str, _Create] = {}
        self.metadata: dict[str, dict[str, Any]] = {}  # game -> merged metadata to write
        self.events: dict[str, list[Any]] = {
            k: [] for k in ("game_ids", "seqs", "types", "schema_versions", "payloads", "recorded_ats", "hashes")
        }
        self.keys: dict[tuple[str, str], AppendResult] = {}
        self.snapshots: dict[tuple[str, int], bytes] = {}
        self.answers: list[tuple[_GameRequest, Any]] = []

    def add_events(self, game_id: str, first: int, columns: _Columns) -> AppendResult:
        n = len(columns.types)
        seqs = list(range(first, first + n))
        ev = self.events
        ev["game_ids"].extend([game_id] * n)
        ev["seqs"].extend(seqs)
        ev["types"].extend(columns.types)
        ev["schema_versions"].extend(columns.schema_versions)
        ev["payloads"].extend(columns.payloads)
        ev["recorded_ats"].extend([self.recorded_at] * n)
        ev["hashes"].extend(columns.hashes)
        self.last[game_id] = first + n - 1
        stored = [
            StoredEvent(game_id, seq, t, v, p.encode("utf-8"), self.recorded_at, h)
            for seq, t, v, p, h in zip(
                seqs, columns.types, columns.schema_versions, columns.payloads, columns.hashes, strict=True
            )
        ]
        return AppendResult(game_id, first, first + n - 1, stored, replayed=False)


class DuckDBEventStore:
    def __init__(self, path: str | Path = ":memory:", clock: Clock = utc_now, memory_limit: str | None = None) -> None:
        """``memory_limit`` (e.g. ``"256MB"``): DuckDB's buffer pool cap. Without it DuckDB may keep up to 80% of
        RAM, and its memory grows by about 10 MiB per 1,000 games written (docs/performance.md)."""
        self._clock = clock
        config: dict[str, str | bool | int | float | list[str]] = {"memory_limit": memory_limit} if memory_limit else {}
        self._conn = duckdb.connect(str(path), config=config)
        self._migrate()
        self._local = threading.local()
        self._cursors: list[duckdb.DuckDBPyConnection] = []
        self._cursors_lock = threading.Lock()
        self._annotating = threading.Lock()  # one process holds the file: its annotations are numbered in turn
        # Writer state: touched by the writer thread only.
        self._writer_conn = self._conn.cursor()
        self._last: dict[str, int] = {}
        # Read side: game rows (get_game / last_seq), kept in step by the writer (see _game_row).
        self._rows: dict[str, tuple] = {}
        self._rows_lock = threading.Lock()
        self._generation = 0
        self._keys: dict[tuple[str, str], tuple[int, int]] = {}
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._submit_lock = threading.Lock()
        self._closed = False
        self._commit_listeners: list[Callable[[list[str]], None]] = []
        self._writer = threading.Thread(target=self._write_loop, name="warlog-store-writer", daemon=True)
        self._writer.start()
        _OPEN.add(self)

    # -- schema ---------------------------------------------------------------------------------------
    def _migrate(self) -> None:
        """The shared chain (``replay/sql/migrations``, ledger ``schema_migrations``); a game system's own chain
        comes after it, through ``migrate``."""
        conn = self._conn
        conn.execute(sql("schema"))
        applied = {row[0] for row in conn.execute(sql("applied_migrations")).fetchall()}
        for version, name, text in migrations():
            if version in applied:
                continue
            self._apply(conn, text, "record_migration", {"version": version, "name": name})

    def migrate(self, *folders: SqlFolder) -> list[tuple[str, int, str]]:
        """Apply the migration chain of each folder (a game system's own tables, ``replay/<system>/sql/migrations``)
        after the shared chain: each migration once, in version order, in its own transaction, recorded in
        ``system_migrations`` under the folder's chain. Safe to call again (what is applied is skipped). Returns
        what it applied: (chain, version, name)."""
        done: list[tuple[str, int, str]] = []
        conn = self._conn.cursor()  # not the writer's: the store may be running
        try:
            conn.execute(sql("chain_ledger"))
            for folder in folders:
                applied = {row[0] for row in conn.execute(sql("chain_applied"), {"chain": folder.chain}).fetchall()}
                for version, name, text in folder.migrations():
                    if version in applied:
                        continue
                    self._apply(conn, text, "chain_record", {"chain": folder.chain, "version": version, "name": name})
                    done.append((folder.chain, version, name))
        finally:
            conn.close()
        return done

    def _apply(self, conn: duckdb.DuckDBPyConnection, text: str, ledger: str, row: dict[str, Any]) -> None:
        conn.begin()
        try:
            conn.execute(text)
            conn.execute(sql(ledger), row | {"applied_at": iso_utc(self._clock())})
            conn.commit()
        except BaseException:
            conn.rollback()
            raise

    # -- reads: one cursor per thread -----------------------------------------------------------------
    def _cursor(self) -> duckdb.DuckDBPyConnection:
        if self._closed:
            raise RuntimeError("the event store is closed")
        cursor = getattr(self._local, "cursor", None)
        if cursor is None:
            cursor = self._conn.cursor()
            self._local.cursor = cursor
            with self._cursors_lock:
                self._cursors.append(cursor)
        return cursor

    def read(self, game_id: str, from_seq: int = 1, to_seq: int | None = None) -> list[StoredEvent]:
        check_seq_args(from_seq, to_seq)
        rows = self._cursor().execute(
            sql("read_events"),
            {"game_id": game_id, "from_seq": from_seq, "to_seq": _NO_END if to_seq is None else to_seq},
        ).fetchall()
        return self._stream(game_id, from_seq, to_seq, rows)

    def find_idempotent(self, game_id: str, idempotency_key: str) -> AppendResult | None:
        cursor = self._cursor()
        rows = cursor.execute(sql("find_idempotency_key"), {"game_id": game_id, "key": idempotency_key}).fetchall()
        if not rows:
            raise GameNotFound(game_id)
        first, last = rows[0]
        if first is None:
            return None
        rows = cursor.execute(sql("read_events"), {"game_id": game_id, "from_seq": first, "to_seq": last}).fetchall()
        return AppendResult(game_id, first, last, self._stream(game_id, first, last, rows), replayed=True)

    @staticmethod
    def _stream(game_id: str, from_seq: int, to_seq: int | None, rows: list[tuple]) -> list[StoredEvent]:
        if not rows:
            raise GameNotFound(game_id)
        last = rows[0][0] if to_seq is None else min(to_seq, rows[0][0])
        events = [
            StoredEvent(game_id, seq, type_, version, payload.encode("utf-8"), recorded_at, hash_)
            for _, seq, type_, version, payload, recorded_at, hash_ in rows
            if seq is not None and seq <= last
        ]
        return check_stream(game_id, from_seq, last, events)

    def last_seq(self, game_id: str) -> int:
        return self._game_row(game_id)[6]

    def last_seqs(self, game_ids: Sequence[str]) -> dict[str, int]:
        """From the row cache (kept in step by the writer, see ``_game_row``), and one statement for the games
        not cached, whose rows are cached then: the live streams' check of every watched game each second costs
        dict lookups, not a statement per game (nor a scan of the games table)."""
        rows = self._rows
        found: dict[str, int] = {}
        missing: list[str] = []
        for game_id in game_ids:
            row = rows.get(game_id)
            if row is None:
                missing.append(game_id)
            else:
                found[game_id] = row[6]
        if missing:
            generation = self._generation
            fetched = self._cursor().execute(sql("get_games"), {"game_ids": missing}).fetchall()
            with self._rows_lock:
                keep = generation == self._generation  # as in _game_row: a read that raced a commit is not cached
                if keep and len(self._rows) + len(fetched) > _ROW_CACHE_LIMIT:
                    self._rows.clear()
                for row in fetched:
                    found[row[0]] = row[6]
                    if keep:
                        self._rows[row[0]] = row
        return found

    @staticmethod
    def _record(row: tuple) -> GameRecord:
        """A stream's row (get_game.sql: with its kind last) or a game's (list_games.sql) as a GameRecord."""
        game_id, system, created_at, players, tournament, metadata, last_seq = row[:7]
        try:
            decoded = msgspec.json.decode(metadata)
        except msgspec.DecodeError as error:
            raise CorruptRecord(game_id, 0, f"game metadata is not valid JSON: {error}") from None
        if not isinstance(decoded, dict):
            raise CorruptRecord(game_id, 0, "game metadata is not a JSON object")
        return GameRecord(game_id, system, created_at, players, tournament, decoded, last_seq)

    def get_game(self, game_id: str) -> GameRecord:
        row = self._game_row(game_id)
        if row[7] != GAME:
            raise GameNotFound(game_id)
        return self._record(row)

    def get_stream(self, stream_id: str) -> StreamRecord:
        return self._stream_record(self._game_row(stream_id))

    @classmethod
    def _stream_record(cls, row: tuple) -> StreamRecord:
        game = cls._record(row)
        return StreamRecord(game.game_id, row[7], game.system, game.created_at, game.metadata, game.last_seq)

    def list_streams(self, kind: str, limit: int = 50, cursor: str | None = None) -> StreamPage:
        check_limit(limit)
        after_created_at, after_stream_id = decode_cursor(cursor) if cursor is not None else ("", "")
        rows = self._cursor().execute(
            sql("list_streams"),
            {"kind": kind, "after_created_at": after_created_at, "after_stream_id": after_stream_id,
             "limit": limit + 1},
        ).fetchall()
        streams = [self._stream_record(row) for row in rows[:limit]]
        if len(rows) > limit:
            return StreamPage(streams, encode_cursor(streams[-1].created_at, streams[-1].stream_id))
        return StreamPage(streams, None)

    def _game_row(self, game_id: str) -> tuple:
        """The stream's row (get_game.sql: a game's, or a stream's of another kind), from the row cache or the
        database. Every write goes through this store's writer,
        which updates cached rows after each commit, so a cached row is never behind a committed one. A row read
        from the database is cached only if no commit happened since the read began (``_generation``): a read
        that raced a commit cannot put an old row back. A statement costs about a millisecond; under load
        get_game was 28% of the server's samples (py-spy, 128 clients), hence the cache."""
        row = self._rows.get(game_id)
        if row is not None:
            return row
        generation = self._generation
        rows = self._cursor().execute(sql("get_game"), {"game_id": game_id}).fetchall()
        if not rows:
            raise GameNotFound(game_id)
        row = rows[0]
        with self._rows_lock:
            if generation == self._generation:
                if len(self._rows) >= _ROW_CACHE_LIMIT:
                    self._rows.clear()
                self._rows[game_id] = row
        return row

    def _refresh_rows(self, last: dict[str, int], metadata: dict[str, dict[str, Any]]) -> None:
        """Writer thread, after a commit: cached rows take the new last seqs and metadata."""
        with self._rows_lock:
            self._generation += 1
            rows = self._rows
            for game_id, seq in last.items():
                row = rows.get(game_id)
                if row is not None:
                    rows[game_id] = (*row[:6], seq, *row[7:])
            for game_id, merged in metadata.items():
                row = rows.get(game_id)
                if row is not None:
                    rows[game_id] = (*row[:5], msgspec.json.encode(merged).decode(), *row[6:])

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
        rows = self._cursor().execute(
            sql("list_games_newest" if newest_first else "list_games"),
            {
                "system": system,
                "player": player,
                "tournament": tournament,
                "army": army,
                "over": over,
                "after_created_at": after_created_at,
                "after_game_id": after_game_id,
                "limit": limit + 1,
            },
        ).fetchall()
        games = [self._record(row) for row in rows[:limit]]
        if len(rows) > limit:
            return Page(games, encode_cursor(games[-1].created_at, games[-1].game_id))
        return Page(games, None)

    # -- catalogues: written on the caller's cursor, not the writer's (a table of their own, no game's rows) ----
    def add_catalogue(self, catalogue_id: str, system: str, name: str, version: str,
                      document: bytes) -> tuple[CatalogueRecord, bool]:
        params = {"catalogue_id": catalogue_id, "system": system, "name": name, "version": version,
                  "document": bytes(document).decode("utf-8"), "created_at": iso_utc(self._clock())}
        cursor = self._cursor()
        for _ in range(_CATALOGUE_TRIES):
            try:
                added = bool(cursor.execute(sql("catalogue_insert"), params).fetchall())
                return self.get_catalogue(catalogue_id), added
            except (duckdb.ConstraintException, duckdb.TransactionException):
                # Another thread is storing the same catalogue and has not committed yet (ON CONFLICT sees only
                # committed rows): once it has, the next try finds its row; if it rolled back, stores this one.
                time.sleep(0.001)
        raise StoreError(f"catalogue {catalogue_id!r}: could not be stored beside a concurrent write of it")

    # -- annotations (issue 32): on the caller's cursor too, a table of their own beside the log ------------------
    def add_annotation(self, game_id: str, step: int, text: str, role: str, author: str) -> Annotation:
        self.get_game(game_id)  # GameNotFound
        now = iso_utc(self._clock())
        params = {"game_id": game_id, "step": step, "text": text, "role": role, "author": author, "created_at": now}
        cursor = self._cursor()
        for _ in range(ANNOTATION_RETRIES):
            try:
                with self._annotating:
                    (n,) = cursor.execute(sql("annotation_insert"), params).fetchall()[0]
            except (duckdb.ConstraintException, duckdb.TransactionException):
                time.sleep(0.001)  # a conflict with another write of the table: number it again
                continue
            return Annotation(game_id, int(n), step, text, role, author, now)
        raise StoreError(f"game {game_id!r}: the annotation could not be numbered beside concurrent ones")

    def annotations(self, game_id: str) -> list[Annotation]:
        rows = self._cursor().execute(sql("annotation_list"), {"game_id": game_id}).fetchall()
        return [annotation(row) for row in rows]

    def get_catalogue(self, catalogue_id: str) -> CatalogueRecord:
        rows = self._cursor().execute(sql("catalogue_get"), {"catalogue_id": catalogue_id}).fetchall()
        if not rows:
            raise CatalogueNotFound(catalogue_id)
        return catalogue_record(rows[0])

    def list_catalogues(self, system: str | None = None) -> list[CatalogueRecord]:
        rows = self._cursor().execute(sql("catalogue_list"), {"system": system or ""}).fetchall()
        return [catalogue_record(row) for row in rows]

    def get_snapshot(self, game_id: str, at_or_before: int) -> tuple[int, bytes] | None:
        rows = self._cursor().execute(
            sql("get_snapshot"), {"game_id": game_id, "at_or_before": at_or_before}
        ).fetchall()
        if not rows:
            raise GameNotFound(game_id)
        seq, state = rows[0]
        return None if seq is None else (seq, bytes(state))

    # -- hooks for derived data kept in step with the log (replay/analytics/projections.py) ---------------------
    def add_commit_listener(self, listener: Callable[[list[str]], None]) -> None:
        """Call ``listener(game_ids)`` on the writer thread after every commit that stored events, with the ids of
        the games that got new events. It must return quickly (e.g. hand the ids to another thread); an exception
        it raises is ignored."""
        self._commit_listeners.append(listener)

    def remove_commit_listener(self, listener: Callable[[list[str]], None]) -> None:
        if listener in self._commit_listeners:
            self._commit_listeners.remove(listener)

    def reader(self) -> duckdb.DuckDBPyConnection:
        """A new cursor on the store's database for code outside the store (projections, statistics). It sees
        committed data only; the caller closes it (before ``close()``) and must not write the store's tables.
        Read each result to its end (``fetchall``): see the module docstring on open transactions."""
        if self._closed:
            raise RuntimeError("the event store is closed")
        return self._conn.cursor()

    # -- writes: enqueue and wait ---------------------------------------------------------------------
    def _submit(self, request: _Request) -> Any:
        with self._submit_lock:
            if self._closed:
                raise RuntimeError("the event store is closed")
            self._queue.put(request)
        return request.future.result()

    def create_game(
        self,
        game_id: str,
        system: str,
        players: list[str],
        metadata: dict[str, Any],
        events: Sequence[NewEvent],
        tournament: str | None = None,
    ) -> AppendResult:
        check_batch(events, allow_empty=True)
        check_metadata(metadata)
        return self._submit(
            _Create(game_id, system, list(players), dict(metadata), tournament, _Columns.of(events), Future())
        )

    def create_stream(
        self, stream_id: str, kind: str, system: str, metadata: dict[str, Any], events: Sequence[NewEvent]
    ) -> AppendResult:
        check_kind(kind)
        check_batch(events, allow_empty=True)
        check_metadata(metadata)
        return self._submit(_Create(stream_id, system, [], dict(metadata), None, _Columns.of(events), Future(), kind))

    def append(
        self,
        game_id: str,
        events: Sequence[NewEvent],
        expected_seq: int | None = None,
        idempotency_key: str | None = None,
    ) -> AppendResult:
        check_batch(events)
        return self._submit(_Append(game_id, _Columns.of(events), expected_seq, idempotency_key, Future()))

    def append_future(
        self,
        game_id: str,
        events: Sequence[NewEvent],
        expected_seq: int | None = None,
        idempotency_key: str | None = None,
    ) -> Future[AppendResult]:
        """``append`` without waiting: the future holds its ``AppendResult`` (or its error) once the group commit
        that carries it is durable. For callers on an event loop (``asyncio.wrap_future``)."""
        check_batch(events)
        request = _Append(game_id, _Columns.of(events), expected_seq, idempotency_key, Future())
        with self._submit_lock:
            if self._closed:
                raise RuntimeError("the event store is closed")
            self._queue.put(request)
        return request.future

    def create_games_bulk(self, games: Sequence[BulkGame]) -> int:
        """Create many games with all their events in ONE transaction: all or none (``GameExists`` if any id is
        taken). For imports; the columns (an Arrow table when pyarrow is installed: about 4x faster than bound
        lists) are built on the calling thread, the writer only inserts them. Returns the number of events."""
        if len({g.game_id for g in games}) != len(games):
            raise ValueError("create_games_bulk: a game id occurs twice")
        columns: dict[str, list[Any]] = {k: [] for k in ("game_id", "seq", "type", "schema_version", "payload", "hash")}
        for game in games:
            n = len(game.types)
            if not len(game.schema_versions) == len(game.payloads) == len(game.hashes) == n:
                raise ValueError(f"game {game.game_id!r}: its event columns differ in length")
            try:
                for payload in game.payloads:
                    _check_json(payload)
            except msgspec.DecodeError as error:
                raise ValueError(f"game {game.game_id!r}: an event payload is not valid JSON: {error}") from None
            check_metadata(game.metadata)
            columns["game_id"].extend([game.game_id] * n)
            columns["seq"].extend(range(1, n + 1))
            columns["type"].extend(game.types)
            columns["schema_version"].extend(game.schema_versions)
            columns["payload"].extend(game.payloads)
            columns["hash"].extend(game.hashes)
        try:
            import pyarrow  # type: ignore[import-not-found,unused-ignore]  # optional (the bench extra)
        except ImportError:
            events: Any = columns
        else:
            events = pyarrow.table(
                {
                    "game_id": pyarrow.array(columns["game_id"], pyarrow.string()),
                    "seq": pyarrow.array(columns["seq"], pyarrow.int64()),
                    "type": pyarrow.array(columns["type"], pyarrow.string()),
                    "schema_version": pyarrow.array(columns["schema_version"], pyarrow.int32()),
                    "payload": pyarrow.array(columns["payload"], pyarrow.string()),
                    "hash": pyarrow.array(columns["hash"], pyarrow.string()),
                }
            )
        if games:
            self._submit(_BulkCreate(list(games), events, Future()))
        return len(columns["seq"])

    def update_metadata(self, game_id: str, patch: dict[str, Any]) -> None:
        check_metadata(patch, "patch")
        self._submit(_Patch(game_id, dict(patch), Future()))

    def put_snapshot(self, game_id: str, seq: int, state: bytes) -> None:
        self._submit(_Snapshot(game_id, seq, bytes(state), Future()))

    def close(self) -> None:
        with self._submit_lock:
            if self._closed:
                return
            self._closed = True
            self._queue.put(_STOP)
        _OPEN.discard(self)
        self._writer.join()
        with self._cursors_lock:
            for cursor in self._cursors:
                cursor.close()
            self._cursors.clear()
        self._writer_conn.close()
        self._conn.close()
        # Let go of the (closed) connection objects too: one still referenced at interpreter exit (say, by a store
        # object kept in a module's globals) makes DuckDB's bindings report it as leaked (see _OPEN).
        self._local = threading.local()
        self._writer_conn = self._conn = None  # type: ignore[assignment]

    # -- the writer thread ----------------------------------------------------------------------------
    def _write_loop(self) -> None:
        previous = 1
        while True:
            batch = [self._queue.get()]
            if previous > 1:
                # Callers are appending concurrently: the ones just answered are about to send their next request.
                # Waiting a moment for them turns alternating batches of 1 and N-1 into batches of N.
                time.sleep(LINGER_SECONDS)
            while len(batch) < MAX_BATCH:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            stop = any(request is _STOP for request in batch)
            requests = [request for request in batch if isinstance(request, _GameRequest)]
            for request in batch:
                if isinstance(request, _BulkCreate):
                    self._commit_bulk(request)
            if requests:
                try:
                    self._commit_batch(requests)
                except BaseException as error:  # a bug must not leave callers waiting forever
                    self._fail(requests, error)
            previous = len(requests)
            if stop:
                return

    def _commit_bulk(self, request: _BulkCreate) -> None:
        conn = self._writer_conn
        games = request.games
        recorded_at = iso_utc(self._clock())
        game_ids = [g.game_id for g in games]
        conn.begin()
        try:
            taken = conn.execute(sql("load_games"), {"game_ids": game_ids}).fetchall()
            if taken:
                raise GameExists(taken[0][0])
            conn.execute(
                sql("insert_games"),
                {
                    "game_ids": game_ids,
                    "kinds": [GAME] * len(games),
                    "systems": [g.system for g in games],
                    "created_ats": [recorded_at] * len(games),
                    "players": [g.players for g in games],
                    "tournaments": [g.tournament for g in games],
                    "metadatas": [msgspec.json.encode(g.metadata).decode() for g in games],
                    "last_seqs": [len(g.types) for g in games],
                },
            )
            if isinstance(request.events, dict):
                columns = request.events
                conn.execute(
                    sql("insert_events"),
                    {
                        "game_ids": columns["game_id"], "seqs": columns["seq"], "types": columns["type"],
                        "schema_versions": columns["schema_version"], "payloads": columns["payload"],
                        "recorded_ats": [recorded_at] * len(columns["seq"]), "hashes": columns["hash"],
                    },
                )
            else:
                conn.register("bulk_events", request.events)
                try:
                    conn.execute(sql("insert_events_arrow"), {"recorded_at": recorded_at})
                finally:
                    conn.unregister("bulk_events")
            conn.commit()
        except BaseException as error:
            try:
                conn.rollback()
            except duckdb.Error:
                pass
            request.future.set_exception(error)
            return
        with self._rows_lock:
            self._generation += 1  # new games only: no cached row changes
        for game in games:
            self._last[game.game_id] = len(game.types)
        request.future.set_result(None)
        for listener in list(self._commit_listeners):
            try:
                listener(game_ids)
            except Exception:  # a listener must never break the writer
                pass

    def _fail(self, requests: Sequence[_Request], error: BaseException) -> None:
        self._last.clear()
        self._keys.clear()
        with self._rows_lock:
            self._generation += 1
            self._rows.clear()
        for request in requests:
            if not request.future.done():
                request.future.set_exception(error)

    def _commit_batch(self, requests: list[_GameRequest]) -> None:
        conn = self._writer_conn
        if len(self._last) > _LAST_CACHE_LIMIT:
            self._last.clear()  # reloaded from the games table for the games a batch touches (_load)
        stored = self._load(requests)
        batch = _Batch(iso_utc(self._clock()))
        for request in requests:
            try:
                batch.answers.append((request, self._plan(batch, request, stored)))
            except (StoreError, ValueError) as error:
                request.future.set_exception(error)
        if not batch.answers:
            return
        conn.begin()
        try:
            self._write(conn, batch)
            conn.commit()
        except BaseException as error:
            try:
                conn.rollback()
            except duckdb.Error:
                pass
            failed = [request for request, _ in batch.answers]
            if len(failed) > 1 and isinstance(error, duckdb.Error):
                # Isolate the culprit: one bad request must not fail the other callers of its group commit.
                self._last.clear()
                self._keys.clear()
                for request in failed:
                    self._commit_batch([request])
                return
            self._fail(failed, error)
            return
        self._last.update(batch.last)
        self._refresh_rows(batch.last, batch.metadata)
        if len(self._keys) > _KEY_CACHE_LIMIT:
            self._keys.clear()
        for pair, result in batch.keys.items():
            self._keys[pair] = (result.first_seq, result.last_seq)
        for request, answer in batch.answers:
            request.future.set_result(answer)
        if self._commit_listeners and batch.events["seqs"]:
            changed = list(dict.fromkeys(batch.events["game_ids"]))
            for listener in list(self._commit_listeners):
                try:
                    listener(changed)
                except Exception:  # a listener must never break the writer
                    pass

    def _load(self, requests: list[_GameRequest]) -> dict[str, str]:
        """Fill the caches for the games and keys these requests touch; returns stored metadata of patched games."""
        wanted = {r.game_id for r in requests if r.game_id not in self._last or isinstance(r, _Patch)}
        metadata: dict[str, str] = {}
        if wanted:
            rows = self._writer_conn.execute(sql("load_games"), {"game_ids": sorted(wanted)}).fetchall()
            for game_id, last_seq, game_metadata in rows:
                self._last[game_id] = last_seq
                metadata[game_id] = game_metadata
        pairs = {
            (r.game_id, r.idempotency_key)
            for r in requests
            if isinstance(r, _Append) and r.idempotency_key is not None
            and (r.game_id, r.idempotency_key) not in self._keys
            and r.game_id in self._last
        }
        if pairs:
            game_ids, keys = zip(*sorted(pairs), strict=True)
            rows = self._writer_conn.execute(
                sql("find_idempotency_keys"), {"game_ids": list(game_ids), "keys": list(keys)}
            ).fetchall()
            for game_id, key, first_seq, last_seq in rows:
                self._keys[(game_id, key)] = (first_seq, last_seq)
        return metadata

    def _plan(self, batch: _Batch, request: _GameRequest, stored_metadata: dict[str, str]) -> Any:
        game_id = request.game_id
        current = batch.last.get(game_id, self._last.get(game_id))
        if isinstance(request, _Create):
            if current is not None:
                raise GameExists(game_id)
            batch.new_games[game_id] = request
            batch.last[game_id] = 0
            return batch.add_events(game_id, 1, request.columns)
        if current is None:
            raise GameNotFound(game_id)
        match request:
            case _Append(expected_seq=expected_seq, idempotency_key=key):
                if key is not None:
                    replay = self._replay(batch, game_id, key)
                    if replay is not None:
                        return replay
                if expected_seq is not None and expected_seq != current:
                    raise Conflict(game_id, expected_seq, current)
                result = batch.add_events(game_id, current + 1, request.columns)
                if key is not None:
                    batch.keys[(game_id, key)] = result
                return result
            case _Patch(patch=patch):
                if game_id in batch.new_games:
                    base = batch.new_games[game_id].metadata
                elif game_id in batch.metadata:
                    base = batch.metadata[game_id]
                else:
                    base = msgspec.json.decode(stored_metadata[game_id])
                merged = base | patch
                if game_id in batch.new_games:
                    batch.new_games[game_id].metadata = merged
                else:
                    batch.metadata[game_id] = merged
                return None
            case _Snapshot(seq=seq, state=state):
                if not 0 <= seq <= current:
                    raise ValueError(f"game {game_id!r}: snapshot seq {seq} is outside 0..{current}")
                batch.snapshots[(game_id, seq)] = state
                return None
        raise AssertionError(f"unknown request {request!r}")

    def _replay(self, batch: _Batch, game_id: str, key: str) -> AppendResult | None:
        if (game_id, key) in batch.keys:
            return msgspec.structs.replace(batch.keys[(game_id, key)], replayed=True)
        if (game_id, key) not in self._keys:
            return None
        first, last = self._keys[(game_id, key)]
        rows = self._writer_conn.execute(
            sql("read_events"), {"game_id": game_id, "from_seq": first, "to_seq": last}
        ).fetchall()
        events = self._stream(game_id, first, last, rows)
        return AppendResult(game_id, first, last, events, replayed=True)

    def _write(self, conn: duckdb.DuckDBPyConnection, batch: _Batch) -> None:
        if batch.new_games:
            games = list(batch.new_games.values())
            conn.execute(
                sql("insert_games"),
                {
                    "game_ids": [g.game_id for g in games],
                    "kinds": [g.kind for g in games],
                    "systems": [g.system for g in games],
                    "created_ats": [batch.recorded_at] * len(games),
                    "players": [g.players for g in games],
                    "tournaments": [g.tournament for g in games],
                    "metadatas": [msgspec.json.encode(g.metadata).decode() for g in games],
                    "last_seqs": [batch.last[g.game_id] for g in games],
                },
            )
        events = batch.events
        if len(events["seqs"]) == 1:  # single-row statements cost about half as much as the bulk ones
            conn.execute(sql("insert_event"), {_SINGULAR[name]: column[0] for name, column in events.items()})
        elif events["seqs"]:
            conn.execute(sql("insert_events"), events)
        moved = [game_id for game_id in batch.last if game_id not in batch.new_games]
        if len(moved) == 1:
            conn.execute(sql("update_last_seq"), {"game_id": moved[0], "last_seq": batch.last[moved[0]]})
        elif moved:
            conn.execute(
                sql("update_last_seqs"),
                {"game_ids": moved, "last_seqs": [batch.last[game_id] for game_id in moved]},
            )
        if batch.metadata:
            conn.execute(
                sql("update_metadatas"),
                {
                    "game_ids": list(batch.metadata),
                    "metadatas": [msgspec.json.encode(m).decode() for m in batch.metadata.values()],
                },
            )
        if batch.keys:
            results = list(batch.keys.values())
            conn.execute(
                sql("insert_idempotency_keys"),
                {
                    "game_ids": [r.game_id for r in results],
                    "keys": [key for _, key in batch.keys],
                    "first_seqs": [r.first_seq for r in results],
                    "last_seqs": [r.last_seq for r in results],
                },
            )
        if batch.snapshots:
            conn.execute(
                sql("upsert_snapshots"),
                {
                    "game_ids": [game_id for game_id, _ in batch.snapshots],
                    "seqs": [seq for _, seq in batch.snapshots],
                    "states": list(batch.snapshots.values()),
                },
            )
