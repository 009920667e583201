#!/usr/bin/env bash
# Issue 34: the instance threads' response cache, back, against main before it (709d175): an instance's thread keeps
# the responses closed on it (InstanceThread) for the next ones it opens, and times a lent instance's batches with the
# clock reads its statistics take anyway. The steps are benchmarks/in-flight-runs.sh's: Python over shared memory
# against the echo floors; every way in one JVM at 1/16/64 in flight; at 64 in flight one JVM per (way, pipeline,
# build). with-claim/ holds the same run (and a second part 3, fresh-2/, and Python alone, python-more/) of the build
# that also claimed a request's intake slot before writing its bookkeeping (ac9a9f6, reverted in 907a0c7).
# Usage: benchmarks/results/ipc-claim-2026-12-05/run.sh BASE_CHECKOUT [ALTERNATIONS] [IN_PROCESS_ROUNDS] [FRESH_ROUNDS]
# BASE_CHECKOUT is a checkout of 709d175 whose ./ingot has been built once.
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../../.." && pwd)"
exec "$ROOT/benchmarks/in-flight-runs.sh" benchmarks/results/ipc-claim-2026-12-05 "$@"
