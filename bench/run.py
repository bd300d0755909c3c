"""The benchmark runner: every figure of issue 7, written to bench/RESULTS.md.

    .venv/bin/python bench/run.py [--quick] [--out bench/RESULTS.md]      (make bench / make bench-quick)

Runs each bench script in its own process (fold.py, systems.py for every registered game system, bulk.py,
live.py, streams.py, replay_page.py, and seek.py / stats.py where they exist), each with ``--json`` where it has
it, then writes machine facts, a summary table (median over repeats, p50/p99 where latency matters, the ratios,
target met or not), the sizes each row used and every script's own output. ``--quick`` scales everything down to
finish in under two minutes (the bot-game corpus is cached after the first run; see bench/common.py).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import ROOT, machine, median  # noqa: E402

BENCH = ROOT / "bench"

SIZES = {
    "full": {
        "distinct": 2_000,
        "fold": ["--games", "10000", "--repeat", "3"],
        "systems": ["--games", "300", "--repeat", "3"],
        "heroscape_geometry": ["--repeat", "5"],
        "bulk": ["--games", "100000", "--es-games", "2000", "--repeat", "2"],
        "live": ["--clients", "1,16,128", "--requests", "300,3000,6000", "--repeat", "2", "--seconds", "15",
                 "--preload", "2000", "--grow", "4"],
        "streams": ["--streams", "1000", "--games", "100", "--seconds", "30"],
        "seek": ["--games", "10000", "--queries", "2000"],
        "stats": ["--games", "100000", "1000000", "--repeat", "5"],
        "postgres": ["--games", "400", "--seconds", "20", "--spectators", "1000", "--appends", "30",
                     "--bulk-games", "5000"],
        "replay_page": ["--runs", "5", "--steps", "150"],
    },
    "quick": {
        "distinct": 300,
        "fold": ["--games", "1000", "--repeat", "2"],
        "systems": ["--games", "60", "--repeat", "2"],
        "heroscape_geometry": ["--repeat", "1"],
        "bulk": ["--games", "1000", "--es-games", "200", "--repeat", "1"],
        "live": ["--clients", "1,16,128", "--requests", "100,400,800", "--repeat", "1", "--seconds", "6",
                 "--preload", "100", "--grow", "0"],
        "streams": ["--streams", "300", "--games", "30", "--seconds", "5"],
        "seek": ["--games", "300", "--queries", "200"],
        "stats": ["--games", "20000", "--base", "100", "--repeat", "3"],
        "postgres": ["--games", "100", "--seconds", "5", "--spectators", "300", "--appends", "10",
                     "--bulk-games", "500"],
        "replay_page": ["--runs", "2", "--steps", "30"],
    },
}
TIMEOUTS = {"full": 1500, "quick": 90}


def run(name: str, args: list[str], out: Path | None, timeout: int, log: list[str]) -> tuple[dict | None, str]:
    """Run bench/<name>.py; -> (its JSON figures or None, its output)."""
    command = [sys.executable, str(BENCH / f"{name}.py"), *args]
    if out is not None:
        command += ["--json", str(out)]
    started = time.perf_counter()
    print(f"== {name}: {' '.join(command[1:])}", flush=True)
    try:
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
        output = done.stdout + (f"\n(exit status {done.returncode})\n{done.stderr[-1500:]}" if done.returncode else "")
    except subprocess.TimeoutExpired as exc:
        output = (exc.stdout or b"").decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        output += f"\n(stopped after {timeout} s)"
    output = "\n".join(line for line in output.splitlines() if not _noise(line))
    seconds = time.perf_counter() - started
    print(output, flush=True)
    log.append(f"### {name}.py ({seconds:.0f} s)\n\n`{' '.join(command[1:len(command) - (2 if out else 0)])}`\n\n"
               f"```\n{output.strip()}\n```\n")
    figures = json.loads(out.read_text()) if out is not None and out.exists() else None
    return figures, output


def _noise(line: str) -> bool:
    """DuckDB's nanobind prints leak reports at interpreter exit; they say nothing about the figures."""
    leak_report = ("nanobind:", " - leaked", " - ... skipped", "See https://nanobind")
    return line.startswith(leak_report) or "UserWarning" in line


