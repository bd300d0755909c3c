"""Bulk import: many whole games, each validated through its system, written many games per transaction.

    games = read_jsonl("games.jsonl")          # one game per line (ImportGame)
    bulk_import(store, games)                   # -> ImportReport(games, events, validation)
    bulk_import_jsonl(store, path, workers=2)   # the same, games prepared in worker processes

Each game is decoded with its system's codec (typed, so a payload that is not a known event is rejected),
validated, re-encoded canonically and hash-chained exactly as ``GameService`` would have stored it, so a
bulk-imported game and the same game played through the service have the same events and the same hashes
(``tests/replay/test_bulk.py``). Validation re-decides every action through the rules, through the system's
``Records`` (engine.system): the opening from ``recorded_setup``, each action through ``redecide``, the loop
``warlog verify`` runs; it requires exactly the recorded events. ``redecide=False`` only folds the events (a restore
of records this service wrote). A rejected game raises ``ImportRejected`` before anything of its batch is written;
the batches before it stay stored. A line that cannot be read (not JSON, not a game, nested too deeply) is a
``LineRejected`` naming its line.

Games go to the store ``batch_games`` at a time: ``DuckDBEventStore.create_games_bulk`` (one transaction, an
Arrow insert when pyarrow is installed); any other store gets one ``create_game`` per game.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from itertools import islice
from pathlib import Path
from typing import Any

import msgspec

from engine.errors import RuleError, StreamError
from engine.system import GameSystem
from engine.systems import UnknownSystem, get_system
from replay.catalogues import CATALOGUE, keep_embedded
from replay.log.chain import chained, genesis_hash
from replay.log.service import listed_armies, listed_catalogue, name_problem, outcome_metadata
from replay.store.base import BulkCreating, EventStore, NewEvent
from replay.store.duckdb_store import BulkGame


class ImportGame(msgspec.Struct, frozen=True):
    """One line of an import file: the game's record and its events (each the event's JSON, with its type)."""

    game_id: str
    system: str
    players: list[str]
    events: list[msgspec.Raw]
    metadata: dict[str, Any] = {}
    tournament: str | None = None


class ImportReport(msgspec.Struct, frozen=True):
    games: int
    events: int
    validation: str  # how the games were checked: "redecide" (every action through the rules) or "fold"


class ImportRejected(ValueError):
    """A game of the import is not a valid record; nothing of its batch was stored."""

    def __init__(self, game_id: str, reason: str) -> None:
        super().__init__(game_id, reason)  # both in args: the error travels back from a worker process
        self.game_id = game_id
        self.reason = reason

    def __str__(self) -> str:
        return f"game {self.game_id!r} rejected: {self.reason}"


class LineRejected(ImportRejected):
    """A line of an import file that cannot be read as a game (so it has no game id)."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}", reason)
        self.line = line

    def __reduce__(self) -> tuple[Any, ...]:  # back from a worker process with its own arguments
        return (LineRejected, (self.line, self.reason))

    def __str__(self) -> str:
        return f"line {self.line} rejected: {self.reason}"


_DECODER = msgspec.json.Decoder(ImportGame)


def decode_line(line: bytes, number: int) -> ImportGame:
    """The game on line ``number`` of an import file; ``LineRejected`` naming the line when it cannot be read."""
    try:
        return _DECODER.decode(line)
    except (msgspec.DecodeError, msgspec.ValidationError) as error:
        raise LineRejected(number, f"it cannot be read as a game: {error}") from None
    except RecursionError:  # 100,000 nested arrays: refused here, not a RecursionError out of the whole import
        raise LineRejected(number, "it is nested too deeply to read") from None


def read_jsonl(path: str | Path) -> Iterator[ImportGame]:
    with open(path, "rb") as lines:
        for number, line in enumerate(lines, start=1):
            if line.strip():
                yield decode_line(line, number)


def validation_mode(system: GameSystem, redecide: bool = True) -> str:
    """"redecide" (every action re-decided through the rules; every system can) or "fold" (``redecide=False``)."""
    return "redecide" if redecide else "fold"


def validate(system: GameSystem, game_id: str, events: list[Any], redecide: bool = True) -> Any:
    """The final state of a valid game; ``ImportRejected`` otherwise.

    Re-decide: the opening must be what the recorded setup (``recorded_setup``) gives, and every action (recovered
    from the events) must give exactly its recorded events under today's rules: the system's one re-decide loop
    (``redecide``, the one ``warlog verify`` runs), whose value is the final state. Fold (``redecide=False``): the
    events must fold; for records this service wrote itself (a restore: the rules were applied when they were
    played)."""
    if not events or type(events[0]).tag_name() != "game_started":
        raise ImportRejected(game_id, "a game's first event must be game_started")
    if not redecide:
        try:
            return system.fold(events)
        except Exception as exc:  # evolve trusts its input: any failure means the record is not a game
            raise ImportRejected(game_id, f"the events do not fold: {exc!r}") from exc
    try:
        opening = system.start(system.recorded_setup(events))
    except (ValueError, RuleError) as exc:  # StreamError is a ValueError
        raise ImportRejected(game_id, f"not a game's record: {exc}") from None
    n = len(opening)
    if list(opening) != events[:n]:
        raise ImportRejected(game_id, "the opening events differ from what the setup gives")
    steps = system.redecide(events)
    try:
        while True:
            step = next(steps)
            if step.start != n:
                raise ImportRejected(game_id, f"event {n + 1} is not the start of an action")
            if isinstance(step.outcome, RuleError):
                raise ImportRejected(game_id, f"event {step.start + 1}: {step.outcome.message} ({step.outcome.rule})")
            if step.outcome != tuple(events[step.start : step.stop]):
                raise ImportRejected(game_id, f"events {step.start + 1}..{step.stop} differ from what the rules give")
            n = step.stop
    except StopIteration as done:
        final = done.value
    except StreamError as exc:
        raise ImportRejected(game_id, f"not a game's record: {exc}") from None
    if n != len(events):  # only opening-type events after the opening: no action produced them
        raise ImportRejected(game_id, f"event {n + 1} is not the consequence of any action")
    return final


