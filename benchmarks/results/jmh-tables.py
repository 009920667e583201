#!/usr/bin/env python3
"""Turns the JMH JSON results of benchmarks/run-jmh.sh into the Markdown tables of docs/benchmarks/jmh.md.

Usage: benchmarks/results/jmh-tables.py [benchmarks/results/jmh]
Each table names the command that produced it (the .cmd file beside each .json)."""
import json
import os
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "jmh")


def load(name):
    path = os.path.join(root, name + ".json")
    if not os.path.exists(path):
        return None, None
    with open(os.path.join(root, name + ".cmd")) as f:
        cmd = f.read().strip()
    with open(path) as f:
        return json.load(f), cmd


def percentile(metric, p):
    return metric["scorePercentiles"][p]


def overhead():
    data, cmd = load("overhead-t1")
    if data is None:
        return
    print("Command: `%s`\n" % cmd)
    floors = {r["benchmark"].rsplit(".", 1)[1]: r["primaryMetric"] for r in data if "FloorBenchmark" in r["benchmark"]}
    rows = [r for r in data if "OverheadBenchmark" in r["benchmark"]]
    direct = {r["params"]["idle"]: r["primaryMetric"] for r in rows if r["params"]["pipeline"] == "direct"}
    print("| idle | pipeline | p50 µs | p99 µs | p99.9 µs | p50 overhead µs | p99 overhead µs | p99 / p50 (overhead) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        idle, pipeline, m = r["params"]["idle"], r["params"]["pipeline"], r["primaryMetric"]
        d = direct[idle]
        o50 = percentile(m, "50.0") - percentile(d, "50.0")
        o99 = percentile(m, "99.0") - percentile(d, "99.0")
        ratio = "%.1f" % (o99 / o50) if pipeline != "direct" and o50 > 0 else "-"
        print("| %s | %s | %.2f | %.2f | %.2f | %s | %s | %s |" % (
            idle, pipeline, percentile(m, "50.0"), percentile(m, "99.0"), percentile(m, "99.9"),
            "-" if pipeline == "direct" else "%.2f" % o50, "-" if pipeline == "direct" else "%.2f" % o99, ratio))
    for name, m in sorted(floors.items()):
        print("| floor | %s | %.2f | %.2f | %.2f | - | - | - |" % (
            name, percentile(m, "50.0"), percentile(m, "99.0"), percentile(m, "99.9")))
    print()


def intake():
    print("| producers | Ingot | DJL-style | Triton-style | Ingot / DJL-style | Ingot / Triton-style | command |")
    print("|---:|---:|---:|---:|---:|---:|---|")
    for t in (1, 2, 4):
        data, cmd = load("intake-t%d" % t)
        if data is None:
            continue
        score = {r["params"]["pipeline"]: r["primaryMetric"] for r in data}

        def cell(k):
            return "%.2f M ± %.2f M" % (score[k]["score"] / 1e6, score[k]["scoreError"] / 1e6)
        print("| %d | %s | %s | %s | %.2f | %.2f | `%s` |" % (
            t, cell("ingot"), cell("djl-style"), cell("triton-style"),
            score["ingot"]["score"] / score["djl-style"]["score"],
            score["ingot"]["score"] / score["triton-style"]["score"], cmd.replace("|", "\\|")))
    print()


def alloc():
    print("| callers | benchmark | allocator | B/op (all threads) | µs/op | command |")
    print("|---:|---|---|---:|---:|---|")
    for t in (1, 16):
        data, cmd = load("alloc-t%d" % t)
        if data is None:
            continue
        for r in data:
            norm = r["secondaryMetrics"].get("gc.alloc.rate.norm")
            print("| %d | %s | %s | %.3f ± %.3f | %.2f | `%s` |" % (
                t, r["benchmark"].rsplit(".", 2)[-2] + "." + r["benchmark"].rsplit(".", 1)[1],
                r["params"].get("allocator", "-"), norm["score"], norm["scoreError"], r["primaryMetric"]["score"],
                cmd.replace("|", "\\|")))
    print()


if __name__ == "__main__":
    print("#### Overhead at concurrency 1\n")
    overhead()
    print("#### Intake\n")
    intake()
    print("#### Allocation\n")
    alloc()
