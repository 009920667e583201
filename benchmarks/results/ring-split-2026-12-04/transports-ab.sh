#!/usr/bin/env bash
# The IPC path before and after the ring split (issue 32), interleaved: `ingot perf transports` (in-process, IPC,
# HTTP and gRPC to one core, rounds interleaved inside each run) from two builds, taken in turns.
# Usage: transports-ab.sh BEFORE_CLASSPATH_FILE AFTER_CLASSPATH_FILE ROUNDS [OUT]
#   each CLASSPATH_FILE: one line, the cli jar and everything on ./ingot's class path (cli/target/classpath.txt),
#   copied aside from a build of that commit so that later builds do not change it.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
source "$ROOT/tools/java-env.sh"
before="$1"; after="$2"; rounds="$3"; out="${4:-$ROOT/benchmarks/results/ring-split-2026-12-04}"
mkdir -p "$out"
for round in $(seq 1 "$rounds"); do
  for side in before after; do
    cp_file=$before; [ "$side" = after ] && cp_file=$after
    echo "round $round, $side, load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/load.txt"
    "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$(cat "$cp_file")" io.ingot.cli.IngotCli \
      perf transports --model-repository "$ROOT/examples/models" -m identity --rounds 5 --requests 1000 \
      --json "$out/$round-$side.json" --markdown "$out/$round-$side.md" > "$out/$round-$side.txt" 2>&1
  done
done
