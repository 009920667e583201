#!/usr/bin/env python3
"""Markdown tables of SequenceBatcherBenchmark and ResponseCacheBenchmark from the JMH JSON files given.

Usage: benchmarks/results/sequence-cache/tables.py run-1-t1.json [run-1-t4.json ...]
Ratios are against the baseline of the same run and the same other parameters: the dynamic batcher for the
sequence batcher, the model without a cache for the response cache."""
import json
import sys

BASELINE = {"scheduler": "dynamic", "cache": "none"}


def rows(path):
    with open(path) as f:
        for entry in json.load(f):
            params = dict(entry.get("params", {}))
            metric = entry["primaryMetric"]
            yield entry["benchmark"].split(".")[-2], entry["threads"], params, metric


def key_of(params, varied):
    return tuple(sorted((k, v) for k, v in params.items() if k != varied))


for path in sys.argv[1:]:
    entries = list(rows(path))
    base = {}
    for bench, threads, params, metric in entries:
        for varied, value in BASELINE.items():
            if params.get(varied) == value:
                base[(bench, threads, varied, key_of(params, varied))] = metric["scorePercentiles"]["50.0"]
    print("\n%s\n" % path)
    print("| benchmark | threads | parameters | p50 µs | p99 µs | p99.9 µs | mean µs | p50 / baseline p50 |")
    print("|---|---:|---|---:|---:|---:|---:|---:|")
    for bench, threads, params, metric in entries:
        varied = next(v for v in BASELINE if v in params)
        reference = base.get((bench, threads, varied, key_of(params, varied)))
        p = metric["scorePercentiles"]
        ratio = "%.2f" % (p["50.0"] / reference) if reference else "-"
        label = ", ".join("%s=%s" % kv for kv in sorted(params.items()))
        print("| %s | %d | %s | %.2f | %.2f | %.1f | %.2f | %s |" % (bench, threads, label, p["50.0"], p["99.0"],
                                                                 p["99.9"], metric["score"], ratio))
