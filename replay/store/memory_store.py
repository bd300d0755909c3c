"""The in-memory event store: the contract's semantics with a dict and one lock. For tests and `:memory:` demos."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import msgspec

from replay.errors import CatalogueNotFound, Conflict, GameExists, GameNotFound
from replay.store.base import (
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
    check_batch,
    check_kind,
    check_limit,
    check_metadata,
    check_seq_args,
    check_stream,
    decode_cursor,
    encode_cursor,
    has_army,
    iso_utc,
    utc_now,
)


class _Game(msgspec.Struct):
    """A stream of any kind (a game's, or another's: ``kind``)."""

    kind: str
    system: str
    created_at: str
    players: list[str]
    tournament: str | None
    metadata: bytes  # JSON, so callers never share a mutable dict with the store
    events: list[StoredEvent]
    keys: dict[str, tuple[int, int]]  # idempotency key -> (first_seq, last_seq) of its first answer
    snapshots: dict[int, bytes]


class MemoryEventStore:
    def __init__(self, clock: Clock = utc_now) -> None:
        self._clock = clock
        self._games: dict[str, _Game] = {}
        self._catalogues: dict[str, CatalogueRecord] = {}
        self._annotations: dict[str, list[Annotation]] = {}
        self._lock = threading.Lock()

    def _game(self, game_id: str) -> _Game:
        try:
            return self._games[game_id]
        except KeyError:
            raise GameNotFound(game_id) from None

    def _store(self, game_id: str, game: _Game, events: Sequence[NewEvent], now: str) -> AppendResult:
        first = len(game.events) + 1
        stored = [
            StoredEvent(game_id, first + i, e.type, e.schema_version, e.payload, now, e.hash)
            for i, e in enumerate(events)
        ]
        game.events.extend(stored)
        return AppendResult(game_id, first, first + len(stored) - 1, stored, replayed=False)

    def create_game(
        self,
        game_id: str,
        system: str,
        players: list[str],
        metadata: dict[str, Any],
        events: Sequence[NewEvent],
        tournament: str | None = None,
    ) -> AppendResult:
        return self._create(game_id, GAME, system, list(players), tournament, metadata, events)

    def create_stream(
        self, stream_id: str, kind: str, system: str, metadata: dict[str, Any], events: Sequence[NewEvent]
    ) -> AppendResult:
        check_kind(kind)
        return self._create(stream_id, kind, system, [], None, metadata, events)

    def _create(self, stream_id: str, kind: str, system: str, players: list[str], tournament: str | None,
                metadata: dict[str, Any], events: Sequence[NewEvent]) -> AppendResult:
        check_batch(events, allow_empty=True)
        metadata_json = check_metadata(metadata)
        with self._lock:
            if stream_id in self._games:
                raise GameExists(stream_id)
            now = iso_utc(self._clock())
            stream = _Game(kind, system, now, players, tournament, metadata_json, [], {}, {})
            self._games[stream_id] = stream
            return self._store(stream_id, stream, events, now)

    def get_stream(self, stream_id: str) -> StreamRecord:
        with self._lock:
            return self._stream_record(stream_id, self._game(stream_id))

    @staticmethod
    def _stream_record(stream_id: str, stream: _Game) -> StreamRecord:
        metadata = msgspec.json.decode(stream.metadata)
        return StreamRecord(stream_id, stream.kind, stream.system, stream.created_at, metadata, len(stream.events))

    def list_streams(self, kind: str, limit: int = 50, cursor: str | None = None) -> StreamPage:
        check_limit(limit)
        after = decode_cursor(cursor) if cursor is not None else ("", "")
        with self._lock:
            keys = sorted((s.created_at, stream_id) for stream_id, s in self._games.items() if s.kind == kind)
            found = [self._stream_record(stream_id, self._games[stream_id])
                     for created_at, stream_id in keys if (created_at, stream_id) > after][: limit + 1]
        if len(found) > limit:
            last = found[limit - 1]
            return StreamPage(found[:limit], encode_cursor(last.created_at, last.stream_id))
        return StreamPage(found, None)

    def append(
        self,
        game_id: str,
        events: Sequence[NewEvent],
        expected_seq: int | None = None,
        idempotency_key: str | None = None,
    ) -> AppendResult:
        check_batch(events)
        with self._lock:
            game = self._game(game_id)
            if idempotency_key is not None and idempotency_key in game.keys:
                first, last = game.keys[idempotency_key]
                return AppendResult(game_id, first, last, game.events[first - 1 : last], replayed=True)
            if expected_seq is not None and expected_seq != len(game.events):
                raise Conflict(game_id, expected_seq, len(game.events))
            result = self._store(game_id, game, events, iso_utc(self._clock()))
            if idempotency_key is not None:
                game.keys[idempotency_key] = (result.first_seq, result.last_seq)
            return result

    def find_idempotent(self, game_id: str, idempotency_key: str) -> AppendResult | None:
        with self._lock:
            game = self._game(game_id)
            if idempotency_key not in game.keys:
                return None
            first, last = game.keys[idempotency_key]
            return AppendResult(game_id, first, last, game.events[first - 1 : last], replayed=True)

    def read(self, game_id: str, from_seq: int = 1, to_seq: int | None = None) -> list[StoredEvent]:
        check_seq_args(from_seq, to_seq)
        with self._lock:
            game = self._game(game_id)
            last = len(game.events) if to_seq is None else min(to_seq, len(game.events))
            return check_stream(game_id, from_seq, last, game.events[from_seq - 1 : last])

    def last_seq(self, game_id: str) -> int:
        with self._lock:
            return len(self._game(game_id).events)

    def last_seqs(self, game_ids: Sequence[str]) -> dict[str, int]:
        with self._lock:
            games = self._games
            return {game_id: len(games[game_id].events) for game_id in game_ids if game_id in games}

    def _record(self, game_id: str, game: _Game) -> GameRecord:
        metadata = msgspec.json.decode(game.metadata)
        return GameRecord(
            game_id, game.system, game.created_at, list(game.players), game.tournament, metadata, len(game.events)
        )

    def get_game(self, game_id: str) -> GameRecord:
        with self._lock:
            game = self._game(game_id)
            if game.kind != GAME:
                raise GameNotFound(game_id)
            return self._record(game_id, game)

    def update_metadata(self, game_id: str, patch: dict[str, Any]) -> None:
        check_metadata(patch, "patch")
        with self._lock:
            game = self._game(game_id)
            merged = msgspec.json.decode(game.metadata) | patch
            game.metadata = msgspec.json.encode(merged)

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
        after = decode_cursor(cursor) if cursor is not None else None
        with self._lock:
            keys = sorted(((g.created_at, game_id) for game_id, g in self._games.items() if g.kind == GAME),
                          reverse=newest_first)
            found: list[GameRecord] = []
            for created_at, game_id in keys:
                game = self._games[game_id]
                if after is not None and ((created_at, game_id) >= after if newest_first
                                          else (created_at, game_id) <= after):
                    continue
                if system is not None and game.system != system:
                    continue
                if player is not None and player not in game.players:
                    continue
                if tournament is not None and game.tournament != tournament:
                    continue
                if army is not None or over is not None:
                    metadata = msgspec.json.decode(game.metadata)
                    if army is not None and not has_army(metadata, army):
                        continue
                    if over is not None and (metadata.get("status") == "over") != over:
                        continue
                found.append(self._record(game_id, game))
                if len(found) > limit:
                    break
        if len(found) > limit:
            last = found[limit - 1]
            return Page(found[:limit], encode_cursor(last.created_at, last.game_id))
        return Page(found, None)

    def put_snapshot(self, game_id: str, seq: int, state: bytes) -> None:
        with self._lock:
            game = self._game(game_id)
            if not 0 <= seq <= len(game.events):
                raise ValueError(f"game {game_id!r}: snapshot seq {seq} is outside 0..{len(game.events)}")
            game.snapshots[seq] = bytes(state)

    def get_snapshot(self, game_id: str, at_or_before: int) -> tuple[int, bytes] | None:
        with self._lock:
            game = self._game(game_id)
            seqs = [seq for seq in game.snapshots if seq <= at_or_before]
            if not seqs:
                return None
            best = max(seqs)
            return best, game.snapshots[best]

    def add_catalogue(self, catalogue_id: str, system: str, name: str, version: str,
                      document: bytes) -> tuple[CatalogueRecord, bool]:
        with self._lock:
            stored = self._catalogues.get(catalogue_id)
            if stored is not None:
                return stored, False
            record = CatalogueRecord(catalogue_id, system, name, version, bytes(document), iso_utc(self._clock()))
            self._catalogues[catalogue_id] = record
            return record, True

    def get_catalogue(self, catalogue_id: str) -> CatalogueRecord:
        with self._lock:
            try:
                return self._catalogues[catalogue_id]
            except KeyError:
                raise CatalogueNotFound(catalogue_id) from None

    def list_catalogues(self, system: str | None = None) -> list[CatalogueRecord]:
        with self._lock:
            found = [c for c in self._catalogues.values() if system in (None, c.system)]
        return sorted(found, key=lambda c: (c.created_at, c.catalogue_id))

    def add_annotation(self, game_id: str, step: int, text: str, role: str, author: str) -> Annotation:
        with self._lock:
            if self._game(game_id).kind != GAME:
                raise GameNotFound(game_id)
            kept = self._annotations.setdefault(game_id, [])
            note = Annotation(game_id, len(kept) + 1, step, text, role, author, iso_utc(self._clock()))
            kept.append(note)
            return note

    def annotations(self, game_id: str) -> list[Annotation]:
        with self._lock:
            return list(self._annotations.get(game_id, ()))

    def close(self) -> None:
        with self._lock:
            self._games.clear()
            self._catalogues.clear()
            self._annotations.clear()
