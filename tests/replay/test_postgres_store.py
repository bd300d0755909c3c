"""The PostgreSQL store beyond the shared contract (issue 19): what several processes on one database rely on —
notifications of other stores' commits, a store's errors when the database is away or too slow, COPY imports, the
tournaments' log, and the analytics mirror (a late commit is never skipped; one leader at a time, taken over).
Each test has a schema of its own on the server of tests/pg.py (skipped without one)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from replay.errors import GameExists, StoreTimeout, StoreUnavailable
from replay.store.base import NewEvent
from tests.pg import pg_url  # noqa: F401 - the fixture

pytest.importorskip("psycopg")

from replay.store.postgres_store import PG, BulkGame, PostgresEventStore  # noqa: E402


def event(n: int) -> NewEvent:
    return NewEvent("placed", 1, msgspec.json.encode({"type": "placed", "n": n}))


@pytest.fixture
def store(pg_url: str) -> Iterator[PostgresEventStore]:  # noqa: F811
    opened = PostgresEventStore(pg_url)
    yield opened
    opened.close()


def wait_for(check: object, seconds: float = 120.0) -> bool:
    """Whether ``check()`` holds within ``seconds``: a bound on a hang, generous for a loaded machine."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return True
        time.sleep(0.02)
    return False


def test_postgres_sql_files_have_a_header_and_one_statement() -> None:
    for path in sorted(PG.path.glob("*.sql")):
        name = path.stem
        text = path.read_text(encoding="utf-8")
        header = [line for line in text.splitlines() if line.startswith("--")]
        assert header[0].startswith(f"-- {name}:"), name
        assert any(line.startswith("-- parameters:") for line in header), name
        assert any(line.startswith("-- output:") for line in header), name
        code = "\n".join(line.split("--")[0] for line in text.splitlines())
        assert code.count(";") == 1 and code.rstrip().endswith(";"), f"{name}.sql must hold exactly one statement"
    assert "%(game_id)s" in PG("append") and "$" not in PG("append")


def test_commits_of_another_store_reach_the_listeners_and_our_own_only_once(
    store: PostgresEventStore, pg_url: str  # noqa: F811
) -> None:
    other = PostgresEventStore(pg_url)
    try:
        heard: list[list[str]] = []
        store.add_commit_listener(heard.append)
        assert store.wait_listening(60)
        other.create_game("g1", "lords-of-war", ["p1", "p2"], {}, [event(1)])
        assert wait_for(lambda: len(heard) >= 1), heard
        other.append("g1", [event(2)], expected_seq=1)  # (commits close together may share one notification)
        assert wait_for(lambda: len(heard) >= 2), heard
        store.append("g1", [event(3)], expected_seq=2)  # our own: told once, directly, not echoed by NOTIFY
        # notifications come in commit order: once another commit after ours is heard, an echo of ours would be too
        other.append("g1", [event(4)], expected_seq=3)
        assert wait_for(lambda: len(heard) >= 4), heard
        assert heard == [["g1"], ["g1"], ["g1"], ["g1"]]
    finally:
        other.close()


def test_notifications_of_another_schema_are_not_ours(store: PostgresEventStore, pg_url: str) -> None:  # noqa: F811
    from tests.pg import fresh_schema

    with fresh_schema() as elsewhere:
        stranger, neighbour = PostgresEventStore(elsewhere), PostgresEventStore(pg_url)
        try:
            heard: list[list[str]] = []
            store.add_commit_listener(heard.append)
            assert store.wait_listening(60)
            stranger.create_game("g1", "lords-of-war", ["p1", "p2"], {}, [event(1)])
            # notifications come in commit order: once a later commit in our schema is heard, the stranger's
            # would have been heard before it
            neighbour.create_game("g2", "lords-of-war", ["p1", "p2"], {}, [event(1)])
            assert wait_for(lambda: len(heard) >= 1), heard
            assert heard == [["g2"]]
        finally:
            stranger.close()
            neighbour.close()


