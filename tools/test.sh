#!/usr/bin/env bash
# The project's test command (README.md): builds every module and runs every test on a JDK >= 25.
# Tests that need a GPU are tagged `gpu` and skipped here (tools/gpu-check.sh runs them on a GPU machine).
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/java-env.sh
exec mvn -B -ntp verify "$@"
