"""The event-store contract: every backend runs every test here (memory, DuckDB in memory, DuckDB file, PostgreSQL:
a schema of its own per test on the server of tests/pg.py, skipped when there is none)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import pytest

from replay.errors import Conflict, CorruptRecord, GameExists, GameNotFound
from replay.store.base import BulkCreating, CommitListening, EventStore, FutureAppending, NewEvent, SqlReadable
from replay.store.duckdb_store import DuckDBEventStore
from replay.store.memory_store import MemoryEventStore

BACKENDS = ["memory", "duckdb-memory", "duckdb-file", "postgres"]
START = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


class TickingClock:
    """Each reading is one second after the previous one, so every game gets its own created_at."""

    def __init__(self) -> None:
        self.now = START
        self.lock = threading.Lock()

    def __call__(self) -> datetime:
        with self.lock:
            self.now += timedelta(seconds=1)
            return self.now


def open_store(backend: str, tmp_path: Path, clock: Callable[[], datetime]) -> EventStore:
    if backend == "memory":
        return MemoryEventStore(clock=clock)
    if backend == "duckdb-memory":
        return DuckDBEventStore(":memory:", clock=clock)
    if backend == "postgres":
        return SchemaPostgresStore(clock)
    return DuckDBEventStore(tmp_path / "games.duckdb", clock=clock)


class SchemaPostgresStore:
    """A PostgreSQL store on a new schema of its own, dropped when the store is closed."""

    def __new__(cls, clock: Callable[[], datetime]) -> Any:
        from replay.store.postgres_store import PostgresEventStore
        from tests.pg import fresh_schema

        schema = fresh_schema()
        url = schema.__enter__()
        store = PostgresEventStore(url, clock=clock)
        close = store.close

        def close_and_drop() -> None:
            close()
            schema.__exit__(None, None, None)

        store.close = close_and_drop  # type: ignore[method-assign]
        return store


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EventStore]:
    opened = open_store(request.param, tmp_path, TickingClock())
    yield opened
    opened.close()


def event(n: int, kind: str = "placed") -> NewEvent:
    return NewEvent(kind, 1, msgspec.json.encode({"type": kind, "n": n}))


def new_game(store: EventStore, game_id: str = "g1", opening: int = 1, **kwargs: Any) -> None:
    kwargs.setdefault("system", "lords-of-war")
    kwargs.setdefault("players", ["p1", "p2"])
    kwargs.setdefault("metadata", {"variant": {"mode": "sealed"}})
    store.create_game(game_id, events=[event(i) for i in range(opening)], **kwargs)


# -- create ---------------------------------------------------------------------------------------------


def test_create_game_stores_record_and_opening_events(store: EventStore) -> None:
    result = store.create_game(
        "g1", "lords-of-war", ["p1", "p2"], {"variant": {"mode": "table"}},
        [event(0, "game_started"), event(1, "placed")], tournament="spring",
    )
    assert (result.first_seq, result.last_seq, result.replayed) == (1, 2, False)
    assert [e.seq for e in result.events] == [1, 2]
    assert store.read("g1") == result.events
    game = store.get_game("g1")
    assert (game.system, game.players, game.tournament, game.last_seq) == ("lords-of-war", ["p1", "p2"], "spring", 2)
    assert game.metadata == {"variant": {"mode": "table"}}
    assert game.created_at == result.events[0].recorded_at


def test_create_game_without_events_starts_an_empty_stream(store: EventStore) -> None:
    result = store.create_game("g1", "l5r", ["p1", "p2"], {}, [])
    assert (result.first_seq, result.last_seq, result.events) == (1, 0, [])
    assert store.last_seq("g1") == 0
    assert store.append("g1", [event(1)], expected_seq=0).first_seq == 1


def test_create_game_rejects_a_taken_id(store: EventStore) -> None:
    new_game(store, opening=2)
    with pytest.raises(GameExists):
        new_game(store, opening=5, system="l5r")
    assert store.get_game("g1").system == "lords-of-war"
    assert store.last_seq("g1") == 2


def test_create_game_rejects_bad_input_and_stores_nothing(store: EventStore) -> None:
    with pytest.raises(ValueError):
        store.create_game("g1", "l5r", ["p1"], {}, [event(1), NewEvent("placed", 1, b"{not json")])
    with pytest.raises(TypeError):
        store.create_game("g1", "l5r", ["p1"], ["not", "an", "object"], [])  # type: ignore[arg-type]
    with pytest.raises(GameNotFound):
        store.get_game("g1")


def test_recorded_at_comes_from_the_injected_clock(tmp_path: Path) -> None:
    from tests.pg import unavailable

    for backend in BACKENDS:
        if backend == "postgres" and unavailable():
            continue  # the header says why (tests/conftest.py)
        fixed = open_store(backend, tmp_path, lambda: START)
        try:
            result = fixed.create_game("g1", "l5r", ["p1", "p2"], {}, [event(1)])
            assert result.events[0].recorded_at == "2026-01-02T03:04:05.000000Z", backend
            assert fixed.read("g1")[0].recorded_at == "2026-01-02T03:04:05.000000Z", backend
            assert fixed.get_game("g1").created_at == "2026-01-02T03:04:05.000000Z", backend
        finally:
            fixed.close()


# -- append ---------------------------------------------------------------------------------------------


def test_append_numbers_events_from_one_without_gaps(store: EventStore) -> None:
    new_game(store, opening=1)
    first = store.append("g1", [event(1), event(2)])
    second = store.append("g1", [event(3)], expected_seq=3)
    assert (first.first_seq, first.last_seq, second.first_seq, second.last_seq) == (2, 3, 4, 4)
    stored = store.read("g1")
    assert [e.seq for e in stored] == [1, 2, 3, 4]
    assert [msgspec.json.decode(e.payload)["n"] for e in stored] == [0, 1, 2, 3]
    assert stored[1:3] == first.events
    assert store.last_seq("g1") == 4


def test_append_keeps_type_version_payload_and_hash(store: EventStore) -> None:
    new_game(store, opening=0)
    sent = NewEvent("duel_resolved", 3, b'{"type":"duel_resolved","winner":"p2","note":"caf\xc3\xa9"}', "ab12")
    [stored] = store.append("g1", [sent]).events
    assert (stored.game_id, stored.type, stored.schema_version, stored.payload, stored.hash) == (
        "g1", "duel_resolved", 3, sent.payload, "ab12",
    )
    assert store.read("g1") == [stored]


def test_append_stale_expected_seq_raises_conflict_and_stores_nothing(store: EventStore) -> None:
    new_game(store, opening=3)
    with pytest.raises(Conflict) as raised:
        store.append("g1", [event(9)], expected_seq=1)
    assert (raised.value.game_id, raised.value.expected_seq, raised.value.actual_seq) == ("g1", 1, 3)
    assert "g1" in str(raised.value)
    assert store.last_seq("g1") == 3


def test_append_batch_with_a_bad_event_stores_none_of_it(store: EventStore) -> None:
    new_game(store, opening=1)
    with pytest.raises(ValueError):
        store.append("g1", [event(1), event(2), NewEvent("placed", 1, b'{"truncated":')])
    with pytest.raises(ValueError):
        store.append("g1", [])
    assert store.last_seq("g1") == 1
    assert len(store.read("g1")) == 1


def test_append_repeated_idempotency_key_returns_the_first_result(store: EventStore) -> None:
    new_game(store, opening=1)
    first = store.append("g1", [event(1), event(2)], expected_seq=1, idempotency_key="k1")
    store.append("g1", [event(3)])
    again = store.append("g1", [event(7)], expected_seq=1, idempotency_key="k1")  # stale seq, other events
    assert again.replayed and not first.replayed
    assert (again.first_seq, again.last_seq, again.events) == (first.first_seq, first.last_seq, first.events)
    assert store.last_seq("g1") == 4


def test_find_idempotent_returns_the_first_answer_or_none(store: EventStore) -> None:
    new_game(store, opening=1)
    assert store.find_idempotent("g1", "k1") is None
    first = store.append("g1", [event(1), event(2)], idempotency_key="k1")
    store.append("g1", [event(3)], idempotency_key="k2")
    found = store.find_idempotent("g1", "k1")
    assert found is not None and found.replayed
    assert (found.first_seq, found.last_seq, found.events) == (2, 3, first.events)
    assert store.last_seq("g1") == 4


def test_append_idempotency_keys_are_scoped_per_game(store: EventStore) -> None:
    new_game(store, "g1")
    new_game(store, "g2")
    one = store.append("g1", [event(1)], idempotency_key="same")
    two = store.append("g2", [event(1)], idempotency_key="same")
    assert not one.replayed and not two.replayed
    assert (one.game_id, two.game_id) == ("g1", "g2")
    assert store.last_seq("g1") == store.last_seq("g2") == 2


def test_append_rejected_request_does_not_consume_its_key(store: EventStore) -> None:
    new_game(store, opening=2)
    with pytest.raises(Conflict):
        store.append("g1", [event(1)], expected_seq=0, idempotency_key="k")
    result = store.append("g1", [event(1)], expected_seq=2, idempotency_key="k")
    assert (result.first_seq, result.replayed) == (3, False)


# -- unknown games and bad arguments --------------------------------------------------------------------

CALLS_ON_A_GAME: dict[str, Callable[[EventStore], object]] = {
    "append": lambda s: s.append("nope", [event(1)]),
    "read": lambda s: s.read("nope"),
    "find_idempotent": lambda s: s.find_idempotent("nope", "k"),
    "last_seq": lambda s: s.last_seq("nope"),
    "get_game": lambda s: s.get_game("nope"),
    "update_metadata": lambda s: s.update_metadata("nope", {"status": "over"}),
    "put_snapshot": lambda s: s.put_snapshot("nope", 0, b"state"),
    "get_snapshot": lambda s: s.get_snapshot("nope", 5),
}


@pytest.mark.parametrize("call", CALLS_ON_A_GAME, ids=str)
def test_store_unknown_game_raises_game_not_found(store: EventStore, call: str) -> None:
    new_game(store, "g1")
    with pytest.raises(GameNotFound) as raised:
        CALLS_ON_A_GAME[call](store)
    assert raised.value.game_id == "nope"
    assert "nope" in str(raised.value)


def test_read_returns_the_asked_slice(store: EventStore) -> None:
    new_game(store, opening=6)
    assert [e.seq for e in store.read("g1", 2, 4)] == [2, 3, 4]
    assert [e.seq for e in store.read("g1", 5)] == [5, 6]
    assert [e.seq for e in store.read("g1", 4, 99)] == [4, 5, 6]
    assert store.read("g1", 7) == []
    assert store.read("g1", 4, 3) == []
    with pytest.raises(ValueError):
        store.read("g1", 0)


# -- metadata, listing, snapshots -----------------------------------------------------------------------


def test_last_seqs_answers_for_many_games_in_one_call_and_follows_appends(store: EventStore) -> None:
    new_game(store, "g1", opening=2)
    new_game(store, "g2", opening=0)
    assert store.last_seqs(["g1", "g2", "nope"]) == {"g1": 2, "g2": 0}  # a game that does not exist is absent
    assert store.last_seqs([]) == {}
    store.append("g1", [event(3)])
    store.append("g2", [event(1), event(2)])
    assert store.last_seqs(["g2", "g1"]) == {"g1": 3, "g2": 2}
    new_game(store, "g3", opening=4)
    assert store.last_seqs(["g3", "g1"]) == {"g1": 3, "g3": 4}
    assert store.last_seqs(["g1"]) == {"g1": store.last_seq("g1")}


def test_update_metadata_merges_shallowly(store: EventStore) -> None:
    new_game(store, metadata={"variant": {"mode": "sealed", "unbounded": True}, "names": {"p1": "Ann"}})
    store.update_metadata("g1", {"status": "over", "winner": "p2", "variant": {"mode": "table"}})
    assert store.get_game("g1").metadata == {
        "variant": {"mode": "table"}, "names": {"p1": "Ann"}, "status": "over", "winner": "p2",
    }
    store.update_metadata("g1", {"winner": None})
    assert store.get_game("g1").metadata["winner"] is None


def test_list_games_filters_by_system_player_and_tournament(store: EventStore) -> None:
    new_game(store, "a", players=["p1", "p2"], tournament="spring")
    new_game(store, "b", system="l5r", players=["p1", "p3"])
    new_game(store, "c", players=["p2", "p3"], tournament="spring")
    ids = lambda page: [g.game_id for g in page.games]  # noqa: E731
    assert ids(store.list_games()) == ["a", "b", "c"]
    assert ids(store.list_games(system="lords-of-war")) == ["a", "c"]
    assert ids(store.list_games(player="p3")) == ["b", "c"]
    assert ids(store.list_games(tournament="spring", player="p1")) == ["a"]
    assert ids(store.list_games(system="heroscape")) == []
    assert store.list_games().games[0].last_seq == 1


def test_list_games_filters_by_army_label_in_the_metadata(store: EventStore) -> None:
    new_game(store, "a", metadata={"armies": {"p1": "orcs", "p2": "elves"}})
    new_game(store, "b", metadata={"armies": {"p1": "elves", "p2": "custom:orcs"}})
    new_game(store, "c", metadata={"seats": [{"id": "p1", "army": "orcs"}]})  # no listing: not matched
    new_game(store, "d", metadata={"armies": "orcs"})  # not a seat -> label object: not matched
    ids = lambda page: [g.game_id for g in page.games]  # noqa: E731
    assert ids(store.list_games(army="orcs")) == ["a"]
    assert ids(store.list_games(army="elves")) == ["a", "b"]
    assert ids(store.list_games(army="custom:orcs", player="p1")) == ["b"]
    assert ids(store.list_games(army="dwarves")) == []


def test_list_games_filters_by_whether_the_game_is_over(store: EventStore) -> None:
    """Issue 28 item 23: ``over`` keeps the games whose metadata says ``status: over`` (True) or the others, running
    or stored without a status (False); both orders."""
    new_game(store, "a", metadata={"status": "active"})
    new_game(store, "b", metadata={"status": "over", "winner": "p1"})
    new_game(store, "c", metadata={})
    new_game(store, "d", metadata={"status": "active"})
    store.update_metadata("d", {"status": "over", "winner": "draw"})
    ids = lambda page: [g.game_id for g in page.games]  # noqa: E731
    assert ids(store.list_games(over=True)) == ["b", "d"]
    assert ids(store.list_games(over=False)) == ["a", "c"]
    assert ids(store.list_games(over=True, newest_first=True)) == ["d", "b"]
    assert ids(store.list_games(over=False, newest_first=True, limit=1)) == ["c"]
    page = store.list_games(over=False, limit=1)
    assert ids(page) == ["a"] and ids(store.list_games(over=False, cursor=page.next_cursor)) == ["c"]
    assert ids(store.list_games(over=None)) == ["a", "b", "c", "d"]


def test_list_games_newest_first_pages_backwards_in_time(store: EventStore) -> None:
    for i in range(7):
        new_game(store, f"g{i}")
    seen: list[str] = []
    page = store.list_games(limit=3, newest_first=True)
    while True:
        seen += [g.game_id for g in page.games]
        if page.next_cursor is None:
            break
        new_game(store, f"late{len(seen)}")  # newer than every page: not in the pages still to come
        page = store.list_games(limit=3, cursor=page.next_cursor, newest_first=True)
    assert seen == [f"g{i}" for i in reversed(range(7))]
    assert [g.game_id for g in store.list_games(limit=2, newest_first=True).games] == ["late6", "late3"]


def test_list_games_pages_are_stable_while_games_are_added(store: EventStore) -> None:
    for i in range(7):
        new_game(store, f"g{i}")
    seen: list[str] = []
    page = store.list_games(limit=3)
    while True:
        seen += [g.game_id for g in page.games]
        if page.next_cursor is None:
            break
        new_game(store, f"late{len(seen)}")  # created after the pages already read: shows up at the end
        page = store.list_games(limit=3, cursor=page.next_cursor)
    everything = [g.game_id for g in store.list_games(limit=100).games]
    assert seen == everything
    assert len(seen) == len(set(seen)) > 7
    with pytest.raises(ValueError):
        store.list_games(cursor="not a cursor!")
    with pytest.raises(ValueError):
        store.list_games(limit=0)


def test_snapshot_returns_the_latest_at_or_before(store: EventStore) -> None:
    new_game(store, opening=10)
    assert store.get_snapshot("g1", 10) is None
    store.put_snapshot("g1", 4, b"four")
    store.put_snapshot("g1", 8, b"eight")
    store.put_snapshot("g1", 8, b"eight again")
    assert store.get_snapshot("g1", 3) is None
    assert store.get_snapshot("g1", 7) == (4, b"four")
    assert store.get_snapshot("g1", 100) == (8, b"eight again")
    with pytest.raises(ValueError):
        store.put_snapshot("g1", 11, b"the future")


# -- concurrency ----------------------------------------------------------------------------------------

THREADS = 16
ROUNDS = 50


def run_threads(work: Callable[[int], None]) -> None:
    errors: list[BaseException] = []

    def guarded(n: int) -> None:
        try:
            work(n)
        except BaseException as error:  # surfaced below, never swallowed
            errors.append(error)

    threads = [threading.Thread(target=guarded, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    assert not any(thread.is_alive() for thread in threads)


def test_append_racing_on_one_expected_seq_has_exactly_one_winner(store: EventStore) -> None:
    new_game(store, opening=1)
    start, go = threading.Barrier(THREADS), threading.Barrier(THREADS)
    wins: list[tuple[int, int, int]] = []  # (round, thread, seq)
    conflicts: list[int] = []

    def contend(n: int) -> None:
        for round_ in range(ROUNDS):
            start.wait(timeout=30)  # the previous round is over for everyone
            seen = store.last_seq("g1")
            go.wait(timeout=30)  # everyone has read the same seq
            try:
                result = store.append("g1", [event(round_ * 100 + n)], expected_seq=seen)
                wins.append((round_, n, result.first_seq))
            except Conflict as conflict:
                conflicts.append(conflict.actual_seq)

    run_threads(contend)
    assert sorted(r for r, _, _ in wins) == list(range(ROUNDS))  # one winner per round
    assert len(conflicts) == ROUNDS * (THREADS - 1)
    stored = store.read("g1")
    assert [e.seq for e in stored] == list(range(1, ROUNDS + 2))
    for round_, n, seq in wins:
        assert seq == round_ + 2
        assert msgspec.json.decode(stored[seq - 1].payload)["n"] == round_ * 100 + n


def test_append_on_different_games_proceeds_independently(store: EventStore) -> None:
    for n in range(THREADS):
        new_game(store, f"g{n}", opening=0)

    def play(n: int) -> None:
        for i in range(ROUNDS):
            result = store.append(f"g{n}", [event(i)], expected_seq=i, idempotency_key=f"move-{i}")
            assert (result.first_seq, result.replayed) == (i + 1, False)

    run_threads(play)
    for n in range(THREADS):
        stored = store.read(f"g{n}")
        assert [msgspec.json.decode(e.payload)["n"] for e in stored] == list(range(ROUNDS))


def test_append_racing_with_one_idempotency_key_stores_once(store: EventStore) -> None:
    new_game(store, opening=1)
    results = []
    go = threading.Barrier(THREADS)

    def retry(n: int) -> None:
        go.wait(timeout=30)
        results.append(store.append("g1", [event(n)], idempotency_key="the-move"))

    run_threads(retry)
    assert sum(not r.replayed for r in results) == 1
    assert {(r.first_seq, r.last_seq) for r in results} == {(2, 2)}
    assert len({r.events[0].payload for r in results}) == 1
    assert store.last_seq("g1") == 2


# -- streams of another kind (a tournament's log) --------------------------------------------------------


def new_tournament(store: EventStore, stream_id: str = "t1", opening: int = 1) -> None:
    store.create_stream(stream_id, "tournament", "lords-of-war", {}, [event(i, "tournament_created")
                                                                      for i in range(opening)])


def test_a_tournament_stream_appends_on_the_games_path(store: EventStore) -> None:
    """A tournament's log is a stream of the store: the same seqs, expected_seq conflicts, idempotency keys,
    last seqs and reads as a game's."""
    created = store.create_stream("t1", "tournament", "lords-of-war", {"name": "Spring"}, [event(0, "created")])
    assert (created.first_seq, created.last_seq, [e.seq for e in created.events]) == (1, 1, [1])
    stream = store.get_stream("t1")
    assert (stream.stream_id, stream.kind, stream.system, stream.metadata, stream.last_seq) == (
        "t1", "tournament", "lords-of-war", {"name": "Spring"}, 1)
    assert stream.created_at == created.events[0].recorded_at
    assert store.append("t1", [event(1), event(2)], expected_seq=1).last_seq == 3
    with pytest.raises(Conflict) as stale:
        store.append("t1", [event(9)], expected_seq=1)
    assert (stale.value.expected_seq, stale.value.actual_seq) == (1, 3)
    first = store.append("t1", [event(3)], expected_seq=3, idempotency_key="round-2")
    again = store.append("t1", [event(4)], expected_seq=3, idempotency_key="round-2")
    assert again.replayed and (again.first_seq, again.events) == (4, first.events)
    assert store.find_idempotent("t1", "round-2") == again
    assert store.last_seq("t1") == 4 and store.last_seqs(["t1", "nope"]) == {"t1": 4}
    assert [msgspec.json.decode(e.payload)["n"] for e in store.read("t1", 2)] == [1, 2, 3]
    assert store.get_stream("t1").last_seq == 4


