#!/usr/bin/env python3
"""The per-cell tables of a sweep: reads run-sweep.sh's sweep.tsv and each run's summary.json and raw.csv, and
prints Markdown, one table per kind of cell.

    python3 benchmarks/portable/summarize.py [WORK/harness/results] [--since 2026-12-02T00:00:00Z]

A cell run more than once for a system counts with its latest run.
"""

import csv
import json
import statistics
import sys
from pathlib import Path

CHAOS = ("chaos_crash_recovery", "chaos_repeated_kills", "chaos_postgres_restart", "chaos_pg_backend_kill",
         "chaos_pool_exhaustion")
PRESSURE = {"idle_in_tx_saturation": "idle_1", "active_readers": "readers_1", "sustained_high_load": "pressure_1"}
CHAOS_PHASE = {"chaos_crash_recovery": "kill", "chaos_repeated_kills": "repeated", "chaos_postgres_restart": "restart",
               "chaos_pg_backend_kill": "kills", "chaos_pool_exhaustion": "exhaustion"}


def latest_runs(results, since):
    runs = {}
    for line in (results / "sweep.tsv").read_text().splitlines():
        cell, system, run_id, unfinished, at = (line.split("\t") + [""] * 5)[:5]
        if at >= since:
            runs[(cell, system)] = (run_id, unfinished)
    return runs


def phase_metric(summary, system, phase, metric):
    block = summary["systems"].get(system, {}).get("phases", {}).get(phase, {})
    value = block.get("metrics", {}).get(metric)
    return value.get("median") if isinstance(value, dict) else None


def phase_value(summary, system, phase, key):
    return summary["systems"].get(system, {}).get("phases", {}).get(phase, {}).get(key)


def adapter_series(run_dir, metric):
    with open(run_dir / "raw.csv", newline="") as raw:
        return [(float(r["elapsed_s"]), float(r["value"])) for r in csv.DictReader(raw)
                if r.get("subject_kind") == "adapter" and r["metric"] == metric and r["value"] not in ("", "nan")]


def observer_series(run_dir, metric, subject):
    with open(run_dir / "raw.csv", newline="") as raw:
        return [(float(r["elapsed_s"]), float(r["value"])) for r in csv.DictReader(raw)
                if r["metric"] == metric and r.get("subject") == subject and r["value"] not in ("", "nan")]


def fmt(value, digits=0):
    if value is None:
        return "–"
    return f"{value:,.{digits}f}"


