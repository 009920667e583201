#!/usr/bin/env python3
"""Tables for docs/benchmarks/slo.md from slo-compare.sh's sweeps (benchmarks/results/adaptive/slo/<model>-<arrivals>/).

For each model and arrival process, each configuration's sweep over the same ladder of mean rates gives:
  * throughput at the SLO: the most inferences/s at a level whose p99 is within the SLO, with no failed request;
  * SLO violations: the share of requests over the SLO at that level, and the number of levels up to it where the
    share exceeded the p99 allowance (1 %);
  * p99 at the same throughput: each configuration's p99 at the rate `ingot tune` chose the best static
    configuration for, and the geometric mean over every level that all four delivered (within 2 % of the rate)
    of adaptive's p99 over the best static's.
Usage: [SLO_OUT=DIR] slo-tables.py [MODEL_PREFIX...]   (DIR: slo-compare.sh's SLO_OUT; default ./slo)"""
import glob, json, math, os, re, sys

here = os.environ.get("SLO_OUT") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "slo")
prefixes = sys.argv[1:]
configs = [("static", "bundled static"), ("best", "best static (tune)"), ("aimd", "AIMD"), ("adaptive", "adaptive")]
# Variants a model's sweep may add (slo-compare.sh resnet50: the adaptive policy on tune's instance count), listed in
# the first table when their sweep exists.
optional = [("adaptive_1x", "adaptive on one instance")]
order = {"constant": 0, "poisson": 1, "bursty": 2}


def load(path):
    if not os.path.exists(path):
        return None
    return json.load(open(path))


def within(row, slo_us):
    p99 = row["latency_us"]["p99"]
    return p99 is not None and p99 <= slo_us and row["errors"] == 0


def at_slo(doc, slo_us):
    ok = [r for r in doc["results"] if within(r, slo_us)]
    return max(ok, key=lambda r: r["inferences_per_second"]) if ok else None


def violations(row):
    return 100.0 * row.get("over_threshold", 0) / row["requests"] if row["requests"] else 0.0


def delivered(row):
    return row["inferences_per_second"] >= 0.98 * row["level"]


def fmt(value, digits=1):
    return "–" if value is None else f"{value:,.{digits}f}"


dirs = sorted(glob.glob(os.path.join(here, "*-*")), key=lambda d: (d.rsplit("-", 1)[0], order.get(d.rsplit("-", 1)[1], 9)))
print("| model | arrivals | configuration | throughput at SLO (infer/s) | × best static | rate | p99 ms there"
      " | over SLO there | levels over 1 % | avg batch |")
print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
summary = []
for d in dirs:
    name = os.path.basename(d)
    model, arrivals = name.rsplit("-", 1)
    if name == "models" or (prefixes and not any(model.startswith(p) for p in prefixes)):
        continue
    docs = {key: load(os.path.join(d, f"{model}_{key}.json")) for key, _ in configs + optional}
    present = configs + [(key, label) for key, label in optional if docs[key] is not None]
    if docs["static"] is None:
        continue
    slo_us = docs["static"]["latency_threshold_us"]
    tops = {key: at_slo(doc, slo_us) if doc else None for key, doc in docs.items()}
    best_top = tops["best"]["inferences_per_second"] if tops["best"] else None
    for key, label in present:
        doc, top = docs[key], tops[key]
        if doc is None:
            print(f"| {model} | {arrivals} | {label} | no configuration met the SLO at the tune load | | | | | | |")
            continue
        over = sum(1 for r in doc["results"] if top and r["level"] <= top["level"] and violations(r) > 1.0)
        ratio = top["inferences_per_second"] / best_top if top and best_top else None
        print(f"| {model} | {arrivals} | {label} | {fmt(top['inferences_per_second'] if top else None)} | "
              f"{fmt(ratio, 2)} | {fmt(top['level'] if top else None, 0)} | "
              f"{fmt(top['latency_us']['p99'] / 1000 if top else None, 2)} | "
              f"{fmt(violations(top) if top else None, 2)} % | {over} | "
              f"{fmt(top['average_batch_size'] if top else None, 2)} |")
    summary.append((model, arrivals, docs, tops, slo_us, d))

print()
print("p99 at the same throughput (ms): at the rate the best static configuration was tuned for, and the geometric"
      " mean of adaptive's p99 over the best static's at every level all four delivered")
print()
print("| model | arrivals | tune rate | bundled static | best static | AIMD | adaptive | adaptive / best static there"
      " | geomean adaptive / best static (levels) |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
for model, arrivals, docs, tops, slo_us, d in summary:
    log = open(os.path.join(d, "tune.log")).read() if os.path.exists(os.path.join(d, "tune.log")) else ""
    m = re.search(r"at request rate ([0-9.]+)/s", log)
    rate = float(m.group(1)) if m else None
    cells = {}
    for key, _ in configs:
        doc = docs[key]
        row = next((r for r in doc["results"] if rate and abs(r["level"] - rate) < 2e-3 * rate), None) if doc else None
        cells[key] = row["latency_us"]["p99"] / 1000 if row and delivered(row) else None
    there = cells["adaptive"] / cells["best"] if cells["adaptive"] and cells["best"] else None
    ratios = []
    if all(docs[k] for k, _ in configs):
        by_level = [{round(r["level"], 3): r for r in docs[k]["results"]} for k, _ in configs]
        for level in by_level[0]:
            rows = [b.get(level) for b in by_level]
            if all(r is not None and delivered(r) for r in rows):
                ratios.append(rows[3]["latency_us"]["p99"] / rows[1]["latency_us"]["p99"])
    geo = math.exp(sum(math.log(x) for x in ratios) / len(ratios)) if ratios else None
    print(f"| {model} | {arrivals} | {fmt(rate, 0)} | {fmt(cells['static'], 2)} | {fmt(cells['best'], 2)} | "
          f"{fmt(cells['aimd'], 2)} | {fmt(cells['adaptive'], 2)} | {fmt(there, 2)} | {fmt(geo, 2)} ({len(ratios)}) |")

print()
print("Best static configurations (tune's choice):")
print()
for model, arrivals, docs, tops, slo_us, d in summary:
    log = os.path.join(d, "tune.log")
    best = [line for line in open(log) if line.startswith("best: ")] if os.path.exists(log) else []
    print(f"* {model}, {arrivals}: {best[0].strip() if best else 'none met the SLO'}")
