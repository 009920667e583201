#!/usr/bin/env bash
# Issue 34's in-process and shared-memory measurement, in three parts, each with its floors or baselines in the same
# rounds, this build ("after") against a built checkout of another commit ("before", BASE):
#  1. Python over shared memory at concurrency 1 (benchmarks/python/transport_latency.py --floor, unchanged client),
#     alternating between the two builds, one server at a time, each serving only the identity model; every run
#     measures its own echo floors and HTTP.
#  2. In process, K requests in flight (InFlightComparison), every way and pipeline in one JVM: blocking callers (plain
#     submit and submitAndRun), the listener API and the batch API against the DJL-style and Triton-style batchers,
#     and the hand-off floor (one submitter, one spinning batching thread, a ring between them).
#  3. At 64 in flight, each (way, pipeline) in a JVM of its own (only=WAY:PIPELINE), so that no other pipeline's or
#     level's runs shape the JIT's profile of the code measured; Ingot's listener and batch ways with this build and
#     with BASE's core (the same harness: this build's perf jar in front of BASE's), in an order that rotates per round.
# Usage: benchmarks/in-flight-runs.sh OUT_DIR BASE_CHECKOUT [ALTERNATIONS] [IN_PROCESS_ROUNDS] [FRESH_ROUNDS]
# (ALTERNATIONS 0: no part 1; IN_PROCESS_ROUNDS 0: no part 2; FRESH_ROUNDS 0: no part 3)
# OUT_DIR is the results folder (relative to the project's root); BASE_CHECKOUT a checkout whose ./ingot has been
# built once. A results folder's run.sh calls this with its own folder and says which commits it compared.
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
cd "$ROOT"
source tools/java-env.sh
OUT="$1"
BASE="$(cd "$2" && pwd)"
ALTERNATIONS="${3:-4}"
ROUNDS="${4:-3}"
FRESH_ROUNDS="${5:-6}"
# The IPC servers' names: the folder's second word (ipc-cache-… → cache-after-1); their HTTP ports: PORT_BASE + n
# for this build's n-th server, PORT_BASE + 50 + n for BASE's.
PORT_BASE="${PORT_BASE:-18500}"
LABEL="$(basename "$OUT" | cut -d- -f2)"
# Each server is fresh: 20,000 unmeasured requests per transport let its JIT finish compiling the path first.
WARMUP="${WARMUP:-20000}"
REPO="$(mktemp -d)"
trap 'rm -rf "$REPO"' EXIT
cp -r examples/models/identity "$REPO/"
./ingot --version > /dev/null
(cd "$BASE" && ./ingot --version > /dev/null)
mkdir -p "$OUT"
{ echo "start $(date -u +%FT%TZ)"; uptime; } | tee "$OUT/load.txt"
: > "$OUT/commands.txt"

serve_and_measure() {  # $1 label, $2 checkout, $3 alternation
  local label="$1" tree="$2" n="$3" port=$((PORT_BASE + 50 + $3)) name="$LABEL-$1-$3" server
  if [ "$label" = after ]; then port=$((PORT_BASE + n)); fi
  (cd "$tree" && exec ./ingot serve --model-repository "$REPO" --http-port "$port" --grpc-port -1 \
    --metrics-port -1 --ipc "$name") > "$OUT/server-$label-$n.log" 2>&1 &
  server=$!
  for _ in $(seq 1 120); do curl -sf "localhost:$port/v2/health/ready" > /dev/null && break; kill -0 "$server" || { echo "server $label-$n did not start" >&2; exit 1; }; sleep 0.5; done
  echo "+ python3 benchmarks/python/transport_latency.py --ipc $name --http 127.0.0.1:$port --floor --rounds 1 --warmup $WARMUP --json $OUT/python-$label-$n.json  # $tree" >> "$OUT/commands.txt"
  /usr/bin/python3 benchmarks/python/transport_latency.py --ipc "$name" --http "127.0.0.1:$port" --floor \
    --rounds 1 --warmup "$WARMUP" --json "$OUT/python-$label-$n.json" 2>&1 | tee "$OUT/python-$label-$n.log"
  kill "$server" 2>/dev/null || true; wait "$server" || true
}

