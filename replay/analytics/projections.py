"""Projections: read models for the statistics, derived from the event log and kept in step with it.

Design (docs/statistics.md): a **catch-up projector**, not a hook inside the append transaction. The store's
writer stays a pure log writer; after each commit it tells the projector which games got events
(``DuckDBEventStore.add_commit_listener``), and the projector, on its own thread, brings those games up to date.
On start (``attach``) and in ``warlog reproject`` it catches up every game whose ``games.last_seq`` is ahead of
its checkpoint. Exactly once: for each game, the projection rows and ``proj_checkpoint(game_id, last_seq)`` are
written in ONE transaction, so a crash loses either both or neither, and the next catch-up redoes exactly what
was lost. Two projectors racing on a game collide on the checkpoint's primary key; the loser rolls back.

One game never holds back the others: when a transaction of several games fails, each of its games is tried
again alone, and a game that fails alone is **set aside** (``proj_set_aside``, with the error, logged as a
warning) and skipped until it gets new events or ``warlog reproject`` runs. Only failures of the database itself
(I/O, connection, memory, interruption) end a pass. Shutdown is bounded: ``close`` projects what it can within
``CLOSE_BUDGET`` seconds and leaves the rest to the next start's catch-up (the checkpoint keeps that exact).

What is projected is a pure function of one game's events (``project_game``), in two parts:
- the **core**, the same for every game system (``read_game``): the game (``proj_games``), one row per seat
  (``proj_seats``: player, army label, place, score, result, went first) and one per seat and opposing seat
  (``proj_opponents``), read through the engine's protocol (``seats``, ``outcome``, ``turn``, ``to_act``,
  ``recorded_actions``) and the system's labels (``replay.plugin.Labels``); these per-game rows are recomputed from
  the whole stream and replaced, running games included;
- the **system's own rows** (``replay.plugin.Analytics``: whatever tables the system keeps, e.g. placements), which its
  ``store`` writes in the same transaction; its facts are written once, when the game has ended, which keeps them
  insert-only (statistics count finished games only).
A rebuild therefore equals the incremental result (``tests/replay/test_projections.py``).
"""

from __future__ import annotations

import logging
import math
import threading
import time
import zlib
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import duckdb
import msgspec

from engine.adjudication import is_correction
from engine.errors import StreamError
from engine.system import AnySystem, Outcome
from engine.systems import UnknownSystem, get_system, system_names
from replay.analytics.model import (
    GAME_SETTINGS,
    GameFacts,
    GameHeader,
    GameLabels,
    SeatFacts,
    StreamEvent,
    column_lists,
)
from replay.plugin import Analytics
from replay.store.sql import sql
from replay.systems import find_plugin, plugins

PAGE = 500  # games per catch-up transaction
INTERVAL = 1.0  # seconds: a background pass starts at most this often
GAME_INTERVAL = 10.0  # seconds: a game is projected again in the background at most this often (the lag bound)
# A pass is pure Python for tens of milliseconds (decoding and projecting ~100 busy games): CPython hands the GIL
# to a waiting thread only every 5 ms (sys.getswitchinterval), and a request takes it several times (event
# loop, handler, the writer after each statement). The projector gives it up on its own this often (events).
YIELD_EVERY = 500
# A background pass writes its games in transactions of this many, with a short pause between them: one
# transaction for a pass's ~100 games held DuckDB (and the store writer's next commit) for tens of milliseconds.
BACKGROUND_PAGE = 16
BACKGROUND_PAUSE = 0.002  # seconds between a background pass's transactions
BACKGROUND_QUOTA = 32  # games a background pass takes at most (the oldest waiting first)
CLOSE_BUDGET = 2.0  # seconds: close() projects the backlog for at most this long; the next start does the rest
# (uvicorn gives open connections up to 5 s first, so SIGTERM still ends the server well within 10 s)
# Failures of the database itself, not of one game's rows: they end the pass (retried later), nothing is set aside.
DATABASE_FAILURES: tuple[type[BaseException], ...] = (
    duckdb.OperationalError,  # I/O, connection (closed), out of memory, transaction conflicts
    duckdb.FatalException,
    duckdb.InterruptException,
    MemoryError,
)
ERROR_CHARS = 1000  # proj_set_aside.error keeps this much of the message
CORE_TABLES = ("checkpoint", "games", "seats", "opponents", "set_aside")  # what a rebuild empties (and Elo's)

