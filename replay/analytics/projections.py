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

What is projected is a pure function of one game's events (``project_game``): the per-game tables
(``proj_games``, ``proj_players``) are recomputed from the whole stream and replaced; the fact tables
(``proj_placements``, ``proj_kills``, ``proj_shots``) are written once, when the game has ended, which keeps them
insert-only (statistics count finished games only). A rebuild therefore equals the incremental result
(``tests/replay/test_projections.py``).
"""

from __future__ import annotations

import logging
import math
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

import duckdb
import msgspec

from engine.lords_of_war.cards import CARDS
from engine.systems import UnknownSystem, get_system
from events.lords_of_war import (
    BerserkerMoved,
    Eliminated,
    GameEnded,
    GameStarted,
    Placed,
    Recalled,
    Shot,
)
from replay.store.sql import sql

LORDS_OF_WAR = "lords-of-war"
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

log = logging.getLogger("warlog.projections")


# -- the rows ------------------------------------------------------------------------------------------------
# Field order = the column order of replay/sql/proj_insert_*.sql.


class GameRow(msgspec.Struct):
    game_id: str
    system: str
    rules_version: str | None
    mode: str | None
    variant: str | None
    intermediate: bool | None
    unbounded: bool | None
    kill_target: int | None
    command_target: int | None
    tournament: str | None
    round: int | None
    started_at: str
    ended_at: str | None
    played_on: str
    month: str
    player_p1: str | None
    player_p2: str | None
    army_p1: str | None
    army_p2: str | None
    first_player: str | None
    winner: str | None
    end_reason: str | None
    turns: int
    finished: bool
    last_seq: int


class PlayerRow(msgspec.Struct):
    game_id: str
    seat: str
    player: str
    army: str
    opponent: str
    opponent_army: str
    went_first: bool
    result: str | None
    kills: int
    commanders: int
    placements: int
    recalls: int
    system: str
    rules_version: str | None
    variant: str | None
    tournament: str | None
    played_on: str
    ended_at: str | None
    end_reason: str | None
    turns: int
    finished: bool


class PlacementRow(msgspec.Struct):
    game_id: str
    placement: int
    seq: int
    turn: int
    seat: str
    army: str
    card: str
    first_of_card: bool
    square: str
    own_square: str
    challenge: bool
    forced: bool
    basis: str
    fate: str = "on_board"
    fate_seq: int | None = None
    fate_turn: int | None = None
    destroyed_by: str | None = None
    killers: list[str] | None = None
    kills: int = 0
    shot_kills: int = 0
    shots: int = 0
    shots_killing: int = 0
    result: str | None = None
    system: str = LORDS_OF_WAR
    rules_version: str | None = None
    variant: str | None = None
    tournament: str | None = None
    played_on: str = ""
    own_faction: bool = False  # the card is of the placing army's faction (migration 004)


class KillRow(msgspec.Struct):
    game_id: str
    seq: int
    turn: int
    round: int
    victim_placement: int | None
    victim_seat: str
    victim_card: str
    attacker_placement: int | None
    attacker_seat: str
    attacker_card: str
    kind: str
    direction: str | None
    value: int


class ShotRow(msgspec.Struct):
    game_id: str
    seq: int
    turn: int
    seat: str
    shooter_placement: int | None
    shooter_card: str
    target_placement: int | None
    target_card: str
    value: int
    killed: bool = False


class GameProjection(msgspec.Struct):
    game: GameRow
    players: list[PlayerRow]
    placements: list[PlacementRow]
    kills: list[KillRow]
    shots: list[ShotRow]


class GameHeader(msgspec.Struct, frozen=True):
    """What the projection needs from the store's ``games`` record."""

    game_id: str
    system: str
    created_at: str
    tournament: str | None = None
    metadata: dict[str, Any] = {}


class StreamEvent(msgspec.Struct, frozen=True):
    seq: int
    recorded_at: str
    event: Any


# -- the pure part ----------------------------------------------------------------------------------------


def variant_label(intermediate: bool, unbounded: bool, kill_target: int, command_target: int) -> str:
    """``standard``, or the non-default settings joined by '+': intermediate, unbounded, targets-K-C."""
    parts = []
    if intermediate:
        parts.append("intermediate")
    if unbounded:
        parts.append("unbounded")
    if (kill_target, command_target) != (20, 4):
        parts.append(f"targets-{kill_target}-{command_target}")
    return "+".join(parts) or "standard"


