"""Content hashes: find a game already stored whatever its id (``warlog import`` refuses a duplicate).

A game's content hash is SHA-256 (hex) of its events in order, each as ``type SP schema_version SP payload LF``:
the events only. Its id, the time it was stored and its hash chain (which starts from the id) are left out, so
the same game imported twice, or exported and imported into the database it came from, has the same content hash.

The DuckDB store keeps one hash per game in ``game_contents`` (migration 010), a table derived from the log like
the projections: ``duplicates_of`` first hashes, in SQL, every game that has no row or has had events since, then
looks the hash up through an index; the PostgreSQL store does the same in its database (migration 002,
``ContentFinding``). Other stores (the in-memory one) are scanned.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Any

from engine.system import GameSystem
from replay.store.base import ContentFinding, EventStore, SqlReadable
from replay.store.sql import sql


def content_hash(encoded: Iterable[tuple[str, int, bytes]]) -> str:
    """The content hash of (type, schema_version, payload JSON) triples, in seq order."""
    digest = hashlib.sha256()
    for event_type, version, payload in encoded:
        digest.update(f"{event_type} {version} ".encode())
        digest.update(payload)
        digest.update(b"\n")
    return digest.hexdigest()


def events_hash(system: GameSystem, events: Sequence[Any]) -> str:
    """The content hash typed events would have once stored (encoded as ``GameService`` encodes them)."""
    codec = system.codec
    return content_hash(
        (type(e).tag_name(), codec.version_of(type(e).tag_name()), codec.encode_json(e)) for e in events
    )


def refresh(conn: Any) -> None:
    """Bring ``game_contents`` up to date with the log (one transaction)."""
    conn.begin()
    try:
        conn.execute(sql("contents_delete_stale"))
        conn.execute(sql("contents_insert_missing"))
        conn.commit()
    except BaseException:
        conn.rollback()
        raise


def duplicates_of(store: EventStore, digest: str) -> list[str]:
    """Ids of the stored games whose content hash is ``digest``, in id order."""
    if isinstance(store, ContentFinding):
        return store.games_with_content(digest)
    if isinstance(store, SqlReadable):
        import duckdb

        conn = store.reader()
        try:
            for attempt in range(3):  # a concurrent refresh (another thread) may write the same rows first: redo ours
                try:
                    refresh(conn)
                    break
                except (duckdb.TransactionException, duckdb.ConstraintException):
                    if attempt == 2:
                        raise
            return [row[0] for row in conn.execute(sql("contents_find"), {"content_hash": digest}).fetchall()]
        finally:
            conn.close()
    found = []
    cursor = None
    while True:
        page = store.list_games(limit=1000, cursor=cursor)
        for game in page.games:
            stored = store.read(game.game_id)
            if content_hash((e.type, e.schema_version, e.payload) for e in stored) == digest:
                found.append(game.game_id)
        cursor = page.next_cursor
        if cursor is None:
            return sorted(found)
