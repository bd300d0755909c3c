"""Whole games in and out: the text game record (docs/record-format.md) and JSONL, export and import.

Import checks every move through the rules and stores nothing unless the whole record is legal: it first decides
every action in memory against a fold of the events so far (reporting the line, code and rule of the first
illegal move as ``RecordError``), and only then creates the game and replays the actions through
``GameService.act`` (the one write path), each with ``expected_seq``. A game is therefore never half-imported by
a rule error. JSONL import also derives the setup and the actions from the events (the system's
``recorded_setup`` / ``recorded_actions``, engine.system.Records), re-decides them, and refuses a file whose events
differ from what the rules give.

Nothing here knows a system: a record names its system in its ``[System "..."]`` tag, a JSONL stream in the
``system`` field of its ``game_started`` line; the system's parts come from the registries (``engine.systems``,
``replay.systems``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from engine.errors import RuleError, StreamError
from engine.system import AnySystem
from engine.systems import UnknownSystem
from replay.archive.annotations import annotate_record, annotation_line, is_annotation_line
from replay.archive.notation import RecordSyntaxError
from replay.log.annotations import of_game as annotations_of
from replay.log.chain import encode_chain
from replay.log.contents import duplicates_of, events_hash
from replay.log.service import (
    GameService,
    listed_armies,
    listed_catalogue,
    listed_players,
    name_problem,
    outcome_metadata,
)
from replay.log.views import check_view, event_view
from replay.plugin import RecordSyntax
from replay.store.base import GameRecord
from replay.systems import UnknownReplaySystem, get_plugin, plugin_names

RECORD_META = "record"  # the game's metadata key holding the record's people tags (Event, Site, Date, ...)
ENVELOPE_KEYS = ("seq", "recorded_at", "hash", "schema_version", "game_id")


class RecordError(ValueError):
    """An import refused: ``line`` (1-based, of the record or JSONL file), stable ``code``, ``rule`` (a § or R
    number when a rule was broken, else None) and a ``message`` for a person. Nothing was stored."""

    def __init__(self, line: int, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(f"line {line}: {message}" + (f" [{rule}]" if rule else ""))
        self.line = line
        self.code = code
        self.rule = rule
        self.message = message


class DuplicateGame(RecordError):
    """An import refused because the same game (the same events) is stored already, as ``game_ids``."""

    def __init__(self, game_ids: Sequence[str]) -> None:
        self.game_ids = list(game_ids)
        super().__init__(1, "duplicate", f"this game is already stored as {', '.join(self.game_ids)} (the same events)")


def store_events(
    service: GameService,
    system_name: str,
    events: Sequence[Any],
    game_id: str,
    metadata: dict[str, Any] | None = None,
    players: list[str] | None = None,
) -> str:
    """The fast path for events already decided by the rules (bot games for benchmarks and tests): one atomic
    ``create_game`` with the whole chained stream. Outside records go through ``import_*`` instead. ``players``:
    the listing's players (default: as ``GameService`` lists them, from the seats of the recorded setup)."""
    system = service._system_lookup(system_name)  # noqa: SLF001 - the service's registry
    if players is None:
        try:
            players = listed_players(system, system.recorded_setup(events))
        except (StreamError, RuleError):  # a deliberately broken stream (tests of verify): no setup to list
            players = []
    try:
        outcome = outcome_metadata(system, system.fold(events), len(events)) or {}
    except Exception:  # noqa: BLE001 - a deliberately broken stream (tests of verify) has no outcome
        outcome = {}
    try:
        armies = {**listed_armies(system.name, events), **listed_catalogue(events)}
    except Exception:  # noqa: BLE001 - a deliberately broken stream (tests of verify) may have no game_started
        armies = {}
    listing = {**armies, **outcome, **(metadata or {})}
    service.store.create_game(game_id, system.name, players, listing, encode_chain(system, game_id, events))
    return game_id


# -- per-system parts --------------------------------------------------------------------------------------