def own_square(square: str, seat: str, unbounded: bool) -> str:
    """The square as its owner sees it: p2's squares rotated 180 degrees on the 7x6 mat (G6 <-> A1)."""
    if seat != "p2" or unbounded or len(square) != 2:
        return square
    return f"{chr(ord('G') - (ord(square[0]) - ord('A')))}{7 - int(square[1])}"


def _round(metadata: dict[str, Any]) -> int | None:
    value = metadata.get("round")
    if isinstance(value, bool) or not isinstance(value, int | str):
        return None
    try:
        return int(value)
    except ValueError:
        return None


def _other(seat: str) -> str:
    return "p2" if seat == "p1" else "p1"


def _is_commander(card: str) -> bool:
    known = CARDS.get(card)
    return known is not None and known.is_commander


def project_lords_of_war(header: GameHeader, stream: Sequence[StreamEvent]) -> GameProjection:
    """Every projection row of one Lords of War game, from its whole event stream (seq 1 first)."""
    gid = header.game_id
    started: GameStarted | None = None
    placements: list[PlacementRow] = []
    kills: list[KillRow] = []
    shots: list[ShotRow] = []
    seen: set[tuple[str, str]] = set()  # (seat, card) placed so far
    board: dict[str, int] = {}  # square -> index into placements of the unit on it
    turn_shots: list[tuple[ShotRow, str, str]] = []  # this turn's shots with the shooter's and target's squares
    kill_count = {"p1": 0, "p2": 0}
    commander_count = {"p1": 0, "p2": 0}
    recalls = {"p1": 0, "p2": 0}
    turn = 0
    turns = 0
    first_player: str | None = None
    ended: GameEnded | None = None
    ended_at: str | None = None
    unbounded = False

    def new_unit(seq: int, t: int, seat: str, card: str, square: str, challenge: bool, forced: bool, basis: str) -> None:
        army = next((p.army_name for p in started.players if p.id == seat), "") if started else ""
        first = (seat, card) not in seen
        seen.add((seat, card))
        placements.append(
            PlacementRow(
                gid, len(placements) + 1, seq, t, seat, army, card, first, square,
                own_square(square, seat, unbounded), challenge, forced, basis,
            )
        )
        board[square] = len(placements) - 1

    for item in stream:
        event = item.event
        match event:
            case GameStarted():
                started = event
                unbounded = event.variant.unbounded
                if event.position is not None:
                    for unit in event.position.board:
                        new_unit(item.seq, 0, unit.owner, unit.card, unit.square, False, False, "position")
                    for seat, k in event.position.kills.items():
                        if seat in kill_count:
                            kill_count[seat] += k.total
                            commander_count[seat] += k.commanders
            case Placed():
                turn_shots.clear()  # shots belong to the placement they follow (R5)
                turn = event.turn
                turns = max(turns, event.turn)
                if first_player is None and event.turn >= 1:
                    first_player = event.player
                new_unit(item.seq, event.turn, event.player, event.card, event.square, event.challenge,
                         event.forced, event.basis)
            case Shot():
                shooter = board.get(event.shooter_square)
                target = board.get(event.target_square)
                row = ShotRow(
                    gid, item.seq, turn, event.player,
                    placements[shooter].placement if shooter is not None else None, event.shooter_card,
                    placements[target].placement if target is not None else None, event.target_card, event.value,
                )
                shots.append(row)
                turn_shots.append((row, event.shooter_square, event.target_square))
                if shooter is not None:
                    placements[shooter].shots += 1
            case Eliminated():
                victims = [board.get(unit.square) for unit in event.units]
                for unit, victim in zip(event.units, victims, strict=True):
                    killers: list[str] = []
                    kinds: set[str] = set()
                    involved: dict[int, bool] = {}  # attacker index -> a shot of it took part
                    for attacker in unit.attackers:
                        a = board.get(attacker.square)
                        kills.append(
                            KillRow(
                                gid, item.seq, turn, event.round,
                                placements[victim].placement if victim is not None else None, unit.owner, unit.card,
                                placements[a].placement if a is not None else None, attacker.owner, attacker.card,
                                attacker.kind, attacker.direction, attacker.value,
                            )
                        )
                        kinds.add(attacker.kind)
                        if attacker.card not in killers:
                            killers.append(attacker.card)
                        if a is not None:
                            involved[a] = involved.get(a, False) or attacker.kind == "shot"
                        if attacker.kind == "shot":
                            for row, from_square, to_square in turn_shots:
                                if from_square == attacker.square and to_square == unit.square and not row.killed:
                                    row.killed = True
                                    if a is not None:
                                        placements[a].shots_killing += 1
                                    break
                    for a, by_shot in involved.items():
                        placements[a].kills += 1
                        placements[a].shot_kills += int(by_shot)
                    if victim is not None:
                        dead = placements[victim]
                        dead.fate, dead.fate_seq, dead.fate_turn = "destroyed", item.seq, turn
                        dead.destroyed_by = "+".join(k for k in ("arrow", "shot") if k in kinds)
                        dead.killers = killers
                    destroyer = _other(unit.owner)
                    kill_count[destroyer] += 1
                    commander_count[destroyer] += int(_is_commander(unit.card))
                for unit in event.units:
                    board.pop(unit.square, None)
            case BerserkerMoved():
                moved = board.pop(event.origin, None)
                if moved is not None:
                    board[event.target] = moved
            case Recalled():
                unit_index = board.pop(event.square, None)
                recalls[event.player] = recalls.get(event.player, 0) + 1
                if unit_index is not None:
                    back = placements[unit_index]
                    back.fate, back.fate_seq, back.fate_turn = "recalled", item.seq, turn
            case GameEnded():
                ended, ended_at = event, item.recorded_at
            case _:
                pass  # dealing, draws, reveals, extra turns, concessions: nothing to count

    if started is None:
        raise ValueError(f"game {gid!r}: the stream does not start with game_started")
    v = started.variant
    label = variant_label(v.intermediate, v.unbounded, v.kill_target, v.command_target)
    if first_player is None:
        first_player = started.position.to_move if started.position is not None else "p1"
    seats = {p.id: p for p in started.players}
    winner = ended.winner if ended is not None else None
    played_on = header.created_at[:10]
    finished = ended is not None

    def result(seat: str) -> str | None:
        if winner is None:
            return None
        if winner == "draw":
            return "draw"
        return "win" if winner == seat else "loss"

    placed_count = {"p1": 0, "p2": 0}
    for row in placements:
        row.result = result(row.seat)
        row.rules_version, row.variant, row.tournament, row.played_on = (
            started.rules_version, label, header.tournament, played_on,
        )
        row.own_faction = row.army == row.card.split("/", 1)[0]
        if row.basis != "position":
            placed_count[row.seat] = placed_count.get(row.seat, 0) + 1

    def name(seat: str) -> str:
        return seats[seat].name if seat in seats else seat

    def army(seat: str) -> str:
        return seats[seat].army_name if seat in seats else ""

    game = GameRow(
        gid, started.system, started.rules_version, v.mode, label, v.intermediate, v.unbounded, v.kill_target,
        v.command_target, header.tournament, _round(header.metadata), header.created_at, ended_at, played_on,
        header.created_at[:7], name("p1") if "p1" in seats else None, name("p2") if "p2" in seats else None,
        army("p1") if "p1" in seats else None, army("p2") if "p2" in seats else None, first_player, winner,
        ended.reason if ended is not None else None, turns, finished, stream[-1].seq,
    )
    players = [
        PlayerRow(
            gid, seat, name(seat), army(seat), name(_other(seat)), army(_other(seat)), seat == first_player,
            result(seat), kill_count.get(seat, 0), commander_count.get(seat, 0), placed_count.get(seat, 0),
            recalls.get(seat, 0), started.system, started.rules_version, label, header.tournament, played_on,
            ended_at, game.end_reason, turns, finished,
        )
        for seat in seats
    ]
    return GameProjection(game, players, placements, kills, shots)