def verdict(ok: bool | None) -> str:
    return "n/a" if ok is None else ("**met**" if ok else "**not met**")


def streams_rows(s: dict) -> list[tuple[str, str, str, str]]:
    """The rows of bench/streams.py's figures: idle live streams' CPU and /health latency, and the wake-up."""
    loaded, idle = s["loaded"], s["idle"]
    return [
        (f"{s['streams']:,} idle live streams (SSE, {s['games']:,} games): server CPU over {s['seconds']:g} s",
         f"**{loaded['cpu_pct']:.1f}%** of a core (no stream open: {idle['cpu_pct']:.1f}%)", "< 10%",
         verdict(loaded["cpu_pct"] < 10) if s["streams"] >= 1000 else "n/a"),
        (f"{s['streams']:,} idle live streams: GET /health p50 / p99",
         f"{loaded['health_p50_ms']:.1f} / **{loaded['health_p99_ms']:.1f}** ms (no stream open: "
         f"{idle['health_p50_ms']:.1f} / {idle['health_p99_ms']:.1f} ms)", "p99 < 20 ms",
         verdict(loaded["health_p99_ms"] < 20) if s["streams"] >= 1000 else "n/a"),
        (f"one action on a game followed by {s['watchers']} of those streams: until every one has it",
         f"{s['delivery_ms']:.1f} ms (the POST included)", "(reported)", "n/a"),
    ]


