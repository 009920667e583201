#!/usr/bin/env python3
"""Turns benchmarks/results/python-backend/*.json (written by benchmarks/run-python-backend.sh) into BENCHMARKS.md's
tables: per round, the empty Python model through Ingot at concurrency 1 and 16 against its execute() in a plain
loop (and an earlier build's Ingot where BASE was given), and a decoupled model's time per request at 1, 16 and 64
responses, whose slope is the cost of one streamed response."""

import glob
import json
import os
import statistics
import sys


def load(path):
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as source:
        return json.load(source)


def perf(directory, name):
    data = load(os.path.join(directory, name))
    return None if data is None else data["results"][0]


def main(argv):
    directory = argv[0]
    rounds = sorted(int(path.rsplit("-r", 1)[1].split(".")[0])
                    for path in glob.glob(os.path.join(directory, "loop-r*.json")))
    print("| round | plain loop p50 us | Ingot c1 p50 us | c1 p99 us | added over the loop (p50) | earlier build c1 p50 "
          "us | c16 infer/s | c16 us per request | earlier build c16 infer/s |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    added = []
    for r in rounds:
        loop = load(os.path.join(directory, "loop-r%d.json" % r))["latency_us"]
        c1 = perf(directory, "ingot-c1-r%d.json" % r)
        c16 = perf(directory, "ingot-c16-r%d.json" % r)
        base1 = perf(directory, "base-c1-r%d.json" % r)
        base16 = perf(directory, "base-c16-r%d.json" % r)
        added.append(c1["latency_us"]["p50"] - loop["p50"])
        print("| %d | %.1f | %.1f | %.1f | %.1f | %s | %.0f | %.1f | %s |" % (
            r, loop["p50"], c1["latency_us"]["p50"], c1["latency_us"]["p99"], added[-1],
            "%.1f" % base1["latency_us"]["p50"] if base1 else "-", c16["inferences_per_second"],
            1e6 / c16["inferences_per_second"], "%.0f" % base16["inferences_per_second"] if base16 else "-"))
    print("| median | | | | %.1f | | | | |" % statistics.median(added))
    print()
    print("| round | 1 response p50 us | 16 responses p50 us | 64 responses p50 us | per streamed response (64 - 1) / 63 "
          "us |")
    print("|---:|---:|---:|---:|---:|")
    slopes = []
    for r in rounds:
        stream = load(os.path.join(directory, "stream-r%d.json" % r)) or []
        p50 = {int(entry["params"]["responses"]): entry["primaryMetric"]["scorePercentiles"]["50.0"]
               for entry in stream}
        if 1 in p50 and 64 in p50:
            slopes.append((p50[64] - p50[1]) / 63)
            print("| %d | %.1f | %.1f | %.1f | %.1f |" % (r, p50[1], p50.get(16, float("nan")), p50[64], slopes[-1]))
    if slopes:
        print("| median | | | | %.1f |" % statistics.median(slopes))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
