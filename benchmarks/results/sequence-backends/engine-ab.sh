#!/usr/bin/env bash
# The engines alone (EngineTimes.java), the build before the change and after it, alternating process by process:
#   benchmarks/results/sequence-backends/engine-ab.sh /tmp/base-checkout . 6 > engine-ab.txt
# Each build's class path: its cli/target/classpath.txt plus test-support's classes (FakeBatch, TestModels).
set -euo pipefail
BASE=$(cd "$1" && pwd); NEW=$(cd "$2" && pwd); ROUNDS=${3:-6}
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=/dev/null
source "$NEW/tools/java-env.sh"
run() { # checkout label
  local cp="$1/test-support/target/classes:$(cat "$1/cli/target/classpath.txt")"
  echo "== $2"
  TF_CPP_MIN_LOG_LEVEL=2 java --enable-native-access=ALL-UNNAMED -cp "$cp" "$HERE/EngineTimes.java" \
    "$NEW/examples/models" 1500 2>/dev/null | grep median
}
for round in $(seq 1 "$ROUNDS"); do
  echo "round $round"
  if (( round % 2 )); then run "$BASE" base; run "$NEW" new; else run "$NEW" new; run "$BASE" base; fi
done
