"""Every registered game system at the replay level, through the protocols alone (engine.system and
replay.plugin): the suite knows no system. It runs over the registries (engine.systems and replay.systems: Lords of
War) and over ``pebbles``, the test-only system whose engine (pebbles.py) and replay parts (pebbles_replay.py) are
registered here for this module and gone after.

Games are bot games recorded through ``GameService`` (``replay.log.demo``), in the in-memory store and in DuckDB:

- listings: the players from the seats, the result from ``outcome()`` and ``turn()``; every seat named apart;
- the replay cursor's state at every seq equals a fold of the prefix (forward, backward, random seeks, from the
  snapshots it wrote);
- export -> import -> export is identical, for the text record and JSONL, in every view that can be imported (``all``
  always can);
- ``warlog verify`` finds nothing in bot games, and finds a tampered row;
- no view shows what another seat may not see: a view's states, events, explanations and record are the same when
  every secret that view may not see (``Views.secrets``) is changed, while ``all`` sees the change and each seat sees
  its own secrets change;
- explanations exist for every event in every view, and the actions' lines cover every event once;
- the terminal picture draws every style at every step.
Each system's games are played on its default catalogue and again on each second catalogue
``tests/conformance/catalogues.py`` lists for it (issue 30: ``SECOND_CATALOGUES``, the one list), stored in the
store as a user uploads it and named by id as ``POST /games`` and ``warlog demo --catalogue`` name it.

The default run keeps to a few games per system; ``slow`` tests take many more.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import pytest
from warlog_pebbles.rules import PEBBLES

from engine.system import GameSystem
from engine.systems import get_system, system_names
from events import Recorded
from replay.archive.bulk import ImportGame, bulk_import
from replay.archive.games import (
    RecordError,
    export_jsonl,
    export_record,
    import_games,
    import_jsonl,
    import_record,
    store_events,
)
from replay.catalogues import CatalogueBook
from replay.log.chain import encode_chain
from replay.log.cursor import ReplayCursor, StateCache
from replay.log.demo import demo_catalogue, record_demo_games
from replay.log.explain import explain_actions, explain_game
from replay.log.service import GameService
from replay.log.verify import verify_all, verify_game
from replay.log.views import events_view, state_view, views_of
from replay.plugin import (
    ALL,
    Explanations,
    RecordSyntax,
    ReplaySystem,
    TerminalPicture,
    Views,
    sees,
)
from replay.store.duckdb_store import DuckDBEventStore
from replay.store.memory_store import MemoryEventStore
from replay.systems import get_plugin, plugin_names
from tests.conformance.catalogues import SystemName, document, with_catalogues
from tests.plugins.installed import pebbles_registered

AnySystem = GameSystem[Any, Any, Any]
NAMES = sorted({*system_names(), PEBBLES.name})
GAMES = 6  # demo games per system in the default run (Lords of War: each of its sample variants once)
DUCKDB_GAMES = 2  # of them in DuckDB too (every snapshot the cursor stores is a transaction)
SLOW_GAMES = 36  # Lords of War: every faction pairing
SEED = 424242
STORES = ("memory", "duckdb")


@pytest.fixture(scope="module", autouse=True)
def test_systems() -> Iterator[None]:
    with pebbles_registered():
        yield


class Stored:
    """Demo games of one system recorded through ``GameService`` into one store."""

    def __init__(self, service: GameService, ids: list[str]) -> None:
        self.service = service
        self.ids = ids

    def events(self, game_id: str) -> list[Any]:
        return [r.event for r in self.service.events(game_id)]


@pytest.fixture(scope="module")
def recorded(
    tmp_path_factory: pytest.TempPathFactory, test_systems: None
) -> Iterator[Callable[[str, str, int], Stored]]:
    """``recorded(system, store, count)``: ``count`` demo games of ``system`` in a store of their own, in memory or
    ``duckdb``, recorded once for the module."""
    made: dict[tuple[str, str, int], Stored] = {}
    with ExitStack() as closing:

        def get(name: str, kind: str, count: int = GAMES) -> Stored:
            played_on = name.catalogue if isinstance(name, SystemName) else None
            found = made.get((name, played_on, kind, count))
            if found is None:
                path = tmp_path_factory.mktemp("replay") / f"{name}.duckdb"
                store = DuckDBEventStore(str(path)) if kind == "duckdb" else MemoryEventStore()
                closing.callback(store.close)
                service = GameService(store)
                catalogue = None
                if played_on is not None:  # uploaded, then named by its id, as a user does
                    summary, _ = CatalogueBook(store).add(document(played_on))
                    catalogue = demo_catalogue(service, name, summary.id)
                ids = [g.game_id for g in record_demo_games(service, count, seed=SEED, system=name,
                                                            catalogue=catalogue)]
                found = made[(name, played_on, kind, count)] = Stored(service, ids)
            return found

        yield get


@pytest.fixture(params=with_catalogues(NAMES), ids=lambda name: name.id)
def name(request: pytest.FixtureRequest) -> str:
    named: SystemName = request.param  # the system's name, with the catalogue its games are played on
    return named


def system_of(name: str) -> AnySystem:
    return get_system(name)


def states_along(system: AnySystem, events: Sequence[Any]) -> list[Any]:
    out = [system.initial_state()]
    for event in events:
        out.append(system.evolve(out[-1], event))
    return out


def seats_of(system: AnySystem, events: Sequence[Any]) -> tuple[str, ...]:
    return tuple(seat.id for seat in system.seats(system.recorded_setup(events)))


# -- the registries and the parts -------------------------------------------------------------------------------


def test_replay_conformance_every_system_has_its_replay_parts(name: str) -> None:
    assert sorted({*system_names()}) == sorted(plugin_names())
    parts = get_plugin(name)
    assert isinstance(parts, ReplaySystem) and parts.name == name == system_of(name).name
    for part, protocol in ((parts.views, Views), (parts.explanations, Explanations), (parts.records, RecordSyntax),
                           (parts.terminal, TerminalPicture)):
        assert isinstance(part, protocol), protocol.__name__


def test_replay_conformance_the_test_system_is_registered_for_this_module_only() -> None:
    assert PEBBLES.name in system_names() and PEBBLES.name in plugin_names()  # the module's fixture


# -- listings ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", STORES)
def test_replay_conformance_listing_players_and_result_come_from_seats_and_outcome(
    name: str, kind: str, recorded
) -> None:
    games = recorded(name, kind, GAMES if kind == "memory" else DUCKDB_GAMES)
    system = system_of(name)
    for game_id in games.ids:
        events = games.events(game_id)
        record = games.service.store.get_game(game_id)
        setup = system.recorded_setup(events)
        seats = system.seats(setup)
        names = [str(p.get("name") or s.id) for p, s in zip(setup["players"], seats, strict=True)]
        assert len(set(names)) == len(seats), f"demo seats share a name: {names}"  # or ratings never count them
        assert record.players == names and record.system == name
        assert games.service.seats(game_id) == tuple(s.id for s in seats)
        final = system.fold(events)
        outcome = system.outcome(final)
        assert outcome is not None
        meta = record.metadata
        assert meta["status"] == "over" and meta["end_reason"] == outcome.reason
        assert meta["winners"] == list(outcome.winners)
        assert meta["placings"] == [list(group) for group in outcome.placings]
        expected_winner = outcome.winners[0] if len(outcome.winners) == 1 else "draw" if outcome.is_draw else None
        assert meta["winner"] == expected_winner
        assert meta["turns"] == system.turn(final) and meta["seq"] == len(events) == record.last_seq


# -- the replay cursor ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", STORES)
def test_replay_conformance_cursor_state_at_every_seq_is_the_fold_of_the_prefix(name: str, kind: str, recorded) -> None:
    _check_cursor(name, kind, recorded(name, kind, GAMES if kind == "memory" else DUCKDB_GAMES))


def _check_cursor(name: str, kind: str, games: Stored) -> None:
    system = system_of(name)
    rng = random.Random(f"{name}/{kind}")
    for game_id in games.ids:
        states = states_along(system, games.events(game_id))
        last = len(states) - 1
        cursor = ReplayCursor(games.service, game_id, snapshot_every=5, cache=StateCache())
        for seq in range(1, last + 1):  # forward, one step at a time
            assert cursor.step(+1) == states[seq] and cursor.seq == seq
        for seq in range(last - 1, -1, -1):  # backward
            assert cursor.step(-1) == states[seq] and cursor.seq == seq
        # random seeks by a new cursor (its own cache): it builds the stored snapshots on its way, once
        points = rng.sample(range(last + 1), min(40, last + 1))
        seeker = ReplayCursor(games.service, game_id, snapshot_every=5, cache=StateCache())
        for seq in points:
            assert seeker.seek(seq) == states[seq], f"seek to {seq}"
        assert seeker.last() == states[last] and seeker.first() == states[0]
        assert seeker.evolves <= last + 4 * (len(points) + 1)
        # and from those snapshots, each seek of a third cursor costs fewer evolves than the snapshot distance
        reader = ReplayCursor(games.service, game_id, snapshot_every=5, cache=StateCache())
        for seq in reversed(points):
            assert reader.seek(seq) == states[seq], f"seek to {seq} from a snapshot"
        assert reader.evolves <= 4 * len(points)


# -- export -> import -> export ---------------------------------------------------------------------------------


def _without_copy_fields(jsonl: str) -> list[dict[str, Any]]:
    """The lines of a JSONL export minus what each stored copy has of its own (its chain and its times)."""
    lines = [msgspec.json.decode(line) for line in jsonl.splitlines() if line.strip()]
    return [{k: v for k, v in line.items() if k not in ("hash", "recorded_at", "game_id")} for line in lines]


def _round_trips(name: str, games: Stored, comments: bool) -> dict[str, int]:
    """Export every game in every view, import each into a new store, export it again: identical. Returns how many
    imports each view had (``all`` must always import; a view that hides what a game needs is refused cleanly)."""
    imported = {"record": 0, "jsonl": 0, "all": 0}
    for game_id in games.ids:
        for view in views_of(games.service.seats(game_id)):
            text = export_record(games.service, game_id, view=view, comments=comments)
            jsonl = export_jsonl(games.service, game_id, view=view)
            again = GameService(MemoryEventStore())
            try:
                copy = import_record(again, text)
            except RecordError as refused:
                assert view != ALL, f"{name} {game_id}: the full record does not import: {refused}"
            else:
                imported["record"] += 1
                imported["all"] += view == ALL
                assert export_record(again, copy, view=view, comments=comments) == text
                if view == ALL:  # the same events, byte for byte
                    stored = [(e.type, e.payload) for e in again.store.read(copy)]
                    assert stored == [(e.type, e.payload) for e in games.service.store.read(game_id)]
            try:
                copy = import_jsonl(again, jsonl, allow_duplicate=True)
            except RecordError as refused:
                assert view != ALL, f"{name} {game_id}: the full JSONL does not import: {refused}"
            else:
                imported["jsonl"] += 1
                assert _without_copy_fields(export_jsonl(again, copy, view=view)) == _without_copy_fields(jsonl)
    return imported


def test_replay_conformance_export_import_export_is_identical(name: str, recorded) -> None:
    games = recorded(name, "memory")
    imported = _round_trips(name, games, comments=False)
    assert imported["all"] == len(games.ids)
    _round_trips(name, games, comments=True)


def test_replay_conformance_a_stream_names_its_system(name: str, recorded) -> None:
    games = recorded(name, "memory")
    game_id = games.ids[0]
    first = msgspec.json.decode(export_jsonl(games.service, game_id, view="spectator").splitlines()[0])
    assert first["type"] == "game_started" and first["system"] == name  # what JSONL import reads
    record = export_record(games.service, game_id)
    assert f'[System "{name}"]' in record
    service = GameService(MemoryEventStore())
    untagged = "\n".join(line for line in record.splitlines() if not line.startswith("[System "))
    with pytest.raises(RecordError) as missing:
        import_record(service, untagged)
    assert missing.value.code == "missing_system" and name in missing.value.message
    lines = export_jsonl(games.service, game_id).splitlines()
    unknown = lines[0].replace(f'"system":"{name}"', '"system":"no-such-game"', 1)
    with pytest.raises(RecordError) as refused:
        import_jsonl(service, "\n".join([unknown, *lines[1:]]))
    assert refused.value.code == "unknown_system" and name in refused.value.message
    unnamed = msgspec.json.decode(lines[0])
    del unnamed["system"]
    with pytest.raises(RecordError) as refused:
        import_jsonl(service, "\n".join([msgspec.json.encode(unnamed).decode(), *lines[1:]]))
    assert refused.value.code == "missing_system" and refused.value.line == 1 and name in refused.value.message
    assert service.store.list_games().games == []


def test_replay_conformance_a_file_of_every_systems_games_imports_each_by_its_own_system(recorded) -> None:
    texts = {name: (recorded(name, "memory"), recorded(name, "memory").ids[0]) for name in NAMES}
    jsonl = "".join(export_jsonl(games.service, game_id, with_game_id=True) for games, game_id in texts.values())
    records = "\n".join(export_record(games.service, game_id) for games, game_id in texts.values())
    for text, file in ((jsonl, "all.jsonl"), (records, "all.txt")):
        service = GameService(MemoryEventStore())
        outcomes = list(import_games(service, text, name=file))
        assert [o.error for o in outcomes] == [None] * len(NAMES), file
        stored = [service.store.get_game(o.game_id).system for o in outcomes if o.game_id]
        assert stored == list(texts), file


def test_replay_conformance_bulk_import_stores_what_the_service_stored(name: str, recorded) -> None:
    games = recorded(name, "memory")
    store = games.service.store
    lines = [ImportGame(g, name, store.get_game(g).players, [msgspec.Raw(e.payload) for e in store.read(g)],
                        metadata={"source": "demo"}) for g in games.ids]
    target = MemoryEventStore()
    report = bulk_import(target, lines)
    assert report.validation == "redecide" and report.games == len(games.ids)
    for game_id in games.ids:
        assert [(e.type, e.payload, e.hash) for e in target.read(game_id)] == \
            [(e.type, e.payload, e.hash) for e in store.read(game_id)]
        assert target.get_game(game_id).metadata == store.get_game(game_id).metadata


# -- verify -----------------------------------------------------------------------------------------------------


def _tamper(store: Any, kind: str, path: Path, game_id: str, seq: int, payload: bytes) -> Any:
    """The store with the payload of one stored row changed behind its back (its hash left as it was)."""
    if kind == "memory":
        game = store._games[game_id]  # a tampered row cannot be written through the store's API
        game.events[seq - 1] = msgspec.structs.replace(game.events[seq - 1], payload=payload)
        return store
    store.close()
    with duckdb.connect(str(path)) as conn:
        conn.execute("UPDATE stream_events SET payload = ? WHERE stream_id = ? AND seq = ?",
                     [payload.decode(), game_id, seq])
    return DuckDBEventStore(str(path))


@pytest.mark.parametrize("kind", STORES)
def test_replay_conformance_verify_finds_nothing_in_bot_games_and_finds_a_tampered_row(
    name: str, kind: str, recorded, tmp_path: Path
) -> None:
    games = recorded(name, kind, GAMES if kind == "memory" else DUCKDB_GAMES)
    assert dict(verify_all(games.service)) == {g: [] for g in games.ids}
    system = system_of(name)
    events = games.events(games.ids[0])
    path = tmp_path / "tampered.duckdb"
    store = MemoryEventStore() if kind == "memory" else DuckDBEventStore(str(path))
    store_events(GameService(store), name, events, "t")
    encoded = [system.codec.encode_json(e) for e in events]
    # a row in the middle takes the payload of another event of its type: a well-formed event, a broken chain
    middle = len(events) // 2
    i, other = next((i, j) for i in range(middle, len(events)) for j in range(len(events))
                    if type(events[j]) is type(events[i]) and encoded[j] != encoded[i])
    store = _tamper(store, kind, path, "t", i + 1, encoded[other])
    try:
        found = verify_game(GameService(store), "t")
    finally:
        store.close()
    assert (i + 1, "chain") in {(d.seq, d.kind) for d in found}
    assert min(d.seq for d in found) == i + 1  # nothing before it is suspected


# -- hidden information -----------------------------------------------------------------------------------------


def _another(values: Sequence[Any], value: Any) -> Any | None:
    """Another value for a secret field: one seen elsewhere in the same field, else a changed copy of it."""
    for candidate in values:
        if candidate != value:
            return candidate
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value + 1
    if isinstance(value, (tuple, list)) and len(set(value)) > 1:
        return type(value)(reversed(value))
    return None


def _secret_pool(parts: ReplaySystem, streams: Sequence[Sequence[Any]]) -> dict[tuple[str, str], list[Any]]:
    pool: dict[tuple[str, str], list[Any]] = {}
    for events in streams:
        for event in events:
            for fields in parts.views.secrets(event).values():
                for field in fields:
                    value = getattr(event, field)
                    if value is not None:
                        pool.setdefault((type(event).tag_name(), field), []).append(value)
    return pool


def _vary(parts: ReplaySystem, events: Sequence[Any], hidden: Callable[[str], bool],
          pool: dict[tuple[str, str], list[Any]]) -> tuple[list[Any], int]:
    """``events`` with every secret field whose owner ``hidden(owner)`` changed to another value; and how many."""
    out, changed = [], 0
    for event in events:
        changes = {}
        for owner, fields in parts.views.secrets(event).items():
            if not hidden(owner):
                continue
            for field in fields:
                value = getattr(event, field)
                other = None if value is None else _another(pool.get((type(event).tag_name(), field), []), value)
                if other is not None:
                    changes[field] = other
        changed += len(changes)
        out.append(msgspec.structs.replace(event, **changes) if changes else event)
    return out, changed


def _seen(name: str, system: AnySystem, events: Sequence[Any], view: str) -> dict[str, Any]:
    """Everything ``view`` gets of a stream: the state after each event, the events (with their chain hashes), the
    explanations and the text record."""
    chained = encode_chain(system, "g", events)
    recorded = [Recorded(game_id="g", seq=i + 1, recorded_at="2026-01-01T00:00:00Z", schema_version=row.schema_version,
                         event=event, hash=row.hash)
                for i, (event, row) in enumerate(zip(events, chained, strict=True))]
    return {
        "states": [state_view(name, state, view) for state in states_along(system, events)],
        "events": events_view(name, recorded, view),
        "explanations": [(x.seq, x.text, x.cause) for x in explain_game(name, recorded, view)],
        "record": get_plugin(name).records.export(list(events), {}, view=view, comments=True),
    }


def _check_views_hide_what_they_may_not_see(name: str, streams: Sequence[Sequence[Any]]) -> None:
    system, parts = system_of(name), get_plugin(name)
    pool = _secret_pool(parts, streams)
    varied = owners_saw_own = 0
    for events in streams:
        seats = seats_of(system, events)
        for view in ("spectator", *seats):
            others, changed = _vary(parts, events, lambda owner, v=view: not sees(v, owner), pool)
            if not changed:
                continue
            varied += 1
            mine = _seen(name, system, events, view)
            assert _seen(name, system, others, view) == mine, f"{name}: view {view} shows a secret it may not see"
            assert _seen(name, system, others, ALL) != _seen(name, system, events, ALL), "the change is invisible"
        for seat in seats:  # and a seat does see its own secrets
            own, changed = _vary(parts, events, lambda owner, s=seat: owner == s, pool)
            if changed:
                owners_saw_own += _seen(name, system, own, seat) != _seen(name, system, events, seat)
    assert varied, f"{name}: no secret to vary in {len(streams)} games"  # the check must have something to check
    assert owners_saw_own, f"{name}: no seat ever saw its own secret"


def test_replay_conformance_no_view_shows_what_another_seat_hides(name: str, recorded) -> None:
    games = recorded(name, "memory")
    _check_views_hide_what_they_may_not_see(name, [games.events(g) for g in games.ids])


def test_replay_conformance_event_hashes_are_for_all_only(name: str, recorded) -> None:
    games = recorded(name, "memory")
    recorded_events = games.service.events(games.ids[0])
    for view in views_of(games.service.seats(games.ids[0])):
        hashes = [e["hash"] for e in events_view(name, recorded_events, view)]
        assert all(hashes) if view == ALL else not any(hashes), view


# -- explanations and the picture ------------------------------------------------------------------------------


def test_replay_conformance_every_event_is_explained_in_every_view(name: str, recorded) -> None:
    games = recorded(name, "memory")
    for game_id in games.ids:
        stream = games.service.events(game_id)
        for view in views_of(games.service.seats(game_id)):
            explained = explain_game(name, stream, view)
            seen = [e["seq"] for e in events_view(name, stream, view)]  # every event this view sees, explained
            assert [x.seq for x in explained] == seen and (view != ALL or seen == [r.seq for r in stream])
            for x in explained:
                assert isinstance(x.text, str) and x.text.strip() and "\n" not in x.text, x
                assert "rule" in x.cause and x.cause.get("type"), x
                msgspec.json.encode(x.cause)  # plain JSON data
            actions = explain_actions(name, stream, view)
            assert sum(len(a.cause["events"]) for a in actions) == len(seen)  # every event once
            assert [a.seq for a in actions] == sorted({a.seq for a in actions}) and actions[0].seq == 1


def test_replay_conformance_the_terminal_picture_draws_every_step(name: str, recorded) -> None:
    games = recorded(name, "memory")
    system, picture = system_of(name), get_plugin(name).terminal
    assert picture.STYLES
    events = games.events(games.ids[0])
    for view in views_of(seats_of(system, events)):
        for state in states_along(system, events)[1:]:
            shown = state_view(name, state, view)
            for style in picture.STYLES:
                lines = picture.render(shown, style)
                assert lines and all(isinstance(line, str) and "\n" not in line for line in lines)
            assert picture.headline(shown).strip() and isinstance(picture.tally(shown), str)


# -- more games (slow) ------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_replay_conformance_many_games_round_trip_and_hide_their_secrets(name: str, recorded) -> None:
    games = recorded(name, "memory", SLOW_GAMES)
    assert len(games.ids) == SLOW_GAMES
    assert _round_trips(name, games, comments=True)["all"] == SLOW_GAMES
    _check_views_hide_what_they_may_not_see(name, [games.events(g) for g in games.ids])
    assert dict(verify_all(games.service)) == {g: [] for g in games.ids}
    _check_cursor(name, "memory", games)
