#!/usr/bin/env python3
"""Medians over rounds of onnx-backends*.tsv (BackendComparison's output) and the FFM/JNI ratios, as Markdown."""
import csv, statistics, sys, glob, os

here = os.path.dirname(os.path.abspath(__file__))
rows = []
for path in sorted(glob.glob(os.path.join(here, "onnx-backends*.tsv"))):
    with open(path) as f:
        rows += list(csv.DictReader(f, delimiter="\t"))
cells = {}
for r in rows:
    cells.setdefault((r["model"], int(r["concurrency"])), {}).setdefault(r["target"], []).append(r)
print("| model | conc. | FFM inf/s | JNI inf/s | ORT direct inf/s | FFM/JNI throughput | FFM p50 µs | JNI p50 µs |"
      " FFM/JNI p50 | copied B/request FFM (runtime + backend) | JNI (runtime + backend) |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for (model, n), targets in sorted(cells.items()):
    med = lambda t, k: statistics.median(float(x[k]) for x in targets.get(t, [])) if t in targets else float("nan")
    def copies(t):
        xs = targets.get(t, [])
        return "%d + %d" % (statistics.median(int(x["runtime_copied_bytes_per_request"]) for x in xs),
                            statistics.median(int(x["backend_copied_bytes_per_request"]) for x in xs)) if xs else "-"
    ffm, jni = med("ingot_ffm", "infer_per_s"), med("ingot_jni", "infer_per_s")
    p_ffm, p_jni = med("ingot_ffm", "p50_us"), med("ingot_jni", "p50_us")
    print("| %s | %d | %.1f | %.1f | %.1f | %.2fx | %.0f | %.0f | %.2fx | %s | %s |" % (
        model, n, ffm, jni, med("ort_direct", "infer_per_s"), ffm / jni, p_ffm, p_jni,
        p_ffm / p_jni, copies("ingot_ffm"), copies("ingot_jni")))