def known_systems() -> str:
    """The systems a record may name, for error messages."""
    return ", ".join(plugin_names())


def _record_syntax(system_name: str, line: int = 1) -> RecordSyntax:
    try:
        return get_plugin(system_name).records
    except UnknownReplaySystem:
        raise RecordError(line, "unknown_system",
                          f"unknown game system {system_name!r} (known: {known_systems()})") from None


def _system(service: GameService, system_name: str, line: int) -> AnySystem:
    try:
        return service._system_lookup(system_name)  # the service's registry
    except UnknownSystem:
        raise RecordError(line, "unknown_system",
                          f"unknown game system {system_name!r} (known: {known_systems()})") from None


# -- the write path shared by both formats -----------------------------------------------------------------


def _decide_all(
    system: AnySystem, setup: dict[str, Any], setup_line: int, moves: Sequence[tuple[int, Any]]
) -> tuple[list[Any], Any]:
    """Decide the setup and every move in memory; RecordError at the first illegal one. -> (events, state)."""
    try:
        opening = list(system.start(setup))
    except RuleError as error:
        raise RecordError(setup_line, error.code, error.message, error.rule) from None
    state = system.fold(opening)
    events = list(opening)
    for line, action in moves:
        try:
            produced = system.decide(state, action)
        except RuleError as error:
            raise RecordError(line, error.code, error.message, error.rule) from None
        for event in produced:
            state = system.evolve(state, event)
        events.extend(produced)
    return events, state


def _check_names(setup: dict[str, Any], line_of: Callable[[str], int]) -> None:
    """RecordError naming the line of a player whose name holds a control character (``name_problem``)."""
    for player in setup.get("players") or ():
        problem = name_problem(str(player.get("name") or ""))
        if problem:
            raise RecordError(line_of(str(player.get("id"))), "invalid_name",
                              problem + ": rename the player in the file")


def _check_duplicate(service: GameService, system: AnySystem, events: Sequence[Any], allow_duplicate: bool) -> None:
    """DuplicateGame when a stored game has exactly these events (replay/log/contents.py), unless allowed."""
    if allow_duplicate:
        return
    same = duplicates_of(service.store, events_hash(system, events))
    if same:
        raise DuplicateGame(same)


def _store(service: GameService, setup: dict[str, Any], actions: Sequence[Any], metadata: dict[str, Any],
           game_id: str | None) -> str:
    # the setup as the record gives it: a table game without a seed stays without one (it deals nothing), so the
    # stored events are the ones decided and checked above, and the same record stored twice is the same game
    created = service.create_game(setup, metadata=metadata, game_id=game_id, draw_seed=False)
    seq = created.seq
    for action in actions:
        seq = service.act(created.game_id, action, expected_seq=seq).seq
    return created.game_id


# -- the text record ---------------------------------------------------------------------------------------


TournamentNames = Callable[[str], "str | None"]  # a tournament's id -> its name (None: unknown)


def tournament_names(log: Any) -> TournamentNames:
    """Names from a tournament log (``replay.tournaments.log``), each looked up once."""
    from replay.tournaments.model import TournamentNotFound

    known: dict[str, str | None] = {}

    def name_of(tournament_id: str) -> str | None:
        if tournament_id not in known:
            try:
                first = log.read(tournament_id)[0]
                known[tournament_id] = str(first.data.get("name") or "") or None
            except TournamentNotFound:
                known[tournament_id] = None
        return known[tournament_id]

    return name_of


def _tags_of(service: GameService, game_id: str, names: TournamentNames | None = None) -> dict[str, str]:
    """The people's tags: those kept from an imported record; else a tournament game's event (the tournament's
    name, or its id when the name is unknown), round and table; the day the game was stored."""
    record = service.store.get_game(game_id)
    tags = {k: str(v) for k, v in (record.metadata.get(RECORD_META) or {}).items()}
    tags.setdefault("Date", record.created_at[:10].replace("-", "."))
    if record.tournament:
        tags.setdefault("Event", (names(record.tournament) if names else None) or record.tournament)
        for tag, key in (("Round", "round"), ("Table", "table")):
            if record.metadata.get(key) is not None:
                tags.setdefault(tag, str(record.metadata[key]))
    return tags


