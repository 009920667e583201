#!/usr/bin/env bash
# Issue 34, after the change that cut the lines the instance thread shares with submitters per request (the intake
# ring drained many at a time, cancellations found by sweeps, the flight's end without fences, statistics per batch,
# the seat's run token and the request's flight on lines of their own). One run in three parts, each with its floors
# or baselines in the same rounds:
#  1. Python over shared memory at concurrency 1 (benchmarks/python/transport_latency.py --floor, unchanged client),
#     alternating between this build and the build of BASE (the commit before, 29a1c36), one server at a time, each
#     serving only the identity model; every run measures its own echo floors and HTTP.
#  2. In process, K requests in flight (InFlightComparison): blocking callers (plain submit and submitAndRun), the
#     listener API and the batch API against the DJL-style and Triton-style batchers.
#  3. The same in-process comparison with BASE's build (its own harness: PipelineSlot was not padded then), for
#     before/after; its baselines are its own.
# Parts 1 and 2 are benchmarks/in-flight-runs.sh's (this folder's own copy until 2026-12-05's fourth session).
# Usage: benchmarks/results/ipc-lines-2026-12-05/run.sh BASE_CHECKOUT [ALTERNATIONS] [IN_PROCESS_ROUNDS]
# BASE_CHECKOUT is a checkout of 29a1c36 whose ./ingot has been built once.
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../../.." && pwd)"
cd "$ROOT"
source tools/java-env.sh
BASE="$(cd "$1" && pwd)"
OUT=benchmarks/results/ipc-lines-2026-12-05
PORT_BASE=18400 benchmarks/in-flight-runs.sh "$OUT" "$BASE" "${2:-4}" "${3:-3}" 0

# Part 3: BASE's own build, harness included.
BASE_CP="$(ls "$BASE"/cli/target/ingot-cli-*.jar | grep -v -- -tests):$(cat "$BASE/cli/target/classpath.txt")"
mkdir -p "$OUT/before-in-process"
echo "+ java -cp \$BASE_CP io.ingot.perf.pipeline.InFlightComparison $OUT/before-in-process rounds=3 levels=1,16,64 windowMs=2000 warmupMs=1000 maxBatch=8 split=4  # $BASE" >> "$OUT/commands.txt"
"$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$BASE_CP" io.ingot.perf.pipeline.InFlightComparison \
  "$OUT/before-in-process" rounds=3 levels=1,16,64 windowMs=2000 warmupMs=1000 maxBatch=8 split=4 2>&1 \
  | grep -v '^INFO\|^[A-Z][a-z][a-z] [0-9]' | tee "$OUT/before-in-process/in-flight.log"
python3 benchmarks/python/in_flight_ratios.py "$OUT/before-in-process/in-flight.json" | tee "$OUT/before-in-process/in-flight-ratios.md"
{ echo "end $(date -u +%FT%TZ)"; uptime; } | tee -a "$OUT/load.txt"
