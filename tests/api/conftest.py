from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from replay.store.memory_store import MemoryEventStore


@pytest.fixture
def client() -> Iterator[TestClient]:
    app = create_app(Settings(db=":memory:"), store=MemoryEventStore())
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def admin_client() -> Iterator[TestClient]:
    app = create_app(Settings(db=":memory:", admin_key="let-me-in"), store=MemoryEventStore())
    with TestClient(app) as test_client:
        yield test_client
