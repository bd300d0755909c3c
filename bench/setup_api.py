"""The cost of the typed setup union (``POST /games``) and of the seats' routes, in-process, one core.

    .venv/bin/python bench/setup_api.py [--games N] [--repeat R]

Through FastAPI's TestClient on the in-memory store (no network, no disk): ``--games`` Lords of War games created
with ``POST /games`` (the body validated by the union of the registered systems' setup models, a token per seat),
then for each game ``GET /games/{id}/legal`` with the scorekeeper's token (the seats ``to_act`` awaits, their legal
actions) and ``GET /games/{id}`` (the result from the system's ``Outcome``). CPU time, best of ``--repeat``;
requests per CPU second (time.process_time: the whole process, its threads included).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fastapi.testclient import TestClient  # noqa: E402

from api.app import create_app  # noqa: E402
from api.settings import Settings  # noqa: E402
from replay.log.demo import demo_setup  # noqa: E402
from replay.store.memory_store import MemoryEventStore  # noqa: E402


def run(games: int) -> dict[str, float]:
    app = create_app(Settings(db=":memory:", write_rate=0, address_write_rate=0), store=MemoryEventStore())
    rates: dict[str, float] = {}
    with TestClient(app) as client:
        created: list[tuple[str, dict[str, Any]]] = []
        start = time.process_time()
        for i in range(games):
            answer = client.post("/games", json={**demo_setup(i, 1), "insecure_seed": True}).json()
            created.append((answer["id"], answer["tokens"]))
        rates["POST /games"] = games / (time.process_time() - start)
        start = time.process_time()
        for game_id, tokens in created:
            client.get(f"/games/{game_id}/legal", headers={"Authorization": f"Bearer {tokens['scorekeeper']}"})
        rates["GET /games/{id}/legal"] = games / (time.process_time() - start)
        start = time.process_time()
        for game_id, _ in created:
            client.get(f"/games/{game_id}")
        rates["GET /games/{id}"] = games / (time.process_time() - start)
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    best: dict[str, float] = {}
    for _ in range(args.repeat):
        for route, rate in run(args.games).items():
            best[route] = max(best.get(route, 0.0), rate)
    for route, rate in best.items():
        print(f"{route:<24} {rate:8.0f} requests/s  ({args.games} games, best of {args.repeat})")


if __name__ == "__main__":
    main()
