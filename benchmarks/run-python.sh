#!/usr/bin/env bash
# The Python backend's measurements of docs/benchmarks/python-backend.md: Triton's add_sub in Python through Ingot
# (in-process core, `ingot perf`) against the built-in add_sub in the same kind of run, and against the same
# execute() in a plain Python loop; concurrency 1 and 16; rounds interleaved. Raw results: benchmarks/results/python.
# Usage: benchmarks/run-python.sh [ROUNDS]   (./ingot builds what it needs on first use)
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
cd "$ROOT"
R=benchmarks/results/python
ROUNDS="${1:-3}"
mkdir -p "$R"
rm -f "$R"/*.json "$R/commands.txt"
./ingot --version > /dev/null

# The two models of examples/models, without the 2 ms queue delay (which would dominate concurrency 1), in a
# repository of their own so that the core loads nothing else.
REPO="$(mktemp -d)"
trap 'rm -rf "$REPO"' EXIT
cp -r examples/models/add_sub examples/models/add_sub_python "$REPO/"
sed -i 's/max_queue_delay_microseconds: 2000/max_queue_delay_microseconds: 0/' "$REPO"/*/config.pbtxt

run() { echo "+ $*" | sed "s|$REPO|\$REPO|g" | tee -a "$R/commands.txt"; "$@" 2>&1 | grep -v '^INFO\|^\[python\|^Cleaning' ; }

for round in $(seq 1 "$ROUNDS"); do
  run /usr/bin/python3 benchmarks/python/direct_loop.py examples/models/add_sub_python --requests 20000 \
    --json "$R/direct-loop-r$round.json"
  for concurrency in 1 16; do
    for model in add_sub add_sub_python; do
      run ./ingot perf --model-repository "$REPO" -m "$model" --concurrency-range "$concurrency" \
        -p 2000 --warmup-interval 1000 -s 10 -r 6 --label "$model c$concurrency round $round" \
        --json "$R/$model-c$concurrency-r$round.json"
    done
  done
done
/usr/bin/python3 benchmarks/python/tables.py "$R" | tee "$R/table.md"
