"""Issue 30 items 4 and 7 for Light Wars and HeroScape: a game on the uploaded second sample catalogue (Marsh
Frontier; Cliffside Bay) played over HTTP by the bots to the end, exported (as JSONL, and as the text record with its
``Catalogue`` and ``CatalogueJSON`` tags), imported into an empty database and verified there, its catalogue stored
beside it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from fastapi.testclient import TestClient

from api.cli import main
from engine.catalogue import catalogue_id
from engine.systems import get_system
from tests.api.helpers import bearer
from tests.engine.catalogue_given import sample_catalogue

GAMES: dict[str, tuple[str, str, dict[str, Any]]] = {
    "light-wars": ("light_wars", "marsh-frontier", {
        "players": [{"id": "p1", "name": "Ann", "army": "vanguard"},
                    {"id": "p2", "name": "Bob", "army": {"units": ["king", "pikeman", "pikeman", "militia"],
                                                         "tactics": ["ambush"]}}],
        "variant": {"size": "small", "map": "pass"}}),
    "heroscape": ("heroscape", "cliffside-bay", {
        "players": [{"id": "p1", "name": "Ann", "army": "tideguard"},
                    {"id": "p2", "name": "Bob", "army": {"cards": ["skyhawk", "cliff-runner", "mire-stalkers"]}}],
        "variant": {"game": "master"}}),
}


def play_by_bots(client: TestClient, name: str, game_id: str, tokens: dict[str, str]) -> None:
    """The system's greedy bots choose for each awaited seat; every action goes through POST /actions."""
    system = get_system(name)
    service = client.app.state.service  # type: ignore[attr-defined]
    bots: dict[str, Any] = {}
    for _ in range(3000):
        seq, state = service.state(game_id)
        if system.outcome(state) is not None:
            return
        seat = system.to_act(state)[0]
        bot = bots.setdefault(seat, system.bots["greedy"](17 + len(bots)))
        action = msgspec.to_builtins(bot.choose(state, seat))
        answer = client.post(f"/games/{game_id}/actions", json={"action": action, "expected_seq": seq},
                             headers=bearer(tokens[seat]))
        assert answer.status_code == 201, answer.text
    raise AssertionError("the bots did not end the game in 3000 actions")


@pytest.mark.parametrize("name", list(GAMES))
def test_game_on_an_uploaded_catalogue_is_played_exported_imported_and_verified(
        name: str, client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder, sample, setup = GAMES[name]
    document = sample_catalogue(folder, sample)
    uploaded = client.post("/catalogues", json=document)
    assert uploaded.status_code == 201, uploaded.text
    identity = uploaded.json()["id"]
    assert identity == catalogue_id(document)

    created = client.post("/games", json={"system": name, **setup, "catalogue": identity, "seed": 5,
                                          "insecure_seed": True})
    assert created.status_code == 201, created.text
    game_id, tokens = created.json()["id"], created.json()["tokens"]
    play_by_bots(client, name, game_id, tokens)
    game = client.get(f"/games/{game_id}").json()
    assert game["status"] == "over" and game["catalogue"] == identity
    state = client.get(f"/games/{game_id}/state").json()
    assert state["catalogue"] == identity and document["about"] not in json.dumps(state)

    exported = client.get(f"/games/{game_id}/export", params={"format": "jsonl"})
    assert exported.status_code == 200
    started = json.loads(exported.text.splitlines()[0])
    assert started["type"] == "game_started" and started["catalogue"] == document
    assert started["catalogue_id"] == identity
    text = client.get(f"/games/{game_id}/export", params={"format": "record"})
    assert text.status_code == 200
    assert f'[Catalogue "{identity}"]' in text.text.splitlines() and '[CatalogueJSON "' in text.text

    for fmt, body in (("jsonl", exported.text), ("txt", text.text)):
        record = tmp_path / f"game.{fmt}"
        record.write_text(body, encoding="utf-8")
        empty = str(tmp_path / f"empty-{fmt}.duckdb")  # another database: it holds no catalogue and no game
        assert main(["import", str(record), "--db", empty]) == 0, (fmt, capsys.readouterr())
        assert main(["verify", "--db", empty]) == 0, (fmt, capsys.readouterr())
        capsys.readouterr()
        assert main(["catalogue", "export", identity, "--db", empty]) == 0  # stored from the game's own record
        assert json.loads(capsys.readouterr().out) == document, fmt
        assert main(["export", "--all", "--db", empty]) == 0  # the imported game writes the record it was read from
        assert capsys.readouterr().out.strip() == text.text.strip(), fmt


def test_game_on_an_uploaded_catalogue_names_that_catalogues_armies_only(client: TestClient) -> None:
    document = sample_catalogue("heroscape", "cliffside-bay")
    identity = client.post("/catalogues", json=document).json()["id"]
    refused = client.post("/games", json={"system": "heroscape", "catalogue": identity,
                                          "players": [{"id": "p1", "army": "utgar"}, {"id": "p2", "army": "wildmoor"}]})
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert error["code"] == "invalid_setup" and "tideguard, emberhost, wildmoor" in error["message"], error
    lw = sample_catalogue("light_wars", "marsh-frontier")
    lw_id = client.post("/catalogues", json=lw).json()["id"]
    refused = client.post("/games", json={"system": "light-wars", "catalogue": lw_id, "variant": {"map": "sample"},
                                          "players": [{"id": "p1", "army": "levy"}, {"id": "p2", "army": "levy"}]})
    assert refused.status_code == 422 and "frontier, pass" in refused.json()["error"]["message"]
