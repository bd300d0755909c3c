"""Service settings (pydantic), from command-line flags and ``WARLOG_*`` environment variables."""

from __future__ import annotations

import os

from pydantic import BaseModel, Field


class Settings(BaseModel):
    db: str = Field("warlog.duckdb", description="DuckDB file, or ':memory:'")
    host: str = "127.0.0.1"
    port: int = Field(8000, ge=1, le=65535)
    admin_key: str | None = Field(None, description="if set, required to create games and tournaments")
    max_body_bytes: int = Field(64 * 1024, ge=1024, description="larger request bodies get 413")
    load_samples: bool = Field(False, description="load the fixture games into an empty database on start")

    @classmethod
    def from_env(cls, **overrides: object) -> "Settings":
        env: dict[str, object] = {}
        for name in cls.model_fields:
            value = os.environ.get(f"WARLOG_{name.upper()}")
            if value is not None:
                env[name] = value
        env.update({k: v for k, v in overrides.items() if v is not None})
        return cls.model_validate(env)