log = logging.getLogger("warlog.projections")


# -- the core rows ---------------------------------------------------------------------------------------------
# Field order = the column order of replay/sql/proj_insert_*.sql.


class GameRow(msgspec.Struct, kw_only=True):
    game_id: str
    system: str
    rules_version: str | None
    mode: str | None
    variant: str | None
    intermediate: bool | None  # the GAME_SETTINGS columns: what the system's labels give, else None
    unbounded: bool | None
    kill_target: int | None
    command_target: int | None
    tournament: str | None
    round: int | None
    started_at: str
    ended_at: str | None
    played_on: str
    month: str
    player_p1: str | None  # the players and armies of a two-seat game (proj_seats has every game's seats)
    player_p2: str | None
    army_p1: str | None
    army_p2: str | None
    first_player: str | None
    winner: str | None
    end_reason: str | None
    turns: int
    finished: bool
    last_seq: int
    seats: int
    armies: list[str]
    adjudication: str | None  # the adjudication's reason of a game ended by adjudicate, else None
    catalogue: str | None = None  # the catalogue the game plays (its metadata's, issue 30), None: the default


class SeatRow(msgspec.Struct, kw_only=True):
    game_id: str
    seat: str
    seat_index: int
    team: str | None
    player: str
    army: str
    place: int | None
    score: int | None
    result: str | None
    went_first: bool
    mirror: bool
    seats: int
    system: str
    rules_version: str | None
    variant: str | None
    tournament: str | None
    played_on: str
    ended_at: str | None
    end_reason: str | None
    turns: int
    finished: bool
    adjudication: str | None


class OpponentRow(msgspec.Struct, kw_only=True):
    game_id: str
    seat: str
    opponent_seat: str
    player: str
    opponent: str
    army: str
    opponent_army: str
    result: str | None
    system: str
    rules_version: str | None
    variant: str | None
    tournament: str | None
    played_on: str
    finished: bool
    adjudication: str | None


class GameProjection(msgspec.Struct):
    """Every row of one game: the core's, and (``analytics`` not None) the system's own (``rows``)."""

    game: GameRow
    seats: list[SeatRow]
    opponents: list[OpponentRow]
    facts: GameFacts | None = None  # None: a game of a system this build does not know
    analytics: Any = None  # the system's Analytics part
    rows: Any = None  # what its project() returned


# -- the pure part: reading a game through the engine's protocol ------------------------------------------------


def _round(metadata: dict[str, Any]) -> int | None:
    value = metadata.get("round")
    if isinstance(value, bool) or not isinstance(value, int | str):
        return None
    try:
        return int(value)
    except ValueError:
        return None


def _names(setup: dict[str, Any]) -> list[str | None]:
    """The players' names of a setup (``players[].name``, the contract's shape), by seat index."""
    players = setup.get("players")
    if not isinstance(players, list | tuple):
        return []
    return [p.get("name") if isinstance(p, dict) and isinstance(p.get("name"), str) else None for p in players]


def _is_concession(system: AnySystem, seat: str, action: Any) -> bool:
    try:
        return bool(action == system.concession(seat))
    except Exception:  # noqa: BLE001 - a seat the system cannot concede for: not a concession
        return False


def _result(outcome: Outcome | None, seat: str) -> str | None:
    """win (among the winners), draw (every seat placed together), loss; None while running or without a result."""
    if outcome is None:
        return None
    if outcome.winners:
        return "win" if seat in outcome.winners else "loss"
    return "draw" if len(outcome.placings) == 1 else None


def _winner(outcome: Outcome | None) -> str | None:
    if outcome is None:
        return None
    if outcome.winners:
        return "+".join(outcome.winners)
    return "draw" if len(outcome.placings) == 1 else None


