#!/bin/sh
# /opt/ingot/bin/ingot inside the image tools/image.sh builds: runs Ingot's CLI on the image's jlinked Java.
#
# Environment (each has a flag that wins when both are given):
#   INGOT_MODEL_REPOSITORY  `serve` without --model-repository serves this folder (image default /models)
#   INGOT_HOST              `serve` without --host binds this address (default 0.0.0.0: reachable from outside)
#   INGOT_CACHE_DIR         writable folder where the backends extract their native libraries at first use
#                           (FIL: ingot.native.cache; TensorFlow: ingot.tensorflow.cache; PyTorch: DJL_CACHE_DIR;
#                           ONNX Runtime and the Python backend's stubs: java.io.tmpdir) (default /var/cache/ingot)
#   INGOT_JAVA_OPTS         extra JVM options (for example -XX:MaxRAMPercentage=60)
set -eu
INGOT_HOME=/opt/ingot
CACHE=${INGOT_CACHE_DIR:-/var/cache/ingot}
if ! mkdir -p "$CACHE/tmp" "$CACHE/native" "$CACHE/tensorflow" "$CACHE/djl" 2>/dev/null || [ ! -w "$CACHE" ]; then
  echo "error: the native-library cache $CACHE (INGOT_CACHE_DIR) is not writable by uid $(id -u):" \
    "mount a writable volume there (Kubernetes: an emptyDir) or set INGOT_CACHE_DIR to a writable folder" >&2
  exit 2
fi

if [ "${1:-}" = serve ]; then
  shift
  repository=
  has_host=0
  for arg in "$@"; do
    case "$arg" in
      --model-repository=*) repository=${arg#--model-repository=} ;;
      --host|--host=*) has_host=1 ;;
    esac
  done
  prev=
  for arg in "$@"; do
    [ "$prev" = --model-repository ] && repository=$arg
    prev=$arg
  done
  if [ -z "$repository" ]; then
    repository=${INGOT_MODEL_REPOSITORY:-/models}
    set -- "--model-repository=$repository" "$@"
  fi
  [ "$has_host" = 1 ] || set -- "--host=${INGOT_HOST:-0.0.0.0}" "$@"
  # A missing or unreadable mount is a start-up error with its reason, not a replica that serves nothing.
  if [ ! -d "$repository" ]; then
    echo "error: the model repository $repository does not exist in the container: mount one" \
      "(podman run -v DIR:$repository:ro ..., or a Kubernetes volume) or bake one in (tools/image.sh --models DIR)" >&2
    exit 2
  fi
  if [ ! -r "$repository" ] || [ ! -x "$repository" ]; then
    echo "error: the model repository $repository is not readable by uid $(id -u) gid $(id -g):" \
      "make it world-readable or run with a group that may read it (Kubernetes: securityContext.fsGroup)" >&2
    exit 2
  fi
  if [ -z "$(ls -A "$repository")" ]; then
    echo "error: the model repository $repository is empty: was the volume mounted at the right path?" >&2
    exit 2
  fi
  set -- serve "$@"
fi

export DJL_CACHE_DIR="$CACHE/djl" ENGINE_CACHE_DIR="$CACHE/djl"
# shellcheck disable=SC2086
exec "$INGOT_HOME/java/bin/java" --enable-native-access=ALL-UNNAMED \
  -Djava.io.tmpdir="$CACHE/tmp" -Dingot.native.cache="$CACHE/native" -Dingot.tensorflow.cache="$CACHE/tensorflow" \
  ${INGOT_JAVA_OPTS:-} \
  -cp "$(cat "$INGOT_HOME/lib/classpath.txt")" io.ingot.cli.IngotCli "$@"
