#!/usr/bin/env bash
# Runs the embedding service on :8080 with Ingot in process (needs Ingot installed: mvn install at the root).
# Extra arguments go to Spring Boot, e.g. --server.port=9090 or --ingot.transport=grpc --ingot.url=host:8001.
set -euo pipefail
HERE="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
# shellcheck source=../../tools/java-env.sh
source "$ROOT/tools/java-env.sh"
(cd "$HERE" && mvn -B -q -ntp package -DskipTests dependency:build-classpath -Dmdep.outputFile=target/classpath.txt)
exec "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED \
  -cp "$HERE/target/classes:$(cat "$HERE/target/classpath.txt")" io.ingot.examples.embedding.EmbeddingApplication \
  --ingot.model-repository="$ROOT/examples/models" "$@"