def export_record(service: GameService, game_id: str, view: str = "all", comments: bool = False,
                  names: TournamentNames | None = None) -> str:
    """The game as a text record, hidden information redacted for ``view`` (a sealed game's seed: ``all`` only).
    ``names``: tournament names for the Event tag of a tournament game (else its tournament's id)."""
    game = service.store.get_game(game_id)
    check_view(view, service.seats(game_id))
    system_name = game.system
    events = [r.event for r in service.events(game_id)]
    text = _record_syntax(system_name).export(events, _tags_of(service, game_id, names), view=view, comments=comments)
    notes = annotations_of(service.store, game_id)
    return annotate_record(text, service.system_of(game), events, notes) if notes else text


SYSTEM_TAG = re.compile(r'^\s*\[System\s+"((?:[^"\\]|\\.)*)"\]', re.MULTILINE)


def record_system(text: str) -> tuple[str, int]:
    """The system a text record names in its ``[System "..."]`` tag, and the tag's line; RecordError
    ``missing_system`` (naming the known systems) when it has none: no system is assumed."""
    found = SYSTEM_TAG.search(text)
    if found is None:
        raise RecordError(1, "missing_system",
                          f'the record has no [System "..."] tag naming its game system (one of {known_systems()})')
    return found[1], text.count("\n", 0, found.start(1)) + 1


def import_record(service: GameService, text: str, game_id: str | None = None, allow_duplicate: bool = False) -> str:
    """Read a text record, check every move through the rules, store the game; -> its id. RecordError if not;
    DuplicateGame if the same game is stored already (unless ``allow_duplicate``)."""
    system_name, system_line = record_system(text)
    module = _record_syntax(system_name, system_line)
    system = _system(service, system_name, system_line)
    try:
        parsed = module.parse(text)
        setup = module.setup_from_tags(parsed)
    except RecordSyntaxError as error:
        raise RecordError(error.line, error.code, error.message, error.rule) from None
    setup_line = min(parsed.tag_lines.values(), default=1)
    _check_names(setup, lambda seat: parsed.tag_lines.get(seat.upper(), setup_line))
    moves = [(m.line, m.action) for m in parsed.moves]
    events, state = _decide_all(system, setup, setup_line, moves)
    try:
        module.check_result(parsed, state)
    except RecordSyntaxError as error:
        raise RecordError(error.line, error.code, error.message, error.rule) from None
    _check_duplicate(service, system, events, allow_duplicate)
    metadata = {RECORD_META: module.record_tags(parsed)}
    return _store(service, setup, [a for _, a in moves], metadata, game_id)


# -- JSONL -------------------------------------------------------------------------------------------------


def export_jsonl(service: GameService, game_id: str, view: str = "all", with_game_id: bool = False) -> str:
    """One event per line, as the API's NDJSON (``seq``, ``type``, ``recorded_at``, ``hash``, payload), plus
    ``schema_version`` so an old file can be upcast on import (and ``game_id`` first, ``with_game_id``: files of
    several games)."""
    game = service.store.get_game(game_id)
    check_view(view, service.seats(game_id))
    system_name = game.system
    notes: dict[int, list[dict[str, Any]]] = {}
    for note in annotations_of(service.store, game_id):
        notes.setdefault(note.step, []).append(annotation_line(note))
    lines = []
    for recorded in service.events(game_id):
        shown = event_view(system_name, recorded, view)
        if shown is not None:
            shown["schema_version"] = recorded.schema_version
            if with_game_id:
                shown = {"game_id": game_id, **shown}
            lines.append(msgspec.json.encode(shown).decode())
        for line in notes.get(recorded.seq, ()):  # the step's annotations after its event (read_jsonl skips them)
            lines.append(msgspec.json.encode({"game_id": game_id, **line} if with_game_id else line).decode())
    return "\n".join(lines) + "\n"


