"""Where tournament logs live: in memory (tests, throwaway servers), or in DuckDB or PostgreSQL next to the games.

The DuckDB log uses its own tables (``replay/sql/migrations/003_tournaments.sql``, applied by the event store on
open) through a cursor from ``DuckDBEventStore.reader()``. Writes are rare (an organiser's clicks): one lock, one
transaction per append; ``PRIMARY KEY (tournament_id, seq)`` backs the ``expected_seq`` check.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from typing import Any

from replay.store.base import Clock, SharedLog, SqlReadable, iso_utc, utc_now
from replay.store.sql import sql
from replay.tournaments.model import LoggedEvent, TournamentConflict, TournamentNotFound


class MemoryTournamentLog:
    def __init__(self, clock: Clock = utc_now) -> None:
        self._clock = clock
        self._logs: dict[str, list[LoggedEvent]] = {}
        self._lock = threading.Lock()

    def append(self, tournament_id: str, events: Sequence[tuple[str, dict[str, Any]]], expected_seq: int) -> int:
        with self._lock:
            log = self._logs.get(tournament_id)
            last = len(log) if log is not None else 0
            if (log is None) != (expected_seq == 0) or last != expected_seq:
                raise TournamentConflict(
                    f"tournament {tournament_id!r} changed (expected seq {expected_seq}, is {last})"
                )
            now = iso_utc(self._clock())
            new = [
                LoggedEvent(last + i, kind, json.loads(json.dumps(data)), now)
                for i, (kind, data) in enumerate(events, 1)
            ]
            self._logs.setdefault(tournament_id, []).extend(new)
            return last + len(new)

    def read(self, tournament_id: str) -> list[LoggedEvent]:
        with self._lock:
            log = self._logs.get(tournament_id)
            if log is None:
                raise TournamentNotFound(tournament_id)
            return list(log)

    def list_ids(self, limit: int = 100) -> list[str]:
        with self._lock:
            return list(self._logs)[:limit]

    def close(self) -> None:
        pass


class DuckDBTournamentLog:
    def __init__(self, cursor_factory: Callable[[], Any], clock: Clock = utc_now) -> None:
        self._conn = cursor_factory()
        self._clock = clock
        self._lock = threading.Lock()  # a DuckDB cursor serves one thread at a time

    def append(self, tournament_id: str, events: Sequence[tuple[str, dict[str, Any]]], expected_seq: int) -> int:
        import duckdb

        now = iso_utc(self._clock())
        with self._lock:
            conn = self._conn
            conn.begin()
            try:
                row = conn.execute(sql("tournament_last_seq"), {"tournament_id": tournament_id}).fetchone()
                last = row[0] if row is not None else 0
                if (row is None) != (expected_seq == 0) or last != expected_seq:
                    raise TournamentConflict(
                        f"tournament {tournament_id!r} changed (expected seq {expected_seq}, is {last})"
                    )
                new_last = last + len(events)
                if row is None:
                    conn.execute(
                        sql("tournament_insert"),
                        {"tournament_id": tournament_id, "created_at": now, "last_seq": new_last},
                    )
                else:
                    conn.execute(sql("tournament_update_seq"), {"tournament_id": tournament_id, "last_seq": new_last})
                conn.execute(
                    sql("tournament_insert_events"),
                    {
                        "tournament_id": tournament_id,
                        "seqs": list(range(last + 1, new_last + 1)),
                        "types": [kind for kind, _ in events],
                        "payloads": [json.dumps(data) for _, data in events],
                        "recorded_at": now,
                    },
                )
                conn.commit()
            except duckdb.ConstraintException as exc:
                conn.rollback()
                raise TournamentConflict(f"tournament {tournament_id!r} changed: {exc}") from None
            except BaseException:
                conn.rollback()
                raise
            return new_last

    def read(self, tournament_id: str) -> list[LoggedEvent]:
        with self._lock:
            rows = self._conn.execute(sql("tournament_read_events"), {"tournament_id": tournament_id}).fetchall()
        if not rows:
            raise TournamentNotFound(tournament_id)
        return [LoggedEvent(seq, kind, json.loads(payload), at) for seq, kind, payload, at in rows]

    def list_ids(self, limit: int = 100) -> list[str]:
        with self._lock:
            return [r[0] for r in self._conn.execute(sql("tournament_list"), {"limit": limit}).fetchall()]

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None  # no DuckDB object left for exit (store_duckdb._OPEN)


class PostgresTournamentLog:
    """Tournament logs in the PostgreSQL store's database (its tables ``tournaments`` and ``tournament_events``),
    through the store's pooled connections: every server process sees the same tournaments. The tournament's row
    is locked for the append's transaction; two creators of one id meet its primary key."""

    def __init__(self, store: Any, clock: Clock = utc_now) -> None:
        self._store = store
        self._clock = clock

    def append(self, tournament_id: str, events: Sequence[tuple[str, dict[str, Any]]], expected_seq: int) -> int:
        import psycopg.errors

        from replay.store.postgres_store import PG

        now = iso_utc(self._clock())
        try:
            with self._store.connection() as conn, conn.transaction():
                rows = conn.execute(PG("tournament_last_seq"), {"tournament_id": tournament_id}).fetchall()
                last = rows[0][0] if rows else 0
                if (not rows) != (expected_seq == 0) or last != expected_seq:
                    raise TournamentConflict(
                        f"tournament {tournament_id!r} changed (expected seq {expected_seq}, is {last})"
                    )
                new_last = last + len(events)
                if not rows:
                    conn.execute(
                        PG("tournament_insert"),
                        {"tournament_id": tournament_id, "created_at": now, "last_seq": new_last},
                    )
                else:
                    conn.execute(PG("tournament_update_seq"), {"tournament_id": tournament_id, "last_seq": new_last})
                conn.execute(
                    PG("tournament_insert_events"),
                    {
                        "tournament_id": tournament_id,
                        "seqs": list(range(last + 1, new_last + 1)),
                        "types": [kind for kind, _ in events],
                        "payloads": [json.dumps(data) for _, data in events],
                        "recorded_at": now,
                    },
                )
        except psycopg.errors.UniqueViolation as exc:
            raise TournamentConflict(f"tournament {tournament_id!r} changed: {exc}") from None
        return new_last

    def read(self, tournament_id: str) -> list[LoggedEvent]:
        from replay.store.postgres_store import PG

        with self._store.connection() as conn:
            rows = conn.execute(PG("tournament_read_events"), {"tournament_id": tournament_id}).fetchall()
        if not rows:
            raise TournamentNotFound(tournament_id)
        return [LoggedEvent(seq, kind, json.loads(payload), at) for seq, kind, payload, at in rows]

    def list_ids(self, limit: int = 100) -> list[str]:
        from replay.store.postgres_store import PG

        with self._store.connection() as conn:
            return [r[0] for r in conn.execute(PG("tournament_list"), {"limit": limit}).fetchall()]

    def close(self) -> None:
        pass  # the connections are the store's


def tournament_log_for(store: Any) -> MemoryTournamentLog | DuckDBTournamentLog | PostgresTournamentLog:
    """The DuckDB log when the store is DuckDB (same file), the PostgreSQL one when the store is PostgreSQL (same
    database), else one in memory."""
    if isinstance(store, SqlReadable):
        return DuckDBTournamentLog(store.reader)
    if isinstance(store, SharedLog):
        return store.tournament_log()
    return MemoryTournamentLog()
