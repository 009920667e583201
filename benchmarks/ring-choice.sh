#!/usr/bin/env bash
# Which intake ring the core should run (docs/benchmarks/ring-choice.md), in one command: the project's fetch-and-add
# ring (ring module, RequestRing) against the LMAX Disruptor's (benchmarks module, DisruptorRequestRing: claimed with
# tryNext, as Ingot did until 2026-12-02, and with next), interleaved in rounds on the same machine:
#   1. ring/            RingBenchmark: the ring alone, producers with a window of 64 items, one consumer, no batching
#   2. intake-batcher/  IntakeBenchmark scope=batcher: Ingot's model scheduler and policy over each ring
#   3. intake-pipeline/ IntakeBenchmark scope=pipeline: the whole in-process core over each ring
# Each round runs every ring once per producer count, each in a short JMH fork (-f 1 -wi 2 -w 2 -i 3 -r 2), the order
# rotating; ratios are taken within a round (benchmarks/results/intake-rounds.py).
# Usage: benchmarks/ring-choice.sh [ROUNDS] [PRODUCERS...]   (default: 3 rounds; 1, 2 and 4 producers)
#   after: source tools/java-env.sh && mvn -B -pl benchmarks -am package -DskipTests
# OUT=DIR (default benchmarks/results/ring-choice-<UTC date>); PIPELINES for the intake runs (default
# "ingot ingot-disruptor ingot-disruptor-next"; add djl-style triton-style for the baselines); ONLY=ring|intake.
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
# shellcheck source=../tools/java-env.sh
source "$ROOT/tools/java-env.sh"
# shellcheck source=jmh-fork.sh
source "$ROOT/benchmarks/jmh-fork.sh"
JAR="$ROOT/benchmarks/target/benchmarks.jar"
OUT="${OUT:-$ROOT/benchmarks/results/ring-choice-$(date -u +%F)}"
rounds="${1:-3}"
shift || true
producers=("${@:-1 2 4}")
read -r -a producers <<< "${producers[*]}"
rings=(fetch-and-add disruptor disruptor-next)
mkdir -p "$OUT/ring"
{
  echo "$(date -u +%FT%TZ) $(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet HEAD -- . || echo '+changes')" \
    "rounds=$rounds producers=${producers[*]} nproc=$(nproc) load: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "command: ${0#"$ROOT/"} $rounds ${producers[*]}"
} > "$OUT/run.txt"

if [[ -z "${ONLY:-}" || "$ONLY" == ring ]]; then
  for round in $(seq 1 "$rounds"); do
    for t in "${producers[@]}"; do
      n=${#rings[@]}
      for i in $(seq 0 $((n - 1))); do
        r=${rings[$(((i + round) % n))]}
        jmh_fork "$OUT/ring/$round-t$t-$r.txt" "$JAVA_HOME/bin/java" -jar "$JAR" RingBenchmark -t "$t" -p ring="$r" \
          -f 1 -wi 2 -w 2 -i 3 -r 2 -rf json -rff "$OUT/ring/$round-t$t-$r.json"
        echo "ring alone, round $round, $t producers, $r: $(grep -E '^RingBenchmark' "$OUT/ring/$round-t$t-$r.txt" | awk '{print $(NF-3)}') ops/s"
      done
    done
  done
fi
if [[ -z "${ONLY:-}" || "$ONLY" == intake ]]; then
  for scope in batcher pipeline; do
    OUT="$OUT/intake-$scope" SCOPE=$scope PIPELINES="${PIPELINES:-ingot ingot-disruptor ingot-disruptor-next}" \
      "$ROOT/benchmarks/intake-rounds.sh" "$rounds" "${producers[@]}" > "$OUT/intake-$scope.log"
    grep '^round' "$OUT/intake-$scope.log" | sed "s/^/intake $scope, /"
  done
fi
echo "$(date -u +%FT%TZ) done, load: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/run.txt"
"$ROOT/benchmarks/results/ring-choice-tables.py" "$OUT" | tee "$OUT/tables.md"
