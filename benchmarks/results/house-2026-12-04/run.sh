#!/usr/bin/env bash
# Issue 32 ("the house", path helper): the in-process hot path before and after the request-path restructuring, the
# overhead and alloc selections of benchmarks/run-jmh.sh run from two benchmark jars in turns (before-after.sh).
# BEFORE_JAR: main at 9d7b5a6 (the i32-path branch's merge base with main after the merge); AFTER_JAR: i32-path at
# 557655c. Each jar: `mvn -B -pl benchmarks -am package -DskipTests` on a `git archive` of that commit, copied aside.
# Usage: run.sh BEFORE_JAR AFTER_JAR ROUNDS
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
before="$1"; after="$2"; rounds="$3"; out="$ROOT/benchmarks/results/house-2026-12-04"
uptime > "$out/load.txt"
# overhead: OverheadBenchmark's Ingot pipeline at one caller, BLOCKING and SPINNING (the baselines' pipelines and
# FloorBenchmark run no Ingot code, so they are left out of this comparison)
"$ROOT/benchmarks/before-after.sh" "$before" "$after" "$rounds" "$out/overhead-t1" OverheadBenchmark -t 1 \
  -p pipeline=ingot > "$out/overhead-t1.ratios.txt"
uptime >> "$out/load.txt"
# alloc: run-jmh.sh's alloc selection, one caller and sixteen
for t in 1 16; do
  "$ROOT/benchmarks/before-after.sh" "$before" "$after" "$rounds" "$out/alloc-t$t" 'IngotPathsBenchmark|OverheadBenchmark' \
    -t "$t" -p pipeline=ingot -p idle=BLOCKING -bm avgt -tu us -prof gc > "$out/alloc-t$t.ratios.txt"
  uptime >> "$out/load.txt"
done
# What happened on 2026-12-04: `run.sh /tmp/i32-jars/before.jar /tmp/i32-jars/after.jar 3` ran 22:08-22:23 UTC; the
# third round of alloc-t16 could not start (another helper's JMH held /tmp/jmh.lock: alloc-t16/before-3.txt), so
# alloc-t16 has two rounds (its ratios: `python3 benchmarks/before-after.py alloc-t16`). alloc-t1 was run again,
# three more rounds, with JAVA_TOOL_OPTIONS=-Djmh.ignoreLock=true:
#   benchmarks/before-after.sh BEFORE AFTER 3 benchmarks/results/house-2026-12-04/alloc-t1-second \
#     'IngotPathsBenchmark|OverheadBenchmark' -t 1 -p pipeline=ingot -p idle=BLOCKING -bm avgt -tu us -prof gc
# load.txt: the load average at the start and after each part.
