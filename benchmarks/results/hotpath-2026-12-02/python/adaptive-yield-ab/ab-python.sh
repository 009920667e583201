#!/bin/bash
# A/B of the Python shared-memory round trip: the ring module's jar before/after, alternating server runs.
# Usage: ab-python.sh PAIRS OUTDIR
set -u
cd /work/main; source tools/java-env.sh
pairs=$1; out=$2; mkdir -p "$out"
clijar=$(ls cli/target/ingot-cli-*.jar | grep -v tests | head -1)
base=$(cat cli/target/classpath.txt)
ringjar=$HOME/.m2/repository/io/ingot/ingot-ring/0.1.0-SNAPSHOT/ingot-ring-0.1.0-SNAPSHOT.jar
for p in $(seq 1 $pairs); do
  order="before after"; [ $((p % 2)) = 0 ] && order="after before"
  for v in $order; do
    cp=${base//$ringjar//tmp/repro/ring-$v.jar}
    $JAVA_HOME/bin/java --enable-native-access=ALL-UNNAMED --add-opens java.base/jdk.internal.misc=ALL-UNNAMED \
      -cp "$clijar:$cp" io.ingot.cli.IngotCli serve --model-repository examples/models --http-port 18010 \
      --grpc-port -1 --metrics-port -1 --ipc abpy > "$out/server-$p-$v.log" 2>&1 &
    server=$!
    for _ in $(seq 1 120); do curl -sf localhost:18010/v2/health/ready > /dev/null && break; sleep 1; done
    /usr/bin/python3 benchmarks/python/transport_latency.py --ipc abpy --http 127.0.0.1:18010 \
      --json "$out/pair$p-$v.json" > "$out/pair$p-$v.txt" 2>&1
    kill $server; wait $server 2>/dev/null
    echo "pair $p $v load=$(cut -d' ' -f1 /proc/loadavg) $(grep "median round" "$out/pair$p-$v.txt")"
  done
done
