#!/usr/bin/env bash
# The first measurement of the adaptive batch-formation policies (docs/adaptive-batching.md): the cost model
# (2000 + 100·batch µs, two instances, max_batch_size 16) under its bundled static batching (2000 µs delay), the
# adaptive policy (SLO 10 ms at p99) and Clipper's AIMD (10 ms per execution), plus unbatched at concurrency 1.
# Interleaved: each round runs every configuration once, in the same process layout (in-process core), same cores.
# Usage: benchmarks/results/adaptive/run.sh [ROUNDS]   (from the repository root; writes raw/ and logs/ here)
set -euo pipefail
cd "$(dirname "$0")/../../.."
HERE=benchmarks/results/adaptive
ROUNDS=${1:-2}
mkdir -p "$HERE/raw" "$HERE/logs"
PERF=(./ingot perf --model-repository "$HERE/models" -p 2000 --warmup-interval 1000 -r 6)
for round in $(seq 1 "$ROUNDS"); do
  for model in cost_static cost_adaptive cost_aimd cost_unbatched; do
    levels=1:16:x16
    [ "$model" = cost_unbatched ] && levels=1
    "${PERF[@]}" -m "$model" --concurrency-range "$levels" --label "$model" \
      --json "$HERE/raw/closed-$model-r$round.json" > "$HERE/logs/closed-$model-r$round.txt" 2>&1
  done
  for model in cost_static cost_adaptive cost_aimd; do
    "${PERF[@]}" -m "$model" --request-rate-range 500:4000:x2 --request-distribution poisson --max-threads 64 \
      --label "$model" --json "$HERE/raw/poisson-$model-r$round.json" > "$HERE/logs/poisson-$model-r$round.txt" 2>&1
  done
done
