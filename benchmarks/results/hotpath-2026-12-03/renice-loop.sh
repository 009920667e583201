#!/bin/bash
# Gives each pipeline's own threads (Ingot's instance, the DJL-style worker, the Triton-style batcher and instance)
# nice $1 as soon as they appear, while the benchmark process runs; callers stay at 0.
NICE=$1
P=$(pgrep -f "perf baselines" | head -1)
declare -A seen
while kill -0 $P 2>/dev/null; do
  for t in /proc/$P/task/*; do
    tid=${t##*/}
    [ -n "${seen[$tid]}" ] && continue
    c=$(cat $t/comm 2>/dev/null)
    case "$c" in
      ingot-instance*|djl-style-work*|triton-style-*) renice -n $NICE -p $tid >/dev/null 2>&1; seen[$tid]=1;;
      caller-*) seen[$tid]=1;;
    esac
  done
  sleep 0.05
done
