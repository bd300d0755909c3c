"""What each view may see of an L5R game.

Hidden (``secrets``): the ``seed`` of ``game_started`` (every deck's order follows from it: ``all`` only) and its
``position`` (every hand, deck and face-down card of a game started from one: ``all`` only); a card
drawn into a hand (its owner's); a card placed face down into a province (nobody looks at it, §2: ``all`` only,
until ``cards_revealed``); a focus card (from hand: its owner's; from the top of the fate deck: ``all`` only, until
``duel_resolved`` reveals them all, §5.3). The state view of every seat but ``all`` shows the decks as counts,
another seat's hand as a count, face-down province cards and unrevealed focus cards as None. In table mode a card
laid face down unseen has no name anywhere, ``all`` included, until it is entered as it turns face up; the decks'
lists in ``all`` are then the cards not yet seen (``dynasty_count``/``fate_count`` count the decks alone).
"""

from __future__ import annotations

from typing import Any

from engine.l5r.state import State, dynasty_left, fate_left, state_to_builtins
from events.l5r import CardDrawn, DuelFocused, GameStarted, ProvinceFilled
from replay.plugin import ALL, SystemViews, sees


def secrets(event: Any) -> dict[str, tuple[str, ...]]:
    match event:
        case GameStarted():
            return {ALL: ("seed", "position")}  # a position holds every hand, deck and face-down card
        case CardDrawn(player=player):
            return {player: ("card",)}
        case ProvinceFilled():
            return {ALL: ("card",)}
        case DuelFocused(player=player, source="hand"):
            return {player: ("card",)}
        case DuelFocused():
            return {ALL: ("card",)}
        case _:
            return {}


def state_json(state: State) -> dict[str, Any]:
    """``state_to_builtins`` with what every view is shown: whether a province holds a card, the hand's and the
    decks' sizes."""
    data = state_to_builtins(state)
    for p in data["players"]:
        for pr in p["provinces"]:
            pr["filled"] = pr["card"] is not None or pr["unseen"]
        p["hand_count"] = len(p["hand"])
        p["dynasty_count"] = dynasty_left(state, p["id"])  # the decks, less the cards laid unseen from them
        p["fate_count"] = fate_left(state, p["id"])
    return data


def hide(data: dict[str, Any], state: State, view: str) -> dict[str, Any]:
    data["seed"] = None
    for p in data["players"]:
        p["dynasty"] = None
        p["fate"] = None
        if not sees(view, p["id"]):
            p["hand"] = None
        p["provinces"] = [pr if pr["face_up"] else {**pr, "card": None} for pr in p["provinces"]]
    duel = data.get("duel")
    if duel is not None:
        duel["focuses"] = [f if f["source"] == "hand" and sees(view, f["player"]) else {**f, "card": None}
                           for f in duel["focuses"]]
    return data


VIEWS = SystemViews(secrets=secrets, state_json=state_json, hide=hide)  # every event is seen by every view, redacted
redacted_event = VIEWS.redacted_event
state_view = VIEWS.state_view

__all__ = ["VIEWS", "redacted_event", "secrets", "state_view"]