def test_a_statement_past_the_timeout_is_a_clear_store_timeout(pg_url: str) -> None:  # noqa: F811
    """Only the statement that waits on the lock goes through the store with the 200 ms timeout: the setup and the
    check go through one with the default timeout, so none of them depends on a loaded machine finishing an
    unrelated statement within 200 ms (issue 28 item 21)."""
    holder = PostgresEventStore(pg_url)
    try:
        holder.create_game("g1", "lords-of-war", ["p1", "p2"], {}, [event(1)])
        slow = PostgresEventStore(pg_url, statement_timeout_ms=200)
        try:
            raised: list[BaseException] = []

            def append() -> None:
                try:
                    slow.append("g1", [event(2)], expected_seq=1)
                except BaseException as error:  # noqa: BLE001 - handed to the test's thread
                    raised.append(error)

            with holder.connection() as conn, conn.transaction():
                conn.execute("LOCK TABLE games IN ACCESS EXCLUSIVE MODE")  # a stalled database, as seen by slow
                appending = threading.Thread(target=append)
                appending.start()
                appending.join(timeout=120)  # bounds a hang: without the timeout the append waits for the lock
                cancelled = not appending.is_alive()
            appending.join(timeout=120)
            assert cancelled, "the append waited for the lock instead of being cancelled by the statement timeout"
            assert len(raised) == 1 and isinstance(raised[0], StoreTimeout), raised
            assert "statement timeout (200 ms)" in str(raised[0])
            assert holder.get_game("g1").last_seq == 1  # nothing half-done
            assert holder.append("g1", [event(2)], expected_seq=1).last_seq == 2
        finally:
            slow.close()
    finally:
        holder.close()


def test_a_store_with_a_short_statement_timeout_waits_for_another_process_migrating(pg_url: str) -> None:  # noqa: F811
    """The migrations are not bound by the serving statements' timeout: a store (a server's worker) opening while
    another process holds the migration lock waits for it rather than failing to start (issue 28 item 21)."""
    import psycopg

    PostgresEventStore(pg_url).close()  # the schema, migrated
    opened: list[object] = []

    def open_store() -> None:
        try:
            opened.append(PostgresEventStore(pg_url, statement_timeout_ms=200, listen=False))
        except BaseException as error:  # noqa: BLE001 - handed to the test's thread
            opened.append(error)

    with psycopg.connect(pg_url) as other:  # another process migrating: it holds the lock
        other.execute(PG("migration_lock"))
        opening = threading.Thread(target=open_store)
        opening.start()

        def waited_past_the_timeout() -> bool:  # by the database's clock: longer than 200 ms on the lock
            if opened:
                return True
            with psycopg.connect(pg_url, autocommit=True) as look:
                return bool(look.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE "
                    "'%%pg_advisory_xact_lock%%' AND now() - query_start > interval '1 second' AND pid <> %s",
                    [other.info.backend_pid]).fetchone()[0])  # type: ignore[index]

        assert wait_for(waited_past_the_timeout, 120)
        assert not opened, opened  # still waiting, not failed
        other.rollback()  # the other process's migration is done
    opening.join(timeout=120)
    assert len(opened) == 1 and isinstance(opened[0], PostgresEventStore), opened
    opened[0].close()


def test_an_unreachable_database_is_store_unavailable_not_a_hang() -> None:
    started = time.monotonic()
    with pytest.raises(StoreUnavailable) as raised:
        PostgresEventStore("postgresql://warlog:warlog@127.0.0.1:1/none", pool_timeout=1.0)
    assert time.monotonic() - started < 10
    assert "unavailable" in str(raised.value)


