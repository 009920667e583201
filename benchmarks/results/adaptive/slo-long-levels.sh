#!/usr/bin/env bash
# Issue 19's "SLO violations below the percentile's allowance": long levels, so that 1 % of a level is several
# requests, not a fraction of one. slo-compare.sh's ResNet-50 levels hold 27-144 requests (9 s each), where one slow
# image is already more than 1 %. Here each chosen rate is one level of three 20 s windows (300-550 requests), the
# configurations alternating rate by rate, Poisson arrivals, the SLO as -l.
#
# Usage: benchmarks/results/adaptive/slo-long-levels.sh REPO SLO_MS OUT "RATES" MODEL...
#   e.g. benchmarks/results/adaptive/slo-long-levels.sh benchmarks/results/adaptive/slo-2026-12-02-resnet50/models \
#          250 benchmarks/results/adaptive/slo-2026-12-03-resnet50-long "5 6 7.5 9" resnet50_best resnet50_adaptive_1x
set -euo pipefail
cd "$(dirname "$0")/../../.."
REPO=$1 SLO=$2 OUT=$3 RATES=$4
shift 4
mkdir -p "$OUT"
for rate in $RATES; do
  for model in "$@"; do
    echo "$(date -u +%H:%M:%S) $model at $rate/s" | tee -a "$OUT/progress.txt"
    ./ingot perf --model-repository "$REPO" -m "$model" --request-rate-range "$rate" --request-distribution poisson \
      --max-threads 512 -p 20000 --warmup-interval 2000 -r 3 -s 1000 -l "$SLO" --label "$model" \
      --json "$OUT/$model-$rate.json" > "$OUT/$model-$rate.log" 2>&1 || true
    grep -E '^\s*(Request rate|.*over|p99)' "$OUT/$model-$rate.log" | head -5 || true
  done
done
