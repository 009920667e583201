#!/usr/bin/env python3
"""Reads before-after.sh's results (OUT_DIR/{before,after}-N.json) and prints, per benchmark and parameter set, the
score of each side per round, the after/before ratio per round and the median ratio (below 1: after is faster for
time modes). Secondary results (gc.alloc.rate.norm, percentiles) are printed the same way."""
import glob
import json
import os
import statistics
import sys

out = sys.argv[1]
scores = {}  # (key, metric) -> {side: {round: score}}
for path in glob.glob(os.path.join(out, "*-*.json")):
    side, round_ = os.path.basename(path)[:-5].split("-")
    for result in json.load(open(path)):
        params = ",".join(f"{k}={v}" for k, v in sorted((result.get("params") or {}).items()))
        key = f"{result['benchmark'].rsplit('.', 2)[-2]}.{result['benchmark'].rsplit('.', 1)[-1]}[{params}] t={result['threads']}"
        primary = result["primaryMetric"]
        metrics = {primary["scoreUnit"] + " score": primary["score"]}
        for pct in ("50.0", "99.0"):
            if pct in (primary.get("scorePercentiles") or {}) and result["mode"] == "sample":
                metrics[primary["scoreUnit"] + " p" + pct[:2]] = primary["scorePercentiles"][pct]
        for name, secondary in (result.get("secondaryMetrics") or {}).items():
            if name == "gc.alloc.rate.norm":
                metrics["B/op"] = secondary["score"]
        for metric, value in metrics.items():
            scores.setdefault((key, metric), {}).setdefault(side, {})[int(round_)] = value
print(f"{'benchmark':70} {'metric':12} {'before (per round)':28} {'after (per round)':28} ratio after/before (median)")
for (key, metric), sides in sorted(scores.items()):
    rounds = sorted(set(sides.get("before", {})) & set(sides.get("after", {})))
    if not rounds:
        continue
    before = [sides["before"][r] for r in rounds]
    after = [sides["after"][r] for r in rounds]
    ratios = [a / b if b else float("nan") for a, b in zip(after, before)]
    fmt = lambda values: " ".join(f"{v:.3g}" for v in values)
    print(f"{key:70} {metric:12} {fmt(before):28} {fmt(after):28} {fmt(ratios)} ({statistics.median(ratios):.3f})")