def postgres_rows(p: dict) -> list[tuple[str, str, str, str]]:
    """The rows of bench/postgres.py's figures (issue 19)."""
    def appends(key: str) -> str:
        r = p[key]
        return f"{r['rate']:,.0f}/s (p50 {r['p50_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms)"

    f, b = p["fanout"], p["bulk"]
    return [
        (f"appends over HTTP, {p['clients']} clients: DuckDB file, 1 process", appends("duckdb"), "(reference)", "n/a"),
        ("appends over HTTP: PostgreSQL, 1 process", appends("pg1"), "(reported)", "n/a"),
        ("appends over HTTP: PostgreSQL, 2 processes (--workers 2)", appends("pg2") + f", **{p['ratio']:.2f}x** one",
         ">= 1.6x one process", verdict(p["ratio"] >= 1.6)),
        (f"live fan-out of one game to {f['spectators']:,} SSE spectators (2 processes): append to delivery",
         f"p50 {f['p50_ms']:.1f} ms, **p99 {f['p99_ms']:.1f} ms**", "p99 <= 250 ms", verdict(f["p99_ms"] <= 250)),
        ("bulk import into PostgreSQL (COPY)", f"**{b['rate']:,.0f} events/s** ({b['events']:,} events)",
         ">= 50,000 events/s", verdict(b["rate"] >= 50_000)),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--out", type=Path, default=BENCH / "RESULTS.md")
    args = parser.parse_args()
    mode = "quick" if args.quick else "full"
    sizes = SIZES[mode]
    timeout = TIMEOUTS[mode]
    distinct = ["--distinct", str(sizes["distinct"])]
    started = time.perf_counter()
    facts = machine()
    log: list[str] = []
    rows: list[tuple[str, str, str, str]] = []  # figure, result, target, verdict
    used: list[str] = []

    with tempfile.TemporaryDirectory() as tmp:
        tmpdir = Path(tmp)
        fold, _ = run("fold", sizes["fold"] + distinct, tmpdir / "fold.json", timeout, log)
        systems, _ = run("systems", sizes["systems"], tmpdir / "systems.json", timeout, log)
        geometry, _ = run("heroscape_geometry", sizes["heroscape_geometry"], tmpdir / "hs.json", timeout, log)
        bulk, _ = run("bulk", sizes["bulk"] + distinct, tmpdir / "bulk.json", timeout, log)
        live, _ = run("live", sizes["live"] + distinct, tmpdir / "live.json", timeout, log)
        streams, _ = run("streams", sizes["streams"], tmpdir / "streams.json", timeout, log)
        postgres, _ = run("postgres", sizes["postgres"] + distinct, tmpdir / "postgres.json", timeout, log)
        seek_out = run("seek", sizes["seek"] + ["--db", str(tmpdir / "seek.duckdb")], None, timeout, log)[1] \
            if (BENCH / "seek.py").exists() else None
        page, _ = run("replay_page", sizes["replay_page"], tmpdir / "page.json", timeout, log)
        stats_out = run("stats", sizes["stats"] + ["--dir", str(tmpdir)], None, timeout, log)[1] \
            if (BENCH / "stats.py").exists() else None

    if fold:
        ratio = median(fold["fold_ratios"])
        rows.append(("fold rate (decode + evolve) vs msgspec decode-only",
                     f"{median(fold['fold_rates']):,.0f} vs {median(fold['decode_rates']):,.0f} events/s = "
                     f"**{ratio:.1%}**", ">= 30%", verdict(ratio >= 0.30)))
        decide = median(fold["decide_rates"])
        rows.append(("decide rate", f"**{decide:,.0f}** actions/s", ">= 20,000", verdict(decide >= 20_000)))
        used.append(f"fold: {fold['games']:,} stored games ({fold['distinct']:,} distinct bot games cycled), "
                    f"{fold['events']:,} events, {fold['repeat']} repeats; decide: every action of the "
                    f"{fold['distinct']:,} distinct games ({fold['actions']:,} actions), {fold['repeat']} repeats")
    for figures in (systems or {}).get("systems", []):
        name, ratio = figures["system"], median(figures["fold_ratios"])
        decide = median(figures["decide_rates"])
        rows.append((f"{name}: fold rate vs msgspec decode-only (bench/systems.py)",
                     f"{median(figures['fold_rates']):,.0f} vs {median(figures['decode_rates']):,.0f} events/s = "
                     f"**{ratio:.1%}**", ">= 30%", verdict(ratio >= 0.30)))
        rows.append((f"{name}: decide rate", f"**{decide:,.0f}** actions/s", ">= 20,000", verdict(decide >= 20_000)))
        used.append(f"systems, {name}: {figures['games']:,} bot games of its sample setups, {figures['events']:,} "
                    f"events, {figures['actions']:,} actions, {figures['repeat']} repeats")
    for m in (geometry or {}).get("maps", []):
        rows.append((f"heroscape, {m['map']} ({m['hexes']} hexes): pathfinding, the hot path of a move "
                     "(bench/heroscape_geometry.py)", f"reachable {m['reachable_per_s']:,.0f} searches/s; plan "
                     f"**{m['plans_per_s']:,.0f}** ways/s", "(reported)", "n/a"))
        rows.append((f"heroscape, {m['map']}: line of sight (R1), the hot path of an attack",
                     f"**{m['los_per_s']:,.0f}** checks/s", "(reported)", "n/a"))
    if bulk:
        rate = median(bulk["import_rates"])
        arrow = median(bulk["arrow_rates"])
        es = median(bulk["eventsourcing_rates"])
        rows.append((f"bulk import, JSONL -> DuckDB ({bulk['validation']}, {bulk['workers']} workers)",
                     f"**{rate:,.0f}** events/s", ">= 100,000 events/s", verdict(rate >= 100_000)))
        rows.append(("bulk import validated by folding only (a restore; not the target's validation)",
                     f"{bulk['fold_only_rate']:,.0f} events/s = {bulk['fold_only_rate'] / es:.1f}x eventsourcing",
                     "(reference)", "n/a"))
        rows.append(("bulk import vs DuckDB's own Arrow insert of the same rows",
                     f"{arrow:,.0f} rows/s; warlog = {rate / arrow:.1%} of it", "(reference)", "n/a"))
        rows.append(("bulk import vs eventsourcing 9 (SQLite)",
                     f"{es:,.0f} events/s; warlog = **{rate / es:.1f}x**", ">= 5x", verdict(rate / es >= 5)))
        rows.append(("peak RSS of the bulk import", f"{median(bulk['peak_rss_mib']):,.0f} MiB (largest worker "
                     f"{max(bulk['worker_peak_rss_mib']):,.0f} MiB)", "reported", "n/a"))
        curve = ", ".join(f"{c['rss_mib']:.0f} MiB after ~{c['games']:,} games" for c in bulk["rss_curve"])
        rows.append((f"bulk import RSS as games are stored (DuckDB memory_limit {bulk['memory_limit']})",
                     f"{curve}: **x{bulk['second_half_growth']:.2f}** over the second half", "bounded",
                     # DuckDB's memory reaches its cap after ~20,000 games: fewer say nothing about a bound
                     verdict(bulk["second_half_growth"] < 1.1) if bulk["games"] >= 40_000 else "n/a"))
        used.append(f"bulk: {bulk['games']:,} games ({bulk['distinct']:,} distinct cycled, fresh ids and hash "
                    f"chains), {bulk['events']:,} events, {bulk['repeat']} repeats; eventsourcing: the first "
                    f"{bulk['es_games']:,} games of the same file")
    if live:
        paced = live["summary"].pop("paced", None)
        for clients, s in live["summary"].items():
            rows.append((f"live appends, {clients} client(s): throughput vs GET /health",
                         f"{s['actions_rate']:,.0f} vs {s['health_rate']:,.0f} req/s = **{s['ratio']:.0%}**",
                         ">= 50%" if int(clients) == 128 else "(reported)",
                         verdict(s["ratio"] >= 0.5) if int(clients) == 128 else "n/a"))
            rows.append((f"live appends, {clients} client(s): latency p50 / p99",
                         f"{s['actions_p50_ms']:.1f} / **{s['actions_p99_ms']:.1f}** ms "
                         f"(/health {s['health_p50_ms']:.1f} / {s['health_p99_ms']:.1f} ms)"
                         + (f", {s['failures']} failed" if s["failures"] else ""),
                         # closed loop, no think time: mean latency = clients / throughput (Little's law), so
                         # 25 ms at 128 clients would take > 5,000 req/s; the paced row below is the target's
                         "(reported: closed loop)", "n/a"))
        if paced:
            rows.append((f"live appends, {paced['clients']} clients paced (one action per client every "
                         f"{paced['pace_s']:g} s): p50 / p99",
                         f"{paced['p50_ms']:.1f} / **{paced['p99_ms']:.1f}** ms at {paced['rate']:,.0f} req/s"
                         + (f", {paced['failures']} failed" if paced["failures"] else ""),
                         "p99 <= 25 ms", verdict(paced["p99_ms"] <= 25)))
        rows.append((f"peak RSS of the server during the live run (DuckDB memory_limit "
                     f"{live.get('memory_limit', 'none')})", f"{live['server_peak_rss_mib']:,.0f} MiB "
                     f"(samples start/middle/end: {', '.join(f'{x:.0f}' for x in live['server_rss_samples'])})",
                     "reported; bounded", "n/a"))
        phases = live.get("memory", [])
        if len(phases) >= 2:
            a, b = phases[0], phases[-1]
            growth = b["peak_rss_mib"] / a["peak_rss_mib"]
            rows.append(("server peak RSS vs games stored (a fresh server per size, the 128-client level)",
                         f"{a['peak_rss_mib']:,.0f} MiB over {a['games_stored']:,} games ({a['events_stored']:,} "
                         f"events); {b['peak_rss_mib']:,.0f} MiB over {b['games_stored']:,} games "
                         f"({b['events_stored']:,} events): **x{growth:.2f}** for "
                         f"x{b['games_stored'] / a['games_stored']:.1f} games",
                         "bounded", verdict(growth < 1.25)))
        used.append(f"live: {live['games']:,} games created; per level and repeat at most "
                    f"{', '.join(map(str, live['requests']))} requests for {live['levels']} clients "
                    f"(and a time cap), {live['repeat']} repeats"
                    + (f"; the database started with {phases[0]['games_stored'] - live['games']:,} finished games "
                       "(bulk-loaded)" if phases else "")
                    + (f", then {phases[-1]['games_stored']:,} for the second server" if len(phases) >= 2 else ""))
    if postgres and "skipped" not in postgres:
        rows.extend(postgres_rows(postgres))
        used.append(f"postgres: {postgres['games']:,} games, {postgres['clients']} clients for "
                    f"{postgres['seconds']:g} s per server; {postgres['fanout']['spectators']:,} spectators; "
                    f"{postgres['bulk']['games']:,} games imported (bench/postgres.py)")
    elif postgres:
        used.append(f"postgres: skipped ({postgres['skipped']})")
    if streams:
        rows.extend(streams_rows(streams))
        used.append(f"streams: {streams['streams']:,} idle streams over {streams['games']:,} games, "
                    f"{streams['seconds']:g} s measured (bench/streams.py)")
    if seek_out is not None:
        for label, key in (("cold (fresh process)", "cold"), ("warm (state cache)", "warm cache"),
                           ("warm DuckDB pages, state cache cleared", "warm DB")):
            m = re.search(rf"^{re.escape(key)}\b.*?p50 ([\d.]+) ms\s+p99 ([\d.]+) ms", seek_out, re.M)
            if m:
                p50, p99 = float(m.group(1)), float(m.group(2))
                limit = {"cold": 10, "warm cache": 2}.get(key)
                rows.append((f"seek {label}: p50 / p99", f"{p50:.2f} / **{p99:.2f}** ms",
                             f"p99 <= {limit} ms" if limit else "(reported)",
                             verdict(p99 <= limit) if limit else "n/a"))
        used.append(f"seek: bench/seek.py {' '.join(sizes['seek'])}")
    for r in (page or {}).get("systems", []):  # issue 32: the replay page per system (bench/replay_page.py)
        rows.append((f"replay page, {r['system']} ({r['events']} events): first contentful paint / board drawn "
                     "(cold cache)", f"{r['fcp_ms']:.0f} / **{r['board_ms']:.0f}** ms", "< 1 s",
                     verdict(r["board_ms"] < 1000)))
        rows.append((f"replay page, {r['system']}: a step (key press to board drawn), median / p95",
                     f"{r['step_median_ms']:.1f} / **{r['step_p95_ms']:.1f}** ms over {r['steps']} steps", "< 50 ms",
                     verdict(r["step_p95_ms"] < 50)))
    if page:
        used.append(f"replay page: the longest sample game of each system, bench/replay_page.py "
                    f"{' '.join(sizes['replay_page'])}; load average {page['load_before']} before, "
                    f"{page['load_after']} after")
    if stats_out is not None:
        size = None
        for line in stats_out.splitlines():
            head = re.match(r"^([\d,]+) games \(", line)
            if head:
                size = int(head.group(1).replace(",", ""))
                continue
            m = re.match(r"^(\S.*?)\s+([\d.]+)\s+([\d.]+)(\s+OVER)?$", line)
            if m and size:
                limit = 200 if size <= 100_000 else 1000
                rows.append((f"statistic {m.group(1)}, {size:,} games: median (cold)",
                             f"**{float(m.group(3)):.1f}** ms ({float(m.group(2)):.1f})", f"<= {limit} ms",
                             verdict(float(m.group(3)) <= limit)))
        used.append(f"statistics: bench/stats.py {' '.join(sizes['stats'])}")

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    lines = [
        "# Benchmark results",
        "",
        f"`make bench{'-quick' if args.quick else ''}` ({mode} sizes), finished "
        f"{datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')} in {time.perf_counter() - started:.0f} s, "
        f"commit {commit.stdout.strip() or '?'} (plus the working tree).",
        "Targets: issue 7. Each figure is the median over its repeats; ratios are taken within one run. "
        "The machine is shared, so absolute numbers are noisy; the ratios are the figures to read. "
        "Why the unmet targets are unmet, with profiles, and what would meet them: docs/performance.md.",
        "",
        "## Machine",
        "",
        "| | |",
        "| --- | --- |",
        *(f"| {k} | {v} |" for k, v in facts.items()),
        "",
        "## Figures",
        "",
        "| figure | result | target | |",
        "| --- | --- | --- | --- |",
        *(f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows),
        "",
        "## Sizes",
        "",
        *(f"- {u}" for u in used),
        "",
        "## Output of each script",
        "",
        *log,
    ]
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out} in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