def test_bulk_import_by_copy_is_all_or_nothing(store: PostgresEventStore) -> None:
    games = [
        BulkGame(f"b{i}", "lords-of-war", ["p1", "p2"], {"armies": {"p1": "orcs"}}, None,
                 ["placed"] * 3, [1] * 3, [f'{{"n": {n}}}' for n in range(3)], ["h1", "h2", "h3"])
        for i in range(50)
    ]
    assert store.create_games_bulk(games) == 150
    assert [e.payload for e in store.read("b7")] == [b'{"n": 0}', b'{"n": 1}', b'{"n": 2}']
    assert store.get_game("b7").last_seq == 3 and store.list_games(army="orcs", limit=100).games[0].game_id == "b0"
    with pytest.raises(GameExists):
        store.create_games_bulk([BulkGame("new", "l5r", [], {}, None, [], [], [], []), games[0]])
    with pytest.raises(Exception):  # noqa: B017 - GameNotFound: the batch was rolled back
        store.get_game("new")


def test_tournament_log_lives_in_the_database_for_every_process(pg_url: str) -> None:  # noqa: F811
    from replay.tournaments.log import StoreTournamentLog
    from replay.tournaments.model import TournamentConflict, TournamentNotFound

    one, two = PostgresEventStore(pg_url), PostgresEventStore(pg_url)
    try:
        a, b = StoreTournamentLog(one), StoreTournamentLog(two)
        assert a.append("spring", [("created", {"name": "Spring"})], expected_seq=0) == 1
        assert [(e.seq, e.type, e.data) for e in b.read("spring")] == [(1, "created", {"name": "Spring"})]
        with pytest.raises(TournamentConflict):
            b.append("spring", [("joined", {"player": "Ann"})], expected_seq=0)
        assert b.append("spring", [("joined", {"player": "Ann"})], expected_seq=1) == 2
        assert a.list_ids() == ["spring"]
        with pytest.raises(TournamentNotFound):
            a.read("autumn")
    finally:
        one.close()
        two.close()


def test_mirror_copies_a_commit_that_ends_after_a_later_one(store: PostgresEventStore, tmp_path: Path) -> None:
    """Transaction ids are taken in one order and committed in another: the mirror's horizon (the oldest running
    transaction) keeps a slow transaction's game from being skipped when a later one is copied first."""
    from replay.analytics.beside import LogMirror

    store.create_game("slow", "lords-of-war", ["p1", "p2"], {}, [event(1)])
    mirror = LogMirror(store, tmp_path / "mirror.duckdb")
    try:
        assert mirror.sync() == 1
        with store.connection() as conn, conn.transaction():  # takes its transaction id now, commits later
            conn.execute(PG("append"), {"game_id": "slow", "expected_seq": 1, "key": None, "recorded_at": "x",
                                        "types": ["placed"], "schema_versions": [1], "payloads": ["{}"],
                                        "hashes": [""]})
            store.create_game("fast", "lords-of-war", ["p1", "p2"], {}, [event(1)])
            assert mirror.sync() == 1  # fast only: slow has not committed
        assert mirror.sync() == 1  # slow, now committed, is found although fast was copied after it began
        reader = mirror.reader()
        try:
            rows = reader.execute("SELECT game_id, last_seq FROM games ORDER BY game_id").fetchall()
            events = reader.execute("SELECT count(*) FROM events").fetchall()[0][0]
        finally:
            reader.close()
        assert rows == [("fast", 1), ("slow", 2)] and events == 3
        assert mirror.sync() == 0  # nothing changed: nothing copied
    finally:
        mirror.close()


def projected_games(keeper: Any) -> int:
    """The games in the statistics file a ``Beside`` reads (the leader's last publication)."""
    conn = keeper.stats.reader()
    try:
        return int(conn.execute("SELECT count(*) FROM proj_checkpoint").fetchall()[0][0])
    finally:
        conn.close()


