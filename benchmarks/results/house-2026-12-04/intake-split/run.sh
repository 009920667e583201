#!/usr/bin/env bash
# The single-request path after #34's merge onto the house (ModelScheduler's producer side moved into RequestIntake;
# the batch API added beside it), against the house's restructuring alone, interleaved: the overhead selection at one
# caller and the alloc selection at one caller. BEFORE_JAR: 557655c (i32-path after its restructuring, as measured in
# ../run.sh); AFTER_JAR: main at d557239 (the merge). Each jar: `mvn -B -pl benchmarks -am package -DskipTests` on a
# `git archive` of that commit. Usage: run.sh BEFORE_JAR AFTER_JAR ROUNDS
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../../../.." && pwd)"
before="$1"; after="$2"; rounds="$3"; out="$ROOT/benchmarks/results/house-2026-12-04/intake-split"
uptime > "$out/load.txt"
"$ROOT/benchmarks/before-after.sh" "$before" "$after" "$rounds" "$out/overhead-t1" OverheadBenchmark -t 1 \
  -p pipeline=ingot > "$out/overhead-t1.ratios.txt"
uptime >> "$out/load.txt"
"$ROOT/benchmarks/before-after.sh" "$before" "$after" "$rounds" "$out/alloc-t1" 'IngotPathsBenchmark|OverheadBenchmark' \
  -t 1 -p pipeline=ingot -p idle=BLOCKING -bm avgt -tu us -prof gc > "$out/alloc-t1.ratios.txt"
uptime >> "$out/load.txt"
