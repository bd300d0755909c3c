"""Bot games recorded through the one write path (``GameService``): for ``warlog demo``, samples and benches."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from engine.lords_of_war import FACTIONS
from engine.lords_of_war.bots import make_bot
from replay.log.service import GameService

# The variants a demo cycles through: plain sealed games most often, then each variant.
DEMO_VARIANTS: tuple[dict[str, Any], ...] = (
    {},
    {"intermediate": True},
    {},
    {"unbounded": True},
    {"mode": "table"},
    {"intermediate": True, "unbounded": True},
)


# Who sits where: each bot takes each seat, and the greedy bot meets itself.
DEMO_SEATS: tuple[tuple[str, str], ...] = (("greedy", "random"), ("random", "greedy"), ("greedy", "greedy"))


@dataclass(frozen=True)
class DemoGame:
    game_id: str
    seq: int
    winner: str | None
    end_reason: str | None


def demo_setup(index: int, seed: int) -> dict[str, Any]:
    """The setup of demo game ``index``: every faction pairing in turn, variants cycling, seeds distinct."""
    factions = sorted(FACTIONS)
    pairing = index % (len(factions) ** 2)
    army1, army2 = factions[pairing // len(factions)], factions[pairing % len(factions)]
    return {
        "system": "lords-of-war",
        "players": [
            {"id": "p1", "name": f"{army1.title()} bot", "army": army1},
            {"id": "p2", "name": f"{army2.title()} bot", "army": army2},
        ],
        "variant": DEMO_VARIANTS[index % len(DEMO_VARIANTS)],
        "seed": seed + index,
    }


def record_bot_game(
    service: GameService,
    setup: dict[str, Any],
    bots: tuple[str, str] = ("greedy", "random"),
    metadata: dict[str, Any] | None = None,
    max_turns: int = 500,
) -> DemoGame:
    """Create a game and play it to the end with bots, every action decided and stored by the service."""
    created = service.create_game(setup, metadata=metadata)
    seed = int(setup.get("seed") or 0)
    players = [make_bot(kind, seed + i) for i, kind in enumerate(bots)]
    seq, state = service.state(created.game_id)
    while state.phase != "over":
        player = f"p{state.active + 1}"
        if state.turn > max_turns:
            action: Any = {"type": "concede", "player": player}
        else:
            action = players[state.active].choose(state)
        result = service.act(created.game_id, action, expected_seq=seq)
        seq, state = service.state(created.game_id)
        assert seq == result.seq
    return DemoGame(created.game_id, seq, state.winner, state.end_reason)


def record_demo_games(
    service: GameService, count: int, seed: int = 1, on_game: Callable[[int, DemoGame], None] | None = None
) -> Iterator[DemoGame]:
    for index in range(count):
        bots = DEMO_SEATS[index % len(DEMO_SEATS)]
        game = record_bot_game(service, demo_setup(index, seed), bots=bots, metadata={"source": "demo"})
        if on_game is not None:
            on_game(index, game)
        yield game