def test_one_analytics_leader_at_a_time_and_a_follower_takes_over(pg_url: str, tmp_path: Path) -> None:  # noqa: F811
    from replay.analytics import beside

    one, two = PostgresEventStore(pg_url), PostgresEventStore(pg_url)
    first = beside.Beside(one, tmp_path / "stats.duckdb")
    second = None
    try:
        assert wait_for(lambda: first.leader, 60)
        second = beside.Beside(two, tmp_path / "stats.duckdb")
        time.sleep(beside.RETRY + 0.5)
        assert first.leader and not second.leader
        one.create_game("g1", "a-system-not-here", ["p1", "p2"], {}, [event(1)])  # projected as an unknown game
        assert first.flush(120)
        assert projected_games(second) == 1  # the follower reads what the leader published
        first.close()  # its session ends, the lock with it
        assert wait_for(lambda: second.leader, 60)
        two.create_game("g2", "a-system-not-here", ["p1", "p2"], {}, [event(1)])
        assert second.flush(120)
        assert projected_games(second) == 2
    finally:
        first.close()
        if second is not None:
            second.close()
        one.close()
        two.close()


def test_racing_stores_on_one_game_have_one_winner(pg_url: str) -> None:  # noqa: F811
    from replay.errors import Conflict

    stores = [PostgresEventStore(pg_url) for _ in range(2)]
    try:
        stores[0].create_game("g1", "lords-of-war", ["p1", "p2"], {}, [event(1)])
        for seq in range(1, 21):
            barrier = threading.Barrier(2)
            outcome: list[str] = []

            def race(s: PostgresEventStore, expected: int = seq, barrier: threading.Barrier = barrier,
                     outcome: list[str] = outcome) -> None:
                barrier.wait()
                try:
                    s.append("g1", [event(expected + 1)], expected_seq=expected)
                    outcome.append("won")
                except Conflict:
                    outcome.append("conflict")

            threads = [threading.Thread(target=race, args=(s,)) for s in stores]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert sorted(outcome) == ["conflict", "won"], (seq, outcome)
        assert stores[1].last_seq("g1") == 21
    finally:
        for s in stores:
            s.close()


def test_stats_and_sql_commands_read_the_published_file_and_parquet_has_its_own_mirror(
    pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]  # noqa: F811
) -> None:
    from api.cli import main
    from replay.analytics import beside

    monkeypatch.setenv("WARLOG_STATS_DB", str(tmp_path / "stats.duckdb"))
    store = PostgresEventStore(pg_url)
    try:
        assert main(["sql", "--db", pg_url, "SELECT 1"]) == 1  # nothing published yet: said in one line
        capsys.readouterr()
        assert main(["stats", "first-player", "--db", pg_url]) == 1
        assert "not published yet" in capsys.readouterr().err
        keeper = beside.Beside(store, tmp_path / "stats.duckdb")
        try:
            assert wait_for(lambda: keeper.leader, 60)
            store.create_game("g1", "a-system-not-here", ["p1", "p2"], {}, [event(1)])
            assert keeper.flush(120)
        finally:
            keeper.close()
        assert main(["sql", "--db", pg_url, "SELECT count(*) AS n FROM proj_games"]) == 0
        assert "1" in capsys.readouterr().out
        assert main(["stats", "first-player", "--db", pg_url, "--json"]) == 0
        assert '"games"' in capsys.readouterr().out
        assert main(["export-parquet", "--db", pg_url, str(tmp_path / "parquet")]) == 0
        assert any((tmp_path / "parquet").iterdir())
        assert main(["reproject", "--db", pg_url]) == 1
        assert "analytics leader" in capsys.readouterr().err
    finally:
        store.close()