def read_game(header: GameHeader, stream: Sequence[StreamEvent], system: AnySystem) -> GameFacts:
    """The core's reading of one game (its stream from seq 1), through the engine's protocol:

    - seats from ``seats(recorded_setup(events))``, players' names from the setup's ``players``, army labels and the
      filters' labels from the system's ``Labels`` part (blank without one);
    - the result from ``outcome`` of the final state: places (tied seats share one), results, scores; a result
      corrected after the game ended (issue 31: a ``game_ended`` with an ``adjudication`` of reason ``correction``)
      is the final state's, so every statistic counts the corrected result, as adjudicated (``correction``), and the
      game's end (``ended_at``: the stream's last event) is when that result became known: the rating order moves
      the game there, which is also how a cached rating pass learns that it must be redone (its count before its
      end changes);
    - ``turns``, the game's length: the highest ``turn`` in which a seat took an action other than conceding (a
      concession at the start of a turn plays no part of it): ``turn`` before the last such action, since turns
      never go back; ``turn`` of the final state when the system cannot recover the stream's actions
      (``StreamError``);
    - the first player: the seat ``to_act`` awaited first once ``turn`` reached 1, or (a game that ended before)
      the first seat it awaited at all.

    One pass of the engine over the stream: each event is evolved once. The opening is stepped through event by
    event (``evolve``) until the first player is known, a handful of events; the rest is folded on from there
    (``fold(events, state)``, the system's fast path), stopping once at the last action for the length.
    """
    events = [item.event for item in stream]
    if not events:
        raise ValueError(f"game {header.game_id!r}: no events")
    setup = system.recorded_setup(events)
    seats = system.seats(setup)
    plugin = find_plugin(header.system)
    labels = plugin.labels.labels(events[0]) if plugin is not None and plugin.labels is not None else GameLabels()
    try:
        actions = system.recorded_actions(events)
    except StreamError:
        actions = None
    # where the length is read: the start of the last action that is not a concession (nor a correction of the
    # result after the game ended: it plays no part of the game either)
    last = None if actions is None else next(
        (a.start for a in reversed(actions)
         if not _is_concession(system, a.seat, a.action) and not is_correction(a.action)), None)
    turns: int | None = None
    first: str | None = None  # the first player: step from the start until the game awaits a seat in turn 1
    awaited_first: str | None = None
    state = system.initial_state()
    done = 0  # events evolved so far
    for event in events:
        if done == last:
            turns = system.turn(state)
        state = system.evolve(state, event)
        done += 1
        awaited = system.to_act(state)
        if awaited:
            awaited_first = awaited_first or awaited[0]
            if system.turn(state) >= 1:
                first = awaited[0]
                break
    first = first or awaited_first
    if last is not None and last >= done:  # fold on to the last action, read the length, then to the end
        state = system.fold(events[done:last], state)
        turns = system.turn(state)
        done = last
    state = system.fold(events[done:], state)
    if turns is None:
        turns = system.turn(state) if actions is None else 0
    outcome = system.outcome(state)
    names = _names(setup)
    seat_facts = tuple(
        SeatFacts(
            id=seat.id,
            index=seat.index,
            team=seat.team,
            player=(names[seat.index] if seat.index < len(names) else None) or seat.id,
            army=labels.armies.get(seat.id, ""),
            place=outcome.place_of(seat.id) if outcome is not None else None,
            score=outcome.scores.get(seat.id) if outcome is not None else None,
            result=_result(outcome, seat.id),
            went_first=seat.id == first,
        )
        for seat in seats
    )
    return GameFacts(
        header=header,
        labels=labels,
        seats=seat_facts,
        first_player=first,
        winner=_winner(outcome),
        end_reason=outcome.reason if outcome is not None else None,
        turns=turns,
        finished=outcome is not None,
        ended_at=stream[-1].recorded_at if outcome is not None else None,
        played_on=header.created_at[:10],
        last_seq=stream[-1].seq,
        adjudication=outcome.adjudication if outcome is not None else None,
    )


def _catalogue(metadata: dict[str, Any]) -> str | None:
    """The catalogue id a game's metadata lists (``replay.log.service.listed_catalogue``), None for the default."""
    identity = metadata.get("catalogue")
    return identity if isinstance(identity, str) else None


def _sides_differ(a: SeatFacts, b: SeatFacts) -> bool:
    return a.id != b.id and (a.team is None or a.team != b.team)


def _against(a: SeatFacts, b: SeatFacts) -> str | None:
    """a's result against b: placed ahead (win), behind (loss) or level (draw)."""
    if a.result is None or a.place is None or b.place is None:
        return None
    return "win" if a.place < b.place else "loss" if a.place > b.place else "draw"


