"""Live games: per-game wake-ups fanned out to the listening streams, the Server-Sent Events stream built on them,
and the caps on open streams.

How a change reaches a stream:
- Appends by this server: the store's commit listener (and the action route) call ``LiveHub.published(game_id)``,
  which wakes the game's waiting streams at once.
- Appends the server was not told about (a store another process can write): ONE change check for all watched
  games every ``check_every`` seconds (``LiveHub.watch``) asks the store for their last seqs in one call
  (``EventStore.last_seqs``) and wakes a game's streams when its last seq is past what one of them has read.

A woken stream reads the store from the seq after the last one it read. Streams of a game woken together read
together: one read (and one rendering of the messages) per (seq, view) in flight, shared by every stream that
needs the same one, so 1,000 spectators of a game cost one store read per new event, not 1,000. While idle a
stream reads nothing: it only waits on its game's ``asyncio.Event`` and sends a keepalive comment every
``keepalive`` seconds, at a phase of its own (streams opened together do not all send theirs at once).

Not missing a change: a stream takes the game's Event *before* reading the store, so a wake-up between the read
and the wait is not lost; it joins only a read that started after the game's last wake-up (every wake-up starts
a new generation of reads), so a shared read never hides a change the stream was woken for; and the check
compares with what each stream has read, so a change one stream read while another did not still wakes the
other.

Caps (``StreamSlots``): streams in total and per client address; a stream holds its slot until its response
ends, however it ends (end of game, idle timeout, the client leaving, the server stopping).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
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
Messages = tuple[list[tuple[int, str | None]], bool]  # (seq, the SSE message or None if hidden) for each, over
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


class _Watched:
    """A watched game: its streams, its wake-up Event while a stream waits, and the reads in flight since the last
    wake-up, by (from seq, view)."""

    __slots__ = ("event", "listeners", "reads")

    def __init__(self) -> None:
        self.listeners: set[Listener] = set()
        self.event: asyncio.Event | None = None
        self.reads: dict[tuple[int, str], asyncio.Future[Messages]] = {}


class LiveHub:
    """Wake-ups per game. ``published`` and the slots are thread-safe; everything else runs on the event loop."""

    def __init__(self, max_streams: int = 2000, max_streams_per_client: int = 50, check_every: float = 1.0) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._games: dict[str, _Watched] = {}
        self.slots = StreamSlots(max_streams, max_streams_per_client)
        self.check_every = check_every
        self._checker: asyncio.Task[None] | None = None
        self._check_failed = False

    # -- streams --------------------------------------------------------------------------------------
    def listen(self, game_id: str, after: int) -> Listener:
        listener = Listener(game_id, after)
        game = self._games.get(game_id)
        if game is None:
            game = self._games[game_id] = _Watched()
        game.listeners.add(listener)
        return listener

    def drop(self, listener: Listener) -> None:
        game = self._games.get(listener.game_id)
        if game is None:
            return
        game.listeners.discard(listener)
        if not game.listeners:  # the game's last stream: nothing of the game stays behind
            del self._games[listener.game_id]

    def watched(self) -> int:
        """How many games have open streams (the wake-up signals are bounded by them)."""
        return len(self._games)

    def signals(self) -> int:
        """How many wake-up signals exist now (never more than ``watched()``)."""
        return sum(1 for game in self._games.values() if game.event is not None)

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def waiter(self, game_id: str) -> asyncio.Event:
        game = self._games[game_id]  # a stream listens before it waits
        if game.event is None:
            game.event = asyncio.Event()
        return game.event

    async def read(self, game_id: str, view: str, from_seq: int, read: Read) -> Messages:
        """``read(from_seq)`` in a worker thread with its messages rendered there, shared with every stream of the
        game that asks for the same (from_seq, view) while it runs, unless the game was woken since it started.
        ``read`` must depend on nothing but the game and the seq (the view is the key's)."""
        game = self._games[game_id]
        key = (from_seq, view)
        shared = game.reads.get(key)
        if shared is None:
            shared = asyncio.ensure_future(run_in_threadpool(_render, read, from_seq))
            game.reads[key] = shared

            def finished(done: asyncio.Future[Messages]) -> None:
                if game.reads.get(key) is done:
                    del game.reads[key]
                if not done.cancelled():
                    done.exception()  # seen here: a failed read whose streams all left is not an unretrieved error

            shared.add_done_callback(finished)
        return await asyncio.shield(shared)  # a stream that goes away does not cancel the others' read

    # -- wake-ups -------------------------------------------------------------------------------------
    def published(self, game_id: str) -> None:
        """Wake the streams of a game (from any thread). A game nobody waits for costs a dict lookup, not a wake-up
        of the event loop: the store's writer calls this for every game of every commit. Not missing a signal: a
        reader takes its Event before reading the store, so an Event absent here means the reader's read comes
        after this commit and sees it."""
        game = self._games.get(game_id)
        if game is None or game.event is None:
            return
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            loop.call_soon_threadsafe(self._wake, game_id)
        except RuntimeError:  # the loop is shutting down
            pass

    def _wake(self, game_id: str) -> None:
        game = self._games.get(game_id)
        if game is None:
            return
        game.reads = {}  # a new generation: reads in flight may have missed what this wake-up is for
        event, game.event = game.event, None
        if event is not None:
            event.set()

    async def check(self, heads: Heads) -> list[str]:
        """One change check: the last seqs of every watched game in one call (in a worker thread); wake the
        streams of each game whose last seq is past what one of its streams has read. -> the games woken."""
        games = list(self._games)
        if not games:
            return []
        found = await run_in_threadpool(heads, games)
        woken = []
        for game_id, head in found.items():
            game = self._games.get(game_id)
            if game is not None and head > min(listener.last for listener in game.listeners):
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


def _render(read: Read, from_seq: int) -> Messages:
    batch, over = read(from_seq)
    return [(seq, None if data is None else sse_message(seq, data)) for seq, data in batch], over


async def sse_stream(
    hub: LiveHub,
    game_id: str,
    after: int,
    read: Read,
    idle_timeout: float,
    keepalive: float = 15.0,
    view: str = "",
    refusal: Callable[[], str | None] | None = None,
) -> AsyncIterator[str]:
    """Events after seq ``after``, then new ones as they come, until the game ends or nothing new arrives for
    ``idle_timeout`` seconds. ``read(from_seq)`` -> ([(seq, event in the view or None if hidden)], game over);
    streams of a game with the same ``view`` share reads (``LiveHub.read``). The store is read once at the start
    and then only when the hub wakes the game. ``refusal()`` (this stream's own, in a worker thread, after every
    read) returns None while the stream may go on, else its last message (a token reissued since it opened): the
    shared reads know nothing of who reads them."""
    listener = hub.listen(game_id, after)
    try:
        async for message in _stream(hub, listener, read, view, idle_timeout, keepalive, refusal):
            yield message
    finally:
        hub.drop(listener)


async def _stream(
    hub: LiveHub, listener: Listener, read: Read, view: str, idle_timeout: float, keepalive: float,
    refusal: Callable[[], str | None] | None = None,
) -> AsyncIterator[str]:
    loop = asyncio.get_running_loop()
    yield "retry: 2000\n\n"
    idle_since = loop.time()
    # this stream's own phase: streams opened together (a round starting) spread theirs over the period
    next_keepalive = idle_since + random.uniform(0.0, 1.0) * keepalive
    while True:
        signal = hub.waiter(listener.game_id)  # before the read: a wake-up during the read is kept
        batch, over = await hub.read(listener.game_id, view, listener.last + 1, read)
        if refusal is not None and (last_word := await run_in_threadpool(refusal)) is not None:
            yield last_word
            return
        if batch:
            listener.last = batch[-1][0]
            idle_since = loop.time()
        for _, message in batch:
            if message is not None:
                yield message
        if over:
            yield "event: end\ndata: {}\n\n"
            return
        while not signal.is_set():  # idle: no reads, only keepalives until a wake-up or the idle timeout
            now = loop.time()
            remaining = idle_timeout - (now - idle_since)
            if remaining <= 0:
                return
            if now >= next_keepalive:
                yield ": keepalive\n\n"
                next_keepalive += keepalive
                if next_keepalive <= now:  # the loop was held up for a whole period: start again from now
                    next_keepalive = now + keepalive
            try:
                await asyncio.wait_for(signal.wait(), timeout=min(remaining, next_keepalive - now))
            except TimeoutError:
                pass
