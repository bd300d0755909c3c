"""Hand-made Lords of War games for the projection and statistics tests; every expected number in the tests is
worked out by hand from these event lists (the comments say how).

The events need not be legal play: projections trust the log as evolve does. Players: ann, bob, cy.

A  2026-01-05 tournament spring  ann (p1, orcs) beats bob (p2, dwarves) by concession, turns 3
    1 orc-ravager-1 C3 (challenge) ......... recalled on turn 3
    2 dwarf-marauder-1 E4 (challenge) ...... destroyed turn 1 by a shot of 3
    3 orc-catapult D3 (turn 1) ............. shoots E4 (kills it), destroyed turn 2 by 4's arrow
    4 dwarf-slugger-1 D4 (turn 2) .......... kills 3, stays
    5 goblin-shanker-1 C4 (turn 3) ......... stays
B  2026-01-20 (no tournament)          bob (p1, dwarves) beats ann (p2, orcs) by kills, turns 2
    1 dwarf-slugger-1 C3 (challenge) ....... stays
    2 orc-ravager-1 E4 (challenge) ......... destroyed turn 1 by 3's arrow
    3 dwarf-marauder-1 D4 (turn 1) ......... kills 2
    4 orc-catapult F5 (turn 2) ............. shoots D4 (survives)
C  2026-02-03 tournament spring  ann (p1, orcs) loses to cy (p2, orcs) by commanders, turns 1
    1 orc-ravager-1 C3 (challenge), 2 orc-ravager-1 E4 (challenge) kills 3 (a commander), 3 eruugor-bloodfist D4
D  2026-02-10 (no tournament)          cy (p1, elves) draws with bob (p2, dwarves), reason kills, turns 0
    1 elves/elven-dragoon-1 C3 (challenge), 2 dwarf-slugger-1 E4 (challenge)
E  2026-02-11 running game (orcs vs dwarves): counted nowhere
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from engine.lords_of_war import SYSTEM
from events.lords_of_war import (
    ArmyRecord,
    Attacker,
    CardDrawn,
    Conceded,
    DestroyedUnit,
    Eliminated,
    GameEnded,
    GameStarted,
    HandDealt,
    Placed,
    Recalled,
    Shot,
    Variant,
)
from replay.log.chain import encode_chain


def started(p1: tuple[str, str], p2: tuple[str, str], **variant: Any) -> GameStarted:
    return GameStarted(
        system="lords-of-war",
        rules_version="lords-of-war/1",
        players=(
            ArmyRecord(id="p1", name=p1[0], army_name=p1[1], cards=()),
            ArmyRecord(id="p2", name=p2[0], army_name=p2[1], cards=()),
        ),
        variant=Variant(**variant),
        seed=1,
    )


def place(player: str, card: str, square: str, turn: int) -> Placed:
    challenge = turn == 0
    return Placed(player=player, card=card, square=square, turn=turn, challenge=challenge,
                  basis="challenge" if challenge else "contact")


def arrow(square: str, card: str, owner: str, value: int, direction: str = "N") -> Attacker:
    return Attacker(square=square, card=card, owner=owner, kind="arrow", direction=direction, value=value)


def shot_by(square: str, card: str, owner: str, value: int) -> Attacker:
    return Attacker(square=square, card=card, owner=owner, kind="shot", direction=None, value=value)


def destroyed(square: str, card: str, owner: str, *attackers: Attacker, defence: int = 3) -> Eliminated:
    unit = DestroyedUnit(square=square, card=card, owner=owner, damage=sum(a.value for a in attackers),
                         defence=defence, attackers=attackers)
    return Eliminated(round=1, units=(unit,), kills_to={"p2" if owner == "p1" else "p1": 1})


def draw(player: str) -> CardDrawn:
    return CardDrawn(player=player, card=None)


GAME_A = [
    started(("ann", "orcs"), ("bob", "dwarves")),
    HandDealt(player="p1", cards=None, count=6),
    HandDealt(player="p2", cards=None, count=6),
    place("p1", "orcs/orc-ravager-1", "C3", 0), draw("p1"),
    place("p2", "dwarves/dwarf-marauder-1", "E4", 0), draw("p2"),
    place("p1", "orcs/orc-catapult", "D3", 1),
    Shot(player="p1", shooter_square="D3", shooter_card="orcs/orc-catapult", target_square="E4",
         target_card="dwarves/dwarf-marauder-1", value=4),
    destroyed("E4", "dwarves/dwarf-marauder-1", "p2", shot_by("D3", "orcs/orc-catapult", "p1", 4)),
    draw("p1"),
    place("p2", "dwarves/dwarf-slugger-1", "D4", 2),
    destroyed("D3", "orcs/orc-catapult", "p1", arrow("D4", "dwarves/dwarf-slugger-1", "p2", 5), defence=4),
    draw("p2"),
    place("p1", "orcs/goblin-shanker-1", "C4", 3),
    Recalled(player="p1", square="C3", card="orcs/orc-ravager-1"),
    Conceded(player="p2"),
    GameEnded(winner="p1", reason="concession"),
]

GAME_B = [
    started(("bob", "dwarves"), ("ann", "orcs")),
    place("p1", "dwarves/dwarf-slugger-1", "C3", 0), draw("p1"),
    place("p2", "orcs/orc-ravager-1", "E4", 0), draw("p2"),
    place("p1", "dwarves/dwarf-marauder-1", "D4", 1),
    destroyed("E4", "orcs/orc-ravager-1", "p2", arrow("D4", "dwarves/dwarf-marauder-1", "p1", 5, "E")),
    draw("p1"),
    place("p2", "orcs/orc-catapult", "F5", 2),
    Shot(player="p2", shooter_square="F5", shooter_card="orcs/orc-catapult", target_square="D4",
         target_card="dwarves/dwarf-marauder-1", value=4),
    GameEnded(winner="p1", reason="kills"),
]

GAME_C = [
    started(("ann", "orcs"), ("cy", "orcs")),
    place("p1", "orcs/orc-ravager-1", "C3", 0), draw("p1"),
    place("p2", "orcs/orc-ravager-1", "E4", 0), draw("p2"),
    place("p1", "orcs/eruugor-bloodfist", "D4", 1),
    destroyed("D4", "orcs/eruugor-bloodfist", "p1", arrow("E4", "orcs/orc-ravager-1", "p2", 6, "NE"), defence=5),
    GameEnded(winner="p2", reason="commanders"),
]

GAME_D = [
    started(("cy", "elves"), ("bob", "dwarves")),
    place("p1", "elves/elven-dragoon-1", "C3", 0), draw("p1"),
    place("p2", "dwarves/dwarf-slugger-1", "E4", 0), draw("p2"),
    GameEnded(winner="draw", reason="kills"),
]

GAME_E = [
    started(("ann", "orcs"), ("bob", "dwarves")),
    place("p1", "orcs/orc-ravager-1", "C3", 0),
]

GAMES = {
    "A": (GAME_A, datetime(2026, 1, 5, 10, 0, tzinfo=UTC), "spring"),
    "B": (GAME_B, datetime(2026, 1, 20, 10, 0, tzinfo=UTC), None),
    "C": (GAME_C, datetime(2026, 2, 3, 10, 0, tzinfo=UTC), "spring"),
    "D": (GAME_D, datetime(2026, 2, 10, 10, 0, tzinfo=UTC), None),
    "E": (GAME_E, datetime(2026, 2, 11, 10, 0, tzinfo=UTC), None),
}


class Clock:
    """A settable clock for the store: every commit is stamped with `now`."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def encode(game_id: str, events: list[Any]):
    return encode_chain(SYSTEM, game_id, events)


def load(store: Any, clock: Clock, games: dict[str, tuple] = GAMES, step: int | None = None) -> None:
    """Store the fixture games: whole (step None), or one event per append (the incremental path)."""
    for game_id, (events, when, tournament) in games.items():
        clock.now = when
        encoded = encode(game_id, events)
        if step is None:
            store.create_game(game_id, "lords-of-war", [], {}, encoded, tournament=tournament)
            continue
        store.create_game(game_id, "lords-of-war", [], {}, encoded[:step], tournament=tournament)
        for i in range(step, len(encoded), step):
            store.append(game_id, encoded[i : i + step])


def projected(games: dict[str, tuple] = GAMES) -> Iterator[Any]:
    """A DuckDB store in memory holding ``games``, projected: yields a reader of it (a module fixture's body)."""
    from replay.analytics import projections
    from replay.store.duckdb_store import DuckDBEventStore

    clock = Clock()
    store = DuckDBEventStore(":memory:", clock=clock)
    load(store, clock, games)
    projector = projections.attach(store, background=False)
    reader = store.reader()
    yield reader
    reader.close()
    projector.close()
    store.close()
