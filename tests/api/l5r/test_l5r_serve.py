"""From the user's side: a ``warlog serve`` process, an L5R game played over HTTP with a token per seat: a duel
fought with focus cards that no other seat and no spectator sees before the reveal, illegal actions refused with
422 and their rule while nothing is stored, and a table game whose draws are entered by the scorekeeper."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.serving import serving


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    with serving(tmp_path_factory.mktemp("l5r") / "l5r.duckdb") as client:
        yield client


def _act(http: httpx.Client, game_id: str, token: str, action: dict[str, Any]) -> httpx.Response:
    return http.post(f"/games/{game_id}/actions", json={"action": action}, headers={"Authorization": f"Bearer {token}"})


def _player(seat: str, home: list[str], hand: list[str]) -> dict[str, Any]:
    provinces = [{"card": "rice-paddy", "face_up": True}] * 4
    return {"player": seat, "honor": 10, "home": [{"card": c} for c in home], "provinces": provinces, "hand": hand,
            "dynasty": ["rice-paddy"] * 5, "fate": ["ashigaru"] * 5}


DUEL_GAME: dict[str, Any] = {
    "system": "l5r",
    "players": [{"id": "p1", "name": "Ann", "army": "lion"}, {"id": "p2", "name": "Bob", "army": "crane"}],
    "variant": {"mode": "sealed"}, "seed": 11, "insecure_seed": True,
    "position": {"turn": 3, "active": "p1",
                 "players": [_player("p1", ["matsu-tsuko"], ["heavy-infantry", "charge"]),
                             _player("p2", ["doji-hotaru"], ["feign-death", "ring-of-fire"])]},
}


def test_a_duel_over_http_with_a_token_per_seat_and_focus_cards_hidden_until_the_reveal(http: httpx.Client) -> None:
    created = http.post("/games", json=DUEL_GAME)
    assert created.status_code == 201, created.text
    game_id, tokens = created.json()["id"], created.json()["tokens"]
    tsuko, hotaru = "p1.matsu-tsuko.1", "p2.doji-hotaru.1"
    assert _act(http, game_id, tokens["p2"], {"type": "pass", "player": "p1"}).status_code == 403
    assert _act(http, game_id, tokens["p1"], {"type": "challenge", "player": "p1", "challenger": tsuko,
                                              "challenged": hotaru}).status_code == 201
    seq = http.get(f"/games/{game_id}/state").json()["seq"]
    out_of_turn = _act(http, game_id, tokens["p1"], {"type": "focus", "player": "p1", "source": "hand",
                                                     "card": "p1.heavy-infantry.1"})
    assert out_of_turn.status_code == 422
    error = out_of_turn.json()["error"]
    assert (error["code"], error["rule"]) == ("illegal_action", "§5.2")
    assert http.get(f"/games/{game_id}/state").json()["seq"] == seq  # nothing stored
    for token, action in ((tokens["p2"], {"type": "focus", "player": "p2", "source": "hand",
                                          "card": "p2.feign-death.1"}),
                          (tokens["p1"], {"type": "focus", "player": "p1", "source": "hand",
                                          "card": "p1.heavy-infantry.1"}),
                          (tokens["p2"], {"type": "focus", "player": "p2", "source": "hand",
                                          "card": "p2.ring-of-fire.1"})):
        assert _act(http, game_id, token, action).status_code == 201
    spectator = http.get(f"/games/{game_id}/state", params={"view": "spectator"}).text
    as_p1 = http.get(f"/games/{game_id}/state", params={"view": "p1"},
                     headers={"Authorization": f"Bearer {tokens['p1']}"}).text
    events_p1 = http.get(f"/games/{game_id}/events", params={"view": "p1"},
                         headers={"Authorization": f"Bearer {tokens['p1']}"}).text
    for shown in (spectator, as_p1):
        assert "p2.feign-death" not in shown and "p2.ring-of-fire" not in shown
    assert "p1.heavy-infantry" in as_p1  # p1 knows its own focus from hand
    focused = [json.loads(line) for line in events_p1.splitlines() if '"duel_focused"' in line]
    assert [(e["player"], e["card"]) for e in focused] == [
        ("p2", None), ("p1", "p1.heavy-infantry.1"), ("p2", None)]
    assert _act(http, game_id, tokens["p1"], {"type": "strike", "player": "p1"}).status_code == 201
    explained = http.get(f"/games/{game_id}/explanations").json()
    texts = [x["text"] for x in (explained if isinstance(explained, list) else explained["explanations"])]
    assert "Doji Hotaru wins the duel 7 to 5 after three focuses; Matsu Tsuko is destroyed" in texts
    assert "p2.feign-death.1" in http.get(f"/games/{game_id}/events", params={"view": "spectator"}).text  # revealed


def test_a_table_game_enters_every_card_drawn_and_refuses_a_card_not_in_the_deck(http: httpx.Client) -> None:
    created = http.post("/games", json={"system": "l5r", "variant": {"mode": "table"},
                                        "players": [{"id": "p1", "army": "crab"}, {"id": "p2", "army": "crane"}]})
    assert created.status_code == 201, created.text
    game_id, tokens = created.json()["id"], created.json()["tokens"]
    wrong = _act(http, game_id, tokens["scorekeeper"], {"type": "draw", "player": "p1", "card": "doji-hotaru"})
    assert wrong.status_code == 422 and wrong.json()["error"]["rule"] == "§2"
    legal = http.get(f"/games/{game_id}/legal", headers={"Authorization": f"Bearer {tokens['scorekeeper']}"}).json()
    draws = legal["actions"]
    assert draws and all(a["type"] == "draw" for a in draws)
    drawn = _act(http, game_id, tokens["scorekeeper"], {"type": "draw", "player": "p1", "card": "ashigaru"})
    assert drawn.status_code == 201, drawn.text
    assert "p1.ashigaru" not in http.get(f"/games/{game_id}/state", params={"view": "spectator"}).text


def test_a_setup_the_rules_refuse_is_a_422_naming_the_rule(http: httpx.Client) -> None:
    tied = http.post("/games", json={"system": "l5r", "first": "p1", "players": [{"id": "p1", "army": "crab"},
                                                                                 {"id": "p2", "army": "crane"}]})
    assert tied.status_code == 422 and "R1" in tied.text  # crane's honour is higher: first is for a tie only
    short = http.post("/games", json={"system": "l5r", "players": [
        {"id": "p1", "army": {"stronghold": "kyuden-hida", "dynasty": ["rice-paddy"], "fate": ["ashigaru"]}},
        {"id": "p2", "army": "crane"}]})
    assert short.status_code == 422 and "40" in short.text