def test_a_cached_row_follows_another_store_s_commits_and_a_lost_listen_connection_empties_the_cache(
    store: PostgresEventStore, pg_url: str  # noqa: F811
) -> None:
    import psycopg

    other = PostgresEventStore(pg_url)
    try:
        assert store.wait_listening(60)
        other.create_game("g1", "lords-of-war", ["p1", "p2"], {"token_hashes": {"p1": "old"}}, [event(1)])
        assert store.get_game("g1").metadata["token_hashes"] == {"p1": "old"}
        # read, kept: the next access check costs no round trip (a read racing the create's own notification is
        # answered but not kept, so on a busy machine it may take a second read)
        assert wait_for(lambda: cached(store, "g1"), 120)
        other.update_metadata("g1", {"token_hashes": {"p1": "new"}})  # a token reissued through another process
        assert wait_for(lambda: store.get_game("g1").metadata["token_hashes"] == {"p1": "new"}, 120)
        other.append("g1", [event(2)], expected_seq=1)
        assert wait_for(lambda: store.get_game("g1").last_seq == 2, 120)
        store.append("g1", [event(3)], expected_seq=2)  # our own commit: the cached row moves on at once
        assert store.get_game("g1").last_seq == 3 and wait_for(lambda: cached(store, "g1"), 120)
        # the LISTEN connection dies: nothing is cached until it is back (notifications may be missed meanwhile)
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", [store.listen_pid])
        # the listener stops caching, then empties the cache
        assert wait_for(lambda: not store._listening.is_set() and "g1" not in store._rows, 120)
        other.update_metadata("g1", {"status": "over"})  # unheard: the listener is down
        assert store.get_game("g1").metadata["status"] == "over"  # read from the database, not cached
        assert store.wait_listening(60)
        assert wait_for(lambda: cached(store, "g1"), 120)
    finally:
        other.close()


def cached(store: PostgresEventStore, game_id: str) -> bool:
    """Read the game and say whether the store kept its row."""
    store.get_game(game_id)
    return game_id in store._rows


def test_a_row_read_while_a_commit_drops_it_is_not_cached(store: PostgresEventStore, pg_url: str) -> None:  # noqa: F811
    """The read that began before a drop may hold the row from before that commit: it is answered, not kept."""
    assert store.wait_listening(60)
    store.create_game("g1", "lords-of-war", ["p1", "p2"], {}, [event(1)])
    real = store._read

    def read_then_another_commit_lands(work: object) -> object:
        rows = real(work)  # type: ignore[arg-type]
        store._drop_rows(["g1"])  # as the notification of another process's commit does, mid-read
        return rows

    store._read = read_then_another_commit_lands  # type: ignore[method-assign]
    try:
        assert store.get_game("g1").last_seq == 1
    finally:
        store._read = real  # type: ignore[method-assign]
    assert "g1" not in store._rows


def test_each_scope_has_its_own_leader(pg_url: str, tmp_path: Path) -> None:  # noqa: F811
    """Two machines (scopes) on one database each lead their own analytics and publish their own file."""
    from replay.analytics import beside

    one, two = PostgresEventStore(pg_url), PostgresEventStore(pg_url)
    here = beside.Beside(one, tmp_path / "here.duckdb", scope="machine-a")
    there = beside.Beside(two, tmp_path / "there.duckdb", scope="machine-b")
    try:
        assert wait_for(lambda: here.leader and there.leader, 60)
        one.create_game("g1", "a-system-not-here", ["p1", "p2"], {}, [event(1)])
        assert here.flush(120) and there.flush(120)
        assert projected_games(here) == projected_games(there) == 1
    finally:
        here.close()
        there.close()
        one.close()
        two.close()


def waiting_on_a_lock(store: PostgresEventStore) -> bool:
    """Whether a session of this database waits on a lock another holds."""
    import psycopg

    with psycopg.connect(store.url, autocommit=True) as look:
        row = look.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                           "AND wait_event_type = 'Lock'").fetchone()
    return bool(row and row[0])


