#!/bin/bash
# Measurement block, 2026-12-03: every run sequential, nothing else on the machine.
cd /work/main
O=benchmarks/results/hotpath-2026-12-03
mkdir -p $O/baselines $O/caller-awake $O/python
log() { echo "$(date -u +%H:%M:%S) $*" | tee -a $O/block1.log; }
log "load $(cut -d' ' -f1-3 /proc/loadavg) commit $(git rev-parse --short HEAD)"
log "baselines BLOCKING, all levels"
./ingot perf baselines --idle-mode BLOCKING --json $O/baselines/baselines-blocking.json --markdown $O/baselines/baselines-blocking.md --plot $O/baselines/baselines-blocking-p99.png > $O/baselines/console.txt 2>&1
log "baselines SPINNING c1"
./ingot perf baselines --idle-mode SPINNING --concurrency 1 --json $O/baselines/baselines-spinning-c1.json --markdown $O/baselines/baselines-spinning-c1.md > $O/baselines/console-spinning.txt 2>&1
for us in 0 5 20 100 0 5 20 100; do
  log "caller-awake $us"
  ./ingot perf baselines --pipelines ingot,djl-style --concurrency 16,32,64 --caller-awake-us $us --json $O/caller-awake/awake-$us-$(date +%H%M%S).json >> $O/caller-awake/console.txt 2>&1
done
log "python transport with floor"
PERF_OUT=$O/python PY_JSON=$O/python/transport-latency-c1.json benchmarks/run-perf.sh python-transport > $O/python/console.txt 2>&1
log "intake rounds, batchers alone, 1 2 4"
OUT=$O/intake-batcher SCOPE=batcher benchmarks/intake-rounds.sh 3 1 2 4 > $O/intake-batcher.txt 2>&1
log "intake rounds, whole pipeline, 1 2 4"
OUT=$O/intake-pipeline benchmarks/intake-rounds.sh 3 1 2 4 > $O/intake-pipeline.txt 2>&1
log "done"
