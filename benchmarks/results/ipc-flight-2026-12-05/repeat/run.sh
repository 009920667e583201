#!/usr/bin/env bash
# Issue 34: the whole of ../run.sh's measurement again, 09:39–09:52 UTC, the machine quieter than in the first run
# (the bare Python echo's own p99/p50 3.0× against 4.7×). Made as two calls of this script: `run.sh BASE 4 0 10`
# (Python over shared memory, then one JVM per sample at 64 in flight), then `run.sh BASE 0 3 0` (every way in one
# JVM); the second call starts load.txt and commands.txt anew, so both calls' lines were put back together there.
# Usage: benchmarks/results/ipc-flight-2026-12-05/repeat/run.sh BASE_CHECKOUT [ALTERNATIONS] [IN_PROCESS_ROUNDS] [FRESH_ROUNDS]
# BASE_CHECKOUT is a checkout of 24632ef whose ./ingot has been built once.
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../../../.." && pwd)"
exec "$ROOT/benchmarks/in-flight-runs.sh" benchmarks/results/ipc-flight-2026-12-05/repeat "$@"