def test_a_tournament_stream_is_no_game(store: EventStore) -> None:
    """Games and other streams share one id space, but only games are games: get_game, list_games (every filter)
    and the SQL views of games never show a tournament's stream."""
    new_game(store, "g1", tournament="t1")
    new_tournament(store, "t1")
    with pytest.raises(GameNotFound):
        store.get_game("t1")
    assert [g.game_id for g in store.list_games().games] == ["g1"]
    assert [g.game_id for g in store.list_games(system="lords-of-war", newest_first=True).games] == ["g1"]
    assert [g.game_id for g in store.list_games(tournament="t1").games] == ["g1"]
    with pytest.raises(GameExists):
        new_game(store, "t1")
    with pytest.raises(GameExists):
        new_tournament(store, "g1")
    with pytest.raises(GameExists):
        new_tournament(store, "t1")
    assert store.get_stream("g1").kind == "game" and store.last_seq("t1") == 1
    with pytest.raises(GameNotFound):
        store.get_stream("t2")
    if isinstance(store, SqlReadable):  # `warlog sql` users and the projections read these views
        conn = store.reader()
        try:
            assert conn.execute("SELECT game_id FROM games").fetchall() == [("g1",)]
            assert conn.execute("SELECT DISTINCT game_id FROM events").fetchall() == [("g1",)]
            assert conn.execute("SELECT tournament_id, last_seq FROM tournaments").fetchall() == [("t1", 1)]
            assert conn.execute("SELECT tournament_id, seq, type FROM tournament_events").fetchall() == [
                ("t1", 1, "tournament_created")]
        finally:
            conn.close()


