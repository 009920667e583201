#!/usr/bin/env python3
"""BackendComparison's onnx-backends*.tsv as Markdown: medians over rounds, and FFM/JNI as the median of the ratios
of the two measurements of the same run and round (they ran back to back, so they saw the same machine load)."""
import csv, statistics, glob, os

here = os.path.dirname(os.path.abspath(__file__))
cells, pairs = {}, {}
for path in sorted(glob.glob(os.path.join(here, "onnx-backends*.tsv"))):
    with open(path) as f:
        for r in csv.DictReader(f, delimiter="\t"):
            key = (r["model"], int(r["concurrency"]))
            cells.setdefault(key, {}).setdefault(r["target"], []).append(r)
            pairs.setdefault(key, {}).setdefault((path, r["round"]), {})[r["target"]] = r
print("| model | conc. | rounds | FFM inf/s | JNI inf/s | ORT direct inf/s | FFM/JNI throughput | FFM p50 µs |"
      " JNI p50 µs | FFM/JNI p50 | copied B/request FFM (runtime + backend) | JNI (runtime + backend) |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for key in sorted(cells):
    targets = cells[key]
    med = lambda t, k: statistics.median(float(x[k]) for x in targets[t])
    copies = lambda t: "%d + %d" % (statistics.median(int(x["runtime_copied_bytes_per_request"]) for x in targets[t]),
                                    statistics.median(int(x["backend_copied_bytes_per_request"]) for x in targets[t]))
    same = [p for p in pairs[key].values() if "ingot_ffm" in p and "ingot_jni" in p]
    ratio = lambda k: statistics.median(float(p["ingot_ffm"][k]) / float(p["ingot_jni"][k]) for p in same)
    print("| %s | %d | %d | %.1f | %.1f | %.1f | %.2fx | %.0f | %.0f | %.2fx | %s | %s |" % (
        key[0], key[1], len(same), med("ingot_ffm", "infer_per_s"), med("ingot_jni", "infer_per_s"),
        med("ort_direct", "infer_per_s"), ratio("infer_per_s"), med("ingot_ffm", "p50_us"), med("ingot_jni", "p50_us"),
        ratio("p50_us"), copies("ingot_ffm"), copies("ingot_jni")))
