"""The game service: the one code path that turns actions into stored events.

    action -> decide(state, action) -> events -> encode + hash chain -> store.append(expected_seq) -> evolve

Every writer (HTTP, ``warlog demo``, ``warlog import``) goes through ``GameService`` so that what is stored was
always decided by the rules. Reading folds the log through the system's ``evolve`` (never ``decide``).
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from engine.errors import RuleError, SetupError, StreamError
from engine.system import AnySystem, GameSystem
from engine.systems import UnknownSystem, get_system
from events import Recorded
from replay.catalogues import CATALOGUE, keep_embedded, resolve_setup
from replay.errors import Conflict, CorruptRecord
from replay.log.chain import encode_chain, genesis_hash
from replay.store.base import ARMIES, AppendResult, EventStore, FutureAppending, GameRecord, NewEvent, StoredEvent
from replay.systems import find_plugin

_BREAKING = frozenset(("Cc", "Zl", "Zp"))  # control characters, line and paragraph separators


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name (None: it can). Names are refused when they hold a control character
    (a line break, a tab, an escape, ...) or a line/paragraph separator: a name is one line of text in records,
    listings and terminals."""
    import unicodedata

    for ch in name:
        if unicodedata.category(ch) in _BREAKING:
            return f"player name {name!r} holds a control character (U+{ord(ch):04X}); names are one line of text"
    return None


@dataclass(frozen=True)
class ActResult:
    """What an action produced: the stored events (typed) and the seq after them."""

    game_id: str
    seq: int
    events: list[Recorded[Any]]
    replayed: bool


@dataclass
class PendingAct:
    """An action decided against the cached state, its append handed to the store (``GameService.begin_act``)."""

    game_id: str
    system: GameSystem
    state: Any  # decided against; after complete_act, the state after the events
    events: Sequence[Any]
    encoded: list[NewEvent]
    last_hash: str
    future: Future | None  # the store's AppendResult
    seq: int = 0  # after complete_act: the seq after the events

    @property
    def ended(self) -> bool:
        return any(type(event).tag_name() == "game_ended" for event in self.events)