def prepare(game: ImportGame, lookup: Callable[[str], GameSystem] = get_system, redecide: bool = True) -> BulkGame:
    """Decode, validate, encode and chain one game, exactly as ``GameService`` would have stored it."""
    try:
        system = lookup(game.system)
    except UnknownSystem as exc:
        raise ImportRejected(game.game_id, str(exc.args[0])) from None
    codec = system.codec
    try:
        events = [codec.decode_json(raw) for raw in game.events]
    except (msgspec.DecodeError, msgspec.ValidationError, ValueError) as exc:
        raise ImportRejected(game.game_id, f"an event does not decode: {exc}") from None
    state = validate(system, game.game_id, events, redecide)
    for player in system.recorded_setup(events).get("players") or ():  # the names, as GameService refuses them
        if problem := name_problem(str(player.get("name") or "") if isinstance(player, dict) else ""):
            raise ImportRejected(game.game_id, problem)
    metadata = {**listed_armies(system.name, events), **listed_catalogue(events), **game.metadata}
    metadata.update(outcome_metadata(system, state, len(events)) or {})
    types, versions, payloads, hashes = [], [], [], []
    for tag, version, payload, hash_ in chained(system, events, genesis_hash(game.game_id)):  # as columns
        types.append(tag)
        versions.append(version)
        payloads.append(payload.decode())
        hashes.append(hash_)
    return BulkGame(game.game_id, system.name, list(game.players), metadata, game.tournament, types, versions,
                    payloads, hashes)


def _prepare_range(
    path: str, start: int, size: int, first_line: int, redecide: bool
) -> tuple[list[BulkGame], set[str]]:
    """Worker process: prepare the games of the JSONL lines in bytes ``[start, start + size)`` of the file, the
    first of them line ``first_line``. The worker reads them itself: sent through the pool's pipe, the lines cost
    the parent about 7% of the import's CPU (pickling and writing them; py-spy, issue 7)."""
    with open(path, "rb") as file:
        file.seek(start)
        lines = file.read(size)
    games = [
        prepare(decode_line(line, first_line + offset), redecide=redecide)
        for offset, line in enumerate(lines.split(b"\n"))
        if line.strip()
    ]
    return games, {validation_mode(get_system(g.system), redecide) for g in games}


class _Writer:
    """Stores prepared batches: ``create_games_bulk`` where the store has it, else one ``create_game`` each."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.bulk = store.create_games_bulk if isinstance(store, BulkCreating) else None
        self.games = self.events = 0
        self.modes: set[str] = set()

    def write(self, batch: list[BulkGame]) -> None:
        for g in batch:  # issue 30: an embedded catalogue is stored beside its games (GET /catalogues/{id})
            if g.metadata.get(CATALOGUE):
                keep_embedded(self.store, msgspec.json.decode(g.payloads[0]).get(CATALOGUE))
        if self.bulk is not None:
            self.events += self.bulk(batch)
        else:
            for g in batch:
                events = [
                    NewEvent(t, v, p.encode(), h)
                    for t, v, p, h in zip(g.types, g.schema_versions, g.payloads, g.hashes, strict=True)
                ]
                self.store.create_game(g.game_id, g.system, g.players, g.metadata, events, tournament=g.tournament)
                self.events += len(events)
        self.games += len(batch)

    def report(self) -> ImportReport:
        return ImportReport(self.games, self.events, "+".join(sorted(self.modes)) or "none")


def bulk_import(
    store: EventStore,
    games: Iterable[ImportGame],
    batch_games: int = 250,
    lookup: Callable[[str], GameSystem] = get_system,
    redecide: bool = True,
) -> ImportReport:
    """Validate and store ``games``, ``batch_games`` per transaction, in this process. Returns what was stored."""
    writer = _Writer(store)
    batch: list[BulkGame] = []
    for game in games:
        batch.append(prepare(game, lookup, redecide))
        if len(writer.modes) < 2:
            writer.modes.add(validation_mode(lookup(game.system), redecide))
        if len(batch) >= batch_games:
            writer.write(batch)
            batch = []
    if batch:
        writer.write(batch)
    return writer.report()


def bulk_import_jsonl(
    store: EventStore, path: str | Path, batch_games: int = 250, workers: int = 1, redecide: bool = True
) -> ImportReport:
    """``bulk_import`` of a JSONL file; with ``workers`` > 1 the games are prepared (decoded, validated, encoded,
    chained) in that many processes while this one writes, batches stored in file order."""
    if workers <= 1:
        return bulk_import(store, read_jsonl(path), batch_games, redecide=redecide)
    writer = _Writer(store)
    window: deque[Future[tuple[list[BulkGame], set[str]]]] = deque()

    def drain(keep: int) -> None:
        while len(window) > keep:
            prepared, modes = window.popleft().result()
            writer.modes |= modes
            if prepared:
                writer.write(prepared)

    with ProcessPoolExecutor(max_workers=workers) as pool, open(path, "rb") as lines:
        start, first_line = 0, 1
        while batch := [len(line) for line in islice(lines, batch_games)]:  # the next batch's byte range
            size = sum(batch)
            window.append(pool.submit(_prepare_range, str(path), start, size, first_line, redecide))
            start += size
            first_line += len(batch)
            drain(2 * workers)  # bounded: at most 2 batches per worker in flight
        drain(0)
    return writer.report()
