"""Live games: a per-game wake-up signal and the Server-Sent Events stream built on it.

Writers (the action route, in a worker thread) call ``LiveHub.published(game_id)`` after an append is
acknowledged; readers wait on the game's ``asyncio.Event`` and then read the store from the seq after the last one
they sent. A reader takes its Event *before* reading the store, so a signal between the read and the wait is not
lost; and it also re-reads every ``poll`` seconds, so appends made by another process (``warlog demo``) show up.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool


class LiveHub:
    """Wake-ups per game. ``published`` is thread-safe; ``waiter`` runs on the event loop."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._events: dict[str, asyncio.Event] = {}
        self._streams: dict[str, int] = {}  # open streams per game: the game's Event is dropped with the last one

    def enter(self, game_id: str) -> None:
        self._streams[game_id] = self._streams.get(game_id, 0) + 1

    def leave(self, game_id: str) -> None:
        left = self._streams.get(game_id, 1) - 1
        if left > 0:
            self._streams[game_id] = left
        else:
            self._streams.pop(game_id, None)
            self._events.pop(game_id, None)

    def watched(self) -> int:
        """How many games have a wake-up signal now (bounded by the games with open streams)."""
        return len(self._events)

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def waiter(self, game_id: str) -> asyncio.Event:
        event = self._events.get(game_id)
        if event is None:
            event = self._events[game_id] = asyncio.Event()
        return event

    def published(self, game_id: str) -> None:
        """Wake the streams of a game (from any thread). A game nobody watches costs a dict lookup, not a wake-up
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


def sse_message(seq: int, data: dict[str, Any]) -> str:
    """One SSE message: ``id:`` is the event's seq, ``data:`` its JSON (one line)."""
    return f"id: {seq}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


async def sse_stream(
    hub: LiveHub,
    game_id: str,
    after: int,
    read: Callable[[int], tuple[list[tuple[int, dict[str, Any] | None]], bool]],
    idle_timeout: float,
    poll: float = 1.0,
    keepalive: float = 15.0,
) -> AsyncIterator[str]:
    """Events after seq ``after``, then new ones as they come, until the game ends or nothing new arrives for
    ``idle_timeout`` seconds. ``read(from_seq)`` -> ([(seq, event in the view or None if hidden)], game over)."""
    hub.enter(game_id)
    try:
        async for message in _stream(hub, game_id, after, read, idle_timeout, poll, keepalive):
            yield message
    finally:
        hub.leave(game_id)


async def _stream(
    hub: LiveHub,
    game_id: str,
    after: int,
    read: Callable[[int], tuple[list[tuple[int, dict[str, Any] | None]], bool]],
    idle_timeout: float,
    poll: float,
    keepalive: float,
) -> AsyncIterator[str]:
    loop = asyncio.get_running_loop()
    yield "retry: 2000\n\n"
    last = after
    idle_since = loop.time()
    last_sent = loop.time()
    while True:
        signal = hub.waiter(game_id)
        batch, over = await run_in_threadpool(read, last + 1)
        for seq, data in batch:
            last = seq
            if data is not None:
                yield sse_message(seq, data)
                last_sent = loop.time()
        if batch:
            idle_since = loop.time()
        if over:
            yield "event: end\ndata: {}\n\n"
            return
        now = loop.time()
        remaining = idle_timeout - (now - idle_since)
        if remaining <= 0:
            return
        if now - last_sent >= keepalive:
            yield ": keepalive\n\n"
            last_sent = now
        try:
            await asyncio.wait_for(signal.wait(), timeout=min(poll, remaining, keepalive))
        except TimeoutError:
            pass
