#!/usr/bin/env bash
# Issue 34: the hand-off floor and one JVM per sample, with an experiment against the commit before. The run in this
# folder measured 9196a14, whose instance threads kept the responses closed on them (InstanceThread before
# ResponsePool's shared queue); it made no difference beyond the noise, and the next commit took it out again, so
# rerun on main "after" is main's build, whose core is BASE's. One run in three parts, each with its floors or
# baselines in the same rounds:
#  1. Python over shared memory at concurrency 1 (benchmarks/python/transport_latency.py --floor, unchanged client),
#     alternating between this build and the build of BASE (the commit before, 5921786), one server at a time, each
#     serving only the identity model; every run measures its own echo floors and HTTP.
#  2. In process, K requests in flight (InFlightComparison), every way and pipeline in one JVM: blocking callers (plain
#     submit and submitAndRun), the listener API and the batch API against the DJL-style and Triton-style batchers,
#     and the hand-off floor (one submitter, one spinning batching thread, a ring between them).
#  3. At 64 in flight, each (way, pipeline) in a JVM of its own (only=WAY:PIPELINE), so that no other pipeline's or
#     level's runs shape the JIT's profile of the code measured; Ingot's listener and batch ways with this build and
#     with BASE's core (the same harness: this build's perf jar in front of BASE's), in an order that rotates per round.
# The steps are benchmarks/in-flight-runs.sh's (this folder's own copy until 2026-12-05's fourth session).
# Usage: benchmarks/results/ipc-cache-2026-12-05/run.sh BASE_CHECKOUT [ALTERNATIONS] [IN_PROCESS_ROUNDS] [FRESH_ROUNDS]
# BASE_CHECKOUT is a checkout of 5921786 whose ./ingot has been built once.
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../../.." && pwd)"
exec "$ROOT/benchmarks/in-flight-runs.sh" benchmarks/results/ipc-cache-2026-12-05 "$@"