def project_generic(header: GameHeader, stream: Sequence[StreamEvent]) -> GameProjection:
    """A system without its own projection: one proj_games row with what the store knows."""
    return GameProjection(
        GameRow(
            header.game_id, header.system, None, None, None, None, None, None, None, header.tournament,
            _round(header.metadata), header.created_at, None, header.created_at[:10], header.created_at[:7],
            None, None, None, None, None, None, None, 0, False, stream[-1].seq if stream else 0,
        ),
        [], [], [], [],
    )


PROJECTIONS: dict[str, Callable[[GameHeader, Sequence[StreamEvent]], GameProjection]] = {
    LORDS_OF_WAR: project_lords_of_war,
}


def project_game(header: GameHeader, stream: Sequence[StreamEvent]) -> GameProjection:
    return PROJECTIONS.get(header.system, project_generic)(header, stream)


DAILY_SUMS = ("placements", "kills", "shot_kills", "shots", "shots_killing", "destroyed", "recalled", "games_placed",
              "faction_placed")
DAILY_KEY = ("system", "played_on", "tournament", "variant", "rules_version", "army", "card", "won")


def card_daily(placements: Iterable[PlacementRow]) -> dict[str, list[Any]]:
    """proj_card_daily sums of these placements (finished games with a result), as columns for the upsert."""
    sums: dict[tuple, list[int]] = {}
    for r in placements:
        if r.result is None:
            continue
        key = (r.system, r.played_on, r.tournament or "", r.variant or "", r.rules_version or "", r.army, r.card,
               r.result == "win")
        row = sums.get(key)
        if row is None:
            row = sums[key] = [0] * len(DAILY_SUMS)
        row[0] += 1
        row[1] += r.kills
        row[2] += r.shot_kills
        row[3] += r.shots
        row[4] += r.shots_killing
        row[5] += r.fate == "destroyed"
        row[6] += r.fate == "recalled"
        row[7] += r.first_of_card
        row[8] += r.first_of_card and r.own_faction
    if not sums:
        return {}
    keys = list(sums)
    columns = {name: [k[i] for k in keys] for i, name in enumerate(DAILY_KEY)}
    columns |= {name: [int(sums[k][i]) for k in keys] for i, name in enumerate(DAILY_SUMS)}
    return columns