def core_rows(game: GameFacts) -> tuple[GameRow, list[SeatRow], list[OpponentRow]]:
    """The core tables' rows of one game read by ``read_game``."""
    header, labels, seats = game.header, game.labels, game.seats
    common = game.filter_columns()  # the columns every core table has
    two = {s.id: s for s in seats} if len(seats) == 2 else {}
    settings: dict[str, Any] = {name: labels.settings.get(name) for name in GAME_SETTINGS}
    row = GameRow(
        game_id=header.game_id, mode=labels.mode, **settings, round=_round(header.metadata),
        started_at=header.created_at, ended_at=game.ended_at, month=header.created_at[:7],
        player_p1=two["p1"].player if "p1" in two else None, player_p2=two["p2"].player if "p2" in two else None,
        army_p1=two["p1"].army if "p1" in two else None, army_p2=two["p2"].army if "p2" in two else None,
        first_player=game.first_player, winner=game.winner, end_reason=game.end_reason, turns=game.turns,
        last_seq=game.last_seq, seats=len(seats), armies=[s.army for s in seats], adjudication=game.adjudication,
        catalogue=_catalogue(header.metadata), **common,
    )
    mirror = len({s.army for s in seats}) == 1
    seat_rows = [
        SeatRow(
            game_id=header.game_id, seat=s.id, seat_index=s.index, team=s.team, player=s.player, army=s.army,
            place=s.place, score=s.score, result=s.result, went_first=s.went_first, mirror=mirror, seats=len(seats),
            ended_at=game.ended_at, end_reason=game.end_reason, turns=game.turns, adjudication=game.adjudication,
            **common,
        )
        for s in seats
    ]
    opponents = [
        OpponentRow(
            game_id=header.game_id, seat=a.id, opponent_seat=b.id, player=a.player, opponent=b.player, army=a.army,
            opponent_army=b.army, result=_against(a, b), adjudication=game.adjudication, **common,
        )
        for a in seats
        for b in seats
        if _sides_differ(a, b)
    ]
    return row, seat_rows, opponents


def project_unknown(header: GameHeader, stream: Sequence[StreamEvent]) -> GameProjection:
    """A game of a system this build does not know: one proj_games row with what the store knows."""
    return GameProjection(
        GameRow(
            game_id=header.game_id, system=header.system, rules_version=None, mode=None, variant=None,
            intermediate=None, unbounded=None, kill_target=None, command_target=None, tournament=header.tournament,
            round=_round(header.metadata), started_at=header.created_at, ended_at=None,
            played_on=header.created_at[:10], month=header.created_at[:7], player_p1=None, player_p2=None,
            army_p1=None, army_p2=None, first_player=None, winner=None, end_reason=None, turns=0, finished=False,
            last_seq=stream[-1].seq if stream else 0, seats=0, armies=[], adjudication=None,
            catalogue=_catalogue(header.metadata),
        ),
        [], [],
    )


def project_game(header: GameHeader, stream: Sequence[StreamEvent]) -> GameProjection:
    """Every projection row of one game, from its whole event stream (seq 1 first)."""
    try:
        system = get_system(header.system)
    except UnknownSystem:
        return project_unknown(header, stream)
    facts = read_game(header, stream, system)
    game, seats, opponents = core_rows(facts)
    plugin = find_plugin(header.system)
    analytics: Analytics | None = plugin.analytics if plugin is not None else None
    if facts.adjudication is not None:
        # A system's own statistics count games decided by its rules: to its tables an adjudicated game has not
        # finished (per-game rows kept unfinished, no facts), as a running game (docs/statistics.md).
        facts = msgspec.structs.replace(facts, finished=False)
    rows = analytics.project(facts, stream) if analytics is not None else None
    return GameProjection(game, seats, opponents, facts, analytics, rows)


# -- the projector ------------------------------------------------------------------------------------------


def _analytics_parts() -> list[Analytics]:
    """The registered systems' Analytics parts."""
    return [plugin.analytics for plugin in plugins() if plugin.analytics is not None]


