"""A store that cannot answer (PostgreSQL away, a statement past its timeout, a transaction the database rolled
back to settle a deadlock) is a 503 with its own code and ``Retry-After``, never a 500 (issue 19, item 4)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from replay.errors import StoreBusy, StoreTimeout, StoreUnavailable
from replay.store.base import GameRecord
from replay.store.memory_store import MemoryEventStore


class Failing(MemoryEventStore):
    def __init__(self, error: Exception) -> None:
        super().__init__()
        self.error = error

    def get_game(self, game_id: str) -> GameRecord:
        raise self.error


@pytest.mark.parametrize(("error", "code"), [
    (StoreUnavailable("connection refused"), "store_unavailable"),
    (StoreTimeout("a statement ran longer than the statement timeout"), "store_timeout"),
    (StoreBusy("the database rolled this transaction back (deadlock detected)"), "store_busy"),
])
def test_a_store_that_cannot_answer_is_a_503_with_its_code(error: Exception, code: str) -> None:
    with TestClient(create_app(Settings(db=":memory:"), store=Failing(error))) as client:
        response = client.get("/games/g1")
    assert response.status_code == 503 and response.headers["retry-after"] == "1"
    assert response.json()["error"] == {"code": code, "message": str(error)}
