#!/usr/bin/env bash
# Intake (IntakeBenchmark) with the pipelines interleaved: each round runs every pipeline once, in its own short JMH
# fork, at each producer count, so a burst of load on this shared machine lands on all of them; the ratios are taken
# within a round and summarised over the rounds (benchmarks/results/intake-rounds.py). With BEFORE_JAR set to an
# earlier build's benchmarks.jar, its Ingot pipeline runs in every round too, as "ingot-before".
# PIPELINES overrides the list (default "ingot djl-style triton-style"); SCOPE=batcher measures the batchers alone
# (IntakeBenchmark's scope parameter; default pipeline, the whole path); with SCOPE, BEFORE_JAR's build must know it.
# Two more names run Ingot's pipeline over the LMAX Disruptor's ring instead of its own (docs/benchmarks/ring-choice.md):
# "ingot-disruptor" (claims with tryNext, as Ingot did until 2026-12-02) and "ingot-disruptor-next" (claims with
# next); benchmarks/target/disruptor-ring comes first on their class path, everything else is the same jar.
# Usage: benchmarks/intake-rounds.sh [ROUNDS] [PRODUCERS...]   (default: 3 rounds, 2 and 4 producers)
# Results: benchmarks/results/intake-rounds/<round>-t<P>-<pipeline>.json, and the summary on stdout.
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
# shellcheck source=../tools/java-env.sh
source "$ROOT/tools/java-env.sh"
# shellcheck source=jmh-fork.sh
source "$ROOT/benchmarks/jmh-fork.sh"
JAR="$ROOT/benchmarks/target/benchmarks.jar"
DISRUPTOR_RING="$ROOT/benchmarks/target/disruptor-ring"
OUT="${OUT:-$ROOT/benchmarks/results/intake-rounds}"
rounds="${1:-3}"
shift || true
producers=("${@:-2 4}")
read -r -a producers <<< "${producers[*]}"
mkdir -p "$OUT"
read -r -a pipelines <<< "${PIPELINES:-ingot djl-style triton-style}"
[ -n "${BEFORE_JAR:-}" ] && pipelines+=(ingot-before)
if [[ " ${pipelines[*]} " == *" ingot-disruptor"* && ! -f "$DISRUPTOR_RING/io/ingot/ring/RequestRing.class" ]]; then
  echo "no $DISRUPTOR_RING/io/ingot/ring/RequestRing.class: build it with mvn -pl benchmarks -am package" \
    "(without -Dmaven.test.skip, which skips it)" >&2
  exit 2
fi
echo "$(date -u +%FT%TZ) $(git -C "$ROOT" rev-parse --short HEAD) scope=${SCOPE:-pipeline} rounds=$rounds producers=${producers[*]} pipelines=${pipelines[*]} load: $(cut -d' ' -f1-3 /proc/loadavg)" \
  > "$OUT/run.txt"
for round in $(seq 1 "$rounds"); do
  for t in "${producers[@]}"; do
    # Rotate the order each round, so no pipeline always runs first after a pause.
    n=${#pipelines[@]}
    for i in $(seq 0 $((n - 1))); do
      p=${pipelines[$(((i + round) % n))]}
      cp=$JAR; param=$p; extra=(); ring="fetch-and-add"
      case "$p" in
        ingot-before) cp=$BEFORE_JAR; param=ingot; ring="" ;;
        ingot-disruptor) cp="$DISRUPTOR_RING:$JAR"; param=ingot; ring="the Disruptor's (DisruptorRequestRing, claim TRY_NEXT)"
          extra=(-jvmArgsAppend -Dingot.bench.disruptor.claim=tryNext) ;;
        ingot-disruptor-next) cp="$DISRUPTOR_RING:$JAR"; param=ingot; ring="the Disruptor's (DisruptorRequestRing, claim NEXT)"
          extra=(-jvmArgsAppend -Dingot.bench.disruptor.claim=next) ;;
      esac
      jmh_fork "$OUT/$round-t$t-$p.txt" "$JAVA_HOME/bin/java" -cp "$cp" org.openjdk.jmh.Main IntakeBenchmark -t "$t" \
        -p pipeline="$param" -p scope="${SCOPE:-pipeline}" -f 1 -wi 2 -w 2 -i 3 -r 2 "${extra[@]}" \
        -rf json -rff "$OUT/$round-t$t-$p.json"
      # Ingot's runs name the ring they ran on: a class path that did not take would measure the wrong ring.
      if [[ "$param" == ingot && -n "$ring" ]] && ! grep -qF "intake ring: $ring" "$OUT/$round-t$t-$p.txt"; then
        echo "$p ran on another ring than $ring: see $OUT/$round-t$t-$p.txt" >&2
        exit 1
      fi
      echo "round $round, $t producers, $p: $(grep -E '^IntakeBenchmark' "$OUT/$round-t$t-$p.txt" | awk '{print $(NF-3)}') ops/s" \
        "$(grep -oE '[0-9.]+ per execution' "$OUT/$round-t$t-$p.txt" || true)"
    done
  done
done
echo "$(date -u +%FT%TZ) done, load: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/run.txt"
python3 "$ROOT/benchmarks/results/intake-rounds.py" "$OUT"
