#!/usr/bin/env python3
"""BackendComparison's onnx-backends*.tsv (with the ingot_ffm_own target) as Markdown: medians over rounds, and each
ratio as the median of the ratios of two measurements of the same run and round (they ran back to back, so they saw
the same machine load). Bytes copied are measured (the runtime's HostCopies, input + output, and each backend's own
counter), per request; the median over rounds. An argument restricts it to the TSV files it matches (a glob
relative to this folder, e.g. onnx-backends-run3.tsv)."""
import csv, statistics, glob, os, sys

here = os.path.dirname(os.path.abspath(__file__))
cells, pairs = {}, {}
for path in sorted(glob.glob(os.path.join(here, sys.argv[1] if len(sys.argv) > 1 else "onnx-backends*.tsv"))):
    with open(path) as f:
        for r in csv.DictReader(f, delimiter="\t"):
            key = (r["model"], int(r["concurrency"]))
            cells.setdefault(key, {}).setdefault(r["target"], []).append(r)
            pairs.setdefault(key, {}).setdefault((path, r["round"]), {})[r["target"]] = r


def med(targets, t, k):
    return statistics.median(float(x[k]) for x in targets[t])


def copies(targets, t):
    m = lambda k: statistics.median(int(x[k]) for x in targets[t])
    return "%d + %d + %d" % (m("runtime_input_copied_bytes_per_request"),
                             m("runtime_output_copied_bytes_per_request"), m("backend_copied_bytes_per_request"))


def ratio(key, a, b, k):
    same = [p for p in pairs[key].values() if a in p and b in p]
    return statistics.median(float(p[a][k]) / float(p[b][k]) for p in same), len(same)


print("| model | conc. | rounds | FFM inf/s | JNI inf/s | ORT direct inf/s | FFM/JNI throughput | FFM p50 µs |"
      " JNI p50 µs | FFM/JNI p50 | avg batch FFM | copied B/request FFM (runtime in + out + backend) |"
      " JNI (same) |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for key in sorted(cells):
    t = cells[key]
    thr, n = ratio(key, "ingot_ffm", "ingot_jni", "infer_per_s")
    p50, _ = ratio(key, "ingot_ffm", "ingot_jni", "p50_us")
    print("| %s | %d | %d | %.1f | %.1f | %.1f | %.2fx | %.0f | %.0f | %.2fx | %.2f | %s | %s |" % (
        key[0], key[1], n, med(t, "ingot_ffm", "infer_per_s"), med(t, "ingot_jni", "infer_per_s"),
        med(t, "ort_direct", "infer_per_s"), thr, med(t, "ingot_ffm", "p50_us"), med(t, "ingot_jni", "p50_us"), p50,
        med(t, "ingot_ffm", "avg_batch"), copies(t, "ingot_ffm"), copies(t, "ingot_jni")))
print()
print("| model | conc. | rounds | FFM shared inf/s | FFM own allocator (scatter) inf/s | shared/scatter throughput |"
      " shared p50 µs | scatter p50 µs | shared/scatter p50 | copied B/request shared (runtime in + out + backend) |"
      " scatter (same) |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for key in sorted(cells):
    t = cells[key]
    if "ingot_ffm_own" not in t:
        continue
    thr, n = ratio(key, "ingot_ffm", "ingot_ffm_own", "infer_per_s")
    p50, _ = ratio(key, "ingot_ffm", "ingot_ffm_own", "p50_us")
    print("| %s | %d | %d | %.1f | %.1f | %.2fx | %.0f | %.0f | %.2fx | %s | %s |" % (
        key[0], key[1], n, med(t, "ingot_ffm", "infer_per_s"), med(t, "ingot_ffm_own", "infer_per_s"), thr,
        med(t, "ingot_ffm", "p50_us"), med(t, "ingot_ffm_own", "p50_us"), p50, copies(t, "ingot_ffm"),
        copies(t, "ingot_ffm_own")))