def test_a_bulk_import_racing_another_process_for_an_id_is_game_exists(store: PostgresEventStore) -> None:
    """The id is free when the import checks it, taken when its COPY lands: GameExists naming it, nothing stored."""
    outcome: list[BaseException | int] = []
    games = [BulkGame(gid, "l5r", [], {}, None, ["placed"], [1], ['{"n": 1}'], ["h1"]) for gid in ("free", "race")]
    with store.connection() as conn, conn.transaction():  # another process's create_game, not yet committed
        conn.execute(PG("insert_game"), {"game_id": "race", "kind": "game", "system": "l5r",
                                         "created_at": "2026-01-01T00:00:00Z", "players": [], "tournament": None,
                                         "metadata": "{}", "last_seq": 0})

        def run() -> None:
            try:
                outcome.append(store.create_games_bulk(games))
            except BaseException as error:  # noqa: BLE001 - the test looks at it
                outcome.append(error)

        importer = threading.Thread(target=run)
        importer.start()
        assert wait_for(lambda: waiting_on_a_lock(store), 120)  # the import's COPY waits on the uncommitted row
    importer.join(120)
    assert len(outcome) == 1 and isinstance(outcome[0], GameExists) and outcome[0].game_id == "race", outcome
    with pytest.raises(Exception):  # noqa: B017 - GameNotFound: the import was rolled back
        store.get_game("free")


def test_a_deadlock_with_another_transaction_is_store_busy_and_changes_nothing(store: PostgresEventStore) -> None:
    from replay.errors import StoreBusy

    for game_id in ("g1", "g2"):
        store.create_game(game_id, "lords-of-war", ["p1", "p2"], {}, [event(1)])
    touch = "UPDATE games SET metadata = metadata || '{\"n\": 1}'::jsonb WHERE game_id = %s"
    first_locked, second_locked, errors = threading.Event(), threading.Event(), []

    def one() -> None:
        try:
            with store.connection() as conn, conn.transaction():
                conn.execute(touch, ["g1"])
                first_locked.set()
                assert second_locked.wait(120)  # each holds one row: now each asks for the other's
                conn.execute(touch, ["g2"])
        except StoreBusy as error:
            errors.append(error)

    other = threading.Thread(target=one)
    other.start()
    assert first_locked.wait(120)
    try:
        with store.connection() as conn, conn.transaction():
            conn.execute(touch, ["g2"])
            second_locked.set()
            conn.execute(touch, ["g1"])  # each waits for the other: PostgreSQL ends one of them
    except StoreBusy as error:
        errors.append(error)
    other.join(120)
    assert len(errors) == 1 and "deadlock detected" in str(errors[0]), errors
    changed = [g for g in ("g1", "g2") if store.get_game(g).metadata.get("n") == 1]
    assert changed == ["g1", "g2"]  # the survivor's transaction touched both; the rolled-back one nothing more


def test_reads_survive_an_administrator_ending_every_pooled_session(store: PostgresEventStore, pg_url: str) -> None:  # noqa: F811
    """Issue 28 item 14: a broken connection opens the breaker (calls fail at once while the database is away);
    when the database is there (an administrator ended the sessions, nothing more), the first probe closes it again
    and the read is tried once more on a fresh connection: no StoreUnavailable."""
    import psycopg

    store.create_game("g1", "lords-of-war", ["p1", "p2"], {}, [event(1)])
    with store.connection() as conn:
        mine = conn.info.backend_pid
    with psycopg.connect(pg_url, autocommit=True) as admin:
        # with a timeout, pg_terminate_backend returns once the session has ended (not once it is signalled): a
        # session still ending after the read took its connection broke the append that followed (issue 28 item 21)
        ended = admin.execute("SELECT pg_terminate_backend(pid, 120000) FROM pg_stat_activity WHERE pid = ANY(%s)",
                              [sorted(store._own_pids)]).fetchall()
    assert ended and all(row[0] for row in ended) and mine in store._own_pids
    assert [e.seq for e in store.read("g1")] == [1]  # retried on a fresh connection
    assert not store._breaker.is_open
    assert store.append("g1", [event(2)], expected_seq=1).last_seq == 2
