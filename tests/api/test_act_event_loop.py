"""POST /games/{id}/actions on the event loop (GameService.begin_act): the common case never takes a worker
thread, and every other case ends where GameService.act would have ended it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from engine.lords_of_war.bots import RandomBot
from replay.log.service import GameService
from replay.store.duckdb_store import DuckDBEventStore
from tests.api.helpers import bearer, bot_action, new_game, play


@pytest.fixture
def duck() -> Iterator[TestClient]:
    store = DuckDBEventStore(":memory:")
    with TestClient(create_app(Settings(db=":memory:"), store=store)) as test_client:
        yield test_client
    store.close()


def next_action(service: GameService, game_id: str) -> dict[str, Any]:
    _, state = service.state(game_id)
    return msgspec.to_builtins(RandomBot(5).choose(state))


def test_plain_actions_never_call_act(duck: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    service = duck.app.state.service
    game_id, tokens = new_game(duck)

    def no_act(*args: object, **kwargs: object) -> None:
        raise AssertionError("GameService.act was called")

    monkeypatch.setattr(service, "act", no_act)
    seq = play(duck, game_id, tokens, max_actions=6)
    assert seq == service.store.last_seq(game_id) and seq > 0


def test_another_writer_in_between_is_a_conflict_or_decided_again(duck: TestClient) -> None:
    service = duck.app.state.service
    game_id, tokens = new_game(duck)
    seq, action = bot_action(duck, game_id, {})  # the app's service caches the state at seq
    other = GameService(service.store)  # its own cache: the app's cached state goes stale
    moved = other.act(game_id, action).seq
    stale = duck.post(f"/games/{game_id}/actions", json={"action": action, "expected_seq": seq},
                      headers=bearer(tokens["scorekeeper"]))
    assert stale.status_code == 409 and stale.json()["error"]["seq"] == moved
    assert service.store.last_seq(game_id) == moved

    service.state(game_id)  # cached again at moved...
    moved = other.act(game_id, next_action(other, game_id)).seq  # ...and stale again
    response = duck.post(f"/games/{game_id}/actions", json={"action": next_action(other, game_id)},
                         headers=bearer(tokens["scorekeeper"]))
    assert response.status_code == 201, response.text  # decided again against the stored state
    assert response.json()["events"][0]["seq"] == moved + 1
    assert service.store.last_seq(game_id) == response.json()["seq"]
    assert service.state(game_id)[0] == response.json()["seq"]
