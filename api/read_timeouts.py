"""How long a client may take to send a request (issue 28 item 19): uvicorn bounds neither the headers nor the body,
so a client that sent ``Content-Length: 100`` and 2 bytes, or half its headers, held a connection (and its memory)
for good, and a few hundred such clients held the server's sockets.

- **Headers** (``header_timeout``, 10 s): ``protocol(header_timeout)`` is uvicorn's h11 protocol with one timer,
  armed when a connection opens and again when a response is complete (waiting for the next request), stopped when
  a request's headers are complete. When it fires the connection is closed; if the client had begun a request, it
  is first answered 408 ``request_timeout``. Bytes trickled one at a time do not restart it: it bounds the whole
  head, not the gaps. (uvicorn's ``timeout_keep_alive``, 5 s, still closes a connection idle after a response
  sooner; any byte received stopped that timer for good.)
- **Body** (``body_timeout``, 10 s): ``BodyLimit`` (api/errors.py) reads every request body before the route and
  answers 408 ``request_timeout`` with ``Connection: close`` when the whole body has not arrived that long after
  its headers. A body the route never reads (a GET's) is bounded by the header timer of the next request.

The protocol is h11 whether or not httptools is installed (``warlog serve`` names it), so the bounds always hold.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from api.errors import error_answer


class _TimedH11Protocol(H11Protocol):
    header_timeout: float = 10.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_timer: asyncio.TimerHandle | None = None
        self._head_begun = False  # bytes of a request arrived since the timer was armed

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._head_timer is not None:
            self._head_begun = True
        super().data_received(data)

    def handle_events(self) -> None:
        cycle = self.cycle
        super().handle_events()
        if self.cycle is not cycle:  # a request's headers are complete
            self._disarm()

    def on_response_complete(self) -> None:
        self._arm()  # before: answering may start the next (pipelined) request, which stops it again
        super().on_response_complete()

    def _arm(self) -> None:
        self._disarm()
        self._head_begun = False
        self._head_timer = self.loop.call_later(self.header_timeout, self._head_timed_out)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self.transport.is_closing():
            return
        if self._head_begun and self.conn.their_state is h11.IDLE:  # a request begun, its head unfinished
            headers, payload = error_answer(
                "request_timeout",
                f"the request's headers did not arrive within {self.header_timeout:g} s; the connection is closed",
                close=True,
            )
            # written as bytes: h11 answers only a request it has parsed
            head = b"".join(name + b": " + value + b"\r\n" for name, value in headers)
            self.transport.write(b"HTTP/1.1 408 Request Timeout\r\n" + head + b"\r\n" + payload)
        self.transport.close()


def protocol(header_timeout: float) -> type[H11Protocol]:
    """uvicorn's h11 protocol, closing connections whose request headers are not complete within
    ``header_timeout`` seconds (for ``uvicorn.Config(http=...)``)."""
    return type("TimedH11Protocol", (_TimedH11Protocol,), {"header_timeout": header_timeout})
