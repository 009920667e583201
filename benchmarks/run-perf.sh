#!/usr/bin/env bash
# Runs the `ingot perf` measurements and the real-model comparison recorded in docs/benchmarks/, and draws the plots.
# Usage: benchmarks/run-perf.sh [baselines|python-transport|inprocess|network|transports|minilm-open|comparison|pytorch|plots|all]
# (./ingot builds what it needs, the example models included, on first use.)
# PERF_OUT=DIR writes the ingot perf files there instead of benchmarks/results/perf; PY_JSON=FILE is where
# python-transport writes its JSON.
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
cd "$ROOT"
# shellcheck source=../tools/java-env.sh
source "$ROOT/tools/java-env.sh"
JAVA=("$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED)
./ingot --version > /dev/null  # builds the cli module (and the example models) when needed
CP="$(ls cli/target/ingot-cli-*.jar | grep -v -- -tests):$(cat cli/target/classpath.txt)"
PERF=(./ingot perf)
R=${PERF_OUT:-benchmarks/results/perf}  # PERF_OUT=DIR keeps an earlier run's files
PLOTS=docs/benchmarks
mkdir -p "$R" "$PLOTS"
WINDOW=(-p 2000 --warmup-interval 1000 -s 10 -r 8)
what="${1:-all}"

run() { echo "+ ingot perf ${*}" | tee -a "$R/commands.txt"; "${PERF[@]}" "$@" 2>&1 | grep -v '^INFO\|^[A-Z][a-z][a-z] [0-9]' ; }

if [[ "$what" == baselines || "$what" == all ]]; then
  # Issue 13's comparison: Ingot against the DJL-style and Triton-style batchers, the engine called directly and the
  # two thread hand-off floors, all in one run per idle mode, rounds interleaved (docs/benchmarks/hot-path.md).
  B=benchmarks/results/baselines
  mkdir -p "$B"
  run baselines --idle-mode BLOCKING --json "$B/baselines-blocking.json" --markdown "$B/baselines-blocking.md" \
    --plot "$B/baselines-blocking-p99.png"
  run baselines --idle-mode SPINNING --concurrency 1 --json "$B/baselines-spinning-c1.json" \
    --markdown "$B/baselines-spinning-c1.md"
fi

if [[ "$what" == python-transport || "$what" == all ]]; then
  # Python at concurrency 1: the shared-memory client against a KServe-binary HTTP client, one server, rounds
  # interleaved (tritonclient is not installable here: no PyPI).
  ./ingot serve --model-repository examples/models --http-port 18010 --grpc-port -1 --metrics-port -1 \
    --ipc bench-py > "$R/python-transport-server.log" 2>&1 &
  server=$!
  trap 'kill $server 2>/dev/null || true' EXIT
  for _ in $(seq 1 120); do curl -sf localhost:18010/v2/health/ready > /dev/null && break; sleep 1; done
  echo "+ python3 benchmarks/python/transport_latency.py --ipc bench-py --http 127.0.0.1:18010 --floor" | tee -a "$R/commands.txt"
  /usr/bin/python3 benchmarks/python/transport_latency.py --ipc bench-py --http 127.0.0.1:18010 --floor \
    --json "${PY_JSON:-benchmarks/results/python/transport-latency-c1.json}"
  kill "$server"; wait "$server" 2>/dev/null || true
  trap - EXIT
fi

if [[ "$what" == inprocess || "$what" == all ]]; then
  for idle in BLOCKING SPINNING; do
    run --model-repository examples/models -m identity --shape INPUT0:16 --concurrency-range 1:64:x2 \
      "${WINDOW[@]}" --idle-mode "$idle" --label "in-process, idle $idle" \
      --json "$R/identity-inprocess-${idle,,}.json" -f "$R/identity-inprocess-${idle,,}.csv"
  done
fi

if [[ "$what" == network || "$what" == all ]]; then
  ./ingot serve --model-repository examples/models --http-port 18000 --grpc-port 18001 --metrics-port 18002 \
    > "$R/bench-server.log" 2>&1 &
  server=$!
  trap 'kill $server 2>/dev/null || true' EXIT
  for _ in $(seq 1 120); do curl -sf localhost:18000/v2/health/ready > /dev/null && break; sleep 1; done
  run -u 127.0.0.1:18000 -m identity --shape INPUT0:16 --concurrency-range 1:64:x2 "${WINDOW[@]}" \
    --label "HTTP (JDK HttpClient, binary tensors)" --json "$R/identity-http.json" -f "$R/identity-http.csv"
  run -i grpc -u 127.0.0.1:18001 -m identity --shape INPUT0:16 --concurrency-range 1:64:x2 "${WINDOW[@]}" \
    --label "gRPC (grpc-java, raw contents)" --json "$R/identity-grpc.json" -f "$R/identity-grpc.csv"
  kill "$server"; wait "$server" 2>/dev/null || true
  trap - EXIT
fi

if [[ "$what" == transports || "$what" == all ]]; then
  # In-process, shared-memory IPC, HTTP and gRPC to one core, interleaved in one run (docs/benchmarks/perf-transports.md).
  run transports --model-repository examples/models -m identity \
    --json "$R/transports-identity.json" --markdown "$R/transports-identity.md"
fi

if [[ "$what" == minilm-open || "$what" == all ]]; then
  for dist in constant poisson; do
    run --model-repository examples/models -m minilm --shape input_ids:64 --shape attention_mask:64 \
      --shape token_type_ids:64 --input-value attention_mask=1 --input-value token_type_ids=0 \
      --request-rate-range 20:160:x2 --request-distribution "$dist" --max-threads 64 "${WINDOW[@]}" \
      --label "MiniLM open loop, $dist arrivals" --json "$R/minilm-open-$dist.json" -f "$R/minilm-open-$dist.csv"
  done
fi

if [[ "$what" == comparison || "$what" == all ]]; then
  "${JAVA[@]}" -cp "$CP" io.ingot.perf.baseline.Comparison minilm --concurrency 1,2,4,8,16 \
    --out benchmarks/results/minilm 2>&1 | grep -v '^INFO\|^[A-Z][a-z][a-z] [0-9]'
  "${JAVA[@]}" -cp "$CP" io.ingot.perf.baseline.Comparison cost --concurrency 1,2,4,8,16,32,64 \
    --out benchmarks/results/cost 2>&1 | grep -v '^INFO\|^[A-Z][a-z][a-z] [0-9]'
  "${JAVA[@]}" -cp "$CP" io.ingot.perf.baseline.Comparison cost --concurrency 1,2,4,8,16,32,64 \
    --queue-delay-us 1000 --out benchmarks/results/cost-delay1000 2>&1 | grep -v '^INFO\|^[A-Z][a-z][a-z] [0-9]'
fi

if [[ "$what" == pytorch || "$what" == all ]]; then
  # The PyTorch backend against libtorch called directly (docs/benchmarks/real-models.md, "TorchScript"): a compute-bound MLP, and
  # the example's tiny one, where Ingot's own overhead shows.
  "${JAVA[@]}" -cp "$CP" io.ingot.perf.baseline.Comparison torchscript --concurrency 1,2,4,8,16 \
    --out benchmarks/results/pytorch/mlp-256-1024-16 2>&1 | grep -v '^INFO\|^[A-Z][a-z][a-z] [0-9]'
  "${JAVA[@]}" -cp "$CP" io.ingot.perf.baseline.Comparison torchscript --concurrency 1,2,4,8,16 \
    --direct-modules per-thread --out benchmarks/results/pytorch/mlp-256-1024-16-per-thread 2>&1 \
    | grep -v '^INFO\|^[A-Z][a-z][a-z] [0-9]'
  "${JAVA[@]}" -cp "$CP" io.ingot.perf.baseline.Comparison torchscript --concurrency 1,2,4,8,16 \
    --features 16 --hidden 32 --outputs 4 --out benchmarks/results/pytorch/mlp-16-32-4 2>&1 \
    | grep -v '^INFO\|^[A-Z][a-z][a-z] [0-9]'
fi

if [[ "$what" == plots || "$what" == all ]]; then
  "${PERF[@]}" plot -o "$PLOTS/identity-p99.png" --latency p99 --log-latency \
    --title "identity model, 64-byte requests: p99 latency vs throughput (labels: concurrency)" --log-throughput \
    "$R/identity-inprocess-blocking.json" "$R/identity-inprocess-spinning.json" "$R/identity-http.json" \
    "$R/identity-grpc.json"
  "${PERF[@]}" plot -o "$PLOTS/identity-p50.png" --latency p50 --log-latency \
    --title "identity model, 64-byte requests: p50 latency vs throughput (labels: concurrency)" --log-throughput \
    "$R/identity-inprocess-blocking.json" "$R/identity-inprocess-spinning.json" "$R/identity-http.json" \
    "$R/identity-grpc.json"
  "${PERF[@]}" plot -o "$PLOTS/minilm-open-loop-p99.png" --latency p99 \
    --title "MiniLM in-process, open loop: p99 latency vs throughput (labels: request rate/s)" \
    "$R/minilm-open-constant.json" "$R/minilm-open-poisson.json"
  cp benchmarks/results/minilm/latency-throughput-p99.png "$PLOTS/minilm-vs-ort-p99.png"
  cp benchmarks/results/cost/latency-throughput-p99.png "$PLOTS/cost-vs-ideal-p99.png"
fi