def test_create_stream_refuses_games_and_bad_kinds(store: EventStore) -> None:
    for kind in ("game", "", "Tournament", "a kind"):
        with pytest.raises(ValueError):
            store.create_stream("t1", kind, "lords-of-war", {}, [event(0)])
    with pytest.raises(GameNotFound):
        store.get_stream("t1")


def test_list_streams_of_a_kind_in_creation_order_page_by_page(store: EventStore) -> None:
    for n in range(5):
        new_tournament(store, f"t{n}")
        new_game(store, f"g{n}")
    first = store.list_streams("tournament", limit=2)
    assert [s.stream_id for s in first.streams] == ["t0", "t1"] and first.next_cursor is not None
    second = store.list_streams("tournament", limit=2, cursor=first.next_cursor)
    third = store.list_streams("tournament", limit=2, cursor=second.next_cursor)
    assert [s.stream_id for s in second.streams + third.streams] == ["t2", "t3", "t4"]
    assert third.next_cursor is None
    assert {s.kind for s in first.streams + second.streams + third.streams} == {"tournament"}
    assert [s.stream_id for s in store.list_streams("game", limit=10).streams] == [f"g{n}" for n in range(5)]
    assert store.list_streams("league").streams == []


def test_a_tournament_streams_commit_is_heard_like_a_games(store: EventStore) -> None:
    if not isinstance(store, CommitListening):
        pytest.skip("the store tells no one of its commits")
    heard: list[list[str]] = []
    done = threading.Event()

    def listener(ids: list[str]) -> None:
        heard.append(ids)
        if "t1" in ids and any("t1" in i for i in heard[:-1]):
            done.set()

    store.add_commit_listener(listener)
    new_tournament(store, "t1")
    store.append("t1", [event(1)], expected_seq=1)
    assert done.wait(10), heard
    store.remove_commit_listener(listener)