def ratio(part, whole):
    return None if part is None or not whole else 100.0 * part / whole


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    since = argv[argv.index("--since") + 1] if "--since" in argv else ""
    if since in args:
        args.remove(since)
    results = Path(args[0]) if args else Path(__file__).resolve().parent / "work" / "harness" / "results"
    runs = latest_runs(results, since)
    systems = list(dict.fromkeys(system for _, system in runs))

    def load(cell, system):
        run = runs.get((cell, system))
        if not run or run[0] == "failed":
            return None, None, run[1] if run else None
        run_dir = results / run[0]
        if not (run_dir / "summary.json").exists():
            return None, None, run[1]
        return json.loads((run_dir / "summary.json").read_text()), run_dir, run[1]

    print("### Throughput (depth-target 4,000, completions a second, median of the clean phase)\n")
    print("| system | W = 4 | W = 16 | W = 64 |")
    print("|---|---|---|---|")
    for system in systems:
        cells = []
        for w in (4, 16, 64):
            summary, _, _ = load(f"throughput_w{w}", system)
            cells.append(fmt(phase_metric(summary, system, "clean", "completion_rate")) if summary else "–")
        print(f"| {system} | " + " | ".join(cells) + " |")

    print("\n### Chaos (600 jobs/s offered, W = 32)\n")
    print("| cell | system | baseline /s | during /s | recovery /s | recovery ÷ baseline | back to 90 % after, s"
          " | jobs_lost (harness) | unfinished at the end | claim p99 in recovery, ms |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for cell in CHAOS:
        for system in systems:
            summary, _, unfinished = load(cell, system)
            if summary is None:
                if (cell, system) in runs:
                    print(f"| {cell} | {system} | failed | | | | | | {unfinished} | |")
                continue
            base = phase_metric(summary, system, "baseline", "completion_rate")
            during = phase_metric(summary, system, CHAOS_PHASE[cell], "completion_rate")
            recovery = phase_metric(summary, system, "recovery", "completion_rate")
            print(f"| {cell} | {system} | {fmt(base)} | {fmt(during)} | {fmt(recovery)} | "
                  f"{fmt(ratio(recovery, base))} % | {fmt(phase_value(summary, system, 'recovery', 'chaos_recovery_time_s'))}"
                  f" | {fmt(phase_value(summary, system, 'recovery', 'jobs_lost'))} | {unfinished} | "
                  f"{fmt(phase_metric(summary, system, 'recovery', 'claim_p99_ms'))} |")

    print("\n### Pressure (600 jobs/s offered, W = 32)\n")
    print("| cell | system | clean /s | under pressure /s | ÷ clean | recovery /s | dead tuples: clean median,"
          " peak, last | claim p99 under pressure, ms | unfinished at the end |")
    print("|---|---|---|---|---|---|---|---|---|")
    for cell, phase in PRESSURE.items():
        for system in systems:
            summary, run_dir, unfinished = load(cell, system)
            if summary is None:
                if (cell, system) in runs:
                    print(f"| {cell} | {system} | failed | | | | | | {unfinished} |")
                continue
            clean = phase_metric(summary, system, "clean_1", "completion_rate")
            under = phase_metric(summary, system, phase, "completion_rate")
            dead = dead_tuples(run_dir, summary, system)
            print(f"| {cell} | {system} | {fmt(clean)} | {fmt(under)} | {fmt(ratio(under, clean))} % | "
                  f"{fmt(phase_metric(summary, system, 'recovery_1', 'completion_rate'))} | {dead} | "
                  f"{fmt(phase_metric(summary, system, phase, 'claim_p99_ms'))} | {unfinished} |")

    print("\n### Long horizon (600 jobs/s offered, W = 32, one hour after a 2-minute warm-up)\n")
    print("| system | first 10 min /s | last 10 min /s | last ÷ first | table + indexes at 20 min, MB | at the end, MB"
          " | unfinished at the end |")
    print("|---|---|---|---|---|---|---|")
    for system in systems:
        summary, run_dir, unfinished = load("long_horizon", system)
        if summary is None:
            continue
        rates = adapter_series(run_dir, "completion_rate")
        start = min(t for t, _ in rates) + 120
        end = max(t for t, _ in rates)
        first = statistics.median(v for t, v in rates if start <= t < start + 600)
        last = statistics.median(v for t, v in rates if end - 600 <= t <= end)
        size = sum_sizes(run_dir, summary, system)
        at20 = next((v for t, v in size if t >= start + 1080), None)
        print(f"| {system} | {fmt(first)} | {fmt(last)} | {fmt(ratio(last, first))} % | {fmt(at20, 1)} | "
              f"{fmt(size[-1][1] if size else None, 1)} | {unfinished} |")


def dead_tuples(run_dir, summary, system):
    subject = event_table(run_dir, system)
    series = observer_series(run_dir, "n_dead_tup", subject) if subject else []
    if not series:
        return "–"
    clean = phase_metric(summary, system, "clean_1", f"n_dead_tup@{subject}")
    return f"{fmt(clean)}, {fmt(max(v for _, v in series))}, {fmt(series[-1][1])}"


def sum_sizes(run_dir, summary, system):
    subject = event_table(run_dir, system)
    return observer_series(run_dir, "total_relation_size_mb", subject) if subject else []


def event_table(run_dir, system):
    manifest = json.loads((run_dir / "manifest.json").read_text())
    adapter = manifest.get("adapters", {}).get(system, {})
    tables = adapter.get("event_tables") or adapter.get("descriptor", {}).get("event_tables") or []
    return tables[-1] if tables else None


if __name__ == "__main__":
    main(sys.argv[1:])
