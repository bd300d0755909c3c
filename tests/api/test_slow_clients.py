"""Slow clients (issue 28 item 19): a connection that does not finish its request's headers or body within the
server's bounds is answered 408 ``request_timeout`` (when a request was begun) and closed; before, ``Content-Length:
100`` with 2 bytes sent held a connection for good. Against a real ``warlog serve`` with a raw socket, its bounds
set low (``WARLOG_HEADER_TIMEOUT``, ``WARLOG_BODY_TIMEOUT``) so the test is quick; the defaults are checked apart.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from api.settings import Settings
from tests.serving import served

BOUND = 1.0  # s: both bounds of the server under test
MARGIN = 3.0  # s: a busy 2-core machine
GIVE_UP = 20.0  # s: the test's own limit on waiting for the server (before the fix: forever)


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    env = {"WARLOG_HEADER_TIMEOUT": str(BOUND), "WARLOG_BODY_TIMEOUT": str(BOUND)}
    with served(tmp_path_factory.mktemp("slow") / "slow.duckdb", env=env) as port:
        yield port


def until_closed(sock: socket.socket, trickle: bytes = b"") -> tuple[bytes, float]:
    """Everything the server sends until it closes the connection, and how long that took (sending ``trickle`` one
    byte every 0.2 s meanwhile). AssertionError if it is still open after GIVE_UP seconds."""
    started = time.monotonic()
    sock.settimeout(0.2)
    received = b""
    while time.monotonic() - started < GIVE_UP:
        if trickle:
            try:
                sock.sendall(trickle[:1])
            except OSError:  # closed by the server
                trickle = b""
            trickle = trickle[1:]
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            continue
        except ConnectionResetError:
            return received, time.monotonic() - started
        if not chunk:
            return received, time.monotonic() - started
        received += chunk
    raise AssertionError(f"the connection is still open after {GIVE_UP:g} s; received {received[:200]!r}")


def request_timeout(answer: bytes) -> None:
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 "), answer[:300]
    assert b"connection: close" in head.lower()
    assert json.loads(body)["error"]["code"] == "request_timeout"


def test_a_body_shorter_than_its_content_length_is_answered_408_within_the_body_bound(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\n\r\n{}")
        answer, took = until_closed(sock)
    request_timeout(answer)
    assert BOUND - 0.1 <= took <= BOUND + MARGIN, took


def test_a_body_trickled_byte_by_byte_is_bounded_as_a_whole(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n")
        answer, took = until_closed(sock, trickle=b"x" * 1000)
    request_timeout(answer)
    assert took <= BOUND + MARGIN, took


def test_headers_never_finished_are_answered_408_within_the_header_bound(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")  # no blank line: the headers go on
        answer, took = until_closed(sock)
    request_timeout(answer)
    assert took <= BOUND + MARGIN, took


def test_headers_trickled_byte_by_byte_are_bounded_as_a_whole(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port)) as sock:
        answer, took = until_closed(sock, trickle=b"GET /health HTTP/1.1\r\n" + b"X-Slow: " + b"y" * 500)
    request_timeout(answer)
    assert took <= BOUND + MARGIN, took


def test_a_connection_that_sends_nothing_is_closed_within_the_header_bound(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port)) as sock:
        answer, took = until_closed(sock)
    assert answer == b""  # no request begun: closed without an answer
    assert took <= BOUND + MARGIN, took


def test_an_unread_body_of_a_get_does_not_hold_the_connection(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nab")
        answer, took = until_closed(sock, trickle=b"c" * 200)
    assert answer.startswith(b"HTTP/1.1 200 "), answer[:200]  # answered, then closed within the bound
    assert took <= 2 * BOUND + MARGIN, took


def test_prompt_clients_keep_their_connection_across_requests(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        stream = sock.makefile("rb")
        for _ in range(3):
            sock.sendall(b'POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n'
                         b"\r\n{}")
            status = stream.readline()
            assert status.startswith(b"HTTP/1.1 422 "), status  # an answer (a bad setup), on the same connection
            length = 0
            while (line := stream.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode().partition(":")
                length = int(value) if name.lower() == "content-length" else length
            stream.read(length)


def test_the_read_bounds_are_settings_with_warlog_names(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    defaults = Settings()
    assert (defaults.header_timeout, defaults.body_timeout) == (10.0, 10.0)
    monkeypatch.setenv("WARLOG_HEADER_TIMEOUT", "2.5")
    monkeypatch.setenv("WARLOG_BODY_TIMEOUT", "30")
    assert (Settings.from_env().header_timeout, Settings.from_env().body_timeout) == (2.5, 30.0)
    with pytest.raises(ValueError):
        Settings(header_timeout=0)
