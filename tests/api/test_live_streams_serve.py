"""Live streams against a running `warlog serve` (issue 11, item 8): idle streams are capped in total and per
client address (503 + Retry-After + ``too_many_streams``), closing a stream frees its slot, and an idle stream
still gets a new event at once and the end of the game. Raw sockets, one per stream, as many clients would hold.
"""

from __future__ import annotations

import json
import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.serving import free_port, serve, served, stop

ROOT = Path(__file__).resolve().parents[2]
SETUP: dict[str, Any] = {
    "system": "lords-of-war",
    "players": [{"id": "p1", "name": "Alice", "army": "orcs"}, {"id": "p2", "name": "Bob", "army": "elves"}],
    "seed": 11, "insecure_seed": True,
}
TOTAL, PER_CLIENT = 6, 3


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """A server with small caps: 6 streams in all, 3 per client address, and its change check an hour apart (so
    an event that reaches a stream came by the in-process wake-up). Yields its port."""
    env = {"WARLOG_MAX_STREAMS": str(TOTAL), "WARLOG_MAX_STREAMS_PER_CLIENT": str(PER_CLIENT),
           "WARLOG_LIVE_CHECK_EVERY": "3600"}
    with served(tmp_path_factory.mktemp("live") / "live.duckdb", env=env) as port:
        yield port


class Stream:
    """``GET /games/{id}/live`` on its own socket, from a chosen loopback address (any 127.x.y.z is this host)."""

    def __init__(self, port: int, path: str, source: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        self.data = b""
        while b"\r\n\r\n" not in self.data:
            self._recv()
        head, _, self.data = self.data.partition(b"\r\n\r\n")
        status_line, *lines = head.decode("latin-1").split("\r\n")
        self.status = int(status_line.split()[1])
        self.headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines)}

    def _recv(self) -> bool:
        chunk = self.sock.recv(65536)
        if not chunk:
            return False
        self.data += chunk
        return True

    def json(self) -> Any:
        length = int(self.headers["content-length"])
        while len(self.data) < length and self._recv():
            pass
        return json.loads(self.data[:length])

    def wait_for(self, marker: bytes, seconds: float) -> float:
        """Seconds until ``marker`` is in the body (AssertionError if it does not come in time)."""
        started = time.monotonic()
        self.sock.settimeout(seconds)
        while marker not in self.data:
            try:
                if not self._recv():
                    raise AssertionError(f"the stream closed before {marker!r}: {self.data[-300:]!r}")
            except TimeoutError:
                raise AssertionError(f"no {marker!r} within {seconds} s: {self.data[-300:]!r}") from None
        return time.monotonic() - started

    def wait_closed(self, seconds: float) -> None:
        self.sock.settimeout(seconds)
        try:
            while self._recv():
                pass
        except TimeoutError:
            raise AssertionError(f"the stream was not closed within {seconds} s: {self.data[-300:]!r}") from None

    def close(self) -> None:
        self.sock.close()


def _game(port: int) -> tuple[str, dict[str, str], int]:
    created = httpx.post(f"http://127.0.0.1:{port}/games", json=SETUP, timeout=10)
    assert created.status_code == 201, created.text
    body = created.json()
    return body["id"], body["tokens"], body["seq"]


def _admitted(port: int, path: str, source: str, seconds: float = 60.0) -> Stream:
    """A stream that is let in within ``seconds`` (slots are freed when the server sees a stream end)."""
    deadline = time.monotonic() + seconds
    while True:
        stream = Stream(port, path, source)
        if stream.status == 200 or time.monotonic() > deadline:
            assert stream.status == 200, (stream.status, stream.data)
            return stream
        stream.close()
        time.sleep(0.1)


