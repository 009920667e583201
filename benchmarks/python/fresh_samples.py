#!/usr/bin/env python3
"""Summarizes the one-JVM-per-sample part of a results folder's run.sh (one JVM per way, pipeline and build, 64 in
flight; benchmarks/results/ipc-cache-2026-12-05, ipc-claim-2026-12-05): medians over rounds, how many runs of each
sample fell behind (an average batch under 7.5 of the maximum 8 with 64 in flight: the instance found fewer than a
full batch waiting, so the submitting thread, not the instance, set the pace), and the per-round ratios of Ingot's
listener and batch ways (this build and BASE's) to the DJL-style batcher, the better baseline and the hand-off floor
of the same round.
Usage: python3 benchmarks/python/fresh_samples.py OUT_DIR/fresh"""
import glob
import json
import os
import statistics
import sys

by = {}
for path in glob.glob(os.path.join(sys.argv[1], "round-*", "*", "in-flight.json")):
    round_ = int(os.path.basename(os.path.dirname(os.path.dirname(path))).split("-")[1])
    build = os.path.basename(os.path.dirname(path)).rsplit("-", 1)[1]
    for s in json.load(open(path))["samples"]:
        by[(round_, s["way"], s["pipeline"], build)] = (s["throughput"], s["averageBatch"])
rounds = sorted({k[0] for k in by})


def series(way, pipeline, build="after"):
    return [by[(r, way, pipeline, build)][0] for r in rounds if (r, way, pipeline, build) in by]


print("Medians over %d rounds (one JVM per sample), requests/s at 64 in flight:\n" % len(rounds))
print("| sample | median | range | average batch (median) | runs under 7.5 per batch |")
print("|---|---:|---:|---:|---:|")
for way, pipeline, build in sorted({k[1:] for k in by}):
    values = series(way, pipeline, build)
    batches = [by[(r, way, pipeline, build)][1] for r in rounds if (r, way, pipeline, build) in by]
    behind = sum(1 for b in batches if b < 7.5) if pipeline == "ingot" else None
    print("| %s %s (%s) | %s | %s–%s | %.2f | %s |" % (way, pipeline, build,
          format(int(statistics.median(values)), ","), format(int(min(values)), ","), format(int(max(values)), ","),
          statistics.median(batches), "" if behind is None else "%d of %d" % (behind, len(batches))))
print()
print("Per-round ratios (median, range):\n")
print("| Ingot's way (build) | / DJL-style | / the better baseline | / the hand-off floor |")
print("|---|---:|---:|---:|")
for way in ("async", "batch"):
    for build in ("after", "before"):
        djl, better, floor = [], [], []
        for r in rounds:
            ingot = by.get((r, way, "ingot", build))
            d = by.get((r, "async", "djl-style", "after"))
            t = by.get((r, "async", "triton-style", "after"))
            f = by.get((r, "async", "hand-off-floor", "after"))
            if ingot and d and t and f:
                djl.append(ingot[0] / d[0])
                better.append(ingot[0] / max(d[0], t[0]))
                floor.append(ingot[0] / f[0])
        if djl:
            name = "listener" if way == "async" else way
            print("| %s (%s) | **%.2f×** (%.2f–%.2f) | %.2f× | %.2f× |" % (name, build, statistics.median(djl),
                  min(djl), max(djl), statistics.median(better), statistics.median(floor)))
floor_djl = [by[(r, "async", "hand-off-floor", "after")][0] / by[(r, "async", "djl-style", "after")][0]
             for r in rounds if (r, "async", "hand-off-floor", "after") in by and (r, "async", "djl-style", "after") in by]
if floor_djl:
    print("\nThe hand-off floor over DJL-style, per round: median %.2f× (%.2f–%.2f×): 3× DJL-style is %.0f%% of the "
          "floor." % (statistics.median(floor_djl), min(floor_djl), max(floor_djl),
                      300 / statistics.median(floor_djl)))
