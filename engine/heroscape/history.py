"""A recorded stream read back into its setup and the actions that produced it (``warlog verify``, record and
JSONL import); ``redecide`` is the framework's (``engine.play.redecide_by_evolve``): HeroScape adds nothing to it.

Each action starts with one event: ``army_placed`` (place), ``markers_placed`` (markers), ``dice_rolled`` entered at
the table (roll) or for a Berserker Charge (charge), ``move_declared`` (move), ``attack_declared`` (attack),
``effect_applied`` (effect), ``turn_ended`` (end_turn), ``conceded``; every other event is a consequence.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from msgspec import UnsetType

from engine.errors import StreamError
from engine.heroscape.actions import (
    Attack,
    Charge,
    Concede,
    Effect,
    EndTurn,
    HeroScapeAction,
    Markers,
    Move,
    Place,
    Roll,
)
from engine.heroscape.catalogue import tables_of
from engine.heroscape.setup import SYSTEM_NAME
from engine.play import actions_from
from engine.system import RecordedAction
from events.heroscape import (
    ArmyPlaced,
    AttackDeclared,
    Conceded,
    DiceRolled,
    EffectApplied,
    GameStarted,
    HeroScapeEvent,
    MarkersPlaced,
    MoveDeclared,
    TurnEnded,
)


def recorded_setup(events: Sequence[HeroScapeEvent]) -> dict[str, Any]:
    """The setup that starts the recorded game again (its army by name when a sample army has that name)."""
    if not events or not isinstance(events[0], GameStarted):
        raise StreamError(0, "a HeroScape stream starts with game_started")
    started = events[0]
    document = None if isinstance(started.catalogue, UnsetType) else started.catalogue
    armies = tables_of(document).armies
    players = []
    for seat, army in zip(started.seats, started.armies, strict=True):
        shown: Any = army.name if army.name in armies else {"cards": [c.key for c in army.cards]}
        players.append({"id": seat.id, "name": seat.name, "army": shown})
    v = started.variant
    setup: dict[str, Any] = {"system": SYSTEM_NAME, "players": players,
                             "variant": {"mode": v.mode, "game": v.game, "map": v.map, "max_rounds": v.max_rounds},
                             "seed": started.seed}
    if document is not None:
        setup["catalogue"] = document
    if started.position is not None:
        p = started.position
        setup["position"] = {
            "figures": [{"owner": f.owner, "figure": f.figure, "hex": list(f.hex),
                         **({"tail": list(f.tail)} if f.tail else {}), "wounds": f.wounds} for f in p.figures],
            "round": p.round, "used_glyphs": list(p.used),
            "specials_used": {k: list(v) for k, v in p.specials_used.items()},
        }
    return setup


def action_of(event: HeroScapeEvent, index: int) -> HeroScapeAction | None:
    """The action an event starts, or None for a consequence. StreamError for an event no action may carry."""
    match event:
        case ArmyPlaced(player=player, placements=placements):
            return Place(player=player, placements=placements)
        case MarkersPlaced(player=player, markers=markers):
            if markers is None:
                raise StreamError(index, f"event {index + 1}: {player}'s order markers are hidden in this copy")
            return Markers(player=player, markers=dict(markers))
        case DiceRolled(purpose="berserker", player=player, values=values, source=source):
            return Charge(player=player, value=values[0] if source == "table" else None)
        case DiceRolled(source="table", player=player, values=values):
            return Roll(player=player, values=values)
        case MoveDeclared(player=player, figure=figure, to=to, tail=tail):
            return Move(player=player, figure=figure, to=to, tail=tail)
        case AttackDeclared(player=player, figure=figure, targets=targets, special=special, referee=referee):
            return Attack(player=player, figure=figure, target=targets[0].figure, special=special, referee=referee)
        case EffectApplied():
            e = event
            return Effect(player=e.player, card=e.card, change=e.change, figure=e.figure, owner=e.owner,
                          amount=e.amount, to=e.to, tail=e.tail, text=e.text)
        case TurnEnded(player=player):
            return EndTurn(player=player)
        case Conceded(player=player):
            return Concede(player=player)
        case GameStarted():
            raise StreamError(index, f"event {index + 1}: a second game_started")
        case _:
            return None


def recorded_actions(events: Sequence[HeroScapeEvent]) -> list[RecordedAction[HeroScapeAction]]:
    if not events or not isinstance(events[0], GameStarted):
        raise StreamError(0, "a HeroScape stream starts with game_started")
    return actions_from(events, 1, action_of)


__all__ = ["action_of", "recorded_actions", "recorded_setup"]
