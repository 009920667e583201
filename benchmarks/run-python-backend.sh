#!/usr/bin/env bash
# The Python backend's costs of issue #31 (BENCHMARKS.md section 5, "After issue #31"; docs/benchmarks/python-backend.md),
# measured in one run, rounds interleaved:
#   * an empty Python model (benchmarks/python/models/empty: execute returns each request's input) through Ingot's
#     in-process core at concurrency 1 and 16 (`ingot perf`), against the same execute() in a plain Python loop
#     (benchmarks/python/direct_loop.py: the model's own cost);
#   * with BASE=<a checkout of an earlier commit, built>, the same `ingot perf` runs with that checkout's ./ingot;
#   * a decoupled Python model sending 1, 16 and 64 responses per request (benchmarks/python/models/stream), through
#     the core (JMH PythonBackendBenchmark.stream, one caller): the slope is the cost of one streamed response.
# Raw results: benchmarks/results/python-backend/ (JSON, commands.txt, table.md).
# Usage: [BASE=DIR] benchmarks/run-python-backend.sh [ROUNDS]   (builds benchmarks/target/benchmarks.jar if missing)
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
cd "$ROOT"
# shellcheck source=../tools/java-env.sh
source tools/java-env.sh
R=benchmarks/results/python-backend
ROUNDS="${1:-3}"
BASE="${BASE:-}"
mkdir -p "$R"
rm -f "$R"/*.json "$R"/*.txt "$R/commands.txt"
[ -f benchmarks/target/benchmarks.jar ] || mvn -B -q -ntp -pl benchmarks -am package -DskipTests
./ingot --version > /dev/null
# `ingot perf` loads every model of its repository: the empty model alone, so that an earlier build (which refuses
# decoupled models) loads the same repository.
REPO="$(mktemp -d)"
trap 'rm -rf "$REPO"' EXIT
cp -r benchmarks/python/models/empty "$REPO/"

run() { echo "+ $*" | sed "s|$REPO|\$REPO|g; s|$ROOT/||g" | tee -a "$R/commands.txt"; "$@" 2>&1 | grep -v '^INFO\|^\[python' ; }

for round in $(seq 1 "$ROUNDS"); do
  run /usr/bin/python3 -P benchmarks/python/direct_loop.py benchmarks/python/models/empty --requests 20000 \
    --json "$R/loop-r$round.json"
  for concurrency in 1 16; do
    run ./ingot perf --model-repository "$REPO" -m empty --concurrency-range "$concurrency" -p 2000 \
      --warmup-interval 1000 -s 10 -r 6 --label "empty c$concurrency round $round" \
      --json "$R/ingot-c$concurrency-r$round.json"
    if [ -n "$BASE" ]; then
      run "$BASE/ingot" perf --model-repository "$REPO" -m empty --concurrency-range "$concurrency" -p 2000 \
        --warmup-interval 1000 -s 10 -r 6 --label "empty c$concurrency round $round (base)" \
        --json "$R/base-c$concurrency-r$round.json"
    fi
  done
  run "$JAVA_HOME/bin/java" -Djmh.ignoreLock=true -jar benchmarks/target/benchmarks.jar \
    'PythonBackendBenchmark.stream' -t 1 -rf json -rff "$R/stream-r$round.json"
done
/usr/bin/python3 benchmarks/python/python_backend_tables.py "$R" | tee "$R/table.md"
