"""The event store: an append-only log of opaque JSON events per stream, behind a small Protocol.

The store knows nothing about game rules. It keeps, per stream, a gapless 1-based sequence of events and optional
snapshots (a cache the replay cursor may use; always rebuildable from the events). A stream has a kind: a game's
(``GAME``, with a `GameRecord`: system, players, tournament, free-form JSON metadata) or another's, such as a
tournament's log (``create_stream``, ``get_stream``, ``list_streams``). Every kind shares one id space and one
path for appends, ``expected_seq`` conflicts, idempotency keys, commit notifications and migrations; only games
are games (``get_game``, ``list_games``). Three backends honour the same contract:
`replay.store.memory_store.MemoryEventStore`, `replay.store.duckdb_store.DuckDBEventStore` and
`replay.store.postgres_store.PostgresEventStore` (several server processes on one database)
(see docs/store.md and tests/replay/test_store_contract.py).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from datetime import UTC, datetime
from typing import Any, Protocol, runtime_checkable

import msgspec

from replay.errors import CorruptRecord

Clock = Callable[[], datetime]


class NewEvent(msgspec.Struct, frozen=True):
    """An event to append: its tag, the schema version it is written with, and its JSON."""

    type: str
    schema_version: int
    payload: bytes  # the JSON of the event
    hash: str = ""


class StoredEvent(msgspec.Struct, frozen=True):
    game_id: str
    seq: int
    type: str
    schema_version: int
    payload: bytes
    recorded_at: str  # ISO-8601 UTC, set by the store
    hash: str


class GameRecord(msgspec.Struct, frozen=True):
    game_id: str
    system: str
    created_at: str
    players: list[str]
    tournament: str | None
    metadata: dict[str, Any]  # a JSON object: whatever the API keeps with the game
    last_seq: int


GAME = "game"  # the kind of a game's stream; other kinds are created with ``create_stream``
STREAM_KIND = re.compile(r"^[a-z][a-z_]{0,31}$")


class StreamRecord(msgspec.Struct, frozen=True):
    """A stream of any kind (``get_stream``): a game's, or another's (a tournament's log)."""

    stream_id: str
    kind: str
    system: str  # the game system (a tournament's: the system its games are played in)
    created_at: str
    metadata: dict[str, Any]
    last_seq: int


class StreamPage(msgspec.Struct, frozen=True):
    streams: list[StreamRecord]
    next_cursor: str | None


class AppendResult(msgspec.Struct, frozen=True):
    game_id: str
    first_seq: int  # for an empty batch (create_game without events): last_seq + 1
    last_seq: int
    events: list[StoredEvent]
    replayed: bool  # True: the idempotency key was seen before; this is the first answer, nothing was stored


ARMIES = "armies"  # the metadata key the `army` filter of `list_games` reads: {seat: army label}


def has_army(metadata: dict[str, Any], army: str) -> bool:
    """Whether a game's metadata lists ``army`` for one of its seats (the `army` filter, as the SQL does it)."""
    armies = metadata.get(ARMIES)
    return isinstance(armies, dict) and army in armies.values()


class Page(msgspec.Struct, frozen=True):
    games: list[GameRecord]
    next_cursor: str | None


class EventStore(Protocol):
    def create_game(
        self,
        game_id: str,
        system: str,
        players: list[str],
        metadata: dict[str, Any],
        events: Sequence[NewEvent],
        tournament: str | None = None,
    ) -> AppendResult:
        """Create the stream and store its opening events atomically. `GameExists` if the id is taken."""
        ...

    def create_stream(
        self, stream_id: str, kind: str, system: str, metadata: dict[str, Any], events: Sequence[NewEvent]
    ) -> AppendResult:
        """Create a stream of another kind than a game (``kind`` matches ``STREAM_KIND``, never ``GAME``: games are
        created with `create_game`) and store its opening events atomically. `GameExists` if a stream of any kind
        has the id. Then `append`, `read` and the rest work on it as on a game's stream."""
        ...

    def get_stream(self, stream_id: str) -> StreamRecord:
        """The record of a stream of any kind; `GameNotFound` if there is none."""
        ...

    def list_streams(self, kind: str, limit: int = 50, cursor: str | None = None) -> StreamPage:
        """Streams of one kind ordered by (created_at, stream_id); pass `next_cursor` back for the next page."""
        ...

    def append(
        self,
        game_id: str,
        events: Sequence[NewEvent],
        expected_seq: int | None = None,
        idempotency_key: str | None = None,
    ) -> AppendResult:
        """Append a non-empty batch to a stream of any kind, all or nothing. `expected_seq` is the caller's last
        seen seq (None: at the end); stale -> `Conflict`. A key seen before for this stream returns the first
        result, `replayed=True`."""
        ...

    def find_idempotent(self, game_id: str, idempotency_key: str) -> AppendResult | None:
        """The first answer of the append made with this key (`replayed=True`), or None if the key is unseen.
        Lets a caller answer a retried request without deciding it again."""
        ...

    def read(self, game_id: str, from_seq: int = 1, to_seq: int | None = None) -> list[StoredEvent]:
        """Events `from_seq..to_seq` inclusive (to_seq None: to the end). `CorruptRecord` on a bad row or a hole."""
        ...

    def last_seq(self, game_id: str) -> int: ...

    def last_seqs(self, game_ids: Sequence[str]) -> dict[str, int]:
        """The last seq of each of these games, as committed; ids of games that do not exist are absent. One call
        for many games: the live streams' change check asks it for every watched game every second."""
        ...

    def get_game(self, game_id: str) -> GameRecord:
        """A game's record; `GameNotFound` if there is none, or if the id is a stream of another kind."""
        ...

    def update_metadata(self, game_id: str, patch: dict[str, Any]) -> None:
        """Shallow merge of `patch` into the game's metadata (e.g. status and winner when a game ends)."""
        ...

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
        """Games (never another kind of stream) ordered by (created_at, game_id), or the other way round with
        `newest_first`; pass `next_cursor`
        back to get the following page (in the same order). `army`: games whose metadata `armies` (seat -> the
        system's army label, ``ARMIES``) has that label for a seat. `over`: True, the games whose metadata `status`
        is ``"over"``; False, the others (running, or stored without a status); None, both."""
        ...

    def put_snapshot(self, game_id: str, seq: int, state: bytes) -> None: ...

    def get_snapshot(self, game_id: str, at_or_before: int) -> tuple[int, bytes] | None: ...

    def close(self) -> None: ...


# -- capabilities a backend may add (checked with isinstance, never hasattr) -----------------------------------


@runtime_checkable
class SqlReadable(Protocol):
    """A store whose database other code reads with SQL (statistics, duplicate checks)."""

    def reader(self) -> Any:
        """A new DuckDB cursor on the store's database (committed data only); the caller closes it."""
        ...


@runtime_checkable
class CommitListening(Protocol):
    """A store that says, after each commit, which games got new events (the projector, live streams)."""

    def add_commit_listener(self, listener: Callable[[list[str]], None]) -> None: ...

    def remove_commit_listener(self, listener: Callable[[list[str]], None]) -> None: ...


@runtime_checkable
class FutureAppending(Protocol):
    """A store that takes an append without blocking the caller (the server's event loop awaits the future)."""

    def append_future(
        self,
        game_id: str,
        events: Sequence[NewEvent],
        expected_seq: int | None = None,
        idempotency_key: str | None = None,
    ) -> Future[AppendResult]: ...


@runtime_checkable
class BulkCreating(Protocol):
    """A store that writes many new games in one transaction (imports)."""

    def create_games_bulk(self, games: Sequence[Any]) -> int: ...


@runtime_checkable
class ContentFinding(Protocol):
    """A store that finds games by content hash in its own database (``replay.log.contents``), where other stores
    are read game by game."""

    def games_with_content(self, digest: str) -> list[str]:
        """Ids of the stored games whose content hash is ``digest``, in id order."""
        ...


class CatalogueRecord(msgspec.Struct, frozen=True):
    """A stored catalogue (issue 30): ``document`` is its canonical JSON, ``catalogue_id`` its content hash
    (``engine.catalogue.catalogue_id``); ``name`` and ``version`` are the document's labels."""

    catalogue_id: str
    system: str
    name: str
    version: str
    document: bytes
    created_at: str


@runtime_checkable
class CatalogueStoring(Protocol):
    """A store that keeps catalogues (every backend: memory, DuckDB, PostgreSQL). Catalogues are immutable and
    addressed by content, so adding one twice stores it once."""

    def add_catalogue(self, catalogue_id: str, system: str, name: str, version: str,
                      document: bytes) -> tuple[CatalogueRecord, bool]:
        """Store a catalogue unless one of that id is stored; (the stored record, whether this call stored it)."""
        ...

    def get_catalogue(self, catalogue_id: str) -> CatalogueRecord:
        """The catalogue of that id; `CatalogueNotFound` if none is stored."""
        ...

    def list_catalogues(self, system: str | None = None) -> list[CatalogueRecord]:
        """Every stored catalogue (of ``system``), oldest first (created_at, then id)."""
        ...


def catalogue_record(row: tuple) -> CatalogueRecord:
    """A row of catalogue_get.sql / catalogue_list.sql (the document as JSON text) as a CatalogueRecord."""
    catalogue_id, system, name, version, document, created_at = row
    return CatalogueRecord(catalogue_id, system, name, version, str(document).encode("utf-8"), created_at)


class Annotation(msgspec.Struct, frozen=True):
    """A comment on one step of a game (issue 32 item 6), kept apart from its events: ``n`` numbers the game's
    annotations in the order they were added, ``step`` is the seq of the event it is about, ``role`` the role of
    the token that added it (scorekeeper | organiser), ``author`` the name given (else the role), ``created_at``
    the store's clock."""

    game_id: str
    n: int
    step: int
    text: str
    role: str
    author: str
    created_at: str


@runtime_checkable
class AnnotationStoring(Protocol):
    """A store that keeps annotations (every backend: memory, DuckDB, PostgreSQL): append-only, never changed nor
    deleted, never part of a game's events (docs/store.md)."""

    def add_annotation(self, game_id: str, step: int, text: str, role: str, author: str) -> Annotation:
        """Append an annotation to the game's (numbered after its last one, timed by the store's clock);
        `GameNotFound` if there is no such game. The caller checks the text and the step (replay.log.annotations)."""
        ...

    def annotations(self, game_id: str) -> list[Annotation]:
        """The game's annotations in the order they were added (none: an empty list, also for an unknown game)."""
        ...


def annotation(row: tuple) -> Annotation:
    """A row of annotation_list.sql as an Annotation."""
    game_id, n, step, text, role, author, created_at = row
    return Annotation(game_id, int(n), int(step), text, role, author, created_at)


ANNOTATION_RETRIES = 8  # two writers numbering the same game's next annotation: the second tries again


@runtime_checkable
class SharedLog(Protocol):
    """A log several server processes share (PostgreSQL): the statistics are kept beside it
    (``replay.analytics.beside``: one leader mirrors and projects the log into DuckDB)."""

    url: str

    def connection(self) -> Any:
        """A context manager giving a pooled connection of the store (with its error translation)."""
        ...


# -- helpers shared by the backends ---------------------------------------------------------------------


def utc_now() -> datetime:
    return datetime.now(UTC)


def iso_utc(moment: datetime) -> str:
    """Fixed-width ISO-8601 UTC (`2026-01-02T03:04:05.000006Z`): sorts as text in time order."""
    if moment.tzinfo is None:
        raise ValueError("the store's clock must return timezone-aware datetimes")
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def check_payload(payload: bytes) -> None:
    """Reject a payload that is not one JSON value, before it is stored."""
    try:
        msgspec.json.decode(payload, type=msgspec.Raw)
    except msgspec.DecodeError as error:
        raise ValueError(f"event payload is not valid JSON: {error}") from None


def check_batch(events: Sequence[NewEvent], *, allow_empty: bool = False) -> None:
    if not events and not allow_empty:
        raise ValueError("an append needs at least one event")
    for event in events:
        if not isinstance(event, NewEvent):
            raise TypeError(f"expected NewEvent, got {type(event).__name__}")
        check_payload(event.payload)


def check_seq_args(from_seq: int, to_seq: int | None) -> None:
    if from_seq < 1:
        raise ValueError(f"from_seq starts at 1, got {from_seq}")
    if to_seq is not None and to_seq < 0:
        raise ValueError(f"to_seq must not be negative, got {to_seq}")


def check_stream(game_id: str, from_seq: int, last: int, events: list[StoredEvent]) -> list[StoredEvent]:
    """Check that `events` are exactly seqs `from_seq..last` with valid JSON payloads; CorruptRecord if not."""
    expected = from_seq
    for event in events:
        if event.seq != expected:
            raise CorruptRecord(game_id, expected, f"missing event (next stored is seq {event.seq})")
        try:
            msgspec.json.decode(event.payload, type=msgspec.Raw)
        except msgspec.DecodeError as error:
            raise CorruptRecord(game_id, event.seq, f"payload is not valid JSON: {error}") from None
        expected += 1
    if expected <= last:
        raise CorruptRecord(game_id, expected, f"missing event (the stream ends at seq {last})")
    return events


def encode_cursor(created_at: str, game_id: str) -> str:
    raw = msgspec.json.encode([created_at, game_id])
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_cursor(cursor: str) -> tuple[str, str]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        created_at, game_id = msgspec.json.decode(raw, type=tuple[str, str])
    except (binascii.Error, ValueError, msgspec.DecodeError):
        raise ValueError(f"invalid paging cursor {cursor!r}") from None
    return created_at, game_id


def check_kind(kind: str) -> None:
    """A kind ``create_stream`` takes: not a game's, lower-case words joined by ``_``."""
    if kind == GAME:
        raise ValueError("a game's stream is created with create_game")
    if not STREAM_KIND.match(kind):
        raise ValueError(f"a stream's kind is a lower-case word (letters and _), not {kind!r}")


def check_limit(limit: int) -> None:
    if not 1 <= limit <= 1000:
        raise ValueError(f"limit must be between 1 and 1000, got {limit}")


def check_metadata(metadata: Any, what: str = "metadata") -> bytes:
    """`metadata` must be a JSON object; returns its JSON."""
    if not isinstance(metadata, dict):
        raise TypeError(f"{what} must be a dict (a JSON object), got {type(metadata).__name__}")
    try:
        return msgspec.json.encode(metadata)
    except (TypeError, msgspec.EncodeError) as error:
        raise TypeError(f"{what} is not JSON-serialisable: {error}") from None
