#!/usr/bin/env bash
# Issue 34: where Ingot's cost at 64 requests in flight lies, against the hand-off floor. One JVM per sample
# (InFlightComparison only=WAY:PIPELINE), in an order that rotates per round, the async way (one submitter keeping 64
# in flight), max batch 8: the hand-off floor (a ring and the engine batch); Ingot's batcher alone (its intake ring,
# batching role and dynamic batch policy in front of an instance that completes each dispatched request at once: no
# validation, no flight, no assembly, engine or responses); the whole core through the listener API; and the DJL-style
# batcher whole and alone.
# Usage: benchmarks/results/ipc-decomposition-2026-12-05/run.sh [ROUNDS]
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../../.." && pwd)"
cd "$ROOT"
source tools/java-env.sh
ROUNDS="${1:-6}"
OUT=benchmarks/results/ipc-decomposition-2026-12-05
./ingot --version > /dev/null
CP="$(ls cli/target/ingot-cli-*.jar | grep -v -- -tests):$(cat cli/target/classpath.txt)"
{ echo "start $(date -u +%FT%TZ)"; uptime; } | tee "$OUT/load.txt"
: > "$OUT/commands.txt"
SAMPLES=(hand-off-floor ingot-batcher ingot djl-style djl-style-batcher)
rm -rf "$OUT/samples" "$OUT/samples.log"
for round in $(seq 1 "$ROUNDS"); do
  for k in $(seq 0 $(( ${#SAMPLES[@]} - 1 ))); do
    pipeline="${SAMPLES[$(( (k + round) % ${#SAMPLES[@]} ))]}"
    dir="$OUT/samples/round-$round/$pipeline"
    mkdir -p "$dir"
    echo "+ java -cp \$CP io.ingot.perf.pipeline.InFlightComparison $dir rounds=1 levels=64 windowMs=3000 warmupMs=2000 maxBatch=8 only=async:$pipeline" >> "$OUT/commands.txt"
    "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$CP" io.ingot.perf.pipeline.InFlightComparison \
      "$dir" rounds=1 levels=64 windowMs=3000 warmupMs=2000 maxBatch=8 "only=async:$pipeline" 2>&1 \
      | grep '^round' | sed "s/^round 1/round $round/" | tee -a "$OUT/samples.log"
  done
done
python3 "$OUT/summarize.py" "$OUT/samples" | tee "$OUT/summary.md"
{ echo "end $(date -u +%FT%TZ)"; uptime; } | tee -a "$OUT/load.txt"