# -- corruption (DuckDB: rows damaged behind the store's back, with SQL) --------------------------------


def damaged(tmp_path: Path, statement: str) -> EventStore:
    path = tmp_path / "damaged.duckdb"
    healthy = DuckDBEventStore(path)
    new_game(healthy, opening=5)
    healthy.close()
    with duckdb.connect(str(path)) as conn:
        conn.execute(statement)
    return DuckDBEventStore(path)


def test_read_payload_that_is_not_json_raises_corrupt_record(tmp_path: Path) -> None:
    store = damaged(tmp_path,
                    "UPDATE stream_events SET payload = '{\"type\": \"placed\", ' WHERE stream_id = 'g1' AND seq = 3")
    try:
        assert [e.seq for e in store.read("g1", 1, 2)] == [1, 2]
        with pytest.raises(CorruptRecord) as raised:
            store.read("g1")
        assert (raised.value.game_id, raised.value.seq) == ("g1", 3)
        assert "'g1'" in str(raised.value) and "seq 3" in str(raised.value)
    finally:
        store.close()


@pytest.mark.parametrize(("missing", "read_from"), [(3, 1), (1, 1), (5, 2)])
def test_read_gap_in_the_stream_raises_corrupt_record(tmp_path: Path, missing: int, read_from: int) -> None:
    store = damaged(tmp_path, f"DELETE FROM stream_events WHERE stream_id = 'g1' AND seq = {missing}")
    try:
        with pytest.raises(CorruptRecord) as raised:
            store.read("g1", read_from)
        assert (raised.value.game_id, raised.value.seq) == ("g1", missing)
        assert f"seq {missing}" in str(raised.value)
    finally:
        store.close()


