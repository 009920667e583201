#!/usr/bin/env python3
"""Turns benchmarks/results/python/*.json (written by benchmarks/run-python.sh) into the tables of docs/benchmarks/python-backend.md."""

import glob
import json
import os
import statistics
import sys


def load(directory, pattern):
    runs = {}
    for path in sorted(glob.glob(os.path.join(directory, pattern))):
        round_number = int(path.rsplit("-r", 1)[1].split(".")[0])
        with open(path, encoding="utf-8") as source:
            runs[round_number] = json.load(source)
    return runs


def main(argv):
    directory = argv[0]
    direct = load(directory, "direct-loop-r*.json")
    rounds = sorted(direct)
    print("| round | plain loop p50 us | built-in c1 p50 us | Python c1 p50 us | Python c1 p99 us | added by the Python "
          "backend (p50) | added over the plain loop (p50) |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    added, over = [], []
    for r in rounds:
        builtin = load(directory, "add_sub-c1-r%d.json" % r)[r]["results"][0]["latency_us"]
        python = load(directory, "add_sub_python-c1-r%d.json" % r)[r]["results"][0]["latency_us"]
        loop = direct[r]["latency_us"]
        added.append(python["p50"] - builtin["p50"])
        over.append(python["p50"] - loop["p50"])
        print("| %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |" % (r, loop["p50"], builtin["p50"], python["p50"],
                                                              python["p99"], added[-1], over[-1]))
    print("| median | | | | | %.1f | %.1f |" % (statistics.median(added), statistics.median(over)))
    print()
    print("| round | model | c | infer/s | p50 us | p99 us | avg batch | us per request (1 / throughput) |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|")
    for r in rounds:
        for model in ("add_sub", "add_sub_python"):
            for concurrency in (1, 16):
                result = load(directory, "%s-c%d-r%d.json" % (model, concurrency, r))[r]["results"][0]
                print("| %d | %s | %d | %.0f | %.1f | %.1f | %.2f | %.1f |" % (
                    r, model, concurrency, result["inferences_per_second"], result["latency_us"]["p50"],
                    result["latency_us"]["p99"], result["average_batch_size"], 1e6 / result["inferences_per_second"]))
        loop = direct[r]
        print("| %d | plain loop | 1 | %.0f | %.1f | %.1f | 1 | %.1f |" % (
            r, loop["calls_per_second"], loop["latency_us"]["p50"], loop["latency_us"]["p99"],
            1e6 / loop["calls_per_second"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
