#!/usr/bin/env python3
"""Tables for docs/benchmarks/adaptive-batching.md (§11) from tune-compare.sh's sweeps: per arrival process, the
bundled static config (candidate 1), the best static candidate, the best adaptive and the best AIMD candidate (the
most throughput with p99 within the budget and no error; within 2% the lower p99 wins, as `ingot tune` chooses), and
how many of each policy's candidates met the budget. Usage: tune-tables.py [RATE]"""
import csv, os, sys

here = os.path.dirname(os.path.abspath(__file__))
rate = sys.argv[1] if len(sys.argv) > 1 else "1500"

def policy(row):
    p = row["parameters"]
    return "adaptive" if "adaptive" in p else "aimd" if "aimd" in p else "static"

def best(rows):
    ok = [r for r in rows if r["slo_met"] == "true" and r["errors"] == "0"]
    if not ok:
        return None
    top = max(float(r["throughput_infer_per_s"]) for r in ok)
    near = [r for r in ok if float(r["throughput_infer_per_s"]) >= 0.98 * top]
    return min(near, key=lambda r: float(r["p99_us"]))

def describe(r):
    return (f"#{r['candidate']} {r['instances']}x, max {r['max_batch_size']}, delay {r['max_queue_delay_us']}"
            f"{', pref ' + r['preferred_batch_size'] if r['preferred_batch_size'] else ''}")

print(f"| arrivals ({rate}/s) | configuration | candidate | infer/s | p50 ms | p99 ms | avg batch | met / measured |")
print("|---|---|---|---|---|---|---|---|")
for arrivals in ("constant", "poisson", "bursty"):
    path = os.path.join(here, f"tune-{arrivals}-{rate}", "candidates.csv")
    if not os.path.exists(path):
        continue
    rows = list(csv.DictReader(open(path)))
    bundled = rows[0]
    groups = {"static": [], "adaptive": [], "aimd": []}
    for r in rows:
        groups[policy(r)].append(r)
    lines = [("bundled static", bundled, "")]
    for name in ("static", "adaptive", "aimd"):
        met = sum(1 for r in groups[name] if r["slo_met"] == "true")
        lines.append((f"best {name}", best(groups[name]), f"{met} / {len(groups[name])}"))
    for label, r, count in lines:
        if r is None:
            print(f"| {arrivals} | {label} | none met 10 ms | | | | | {count} |")
            continue
        print(f"| {arrivals} | {label} | {describe(r)} | {float(r['throughput_infer_per_s']):.1f} | "
              f"{float(r['p50_us']) / 1000:.2f} | {float(r['p99_us']) / 1000:.2f} | {r['avg_batch_size']} | {count} |")
