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
# Usage: benchmarks/results/ipc-lines-2026-12-05/run.sh BASE_CHECKOUT [ALTERNATIONS] [IN_PROCESS_ROUNDS]
# BASE_CHECKOUT is a checkout of 29a1c36 whose ./ingot has been built once.
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../../.." && pwd)"
cd "$ROOT"
source tools/java-env.sh
BASE="$(cd "$1" && pwd)"
ALTERNATIONS="${2:-4}"
ROUNDS="${3:-3}"
# Each server is fresh: 20,000 unmeasured requests per transport let its JIT finish compiling the path first (with the
# script's default 1,000, a fresh server's compiler threads took CPU during the measured round: p50 42-45 us instead
# of 24 us).
WARMUP="${WARMUP:-20000}"
OUT=benchmarks/results/ipc-lines-2026-12-05
REPO="$(mktemp -d)"
trap 'rm -rf "$REPO"' EXIT
cp -r examples/models/identity "$REPO/"
./ingot --version > /dev/null
(cd "$BASE" && ./ingot --version > /dev/null)
{ echo "start $(date -u +%FT%TZ)"; uptime; } | tee "$OUT/load.txt"
: > "$OUT/commands.txt"

serve_and_measure() {  # $1 label, $2 checkout, $3 alternation
  local label="$1" tree="$2" n="$3" port=$((18450 + $3)) name="lines-$1-$3" server
  if [ "$label" = after ]; then port=$((18400 + n)); fi
  (cd "$tree" && exec ./ingot serve --model-repository "$REPO" --http-port "$port" --grpc-port -1 \
    --metrics-port -1 --ipc "$name") > "$OUT/server-$label-$n.log" 2>&1 &
  server=$!
  for _ in $(seq 1 120); do curl -sf "localhost:$port/v2/health/ready" > /dev/null && break; kill -0 "$server" || { echo "server $label-$n did not start" >&2; exit 1; }; sleep 0.5; done
  echo "+ python3 benchmarks/python/transport_latency.py --ipc $name --http 127.0.0.1:$port --floor --rounds 1 --warmup $WARMUP --json $OUT/python-$label-$n.json  # $tree" >> "$OUT/commands.txt"
  /usr/bin/python3 benchmarks/python/transport_latency.py --ipc "$name" --http "127.0.0.1:$port" --floor \
    --rounds 1 --warmup "$WARMUP" --json "$OUT/python-$label-$n.json" 2>&1 | tee "$OUT/python-$label-$n.log"
  kill "$server" 2>/dev/null || true; wait "$server" || true
}

for n in $(seq 1 "$ALTERNATIONS"); do
  if (( n % 2 )); then
    serve_and_measure after "$ROOT" "$n"; serve_and_measure before "$BASE" "$n"
  else
    serve_and_measure before "$BASE" "$n"; serve_and_measure after "$ROOT" "$n"
  fi
done
{ echo "after python $(date -u +%FT%TZ)"; uptime; } | tee -a "$OUT/load.txt"
python3 benchmarks/python/transport_runs.py "$OUT" | tee "$OUT/python-summary.md"

CP="$(ls cli/target/ingot-cli-*.jar | grep -v -- -tests):$(cat cli/target/classpath.txt)"
echo "+ java -cp \$CP io.ingot.perf.pipeline.InFlightComparison $OUT rounds=$ROUNDS levels=1,16,64 windowMs=2000 warmupMs=1000 maxBatch=8 split=4" >> "$OUT/commands.txt"
"$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$CP" io.ingot.perf.pipeline.InFlightComparison "$OUT" \
  rounds="$ROUNDS" levels=1,16,64 windowMs=2000 warmupMs=1000 maxBatch=8 split=4 2>&1 \
  | grep -v '^INFO\|^[A-Z][a-z][a-z] [0-9]' | tee "$OUT/in-flight.log"
python3 benchmarks/python/in_flight_ratios.py "$OUT/in-flight.json" | tee "$OUT/in-flight-ratios.md"
{ echo "after in-process $(date -u +%FT%TZ)"; uptime; } | tee -a "$OUT/load.txt"

BASE_CP="$(ls "$BASE"/cli/target/ingot-cli-*.jar | grep -v -- -tests):$(cat "$BASE/cli/target/classpath.txt")"
mkdir -p "$OUT/before-in-process"
echo "+ java -cp \$BASE_CP io.ingot.perf.pipeline.InFlightComparison $OUT/before-in-process rounds=3 levels=1,16,64 windowMs=2000 warmupMs=1000 maxBatch=8 split=4  # $BASE" >> "$OUT/commands.txt"
"$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$BASE_CP" io.ingot.perf.pipeline.InFlightComparison \
  "$OUT/before-in-process" rounds=3 levels=1,16,64 windowMs=2000 warmupMs=1000 maxBatch=8 split=4 2>&1 \
  | grep -v '^INFO\|^[A-Z][a-z][a-z] [0-9]' | tee "$OUT/before-in-process/in-flight.log"
python3 benchmarks/python/in_flight_ratios.py "$OUT/before-in-process/in-flight.json" | tee "$OUT/before-in-process/in-flight-ratios.md"
{ echo "end $(date -u +%FT%TZ)"; uptime; } | tee -a "$OUT/load.txt"
