"""Who sits where (§3, §10): the seats of a game, their sides, armies, turn order and challenge squares.

A game of Lords of War has two *sides* (the two frames of §1: side 0 faces as p1 does, side 1 as p2 does) and
2, 3, 4 or 6 *seats* (``p1``...``p6``). Everything the cards do on the mat is a matter of sides: a unit attacks
the units of the other side only (§10: team-mates never attack each other, their attacks on one enemy add up),
"friendly" means the same side (§10: support next to a team-mate), and every shooter of the active side may shoot
(§10: a team-mate's ranged units shoot on each team-mate's turn). Seats matter for hands, decks, the turn order
and recalls. ``Layout`` says, for a number of seats, how seats map to all of that:

- two players (§3): p1 side 0, p2 side 1; turns p1, p2; challenge squares C3 and E4 (R1).
- three players (§10): p1 plays alone (side 0, hand 7); p2 and p3 are the team (side 1) and share one army: one
  deck, 3 cards in each hand and the general lying between them (R15: either may deploy it). Turns p1, p2, p1,
  p3 (solo, team player A, solo, team player B). The challenge is made as in the two-player game: p1 on C3, then
  p2 (team player A) on E4 (R17).
- team rules, 4 or 6 players (§10): odd seats (p1, p3, p5: team ``odd``, side 0) against even seats (team
  ``even``, side 1); each seat its own army and hand of 6; turns p1, p2, p3, ... ; challenge squares of R14
  (p1 ``0,0``, p2 ``2,2``, p3 ``4,0``, p4 ``6,2``, p5 ``8,0``, p6 ``10,2``); always the unbounded geometry.
"""

from __future__ import annotations

import msgspec

from engine.lords_of_war import geometry as geo

SEAT_NAMES: tuple[str, ...] = ("p1", "p2", "p3", "p4", "p5", "p6")
SEAT_INDEX: dict[str, int] = {name: i for i, name in enumerate(SEAT_NAMES)}
SEAT_COUNTS: tuple[int, ...] = (2, 3, 4, 6)  # §3 (two), §10 (three; four or six in two teams)
TEAM_NAMES: dict[int, tuple[str, str]] = {3: ("solo", "allies"), 4: ("odd", "even"), 6: ("odd", "even")}
# §7 and §10: (cards, commanders) destroyed to win, by number of seats
VICTORY: dict[int, tuple[int, int]] = {2: (20, 4), 3: (20, 4), 4: (30, 7), 6: (50, 9)}


class Layout(msgspec.Struct, frozen=True):
    seats: int = 2
    side: tuple[int, ...] = (0, 1)  # seat -> side (its frame, §1)
    stock: tuple[int, ...] = (0, 1)  # seat -> the army (deck) it draws from
    order: tuple[int, ...] = (0, 1)  # the turn order, repeated (§5, §10)
    challengers: tuple[int, ...] = (0, 1)  # the seats making the challenge, in order (§4, R14, R17)
    challenge: tuple[int, ...] = geo.CHALLENGE_SQUARES  # each challenger's challenge square (R1, R14)
    hand_size: tuple[int, ...] = (6, 6)  # per seat (§3; §10: solo 7, team players 3)
    teams: tuple[str, ...] = ()  # the two sides' names; () for two players (the seats are the sides)
    shared_general: bool = False  # §10 three players: the team's general lies between the team players (R15)

    @property
    def is_teams(self) -> bool:
        return bool(self.teams)

    def side_name(self, side: int) -> str:
        """A side as a game's result names it: the seat (two players) or the team (§10)."""
        return self.teams[side] if self.teams else SEAT_NAMES[side]

    def members(self, side: int) -> tuple[str, ...]:
        return tuple(SEAT_NAMES[s] for s in range(self.seats) if self.side[s] == side)

    def next_slot(self, slot: int) -> int:
        return (slot + 1) % len(self.order)


TWO = Layout()


def _teams(seats: int) -> Layout:
    challenge = tuple(geo.key(4 * (i // 2) + 2 * (i % 2), 2 * (i % 2)) for i in range(seats))  # R14
    return Layout(
        seats=seats,
        side=tuple(i % 2 for i in range(seats)),
        stock=tuple(range(seats)),
        order=tuple(range(seats)),
        challengers=tuple(range(seats)),
        challenge=challenge,
        hand_size=(6,) * seats,
        teams=TEAM_NAMES[seats],
    )


LAYOUTS: dict[int, Layout] = {
    2: TWO,
    3: Layout(
        seats=3,
        side=(0, 1, 1),
        stock=(0, 1, 1),
        order=(0, 1, 0, 2),
        challengers=(0, 1),
        challenge=geo.CHALLENGE_SQUARES,
        hand_size=(7, 3, 3),
        teams=TEAM_NAMES[3],
        shared_general=True,
    ),
    4: _teams(4),
    6: _teams(6),
}


def layout_of(seats: int) -> Layout:
    return LAYOUTS[seats]


__all__ = ["LAYOUTS", "Layout", "SEAT_COUNTS", "SEAT_INDEX", "SEAT_NAMES", "TEAM_NAMES", "TWO", "VICTORY", "layout_of"]
