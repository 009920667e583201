#!/usr/bin/env bash
# Builds Ingot's OCI image from this checkout, with nothing pulled from a container registry:
#   1. a minimal Debian root file system made by mmdebstrap from Debian's packages (the release this machine runs),
#      with what the bundled backends' native libraries need (libstdc++6, libgomp1) and python3 + numpy for the
#      Python backend (--no-python leaves them out);
#   2. a jlinked Java runtime holding only the modules jdeps finds in the jars of cli/target/classpath.txt;
#   3. the ingot distribution (those jars and the cli jar, in the class path's order) under /opt/ingot, with a
#      launcher that maps environment variables to flags and points every backend's native-library cache at a
#      writable folder ($INGOT_CACHE_DIR, default /var/cache/ingot);
#   4. assembled from scratch by buildah (vfs storage: works inside containers and without overlay support), run
#      as the non-root user ingot (1000:1000), entry point `ingot`, command `serve`.
#
#   tools/image.sh [--models DIR] [--no-python] [--tag NAME] [--out DIR] [--skip-build]
#
#   --models DIR   bake DIR in as /models (default: none; mount a repository there: -v DIR:/models:ro)
#   --tag NAME     image name (default localhost/ingot:0.1.0)
#   --out DIR      work folder (default target/image): rootfs/, the image as ingot-image.oci.tar
#   --skip-build   reuse cli/target (otherwise: mvn -B -q -DskipTests -pl cli -am package)
#
# Missing tools are Debian packages: as root the script installs them with apt-get (saying so); otherwise it
# names each package and the command that installs it, and stops.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

TAG=localhost/ingot:0.1.0
OUT=target/image
MODELS=
PYTHON=1
BUILD=1
while [ $# -gt 0 ]; do
  case "$1" in
    --models) MODELS=$(readlink -f "$2"); shift 2 ;;
    --tag) TAG=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --no-python) PYTHON=0; shift ;;
    --skip-build) BUILD=0; shift ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    *) echo "error: unknown option '$1' (tools/image.sh --help)" >&2; exit 2 ;;
  esac
done
if [ -n "$MODELS" ] && [ ! -d "$MODELS" ]; then
  echo "error: --models: '$MODELS' is not a folder (a Triton model repository: <model>/config.pbtxt, <model>/1/...)" >&2
  exit 2
fi
log() { echo "image.sh: $*" >&2; }

