#!/usr/bin/env python3
"""Medians over the interleaved rounds that run.sh wrote, base against new, per model, idle mode and concurrency:
throughput (with its range over the rounds), p50, and the server's compute time per request (the engine's share,
the part the change touches)."""
import glob
import json
import os
import statistics

here = os.path.dirname(os.path.abspath(__file__))
rows = {}
for path in sorted(glob.glob(os.path.join(here, "*.json"))):
    setup, build, _ = os.path.basename(path)[:-5].rsplit("-", 2)
    for result in json.load(open(path))["results"]:
        rows.setdefault((setup, int(result["level"]), build), []).append(
            (result["inferences_per_second"], result["latency_us"]["p50"], result["server"]["compute_us"]))

print("| model, idle mode | concurrency | rounds | infer/s base → new, median (range) | ratio | p50 µs base → new |"
      " ratio | compute µs base → new | ratio |")
print("|---|---|---|---|---|---|---|---|---|")
for setup, level in sorted({(s, l) for s, l, _ in rows}):
    base, new = rows[(setup, level, "base")], rows[(setup, level, "new")]
    cells = []
    for i in range(3):
        b = statistics.median(x[i] for x in base)
        n = statistics.median(x[i] for x in new)
        spread = ""
        if i == 0:
            spread = (f" ({min(x[0] for x in base):.0f}–{max(x[0] for x in base):.0f} → "
                      f"{min(x[0] for x in new):.0f}–{max(x[0] for x in new):.0f})")
        cells.append(f"{b:.0f} → {n:.0f}{spread} | {n / b:.2f}")
    print(f"| {setup.replace('-', ', ')} | {level} | {len(base)}/{len(new)} | " + " | ".join(cells) + " |")

# The engines alone (engine-ab.sh's output): median over the rounds of each round's median µs per call.
ab = os.path.join(here, "engine-ab.txt")
if os.path.exists(ab):
    import re
    times, build = {}, None
    for line in open(ab):
        if line.startswith("== "):
            build = line[3:].strip()
        found = re.match(r"(\w+) median of slice medians ([\d.]+)", line)
        if found:
            times.setdefault((found.group(1), build), []).append(float(found.group(2)))
    print()
    print("| engine alone, batch of one | rounds | µs per call base → new (median) | ratio |")
    print("|---|---|---|---|")
    for model in sorted({m for m, _ in times}):
        b = statistics.median(times[(model, "base")])
        n = statistics.median(times[(model, "new")])
        print(f"| {model} | {len(times[(model, 'base')])}/{len(times[(model, 'new')])} | {b:.2f} → {n:.2f} |"
              f" {n / b:.2f} |")
