"""Where a tournament's log lives: a stream of kind ``tournament`` in the event store, beside the games' streams.

One store, one append: a tournament's events go through the store's ``create_stream`` and ``append`` (its
``expected_seq`` check, idempotency keys, commit notifications and migrations), in whichever backend holds the games
(memory, DuckDB, PostgreSQL: every server process on one database sees the same tournaments). A stored event is
the logged event's data with its ``type`` (as every event's payload carries it), schema version 1, and no hash
(a tournament's log is not hash-chained); old databases' tournament tables move into such streams by migration
(``replay/sql/migrations/014_streams.sql``, ``replay/sql/postgres/migrations/003_streams.sql``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import msgspec

from replay.errors import Conflict, GameExists, GameNotFound
from replay.store.base import EventStore, NewEvent
from replay.tournaments.model import LoggedEvent, TournamentConflict, TournamentNotFound

TOURNAMENT = "tournament"  # the kind of a tournament's stream
SCHEMA_VERSION = 1  # the version every tournament event is written with (fold reads every shape ever logged)
PAGE = 1000  # the most streams one list_streams call returns


class TournamentLog(Protocol):
    def append(self, tournament_id: str, events: Sequence[tuple[str, dict[str, Any]]], expected_seq: int,
               idempotency_key: str | None = None) -> int:
        """Append all or nothing after ``expected_seq`` (0 creates the tournament); ``TournamentConflict`` if
        stale or taken. A key seen before for this tournament stores nothing and answers the first append's last
        seq. Returns the new last seq."""
        ...

    def read(self, tournament_id: str) -> list[LoggedEvent]:
        """The whole log; ``TournamentNotFound`` if there is none."""
        ...

    def list_ids(self, limit: int = 100) -> list[str]:
        """Tournament ids, oldest first."""
        ...


class StoreTournamentLog:
    """Tournament logs as streams of the event store (of kind ``tournament``)."""

    def __init__(self, store: EventStore) -> None:
        self.store = store

    def append(self, tournament_id: str, events: Sequence[tuple[str, dict[str, Any]]], expected_seq: int,
               idempotency_key: str | None = None) -> int:
        new = [NewEvent(kind, SCHEMA_VERSION, msgspec.json.encode({**data, "type": kind})) for kind, data in events]
        if expected_seq == 0:
            system = next((str(data.get("system", "")) for kind, data in events if kind == "tournament_created"), "")
            try:
                return self.store.create_stream(tournament_id, TOURNAMENT, system, {}, new).last_seq
            except GameExists:
                raise TournamentConflict(f"tournament {tournament_id!r} exists already") from None
        self._check_kind(tournament_id, TournamentConflict(f"there is no tournament {tournament_id!r} to change"))
        try:
            return self.store.append(tournament_id, new, expected_seq=expected_seq,
                                     idempotency_key=idempotency_key).last_seq
        except Conflict as exc:
            raise TournamentConflict(
                f"tournament {tournament_id!r} changed (expected seq {expected_seq}, is {exc.actual_seq})"
            ) from None

    def read(self, tournament_id: str) -> list[LoggedEvent]:
        self._check_kind(tournament_id, TournamentNotFound(tournament_id))
        return [LoggedEvent(e.seq, e.type, _data(e.payload), e.recorded_at) for e in self.store.read(tournament_id)]

    def list_ids(self, limit: int = 100) -> list[str]:
        ids: list[str] = []
        cursor: str | None = None
        while len(ids) < limit:
            page = self.store.list_streams(TOURNAMENT, min(PAGE, limit - len(ids)), cursor)
            ids.extend(stream.stream_id for stream in page.streams)
            if page.next_cursor is None:
                break
            cursor = page.next_cursor
        return ids

    def _check_kind(self, tournament_id: str, missing: Exception) -> None:
        """A tournament's stream has the id (never a game's: one id space, one kind a stream)."""
        try:
            kind = self.store.get_stream(tournament_id).kind
        except GameNotFound:
            raise missing from None
        if kind != TOURNAMENT:
            raise missing

    def close(self) -> None:
        pass  # the store is its owner's


def _data(payload: bytes) -> dict[str, Any]:
    """The logged event's data: the stored payload without the ``type`` every event's payload carries."""
    data = msgspec.json.decode(payload)
    if not isinstance(data, dict):
        raise TypeError("a tournament event's payload is a JSON object")
    data.pop("type", None)
    return data
