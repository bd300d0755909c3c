"""Helper for test_store_durability: appends to a store until killed, printing every acknowledged append.

Usage: python kill_target.py DB GAMES BATCH   (DB: a DuckDB file, or a postgresql:// URL)
Each of GAMES threads owns game `g<n>` and appends batches of BATCH events whose payload names its seq;
after each acknowledgement it prints `g<n> <last_seq>` (flushed at once).
"""

from __future__ import annotations

import sys
import threading

import msgspec

from replay.store.base import NewEvent
from replay.store.open import open_store


def main() -> None:
    path, games, batch = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    store = open_store(path)
    printing = threading.Lock()

    def play(n: int) -> None:
        game_id = f"g{n}"
        store.create_game(game_id, "lords-of-war", ["p1", "p2"], {}, [])
        seq = 0
        while True:
            events = [NewEvent("placed", 1, msgspec.json.encode({"seq": seq + i + 1})) for i in range(batch)]
            seq = store.append(game_id, events, expected_seq=seq).last_seq
            with printing:
                sys.stdout.write(f"{game_id} {seq}\n")
                sys.stdout.flush()

    threads = [threading.Thread(target=play, args=(n,), daemon=True) for n in range(games)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


if __name__ == "__main__":
    main()
