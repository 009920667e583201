#!/usr/bin/env python3
"""Summarizes run.sh: per sample the median throughput over rounds (range, average batch), and per round each sample
over the hand-off floor and over the DJL-style batcher of the same round (medians, ranges).
Usage: python3 summarize.py OUT_DIR/samples"""
import glob
import json
import os
import statistics
import sys

by = {}
for path in glob.glob(os.path.join(sys.argv[1], "round-*", "*", "in-flight.json")):
    round_ = int(os.path.basename(os.path.dirname(os.path.dirname(path))).split("-")[1])
    for s in json.load(open(path))["samples"]:
        by[(round_, s["pipeline"])] = (s["throughput"], s["averageBatch"])
rounds = sorted({r for r, _ in by})
pipelines = ["hand-off-floor", "ingot-batcher", "ingot", "djl-style", "djl-style-batcher"]


def ratio(name, reference):
    values = [by[(r, name)][0] / by[(r, reference)][0] for r in rounds if (r, name) in by and (r, reference) in by]
    return "%.2f× (%.2f–%.2f)" % (statistics.median(values), min(values), max(values)) if values else ""


print("64 requests in flight, one submitter (async), max batch 8, one JVM per sample, %d rounds:\n" % len(rounds))
print("| pipeline | median requests/s (range) | average batch | / the hand-off floor, per round | / DJL-style, per round |")
print("|---|---:|---:|---:|---:|")
for name in pipelines:
    values = [by[(r, name)][0] for r in rounds if (r, name) in by]
    if not values:
        continue
    batches = [by[(r, name)][1] for r in rounds if (r, name) in by]
    print("| %s | %s (%s–%s) | %.2f | %s | %s |" % (name, format(int(statistics.median(values)), ","),
          format(int(min(values)), ","), format(int(max(values)), ","), statistics.median(batches),
          ratio(name, "hand-off-floor"), ratio(name, "djl-style")))
