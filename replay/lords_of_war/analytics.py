"""What Lords of War adds to the statistics (``replay.plugin.Labels`` and ``replay.plugin.Analytics``): the seats'
army labels and the variant label for the core, its own projection tables (per seat: ``low_players``; per
placement, kill and shot: ``low_placements``, ``low_kills``, ``low_shots``; per card and day:
``low_card_daily``), its statistics (``cards``, ``heatmap``) and their SQL under ``replay/lords_of_war/sql/`` with
its own migration chain. docs/statistics.md defines every figure.

The projection is a fold over a game's events (``_Fold``): each event moves the bookkeeping on (the units on the
mat, the shots of the turn, the kill counts), and the rows are built at the end, with keyword arguments, from that
bookkeeping and the core's reading of the game (``GameFacts``: results, first player, the filters' labels).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from engine.lords_of_war.armies import SYSTEM_NAME
from engine.lords_of_war.catalogue import DEFAULT_TABLE, FACTIONS, table_for
from engine.lords_of_war.seating import VICTORY
from engine.lords_of_war.state import started_cards
from events.lords_of_war import BerserkerMoved, Eliminated, GameStarted, Placed, Recalled, Shot
from replay.analytics.model import GameFacts, GameLabels, Parameter, Statistic, StreamEvent, column_lists
from replay.analytics.stats import Filters, catalogue_document, newcombe, sample_games, wilson
from replay.store.sql import SqlFolder

if TYPE_CHECKING:
    import duckdb

sql = SqlFolder(Path(__file__).parent / "sql", SYSTEM_NAME)  # its statements and migration chain
exports = ("low_players", "low_placements", "low_kills", "low_shots")  # for warlog export-parquet
army_names = tuple(sorted(FACTIONS))  # what the army filter knows before any game: the six factions


# -- labels: what the core needs to know of a game --------------------------------------------------------------


def variant_label(intermediate: bool, unbounded: bool, kill_target: int, command_target: int, seats: int = 2) -> str:
    """``standard``, or the non-default settings joined by '+': three-players or teams-4/teams-6 (§10),
    intermediate, unbounded (not said of team games: always), targets-K-C (other than the seat count's, §7/§10)."""
    parts = []
    if seats == 3:
        parts.append("three-players")
    elif seats > 3:
        parts.append(f"teams-{seats}")
    if intermediate:
        parts.append("intermediate")
    if unbounded and seats <= 3:
        parts.append("unbounded")
    if (kill_target, command_target) != VICTORY.get(seats, (20, 4)):
        parts.append(f"targets-{kill_target}-{command_target}")
    return "+".join(parts) or "standard"


def labels(started: GameStarted) -> GameLabels:
    """Each seat's army name (a faction, ``custom:<faction>`` or ``mercenary``), the variant label, the recorded
    rules version, the mode and the variant's settings (proj_games' setting columns)."""
    v = started.variant
    return GameLabels(
        armies={p.id: p.army_name for p in started.players},
        variant=variant_label(v.intermediate, v.unbounded, v.kill_target, v.command_target, len(started.players)),
        rules_version=started.rules_version,
        mode=v.mode,
        settings={"intermediate": v.intermediate, "unbounded": v.unbounded, "kill_target": v.kill_target,
                  "command_target": v.command_target},
    )


# -- the rows ---------------------------------------------------------------------------------------------------
# Field order = the column order of replay/lords_of_war/sql/low_insert_*.sql.


class PlayerRow(msgspec.Struct, kw_only=True):
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


class PlacementRow(msgspec.Struct, kw_only=True):
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
    system: str = SYSTEM_NAME
    rules_version: str | None = None
    variant: str | None = None
    tournament: str | None = None
    played_on: str = ""
    own_faction: bool = False  # the card is of the placing army's faction (migration 004)


class KillRow(msgspec.Struct, kw_only=True):
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


class ShotRow(msgspec.Struct, kw_only=True):
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


class Rows(msgspec.Struct):
    """Lords of War's rows of one game."""

    players: list[PlayerRow]
    placements: list[PlacementRow]
    kills: list[KillRow]
    shots: list[ShotRow]


def own_square(square: str, seat: str, unbounded: bool, turned: tuple[str, ...] = ("p2",)) -> str:
    """The square as its owner sees it: the squares of the seats facing as p2 (``turned``: p2, and in a
    three-player game on the mat p3, its team-mate, §10) rotated 180 degrees on the 7x6 mat (G6 <-> A1)."""
    if seat not in turned or unbounded or len(square) != 2:
        return square
    return f"{chr(ord('G') - (ord(square[0]) - ord('A')))}{7 - int(square[1])}"


# -- the fold ---------------------------------------------------------------------------------------------------


_SHARED = ("system", "rules_version", "variant", "tournament", "played_on")  # PlacementRow's columns of the game


class _Fold:
    """Lords of War's bookkeeping over one game's events: ``_STEPS`` maps each event type the fold reads to its
    step (dealing, draws, reveals, extra turns, concessions and the end count nothing); ``rows`` builds the rows.

    The core's reading of the game (``GameFacts``: results, labels, dates) is known before the first event, so each
    placement row is built whole when its unit is placed and only its fate and counts move on afterwards. The
    projector runs this over every event of every game it projects (docs/statistics.md, the cost per game)."""

    def __init__(self, game: GameFacts) -> None:
        self.game = game
        header, labels = game.header, game.labels
        self.game_id = header.game_id
        self.armies = labels.armies
        self.unbounded = bool(labels.settings.get("unbounded", False))
        self.results = {s.id: s.result for s in game.seats}
        # The filter columns every placement row of this game shares (placements are written once the game has
        # ended: no ``finished``), set on each row after it is made: msgspec matches keyword arguments against
        # every field, so a 29-field row made with 20 of them cost ~2 us against ~0.5 us with its own 13 and five
        # attributes set (the projector makes ~45 a game).
        columns = game.filter_columns()
        self.shared = tuple(columns[name] for name in _SHARED)
        self.placements: list[PlacementRow] = []
        self.kills: list[KillRow] = []
        self.shots: list[ShotRow] = []
        self.seen: set[tuple[str, str]] = set()  # (seat, card) placed so far
        self.board: dict[str, int] = {}  # square -> index into placements of the unit on it
        self.turn_shots: list[tuple[ShotRow, str, str]] = []  # this turn's shots, with shooter and target squares
        self.kill_count = {s.id: 0 for s in game.seats}  # cards each seat destroyed
        self.commander_count = {s.id: 0 for s in game.seats}
        self.recalls = {s.id: 0 for s in game.seats}
        self.placed = {s.id: 0 for s in game.seats}  # placements of each seat (units of a start position aside)
        self.turn = 0
        seats = [s.id for s in game.seats]
        self.other = {seats[0]: seats[1], seats[1]: seats[0]} if len(seats) == 2 else {}  # two seats: the opponent
        self.turned = ("p2", "p3") if len(seats) == 3 else ("p2",)  # §10: the three-player team faces as p2
        self.commanders = DEFAULT_TABLE.commanders  # the game's catalogue's (issue 30), set by its game_started

    def _started(self, seq: int, started: GameStarted) -> None:
        self.commanders = (started_cards(started) or DEFAULT_TABLE).commanders
        if started.position is None:
            return
        for unit in started.position.board:
            self._new_unit(seq, 0, unit.owner, unit.card, unit.square, False, False, "position")
        for seat, kills in started.position.kills.items():
            if seat in self.kill_count:
                self.kill_count[seat] += kills.total
                self.commander_count[seat] += kills.commanders

    def _placed(self, seq: int, placed: Placed) -> None:
        self.turn_shots.clear()  # shots belong to the placement they follow (R5)
        self.turn = placed.turn
        self._new_unit(seq, placed.turn, placed.player, placed.card, placed.square, placed.challenge, placed.forced,
                       placed.basis)

    def _new_unit(self, seq: int, turn: int, seat: str, card: str, square: str, challenge: bool, forced: bool,
                  basis: str) -> None:
        first = (seat, card) not in self.seen
        if first:
            self.seen.add((seat, card))
        army = self.armies.get(seat, "")
        row = PlacementRow(  # the placement's own columns; the game's are set after (see _shared)
            game_id=self.game_id, placement=len(self.placements) + 1, seq=seq, turn=turn, seat=seat, army=army,
            card=card, first_of_card=first, square=square,
            own_square=own_square(square, seat, self.unbounded, self.turned),
            challenge=challenge, forced=forced, basis=basis,
        )
        row.system, row.rules_version, row.variant, row.tournament, row.played_on = self.shared
        row.result, row.own_faction = self.results.get(seat), army == card.split("/", 1)[0]
        self.placements.append(row)
        self.board[square] = len(self.placements) - 1
        if basis != "position":
            self.placed[seat] = self.placed.get(seat, 0) + 1

    def _shot(self, seq: int, shot: Shot) -> None:
        board, placements = self.board, self.placements
        shooter = board.get(shot.shooter_square)
        target = board.get(shot.target_square)
        row = ShotRow(
            game_id=self.game_id, seq=seq, turn=self.turn, seat=shot.player,
            shooter_placement=placements[shooter].placement if shooter is not None else None,
            shooter_card=shot.shooter_card,
            target_placement=placements[target].placement if target is not None else None,
            target_card=shot.target_card, value=shot.value,
        )
        self.shots.append(row)
        self.turn_shots.append((row, shot.shooter_square, shot.target_square))
        if shooter is not None:
            placements[shooter].shots += 1

    def _eliminated(self, seq: int, event: Eliminated) -> None:
        board, placements, game_id, turn = self.board, self.placements, self.game_id, self.turn
        for unit in event.units:
            victim = board.get(unit.square)
            victim_placement = placements[victim].placement if victim is not None else None
            killers: list[str] = []
            kinds: set[str] = set()
            involved: dict[int, bool] = {}  # attacker's placement index -> a shot of it took part
            for attacker in unit.attackers:
                a = board.get(attacker.square)
                self.kills.append(
                    KillRow(
                        game_id=game_id, seq=seq, turn=turn, round=event.round, victim_placement=victim_placement,
                        victim_seat=unit.owner, victim_card=unit.card,
                        attacker_placement=placements[a].placement if a is not None else None,
                        attacker_seat=attacker.owner, attacker_card=attacker.card, kind=attacker.kind,
                        direction=attacker.direction, value=attacker.value,
                    )
                )
                kinds.add(attacker.kind)
                if attacker.card not in killers:
                    killers.append(attacker.card)
                if a is not None:
                    involved[a] = involved.get(a, False) or attacker.kind == "shot"
                if attacker.kind == "shot":
                    self._shot_killed(attacker.square, unit.square, a)
            for a, by_shot in involved.items():
                placements[a].kills += 1
                placements[a].shot_kills += int(by_shot)
            if victim is not None:
                dead = placements[victim]
                dead.fate, dead.fate_seq, dead.fate_turn = "destroyed", seq, turn
                dead.destroyed_by = "+".join(k for k in ("arrow", "shot") if k in kinds)
                dead.killers = killers
            destroyer = self.other.get(unit.owner) or self._destroyer(unit.owner, [a.owner for a in unit.attackers])
            if destroyer in self.kill_count:
                self.kill_count[destroyer] += 1
                self.commander_count[destroyer] += int(unit.card in self.commanders)
        for unit in event.units:
            board.pop(unit.square, None)

    def _moved(self, seq: int, moved: BerserkerMoved) -> None:
        unit = self.board.pop(moved.origin, None)
        if unit is not None:
            self.board[moved.target] = unit

    def _recalled(self, seq: int, recalled: Recalled) -> None:
        unit = self.board.pop(recalled.square, None)
        self.recalls[recalled.player] = self.recalls.get(recalled.player, 0) + 1
        if unit is not None:
            back = self.placements[unit]
            back.fate, back.fate_seq, back.fate_turn = "recalled", seq, self.turn

    def _shot_killed(self, shooter_square: str, target_square: str, shooter: int | None) -> None:
        """Mark the turn's first shot from ``shooter_square`` at ``target_square`` as one that killed."""
        for row, from_square, to_square in self.turn_shots:
            if from_square == shooter_square and to_square == target_square and not row.killed:
                row.killed = True
                if shooter is not None:
                    self.placements[shooter].shots_killing += 1
                return

    def _destroyer(self, owner: str, attackers: list[str]) -> str | None:
        """Who destroyed a unit of ``owner``: the other seat of a two-seat game, else its attackers' owner."""
        other = self.other.get(owner)
        return other if other is not None else next((seat for seat in attackers if seat != owner), None)

    def rows(self) -> Rows:
        game, header = self.game, self.game.header
        players = []
        for seat in game.seats:
            opposing = [s for s in game.seats if s.id != seat.id and (s.team is None or s.team != seat.team)]
            players.append(
                PlayerRow(
                    game_id=header.game_id, seat=seat.id, player=seat.player, army=seat.army,
                    opponent="+".join(s.player for s in opposing), opponent_army="+".join(s.army for s in opposing),
                    went_first=seat.went_first, result=seat.result, kills=self.kill_count.get(seat.id, 0),
                    commanders=self.commander_count.get(seat.id, 0), placements=self.placed.get(seat.id, 0),
                    recalls=self.recalls.get(seat.id, 0), ended_at=game.ended_at, end_reason=game.end_reason,
                    turns=game.turns, **game.filter_columns(),
                )
            )
        return Rows(players, self.placements, self.kills, self.shots)


# The steps by event type, as plain functions (bound methods kept on the fold would make each game's fold a reference
# cycle, left to the garbage collector instead of freed when the game's rows are built).
_STEPS: dict[type, Callable[[_Fold, int, Any], None]] = {
    GameStarted: _Fold._started, Placed: _Fold._placed, Shot: _Fold._shot, Eliminated: _Fold._eliminated,
    BerserkerMoved: _Fold._moved, Recalled: _Fold._recalled,
}


def project(game: GameFacts, stream: Sequence[StreamEvent]) -> Rows:
    """Lords of War's rows of one game: the fold of its events (seq 1 first)."""
    fold = _Fold(game)
    steps = _STEPS
    for item in stream:
        step = steps.get(type(item.event))
        if step is not None:
            step(fold, item.seq, item.event)
    return fold.rows()


# -- writing them -----------------------------------------------------------------------------------------------


DAILY_SUMS = ("placements", "kills", "shot_kills", "shots", "shots_killing", "destroyed", "recalled", "games_placed",
              "faction_placed")
DAILY_KEY = ("system", "played_on", "tournament", "variant", "rules_version", "army", "card", "won")
FACTS = (("placements", PlacementRow), ("kills", KillRow), ("shots", ShotRow))


def card_daily(placements: Iterable[PlacementRow]) -> dict[str, list[Any]]:
    """low_card_daily sums of these placements (finished games with a result), as columns for the upsert."""
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


def store(conn: duckdb.DuckDBPyConnection, games: Sequence[tuple[GameFacts, Rows]], rewritten: Sequence[str]) -> None:
    """low_players of every game (replaced); the facts (placements, kills, shots, and their sums per card and day)
    of the finished ones, once: a rewritten game's earlier facts are taken out first."""
    if rewritten:
        conn.execute(sql("low_subtract_card_daily"), {"game_ids": list(rewritten)})
        for table, _ in FACTS:
            conn.execute(sql(f"low_delete_{table}"), {"game_ids": list(rewritten)})
    players = [row for _, rows in games for row in rows.players]
    if players:
        conn.execute(sql("low_insert_players"), column_lists(players, PlayerRow))
    finished = [rows for game, rows in games if game.finished]
    for table, kind in FACTS:
        facts = [row for rows in finished for row in getattr(rows, table)]
        if facts:
            conn.execute(sql(f"low_insert_{table}"), column_lists(facts, kind))
    daily = card_daily(row for rows in finished for row in rows.placements)
    if daily:
        conn.execute(sql("low_upsert_card_daily"), daily)


def clear(conn: duckdb.DuckDBPyConnection) -> None:
    for table in ("players", "placements", "kills", "shots", "card_daily"):
        conn.execute(sql(f"low_clear_{table}"))


# -- statistics -------------------------------------------------------------------------------------------------


def _rows(conn: duckdb.DuckDBPyConnection, name: str, params: dict[str, Any]) -> list[tuple]:
    return conn.execute(sql(name), params).fetchall()


class CardStats(msgspec.Struct, frozen=True):
    card: str  # the card's id without its copy suffix (orcs/orc-warhog): its copies are counted together
    name: str  # its name in the catalogue (Orc Warhog)
    faction: str
    ranged: bool
    placements: int
    kills: int  # enemy units destroyed with this card among the attackers (one per unit, however it hit)
    kills_per_placement: float
    destroyed: int
    survival_rate: float  # placements not destroyed (recalled or on the mat at the end) / placements
    survival_low: float
    survival_high: float
    recalled: int
    recall_rate: float
    recall_low: float
    recall_high: float
    games_placed: int  # seats (game, player) that placed it at least once, any army
    wins_placed: int
    win_rate_placed: float | None  # within the card's faction: seats that placed it...
    win_rate_placed_low: float | None
    win_rate_placed_high: float | None
    games_not_placed: int  # ...and seats of that faction that did not
    win_rate_not_placed: float | None
    win_rate_not_placed_low: float | None
    win_rate_not_placed_high: float | None
    win_rate_difference: float | None  # placed - not placed, Newcombe 95% interval
    difference_low: float | None
    difference_high: float | None
    shots: int
    shots_killing: int  # shots whose target was destroyed in the elimination they fed
    shot_hit_rate: float | None  # shots_killing / shots
    shot_kills: int  # kills in which a shot of this card took part
    shot_kill_share: float | None  # shot_kills / kills
    copies: int = 1  # how many of its copies (ids orcs/orc-warhog-1, orcs/orc-warhog-2, ...) were placed


class CardTable(msgspec.Struct, frozen=True):
    filters: Filters
    games: int
    rows: list[CardStats]


def cards(conn: duckdb.DuckDBPyConnection, filters: Filters | None = None) -> CardTable:
    filters = filters or Filters()
    rows = _rows(conn, "stats_cards", filters.own_army_params())
    document = catalogue_document(conn, filters)  # filtered by a catalogue: its names (issue 30)
    named = (table_for(document) if document is not None else DEFAULT_TABLE).cards
    out = []
    for (
        card, faction, placements, kills, shot_kills, shots, shots_killing, destroyed, recalled, games_placed,
        wins_placed, faction_placed, faction_placed_wins, faction_games, faction_wins, copies,
    ) in rows:
        survival = wilson(placements - destroyed, placements).known()  # a card's row has placements > 0
        recall = wilson(recalled, placements).known()
        not_placed, not_placed_wins = faction_games - faction_placed, faction_wins - faction_placed_wins
        placed_rate = wilson(faction_placed_wins, faction_placed)
        other_rate = wilson(not_placed_wins, not_placed)
        difference = newcombe(faction_placed_wins, faction_placed, not_placed_wins, not_placed)
        known = next((named[c] for c in copies if c in named), None)  # another catalogue's card: not known here
        out.append(
            CardStats(
                card, known.name if known else card.rsplit("/", 1)[-1], faction, bool(known and known.is_ranged),
                placements, int(kills), kills / placements,
                destroyed, *survival, recalled, *recall, games_placed, wins_placed,
                placed_rate.rate, placed_rate.low, placed_rate.high,
                not_placed, other_rate.rate, other_rate.low, other_rate.high, difference.rate, difference.low,
                difference.high, int(shots), int(shots_killing), shots_killing / shots if shots else None,
                int(shot_kills), shot_kills / kills if kills else None, len(copies),
            )
        )
    return CardTable(filters, sample_games(conn, filters), out)


class HeatSquare(msgspec.Struct, frozen=True):
    square: str
    placements: int
    share: float  # of the placements of its kind: a mat square's of those on the 7x6 mat, an x,y square's of those
    # of unbounded games (so the mat's percentages are of what the mat shows)


class HeatMap(msgspec.Struct, frozen=True):
    filters: Filters
    games: int
    card: str | None
    owner_view: bool
    placements: int  # every placement counted, on the mat or not
    rows: list[HeatSquare]
    mat_placements: int = 0  # those on the 7x6 mat (the squares the mat shows): its shares' total


def heatmap(
    conn: duckdb.DuckDBPyConnection,
    filters: Filters | None = None,
    card: str | None = None,
    owner_view: bool = False,
    include_challenge: bool = False,
) -> HeatMap:
    """Placements per square, by army (``filters.army``) and/or card."""
    filters = filters or Filters()
    rows = _rows(
        conn,
        "stats_heatmap",
        filters.own()
        | {"army": filters.army, "card": card, "owner_view": owner_view, "include_challenge": include_challenge},
    )
    on = sum(n for square, n in rows if _on_mat(square))
    off = sum(n for square, n in rows if not _on_mat(square))
    return HeatMap(
        filters,
        sample_games(conn, filters),
        card,
        owner_view,
        on + off,
        [HeatSquare(square, n, n / (on if _on_mat(square) else off)) for square, n in rows],
        on,
    )


def _on_mat(square: str) -> bool:
    """A square of the 7x6 mat (``C3``), not an unbounded game's ``x,y``."""
    return len(square) == 2 and square[0] in "ABCDEFG" and square[1] in "123456"


def heat_grid(rows: list[dict[str, Any]]) -> list[str]:
    """The 7x6 mat with placement counts, row 6 on top: board squares only (see ``heat_note``)."""
    counts = {r["square"]: r["placements"] for r in rows if _on_mat(r["square"])}
    if not counts:
        return []
    width = max(3, max(len(str(n)) for n in counts.values()))
    lines = ["    " + " ".join(c.rjust(width) for c in "ABCDEFG")]
    for row in range(6, 0, -1):
        lines.append(f"{row:>3} " + " ".join(str(counts.get(f"{c}{row}", ".")).rjust(width) for c in "ABCDEFG"))
    return lines


def heat_note(rows: list[dict[str, Any]]) -> str | None:
    """What the grid leaves out: placements in unbounded games (``x,y`` squares: no fixed mat to draw them on)."""
    off = sum(r["placements"] for r in rows if not _on_mat(r["square"]))
    if not off:
        return None
    on = sum(r["placements"] for r in rows) - off
    return (f"The mat shows the {on} placements of games on the 7x6 mat; the {off} placements in unbounded games "
            "(x,y squares, A1 = 0,0) are in the table only (--variant chooses the games).")


def heat_notes(result: dict[str, Any], width: int | None) -> list[list[str]]:
    """What ``warlog stats heatmap`` prints after its table: the mat (every square, whatever ``--limit``) and
    what it leaves out."""
    rows = result.get("rows", [])
    blocks = []
    grid = heat_grid(rows)
    if grid:
        blocks.append(grid)
    note = heat_note(rows)
    if note:
        blocks.append(textwrap.wrap(note, width or 100))
    return blocks


class TeamResult(msgspec.Struct, frozen=True):
    variant: str  # three-players, teams-4, teams-6 (+ options)
    team: str  # solo, allies; odd, even
    seats: str  # the team's seats, "p1 p3"
    games: int
    wins: int
    losses: int
    draws: int
    win_rate: float | None
    low: float | None  # Wilson 95% interval of the win rate
    high: float | None


class TeamTable(msgspec.Struct, frozen=True):
    filters: Filters
    games: int
    rows: list[TeamResult]


def teams(conn: duckdb.DuckDBPyConnection, filters: Filters | None = None) -> TeamTable:
    """How the sides of §10 games fare: the solo player against the team of two, the odd seats (who move first)
    against the even ones; a team counts once a game."""
    filters = filters or Filters()
    rows = []
    for variant, team, seats, games, wins, losses, draws in _rows(
        conn, "stats_teams", filters.own() | {"min_games": filters.min_games}
    ):
        interval = wilson(wins, games)
        rows.append(TeamResult(variant, team, seats, games, wins, losses, draws, interval.rate, interval.low,
                               interval.high))
    return TeamTable(filters, sample_games(conn, filters), rows)


statistics = (
    Statistic(
        name="cards", path="/cards", summary="Per-card statistics", result=CardTable, system=SYSTEM_NAME,
        by_catalogue=True,
        compute=lambda conn, filters, params, cache: cards(conn, filters),
    ),
    Statistic(
        name="heatmap", path="/heatmap", summary="Placements per square", result=HeatMap, system=SYSTEM_NAME,
        by_catalogue=True,
        parameters=(
            Parameter(name="card", help="a card, e.g. orcs/orc-warhog (every copy) or orcs/orc-warhog-1 (that copy)"),
            Parameter(name="owner_view", type=bool, default=False,
                      help="squares seen from the placing player's edge"),
            Parameter(name="include_challenge", type=bool, default=False,
                      help="count the challenge placements (C3, E4)"),
        ),
        compute=lambda conn, filters, params, cache: heatmap(
            conn, filters, params.get("card"), bool(params.get("owner_view")), bool(params.get("include_challenge"))
        ),
        notes=heat_notes,
    ),
    Statistic(
        name="teams", path="/teams", summary="Team results of games of three to six seats (§10)", result=TeamTable,
        system=SYSTEM_NAME, by_catalogue=True, compute=lambda conn, filters, params, cache: teams(conn, filters),
    ),
)