def system_chains() -> list[Any]:
    """The registered systems' SQL folders, whose migration chains come after the shared one."""
    return [analytics.sql for analytics in _analytics_parts()]


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class Projector:
    """Keeps the proj_* tables of one ``DuckDBEventStore`` in step with its log (see the module docstring)."""

    def __init__(
        self, store: Any, page: int = PAGE, interval: float = INTERVAL, game_interval: float = GAME_INTERVAL
    ) -> None:
        self._store = store
        self._page = page
        self._interval = interval
        self._game_interval = game_interval
        self._windows: dict[str, int] = {}  # game -> its own game_interval window a background pass last took it in
        self._lock = threading.Lock()  # one pass at a time within this process
        self._conn: duckdb.DuckDBPyConnection = store.reader()
        self._dirty: dict[str, None] = {}  # games committed to since they were last taken, oldest first
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False
        self._busy = False
        self._flush = False  # wait_idle asks for a pass now, without the interval
        self._stop_by = math.inf  # monotonic time after which a closing projector starts no new transaction
        self.errors: list[BaseException] = []  # failures of background passes (retried on the next one)

    @contextmanager
    def paused(self) -> Iterator[None]:
        """No pass runs while this is held (a pass's checkpoints and its Elo sync are seen together)."""
        with self._lock:
            yield

    # -- one pass -------------------------------------------------------------------------------------
    def catch_up(self, game_ids: Iterable[str] | None = None) -> int:
        """Project every pending event (of ``game_ids``, or of all games); returns how many games were projected.
        Then bring the stored Elo pass up to date (always after a full catch-up: a crash may have come between)."""
        with self._lock:
            done = 0
            if game_ids is not None:  # the background's passes: short transactions, a pause between them
                wanted = sorted(set(game_ids))
                page = min(self._page, BACKGROUND_PAGE)
                for start in range(0, len(wanted), page):
                    if start:
                        if time.monotonic() >= self._stop_by:  # closing: the next start's catch-up does the rest
                            break
                        time.sleep(BACKGROUND_PAUSE)
                    done += self._pass(sql("proj_pending_games"), {"game_ids": wanted[start : start + page]})
            else:
                after = ""
                while True:
                    rows = self._conn.execute(sql("proj_pending"), {"after": after, "limit": self._page}).fetchall()
                    if not rows:
                        break
                    done += self._project(rows)
                    after = rows[-1][0]
            if done or game_ids is None:
                self._sync_ratings()
            return done

    def _sync_ratings(self) -> None:
        """The stored Elo pass is derived from proj_games, so it is synced after the pass (its own transaction;
        sync_elo checks itself, so a crash in between is repaired by the next sync)."""
        from replay.analytics.ratings import sync_elo

        conn = self._conn
        conn.begin()
        try:
            for system in system_names():
                sync_elo(conn, system)
            conn.commit()
        except BaseException:
            conn.rollback()
            raise

    def rebuild(self) -> int:
        """Empty every projection and project the whole log again (``warlog reproject``)."""
        with self._lock:
            conn = self._conn
            conn.begin()
            try:
                for table in (*CORE_TABLES, "elo_cursor", "elo_players", "elo_history"):
                    conn.execute(sql(f"proj_clear_{table}"))
                for analytics in _analytics_parts():
                    analytics.clear(conn)
                conn.commit()
            except BaseException:
                conn.rollback()
                raise
        return self.catch_up()

    def _pass(self, query: str, params: dict[str, Any]) -> int:
        rows = self._conn.execute(query, params).fetchall()
        return self._project(rows) if rows else 0

    def _project(self, pending: list[tuple]) -> int:
        """Project the pending games in one transaction; if it fails, each game alone, setting aside the games
        that fail alone (a failure of the database itself is raised instead)."""
        try:
            return self._project_together(pending)
        except DATABASE_FAILURES:
            raise
        except Exception as error:
            if len(pending) == 1:
                self._set_aside(pending[0], error)
                return 0
        done = 0
        for row in pending:
            try:
                done += self._project_together([row])
            except DATABASE_FAILURES:
                raise
            except Exception as error:
                self._set_aside(row, error)
        return done

    def _set_aside(self, pending: tuple, error: Exception) -> None:
        game_id, last_seq = pending[0], pending[5]
        text = f"{type(error).__name__}: {error}"[:ERROR_CHARS]
        log.warning("warlog: game %s left out of the statistics (set aside by the projector): %s", game_id, text)
        self._conn.execute(
            sql("proj_set_aside"),
            {"game_id": game_id, "last_seq": last_seq, "error": text, "set_aside_at": _now()},
        )

    def set_aside(self) -> list[tuple[str, int, str, str]]:
        """The games set aside: (game_id, last_seq, error, set_aside_at)."""
        conn = self._store.reader()
        try:
            return [tuple(row) for row in conn.execute(sql("proj_set_aside_list")).fetchall()]
        finally:
            conn.close()

    def _project_together(self, pending: list[tuple]) -> int:
        conn = self._conn
        headers = {
            game_id: (GameHeader(game_id, system, created_at, tournament, msgspec.json.decode(metadata)), facts)
            for game_id, system, created_at, tournament, metadata, _last, _projected, facts in pending
        }
        conn.begin()
        try:
            streams: dict[str, list[StreamEvent]] = {game_id: [] for game_id in headers}
            decoders: dict[str, Any] = {}
            rows = conn.execute(sql("proj_events_of"), {"game_ids": list(headers)}).fetchall()
            for n, (game_id, seq, type_, version, payload, recorded_at) in enumerate(rows):
                if n % YIELD_EVERY == YIELD_EVERY - 1:
                    time.sleep(0)  # let a waiting request or the store's writer have the GIL now
                system = headers[game_id][0].system
                if system not in decoders:
                    try:
                        decoders[system] = get_system(system).codec
                    except UnknownSystem:
                        decoders[system] = None
                codec = decoders[system]
                event = codec.decode_stored(type_, version, payload) if codec is not None else None
                streams[game_id].append(StreamEvent(seq, recorded_at, event))
            games, seats, opponents, checkpoints = [], [], [], []
            parts: dict[int, tuple[Analytics, list[tuple[GameFacts, Any]], list[str]]] = {}
            now = _now()
            for game_id, (header, facts_written) in headers.items():
                stream = streams[game_id]
                if not stream:
                    continue
                time.sleep(0)  # one game's projection at a time between requests' turns with the GIL
                projection = project_game(header, stream)
                games.append(projection.game)
                seats.extend(projection.seats)
                opponents.extend(projection.opponents)
                finished = projection.game.finished
                if projection.analytics is not None and projection.facts is not None:
                    _, rows, rewritten = parts.setdefault(id(projection.analytics), (projection.analytics, [], []))
                    rows.append((projection.facts, projection.rows))
                    if finished and facts_written:
                        rewritten.append(game_id)
                checkpoints.append((game_id, stream[-1].seq, finished, now))
            for name, rows_, kind in (("games", games, GameRow), ("seats", seats, SeatRow),
                                      ("opponents", opponents, OpponentRow)):
                if rows_:
                    conn.execute(sql(f"proj_insert_{name}"), column_lists(rows_, kind))
            for analytics, rows, rewritten in parts.values():
                analytics.store(conn, rows, rewritten)
            if checkpoints:
                ids, seqs, facts, ats = (list(column) for column in zip(*checkpoints, strict=True))
                conn.execute(
                    sql("proj_insert_checkpoints"),
                    {"game_id": ids, "last_seq": seqs, "facts_written": facts, "projected_at": ats},
                )
                conn.execute(sql("proj_delete_set_aside"), {"game_ids": ids})
            conn.commit()
        except BaseException:
            conn.rollback()
            raise
        return len(checkpoints)

    # -- in the background, fed by the store's commits ------------------------------------------------
    def _on_commit(self, game_ids: list[str]) -> None:
        with self._wake:
            self._dirty.update(dict.fromkeys(game_ids))
            self._wake.notify()

    def start(self) -> None:
        self._store.add_commit_listener(self._on_commit)
        self._thread = threading.Thread(target=self._run, name="warlog-projector", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        """Coalesced catch-up: one pass at most every ``interval`` seconds takes the games committed to since they
        were last taken, each game at most once per ``game_interval`` window of its own (``_window``), at most
        ``BACKGROUND_QUOTA`` games a pass, the longest waiting first, so the statistics lag by at most
        ``game_interval`` plus one pass while fewer than ``BACKGROUND_QUOTA / interval`` games a second need
        projecting (a tournament's pace; above it they fall behind and catch up when the load drops). Projecting a
        game re-reads its whole stream: following every group commit re-projected a busy game at each of its
        appends, and the projector's statements and pure-Python work competed with the store's writer and the
        requests for DuckDB and the GIL (26% of the server's py-spy samples under 128 live clients); bounded,
        spread passes in short transactions keep the paced appends' tail down. The checkpoint still makes each
        pass exactly-once; ``wait_idle`` takes everything at once, ``close`` what it can in ``CLOSE_BUDGET``."""
        previous = -self._interval
        while True:
            with self._wake:
                while not self._dirty and not self._closed:
                    self._wake.wait()
                while not self._closed and not self._flush:
                    remaining = previous + self._interval - time.monotonic()
                    if remaining <= 0:
                        break
                    self._wake.wait(remaining)
                if self._closed and (not self._dirty or time.monotonic() >= self._stop_by):
                    return  # what is left stays pending in the log: the next start catches it up
                now = time.monotonic()
                if self._closed or self._flush:
                    due, self._dirty = set(self._dirty), {}
                else:
                    due = set()
                    for g in self._dirty:  # oldest first, at most BACKGROUND_QUOTA a pass
                        if self._windows.get(g, -math.inf) < self._window(g, now):
                            due.add(g)
                            if len(due) == BACKGROUND_QUOTA:
                                break
                    for g in due:
                        del self._dirty[g]
                self._flush = False
                self._busy = True
            previous = now
            self._windows = {g: w for g, w in self._windows.items() if w >= self._window(g, now)}  # still limiting
            self._windows.update({g: self._window(g, now) for g in due})
            try:
                if due:
                    self.catch_up(due)
            except Exception as error:  # the database failed: retried at the next pass; the checkpoint keeps us exact
                self.errors.append(error)
                del self.errors[:-100]
                log.warning("warlog: a projector pass failed (retried later): %s: %s", type(error).__name__, error)
                with self._wake:
                    if not self._closed:
                        self._dirty.update(dict.fromkeys(due))
            finally:
                with self._wake:
                    self._busy = False
                    self._wake.notify_all()

    def _window(self, game_id: str, at: float) -> int:
        """Which of the game's own ``game_interval`` windows ``at`` falls in. A game is taken at most once per
        window, and each game's windows start at its own phase (from its id): games that start together, as a
        tournament round's do, are then not all projected again in the same pass every interval after."""
        phase = zlib.crc32(game_id.encode()) / 2**32 * self._game_interval
        return math.floor((at - phase) / self._game_interval)

    def lag(self) -> tuple[int, int]:
        """(games, events) stored but not yet projected."""
        conn = self._store.reader()
        try:
            games, events = conn.execute(sql("proj_lag")).fetchall()[0]
        finally:
            conn.close()
        return int(games), int(events)

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Wait until everything committed so far is projected (the store answers an append just before it
        notifies the projector, so this looks at the checkpoints, not only at the queue)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._wake:
                self._flush = True
                self._wake.notify_all()
                self._wake.wait_for(lambda: not self._dirty and not self._busy, max(0.0, deadline - time.monotonic()))
            if self.lag() == (0, 0):
                return True
            time.sleep(0.005)
        return False

    def close(self, budget: float = CLOSE_BUDGET) -> None:
        """Stop following the store: the background thread projects the games still waiting for at most
        ``budget`` seconds (then finishes the transaction it is in); the rest is caught up at the next start."""
        self._store.remove_commit_listener(self._on_commit)
        with self._wake:
            self._closed = True
            self._stop_by = time.monotonic() + budget
            self._wake.notify_all()
        if self._thread is not None:
            self._thread.join()
        if self._conn is not None:
            self._conn.close()
            self._conn = None  # type: ignore[assignment]  # no DuckDB object left for exit (store_duckdb._OPEN)


def attach(
    store: Any, background: bool = True, interval: float = INTERVAL, game_interval: float = GAME_INTERVAL
) -> Projector:
    """Apply the registered systems' migration chains, catch up every game now, then (``background``) follow the
    store's commits: a pass at most every ``interval`` seconds, each game at most every ``game_interval`` seconds.
    Close it before the store."""
    store.migrate(*system_chains())  # the systems' own tables, after the shared chain the store applied
    projector = Projector(store, interval=interval, game_interval=game_interval)
    projector.catch_up()
    if background:
        projector.start()
    return projector
