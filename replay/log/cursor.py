"""The replay cursor: any state of a stored game, forward and back, at a bounded cost.

    cursor = ReplayCursor(service, game_id, snapshot_every=32)
    cursor.seek(120); cursor.step(-1); cursor.state; cursor.event; cursor.first(); cursor.last()

Seeking to seq ``s`` looks, in order, in: a small process-wide LRU of recent states; the stored snapshot at the
last multiple of K at or before ``s`` (``store.get_snapshot``); failing that it folds from the nearest earlier
snapshot, storing a snapshot at every multiple of K on the way (rebuilt on demand, once). So, once the snapshots
of a game exist, a seek costs one snapshot read, one ranged event read and at most K-1 evolves.

Snapshots are a cache: msgpack of the system's state (a msgspec Struct) behind a header naming the system and a
fingerprint of the state's fields, so a snapshot written by code with another state shape is ignored and rebuilt.
Deleting every snapshot changes no answer.
"""

from __future__ import annotations

import hashlib
import itertools
import threading
import weakref
from collections import OrderedDict
from typing import Any

import msgspec

from engine.catalogue import decode_book, encode_book
from engine.system import GameSystem
from events import Recorded
from replay.log.service import GameService

DEFAULT_SNAPSHOT_EVERY = 32
SNAPSHOT_MAGIC = b"WLS1"


