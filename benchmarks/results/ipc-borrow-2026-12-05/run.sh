#!/usr/bin/env bash
# Issue 34 after deliverable 1 (the IPC thread runs an idle instance's batch) and the batch completions counted
# together, one run in two parts, each with its floors or baselines in the same rounds:
#  1. Python over shared memory at concurrency 1 (benchmarks/python/transport_latency.py --floor, unchanged client),
#     alternating between this build and the build of BASE (the commit before, 550b097), one server at a time, each
#     serving only the identity model; every run measures its own echo floors and HTTP.
#  2. In process, K requests in flight (InFlightComparison): blocking callers (plain submit and submitAndRun), the
#     listener API and the batch API against the DJL-style and Triton-style batchers.
# The steps are parts 1 and 2 of benchmarks/in-flight-runs.sh (this folder's own copy until 2026-12-05's fourth
# session).
# Usage: benchmarks/results/ipc-borrow-2026-12-05/run.sh BASE_CHECKOUT [ALTERNATIONS] [IN_PROCESS_ROUNDS]
# BASE_CHECKOUT is a checkout of 550b097 whose ./ingot has been built once.
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../../.." && pwd)"
PORT_BASE=18400 exec "$ROOT/benchmarks/in-flight-runs.sh" benchmarks/results/ipc-borrow-2026-12-05 "$1" "${2:-4}" "${3:-3}" 0
