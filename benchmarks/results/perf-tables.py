#!/usr/bin/env python3
"""Turns the JSON reports of `ingot perf` (benchmarks/results/perf/*.json) into the Markdown tables of
docs/benchmarks/perf-transports.md.

Usage: benchmarks/results/perf-tables.py REPORT.json...   Each table names the command that produced it."""
import json
import sys


def fmt(value, digits=1):
    return "-" if value is None else ("%." + str(digits) + "f") % value


for path in sys.argv[1:]:
    with open(path) as f:
        run = json.load(f)
    level = "concurrency" if run["mode"] == "concurrency" else "rate/s"
    print("**%s** — `%s`\n" % (run["label"], run["command"]))
    print("| %s | infer/s | p50 µs | p90 µs | p99 µs | p99.9 µs | avg batch | server queue µs | server compute µs "
          "| stable |" % level)
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in run["results"]:
        l = r["latency_us"]
        lv = r["level"]
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            int(lv) if lv == int(lv) else lv, fmt(r["inferences_per_second"]), fmt(l["p50"]), fmt(l["p90"]),
            fmt(l["p99"]), fmt(l["p99.9"]), fmt(r["average_batch_size"], 2), fmt(r["server"]["queue_us"]),
            fmt(r["server"]["compute_us"]), "yes" if r["stable"] else "no"))
    print()
