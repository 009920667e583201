#!/usr/bin/env bash
# Runs the JMH benchmarks docs/benchmarks/jmh.md reports: short runs (2 cores, shared and noisy), every Ingot path
# beside its baselines and floors in the same run. Results: benchmarks/results/jmh/<name>.{json,txt,cmd}.
# Usage: benchmarks/run-jmh.sh [overhead|intake|alloc|assembly|all]   (after: mvn -B -pl benchmarks -am package)
# OUT=DIR writes the results there instead of benchmarks/results/jmh.
#   overhead  OverheadBenchmark at one caller (Ingot, the DJL-style and Triton-style batchers, the engine called
#             directly; BLOCKING and SPINNING) and FloorBenchmark (park/unpark and spin round trips)
#   intake    IntakeBenchmark at 1, 2 and 4 producers (Ingot's intake against the two baselines' queues)
#   alloc     -prof gc of Ingot's future and listener paths at 1 and 16 callers (batches of one, and of up to eight)
#   assembly  AssemblyBenchmark (the copy into staging against a plain memcpy)
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
# shellcheck source=../tools/java-env.sh
source "$ROOT/tools/java-env.sh"
JAR="$ROOT/benchmarks/target/benchmarks.jar"
OUT="${OUT:-$ROOT/benchmarks/results/jmh}"
mkdir -p "$OUT"
jmh() {
  local name="$1"; shift
  echo "java -jar benchmarks/target/benchmarks.jar $*" | tee "$OUT/$name.cmd"
  "$JAVA_HOME/bin/java" -jar "$JAR" "$@" -rf json -rff "$OUT/$name.json" > "$OUT/$name.txt" 2>&1
  sed -n '/^Benchmark /,$p' "$OUT/$name.txt"
}
what="${1:-all}"
if [[ "$what" == overhead || "$what" == all ]]; then
  jmh overhead-t1 'OverheadBenchmark|FloorBenchmark' -t 1
fi
if [[ "$what" == intake || "$what" == all ]]; then
  for t in 1 2 4; do jmh "intake-t$t" IntakeBenchmark -t "$t"; done
fi
if [[ "$what" == alloc || "$what" == all ]]; then
  # The future path (IngotPathsBenchmark) and the listener path (OverheadBenchmark's Ingot pipeline); one caller
  # makes batches of one, sixteen fill them up to eight.
  for t in 1 16; do
    jmh "alloc-t$t" 'IngotPathsBenchmark|OverheadBenchmark' -t "$t" -p pipeline=ingot -p idle=BLOCKING -bm avgt \
      -tu us -prof gc
  done
fi
if [[ "$what" == assembly || "$what" == all ]]; then
  jmh assembly AssemblyBenchmark -i 10
fi
