#!/usr/bin/env bash
# Issue #30 (PyTorch and TensorFlow sequence controls and implicit state): models WITHOUT sequences through the
# changed backends, before and after, interleaved (odd rounds base first, even rounds new first). BASE and NEW are
# two built checkouts (./ingot has built cli in each); both serve the same repository (torch_mlp and my_model of
# NEW's examples/models, my_model without its 2 ms queue delay, so that the engine's time is what is measured).
# Writes <model>-<idle mode>-<build>-<round>.{json,txt} here.
#   benchmarks/results/sequence-backends/run.sh /tmp/base-checkout . 1 8                 (rounds 1 to 8)
#   IDLE=SPINNING MODELS=my_model LEVELS=1 benchmarks/results/sequence-backends/run.sh /tmp/base-checkout . 1 6
set -euo pipefail
BASE=$(cd "$1" && pwd); NEW=$(cd "$2" && pwd); FIRST=${3:-1}; LAST=${4:-3}
IDLE=${IDLE:-BLOCKING}; MODELS=${MODELS:-torch_mlp my_model}; LEVELS=${LEVELS:-1:4:x4}
OUT=$(cd "$(dirname "$0")" && pwd)
REPO=$(mktemp -d)
trap 'rm -rf "$REPO"' EXIT
cp -r "$NEW/examples/models/torch_mlp" "$NEW/examples/models/my_model" "$REPO/"
sed -i 's/max_queue_delay_microseconds: 2000/max_queue_delay_microseconds: 0/' "$REPO/my_model/config.pbtxt"
declare -A SHAPES=([torch_mlp]="--shape INPUT__0:16" [my_model]="--shape INPUT0:16 --shape INPUT1:16")
run() { # checkout build round
  local dir=$1 build=$2 round=$3 model name
  for model in $MODELS; do
    name="$model-${IDLE,,}-$build-$round"
    # shellcheck disable=SC2086
    "$dir/ingot" perf --model-repository "$REPO" -m "$model" ${SHAPES[$model]} --concurrency-range "$LEVELS" \
      -p 1500 -r 8 --idle-mode "$IDLE" --label "$build" --json "$OUT/$name.json" > "$OUT/$name.txt" 2>&1
  done
}
for round in $(seq "$FIRST" "$LAST"); do
  if (( round % 2 )); then run "$BASE" base "$round"; run "$NEW" new "$round"
  else run "$NEW" new "$round"; run "$BASE" base "$round"; fi
done
