#!/usr/bin/env bash
# The load, soak and shutdown figures of RELIABILITY.md, against a real `./ingot serve` of examples/models:
#   1. a 60 s closed-loop load at 64 concurrent HTTP requests (`ingot perf`), counting errors;
#   2. a soak of at least 200,000 HTTP requests in rounds of three 3 s windows, with the server's heap after a full GC
#      (jcmd GC.run, GC.heap_info) sampled before and after each round;
#   3. SIGTERM under load: every request in flight answered, and how long the exit took.
# Usage: tools/reliability.sh [OUT_DIR]   (default benchmarks/results/reliability; ports 18000-18002 or
# $INGOT_RELIABILITY_PORT and the next two). Prints one line per figure; raw reports stay in OUT_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/java-env.sh
OUT="${1:-benchmarks/results/reliability}"
PORT="${INGOT_RELIABILITY_PORT:-18000}"
SOAK_REQUESTS="${INGOT_SOAK_REQUESTS:-200000}"
mkdir -p "$OUT"

./ingot serve --model-repository examples/models --http-port "$PORT" --grpc-port $((PORT + 1)) \
  --metrics-port $((PORT + 2)) > "$OUT/serve.log" 2>&1 &
SERVER=$!
trap 'kill -TERM "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 1 600); do
  grep -q "Ingot is serving" "$OUT/serve.log" && break
  kill -0 "$SERVER" 2>/dev/null || { cat "$OUT/serve.log"; exit 1; }
  sleep 1
done
# ./ingot execs java: $SERVER is the JVM itself.
heap_kib() {
  "$JAVA_HOME/bin/jcmd" "$SERVER" GC.run > /dev/null
  "$JAVA_HOME/bin/jcmd" "$SERVER" GC.heap_info | sed -n 's/.* used \([0-9]*\)K.*/\1/p' | head -1
}
field() { python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]; print(r[sys.argv[2]])" "$@"; }

echo "load: 64 concurrent HTTP requests for 60 s (three 20 s windows)"
./ingot perf -m add_sub -i http -u "127.0.0.1:$PORT" --concurrency-range 64 -p 20000 --warmup-interval 2000 \
  -r 3 -s 100 --json "$OUT/load64.json" > "$OUT/load64.txt" 2>&1
echo "LOAD concurrency=64 seconds=$(field "$OUT/load64.json" duration_s) requests=$(field "$OUT/load64.json" requests)" \
  "errors=$(field "$OUT/load64.json" errors) rps=$(field "$OUT/load64.json" requests_per_second)"

echo "soak: $SOAK_REQUESTS HTTP requests at concurrency 16, heap after GC between rounds"
echo "round,requests_total,errors_total,heap_after_gc_kib" > "$OUT/soak.csv"
total=0; errors=0; round=0
echo "0,0,0,$(heap_kib)" >> "$OUT/soak.csv"
while [ "$total" -lt "$SOAK_REQUESTS" ]; do
  round=$((round + 1))
  ./ingot perf -m add_sub -i http -u "127.0.0.1:$PORT" --concurrency-range 16 -p 3000 --warmup-interval 0 \
    -r 3 -s 100 --json "$OUT/soak-$round.json" > "$OUT/soak-$round.txt" 2>&1
  total=$((total + $(field "$OUT/soak-$round.json" requests)))
  errors=$((errors + $(field "$OUT/soak-$round.json" errors)))
  echo "$round,$total,$errors,$(heap_kib)" >> "$OUT/soak.csv"
done
echo "SOAK requests=$total errors=$errors heap_after_gc_kib=$(cut -d, -f4 "$OUT/soak.csv" | tail -n +2 | tr '\n' ' ')"

echo "drain: SIGTERM with 64 requests in flight"
start=$(date +%s%N)
trap - EXIT
probe=0
/usr/bin/python3 tools/drain_probe.py --pid "$SERVER" --http "127.0.0.1:$PORT" --connections 64 --warmup 5 \
  --json "$OUT/drain.json" || probe=$?
status=0
wait "$SERVER" || status=$?
end=$(date +%s%N)
echo "DRAIN exit_status=$status exit_ms_after_signal_about=$(( (end - start) / 1000000 - 5000 ))" \
  "server_said=\"$(grep -E "Received SIGTERM|Exit timeout|Stopped" "$OUT/serve.log" | tr '\n' ' ')\""
exit "$probe"
