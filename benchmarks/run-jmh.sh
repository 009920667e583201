#!/usr/bin/env bash
# Runs the JMH benchmarks of issue #6 as recorded in BENCHMARKS.md: short runs (2 cores, shared and noisy), each
# benchmark beside its baseline in the same fork sequence. Results: benchmarks/results/jmh/*.json and *.txt.
# Usage: benchmarks/run-jmh.sh [intake|assembly|overhead|alloc|all]   (after: mvn -pl benchmarks -am package)
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
# shellcheck source=../tools/java-env.sh
source "$ROOT/tools/java-env.sh"
JAR="$ROOT/benchmarks/target/benchmarks.jar"
OUT="$ROOT/benchmarks/results/jmh"
mkdir -p "$OUT"
jmh() {
  local name="$1"; shift
  echo "java -jar benchmarks/target/benchmarks.jar $*" | tee "$OUT/$name.cmd"
  "$JAVA_HOME/bin/java" -jar "$JAR" "$@" -rf json -rff "$OUT/$name.json" > "$OUT/$name.txt" 2>&1
  sed -n '/^Benchmark /,$p' "$OUT/$name.txt"
}
what="${1:-all}"
if [[ "$what" == intake || "$what" == all ]]; then
  for t in 1 2 4; do jmh "intake-t$t" RingIntakeBenchmark -t "$t" -f 2; done
fi
if [[ "$what" == assembly || "$what" == all ]]; then
  jmh assembly AssemblyBenchmark -f 1 -i 10
fi
if [[ "$what" == overhead || "$what" == all ]]; then
  jmh overhead-t1 OverheadBenchmark -t 1 -f 1 -p idle=BLOCKING,SPINNING
  jmh overhead-t16 OverheadBenchmark -t 16 -f 1
fi
if [[ "$what" == alloc || "$what" == all ]]; then
  jmh alloc-t1 OverheadBenchmark -t 1 -f 1 -bm avgt -tu us -prof gc
  jmh alloc-t16 OverheadBenchmark -t 16 -f 1 -bm avgt -tu us -prof gc
fi