def test_get_game_metadata_that_is_not_json_raises_corrupt_record(tmp_path: Path) -> None:
    store = damaged(tmp_path, "UPDATE streams SET metadata = '{\"status\": ' WHERE stream_id = 'g1'")
    try:
        with pytest.raises(CorruptRecord) as raised:
            store.get_game("g1")
        assert (raised.value.game_id, raised.value.seq) == ("g1", 0)
        assert len(store.read("g1")) == 5  # the events themselves are fine
    finally:
        store.close()


def test_append_failed_transaction_fails_the_batch_and_recovers(tmp_path: Path) -> None:
    # A row planted behind the writer's back makes the next batch violate PRIMARY KEY (game_id, seq).
    store = damaged(tmp_path, "SELECT 1")
    try:
        store._writer_conn.execute(  # noqa: SLF001 - simulating a foreign writer
            "INSERT INTO stream_events VALUES ('g1', 7, 'placed', 1, '{}', 'x', '')"
        )
        with pytest.raises(duckdb.ConstraintException):
            store.append("g1", [event(6), event(7), event(8)])
        assert store.last_seq("g1") == 5
        assert [e.seq for e in store.read("g1")] == [1, 2, 3, 4, 5]
        store._writer_conn.execute("DELETE FROM stream_events WHERE stream_id = 'g1' AND seq = 7")  # noqa: SLF001
        assert store.append("g1", [event(6)], expected_seq=5).first_seq == 6
    finally:
        store.close()