# --- Debian packages this script needs -------------------------------------------------------------------------
need_packages() {
  local missing=() tool pkg
  for tool_pkg in "$@"; do
    tool=${tool_pkg%%:*}; pkg=${tool_pkg#*:}
    command -v "$tool" >/dev/null 2>&1 || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    log "installing the missing Debian package(s): ${missing[*]} (apt-get install -y ${missing[*]})"
    if (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}") >&2; then
      return 0
    fi
    echo "error: apt-get could not install ${missing[*]}" >&2
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    log "installing the missing Debian package(s): ${missing[*]} (sudo apt-get install -y ${missing[*]})"
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2 \
      && return 0
  fi
  echo "error: tools/image.sh needs the Debian package(s) ${missing[*]}, not installed here." >&2
  echo "       Install them as root:  apt-get install -y ${missing[*]}   and run tools/image.sh again." >&2
  exit 1
}
# mmdebstrap: the root file system; buildah: the image; uidmap: buildah's user-namespace helpers.
need_packages mmdebstrap:mmdebstrap buildah:buildah newuidmap:uidmap unzip:unzip

# shellcheck source=tools/java-env.sh
source tools/java-env.sh
for tool in jlink jdeps; do
  [ -x "$JAVA_HOME/bin/$tool" ] || { echo "error: $JAVA_HOME has no bin/$tool: a full JDK 25 is needed" >&2; exit 1; }
done

# --- the distribution ------------------------------------------------------------------------------------------
if [ "$BUILD" = 1 ] || [ ! -f cli/target/classpath.txt ]; then
  log "building the cli and what it depends on (mvn -B -q -DskipTests -pl cli -am package)"
  MAVEN_OPTS=${MAVEN_OPTS:--Xmx1g} mvn -B -q -ntp -DskipTests -pl cli -am package >&2
fi
CLI_JAR=$(ls cli/target/ingot-cli-*.jar | grep -v -e '-tests.jar' -e '-sources.jar' | head -1)
IFS=: read -r -a JARS < cli/target/classpath.txt || true  # no final newline: read says 1
JARS=("$CLI_JAR" "${JARS[@]}")
dups=$(for j in "${JARS[@]}"; do basename "$j"; done | sort | uniq -d)
[ -z "$dups" ] || { echo "error: two class-path jars share a file name: $dups" >&2; exit 1; }

mkdir -p "$OUT"
OUT=$(readlink -f "$OUT")
ROOTFS="$OUT/rootfs"

# --- 2. the Java runtime: the modules jdeps finds, plus jdk.unsupported (sun.misc.Unsafe for Agrona, Netty and
#        protobuf, reached reflectively where jdeps cannot see it) and jdk.crypto.ec for TLS clients of the JDK.
log "jdeps: finding the Java modules the ${#JARS[@]} jars need"
# A modular jar states the JDK modules it needs (its module-info's requires); jdeps would also resolve the
# modules that module-info requires from the class path, and fails on optional ones left out (commons-compress's).
plain=() declared=()
for jar in "${JARS[@]}"; do
  if grep -qE '^(META-INF/versions/[0-9]+/)?module-info\.class$' <<< "$(unzip -Z1 "$jar" 2>/dev/null)"; then
    declared+=($(jar --describe-module --file "$jar" 2>/dev/null | awk '$1 == "requires" && $2 ~ /^(java|jdk)\./ {print $2}'))
  else
    plain+=("$jar")
  fi
done
MODULES=$(jdeps --multi-release 25 --ignore-missing-deps --print-module-deps \
  --class-path "$(IFS=:; echo "${JARS[*]}")" "${plain[@]}" 2>"$OUT/jdeps.log" | tail -1) \
  || { echo "error: jdeps failed (see $OUT/jdeps.log)" >&2; cat "$OUT/jdeps.log" >&2; exit 1; }
[ -n "$MODULES" ] || { echo "error: jdeps found no modules (see $OUT/jdeps.log)" >&2; exit 1; }
MODULES=$(echo "$MODULES" "${declared[@]}" jdk.unsupported jdk.crypto.ec | tr ', ' '\n\n' | grep . | sort -u | paste -sd,)
log "modules: $MODULES"

# --- 1. the Debian root file system ----------------------------------------------------------------------------
SUITE=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
PACKAGES=libstdc++6,libgomp1,ca-certificates
[ "$PYTHON" = 1 ] && PACKAGES="$PACKAGES,python3-minimal,python3-numpy"
rm -rf "$ROOTFS"
log "mmdebstrap: Debian $SUITE, variant minbase, with $PACKAGES"
# Documentation, manuals and locales are left out; apt's lists and caches are emptied afterwards.
mmdebstrap --variant=minbase --include="$PACKAGES" \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-include=/usr/share/doc/*/copyright' --dpkgopt='path-exclude=/usr/share/locale/*' \
  --dpkgopt='path-exclude=/usr/share/info/*' \
  --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/* "$1"/var/log/*' \
  "$SUITE" "$ROOTFS" >&2

log "jlink: the Java runtime into /opt/ingot/java"
mkdir -p "$ROOTFS/opt/ingot/lib" "$ROOTFS/opt/ingot/bin"
jlink --add-modules "$MODULES" --strip-debug --no-man-pages --no-header-files --compress=zip-6 \
  --output "$ROOTFS/opt/ingot/java"

log "copying the distribution into /opt/ingot/lib"
cp_entries=()
for jar in "${JARS[@]}"; do
  cp "$jar" "$ROOTFS/opt/ingot/lib/"
  cp_entries+=("/opt/ingot/lib/$(basename "$jar")")
done
(IFS=:; echo "${cp_entries[*]}") > "$ROOTFS/opt/ingot/lib/classpath.txt"
install -m 0755 deploy/image/ingot-launcher.sh "$ROOTFS/opt/ingot/bin/ingot"
git rev-parse HEAD > "$ROOTFS/opt/ingot/REVISION" 2>/dev/null || echo unknown > "$ROOTFS/opt/ingot/REVISION"

# The non-root user, with a writable home and cache folder (each backend extracts its native libraries there).
echo "ingot:x:1000:1000:Ingot:/home/ingot:/usr/sbin/nologin" >> "$ROOTFS/etc/passwd"
echo "ingot:x:1000:" >> "$ROOTFS/etc/group"
echo "ingot:!:20000:0:99999:7:::" >> "$ROOTFS/etc/shadow"
mkdir -p "$ROOTFS/home/ingot" "$ROOTFS/var/cache/ingot" "$ROOTFS/models"
chown -R 1000:1000 "$ROOTFS/home/ingot" "$ROOTFS/var/cache/ingot"
if [ -n "$MODELS" ]; then
  log "baking $MODELS in as /models"
  cp -a "$MODELS/." "$ROOTFS/models/"
  chmod -R a+rX "$ROOTFS/models"
fi

# --- 4. the image ----------------------------------------------------------------------------------------------
export STORAGE_DRIVER=${STORAGE_DRIVER:-vfs} BUILDAH_ISOLATION=${BUILDAH_ISOLATION:-chroot}
log "buildah ($STORAGE_DRIVER storage): assembling $TAG from scratch"
ctr=$(buildah from --name "ingot-image-$$" scratch)
trap 'buildah rm "$ctr" >/dev/null 2>&1 || true' EXIT
buildah copy "$ctr" "$ROOTFS" / >/dev/null
buildah config \
  --user 1000:1000 --workingdir /home/ingot \
  --env HOME=/home/ingot --env INGOT_CACHE_DIR=/var/cache/ingot --env INGOT_MODEL_REPOSITORY=/models \
  --env PATH=/opt/ingot/bin:/usr/local/bin:/usr/bin:/bin \
  --port 8000/tcp --port 8001/tcp --port 8002/tcp \
  --volume /var/cache/ingot \
  --stop-signal SIGTERM \
  --entrypoint '["/opt/ingot/bin/ingot"]' --cmd '["serve"]' \
  --label org.opencontainers.image.title=ingot \
  --label org.opencontainers.image.revision="$(cat "$ROOTFS/opt/ingot/REVISION")" \
  --label org.opencontainers.image.description="Ingot inference server (KServe v2 HTTP/gRPC, Triton model repositories)" \
  "$ctr"
buildah commit --rm -q "$ctr" "$TAG" >/dev/null
trap - EXIT
rm -f "$OUT/ingot-image.oci.tar"
buildah push -q "$TAG" "oci-archive:$OUT/ingot-image.oci.tar:$TAG" >/dev/null

rootfs_mb=$(du -sm "$ROOTFS" | cut -f1)
java_mb=$(du -sm "$ROOTFS/opt/ingot/java" | cut -f1)
lib_mb=$(du -sm "$ROOTFS/opt/ingot/lib" | cut -f1)
tar_mb=$(( $(stat -c %s "$OUT/ingot-image.oci.tar") / 1048576 ))
echo "image $TAG built (buildah images: $(buildah images --format '{{.Size}}' "$TAG" | head -1))"
echo "  root file system $rootfs_mb MiB: Java runtime $java_mb MiB, jars $lib_mb MiB, Debian $((rootfs_mb - java_mb - lib_mb)) MiB"
echo "  OCI archive $OUT/ingot-image.oci.tar: $tar_mb MiB (load elsewhere: podman load -i ...; skopeo copy ...)"
echo "  run: podman run --rm -p 8000:8000 -v \$PWD/examples/models:/models:ro $TAG"
