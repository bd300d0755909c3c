"""Issue 30 items 4 and 7 for L5R and Art of War: a game on an uploaded second catalogue, played by the system's
bots to the end over HTTP, exported, imported into an empty database and verified there."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from fastapi.testclient import TestClient

from api.cli import main
from engine.catalogue import catalogue_id
from engine.play import stalled_draw
from engine.systems import get_system
from tests.api.helpers import bearer

FIXTURES = Path(__file__).parents[1] / "fixtures"
SECOND = {"l5r": (FIXTURES / "l5r" / "catalogues" / "phoenix-scorpion.json", ("phoenix", "scorpion")),
          "art-of-war": (FIXTURES / "art_of_war" / "catalogues" / "northern-realms.json", ("glacier", "shadow"))}


def bots_play(client: TestClient, system_name: str, game_id: str, tokens: dict[str, str]) -> int:
    """The system's greedy bots play the game to its end, each seat's action posted with its seat's token, and a game
    the bots stall (both decks spent, both seats passing: a few percent of L5R games on a random seed) is ended as a
    draw by the scorekeeper, as ``engine.play`` ends it; the number of actions."""
    system = get_system(system_name)
    bots: dict[str, Any] = {}
    actions = 0
    while True:
        seq, state = client.app.state.service.state(game_id)  # type: ignore[attr-defined]
        if system.outcome(state) is not None:
            return actions
        if (stalled := stalled_draw(system, state)) is not None:
            posted = client.post(f"/games/{game_id}/actions", json={"action": msgspec.to_builtins(stalled),
                                 "expected_seq": seq}, headers=bearer(tokens["scorekeeper"]))
            assert posted.status_code == 201, posted.text
            actions += 1
            continue
        seat = system.to_act(state)[0]
        bot = bots.setdefault(seat, system.bots["greedy"](7 + len(bots)))
        action = msgspec.to_builtins(bot.choose(state, seat))
        posted = client.post(f"/games/{game_id}/actions", json={"action": action, "expected_seq": seq},
                             headers=bearer(tokens[seat]))
        assert posted.status_code == 201, posted.text
        actions += 1
        assert actions < 3000, "the bots did not finish the game"


@pytest.mark.parametrize("system", ["l5r", "art-of-war"])
def test_game_on_an_uploaded_catalogue_is_played_over_http_exported_imported_into_an_empty_database_and_verified(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str], system: str
) -> None:
    path, (first, second) = SECOND[system]
    document = json.loads(path.read_text(encoding="utf-8"))
    uploaded = client.post("/catalogues", json=document)
    assert uploaded.status_code == 201, uploaded.text
    identity = uploaded.json()["id"]
    created = client.post("/games", json={"system": system, "catalogue": identity,
                                          "players": [{"id": "p1", "name": "Ann", "army": first},
                                                      {"id": "p2", "name": "Ben", "army": second}]})
    assert created.status_code == 201, created.text
    game_id, tokens = created.json()["id"], created.json()["tokens"]
    assert bots_play(client, system, game_id, tokens) > 10
    game = client.get(f"/games/{game_id}").json()
    assert game["status"] == "over" and game["catalogue"] == identity
    state = client.get(f"/games/{game_id}/state").json()
    assert state["catalogue"] == identity and document["name"] not in json.dumps(state)
    started = json.loads(client.get(f"/games/{game_id}/events").text.splitlines()[0])
    assert started["catalogue"] == document and started["catalogue_id"] == catalogue_id(document)

    for fmt in ("jsonl", "record"):  # each carries the catalogue: game_started whole, the Catalogue tags
        exported = client.get(f"/games/{game_id}/export", params={"format": fmt})
        assert exported.status_code == 200
        file = tmp_path / f"game.{'jsonl' if fmt == 'jsonl' else 'txt'}"
        file.write_text(exported.text, encoding="utf-8")
        empty = str(tmp_path / f"empty-{fmt}.duckdb")
        assert main(["import", str(file), "--db", empty]) == 0
        assert main(["verify", "--db", empty]) == 0  # replayed and re-decided from the game's own catalogue
        capsys.readouterr()
        assert main(["catalogue", "export", identity, "--db", empty]) == 0  # the embedded catalogue is stored too
        assert json.loads(capsys.readouterr().out) == document


@pytest.mark.parametrize("system", ["l5r", "art-of-war"])
def test_game_naming_a_deck_its_catalogue_does_not_hold_is_refused_naming_the_catalogues_decks(
    client: TestClient, system: str
) -> None:
    path, (first, _) = SECOND[system]
    identity = client.post("/catalogues", json=json.loads(path.read_text(encoding="utf-8"))).json()["id"]
    default_deck = "crab" if system == "l5r" else "vanguard"  # the default catalogue's, not this one's
    refused = client.post("/games", json={"system": system, "catalogue": identity,
                                          "players": [{"id": "p1", "army": first}, {"id": "p2", "army": default_deck}]})
    assert refused.status_code == 422, refused.text
    error = refused.json()["error"]
    assert (error["code"], error["reason"], error["rule"]) == ("invalid_setup", "invalid_deck", "§1")
    assert f"no deck '{default_deck}' in the catalogue: one of " in error["message"]
    assert client.get("/games").json()["games"] == []
