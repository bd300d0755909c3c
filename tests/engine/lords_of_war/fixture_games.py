"""The sample games in fixtures/games/: how they are made, and how to write them again.

    .venv/bin/python -m tests.engine.lords_of_war.fixture_games   # rewrites fixtures/games/*

Each game is ``<name>.jsonl`` (one event per line, the codec's JSON) with ``<name>.state.json``, the
``state_to_builtins`` of its final state. ``test_fixture_games.py`` folds every game and compares; rewrite the
files only when a change of the state's shape is intended (and say so in the commit).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.lords_of_war import decide, fold, parse_action, start, state_to_builtins
from engine.lords_of_war.bots import play_bot_game
from events.lords_of_war import CODEC

GAMES_DIR = Path(__file__).resolve().parents[3] / "fixtures" / "games"

BOT_GAMES: dict[str, dict[str, Any]] = {
    "orcs-vs-dwarves-random": {"seed": 1, "armies": ("orcs", "dwarves"), "variant": {}, "bots": ("random", "random")},
    "elves-vs-undead-intermediate": {"seed": 2, "armies": ("elves", "undead"), "variant": {"intermediate": True},
                                     "bots": ("greedy", "random")},
    "lizardmen-vs-templars-unbounded": {"seed": 3, "armies": ("lizardmen", "templars"),
                                        "variant": {"unbounded": True, "intermediate": True},
                                        "bots": ("greedy", "greedy")},
}

# A short game recorded by a scorekeeper (table mode), written by hand.
SHORT_GAME_SETUP = {
    "system": "lords-of-war",
    "players": [{"id": "p1", "name": "Ann", "army": "orcs"}, {"id": "p2", "name": "Bob", "army": "dwarves"}],
    "variant": {"mode": "table"},
}
SHORT_GAME_ACTIONS: list[dict[str, Any]] = [
    {"type": "place", "player": "p1", "card": "orcs/orc-ravager-2", "square": "C3"},  # the challenge
    {"type": "draw", "player": "p1"},
    {"type": "place", "player": "p2", "card": "dwarves/dwarf-marauder-1", "square": "E4"},
    {"type": "draw", "player": "p2"},
    {"type": "place", "player": "p1", "card": "orcs/orc-ravager-1", "square": "F3"},  # NW5 destroys the Marauder
    {"type": "draw", "player": "p1"},
    {"type": "place", "player": "p2", "card": "dwarves/dwarf-slugger-1", "square": "C4"},  # 3 vs 3: nobody falls
    {"type": "draw", "player": "p2", "card": "dwarves/dwarf-ballista"},
    {"type": "place", "player": "p1", "card": "orcs/orc-catapult", "square": "B3",  # support, shoots: 3 + 4 > 3
     "shots": [{"shooter": "B3", "target": "C4"}]},
    {"type": "recall", "player": "p1", "square": "F3"},
    {"type": "concede", "player": "p2"},
]


def short_game() -> list[Any]:
    events = list(start(SHORT_GAME_SETUP))
    state = fold(events)
    for action in SHORT_GAME_ACTIONS:
        produced = decide(state, parse_action(action))
        state = fold(produced, state)
        events.extend(produced)
    return events


def all_games() -> dict[str, list[Any]]:
    games = {name: play_bot_game(g["seed"], g["armies"], g["variant"], g["bots"]) for name, g in BOT_GAMES.items()}
    games["short-table-game"] = short_game()
    return games


def write() -> None:
    GAMES_DIR.mkdir(parents=True, exist_ok=True)
    for name, events in all_games().items():
        lines = b"\n".join(CODEC.encode_json(e) for e in events) + b"\n"
        (GAMES_DIR / f"{name}.jsonl").write_bytes(lines)
        state = state_to_builtins(fold(events))
        (GAMES_DIR / f"{name}.state.json").write_text(json.dumps(state, indent=1) + "\n", encoding="utf-8")
        print(f"{name}: {len(events)} events, {state['winner']} by {state['end_reason']}")


if __name__ == "__main__":
    write()
