"""HeroScape glyphs (digest §6, ruling R2) and initiative (§2). Pure: the d20 rolls are passed in (events).

R2: a permanent glyph acts for a player while one of its figures stands on it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

PERMANENT = frozenset({"astrid", "gerda", "valda", "ivor", "dagmar"})
POWER = frozenset({"kelda"})
HEALING = frozenset({"kelda"})


@dataclass(frozen=True, slots=True)
class Bonuses:
    attack: int = 0
    defense: int = 0
    move: int = 0
    range_long: int = 0
    initiative: int = 0

    def range_for(self, base: int) -> int:
        """Ivor adds 4 to ranges of 4 or more only (§6)."""
        return base + self.range_long if base >= 4 else base


GLYPH_BONUS = {
    "astrid": Bonuses(attack=1),
    "gerda": Bonuses(defense=1),
    "valda": Bonuses(move=2),
    "ivor": Bonuses(range_long=4),
    "dagmar": Bonuses(initiative=8),
}


def bonuses(glyphs_held: Iterable[str]) -> Bonuses:
    """The player's bonuses from the permanent glyphs its figures stand on (R2); other glyphs add nothing here."""
    total = Bonuses()
    for glyph in glyphs_held:
        b = GLYPH_BONUS.get(glyph)
        if b is not None:
            total = Bonuses(
                total.attack + b.attack,
                total.defense + b.defense,
                total.move + b.move,
                total.range_long + b.range_long,
                total.initiative + b.initiative,
            )
    return total


def initiative(
    seats: Sequence[str], roll: Callable[[str], int], bonus: Mapping[str, int] | None = None
) -> tuple[tuple[str, ...], tuple[tuple[str, int], ...]]:
    """§2: everyone rolls a d20 (+ glyph bonus); the highest goes first, tied highest re-roll until one is alone.

    Play then passes in seating order from the first player. Returns the order and every roll made, in order.
    """
    bonus = bonus or {}
    rolls: list[tuple[str, int]] = []
    contenders = list(seats)
    while True:
        totals = {}
        for seat in contenders:
            value = roll(seat)
            if not 1 <= value <= 20:
                raise ValueError(f"a d20 shows 1-20, not {value}")
            rolls.append((seat, value))
            totals[seat] = value + bonus.get(seat, 0)
        top = max(totals.values())
        contenders = [s for s in contenders if totals[s] == top]
        if len(contenders) == 1:
            break
    first = seats.index(contenders[0])
    return tuple(seats[first:]) + tuple(seats[:first]), tuple(rolls)
