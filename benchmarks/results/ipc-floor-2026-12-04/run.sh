#!/usr/bin/env bash
# Issue 34's run: Python over shared memory at concurrency 1 against the echo floors, then K requests in flight in
# process (blocking callers, the listener API, the batch API) against the DJL-style and Triton-style batchers, all
# rounds interleaved within each part. Usage: benchmarks/results/ipc-floor-2026-12-04/run.sh [ROUNDS]
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../../.." && pwd)"
cd "$ROOT"
source tools/java-env.sh
OUT=benchmarks/results/ipc-floor-2026-12-04
ROUNDS="${1:-5}"
./ingot --version > /dev/null
CP="$(ls cli/target/ingot-cli-*.jar | grep -v -- -tests):$(cat cli/target/classpath.txt)"
{ echo "start $(date -u +%FT%TZ)"; uptime; } | tee "$OUT/load.txt"
PY_JSON="$OUT/python-shm-c1.json" PERF_OUT="$OUT" benchmarks/run-perf.sh python-transport 2>&1 | tee "$OUT/python-shm-c1.log"
{ echo "after python $(date -u +%FT%TZ)"; uptime; } | tee -a "$OUT/load.txt"
"$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$CP" io.ingot.perf.pipeline.InFlightComparison "$OUT" \
  rounds="$ROUNDS" levels=1,16,64 windowMs=2000 warmupMs=1000 maxBatch=8 split=4 2>&1 \
  | grep -v '^INFO\|^[A-Z][a-z][a-z] [0-9]' | tee "$OUT/in-flight.log"
{ echo "end $(date -u +%FT%TZ)"; uptime; } | tee -a "$OUT/load.txt"