class GameService:
    """Creates games, applies actions, reads events and states. Thread-safe; one per process and store."""

    def __init__(
        self,
        store: EventStore,
        system_lookup: Callable[[str], GameSystem] = get_system,
        cache_size: int = 1024,
        new_id: Callable[[], str] | None = None,
    ) -> None:
        self.store = store
        self._system_lookup = system_lookup
        self._cache: OrderedDict[str, tuple[int, Any, str]] = OrderedDict()  # game -> (seq, state, last hash)
        self._cache_size = cache_size
        self._lock = threading.Lock()
        self._systems: dict[str, str] = {}  # game -> its system's name
        self._new_id = new_id or (lambda: secrets.token_urlsafe(6).replace("-", "x").replace("_", "y"))

    # -- systems --------------------------------------------------------------------------------------
    def system_of(self, game: GameRecord | str) -> GameSystem:
        record = self.store.get_game(game) if isinstance(game, str) else game
        return self._system_lookup(record.system)

    # -- encoding -------------------------------------------------------------------------------------
    def decode(self, system: GameSystem, stored: StoredEvent) -> Recorded[Any]:
        try:
            event = system.codec.decode_stored(stored.type, stored.schema_version, stored.payload)
        except Exception as exc:  # any decoding failure of a stored row is corruption of the record
            raise CorruptRecord(stored.game_id, stored.seq, f"cannot decode {stored.type!r}: {exc}") from exc
        return Recorded(
            game_id=stored.game_id,
            seq=stored.seq,
            recorded_at=stored.recorded_at,
            schema_version=stored.schema_version,
            event=event,
            hash=stored.hash,
        )

    # -- writing --------------------------------------------------------------------------------------
    def new_game_id(self) -> str:
        """A fresh game id, as ``create_game`` makes one (for callers storing whole games, ``store_events``)."""
        return self._new_id()

    def create_game(
        self,
        setup: dict[str, Any],
        metadata: dict[str, Any] | None = None,
        game_id: str | None = None,
        draw_seed: bool = True,
    ) -> ActResult:
        """Validate a setup through the system's rules and store the game with its opening events.
        ``draw_seed=False`` (imports): store the setup as it is, without drawing a seed it does not give."""
        try:
            system = self._system_lookup(str(setup.get("system", "")))
        except UnknownSystem as exc:
            raise SetupError("unknown_system", "contract", str(exc.args[0])) from None
        for player in setup.get("players") or ():
            problem = name_problem(str(player.get("name") or "")) if isinstance(player, dict) else None
            if problem:
                raise SetupError("invalid_name", "contract", problem)
        if draw_seed and setup.get("seed") is None:
            # The engine never invents randomness: a game created without a seed gets one drawn here, and it is
            # recorded in game_started, so the deck order is still reproducible from the log.
            setup = {**setup, "seed": secrets.randbits(63)}
        embedded = isinstance(setup.get(CATALOGUE), dict)  # an imported game's recorded setup: the document itself
        setup = resolve_setup(self.store, setup)  # issue 30: a catalogue named by id -> its document
        opening = system.start(setup)
        if embedded and opening:  # an imported game's catalogue is served by GET /catalogues/{id} too
            keep_embedded(self.store, getattr(opening[0], CATALOGUE, None))
        game_id = game_id or self._new_id()
        encoded = encode_chain(system, game_id, opening)
        result = self.store.create_game(
            game_id,
            system.name,
            listed_players(system, setup),  # the listing's player filter is about people: their names
            {**listed_armies(system.name, opening), **listed_catalogue(opening), **(metadata or {})},
            encoded,
            tournament=setup.get("tournament"),
        )
        state = system.fold(opening)
        self._remember(game_id, result.last_seq, state, encoded[-1].hash if encoded else genesis_hash(game_id))
        return ActResult(game_id, result.last_seq, [self.decode(system, e) for e in result.events], False)

    def act(
        self,
        game_id: str,
        action: dict[str, Any] | Any,
        expected_seq: int | None = None,
        idempotency_key: str | None = None,
        max_retries: int = 8,
    ) -> ActResult:
        """Decide an action against the latest state and append what it causes.

        With ``expected_seq`` the caller states the seq it last saw: a stale one is a ``Conflict``. Without it
        the service decides against the latest state and, if another writer got in first, decides again.
        With ``idempotency_key``, a request whose key is stored gets the first answer (``replayed``), also when it
        raced that first copy: a refusal (``Conflict``, ``RuleError``) is final only once the key is looked up
        again after it (issue 11 item 9).
        """
        system = self._system_of_game(game_id)
        typed = system.parse_action(action) if isinstance(action, dict) else action
        try:
            return self._act(game_id, system, typed, expected_seq, idempotency_key, max_retries)
        except (Conflict, RuleError):
            # A copy of this request that committed after this one looked its key up is what moved the log past
            # the seq this one was refused at: its events and its key are stored in one commit, which the refusing
            # read saw, so the key is found now. Its answer is this request's answer.
            if idempotency_key is not None:
                first = self.store.find_idempotent(game_id, idempotency_key)
                if first is not None:
                    return self._result(system, first)
            raise

    def _act(
        self,
        game_id: str,
        system: GameSystem,
        typed: Any,
        expected_seq: int | None,
        idempotency_key: str | None,
        max_retries: int,
    ) -> ActResult:
        for _ in range(max_retries):
            if idempotency_key is not None:
                # A retried request whose first attempt was stored gets the first answer, decided or not.
                first = self.store.find_idempotent(game_id, idempotency_key)
                if first is not None:
                    return self._result(system, first)
            # Decide against the cached state without asking the store for its last seq: the append below
            # carries that seq as expected_seq, so a state that another writer made stale is a Conflict there.
            seq, state, last_hash = self._latest(game_id, system, trust_cache=True)
            if expected_seq is not None and expected_seq != seq:
                seq, state, last_hash = self._latest(game_id, system)  # the cache may be behind: look again
                if expected_seq != seq:
                    raise Conflict(game_id, expected_seq, seq)
            try:
                events = system.decide(state, typed)
            except RuleError:
                if self.store.last_seq(game_id) == seq:
                    raise
                self._forget(game_id)  # illegal only in a state another writer has moved on from: decide again
                continue
            encoded = encode_chain(system, game_id, events, last_hash)
            try:
                result = self.store.append(game_id, encoded, expected_seq=seq, idempotency_key=idempotency_key)
            except Conflict:
                self._forget(game_id)
                if expected_seq is not None and idempotency_key is None:
                    raise
                continue
            if not result.replayed:
                pending = PendingAct(game_id, system, state, events, encoded, last_hash, None)
                acted = self.complete_act(pending, result)
                if pending.ended:
                    self._note_outcome(game_id, system, pending.state, acted.seq)
                return acted
            return self._result(system, result)
        raise Conflict(game_id, expected_seq if expected_seq is not None else -1, self.store.last_seq(game_id))

    def begin_act(
        self, game_id: str, action: Any, expected_seq: int | None = None, idempotency_key: str | None = None
    ) -> PendingAct | None:
        """``act``'s common case without waiting for the store, for a caller on an event loop: the game's state
        is cached, no idempotency key is to be looked up, the action is legal. Decides, encodes and hands the
        append to the store (``append_future``); the caller awaits ``future`` and calls ``complete_act`` (and
        ``note_outcome`` if ``ended``). On a ``Conflict`` from the future, ``forget`` the game and call ``act``.
        None: this case needs ``act`` (nothing was sent to the store)."""
        if not isinstance(self.store, FutureAppending) or idempotency_key is not None:
            return None
        with self._lock:
            cached = self._cache.get(game_id)
            if cached is not None:
                self._cache.move_to_end(game_id)
        if cached is None:
            return None
        seq, state, last_hash = cached
        if expected_seq is not None and expected_seq != seq:
            return None  # the cache may be behind: act looks in the store
        system = self._system_of_game(game_id)
        typed = system.parse_action(action) if isinstance(action, dict) else action
        try:
            events = system.decide(state, typed)
        except RuleError:
            return None  # act raises it, or decides again if the state was stale
        encoded = encode_chain(system, game_id, events, last_hash)
        future = self.store.append_future(game_id, encoded, expected_seq=seq)
        return PendingAct(game_id, system, state, events, encoded, last_hash, future)

    def complete_act(self, pending: PendingAct, result: AppendResult) -> ActResult:
        """A fresh append's answer: the new state cached (``pending.state`` becomes it), the events it decided."""
        new_state = pending.state
        for event in pending.events:
            new_state = pending.system.evolve(new_state, event)
        pending.state = new_state
        pending.seq = result.last_seq
        last_hash = pending.encoded[-1].hash if pending.encoded else pending.last_hash
        self._remember(pending.game_id, result.last_seq, new_state, last_hash)
        # the stored payloads are these events encoded: no need to decode them again
        return ActResult(result.game_id, result.last_seq, [
            Recorded(game_id=s.game_id, seq=s.seq, recorded_at=s.recorded_at, schema_version=s.schema_version,
                     event=event, hash=s.hash)
            for s, event in zip(result.events, pending.events, strict=True)
        ], False)

    def note_outcome(self, pending: PendingAct) -> None:
        """After ``complete_act`` of an action that ended the game: its listing metadata (a store write)."""
        self._note_outcome(pending.game_id, pending.system, pending.state, pending.seq)

    def forget(self, game_id: str) -> None:
        self._forget(game_id)

    def _note_outcome(self, game_id: str, system: GameSystem, state: Any, seq: int) -> None:
        """Keep the game's listing metadata (status, winner, end reason) in step with its state."""
        outcome = outcome_metadata(system, state, seq)
        if outcome is not None:
            self.store.update_metadata(game_id, outcome)

    def _result(self, system: GameSystem, result: AppendResult) -> ActResult:
        return ActResult(
            result.game_id, result.last_seq, [self.decode(system, e) for e in result.events], result.replayed
        )

    # -- reading --------------------------------------------------------------------------------------
    def events(self, game_id: str, from_seq: int = 1, to_seq: int | None = None) -> list[Recorded[Any]]:
        record = self.store.get_game(game_id)
        system = self._system_lookup(record.system)
        return [self.decode(system, e) for e in self.store.read(game_id, from_seq, to_seq)]

    def state(self, game_id: str, seq: int | None = None) -> tuple[int, Any]:
        """The state after event ``seq`` (default: the latest), and that seq."""
        record = self.store.get_game(game_id)
        system = self._system_lookup(record.system)
        latest, state, _ = self._latest(game_id, system)
        if seq is None or seq >= latest:
            return latest, state
        if seq < 0:
            seq = 0
        return seq, system.fold(r.event for r in self.events(game_id, 1, seq))

    def seats(self, game_id: str) -> tuple[str, ...]:
        """The game's seat ids in seating order (``Seating.seats`` of its recorded setup, ``Records.recorded_setup``
        of its first event): what its views are (``views_of``). Empty for a stream without a readable start."""
        system = self._system_of_game(game_id)
        first = self.events(game_id, 1, 1)
        try:
            return tuple(seat.id for seat in system.seats(system.recorded_setup([r.event for r in first])))
        except (StreamError, RuleError):
            return ()

    def _system_of_game(self, game_id: str) -> GameSystem:
        """The game's system; a game's system never changes, so it is remembered (GameNotFound if unknown)."""
        name = self._systems.get(game_id)
        if name is None:
            name = self.store.get_game(game_id).system
            if len(self._systems) >= 100_000:
                self._systems.clear()
            self._systems[game_id] = name
        return self._system_lookup(name)

    def _latest(self, game_id: str, system: GameSystem, trust_cache: bool = False) -> tuple[int, Any, str]:
        """(seq, state, last hash) of the game's latest event. ``trust_cache``: a cached state is returned without
        checking the store's last seq (for callers that append with that seq as ``expected_seq``)."""
        with self._lock:
            cached = self._cache.get(game_id)
            if cached is not None:
                self._cache.move_to_end(game_id)
        if cached is not None and trust_cache:
            return cached
        last_seq = self.store.last_seq(game_id)
        if cached is not None and cached[0] == last_seq:
            return cached
        if cached is not None and cached[0] < last_seq:
            seq, state, last_hash = cached
            newer = self.store.read(game_id, seq + 1, last_seq)
        else:
            seq, state, last_hash = 0, system.initial_state(), genesis_hash(game_id)
            newer = self.store.read(game_id, 1, last_seq)
        for stored in newer:
            state = system.evolve(state, self.decode(system, stored).event)
            seq, last_hash = stored.seq, stored.hash
        self._remember(game_id, seq, state, last_hash)
        return seq, state, last_hash

    def _remember(self, game_id: str, seq: int, state: Any, last_hash: str) -> None:
        with self._lock:
            current = self._cache.get(game_id)
            if current is not None and current[0] > seq:
                return
            self._cache[game_id] = (seq, state, last_hash)
            self._cache.move_to_end(game_id)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    def _forget(self, game_id: str) -> None:
        with self._lock:
            self._cache.pop(game_id, None)