def test_append_failed_request_does_not_fail_the_others_of_its_group_commit(tmp_path: Path) -> None:
    from concurrent.futures import Future

    from replay.store.duckdb_store import _Append, _Columns

    store = damaged(tmp_path, "SELECT 1")
    try:
        new_game(store, "g2")
        store._writer_conn.execute(  # noqa: SLF001 - simulating a foreign writer
            "INSERT INTO stream_events VALUES ('g1', 7, 'placed', 1, '{}', 'x', '')"
        )
        bad = _Append("g1", _Columns.of([event(6), event(7)]), None, None, Future())
        good = _Append("g2", _Columns.of([event(2)]), None, None, Future())
        store._commit_batch([bad, good])  # noqa: SLF001 - one group commit holding both requests
        assert good.future.result(timeout=5).first_seq == 2
        with pytest.raises(duckdb.ConstraintException):
            bad.future.result(timeout=5)
        assert store.last_seq("g2") == 2 and store.last_seq("g1") == 5
    finally:
        store.close()


# -- the SQL files themselves ---------------------------------------------------------------------------


def test_sql_files_have_a_header_and_one_statement() -> None:
    from replay.store.sql import SQL_DIR, sql

    names = sorted(path.stem for path in SQL_DIR.glob("*.sql"))
    assert "schema" in names and "insert_events" in names
    for name in names:
        text = sql(name)
        header = [line for line in text.splitlines() if line.startswith("--")]
        assert header[0].startswith(f"-- {name}:"), name
        assert any(line.startswith("-- parameters:") for line in header), name
        assert any(line.startswith("-- output:") for line in header), name
        code = "\n".join(line.split("--")[0] for line in text.splitlines())
        assert code.count(";") == 1 and code.rstrip().endswith(";"), f"{name}.sql must hold exactly one statement"


