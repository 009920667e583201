#!/usr/bin/env bash
# The project's test command (README.md): builds every module and runs every test on a JDK >= 25.
# Tests that need a GPU are tagged `gpu` and skipped here (tools/gpu-check.sh runs them on a GPU machine).
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/java-env.sh
# INGOT_MAVEN_GOAL=install (what .ci/run sets) installs the artifacts too, for examples/embedding; by default the
# reactor is only verified, so that a developer's ~/.m2 holds no Ingot snapshot.
exec mvn -B -ntp "${INGOT_MAVEN_GOAL:-verify}" "$@"
