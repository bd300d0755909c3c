"""Run by test_projections: stores bot games event batch by event batch with a background projector attached,
printing each game id as its last batch is acknowledged, until it is killed (-9)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import stats_fixtures as fx  # noqa: E402

from api.installed import load_systems  # noqa: E402
from engine.lords_of_war.bots import play_bot_game  # noqa: E402
from replay.analytics import projections  # noqa: E402
from replay.store.duckdb_store import DuckDBEventStore  # noqa: E402

load_systems()  # a process starts as the product does: the installed systems
store = DuckDBEventStore(sys.argv[1])
projector = projections.attach(store)
for seed in range(10_000):
    game_id = f"k{seed}"
    encoded = fx.encode(game_id, play_bot_game(seed, armies=("orcs", "undead")))
    store.create_game(game_id, "lords-of-war", [], {}, encoded[:5])
    for i in range(5, len(encoded), 9):
        store.append(game_id, encoded[i : i + 9])
    print(game_id, flush=True)
