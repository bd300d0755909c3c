"""Service settings (pydantic), from command-line flags and ``WARLOG_*`` environment variables."""

from __future__ import annotations

import os
import re

from pydantic import BaseModel, Field, ValidationError, field_validator

from api.database import DEFAULT_DB, DEFAULT_STATS_DB

_SIZE = re.compile(r"^\d+(\.\d+)?\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)$", re.IGNORECASE)


class Settings(BaseModel):
    db: str = Field(DEFAULT_DB, description="DuckDB file, ':memory:', or a postgresql:// URL (several processes)")
    stats_db: str | None = Field(
        None, description="with PostgreSQL: the DuckDB file the statistics are published to (default: "
        f"./{DEFAULT_STATS_DB}; the analytics leader keeps its mirror of the log beside it, <file>.mirror)",
    )
    pg_statement_timeout_ms: int = Field(
        5000, ge=1, description="with PostgreSQL: a statement running longer is cancelled (503 store_timeout)"
    )
    analytics: bool = Field(
        True, description="with PostgreSQL: this process may lead the analytics (mirror, projector, publication); "
        "false: it only reads the published statistics (the workers of `warlog serve --workers`, whose analytics "
        "run in a `warlog analytics` process of their own)",
    )
    analytics_scope: str | None = Field(
        None, max_length=200, description="with PostgreSQL: the processes sharing one analytics leader and one "
        "published statistics file (default: this machine's host name; give every machine the same scope when "
        "--stats-db is on storage they share)",
    )
    pg_pool_size: int = Field(10, ge=1, le=1000, description="with PostgreSQL: connections per server process")
    host: str = "127.0.0.1"
    port: int = Field(8000, ge=0, le=65535, description="0: any free port (the one chosen is printed)")
    admin_key: str | None = Field(None, description="if set, required to create games and tournaments")
    max_body_bytes: int = Field(64 * 1024, ge=1024, description="larger request bodies get 413")
    # How long a client may take to send a request (api/read_timeouts.py): then 408 request_timeout, closed.
    header_timeout: float = Field(
        10.0, gt=0, le=3600, description="seconds from a connection's start (or its previous answer) to a request's "
        "complete headers"
    )
    body_timeout: float = Field(10.0, gt=0, le=3600, description="seconds from a request's headers to its whole body")
    load_samples: bool = Field(False, description="load the fixture games into an empty database on start")
    memory_limit: str | None = Field(
        "256MB",
        description="DuckDB's memory cap (its buffer pool; it spills to disk beyond it), e.g. 256MB or 1GB; "
        "'none' leaves DuckDB's default of 80% of RAM. An in-memory database (':memory:') gets it only when set "
        "explicitly, since its data must fit.",
    )
    # Rate limits of the write routes (api/limits.py); a rate of 0 turns that limit off.
    write_rate: float = Field(20.0, ge=0, description="writes a second per bearer token, sustained (0: no limit)")
    write_burst: int = Field(300, ge=1, description="writes per bearer token at once (a whole game at any speed)")
    address_write_rate: float = Field(
        10.0, ge=0, description="writes a second per client address without a token, sustained (0: no limit)"
    )
    address_write_burst: int = Field(200, ge=1, description="writes per client address without a token at once")
    max_streams: int = Field(
        2000, ge=1, description="live (SSE) streams open at once, in total; more get 503 too_many_streams"
    )
    max_streams_per_client: int = Field(
        50, ge=1, description="live (SSE) streams open at once from one client address; more get 503"
    )
    live_check_every: float = Field(
        1.0, gt=0, le=3600, description="seconds between the live streams' change checks, which bring events "
        "stored by another process (PostgreSQL) to this server's streams when its notification did not; this "
        "server's own appends wake its streams at once"
    )

    @field_validator("memory_limit")
    @classmethod
    def _memory_size(cls, value: str | None) -> str | None:
        if value is None or value.strip().lower() in ("", "none"):
            return None
        if not _SIZE.match(value.strip()):
            raise ValueError(f"memory_limit {value!r} is not a size such as 256MB or 1GB")
        return value.strip()

    def stats_path(self) -> str:
        return self.stats_db or DEFAULT_STATS_DB

    def duckdb_memory_limit(self) -> str | None:
        """The cap to give DuckDB: the setting, except the default for an in-memory database."""
        if self.db == ":memory:" and "memory_limit" not in self.model_fields_set:
            return None
        return self.memory_limit

    @classmethod
    def problem(cls, error: ValidationError) -> str:
        """A refused setting in one sentence: each field with what is wrong and where it may come from
        (``port: Input should be less than or equal to 65535, not '70000' (WARLOG_PORT or the command line)``)."""
        parts = []
        for item in error.errors():
            name = ".".join(str(part) for part in item["loc"])
            given = f", not {item['input']!r}" if "input" in item and not isinstance(item["input"], dict) else ""
            parts.append(f"{name}: {item['msg']}{given} (WARLOG_{name.upper()} or the command line)")
        return "; ".join(parts)

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        env: dict[str, object] = {}
        for name in cls.model_fields:
            value = os.environ.get(f"WARLOG_{name.upper()}")
            if value is not None:
                env[name] = value
        env.update({k: v for k, v in overrides.items() if v is not None})
        return cls.model_validate(env)