def export_games(service: GameService, game_ids: Iterable[str], fmt: str = "record",
                 view: str | Callable[[str], str] = "all", comments: bool = False,
                 names: TournamentNames | None = None) -> Iterator[str]:
    """Many games, one text per game, in the given order: records (the second and later preceded by a blank line,
    as games follow each other in a PGN file) or JSONL event streams (each line with its ``game_id``); what
    ``import_games`` reads back. ``view``: one view for all, or a function of the game id."""
    for n, game_id in enumerate(game_ids):
        seen = view(game_id) if callable(view) else view
        if fmt == "jsonl":
            yield export_jsonl(service, game_id, view=seen, with_game_id=True)
        else:
            yield ("\n" if n else "") + export_record(service, game_id, view=seen, comments=comments, names=names)


def listed_games(service: GameService, system: str | None = None, player: str | None = None,
                 tournament: str | None = None, limit: int | None = None, army: str | None = None,
                 newest_first: bool = False, over: bool | None = None) -> Iterator[GameRecord]:
    """The games passing the ``GET /games`` filters, in its order ((created_at, game_id), oldest first unless
    ``newest_first``), at most ``limit`` (None: all), read page by page."""
    cursor: str | None = None
    left = limit
    while left is None or left > 0:
        page = service.store.list_games(system=system, player=player, tournament=tournament, army=army,
                                        limit=min(500, left or 500), cursor=cursor, newest_first=newest_first,
                                        over=over)
        yield from page.games
        if left is not None:
            left -= len(page.games)
        cursor = page.next_cursor
        if cursor is None or not page.games:
            return


def game_summary(game: GameRecord) -> dict[str, Any]:
    """A game as ``GET /games`` lists it (and ``warlog games --json``): its metadata without the token hashes."""
    return {"id": game.game_id, "system": game.system, "created_at": game.created_at, "players": game.players,
            "tournament": game.tournament, "seq": game.last_seq, "catalogue": game.metadata.get("catalogue"),
            "metadata": {k: v for k, v in game.metadata.items() if k != "token_hashes"}}


def game_ids(service: GameService, system: str | None = None, player: str | None = None,
             tournament: str | None = None, limit: int | None = None, army: str | None = None,
             newest_first: bool = False, over: bool | None = None) -> Iterator[str]:
    """Ids of the games ``listed_games`` gives."""
    for game in listed_games(service, system, player, tournament, limit, army, newest_first, over):
        yield game.game_id


Lined = list[tuple[int, Any]]  # (line of the file, what is on it)
TOO_DEEP = ("cannot read this event: it is nested too deeply (arrays or objects inside each other further than "
            "the reader follows); no event of any game system is")


def read_jsonl(text: str) -> list[tuple[int, dict[str, Any]]]:
    """(line, JSON object) for each non-blank line; RecordError naming the line of one that is not an object."""
    out = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            data = msgspec.json.decode(raw)
        except msgspec.DecodeError as error:
            raise RecordError(number, "bad_event", f"cannot read this event: {error}") from None
        except RecursionError:  # e.g. 100,000 nested arrays: this file is refused, not the whole import
            raise RecordError(number, "bad_event", TOO_DEEP) from None
        if not isinstance(data, dict):
            raise RecordError(number, "bad_event", "cannot read this event: not a JSON object")
        if is_annotation_line(data):
            continue  # an exported annotation: for people, not restored (replay.archive.annotations)
        out.append((number, data))
    if not out:
        raise RecordError(1, "empty", "the file holds no events")
    return out


