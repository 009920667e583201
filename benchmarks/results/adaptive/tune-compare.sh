#!/usr/bin/env bash
# The comparison issue 19 asks for, on the cost model (2000 + 100·batch µs, sleep), in one `ingot tune` sweep per
# arrival process: static candidates (instance count x max batch x queue delay x preferred sizes), the same
# candidates with the adaptive policy, and with Clipper's AIMD, all at the same offered load and the same 10 ms p99
# budget, in one process, one after another (the sweep's order interleaves the policies). The bundled static config
# is candidate #1. Usage: benchmarks/results/adaptive/tune-compare.sh [RATE] (from the repository root).
set -euo pipefail
cd "$(dirname "$0")/../../.."
HERE=benchmarks/results/adaptive
RATE=${1:-1500}
for arrivals in constant poisson bursty; do
  extra=()
  [ "$arrivals" = bursty ] && extra=(--burst-ratio 4 --burst-period-ms 100)
  out="$HERE/tune-$arrivals-$RATE"
  rm -rf "$out"
  ./ingot tune --model-repository "$HERE/models" -m cost_static --latency-budget-ms 10 \
    --request-rate "$RATE" --request-distribution "$arrivals" "${extra[@]}" --max-threads 256 \
    --instance-counts 1,2 --max-batch-sizes 4,8,16 --queue-delays-us 0,1000,2000 \
    --adaptive --variant 'ingot.batching=aimd;ingot.latency_slo_us=10000' \
    --max-candidates 40 -p 1000 --warmup-interval 500 -o "$out" > "$out.log" 2>&1 || true
done