def test_get_game_and_last_seq_are_current_after_every_write(store: EventStore) -> None:
    new_game(store)
    assert store.get_game("g1").last_seq == 1  # read once: a backend may keep the row from now on
    store.append("g1", [event(2), event(3)], expected_seq=1)
    assert store.last_seq("g1") == 3 and store.get_game("g1").last_seq == 3
    store.update_metadata("g1", {"status": "over"})
    record = store.get_game("g1")
    assert record.metadata == {"variant": {"mode": "sealed"}, "status": "over"} and record.last_seq == 3
    record.metadata["status"] = "mutated by a caller"
    assert store.get_game("g1").metadata["status"] == "over"


def test_get_game_racing_concurrent_appends_never_goes_back(store: EventStore) -> None:
    new_game(store)
    done = threading.Event()
    seen: list[int] = []

    def read() -> None:
        while not done.is_set():
            seen.append(store.get_game("g1").last_seq)

    reader = threading.Thread(target=read)
    reader.start()
    for seq in range(1, 60):
        store.append("g1", [event(seq + 1)], expected_seq=seq)
        assert store.get_game("g1").last_seq == seq + 1  # our own write is visible at once
    done.set()
    reader.join()
    assert seen == sorted(seen) and store.last_seq("g1") == 60


def test_capabilities_are_declared_by_protocol_and_honoured(store: EventStore) -> None:
    """A backend's extra capabilities are found by ``isinstance`` on their protocols; each one it claims works."""
    claimed = {cap.__name__ for cap in (SqlReadable, CommitListening, FutureAppending, BulkCreating)
               if isinstance(store, cap)}
    if isinstance(store, MemoryEventStore):
        assert claimed == set()
        return
    if not isinstance(store, DuckDBEventStore):  # PostgreSQL: its SQL is not DuckDB's (statistics read beside it)
        assert claimed == {"CommitListening", "FutureAppending", "BulkCreating"}
    else:
        assert claimed == {"SqlReadable", "CommitListening", "FutureAppending", "BulkCreating"}
    assert isinstance(store, CommitListening) and isinstance(store, FutureAppending)
    changed: list[list[str]] = []
    store.add_commit_listener(changed.append)
    new_game(store, "g1")
    result = store.append_future("g1", [event(2)], expected_seq=1).result(timeout=10)
    assert result.last_seq == 2
    store.remove_commit_listener(changed.append)
    store.append("g1", [event(3)])
    assert ["g1"] in changed and len(changed) == 2  # the create and the future append, not the last one
    if not isinstance(store, SqlReadable):
        assert [e.seq for e in store.read("g1")] == [1, 2, 3]
        return
    conn = store.reader()
    try:
        assert conn.execute("SELECT count(*) FROM events WHERE game_id = 'g1'").fetchone() == (3,)
    finally:
        conn.close()