def stream_system(service: GameService, lined: Sequence[tuple[int, dict[str, Any]]]) -> AnySystem:
    """The system of one event stream: the ``system`` its first line (``game_started``) names. RecordError
    ``bad_stream`` when it does not start with ``game_started``, ``missing_system`` / ``unknown_system`` (naming the
    known systems) when that names none or one not registered."""
    line, first = lined[0]
    if first.get("type") != "game_started":
        raise RecordError(line, "bad_stream", f"a game's first event is game_started, not {first.get('type')!r}")
    name = first.get("system")
    if not isinstance(name, str) or not name:
        raise RecordError(line, "missing_system",
                          f'game_started names no game system in its "system" field (one of {known_systems()})')
    _record_syntax(name, line)  # a system import can store has replay parts too
    return _system(service, name, line)


def decode_stream(system: AnySystem, lined: Sequence[tuple[int, dict[str, Any]]]) -> Lined:
    """(line, typed event) for each line, old schema versions upcast; RecordError naming the line of a bad one."""
    out = []
    for number, data in lined:
        try:
            version = data.get("schema_version")
            plain = {k: v for k, v in data.items() if k not in ENVELOPE_KEYS}
            if version is not None and version != system.codec.version_of(str(plain.get("type"))):
                plain = system.codec.upcast(plain, int(version))
            out.append((number, system.codec.from_builtins(plain)))
        except (ValueError, TypeError, msgspec.DecodeError, msgspec.ValidationError) as error:
            raise RecordError(number, "bad_event", f"cannot read this event: {error}") from None
    return out


def parse_jsonl(service: GameService, text: str) -> tuple[AnySystem, Lined]:
    """The system and the (line, typed event) pairs of a JSONL event stream of one game."""
    lined = read_jsonl(text)
    system = stream_system(service, lined)
    return system, decode_stream(system, lined)


def import_jsonl(service: GameService, text: str, game_id: str | None = None, allow_duplicate: bool = False) -> str:
    """Read a JSONL event stream, re-decide it through the rules, store it; -> the new game's id. Its system is the
    one its ``game_started`` line names.

    RecordError when a line cannot be read, the stream names no known system, an action is illegal today, or the
    file's events differ from what the rules give (``code="diverges"``)."""
    system, lined = parse_jsonl(service, text)
    return _import_lined(service, system, lined, game_id, allow_duplicate)


def _import_lined(service: GameService, system: AnySystem, lined: Lined, game_id: str | None,
                  allow_duplicate: bool) -> str:
    lines = [line for line, _ in lined]
    events = [event for _, event in lined]
    try:
        recorded = system.recorded_actions(events)
        setup = system.recorded_setup(events)
    except StreamError as error:
        raise RecordError(lines[min(error.index, len(lines) - 1)], "bad_stream", error.message) from None
    _check_names(setup, lambda _: lines[0])
    moves = [(lines[step.start], step.action) for step in recorded]
    decided, _ = _decide_all(system, setup, lines[0], moves)
    for i, (mine, theirs) in enumerate(zip(decided, events, strict=False)):  # a length difference: reported below
        if mine != theirs:
            raise RecordError(lines[i], "diverges",
                              f"the file has {_json(system, theirs)}; the rules give {_json(system, mine)}")
    if len(decided) != len(events):
        i = min(len(decided), len(events))
        what = f"{'more' if len(events) > len(decided) else 'fewer'} events than its actions produce"
        raise RecordError(lines[min(i, len(lines) - 1)], "diverges", f"the file has {what}")
    _check_duplicate(service, system, decided, allow_duplicate)
    return _store(service, setup, [step.action for step in recorded], {}, game_id)


def _json(system: AnySystem, event: Any) -> str:
    return system.codec.encode_json(event).decode()


def is_jsonl(text: str, name: str = "") -> bool:
    """JSONL rather than a text record: by the file name's extension, else by the content."""
    return name.endswith((".jsonl", ".ndjson")) or (
        not name.endswith((".txt", ".record", ".wlr")) and text.lstrip().startswith("{"))


