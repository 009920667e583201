#!/usr/bin/env bash
# Issue 34: the submission order and the instance threads' response cache, against main before them (709d175). This
# build claims a request's intake slot before writing its bookkeeping (ModelScheduler.claim), keeps the responses
# closed on an instance's thread on that thread (InstanceThread), and times a lent instance's batches with the clock
# reads its statistics take anyway. The steps are benchmarks/in-flight-runs.sh's: Python over shared memory against
# the echo floors; every way in one JVM at 1/16/64 in flight; at 64 in flight one JVM per (way, pipeline, build).
# Usage: benchmarks/results/ipc-claim-2026-12-05/run.sh BASE_CHECKOUT [ALTERNATIONS] [IN_PROCESS_ROUNDS] [FRESH_ROUNDS]
# BASE_CHECKOUT is a checkout of 709d175 whose ./ingot has been built once.
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../../.." && pwd)"
exec "$ROOT/benchmarks/in-flight-runs.sh" benchmarks/results/ipc-claim-2026-12-05 "$@"