# -- the projector ------------------------------------------------------------------------------------------


def _columns(rows: Sequence[msgspec.Struct], kind: type[msgspec.Struct]) -> dict[str, list[Any]]:
    return {name: [getattr(row, name) for row in rows] for name in kind.__struct_fields__}


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
            for system in PROJECTIONS:
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
                for table in ("checkpoint", "games", "players", "placements", "kills", "shots", "card_daily",
                              "set_aside"):
                    conn.execute(sql(f"proj_clear_{table}"))
                for system in PROJECTIONS:
                    for table in ("cursor", "players", "history"):
                        conn.execute(sql(f"proj_elo_clear_{table}"), {"system": system})
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
            games, players, placements, kills, shots, checkpoints, rewrite = [], [], [], [], [], [], []
            now = _now()
            for game_id, (header, facts_written) in headers.items():
                stream = streams[game_id]
                if not stream:
                    continue
                time.sleep(0)  # one game's projection at a time between requests' turns with the GIL
                projection = project_game(header, stream)
                games.append(projection.game)
                players.extend(projection.players)
                finished = projection.game.finished
                if finished:
                    if facts_written:
                        rewrite.append(game_id)
                    placements.extend(projection.placements)
                    kills.extend(projection.kills)
                    shots.extend(projection.shots)
                checkpoints.append((game_id, stream[-1].seq, finished, now))
            if rewrite:
                conn.execute(sql("proj_subtract_card_daily"), {"game_ids": rewrite})
                for table in ("placements", "kills", "shots"):
                    conn.execute(sql(f"proj_delete_{table}"), {"game_ids": rewrite})
            for name, rows_, kind in (
                ("games", games, GameRow),
                ("players", players, PlayerRow),
                ("placements", placements, PlacementRow),
                ("kills", kills, KillRow),
                ("shots", shots, ShotRow),
            ):
                if rows_:
                    conn.execute(sql(f"proj_insert_{name}"), _columns(rows_, kind))
            if placements:
                daily = card_daily(placements)
                if daily:
                    conn.execute(sql("proj_upsert_card_daily"), daily)
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
    """Catch up every game now, then (``background``) follow the store's commits: a pass at most every
    ``interval`` seconds, each game at most every ``game_interval`` seconds. Close it before the store."""
    projector = Projector(store, interval=interval, game_interval=game_interval)
    projector.catch_up()
    if background:
        projector.start()
    return projector
