"""A defect (an exception no handler expects) is a 500 with the contract's error body, logged with its traceback, and
the client's kept-alive connection survives it: Starlette's last-resort handler answers and then re-raises to the
server, and uvicorn then closed the connection, so the next request on it was reset (issue 11 item 2).

The app is served by uvicorn in a thread, with one extra route that fails the way a defect does; nothing else in
the product can be made to fail on purpose from outside."""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Iterator

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

from api.app import create_app
from api.settings import Settings
from replay.store.memory_store import MemoryEventStore
from tests.api.helpers import one_connection


def _app() -> FastAPI:
    app = create_app(Settings(db=":memory:"), store=MemoryEventStore())

    @app.get("/defect", include_in_schema=False)
    def defect() -> None:
        raise RuntimeError("a defect")

    return app


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(_app(), log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield sock.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


class Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_a_defect_is_the_contracts_500_and_is_logged(port: int) -> None:
    log = logging.getLogger("uvicorn.error")  # the server's error log (uvicorn's loggers do not propagate to root)
    handler = Records()
    log.addHandler(handler)
    try:
        response = httpx.get(f"http://127.0.0.1:{port}/defect", timeout=10)
    finally:
        log.removeHandler(handler)
    assert response.status_code == 500
    assert response.json() == {"error": {"code": "internal_error",
                                         "message": "an unexpected error occurred; nothing was stored by this request"}}
    logged = [r for r in handler.records if r.exc_info and "a defect" in str(r.exc_info[1])]
    assert len(logged) == 1, [r.getMessage() for r in handler.records]
    assert "GET /defect" in logged[0].getMessage()


def test_a_defect_does_not_reset_the_connection(port: int) -> None:
    assert one_connection(port, "/defect", "/health", "/defect", "/health") == [500, 200, 500, 200]
