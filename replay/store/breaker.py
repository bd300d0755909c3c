"""A circuit breaker for a database that may be down (issue 28 item 14): calls fail at once while it is known to be
unreachable, and one thread probes it until it is back.

- **Closed** (the usual state): calls go to the database.
- **Open**: a call found the database unreachable (``trip``: a connection broken under it, no connection within
  the pool's timeout). Every call now fails at once (``check`` raises) instead of waiting for a connection that
  cannot come, so requests answer 503 in milliseconds and never queue behind each other. A thread probes the
  database at once, then every ``interval`` seconds; the first probe that connects runs ``on_back`` (the store
  drops its broken pooled connections) and closes the breaker.
- ``wait_verdict`` lets a caller that just tripped it wait, briefly, for the first probe: a single broken
  connection (a backend ended by an administrator) closes it again within a round trip, and a read is then tried
  once more on a fresh connection.

The probe, ``on_back`` and the interval are given (tests/replay/test_breaker.py drives it with a fake probe).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

log = logging.getLogger("warlog.postgres")


class Breaker:
    def __init__(
        self, probe: Callable[[], None], on_back: Callable[[], None], interval: float, name: str = "the database",
        error: Callable[[str], Exception] = RuntimeError,
    ) -> None:
        """``probe()`` returns when the database can be reached and raises otherwise; ``error(message)`` is the
        exception ``check`` raises while open."""
        self._probe = probe
        self._on_back = on_back
        self._interval = interval
        self._name = name
        self._error = error
        self._lock = threading.Lock()
        self._open_since: float | None = None
        self._reason = ""
        self._verdict = threading.Event()  # set while closed, and once an outage's first probe has failed
        self._verdict.set()
        self._wake = threading.Event()
        self._stopped = False
        self._thread: threading.Thread | None = None

    @property
    def is_open(self) -> bool:
        return self._open_since is not None

    def check(self) -> None:
        """Raise ``error`` at once while the database is known to be unreachable."""
        since = self._open_since
        if since is not None:
            raise self._error(
                f"{self._name} cannot be reached ({self._reason}; for {time.monotonic() - since:.1f} s); retry shortly"
            )

    def trip(self, reason: str) -> None:
        """A call found the database unreachable: open (if closed) and probe at once."""
        with self._lock:
            if self._stopped:
                return
            if self._open_since is None:
                self._open_since = time.monotonic()
                self._reason = reason
                self._verdict.clear()
                log.warning("warlog: %s cannot be reached (%s); answering 503 until it is back", self._name, reason)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="warlog-pg-probe", daemon=True)
                self._thread.start()
            self._wake.set()

    def wait_verdict(self, timeout: float) -> bool:
        """Wait up to ``timeout`` s for the first probe of the current outage: True when the database was found
        reachable (the breaker is closed), False when it was not or the probe is still trying."""
        self._verdict.wait(timeout)
        return self._open_since is None

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            self._wake.set()
            thread = self._thread
        if thread is not None:
            thread.join(timeout=5)

    def _run(self) -> None:
        while True:
            with self._lock:
                if self._stopped or self._open_since is None:
                    self._thread = None
                    return
                self._wake.clear()
            try:
                self._probe()
                self._on_back()
            except Exception as error:  # noqa: BLE001 - any failure to reach it: still down
                with self._lock:
                    self._reason = _first_line(error)
                self._verdict.set()  # a caller waiting for the first probe: it failed
                self._wake.wait(self._interval)
                continue
            with self._lock:
                if self._open_since is not None:
                    log.warning("warlog: %s is back after %.1f s", self._name, time.monotonic() - self._open_since)
                self._open_since = None
                self._verdict.set()


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
