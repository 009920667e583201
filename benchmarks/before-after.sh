#!/usr/bin/env bash
# Runs the same JMH selection from two benchmark jars (a commit before a change and one after it) alternately, in
# ROUNDS rounds, so that the load other processes put on a shared machine falls on both alike; before-after.py reads
# the results and prints each benchmark's after/before ratio per round and its median.
# Usage: benchmarks/before-after.sh BEFORE_JAR AFTER_JAR ROUNDS OUT_DIR JMH_ARGS...
# The "before" forks get --add-opens java.base/jdk.internal.misc=ALL-UNNAMED as well: jars built before issue 33 ran
# Agrona's Unsafe-backed queues and need it; the flag changes nothing else.
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
# shellcheck source=../tools/java-env.sh
source "$ROOT/tools/java-env.sh"
before="$1"; after="$2"; rounds="$3"; out="$4"; shift 4
mkdir -p "$out"
echo "benchmarks/before-after.sh $before $after $rounds $out $*" > "$out/command.txt"
for round in $(seq 1 "$rounds"); do
  for side in before after; do
    jar="$before"; extra=(-jvmArgsAppend "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED")
    if [ "$side" = after ]; then jar="$after"; extra=(); fi
    echo "round $round: $side ($jar)"
    "$JAVA_HOME/bin/java" -jar "$jar" "$@" "${extra[@]}" -rf json -rff "$out/$side-$round.json" \
      > "$out/$side-$round.txt" 2>&1
  done
done
python3 "$ROOT/benchmarks/before-after.py" "$out"