def import_text(service: GameService, text: str, game_id: str | None = None, name: str = "",
                allow_duplicate: bool = False) -> str:
    """One game: a record or a JSONL stream (``is_jsonl``). A file of several games: ``import_games``."""
    if is_jsonl(text, name):
        return import_jsonl(service, text, game_id, allow_duplicate=allow_duplicate)
    return import_record(service, text, game_id, allow_duplicate=allow_duplicate)


# -- files of several games ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Imported:
    """One game of a file: its first line, and the id it was stored as or the error that refused it."""

    line: int
    game_id: str | None = None
    error: RecordError | None = None


def split_records(text: str) -> list[tuple[int, str]]:
    """(first line, text) of each game of a file of text records, as PGN files hold games: a game starts at its
    first header tag; a tag line after a game's moves (outside a ``{...}`` comment) starts the next one."""
    games: list[tuple[int, list[str]]] = []
    depth = 0
    moves_seen = False
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if depth == 0 and stripped.startswith("[") and (moves_seen or not games):
            games.append((number, []))
            moves_seen = False
        elif not games:
            games.append((number, []))
        games[-1][1].append(line)
        if depth == 0 and stripped.startswith("["):
            continue  # a tag line: braces in its value are not comments
        if depth == 0 and stripped and not stripped.startswith(";"):
            moves_seen = True
        for ch in line:
            if ch == ";" and depth == 0:
                break
            if ch == "{":
                depth += 1
            elif ch == "}" and depth:
                depth -= 1
    chunks = [(first, "\n".join(lines)) for first, lines in games]
    return [(first, chunk) for first, chunk in chunks if chunk.strip() and not _only_comments(chunk)] or chunks[:1]


def _only_comments(chunk: str) -> bool:
    return all(not line.strip() or line.strip().startswith(";") for line in chunk.splitlines())


def _shifted(error: RecordError, offset: int) -> RecordError:
    if offset == 0:
        return error
    if isinstance(error, DuplicateGame):
        moved: RecordError = DuplicateGame(error.game_ids)
    else:
        moved = RecordError(error.line, error.code, error.message, error.rule)
    moved.line = error.line + offset
    moved.args = (f"line {moved.line}: {error.message}" + (f" [{error.rule}]" if error.rule else ""),)
    return moved


def import_games(service: GameService, text: str, name: str = "", allow_duplicate: bool = False) -> Iterator[Imported]:
    """Every game of a file, in order, each checked and stored on its own (a refused game stores nothing and
    does not stop the others). Text records are split as ``split_records`` does; a JSONL file holds one event
    stream after another, each starting at its ``game_started``. A JSONL line that cannot be read refuses the
    whole file (its games cannot be told apart): one ``Imported`` with the error."""
    if is_jsonl(text, name):
        try:
            lined = read_jsonl(text)
        except RecordError as error:
            yield Imported(error.line, error=error)
            return
        streams: list[list[tuple[int, dict[str, Any]]]] = []
        for line, data in lined:
            if not streams or data.get("type") == "game_started":
                streams.append([])
            streams[-1].append((line, data))
        games: list[tuple[int, AnySystem | RecordError, Lined]] = []
        for stream in streams:  # every line read first: one that cannot be read refuses the whole file
            try:
                system = stream_system(service, stream)
            except RecordError as error:  # this game only: its system is not known
                games.append((stream[0][0], error, []))
                continue
            try:
                games.append((stream[0][0], system, decode_stream(system, stream)))
            except RecordError as error:
                yield Imported(error.line, error=error)
                return
        for first, found, typed in games:
            if isinstance(found, RecordError):
                yield Imported(first, error=found)
                continue
            try:
                yield Imported(first, _import_lined(service, found, typed, None, allow_duplicate))
            except RecordError as error:
                yield Imported(first, error=error)
        return
    for first, chunk in split_records(text):
        try:
            yield Imported(first, import_record(service, chunk, allow_duplicate=allow_duplicate))
        except RecordError as error:
            yield Imported(first, error=_shifted(error, first - 1))
