"""Bot games recorded through the one write path (``GameService``): for ``warlog demo``, samples and benches.

Any registered system, through its engine protocol alone (engine.system): the setups are the system's
``sample_setup`` (``SelfPlay``), the players its ``bots``, the seat to act ``Seating.to_act``, the end
``Results.outcome``, the safety net ``Rules.concession``. ``warlog demo`` without ``--system`` plays the default
system (``engine.systems.DEFAULT_SYSTEM``).

Every seat gets a name of its own (``distinct_names``): ratings identify players by name, and a game whose two seats
share one is a game against oneself that is never rated (the sample setups of a mirror match, the same faction on
both sides, used to name both seats alike).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine.catalogue import army_names, map_names, setup_on_catalogue
from engine.play import seat_bots, stalled_draw
from engine.system import AnySystem, Outcome
from engine.systems import DEFAULT_SYSTEM, get_system
from replay.catalogues import CATALOGUE, capability, resolve_setup
from replay.errors import CatalogueRefused
from replay.log.service import GameService


@dataclass(frozen=True)
class DemoGame:
    game_id: str
    seq: int
    outcome: Outcome | None  # None only if the game was left running (never by record_bot_game)

    @property
    def winner(self) -> str:
        """Who won, in one word for a summary: the winning seats joined by ``+``, or ``draw``."""
        if self.outcome is None:
            return "unfinished"
        return "+".join(self.outcome.winners) or "draw"

    @property
    def end_reason(self) -> str | None:
        return self.outcome.reason if self.outcome is not None else None


def lineups(system: AnySystem, seats: int) -> list[tuple[str, ...]]:
    """The bots at the table, game after game: each bot takes each seat in turn (seat i of lineup k plays bot
    (i + k) mod n, bots in name order), then the first bot meets itself in every seat. Two seats, a random and a
    greedy bot: (greedy, random), (random, greedy), (greedy, greedy)."""
    names = sorted(system.bots)
    turns = [tuple(names[(i + k) % len(names)] for i in range(seats)) for k in range(len(names))]
    mirror = (names[0],) * seats
    return turns + ([mirror] if mirror not in turns else [])


def distinct_names(setup: dict[str, Any]) -> dict[str, Any]:
    """The setup with every player's name its own: a name that an earlier seat already has gets its seat id
    (``Dwarves bot`` and ``Dwarves bot p2``); a missing name is the seat id."""
    players = []
    taken: set[str] = set()
    for index, player in enumerate(setup.get("players") or ()):
        seat = str(player.get("id") or f"p{index + 1}")
        name = str(player.get("name") or seat)
        if name in taken:
            name = f"{name} {seat}"
        taken.add(name)
        players.append({**player, "name": name})
    return {**setup, "players": players}


@dataclass(frozen=True)
class DemoCatalogue:
    """The catalogue demo games play (issue 30): its id, the armies its setups name and the maps their variants name
    (none: the system's setups name no map), in turn."""

    id: str
    armies: tuple[str, ...]
    maps: tuple[str, ...] = ()


def demo_catalogue(service: GameService, system: str, identity: str) -> DemoCatalogue:
    """The stored catalogue ``identity`` of ``system`` as demo games play it. Raises CatalogueRefused (as
    ``POST /games`` refuses it: ``unknown_catalogue``, ``catalogue_not_supported``), also for a system that does
    not tell a catalogue's armies (``engine.catalogue.army_names``)."""
    resolved = resolve_setup(service.store, {"system": system, CATALOGUE: identity})
    document = resolved.get(CATALOGUE)
    if document is None:  # the system's default catalogue, named by its id
        caps = capability(system)
        document = caps.default() if caps is not None else None
    armies = army_names(capability(system), document)
    if not armies:
        raise CatalogueRefused("catalogue_not_supported", f"{system} does not say which armies a catalogue has: its "
                               "demo games play its default catalogue only")
    return DemoCatalogue(identity, armies, map_names(capability(system), document))


def demo_setup(index: int, seed: int, system: str | None = None, seats: int | None = None,
               catalogue: DemoCatalogue | None = None) -> dict[str, Any]:
    """The setup of demo game ``index``: the system's sample setups in turn (``SelfPlay.sample_setup``; Lords of
    War: every faction pairing, variants cycling), seeds distinct (``seed + index``), every seat named apart; on
    ``catalogue`` (issue 30), with its armies and maps (``engine.catalogue.setup_on_catalogue``). Raises SetupError
    for a seat count the system does not allow, UnknownSystem for an unknown system."""
    chosen = get_system(system or DEFAULT_SYSTEM)
    setup = chosen.sample_setup(index, seed + index, seats)
    if catalogue is not None:
        setup = setup_on_catalogue(setup, index, catalogue.armies, catalogue.id, catalogue.maps)
    return distinct_names(setup)


def record_bot_game(
    service: GameService,
    setup: dict[str, Any],
    bots: Sequence[str] = ("greedy", "random"),
    metadata: dict[str, Any] | None = None,
    max_turns: int = 500,
) -> DemoGame:
    """Create a game and play it to the end with the system's bots (``bots`` in seating order, a shorter list
    repeating its last), every action decided and stored by the service. Bot ``i`` is seeded with the setup's seed
    plus ``i``. Past ``max_turns`` turns (``Seating.turn``) the awaited seat concedes. A game its system calls
    stalled (``engine.system.Stalling``) is ended as a draw by the scorekeeper's adjudication (``stalled_draw``)."""
    created = service.create_game(setup, metadata=metadata)
    system = service.system_of(created.game_id)
    seed = setup.get("seed")
    players = seat_bots(system, system.seats(setup), tuple(bots), seed if isinstance(seed, int) else 0)
    seq, state = service.state(created.game_id)
    while (outcome := system.outcome(state)) is None:
        stalled = stalled_draw(system, state)
        if stalled is not None:
            seq = service.act(created.game_id, stalled, expected_seq=seq).seq
            _, state = service.state(created.game_id)
            continue
        awaited = system.to_act(state)
        if not awaited:
            raise RuntimeError(f"{system.name}: game {created.game_id} runs but awaits no seat (seq {seq})")
        seat = awaited[0]
        if system.turn(state) > max_turns:
            action: Any = system.concession(seat)
        else:
            action = players[seat].choose(state, seat)
        result = service.act(created.game_id, action, expected_seq=seq)
        seq, state = service.state(created.game_id)
        assert seq == result.seq
    return DemoGame(created.game_id, seq, outcome)


def record_demo_games(
    service: GameService,
    count: int,
    seed: int = 1,
    on_game: Callable[[int, DemoGame], None] | None = None,
    system: str | None = None,
    seats: int | None = None,
    catalogue: DemoCatalogue | None = None,
) -> Iterator[DemoGame]:
    """``count`` demo games of ``system`` (default: ``DEFAULT_SYSTEM``) with ``seats`` seats (default: each
    sample setup's), the bots' lineups in turn (``lineups``), on ``catalogue`` when given (``demo_catalogue``)."""
    chosen = get_system(system or DEFAULT_SYSTEM)
    for index in range(count):
        setup = demo_setup(index, seed, chosen.name, seats, catalogue)
        table = lineups(chosen, len(chosen.seats(setup)))
        game = record_bot_game(service, setup, bots=table[index % len(table)], metadata={"source": "demo"})
        if on_game is not None:
            on_game(index, game)
        yield game
