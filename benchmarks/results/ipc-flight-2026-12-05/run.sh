#!/usr/bin/env bash
# Issue 34: a request's flight writes one cache line per flight wherever the request lies (RequestFlight: the two flags
# in one word; the cancel hook written only when it changes and kept after the flight), and the harness's slot writes
# its done flag only (PipelineSlot.begin, for every pipeline alike), against main before them (24632ef). The steps are
# benchmarks/in-flight-runs.sh's: Python over shared memory against the echo floors; every way in one JVM at 1/16/64
# in flight; at 64 in flight one JVM per (way, pipeline, build) — BASE's core runs under this build's harness there.
# Usage: benchmarks/results/ipc-flight-2026-12-05/run.sh BASE_CHECKOUT [ALTERNATIONS] [IN_PROCESS_ROUNDS] [FRESH_ROUNDS]
# BASE_CHECKOUT is a checkout of 24632ef whose ./ingot has been built once.
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../../.." && pwd)"
exec "$ROOT/benchmarks/in-flight-runs.sh" benchmarks/results/ipc-flight-2026-12-05 "$@"
