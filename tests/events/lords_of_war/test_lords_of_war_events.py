"""The Lords of War event union: every event survives JSON and msgpack, tags are the published ones."""

from __future__ import annotations

from events.lords_of_war import (
    CODEC,
    Attacker,
    BerserkerMoved,
    CardDrawn,
    Conceded,
    DestroyedUnit,
    Eliminated,
    ExtraTurnGranted,
    GameEnded,
    HandDealt,
    HandRevealed,
    Placed,
    Recalled,
    ReinforceSkipped,
    Shot,
)

SAMPLES = [
    HandDealt(player="p1", cards=("orcs/gonke-longtooth",), count=6),
    HandDealt(player="p2", cards=None, count=6),
    Placed(player="p1", card="orcs/orc-ravager-2", square="C3", turn=0, challenge=True, basis="challenge"),
    HandRevealed(player="p2", cards=("dwarves/dwarf-slugger-1",)),
    Shot(player="p1", shooter_square="C2", shooter_card="orcs/orc-catapult", target_square="D5",
         target_card="dwarves/dwarf-slugger-1", value=4),
    Eliminated(round=1, units=(DestroyedUnit(square="D5", card="dwarves/dwarf-slugger-1", owner="p2", damage=4,
                                             defence=3, attackers=(Attacker(square="C2", card="orcs/orc-catapult",
                                                                            owner="p1", kind="shot", direction=None,
                                                                            value=4),)),),
               kills_to={"p1": 1}),
    BerserkerMoved(player="p1", card="orcs/orc-deathbringer-1", origin="D4", target="D5"),
    ExtraTurnGranted(player="p1"),
    CardDrawn(player="p1", card=None),
    Recalled(player="p2", square="E4", card="dwarves/dwarf-slugger-1"),
    ReinforceSkipped(player="p2", reason="deck_empty_nothing_to_recall"),
    Conceded(player="p2"),
    GameEnded(winner="p1", reason="concession"),
]

TAGS = {
    "game_started", "hand_dealt", "placed", "hand_revealed", "shot", "eliminated", "berserker_moved",
    "extra_turn_granted", "card_drawn", "recalled", "reinforce_skipped", "conceded", "game_ended",
}


def test_lords_of_war_events_tags_are_the_published_ones():
    assert set(CODEC.types) == TAGS


def test_lords_of_war_events_round_trip_json_and_msgpack():
    for event in SAMPLES:
        assert CODEC.decode_json(CODEC.encode_json(event)) == event
        assert CODEC.decode_msgpack(CODEC.encode_msgpack(event)) == event
        assert CODEC.from_builtins(CODEC.to_builtins(event)) == event
