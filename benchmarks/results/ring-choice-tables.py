#!/usr/bin/env python3
"""The tables of docs/benchmarks/ring-choice.md from one benchmarks/ring-choice.sh run: per part (the ring alone, the
batchers alone, the whole pipeline) and producer count, each ring's median over the rounds and the fetch-and-add ring's
ratio to each Disruptor variant, taken within each round (median and range over the rounds).

Usage: benchmarks/results/ring-choice-tables.py DIR"""
import glob
import json
import os
import re
import statistics
import sys

PARTS = [  # folder, title, name of the fetch-and-add ring there, the Disruptor variants' names
    ("ring", "The ring alone (RingBenchmark)", "fetch-and-add", ["disruptor", "disruptor-next"]),
    ("intake-batcher", "The batchers alone (IntakeBenchmark scope=batcher)", "ingot",
     ["ingot-disruptor", "ingot-disruptor-next"]),
    ("intake-pipeline", "The whole pipeline (IntakeBenchmark scope=pipeline)", "ingot",
     ["ingot-disruptor", "ingot-disruptor-next"]),
]


def load(folder):
    """(producers, name) -> {round: ops/s} from the JMH JSON files <round>-t<P>-<name>.json."""
    scores = {}
    for path in glob.glob(os.path.join(folder, "*-t*-*.json")):
        m = re.match(r"(\d+)-t(\d+)-(.+)\.json", os.path.basename(path))
        try:
            with open(path) as f:
                data = json.load(f)
        except ValueError:  # a fork still writing, or one that failed: its log says why
            print("skipped %s: not JSON yet" % path, file=sys.stderr)
            continue
        if m and data:
            scores.setdefault((int(m.group(2)), m.group(3)), {})[int(m.group(1))] = data[0]["primaryMetric"]["score"]
    return scores


def ratio(base, other):
    rounds = [r for r in base if r in other and other[r] > 0]
    if not rounds:
        return "–"
    values = [base[r] / other[r] for r in rounds]
    return "**%.2f×** (%.2f–%.2f)" % (statistics.median(values), min(values), max(values))


root = sys.argv[1]
print("Run: " + open(os.path.join(root, "run.txt")).read().strip().replace("\n", "; "))
for folder, title, faa, variants in PARTS:
    scores = load(os.path.join(root, folder))
    if not scores:
        continue
    print("\n%s, M items or requests/s (median of the rounds) and the fetch-and-add ring's ratio to the Disruptor's,"
          " taken within each round: median (range)\n" % title)
    print("| producers | rounds | fetch-and-add | Disruptor tryNext | Disruptor next | fetch-and-add / tryNext"
          " | fetch-and-add / next |")
    print("|---:|---:|---:|---:|---:|---|---|")
    for producers in sorted({p for p, _ in scores}):
        base = scores.get((producers, faa), {})
        cells = [base] + [scores.get((producers, v), {}) for v in variants]
        medians = ["%.2f" % (statistics.median(c.values()) / 1e6) if c else "–" for c in cells]
        print("| %d | %d | %s | %s | %s | %s | %s |" % (producers, len(base), *medians,
                                                         *(ratio(base, c) for c in cells[1:])))
