"""Live games: per-game wake-ups fanned out to the listening streams, the Server-Sent Events stream built on them,
and the caps on open streams.

How a change reaches a stream:
- Appends by this server: the store's commit listener (and the action route) call ``LiveHub.published(game_id)``,
  which wakes the game's waiting streams at once.
- Appends the server was not told about (a store another process can write): ONE change check for all watched
  games every ``check_every`` seconds (``LiveHub.watch``) asks the store for their last seqs in one call
  (``EventStore.last_seqs``) and wakes a game's streams when its last seq is past what one of them has read.

A woken stream reads the store from the seq after the last one it read. While idle a stream reads nothing: it
only waits on its game's ``asyncio.Event`` and sends a keepalive comment every ``keepalive`` seconds. Not missing
a change: a stream takes the game's Event *before* reading the store, so a wake-up between the read and the
wait is not lost; and the check compares with what each stream has read, so a change one stream read while
another did not is still signalled to the other.

Caps (``StreamSlots``): streams in total and per client address; a stream holds its slot until its response
ends, however it ends (end of game, idle timeout, the client leaving, the server stopping).
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import weakref
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5  # what a refused client is told to wait (a browser tab closing frees a slot at once)

Read = Callable[[int], tuple[list[tuple[int, dict[str, Any] | None]], bool]]
Heads = Callable[[Sequence[str]], dict[str, int]]


class TooManyStreams(Exception):
    """No slot for a new stream: ``scope`` is ``"client"`` (this address has ``limit`` open) or ``"server"``."""

    def __init__(self, scope: str, limit: int, client: str) -> None:
        who = f"client {client}" if scope == "client" else "the server"
        super().__init__(f"{who} has {limit} live streams open, the most allowed; close one or retry later")
        self.scope = scope
        self.limit = limit


class Slot:
    """One open stream's place under the caps; ``release`` is idempotent and thread-safe."""

    __slots__ = ("_slots", "client")

    def __init__(self, slots: StreamSlots, client: str) -> None:
        self._slots: StreamSlots | None = slots
        self.client = client

    def release(self) -> None:
        slots, self._slots = self._slots, None
        if slots is not None:
            slots._release(self.client)


class StreamSlots:
    """Counts open streams, in total and per client address. Taken in the route's worker thread, released on the
    event loop: one lock."""

    def __init__(self, total: int, per_client: int) -> None:
        self.total = total
        self.per_client = per_client
        self._lock = threading.Lock()
        self._open = 0
        self._by_client: dict[str, int] = {}

    def take(self, client: str) -> Slot:
        with self._lock:
            mine = self._by_client.get(client, 0)
            if mine >= self.per_client:
                raise TooManyStreams("client", self.per_client, client)
            if self._open >= self.total:
                raise TooManyStreams("server", self.total, client)
            self._open += 1
            self._by_client[client] = mine + 1
        return Slot(self, client)

    def _release(self, client: str) -> None:
        with self._lock:
            self._open -= 1
            left = self._by_client.get(client, 1) - 1
            if left > 0:
                self._by_client[client] = left
            else:
                self._by_client.pop(client, None)

    def open(self, client: str | None = None) -> int:
        """Streams open now, in total or for one client."""
        with self._lock:
            return self._open if client is None else self._by_client.get(client, 0)


class Listener:
    """One stream of a game, as the hub sees it: ``last`` is the last seq it has read from the store."""

    __slots__ = ("game_id", "last")

    def __init__(self, game_id: str, last: int) -> None:
        self.game_id = game_id
        self.last = last


