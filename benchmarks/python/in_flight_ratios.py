#!/usr/bin/env python3
"""Per-round ratios of InFlightComparison's in-flight.json: Ingot's way over each baseline in the same round (the
baselines' asynchronous form for the listener and batch ways, their blocking callers for blocking-run, i.e. Ingot's
blocking callers through submitAndRun), and the median over rounds of each ratio.
Usage: python3 benchmarks/python/in_flight_ratios.py in-flight.json"""
import json
import statistics
import sys

samples = json.load(open(sys.argv[1]))["samples"]
by = {(s["way"], s["pipeline"], s["inFlight"], s["round"]): s["throughput"] for s in samples}
levels = sorted({s["inFlight"] for s in samples})
rounds = sorted({s["round"] for s in samples})
print("| in flight | Ingot's way | median Ingot / DJL-style (per-round range) | median Ingot / Triton-style | "
      "median Ingot / the better of the two |")
print("|---:|---|---:|---:|---:|")
for level in levels:
    for way in ("blocking", "blocking-run", "async", "batch"):
        base = {"batch": "async", "blocking-run": "blocking"}.get(way, way)
        djl, triton, better = [], [], []
        for r in rounds:
            ingot = by.get((way, "ingot", level, r))
            d = by.get((base, "djl-style", level, r))
            t = by.get((base, "triton-style", level, r))
            if ingot is not None and d and t:
                djl.append(ingot / d)
                triton.append(ingot / t)
                better.append(ingot / max(d, t))
        if not djl:
            continue  # a way the run did not measure (before blocking-run existed, or an only= run)
        name = "listener" if way == "async" else way
        print("| %d | %s | **%.2f×** (%.2f–%.2f) | %.2f× | %.2f× |" % (level, name, statistics.median(djl), min(djl),
              max(djl), statistics.median(triton), statistics.median(better)))
