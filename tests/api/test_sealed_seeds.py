"""A sealed game's secrecy is its seed (issue 28 item 20): every shuffled deck and every rolled die follows from it,
so a caller-chosen small seed (the docs taught 42) could be found by trying seeds against the public moves. The
server draws the seed (63 random bits: the engines' whole seed range, 0 to 2^63 - 1); a caller's own seed is
accepted only with ``"insecure_seed": true`` (tests, bots, replaying a known game) and the game says so to anyone
who looks. No view shows the seed before the end, in any system."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest
from fastapi.testclient import TestClient

from api.systems import get_plugin, plugin_names
from engine.systems import get_system
from tests.api.helpers import SETUP, bearer

ROOT = Path(__file__).parents[2]
UNSEEDED = {key: value for key, value in SETUP.items() if key not in ("seed", "insecure_seed")}


def example(system: str) -> dict[str, Any]:
    """The system's example body of ``POST /games`` (its OpenAPI example)."""
    extra = get_plugin(system).setup.model_config.get("json_schema_extra")
    assert isinstance(extra, dict)
    return dict(extra["examples"][0])


def recorded_seed(client: TestClient, game_id: str) -> Any:
    stored = client.app.state.service.store.read(game_id, 1, 1)  # type: ignore[attr-defined]
    return json.loads(stored[0].payload)["seed"]


def test_a_chosen_seed_without_the_insecure_seed_flag_is_refused_and_stores_nothing(client: TestClient) -> None:
    for seed in (42, 0, 2**40):
        refused = client.post("/games", json={**UNSEEDED, "seed": seed})
        assert refused.status_code == 422, refused.text
        error = refused.json()["error"]
        assert error["code"] == "invalid_request"
        assert "insecure_seed" in error["message"] and "seed" in error["message"]
    refused = client.post("/games", json={**UNSEEDED, "seed": 42, "insecure_seed": False})
    assert refused.status_code == 422
    assert client.post("/games", json={**UNSEEDED, "insecure_seed": True}).status_code == 422  # a flag for nothing
    assert client.get("/games").json()["games"] == []


@pytest.mark.parametrize("system", plugin_names())
def test_without_a_seed_every_system_gets_the_server_s_random_seed(client: TestClient, system: str) -> None:
    body = example(system)
    assert "seed" not in body  # the examples no longer teach a chosen seed
    seeds = []
    for _ in range(3):
        created = client.post("/games", json=body)
        assert created.status_code == 201, created.text
        seeds.append(recorded_seed(client, created.json()["id"]))
        assert client.get(f"/games/{created.json()['id']}").json()["seed_chosen"] is False
    assert len(set(seeds)) == 3
    assert all(isinstance(s, int) and 0 <= s < 2**63 for s in seeds)
    assert max(seeds) >= 2**40  # 63 random bits: all three below 2^40 has odds of 2^-69


def test_the_insecure_seed_flag_keeps_a_chosen_seed_and_the_game_says_so(client: TestClient) -> None:
    created = client.post("/games", json={**UNSEEDED, "seed": 42, "insecure_seed": True})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    assert recorded_seed(client, game_id) == 42
    assert client.get(f"/games/{game_id}").json()["seed_chosen"] is True  # public: any player can check
    twin = client.post("/games", json={**UNSEEDED, "seed": 42, "insecure_seed": True}).json()
    hands = [client.get(f"/games/{g}/state?view=p1", headers=bearer(t)).json()["hands"]["p1"]
             for g, t in ((game_id, created.json()["tokens"]["p1"]), (twin["id"], twin["tokens"]["p1"]))]
    assert hands[0] == hands[1] and hands[0]["cards"]  # the same seed deals the same hand: nothing secret


def _texts(client: TestClient, game_id: str, tokens: dict[str, str]) -> dict[str, str]:
    """Everything a spectator and each seat can read about the game, by route and viewer."""
    texts: dict[str, str] = {}
    viewers: dict[str, dict[str, str]] = {"spectator": {}}
    viewers |= {seat: bearer(token) for seat, token in tokens.items() if seat != "scorekeeper"}
    for viewer, headers in viewers.items():
        view = "" if viewer == "spectator" else f"view={viewer}"
        for path in (f"/games/{game_id}", f"/games/{game_id}/events?{view}", f"/games/{game_id}/state?{view}",
                     f"/games/{game_id}/steps?{view}", f"/games/{game_id}/explanations?{view}",
                     f"/games/export?format=jsonl&{view}", f"/games/export?format=record&{view}"):
            answer = client.get(path, headers=headers)
            assert answer.status_code == 200, (path, viewer, answer.text)
            texts[f"{viewer} {path}"] = answer.text
    return texts


@pytest.mark.parametrize("system", plugin_names())
def test_no_view_reveals_the_seed_before_the_end(client: TestClient, system: str) -> None:
    created = client.post("/games", json=example(system))
    assert created.status_code == 201, created.text
    game_id, tokens = created.json()["id"], created.json()["tokens"]
    seed = recorded_seed(client, game_id)
    keeper = bearer(tokens["scorekeeper"])
    for _ in range(6):  # a few moves: draws, dice, whatever the system's chance deals
        legal = client.get(f"/games/{game_id}/legal", headers=keeper).json()
        if not legal["actions"]:
            break
        moved = client.post(f"/games/{game_id}/actions", headers=keeper,
                            json={"action": legal["actions"][0], "expected_seq": legal["seq"]})
        assert moved.status_code == 201, moved.text
    pattern = re.compile(rf"(?<![0-9]){seed}(?![0-9])")
    for where, text in _texts(client, game_id, tokens).items():
        assert not pattern.search(text), f"the seed shows in {where} while the game runs"
    concede = msgspec.to_builtins(get_system(system).concession("p1"))
    assert client.post(f"/games/{game_id}/actions", headers=keeper, json={"action": concede}).status_code == 201
    over = client.get(f"/games/{game_id}/events?view=all").text  # once over, every view is public
    assert pattern.search(over), "the finished game's all view shows its seed"


def test_the_docs_examples_do_not_teach_a_chosen_seed() -> None:
    for page in sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]:
        for number, line in enumerate(page.read_text().splitlines(), start=1):
            if re.search(r'"seed":\s*\d', line):
                assert "insecure_seed" in line, f"{page.name}:{number} shows a chosen seed: {line.strip()}"
