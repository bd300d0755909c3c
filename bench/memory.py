"""Memory: the bulk import's RSS as the games stored grow (bounded means: it levels off, it does not keep growing).

    .venv/bin/python bench/memory.py [--games 60000] [--distinct 2000] [--json out]

One import of ``--games`` games by ``bench/bulk.py``'s child process (``bulk_import_jsonl`` into a fresh DuckDB file,
DuckDB's buffer pool capped at ``bench.bulk.MEMORY_LIMIT``). The child samples its own RSS every 0.2 s; the games
arrive at a steady rate, so the highest RSS in each quarter of the import's time is the RSS up to about that
share of the games. DuckDB's memory grows with the rows written until it reaches its cap (about 20,000 games at
256 MB), so the figure to read is the growth over the second half: after twice the games, the same RSS.
Also reported: the peak (VmHWM) and the largest worker's. The server's RSS during the live run is measured by
``bench/live.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bulk import MEMORY_LIMIT, warlog_import, write_jsonl  # noqa: E402
from bench.common import corpus  # noqa: E402

SHARES = (0.25, 0.5, 0.75, 1.0)


def rss_at(samples: list[list[float]], seconds: float, share: float) -> float:
    """The highest RSS sampled in the quarter of the import's time that ends at ``share`` (batches in flight
    make single samples jump by tens of MiB)."""
    quarter = [mib for t, mib in samples if (share - 0.25) * seconds < t <= share * seconds]
    return max(quarter) if quarter else samples[-1][1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60_000)
    parser.add_argument("--distinct", type=int, default=2_000)
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    distinct = corpus(args.distinct)
    workers = args.workers or os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as tmp:
        jsonl = Path(tmp) / "games.jsonl"
        events = write_jsonl(jsonl, args.games, distinct)
        result = warlog_import(jsonl, Path(tmp) / "memory.duckdb", workers)
    samples = result["rss_samples"] or [[result["seconds"], result["peak_rss_mib"]]]
    curve = [{"games": round(share * args.games), "rss_mib": rss_at(samples, result["seconds"], share)}
             for share in SHARES]
    growth = curve[-1]["rss_mib"] / curve[1]["rss_mib"]
    print(f"bulk import of {args.games:,} games ({events:,} events, DuckDB memory_limit {MEMORY_LIMIT}): RSS "
          + ", ".join(f"{c['rss_mib']:.0f} MiB after ~{c['games']:,}" for c in curve)
          + f"; second half x{growth:.2f}; peak {result['peak_rss_mib']:.0f} MiB "
          f"(largest worker {result['worker_peak_rss_mib']:.0f} MiB)")
    if args.json:
        args.json.write_text(json.dumps({
            "games": args.games, "events": events, "workers": workers, "memory_limit": MEMORY_LIMIT,
            "curve": curve, "second_half_growth": growth, "peak_rss_mib": result["peak_rss_mib"],
            "worker_peak_rss_mib": result["worker_peak_rss_mib"], "seconds": result["seconds"],
        }, indent=1))


if __name__ == "__main__":
    main()
