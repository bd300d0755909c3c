"""Item 17 of the L5R audit: in table mode nothing a seat can see may depend on face-down cards it may not see.

Twin games, identical but for which card lies face down in p1's province 1 (and so which is left in its dynasty
deck), are played with the same actions over HTTP. Everything p1 and a spectator get — their views of the state,
p1's legal actions, the answer to each action, refusals with their messages — must be the same in both; only the
scorekeeper's ``all`` view may differ."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

Json = dict[str, Any]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def table_position(face_down: str, deck: list[str]) -> Json:
    def seat(player: str, **spec: Any) -> Json:
        return {"player": player, "honor": 10, "home": [], "hand": [], "fate": ["ashigaru", "ashigaru", "charge"],
                "provinces": [{"card": "rice-paddy", "face_up": True}] * 4, "dynasty": ["market-town"] * 3, **spec}
    p1 = seat("p1", provinces=[{"card": face_down, "face_up": False}, {"card": "rice-paddy", "face_up": True},
                               {"card": "market-town", "face_up": True}, {"card": "copper-mine", "face_up": True}],
              dynasty=deck)
    return {"system": "l5r", "variant": {"mode": "table"},
            "players": [{"id": "p1", "name": "Ann", "army": "crab"}, {"id": "p2", "name": "Bob", "army": "crane"}],
            "position": {"turn": 1, "active": "p1", "players": [p1, seat("p2")]}}


# the same dynasty cards either way: Hida Kisada (Unique, one copy) face down, or a Small Farm face down
TWINS = (table_position("hida-kisada", ["rice-paddy", "small-farm", "small-farm"]),
         table_position("small-farm", ["hida-kisada", "rice-paddy", "small-farm"]))


class Twin:
    def __init__(self, client: TestClient, setup: Json) -> None:
        created = client.post("/games", json=setup)
        assert created.status_code == 201, created.text
        self.client, self.id, self.tokens = client, created.json()["id"], created.json()["tokens"]

    def seen(self, view: str) -> Json:
        token = self.tokens["scorekeeper"] if view == "all" else self.tokens.get(view)
        shown = self.client.get(f"/games/{self.id}/state", params={"view": view},
                                headers=bearer(token) if token else {})
        assert shown.status_code == 200, shown.text
        return dict(shown.json())

    def legal(self, seat: str) -> tuple[int, Any]:
        answer = self.client.get(f"/games/{self.id}/legal", headers=bearer(self.tokens[seat]))
        return answer.status_code, answer.json()

    def act(self, seat: str, action: Json) -> tuple[int, Any]:
        answer = self.client.post(f"/games/{self.id}/actions", json={"action": action},
                                  headers=bearer(self.tokens[seat]))
        body = answer.json()
        return answer.status_code, body.get("error") if answer.status_code != 201 else seen_events(body["events"])


def seen_events(events: list[Json]) -> list[Json]:
    """The events an action answers with, but when they were recorded."""
    return [{k: v for k, v in e.items() if k != "recorded_at"} for e in events]


def same_for_p1(a: Twin, b: Twin) -> None:
    for view in ("p1", "spectator"):
        assert a.seen(view) == b.seen(view), f"view {view} differs between the twins"
    assert a.legal("p1") == b.legal("p1"), "p1's legal actions differ between the twins"


def both(a: Twin, b: Twin, seat: str, action: Json) -> tuple[int, Any]:
    """The same action in both twins, by ``seat`` with its own token: the same answer in both."""
    answers = (a.act(seat, action), b.act(seat, action))
    assert answers[0] == answers[1], f"{action} answered differently: {answers}"
    return answers[0]


def awaited(twin: Twin) -> str:
    return str(twin.seen("spectator")["to_act"][0])


@pytest.mark.parametrize("probe", ["hida-kisada", "small-farm", "rice-paddy", "doji-hotaru"])
def test_item17_p1_sees_nothing_that_depends_on_its_face_down_province_card(client: TestClient, probe: str) -> None:
    a, b = Twin(client, TWINS[0]), Twin(client, TWINS[1])
    assert a.seen("all") != b.seen("all")  # the scorekeeper's view shows the twins apart
    same_for_p1(a, b)
    for seat in ("p1", "p2", "p1"):  # the action phase, no attack: p1's dynasty phase
        both(a, b, seat, {"type": "pass", "player": seat})
    both(a, b, "p1", {"type": "produce", "player": "p1", "card": "p1.kyuden-hida.1"})
    both(a, b, "p1", {"type": "recruit", "player": "p1", "province": 2})  # the province is refilled face down
    same_for_p1(a, b)
    both(a, b, "p1", {"type": "draw", "player": "p1", "card": probe})  # whatever p1 names, the same answer
    same_for_p1(a, b)
    for _ in range(40):  # play on to p1's next turn, where its face-down cards turn face up
        seat = awaited(a)
        status, legal = a.legal(seat)
        assert status == 200
        if seat == "p1":
            same_for_p1(a, b)
        action = next((x for x in legal["actions"] if x["type"] == "draw"), None) or \
            next(x for x in legal["actions"] if x["type"] in ("pass", "discard"))
        both(a, b, seat, action)
        if a.seen("spectator")["turn"] == 3 and all(pr["face_up"] for pr in a.seen("p1")["players"][0]["provinces"]):
            break
    same_for_p1(a, b)
    assert a.seen("spectator")["turn"] == 3


def test_item17_every_entry_p1_could_make_is_answered_alike_in_both_twins() -> None:
    """The engine beneath: at each step of the twins, p1's legal actions, and the answer to a draw naming any card
    of the catalog (refused with the same message, or accepted with the same events as p1 sees them), are equal."""
    from engine.errors import RuleError
    from engine.l5r import SYSTEM
    from engine.l5r.catalogue import CARDS
    from replay.l5r.views import redacted_event, state_view

    def answer(state: Any, action: Json) -> Any:
        try:
            return [SYSTEM.codec.encode_json(redacted_event(e, "p1")) for e in
                    SYSTEM.decide(state, SYSTEM.parse_action(action))]
        except RuleError as error:
            return (error.code, error.rule, error.message)

    states = [SYSTEM.fold(SYSTEM.start(setup)) for setup in TWINS]
    checked = 0
    for _ in range(60):
        a, b = states
        assert state_view(a, "p1") == state_view(b, "p1")
        assert SYSTEM.legal_actions(a, "p1") == SYSTEM.legal_actions(b, "p1")
        if a.phase == "over" or a.turn > 4:
            break
        if a.pending and a.pending[0].player == "p1":
            for card in sorted(CARDS):
                assert answer(a, {"type": "draw", "player": "p1", "card": card}) == \
                    answer(b, {"type": "draw", "player": "p1", "card": card}), card
            checked += 1
        seat = SYSTEM.to_act(a)[0]
        action = SYSTEM.legal_actions(a, seat)[0]  # the same choice in both (a draw: the first card id, sorted)
        states = [SYSTEM.fold(SYSTEM.decide(s, action), s) for s in states]
    assert checked >= 3  # p1's draws, and its unseen province cards turning face up, were all probed
