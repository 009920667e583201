#!/bin/bash
cd /work/main
O=benchmarks/results/hotpath-2026-12-03/spin-before-yield
mkdir -p $O
for r in 1 2 3; do
  for sb in 1000 5000 20000; do
    echo "$(date -u +%H:%M:%S) round $r spin-before-yield $sb ns" | tee -a $O/log.txt
    INGOT_JAVA_OPTS="-Dingot.experiment.spinBeforeYieldNanos=$sb" ./ingot perf baselines --pipelines ingot,djl-style \
      --concurrency 1,16,32,64 --rounds 1 --json $O/sb$sb-r$r.json > $O/sb$sb-r$r.txt 2>&1
  done
done
echo "$(date -u +%H:%M:%S) done" | tee -a $O/log.txt
