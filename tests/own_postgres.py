"""A private PostgreSQL 15 server for the tests that stop and start the database (tests/api/test_postgres_*.py): initdb
into a temporary directory, its own port, run as the ``postgres`` user. Not the shared server of tests/pg.py:
stopping that one would break the other PostgreSQL tests running at the same time (xdist).

``own_postgres`` (a fixture) skips unless PostgreSQL 15's binaries are installed and the tests run as root (they
start the server as ``postgres``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.serving import free_port

BIN = Path("/usr/lib/postgresql/15/bin")


class OwnPostgres:
    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="warlog-pg-"))
        self.folder.chmod(0o755)
        self.data = self.folder / "data"
        self.port = free_port()
        shutil.chown(self.folder, "postgres", "postgres")
        self._as_postgres([str(BIN / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres",
                           "--no-sync", "-E", "UTF8"])

    def _as_postgres(self, command: list[str]) -> None:
        subprocess.run(["su", "postgres", "-c", " ".join(command)], check=True, capture_output=True, timeout=60)

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def start(self) -> None:
        """Start it and return once it accepts connections (``pg_ctl -w``)."""
        options = f"'-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1'"
        self._as_postgres([str(BIN / "pg_ctl"), "-D", str(self.data), "-o", options, "-l",
                           str(self.folder / "log"), "-w", "start"])

    def crash(self) -> None:
        """``pg_ctl stop -m immediate``: a crash as far as the database knows (recovery from its WAL on start)."""
        self._as_postgres([str(BIN / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"])

    def remove(self) -> None:
        try:
            self.crash()
        except subprocess.CalledProcessError:
            pass  # already stopped
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture
def own_postgres() -> Iterator[OwnPostgres]:
    if not (BIN / "initdb").exists() or os.geteuid() != 0:
        pytest.skip("needs PostgreSQL 15's binaries and root (to run a private server as postgres)")
    pytest.importorskip("psycopg")
    server = OwnPostgres()
    try:
        server.start()
        yield server
    finally:
        server.remove()
