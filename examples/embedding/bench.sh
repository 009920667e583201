#!/usr/bin/env bash
# Times the service's embedding call four ways in one run (TransportBenchmark): Ingot in process, the Java KServe
# client over gRPC and over HTTP, and the IPC client. Needs Ingot installed (mvn install at the root) and
# examples/models/minilm/1/model.onnx (written by the reactor build).
# Usage: examples/embedding/bench.sh [OUT_DIR] [rounds] [requests] [warmup]
set -euo pipefail
HERE="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
# shellcheck source=../../tools/java-env.sh
source "$ROOT/tools/java-env.sh"
OUT="${1:-$ROOT/benchmarks/results/embedding-transports}"
shift || true
(cd "$HERE" && mvn -B -q -ntp test-compile dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile=target/test.classpath)
mkdir -p "$OUT"
echo "examples/embedding/bench.sh $OUT $*  (at $(git -C "$ROOT" rev-parse --short HEAD), load $(cut -d' ' -f1-3 /proc/loadavg))" \
  | tee "$OUT/command.txt" > /dev/stderr
exec "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -Xmx1g \
  -cp "$HERE/target/test-classes:$HERE/target/classes:$(cat "$HERE/target/test.classpath")" \
  io.ingot.examples.embedding.TransportBenchmark "$ROOT/examples/models" "$OUT" "$@"
