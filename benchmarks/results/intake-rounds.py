#!/usr/bin/env python3
"""Summarises benchmarks/intake-rounds.sh: per producer count, each pipeline's median over the rounds and Ingot's
ratio to each other pipeline, taken within each round (then the median and range of those ratios).

Usage: benchmarks/results/intake-rounds.py [benchmarks/results/intake-rounds]"""
import glob
import json
import os
import re
import statistics
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "intake-rounds")
scores = {}  # (producers, pipeline) -> {round: ops/s}
for path in glob.glob(os.path.join(root, "*-t*-*.json")):
    m = re.match(r"(\d+)-t(\d+)-(.+)\.json", os.path.basename(path))
    with open(path) as f:
        data = json.load(f)
    if data:
        scores.setdefault((int(m.group(2)), m.group(3)), {})[int(m.group(1))] = data[0]["primaryMetric"]["score"]

for producers in sorted({p for p, _ in scores}):
    pipelines = sorted(name for p, name in scores if p == producers)
    print("\n%d producers\n" % producers)
    print("| pipeline | median M req/s | rounds | Ingot / it: median (min–max) |")
    print("|---|---:|---:|---|")
    ingot = scores.get((producers, "ingot"), {})
    for name in pipelines:
        runs = scores[(producers, name)]
        ratios = [ingot[r] / runs[r] for r in runs if r in ingot and runs[r] > 0]
        ratio = "-" if name == "ingot" or not ratios else "%.2f× (%.2f–%.2f)" % (
            statistics.median(ratios), min(ratios), max(ratios))
        print("| %s | %.2f | %d | %s |" % (name, statistics.median(runs.values()) / 1e6, len(runs), ratio))
