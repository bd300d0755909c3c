"""From the user's side (HTTP through the FastAPI app): the Art of War rulings added after the engine's first audit
(shared rules/art-of-war.md §9; issue 28, item 7).

- R5: an attack of 0 deals no damage and is no damage instance, so a later single instance equal to the defence
  still captures;
- R6: a captured KING ends the game by execution and goes to the graveyard: it never counts in a kingdom, the
  game's scores or ``game_ended.kingdoms``;
- R7: a position with more cards of a type than its player's deck holds is refused (422 ``invalid_position``,
  nothing stored); at a table, a revealed card's id does not depend on which cards of its type are still hidden:
  twin games that differ only in their hidden cards look the same, event for event, step for step and in their
  records, to the other seat and to a spectator.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.helpers import bearer
from tests.replay.art_of_war.twins import PAIRS, act, twin


def create(client: TestClient, setup: dict[str, Any]) -> tuple[str, dict[str, str]]:
    created = client.post("/games", json=setup)
    assert created.status_code == 201, created.text
    return created.json()["id"], created.json()["tokens"]


def play(client: TestClient, game_id: str, token: str, *actions: dict[str, Any]) -> list[dict[str, Any]]:
    """Each action through POST /actions (the scorekeeper's token); the events they produced."""
    produced = []
    for action in actions:
        answer = client.post(f"/games/{game_id}/actions", json={"action": action}, headers=bearer(token))
        assert answer.status_code == 201, (action, answer.text)
        produced += answer.json()["events"]
    return produced


def table_position(p1: dict[str, Any], p2: dict[str, Any]) -> dict[str, Any]:
    return {"system": "art-of-war", "variant": {"mode": "table"}, "first": "p1",
            "players": [{"id": "p1", "name": "Ann", "army": "vanguard"},
                        {"id": "p2", "name": "Bob", "army": "longbow"}],
            "position": {"active": "p1", "turn": 3, "players": [{"player": "p1", **p1}, {"player": "p2", **p2}]}}


def state(client: TestClient, game_id: str, view: str = "all", token: str | None = None) -> dict[str, Any]:
    answer = client.get(f"/games/{game_id}/state", params={"view": view}, headers=bearer(token) if token else {})
    assert answer.status_code == 200, answer.text
    return answer.json()


def seat(shown: dict[str, Any], seat_id: str) -> dict[str, Any]:
    return next(p for p in shown["players"] if p["id"] == seat_id)


# -- R5 --------------------------------------------------------------------------------------------------------------


def test_r5_an_attack_of_0_is_no_damage_instance_so_a_later_equal_hit_still_captures(client: TestClient) -> None:
    game_id, tokens = create(client, table_position(
        {"hand": [], "deck": ["priest"], "field": [{"square": "A1", "card": "iron-king"},
                                                    {"square": "B1", "card": "soldier"}]},
        {"hand": ["bow-king"], "deck": ["priest"], "field": [{"square": "B1", "card": "guardian", "upright": False},
                                                             {"square": "C1", "card": "archer"}]}))
    keeper = tokens["scorekeeper"]
    zero = play(client, game_id, keeper, act("p1", "battle"), act("p1", "attack", square="B1", target="B1"),
                act("p2", "pass"))
    declared = next(e for e in zero if e["type"] == "attack_declared")
    assert declared["value"] == 0  # a SOLDIER with an empty hand
    assert not [e for e in zero if e["type"] == "damaged"]  # no damage, no instance
    guardian = next(s["unit"] for s in seat(state(client, game_id, token=keeper), "p2")["field"] if s["square"] == "B1")
    assert (guardian["damage"], guardian["hits"]) == (0, 0)
    texts = [x["text"] for x in client.get(f"/games/{game_id}/explanations", params={"view": "spectator"}).json()[
        "explanations"]]
    assert any("deals no damage (R5)" in t for t in texts), texts

    hit = play(client, game_id, keeper, act("p1", "attack", square="A1", target="B1"), act("p2", "pass"))
    damaged = next(e for e in hit if e["type"] == "damaged")
    assert (damaged["value"], damaged["defence"], damaged["result"]) == (2, 2, "captured")  # R2, not destroyed
    assert "p2.guardian.1" in seat(state(client, game_id, "spectator"), "p1")["kingdom"]


# -- R6 --------------------------------------------------------------------------------------------------------------


def test_r6_a_captured_king_goes_to_the_graveyard_and_counts_in_no_kingdom(client: TestClient) -> None:
    game_id, tokens = create(client, table_position(
        {"hand": ["archer"], "deck": ["priest"], "field": [{"square": "B1", "card": "iron-king"}]},
        {"hand": [], "deck": ["priest"], "field": [{"square": "B1", "card": "bow-king", "upright": False}]}))
    produced = play(client, game_id, tokens["scorekeeper"], act("p1", "entry", card="p1.archer.1"),
                    act("p1", "battle"), act("p1", "attack", square="B1", target="B1"), act("p2", "pass"))
    damaged = next(e for e in produced if e["type"] == "damaged")
    assert (damaged["result"], damaged["to"]) == ("captured", "graveyard")  # §5's capture; R6: not the kingdom
    ended = produced[-1]
    assert ended["type"] == "game_ended" and (ended["winner"], ended["reason"]) == ("p1", "execution")
    assert ended["kingdoms"] == [1, 0] and ended["graveyards"] == [0, 1]  # the ARCHER only; the KING: p2's grave
    shown = state(client, game_id)
    assert seat(shown, "p1")["kingdom"] == ["p1.archer.1"]
    assert seat(shown, "p2")["graveyard"] == ["p2.bow-king.1"]
    game = client.get(f"/games/{game_id}").json()
    assert (game["winner"], game["end_reason"]) == ("p1", "execution")
    texts = [x["text"] for x in client.get(f"/games/{game_id}/explanations").json()["explanations"]]
    assert "Iron King at B1 deals 2 to Bow King (defence 3, sideways 2): captured; a KING goes to the graveyard " \
        "(R6)" in texts, texts


# -- R7 --------------------------------------------------------------------------------------------------------------


def test_r7_a_position_with_more_cards_of_a_type_than_the_deck_holds_is_refused(client: TestClient) -> None:
    before = client.get("/games").json()["games"]
    # vanguard holds 3 WIZARDs: two in hand, one in standby, one in the graveyard are four
    refused = client.post("/games", json=table_position(
        {"hand": ["wizard", "wizard"], "standby": ["wizard"], "graveyard": ["wizard"], "deck": ["priest"],
         "field": [{"square": "B1", "card": "iron-king"}]},
        {"hand": [], "deck": ["priest"], "field": [{"square": "B1", "card": "bow-king"}]}))
    assert refused.status_code == 422, refused.text
    error = refused.json()["error"]
    assert (error["reason"], error["rule"]) == ("invalid_position", "R7")
    assert "4 WIZARD" in error["message"] and "vanguard deck holds 3" in error["message"], error["message"]
    assert client.get("/games").json()["games"] == before  # nothing stored


def seen(client: TestClient, game_id: str, view: str, token: str) -> dict[str, Any]:
    """Everything ``view`` gets of a game over HTTP: its events and every step (the state after each event and its
    explanation); ``token`` may see it."""
    events = client.get(f"/games/{game_id}/events", params={"view": view}, headers=bearer(token))
    steps = client.get(f"/games/{game_id}/steps", params={"view": view}, headers=bearer(token))
    assert events.status_code == 200 and steps.status_code == 200, (events.text, steps.text)
    lines = [json.loads(line) for line in events.text.splitlines()]
    return {"events": [{k: v for k, v in e.items() if k != "recorded_at"} for e in lines],  # the clock's
            "steps": steps.json()["steps"]}


@pytest.mark.parametrize("pair", sorted(PAIRS))
def test_r7_at_a_table_a_revealed_cards_id_tells_nothing_of_the_same_type_cards_still_hidden(
    client: TestClient, pair: str,
) -> None:
    games, keepers = {}, {}
    for which in ("a", "b"):  # tests/replay/art_of_war/twins.py
        setup, actions = twin(pair, which)
        game_id, tokens = create(client, setup)
        play(client, game_id, tokens["scorekeeper"], *actions)
        games[which], keepers[game_id] = game_id, tokens["scorekeeper"]
    a, b = games["a"], games["b"]
    hands = [seat(state(client, g, token=keepers[g]), "p1")["hand"] for g in (a, b)]
    assert sorted(c.split(".")[1] for c in hands[0]) != sorted(c.split(".")[1] for c in hands[1])  # the twins differ
    for view in ("spectator", "p2"):  # ... where neither p2 nor a spectator may look ...
        assert seen(client, a, view, keepers[a]) == seen(client, b, view, keepers[b]), view
    # ... nor in their records, as the public gets them (a running game's: a spectator's), one after the other
    text = client.get("/games/export", params={"format": "record", "system": "art-of-war"}).text
    first, second = text.strip().split("\n\n[Event ")
    assert first == "[Event " + second, text
    if pair == "opening":  # the first WIZARD revealed is p1.wizard.1, whatever p1 holds
        assert seat(state(client, a, "spectator"), "p1")["kingdom"] == ["p1.wizard.1", "p1.wizard.2"]
        assert "deploy:soldier@B1,soldier,kingdom=wizard" in first  # hand cards named by type at a table