def test_streams_are_capped_per_client_and_in_total_with_503_and_retry_after(server: int) -> None:
    game_id, _, _ = _game(server)
    path = f"/games/{game_id}/live?timeout=60"
    mine = [Stream(server, path, "127.0.0.1") for _ in range(PER_CLIENT)]
    others: list[Stream] = []
    try:
        assert [s.status for s in mine] == [200] * PER_CLIENT
        assert all(s.headers["content-type"].startswith("text/event-stream") for s in mine)

        refused = Stream(server, path, "127.0.0.1")
        assert refused.status == 503
        assert int(refused.headers["retry-after"]) > 0
        error = refused.json()["error"]
        assert error["code"] == "too_many_streams" and error["scope"] == "client" and error["limit"] == PER_CLIENT
        assert "127.0.0.1" in error["message"]
        refused.close()

        others = [Stream(server, path, "127.0.0.2") for _ in range(TOTAL - PER_CLIENT)]
        assert [s.status for s in others] == [200] * (TOTAL - PER_CLIENT)
        full = Stream(server, path, "127.0.0.3")  # a client with no stream yet: the server-wide cap
        assert full.status == 503 and int(full.headers["retry-after"]) > 0
        error = full.json()["error"]
        assert error["code"] == "too_many_streams" and error["scope"] == "server" and error["limit"] == TOTAL
        full.close()

        assert httpx.get(f"http://127.0.0.1:{server}/health", timeout=5).status_code == 200
        # a bad request while full is still answered for what it is
        bad = Stream(server, f"/games/{game_id}/live?timeout=-1", "127.0.0.3")
        assert bad.status == 422
        bad.close()

        mine.pop().close()  # closing a stream frees its slot, for its client and in total
        mine.append(_admitted(server, path, "127.0.0.1"))
        assert Stream(server, path, "127.0.0.1").status == 503
    finally:
        for stream in mine + others:
            stream.close()
    for source in ("127.0.0.1", "127.0.0.2", "127.0.0.3"):  # every slot comes back
        _admitted(server, path, source).close()


def test_idle_streams_get_a_new_event_at_once_and_the_end_then_free_their_slots(server: int) -> None:
    game_id, tokens, seq = _game(server)
    keeper = {"Authorization": f"Bearer {tokens['scorekeeper']}"}
    streams = [_admitted(server, f"/games/{game_id}/live?timeout=60&after={seq}", "127.0.0.4")
               for _ in range(PER_CLIENT)]
    try:
        for stream in streams:
            stream.wait_for(b"retry: 2000", 60)
        legal = httpx.get(f"http://127.0.0.1:{server}/games/{game_id}/legal", headers=keeper, timeout=10).json()
        acted = httpx.post(f"http://127.0.0.1:{server}/games/{game_id}/actions", headers=keeper, timeout=10,
                           json={"action": legal["actions"][0], "expected_seq": seq})
        assert acted.status_code == 201, acted.text
        new = acted.json()["seq"]
        # the change check is an hour away: what comes is the in-process wake-up (60 s bounds a hang)
        for stream in streams:
            stream.wait_for(f"id: {new}\n".encode(), 60)

        ended = httpx.post(f"http://127.0.0.1:{server}/games/{game_id}/actions", headers=keeper, timeout=10,
                           json={"action": {"type": "concede", "player": "p2"}})
        assert ended.status_code == 201, ended.text
        for stream in streams:
            stream.wait_for(b"event: end", 60)
            stream.wait_closed(60)
    finally:
        for stream in streams:
            stream.close()
    # the ended streams gave their slots back: this client may open as many again
    other, _, _ = _game(server)
    again = [_admitted(server, f"/games/{other}/live?timeout=60", "127.0.0.4") for _ in range(PER_CLIENT)]
    for stream in again:
        stream.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/<pid>/limits")
def test_serve_lets_itself_open_a_socket_for_every_allowed_stream(tmp_path: Path) -> None:
    """A soft limit of 512 open files (the usual default is 1,024) would refuse connections long before a cap of
    1,000 streams: serve raises its own soft limit (up to the hard one) to fit the cap."""
    import resource

    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    if hard != resource.RLIM_INFINITY and hard < 1256:
        pytest.skip(f"the hard limit ({hard}) is below what 1,000 streams need")
    ulimit = ["sh", "-c", 'ulimit -Sn 512 && exec "$@"', "sh"]  # a soft limit of 512 open files, then exec
    process = serve(tmp_path / "fd.duckdb", free_port(), env={"WARLOG_MAX_STREAMS": "1000"}, launcher=ulimit)
    try:
        limits = Path(f"/proc/{process.pid}/limits").read_text()
        soft = next(line.split()[3] for line in limits.splitlines() if line.startswith("Max open files"))
        assert int(soft) >= 1000 + 256
    finally:
        stop(process)
