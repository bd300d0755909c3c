"""What each seat may see of a Lords of War game (docs/record-format.md, "Views").

Hidden: a player's hand cards (from everyone but that player), the deck order (always: it never leaves the
engine's state) and the ``seed`` of ``game_started`` (it reproduces the deck order, so it is shown to ``all``
only). Public: the board, kill piles, hand and deck sizes, every placed, recalled or destroyed card, and a hand
revealed for a forced placement (§5.1c).

The integrity ``hash`` of an event is shown to ``all`` only: it commits to the hidden payload (a drawn card,
the seed), and with at most 36 candidates for a drawn card a hash is easy to invert by trying them all.
"""

from __future__ import annotations

from typing import Any

import msgspec

from engine.lords_of_war import CODEC, State, state_to_builtins
from events.lords_of_war import CardDrawn, GameStarted, HandDealt
from replay.errors import UnknownView

def sees_hand_of(view: str, player: str) -> bool:
    return view == "all" or view == player


def state_view(state: State, view: str) -> dict[str, Any]:
    """``state_to_builtins`` minus what ``view`` may not see: other players' hand cards, the seed."""
    data = state_to_builtins(state)
    if view == "all":
        return data
    if view != "spectator" and view not in data["hands"]:
        raise UnknownView(f"unknown view {view!r}: one of all, spectator, {', '.join(data['hands'])}")
    data["hands"] = {
        player: (hand if sees_hand_of(view, player) else {"count": hand["count"]})
        for player, hand in data["hands"].items()
    }
    data.pop("seed", None)  # not in the state's JSON today; never let it through should it appear
    return data


def as_json(event: Any) -> dict[str, Any]:
    """The event as plain JSON data (lists, not tuples), exactly as the store and the API serialise it."""
    return msgspec.json.decode(CODEC.encode_json(event))


def redacted_event(event: Any, view: str) -> Any:
    """The typed event with the fields ``view`` may not see set to None. Every Lords of War event is seen by every
    view (possibly redacted), so this never returns None."""
    if view == "all":
        return event
    match event:
        case GameStarted():
            return msgspec.structs.replace(event, seed=None)
        case HandDealt(player=player) if not sees_hand_of(view, player):
            return msgspec.structs.replace(event, cards=None)
        case CardDrawn(player=player) if not sees_hand_of(view, player):
            return msgspec.structs.replace(event, card=None)
        case _:
            return event
