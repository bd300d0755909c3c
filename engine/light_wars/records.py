"""A recorded stream back to the actions that produced it (``warlog verify``, record and JSONL import).

Each action starts with one event: ``die_rolled`` entered at the table (``roll``), ``unit_deployed``,
``deployment_screened``, ``first_player_chosen``, ``tactics_declared``, ``unit_moved``, ``unit_turned``,
``unit_waited``, ``attack_declared``, ``conceded``; every other event is a consequence that follows the action's
first event.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import StreamError
from engine.light_wars.actions import (
    Attack,
    ChooseFirst,
    Concede,
    Deploy,
    DeployAll,
    LightWarsAction,
    Move,
    Roll,
    Tactics,
    Turn,
    Wait,
)
from engine.play import actions_from
from engine.system import RecordedAction
from events.light_wars import (
    AttackDeclared,
    Conceded,
    DeploymentScreened,
    DieRolled,
    FirstPlayerChosen,
    GameStarted,
    LightWarsEvent,
    TacticsDeclared,
    UnitDeployed,
    UnitMoved,
    UnitTurned,
    UnitWaited,
)

CONSEQUENCES = frozenset({"die_rolled", "roll_off_tied", "roll_off_won", "screen_lifted", "decider_named",
                          "attack_resolved", "turn_passed", "game_ended"})


def action_of(event: LightWarsEvent, index: int) -> LightWarsAction | None:
    """The action an event starts, or None for a consequence. StreamError for an event no action may carry."""
    match event:
        case DieRolled(source="table", player=player, value=value):
            return Roll(player=player, value=value)
        case UnitDeployed(player=player, unit=unit, square=square, facing=facing):
            return Deploy(player=player, unit=unit, square=square, facing=facing)
        case DeploymentScreened(player=player, placements=placements):
            if placements is None:
                raise StreamError(index, f"event {index + 1}: {player}'s screened deployment is hidden in this copy")
            return DeployAll(player=player, placements=placements)
        case FirstPlayerChosen(player=player, first=first):
            return ChooseFirst(player=player, first=first)
        case TacticsDeclared(player=player, tiles=tiles):
            return Tactics(player=player, tiles=tiles)
        case UnitMoved(player=player, origin=origin, square=square, facing=facing):
            return Move(player=player, square=origin, to=square, facing=facing)
        case UnitTurned(player=player, square=square, facing=facing):
            return Turn(player=player, square=square, facing=facing)
        case UnitWaited(player=player, square=square, facing=facing):
            return Wait(player=player, square=square, facing=facing)
        case AttackDeclared(player=player, target=target, participants=participants):
            return Attack(player=player, target=target, attackers=tuple(p.square for p in participants))
        case Conceded(player=player):
            return Concede(player=player)
        case GameStarted():
            raise StreamError(index, f"event {index + 1}: a second game_started")
        case _:
            return None


def opening_length(events: Sequence[LightWarsEvent]) -> int:
    """The events ``start`` gives: game_started and, sealed and alternate, the deployment roll-off."""
    if not events or not isinstance(events[0], GameStarted):
        raise StreamError(0, "a Light Wars stream starts with game_started")
    i = 1
    while i < len(events) and type(events[i]).tag_name() in CONSEQUENCES and action_of(events[i], i) is None:
        tag = type(events[i]).tag_name()
        i += 1
        if tag == "roll_off_won":
            break
    return i


def recorded_actions(events: Sequence[LightWarsEvent]) -> list[RecordedAction[LightWarsAction]]:
    return actions_from(events, opening_length(events), action_of)


__all__ = ["action_of", "opening_length", "recorded_actions"]
