#!/usr/bin/env bash
# The Python part of run.sh for this build only, alternating the server's --idle-mode: BLOCKING (the default: 1 µs
# spin, 19 µs of yielding, then sleep on the doorbell) and SECOND_MODE (SPINNING, the default here: the threads never
# sleep; or BACKOFF: 1 ms of yielding before the sleep), one server at a time, each run with its own echo floors.
# Usage: [SECOND_MODE=BACKOFF] benchmarks/results/ipc-borrow-2026-12-05/idle-modes.sh [ALTERNATIONS]
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../../.." && pwd)"
cd "$ROOT"
ALTERNATIONS="${1:-4}"
SECOND="${SECOND_MODE:-SPINNING}"
OUT=benchmarks/results/ipc-borrow-2026-12-05/idle-modes-$SECOND
mkdir -p "$OUT"
REPO="$(mktemp -d)"
trap 'rm -rf "$REPO"' EXIT
cp -r examples/models/identity "$REPO/"
./ingot --version > /dev/null
{ echo "start $(date -u +%FT%TZ)"; uptime; } | tee "$OUT/load.txt"
: > "$OUT/commands.txt"
measure() {  # $1 idle mode, $2 alternation
  local mode="$1" n="$2" port=$((18500 + $2)) name="idle-$1-$2" server
  if [ "$mode" = "$SECOND" ]; then port=$((18550 + n)); fi
  ./ingot serve --model-repository "$REPO" --http-port "$port" --grpc-port -1 --metrics-port -1 --ipc "$name" \
    --idle-mode "$mode" > "$OUT/server-$mode-$n.log" 2>&1 &
  server=$!
  for _ in $(seq 1 120); do curl -sf "localhost:$port/v2/health/ready" > /dev/null && break; kill -0 "$server" || { echo "server $mode-$n did not start" >&2; exit 1; }; sleep 0.5; done
  echo "+ ./ingot serve ... --idle-mode $mode; python3 benchmarks/python/transport_latency.py --ipc $name --http 127.0.0.1:$port --floor --rounds 1 --json $OUT/python-$mode-$n.json" >> "$OUT/commands.txt"
  /usr/bin/python3 benchmarks/python/transport_latency.py --ipc "$name" --http "127.0.0.1:$port" --floor \
    --rounds 1 --json "$OUT/python-$mode-$n.json" 2>&1 | tee "$OUT/python-$mode-$n.log"
  kill "$server" 2>/dev/null || true; wait "$server" || true
}
for n in $(seq 1 "$ALTERNATIONS"); do
  if (( n % 2 )); then measure BLOCKING "$n"; measure "$SECOND" "$n"; else measure "$SECOND" "$n"; measure BLOCKING "$n"; fi
done
{ echo "end $(date -u +%FT%TZ)"; uptime; } | tee -a "$OUT/load.txt"
python3 benchmarks/python/transport_runs.py "$OUT" BLOCKING "$SECOND" | tee "$OUT/summary.md"