class LiveHub:
    """Wake-ups per game. ``published`` and the slots are thread-safe; everything else runs on the event loop."""

    def __init__(self, max_streams: int = 2000, max_streams_per_client: int = 50, check_every: float = 1.0) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._events: dict[str, asyncio.Event] = {}  # a game's Event while a stream waits for it
        self._listeners: dict[str, set[Listener]] = {}  # the streams of each watched game
        self.slots = StreamSlots(max_streams, max_streams_per_client)
        self.check_every = check_every
        self._checker: asyncio.Task[None] | None = None
        self._check_failed = False

    # -- streams --------------------------------------------------------------------------------------
    def listen(self, game_id: str, after: int) -> Listener:
        listener = Listener(game_id, after)
        self._listeners.setdefault(game_id, set()).add(listener)
        return listener

    def drop(self, listener: Listener) -> None:
        listeners = self._listeners.get(listener.game_id)
        if listeners is None:
            return
        listeners.discard(listener)
        if not listeners:  # the game's last stream: nothing of the game stays behind
            del self._listeners[listener.game_id]
            self._events.pop(listener.game_id, None)

    def watched(self) -> int:
        """How many games have open streams (the wake-up signals are bounded by them)."""
        return len(self._listeners)

    def signals(self) -> int:
        """How many wake-up signals exist now (never more than ``watched()``)."""
        return len(self._events)

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def waiter(self, game_id: str) -> asyncio.Event:
        event = self._events.get(game_id)
        if event is None:
            event = self._events[game_id] = asyncio.Event()
        return event

    # -- wake-ups -------------------------------------------------------------------------------------
    def published(self, game_id: str) -> None:
        """Wake the streams of a game (from any thread). A game nobody waits for costs a dict lookup, not a wake-up
        of the event loop: the store's writer calls this for every game of every commit. Not missing a signal: a
        reader takes its Event before reading the store, so an Event absent here means the reader's read comes
        after this commit and sees it."""
        if game_id not in self._events:
            return
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            loop.call_soon_threadsafe(self._wake, game_id)
        except RuntimeError:  # the loop is shutting down
            pass

    def _wake(self, game_id: str) -> None:
        event = self._events.pop(game_id, None)
        if event is not None:
            event.set()

    async def check(self, heads: Heads) -> list[str]:
        """One change check: the last seqs of every watched game in one call (in a worker thread); wake the
        streams of each game whose last seq is past what one of its streams has read. -> the games woken."""
        games = list(self._listeners)
        if not games:
            return []
        found = await run_in_threadpool(heads, games)
        woken = []
        for game_id, head in found.items():
            listeners = self._listeners.get(game_id)
            if listeners and head > min(listener.last for listener in listeners):
                self._wake(game_id)
                woken.append(game_id)
        return woken

    async def watch(self, heads: Heads) -> None:
        """Run ``check`` every ``check_every`` seconds until cancelled. A failing check (the store closing, a
        database error) is logged once and tried again at the next tick; in-process wake-ups go on regardless."""
        while True:
            await asyncio.sleep(self.check_every)
            try:
                await self.check(heads)
            except Exception as error:  # noqa: BLE001 - the checker must outlive a bad tick
                if not self._check_failed:
                    log.warning("live streams: the change check failed (%s); retrying every %g s",
                                error, self.check_every)
                self._check_failed = True
            else:
                self._check_failed = False

    def start(self, heads: Heads) -> None:
        """Start the one change-check task on the running loop (the app's lifespan)."""
        self._loop = asyncio.get_running_loop()
        self._checker = self._loop.create_task(self.watch(heads), name="warlog-live-check")

    async def stop(self) -> None:
        checker, self._checker = self._checker, None
        if checker is not None:
            checker.cancel()
            try:
                await checker
            except asyncio.CancelledError:
                pass


class LiveResponse(StreamingResponse):
    """The SSE response; it gives its stream's slot back when the response ends, however it ends (including a
    client gone before the first byte, when the body's generator never starts). A response dropped without
    being sent at all gives it back when it is collected."""

    def __init__(self, slot: Slot, content: AsyncIterator[str], headers: dict[str, str]) -> None:
        super().__init__(content, media_type="text/event-stream", headers=headers)
        self.slot = slot
        weakref.finalize(self, slot.release)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.slot.release()


def sse_message(seq: int, data: dict[str, Any]) -> str:
    """One SSE message: ``id:`` is the event's seq, ``data:`` its JSON (one line)."""
    return f"id: {seq}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


async def sse_stream(
    hub: LiveHub,
    game_id: str,
    after: int,
    read: Read,
    idle_timeout: float,
    keepalive: float = 15.0,
) -> AsyncIterator[str]:
    """Events after seq ``after``, then new ones as they come, until the game ends or nothing new arrives for
    ``idle_timeout`` seconds. ``read(from_seq)`` -> ([(seq, event in the view or None if hidden)], game over).
    The store is read once at the start and then only when the hub wakes the game."""
    listener = hub.listen(game_id, after)
    try:
        async for message in _stream(hub, listener, read, idle_timeout, keepalive):
            yield message
    finally:
        hub.drop(listener)


async def _stream(
    hub: LiveHub, listener: Listener, read: Read, idle_timeout: float, keepalive: float
) -> AsyncIterator[str]:
    loop = asyncio.get_running_loop()
    yield "retry: 2000\n\n"
    idle_since = last_sent = loop.time()
    while True:
        signal = hub.waiter(listener.game_id)  # before the read: a wake-up during the read is kept
        batch, over = await run_in_threadpool(read, listener.last + 1)
        if batch:
            listener.last = batch[-1][0]
            idle_since = loop.time()
        for seq, data in batch:
            if data is not None:
                yield sse_message(seq, data)
                last_sent = loop.time()
        if over:
            yield "event: end\ndata: {}\n\n"
            return
        while not signal.is_set():  # idle: no reads, only keepalives until a wake-up or the idle timeout
            now = loop.time()
            remaining = idle_timeout - (now - idle_since)
            if remaining <= 0:
                return
            if now - last_sent >= keepalive:
                yield ": keepalive\n\n"
                last_sent = now
            try:
                await asyncio.wait_for(signal.wait(), timeout=min(remaining, keepalive - (now - last_sent)))
            except TimeoutError:
                pass
