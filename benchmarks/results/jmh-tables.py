#!/usr/bin/env python3
"""Turns the JMH JSON results of benchmarks/run-jmh.sh into the Markdown tables of BENCHMARKS.md.

Usage: benchmarks/results/jmh-tables.py [benchmarks/results/jmh]
Each table row states the command that produced it (the .cmd file beside each .json)."""
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


def short(benchmark):
    return benchmark.rsplit(".", 1)[1]


def intake():
    print("### (a) Ring intake: requests/s into a batching pipeline (max batch 64, 64 in flight per producer)\n")
    print("| producers | Ingot ring + batcher | Ingot core API | LinkedBlockingQueue | ArrayBlockingQueue "
          "| batcher / LBQ | batcher / ABQ | command |")
    print("|---|---|---|---|---|---|---|---|")
    for t in (1, 2, 4):
        data, cmd = load("intake-t%d" % t)
        if data is None:
            continue
        score = {r["params"]["intake"]: r["primaryMetric"] for r in data}

        def cell(k):
            m = score[k]
            return "%.0f ± %.0f" % (m["score"], m["scoreError"])

        b = score["ingotBatcher"]["score"]
        print("| %d | %s | %s | %s | %s | %.2f | %.2f | `%s` |" % (
            t, cell("ingotBatcher"), cell("ingotCore"), cell("linkedBlockingQueue"), cell("arrayBlockingQueue"),
            b / score["linkedBlockingQueue"]["score"], b / score["arrayBlockingQueue"]["score"], cmd))
    print()


def runtime_assembly():
    """Mean of the runtime's own compute_input per batch over the measurement iterations of realInstance."""
    path = os.path.join(root, "assembly.txt")
    result = {}
    if not os.path.exists(path):
        return result
    params = None
    measuring = False
    samples = {}
    for line in open(path):
        if line.startswith("# Benchmark: "):
            params = None if not line.strip().endswith("realInstance") else "pending"
        elif line.startswith("# Parameters: (batch = ") and params == "pending":
            inner = line.split("(", 1)[1].rstrip().rstrip(")")
            kv = dict(part.strip().split(" = ") for part in inner.split(","))
            params = (int(kv["batch"]), int(kv["size"]))
        elif line.startswith("# Warmup Iteration"):
            measuring = False
        elif line.startswith("Iteration "):
            measuring = True
        elif line.startswith("[runtime assembly]") and isinstance(params, tuple) and measuring:
            ns = float(line.split(":", 1)[1].split("ns")[0])
            samples.setdefault(params, []).append(ns)
    for key, values in samples.items():
        result[key] = sum(values) / len(values)
    return result


def assembly():
    data, cmd = load("assembly")
    if data is None:
        return
    measured = runtime_assembly()
    print("### (b) Batch assembly into pinned staging vs one memcpy of B·S bytes\n")
    print("Command: `%s`\n" % cmd)
    print("| B | S (bytes) | memcpy ceiling GB/s | copy loop GB/s | loop / ceiling | runtime assembly GB/s "
          "(its compute_input) | runtime / ceiling | real instance µs/batch (incl. hand-off) |")
    print("|---|---|---|---|---|---|---|---|")
    rows = {}
    for r in data:
        key = (int(r["params"]["batch"]), int(r["params"]["size"]))
        rows.setdefault(key, {})[short(r["benchmark"])] = r["primaryMetric"]["score"]
    for (b, s), m in sorted(rows.items()):
        gbps = {k: b * s / (v * 1e3) for k, v in m.items()}  # bytes / (us * 1e3) = GB/s
        ns = measured.get((b, s))
        if b == 1:
            runtime, ratio = "pass-through (no copy)", "-"
        elif ns:
            runtime = "%.2f" % (b * s / ns)
            ratio = "%.2f" % (b * s / ns / gbps["memcpyCeiling"])
        else:
            runtime, ratio = "-", "-"
        print("| %d | %d | %.2f | %.2f | %.2f | %s | %s | %.1f |" % (
            b, s, gbps["memcpyCeiling"], gbps["copyLoop"], gbps["copyLoop"] / gbps["memcpyCeiling"],
            runtime, ratio, m["realInstance"]))
    print()


def overhead():
    print("### (c) In-process overhead: identity through the core vs the engine called directly (µs)\n")
    print("| threads | elements | idle | path | p50 | p90 | p99 | p99.9 | mean | command |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    diffs = []
    for name in ("overhead-t1", "overhead-t16"):
        data, cmd = load(name)
        if data is None:
            continue
        by = {}
        for r in data:
            p = r["primaryMetric"]["scorePercentiles"]
            key = (r["threads"], r["params"]["elements"], r["params"]["idle"])
            by.setdefault(key, {})[short(r["benchmark"])] = (p, r["primaryMetric"]["score"])
            print("| %d | %s | %s | %s | %.2f | %.2f | %.2f | %.2f | %.2f | `%s` |" % (
                r["threads"], r["params"]["elements"], r["params"]["idle"], short(r["benchmark"]), p["50.0"],
                p["90.0"], p["99.0"], p["99.9"], r["primaryMetric"]["score"], cmd))
        for key, m in sorted(by.items()):
            if "core" in m and "direct" in m:
                diffs.append((key, m["core"][0]["50.0"] - m["direct"][0]["50.0"],
                              m["core"][0]["99.0"] - m["direct"][0]["99.0"]))
    print()
    print("Overhead = core − direct (µs):\n")
    print("| threads | elements | idle | p50 overhead | p99 overhead |")
    print("|---|---|---|---|---|")
    for (t, e, i), d50, d99 in diffs:
        print("| %d | %s | %s | %.2f | %.2f |" % (t, e, i, d50, d99))
    print()


def alloc():
    print("### (d) Allocation per request in steady state (`-prof gc`, all threads, bytes/op)\n")
    print("| threads | elements | core B/op | direct B/op | core − direct | command |")
    print("|---|---|---|---|---|---|")
    for name in ("alloc-t1", "alloc-t16"):
        data, cmd = load(name)
        if data is None:
            continue
        by = {}
        for r in data:
            norm = r["secondaryMetrics"].get("gc.alloc.rate.norm", {}).get("score", float("nan"))
            by.setdefault((r["threads"], r["params"]["elements"]), {})[short(r["benchmark"])] = norm
        for (t, e), m in sorted(by.items()):
            print("| %d | %s | %.1f | %.1f | %.1f | `%s` |" % (t, e, m["core"], m["direct"],
                                                              m["core"] - m["direct"], cmd))
    print()


intake()
assembly()
overhead()
alloc()