def listed_players(system: AnySystem, setup: dict[str, Any]) -> list[str]:
    """The game listing's players (the store's ``players``, the ``player`` filter of ``GET /games``): for each of
    the setup's seats (``Seating.seats``) its player's name, or the seat id where no name is given; each once, in
    seating order. Raises SetupError for players that do not fit the system."""
    people = setup.get("players") or []
    out: list[str] = []
    for seat, person in zip(system.seats(setup), people, strict=True):  # seats() gives one seat per player
        name = str((person.get("name") if isinstance(person, dict) else None) or seat.id)
        if name not in out:
            out.append(name)
    return out


def listed_armies(system_name: str, opening: Sequence[Any]) -> dict[str, Any]:
    """The listing's army labels, ``{"armies": {seat: label}}`` (the ``army`` filter of ``GET /games``; the same
    labels as the statistics' ``army`` filter): from the system's ``Labels`` part and the game's first event;
    ``{}`` for a system without labels or a stream without a first event."""
    plugin = find_plugin(system_name)
    if plugin is None or plugin.labels is None or not opening:
        return {}
    armies = {seat: label for seat, label in plugin.labels.labels(opening[0]).armies.items() if label}
    return {ARMIES: armies} if armies else {}


def listed_catalogue(opening: Sequence[Any]) -> dict[str, Any]:
    """The listing's catalogue, ``{"catalogue": id}`` (issue 30: ``GET /games``, the ``games`` table's column
    ``catalogue``, the statistics' ``catalogue`` filter): the content id the game's first event records
    (``catalogue_id``, a field of every system's ``game_started`` that plays a catalogue), ``{}`` for a game on
    its system's default catalogue."""
    identity = getattr(opening[0], "catalogue_id", None) if opening else None
    return {CATALOGUE: identity} if isinstance(identity, str) else {}


def outcome_metadata(system: AnySystem, state: Any, seq: int) -> dict[str, Any] | None:
    """The listing metadata of a finished game, from its typed ``Outcome`` (``Results.outcome``) and ``turn``
    (``Seating.turn``); None while it runs. ``seq``: the last event's.

    ``winner`` is the winning seat when one seat wins, ``"draw"`` when nobody does, None when several seats win
    together (a team: see ``winners``); ``winners`` and ``placings`` (groups of seats in finishing order) hold the
    whole result for any number of seats; ``adjudication`` is why the scorekeeper ended the game (``end_reason``
    ``adjudicated``), else None."""
    outcome = system.outcome(state)
    if outcome is None:
        return None
    winners = list(outcome.winners)
    winner = winners[0] if len(winners) == 1 else ("draw" if not winners else None)
    return {"status": "over", "winner": winner, "end_reason": outcome.reason, "turns": system.turn(state),
            "seq": seq, "winners": winners, "placings": [list(group) for group in outcome.placings],
            "adjudication": outcome.adjudication}
