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
from replay.plugin import ALL, SystemViews, sees


def hide(data: dict[str, Any], state: State, view: str) -> dict[str, Any]:
    """What a view other than ``all`` may not see of the state: other players' hand cards, the seed."""
    data["hands"] = {
        player: (hand if sees(view, player) else {"count": hand["count"]}) for player, hand in data["hands"].items()
    }
    data.pop("seed", None)  # not in the state's JSON today; never let it through should it appear
    return data


def as_json(event: Any) -> dict[str, Any]:
    """The event as plain JSON data (lists, not tuples), exactly as the store and the API serialise it."""
    return msgspec.json.decode(CODEC.encode_json(event))


def secrets(event: Any) -> dict[str, tuple[str, ...]]:
    """What each event holds that not every view may see (``replay.plugin.Views.secrets``): the seed deals every
    card (``all`` only); a hand dealt and a card drawn are their player's."""
    match event:
        case GameStarted():
            return {ALL: ("seed",)}
        case HandDealt(player=player):
            return {player: ("cards",)}
        case CardDrawn(player=player):
            return {player: ("card",)}
        case _:
            return {}


# Every Lords of War event is seen by every view (possibly redacted). Before game_started (seq 0) the state has no
# players yet: any seat's view of it is the empty state.
VIEWS = SystemViews(secrets=secrets, state_json=state_to_builtins, hide=hide,
                    seats=lambda data: [player["id"] for player in data["players"]])
redacted_event = VIEWS.redacted_event
state_view = VIEWS.state_view
