#!/bin/bash
# Measurement block 2, 2026-12-03: sequential, nothing else on the machine.
cd /work/main
source tools/java-env.sh
O=benchmarks/results/hotpath-2026-12-03
mkdir -p $O/renice benchmarks/results/adaptive/c1-2026-12-03
log() { echo "$(date -u +%H:%M:%S) $*" | tee -a $O/block2.log; }
log "load $(cut -d' ' -f1-3 /proc/loadavg) commit $(git rev-parse --short HEAD)"
for r in 1 2; do
  log "python transport with the echo floors, run $r"
  PERF_OUT=$O/python PY_JSON=$O/python/transport-latency-c1-run$r.json benchmarks/run-perf.sh python-transport \
    > $O/python/console-run$r.txt 2>&1
done
for r in 1 2; do
  log "baselines 16/32/64 plain, round $r"
  ./ingot perf baselines --pipelines ingot,djl-style,triton-style --concurrency 16,32,64 --json $O/renice/plain-$r.json > $O/renice/plain-$r.txt 2>&1
  log "baselines 16/32/64, pipeline threads at nice -10, round $r"
  ./ingot perf baselines --pipelines ingot,djl-style,triton-style --concurrency 16,32,64 --json $O/renice/nice-$r.json > $O/renice/nice-$r.txt 2>&1 &
  sleep 1; $O/renice-loop.sh -10; wait
done
C1=benchmarks/results/adaptive/c1-2026-12-03
for r in 1 2; do
  for m in cost_adaptive cost_unbatched cost_static; do
    log "c1 $m round $r"
    ./ingot perf --model-repository benchmarks/results/adaptive/models -m $m --concurrency-range 1 -p 2000 \
      --warmup-interval 1000 -r 3 -s 1000 --json $C1/$m-r$r.json > $C1/$m-r$r.log 2>&1
  done
done
log "resnet 6/s pair, quiet"
benchmarks/results/adaptive/slo-long-levels.sh benchmarks/results/adaptive/slo-2026-12-02-resnet50/models 250 \
  benchmarks/results/adaptive/slo-2026-12-03-resnet50-long-quiet "6" resnet50_best resnet50_adaptive_1x > /dev/null 2>&1
log "alloc JMH"
OUT=$O/jmh-alloc benchmarks/run-jmh.sh alloc > $O/jmh-alloc.txt 2>&1
log "MiniLM against ONNX Runtime"
CP="$(ls cli/target/ingot-cli-*.jar | grep -v -- -tests):$(cat cli/target/classpath.txt)"
"$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -cp "$CP" \
  io.ingot.perf.baseline.Comparison minilm --concurrency 1,2,4,8,16 --repeats 2 --out benchmarks/results/minilm-2026-12-03 \
  > $O/minilm.txt 2>&1
log "done"
