"""The PostgreSQL store's circuit breaker (replay/store/breaker.py, issue 28 item 14), with a fake database: calls
fail at once while it is open, one thread probes until the database answers, then ``on_back`` runs and it closes."""

from __future__ import annotations

import threading
import time

import pytest

from replay.errors import StoreUnavailable
from replay.store.breaker import Breaker


class FakeDatabase:
    def __init__(self) -> None:
        self.up = True
        self.probes = 0
        self.back = 0
        self.lock = threading.Lock()

    def probe(self) -> None:
        with self.lock:
            self.probes += 1
            if not self.up:
                raise ConnectionRefusedError("connection refused")

    def on_back(self) -> None:
        self.back += 1


def wait_for(condition, seconds: float = 5) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def breaker_of(db: FakeDatabase, interval: float = 0.05) -> Breaker:
    return Breaker(db.probe, db.on_back, interval, "the test database", StoreUnavailable)


def test_breaker_open_fails_at_once_probes_and_closes_when_the_database_answers() -> None:
    db = FakeDatabase()
    breaker = breaker_of(db)
    try:
        breaker.check()  # closed: nothing happens, nothing is probed
        assert db.probes == 0 and not breaker.is_open
        db.up = False
        breaker.trip("server closed the connection unexpectedly")
        assert breaker.is_open
        started = time.monotonic()
        for _ in range(1000):
            with pytest.raises(StoreUnavailable, match="the test database cannot be reached"):
                breaker.check()
        assert time.monotonic() - started < 10  # at once: no call waits for a connection (~50 s if each did)
        assert not breaker.wait_verdict(5)  # the first probe failed: still open
        assert wait_for(lambda: db.probes >= 3)  # probing again and again
        assert db.back == 0
        db.up = True
        assert wait_for(lambda: not breaker.is_open)
        assert db.back == 1  # the broken connections were dropped before the breaker closed
        breaker.check()
        assert wait_for(lambda: breaker._thread is None)  # closed: the probing thread has ended
        probes = db.probes
        breaker.check()
        assert db.probes == probes
    finally:
        breaker.stop()


def test_breaker_a_single_broken_connection_is_a_verdict_of_back_within_a_probe() -> None:
    db = FakeDatabase()  # up: an administrator ended one session, the server is fine
    breaker = breaker_of(db, interval=60)
    try:
        breaker.trip("terminating connection due to administrator command")
        assert breaker.wait_verdict(5)  # the read may retry on a fresh connection at once
        assert not breaker.is_open and db.back == 1
    finally:
        breaker.stop()


def test_breaker_stopped_probes_no_more() -> None:
    db = FakeDatabase()
    db.up = False
    breaker = breaker_of(db, interval=0.01)
    breaker.trip("refused")
    assert wait_for(lambda: db.probes >= 1)
    breaker.stop()
    assert breaker._thread is None or not breaker._thread.is_alive()
    probes = db.probes
    breaker.trip("refused again")  # after stop: nothing starts
    assert breaker._thread is None or not breaker._thread.is_alive()
    assert db.probes == probes
