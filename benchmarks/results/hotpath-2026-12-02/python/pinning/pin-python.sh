#!/bin/bash
# The Python shared-memory round trip, server and client unpinned against pinned to separate CPUs (taskset),
# alternating. Usage: pin-python.sh PAIRS OUTDIR
set -u
cd /work/main; source tools/java-env.sh
pairs=$1; out=$2; mkdir -p "$out"
clijar=$(ls cli/target/ingot-cli-*.jar | grep -v tests | head -1)
cp=$(cat cli/target/classpath.txt)
for p in $(seq 1 $pairs); do
  order="free pinned"; [ $((p % 2)) = 0 ] && order="pinned free"
  for v in $order; do
    if [ $v = pinned ]; then srv=(taskset -c 1); cli=(taskset -c 0); else srv=(); cli=(); fi
    "${srv[@]}" $JAVA_HOME/bin/java --enable-native-access=ALL-UNNAMED --add-opens java.base/jdk.internal.misc=ALL-UNNAMED \
      -cp "$clijar:$cp" io.ingot.cli.IngotCli serve --model-repository examples/models --http-port 18010 \
      --grpc-port -1 --metrics-port -1 --ipc pinpy > "$out/server-$p-$v.log" 2>&1 &
    server=$!
    for _ in $(seq 1 120); do curl -sf localhost:18010/v2/health/ready > /dev/null && break; sleep 1; done
    "${cli[@]}" /usr/bin/python3 benchmarks/python/transport_latency.py --ipc pinpy --http 127.0.0.1:18010 \
      --json "$out/pair$p-$v.json" > "$out/pair$p-$v.txt" 2>&1
    kill $server; wait $server 2>/dev/null
    echo "pair $p $v $(grep "median round" "$out/pair$p-$v.txt")"
  done
done
