"""Memory: peak RSS of the bulk import at two sizes (bounded means: the same peak for 4x the games).

    .venv/bin/python bench/memory.py [--games 5000 20000] [--distinct 2000] [--json out]

Each size is imported by ``bench/bulk.py``'s child process (``bulk_import_jsonl`` into a fresh DuckDB file);
its peak RSS (VmHWM) and the largest worker's are reported. The server's RSS during the live run is measured by
``bench/live.py`` (sampled every 0.5 s, peak read at the end).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bulk import warlog_import, write_jsonl  # noqa: E402
from bench.common import corpus  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[5_000, 20_000])
    parser.add_argument("--distinct", type=int, default=2_000)
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    distinct = corpus(args.distinct)
    workers = args.workers or os.cpu_count() or 1
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for games in args.games:
            jsonl = Path(tmp) / f"games-{games}.jsonl"
            events = write_jsonl(jsonl, games, distinct)
            result = warlog_import(jsonl, Path(tmp) / f"memory-{games}.duckdb", workers)
            rows.append({"games": games, "events": events, "peak_rss_mib": result["peak_rss_mib"],
                         "worker_peak_rss_mib": result["worker_peak_rss_mib"]})
            print(f"bulk import of {games:,} games ({events:,} events): peak RSS {result['peak_rss_mib']:.0f} MiB "
                  f"(largest worker {result['worker_peak_rss_mib']:.0f} MiB)")
            jsonl.unlink()
    if args.json:
        args.json.write_text(json.dumps({"bulk": rows, "workers": workers}, indent=1))


if __name__ == "__main__":
    main()