# -- catalogues (issue 30) ----------------------------------------------------------------------------------------


def test_catalogues_are_stored_once_by_id_and_read_back_as_stored(store: EventStore) -> None:
    from replay.errors import CatalogueNotFound
    from replay.store.base import CatalogueStoring

    assert isinstance(store, CatalogueStoring)
    document = b'{"cards":[],"name":"Border Marches","system":"lords-of-war","version":"1"}'
    first, added = store.add_catalogue("c-" + "1" * 32, "lords-of-war", "Border Marches", "1", document)
    assert added and first.document == document and first.system == "lords-of-war"
    again, added = store.add_catalogue("c-" + "1" * 32, "lords-of-war", "Border Marches", "1", document)
    assert not added and again == first  # immutable: the first stays, created_at included
    store.add_catalogue("c-" + "2" * 32, "l5r", "Emerald", "2", b'{"system":"l5r"}')
    assert store.get_catalogue("c-" + "1" * 32) == first
    assert [c.catalogue_id for c in store.list_catalogues()] == ["c-" + "1" * 32, "c-" + "2" * 32]
    assert [c.name for c in store.list_catalogues("l5r")] == ["Emerald"]
    assert store.list_catalogues("heroscape") == []
    with pytest.raises(CatalogueNotFound):
        store.get_catalogue("c-" + "3" * 32)


def test_the_same_catalogue_stored_at_once_by_many_threads_is_stored_once(store: EventStore) -> None:
    from replay.store.base import CatalogueStoring

    assert isinstance(store, CatalogueStoring)
    document = b'{"name":"Raced","system":"lords-of-war","version":"1"}'
    barrier = threading.Barrier(8)
    added: list[bool] = []
    errors: list[BaseException] = []

    def add() -> None:
        try:
            barrier.wait()
            added.append(store.add_catalogue("c-" + "4" * 32, "lords-of-war", "Raced", "1", document)[1])
        except BaseException as error:  # noqa: BLE001 - reported by the assertion below
            errors.append(error)

    threads = [threading.Thread(target=add) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and sorted(added) == [False] * 7 + [True]
    assert [c.catalogue_id for c in store.list_catalogues()] == ["c-" + "4" * 32]


# -- annotations (issue 32 item 6) --------------------------------------------------------------------------------


def test_annotations_are_appended_in_order_apart_from_the_events(store: EventStore) -> None:
    from replay.store.base import AnnotationStoring

    assert isinstance(store, AnnotationStoring)
    new_game(store, "g1", opening=3)
    new_game(store, "g2")
    before = store.read("g1")
    first = store.add_annotation("g1", 2, "the second step", "scorekeeper", "Ada")
    second = store.add_annotation("g1", 1, "the first step", "organiser", "organiser")
    other = store.add_annotation("g2", 1, "another game's", "scorekeeper", "scorekeeper")
    assert (first.n, second.n, other.n) == (1, 2, 1)  # numbered per game, in the order they were added
    assert first.created_at < second.created_at  # the store's clock
    assert store.annotations("g1") == [first, second] and store.annotations("g2") == [other]
    assert store.annotations("nope") == []
    assert store.read("g1") == before and store.last_seq("g1") == 3  # the events are untouched
    with pytest.raises(GameNotFound):
        store.add_annotation("nope", 1, "no game", "scorekeeper", "scorekeeper")


def test_annotations_numbered_once_each_by_concurrent_writers(store: EventStore) -> None:
    from replay.store.base import AnnotationStoring

    assert isinstance(store, AnnotationStoring)
    new_game(store, "g1")
    errors: list[BaseException] = []

    def write(i: int) -> None:
        try:
            for k in range(5):
                store.add_annotation("g1", 1, f"writer {i} note {k}", "scorekeeper", f"w{i}")
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    notes = store.annotations("g1")
    assert [n.n for n in notes] == list(range(1, 21)) and len({n.text for n in notes}) == 20
