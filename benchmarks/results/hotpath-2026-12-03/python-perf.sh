#!/bin/bash
# Where the time goes while a Python client calls the identity model over shared memory at concurrency 1:
# perf record -a for 15 s during transport_latency.py's IPC rounds, then the share of samples per thread and symbol.
cd /work/main
O=benchmarks/results/hotpath-2026-12-03/python-perf
mkdir -p $O
INGOT_JAVA_OPTS="-XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit" ./ingot serve --model-repository examples/models \
  --http-port 18012 --grpc-port -1 --metrics-port -1 --ipc perf-py > $O/server.log 2>&1 &
server=$!
for _ in $(seq 1 120); do curl -sf localhost:18012/v2/health/ready > /dev/null && break; sleep 1; done
/usr/bin/python3 benchmarks/python/transport_latency.py --ipc perf-py --http 127.0.0.1:18012 --rounds 6 --only-ipc \
  --requests 150000 > $O/transport.txt 2>&1 &
client=$!
sleep 6
perf record -a -F 999 -o /tmp/python-ipc.perf.data -- sleep 15 2> $O/perf-record.txt
wait $client
kill $server; wait $server 2>/dev/null
perf report -i /tmp/python-ipc.perf.data --sort comm --stdio 2>/dev/null | grep -v "^#" | grep -v "^$" | head -20 > $O/by-thread.txt
perf report -i /tmp/python-ipc.perf.data --sort comm,dso,sym --stdio 2>/dev/null | grep -v "^#" | grep -v "^$" | head -60 > $O/by-symbol.txt