class StateCache:
    """A small thread-safe LRU of states, keyed by (store, game, seq). Process-wide: ``STATE_CACHE``."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._states: OrderedDict[tuple[int, str, int], Any] = OrderedDict()
        self._lock = threading.Lock()
        self._store_ids: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()
        self._next_id = itertools.count(1)

    def store_id(self, store: Any) -> int:
        """A number for a store object, never reused while it lives (``id()`` may be reused after GC)."""
        with self._lock:
            try:
                found = self._store_ids.get(store)
                if found is None:
                    found = self._store_ids[store] = next(self._next_id)
                return found
            except TypeError:  # not weak-referenceable
                return id(store)

    def get(self, key: tuple[int, str, int]) -> Any | None:
        with self._lock:
            state = self._states.get(key)
            if state is not None:
                self._states.move_to_end(key)
            return state

    def put(self, key: tuple[int, str, int], state: Any) -> None:
        with self._lock:
            self._states[key] = state
            self._states.move_to_end(key)
            while len(self._states) > self.size:
                self._states.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._states.clear()


STATE_CACHE = StateCache()


def _state_type(system: GameSystem) -> type:
    return type(system.initial_state())


def snapshot_header(system: GameSystem) -> bytes:
    state_type = _state_type(system)
    fields = ",".join(getattr(state_type, "__struct_fields__", ()))
    fingerprint = hashlib.blake2b(f"{system.name}|{state_type.__qualname__}|{fields}".encode(), digest_size=8)
    return SNAPSHOT_MAGIC + fingerprint.digest()


def encode_snapshot(system: GameSystem, state: Any) -> bytes:
    return snapshot_header(system) + msgspec.msgpack.encode(state, enc_hook=encode_book)  # a catalogue: its id


def decode_snapshot(system: GameSystem, blob: bytes) -> Any | None:
    """The state in a snapshot, or None when it was written for another state shape (or is damaged)."""
    header = snapshot_header(system)
    if not blob.startswith(header):
        return None
    try:
        return msgspec.msgpack.decode(blob[len(header) :], type=_state_type(system), dec_hook=decode_book)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None


class ReplayCursor:
    """Steps through one stored game. Not thread-safe (one per viewer); the caches it uses are."""

    def __init__(
        self,
        service: GameService,
        game_id: str,
        snapshot_every: int = DEFAULT_SNAPSHOT_EVERY,
        cache: StateCache | None = None,
        store_snapshots: bool = True,
    ) -> None:
        if snapshot_every < 1:
            raise ValueError("snapshot_every must be at least 1")
        self.service = service
        self.store = service.store
        self.game_id = game_id
        self.record = self.store.get_game(game_id)
        self.system: GameSystem = service.system_of(self.record)
        self.system_name: str = self.record.system
        self.every = snapshot_every
        self.cache = STATE_CACHE if cache is None else cache
        self.store_snapshots = store_snapshots
        self._store_key = self.cache.store_id(self.store)
        self._events: dict[int, Recorded[Any]] = {}
        self.last_seq = self.record.last_seq
        self.seq = 0
        self._state = self.system.initial_state()
        self.evolves = 0  # evolves done by this cursor (for tests and the benchmark)

    # -- moving ------------------------------------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self._state

    @property
    def event(self) -> Recorded[Any] | None:
        """The event at the current seq (None at seq 0, before the game)."""
        return self.event_at(self.seq) if self.seq > 0 else None

    def refresh(self) -> int:
        """Pick up events appended since the cursor opened; returns the last seq."""
        self.last_seq = self.store.last_seq(self.game_id)
        return self.last_seq

    def first(self) -> Any:
        return self.seek(0)

    def last(self) -> Any:
        return self.seek(self.last_seq)

    def step(self, delta: int = 1) -> Any:
        """Move by ``delta`` events (clamped to 0..last_seq) and return the state there."""
        return self.seek(self.seq + delta)

    def seek(self, seq: int) -> Any:
        """Go to the state after event ``seq`` (clamped to 0..last_seq) and return it."""
        seq = max(0, min(seq, self.last_seq))
        if seq == self.seq:
            return self._state
        if seq == self.seq + 1:  # stepping forward: one evolve
            self._state = self._evolve(self._state, self.seq + 1, seq)
        else:
            self._state = self._state_at(seq)
        self.seq = seq
        self.cache.put((self._store_key, self.game_id, seq), self._state)
        return self._state

    # -- states ------------------------------------------------------------------------------------------
    def _state_at(self, seq: int) -> Any:
        cached = self.cache.get((self._store_key, self.game_id, seq))
        if cached is not None:
            return cached
        base = seq - seq % self.every  # the snapshot point at or before seq
        if 0 < base and self.seq <= seq and base <= self.seq:
            return self._evolve(self._state, self.seq + 1, seq)  # ahead of us, within reach
        start_seq, state = self._snapshot_at_or_before(base)
        if start_seq < base:
            # build the missing snapshots on the way (once per game and point)
            for point in range(start_seq - start_seq % self.every + self.every, base + 1, self.every):
                state = self._evolve(state, start_seq + 1, point)
                start_seq = point
                self.cache.put((self._store_key, self.game_id, point), state)
                if self.store_snapshots:
                    self.store.put_snapshot(self.game_id, point, encode_snapshot(self.system, state))
        return self._evolve(state, start_seq + 1, seq)

    def _snapshot_at_or_before(self, seq: int) -> tuple[int, Any]:
        if seq <= 0:
            return 0, self.system.initial_state()
        cached = self.cache.get((self._store_key, self.game_id, seq))
        if cached is not None:
            return seq, cached
        found = self.store.get_snapshot(self.game_id, seq)
        while found is not None:
            at, blob = found
            state = decode_snapshot(self.system, blob)
            if state is not None:
                return at, state
            found = self.store.get_snapshot(self.game_id, at - 1) if at > 1 else None  # stale shape: look further back
        return 0, self.system.initial_state()

    def _evolve(self, state: Any, from_seq: int, to_seq: int) -> Any:
        for seq in range(from_seq, to_seq + 1):
            state = self.system.evolve(state, self.event_at(seq, prefetch_to=to_seq).event)
            self.evolves += 1
        return state

    def event_at(self, seq: int, prefetch_to: int | None = None) -> Recorded[Any]:
        """The stored event at ``seq`` (read once, in ranges, and kept by the cursor)."""
        found = self._events.get(seq)
        if found is None:
            to_seq = max(seq, prefetch_to or seq)
            for stored in self.store.read(self.game_id, seq, to_seq):
                self._events[stored.seq] = self.service.decode(self.system, stored)
            found = self._events[seq]
        return found

    def events(self) -> list[Recorded[Any]]:
        """Every event of the game, in order."""
        missing = [s for s in range(1, self.last_seq + 1) if s not in self._events]
        if missing:
            for stored in self.store.read(self.game_id, missing[0], self.last_seq):
                self._events[stored.seq] = self.service.decode(self.system, stored)
        return [self._events[s] for s in range(1, self.last_seq + 1)]