if (( ALTERNATIONS > 0 )); then
for n in $(seq 1 "$ALTERNATIONS"); do
  if (( n % 2 )); then
    serve_and_measure after "$ROOT" "$n"; serve_and_measure before "$BASE" "$n"
  else
    serve_and_measure before "$BASE" "$n"; serve_and_measure after "$ROOT" "$n"
  fi
done
{ echo "after python $(date -u +%FT%TZ)"; uptime; } | tee -a "$OUT/load.txt"
python3 benchmarks/python/transport_runs.py "$OUT" | tee "$OUT/python-summary.md"
fi

CP="$(ls cli/target/ingot-cli-*.jar | grep -v -- -tests):$(cat cli/target/classpath.txt)"
if (( ROUNDS > 0 )); then
echo "+ java -cp \$CP io.ingot.perf.pipeline.InFlightComparison $OUT rounds=$ROUNDS levels=1,16,64 windowMs=2000 warmupMs=1000 maxBatch=8 split=4" >> "$OUT/commands.txt"
"$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$CP" io.ingot.perf.pipeline.InFlightComparison "$OUT" \
  rounds="$ROUNDS" levels=1,16,64 windowMs=2000 warmupMs=1000 maxBatch=8 split=4 2>&1 \
  | grep -v '^INFO\|^[A-Z][a-z][a-z] [0-9]' | tee "$OUT/in-flight.log"
python3 benchmarks/python/in_flight_ratios.py "$OUT/in-flight.json" | tee "$OUT/in-flight-ratios.md"
{ echo "after in-process $(date -u +%FT%TZ)"; uptime; } | tee -a "$OUT/load.txt"
fi

# Part 3: one JVM per (way, pipeline, build). BASE's core with this build's harness: its perf jar replaced by ours.
if (( FRESH_ROUNDS > 0 )); then
PERF_JAR="$(ls "$ROOT"/perf/target/ingot-perf-*.jar | grep -v -- -tests)"
BASE_CP="$(ls "$BASE"/cli/target/ingot-cli-*.jar | grep -v -- -tests):$(tr ':' '\n' < "$BASE/cli/target/classpath.txt" \
  | sed "s|^$BASE/perf/target/ingot-perf-.*\.jar$|$PERF_JAR|" | paste -sd:)"
SAMPLES=(async:ingot:after async:ingot:before batch:ingot:after batch:ingot:before async:djl-style:after
  async:triton-style:after async:hand-off-floor:after)
rm -rf "$OUT/fresh"
for round in $(seq 1 "$FRESH_ROUNDS"); do
  for k in $(seq 0 $(( ${#SAMPLES[@]} - 1 ))); do
    sample="${SAMPLES[$(( (k + round) % ${#SAMPLES[@]} ))]}"
    IFS=: read -r way pipeline build <<< "$sample"
    cp_now="$CP"; [ "$build" = before ] && cp_now="$BASE_CP"
    dir="$OUT/fresh/round-$round/$way-$pipeline-$build"
    mkdir -p "$dir"
    echo "+ java -cp \$$([ "$build" = before ] && echo BASE_CP || echo CP) io.ingot.perf.pipeline.InFlightComparison $dir rounds=1 levels=64 windowMs=3000 warmupMs=2000 maxBatch=8 split=4 only=$way:$pipeline" >> "$OUT/commands.txt"
    "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$cp_now" io.ingot.perf.pipeline.InFlightComparison \
      "$dir" rounds=1 levels=64 windowMs=3000 warmupMs=2000 maxBatch=8 split=4 "only=$way:$pipeline" 2>&1 \
      | grep '^round' | sed "s/^round 1/round $round/; s/\$/  ($build)/" | tee -a "$OUT/fresh.log"
  done
done
python3 benchmarks/python/fresh_samples.py "$OUT/fresh" | tee "$OUT/fresh.md"
fi
{ echo "end $(date -u +%FT%TZ)"; uptime; } | tee -a "$OUT/load.txt"
