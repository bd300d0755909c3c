"""Issue 32 item 3 (steps grouped by turn): every step of GET /games/{id}/steps names its turn, as the game's system
counts them (``GameSystem.turn``: L5R, Art of War, Light Wars and Lords of War turns, HeroScape rounds), so the replay
page groups the steps by turn without knowing a system's state."""

from __future__ import annotations

from fastapi.testclient import TestClient

from engine.systems import get_system, system_names
from tests.api.test_web_names import bot_game


def test_every_step_names_its_turn_as_the_system_counts_them(client: TestClient) -> None:
    for system_name in system_names():
        system = get_system(system_name)
        game_id = bot_game(client, system_name)
        steps = client.get(f"/games/{game_id}/steps").json()["steps"]
        service = client.app.state.service  # type: ignore[attr-defined]
        events = list(service.events(game_id, 1, service.store.last_seq(game_id)))
        assert len(steps) == len(events) > 3, system_name
        state = system.initial_state()  # the stored events folded here: the turn after each
        for step, recorded in zip(steps, events, strict=True):
            state = system.evolve(state, recorded.event)
            assert step["turn"] == system.turn(state), (system_name, step["seq"])
        turns = [step["turn"] for step in steps]
        assert turns == sorted(turns) and turns[-1] > turns[0], system_name  # turns only grow, and do
