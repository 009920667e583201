#!/usr/bin/env python3
"""Summarizes run.sh's (or idle-modes.sh's) Python part: per run (one round each), IPC p50/p99 and p99/p50, the bare
and held echo floors, and IPC p50 over the held floor; the two labels (run.sh: this build, "after", and the commit
before, "before"; idle-modes.sh: the server's idle modes) alternate, one server at a time.
Usage: python3 benchmarks/python/transport_runs.py OUT_DIR [LABEL_A LABEL_B]  (a results folder of those scripts)"""
import glob
import json
import os
import re
import statistics
import sys

labels = sys.argv[2:4] if len(sys.argv) > 3 else ["after", "before"]
rows = {label: [] for label in labels}
for path in sorted(glob.glob(os.path.join(sys.argv[1], "python-*-*.json"))):
    label, n = re.match(r".*python-(\w+)-(\d+)\.json$", path).groups()
    r = json.load(open(path))["rounds"]
    ipc, http, bare, held = (r[k][0] for k in ("ipc", "http", "floor", "floor-held"))
    rows[label].append((int(n), ipc["p50_us"], ipc["p99_us"], bare["p50_us"], bare["p99_us"], held["p50_us"],
                        held["p99_us"], http["p50_us"]))
print("| build | run | IPC p50 / p99 (µs) | IPC p99 / p50 | bare floor p50 / p99 | held floor p50 / p99 "
      "| IPC p50 / held floor p50 | HTTP p50 |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for label in labels:
    for n, p50, p99, bp50, bp99, hp50, hp99, h50 in sorted(rows[label]):
        print("| %s | %d | %.1f / %.1f | %.1f× | %.1f / %.1f | %.1f / %.1f | %.2f× | %.1f |"
              % (label, n, p50, p99, p99 / p50, bp50, bp99, hp50, hp99, p50 / hp50, h50))
for label in labels:
    rs = rows[label]
    if rs:
        print("\n%s: median IPC p50 %.1f µs, p99 %.1f µs, median p99/p50 %.1f×, median IPC p50 / held floor %.2f×, "
              "bare floor p99/p50 median %.1f×, held floor p99/p50 median %.1f×" % (
                  label, statistics.median(r[1] for r in rs), statistics.median(r[2] for r in rs),
                  statistics.median(r[2] / r[1] for r in rs), statistics.median(r[1] / r[5] for r in rs),
                  statistics.median(r[4] / r[3] for r in rs), statistics.median(r[6] / r[5] for r in rs)))
