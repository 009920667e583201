#!/usr/bin/env bash
# Regenerates raw FFM bindings from the CUDA headers with jextract, into native-bindings/target/jextract/, for
# comparison with the hand-written bindings in native-bindings/src/main/java/io/ingot/cuda (which are what the build
# uses; it never needs jextract).
#
#   tools/jextract.sh                  generate io.ingot.cuda.raw.cudart (and .cublas where cuBLAS headers exist)
#   tools/jextract.sh --dump-includes  list every symbol the headers offer, to pick new lines for the filters
#
# What is generated is filtered by native-bindings/src/jextract/{cudart,cublas}.includes (checked in; a test keeps
# them in step with the bindings). Headers: $CUDA_HOME/include, else /usr/local/cuda/include.
# Exit codes: 0 done, 1 error (no headers, jextract failed), 2 jextract is not installed.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SPEC="$ROOT/native-bindings/src/jextract"
OUT="$ROOT/native-bindings/target/jextract"
MODE="generate"

case "${1:-}" in
  "") ;;
  --dump-includes) MODE="dump" ;;
  -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "error: unknown option '$1' (use --dump-includes or --help)" >&2; exit 1 ;;
esac

if ! command -v jextract >/dev/null 2>&1; then
  cat >&2 <<'MSG'
jextract is not on PATH, so no raw bindings were generated.
  Get it from https://jdk.java.net/jextract/ (pick the build for JDK 25, Linux x64 or aarch64), unpack it and put
  its bin/ folder on PATH, e.g.:
      tar xzf openjdk-25-jextract+*_linux-x64_bin.tar.gz && export PATH="$PWD/jextract-25/bin:$PATH"
  It is not in Maven Central, Debian or npm. The build does not need it: Ingot compiles the hand-written bindings
  in native-bindings/src/main/java/io/ingot/cuda, which CudaHeaderConformanceTest checks against the headers.
MSG
  exit 2
fi

INCLUDE=""
for candidate in "${CUDA_HOME:+$CUDA_HOME/include}" /usr/local/cuda/include; do
  if [ -n "$candidate" ] && [ -f "$candidate/cuda_runtime_api.h" ]; then INCLUDE="$candidate"; break; fi
done
if [ -z "$INCLUDE" ]; then
  echo "error: no CUDA headers: neither \$CUDA_HOME/include (${CUDA_HOME:-unset}) nor /usr/local/cuda/include has" \
       "cuda_runtime_api.h. Install the CUDA 13 toolkit headers (nvidia-cuda-runtime / cuda-cudart-dev-13-x)." >&2
  exit 1
fi
mkdir -p "$OUT"

if [ "$MODE" = "dump" ]; then
  jextract --dump-includes "$OUT/cudart.all.includes" -I "$INCLUDE" "$SPEC/cudart.h"
  echo "every symbol of the CUDA runtime headers: $OUT/cudart.all.includes"
  if [ -f "$INCLUDE/cublas_v2.h" ]; then
    jextract --dump-includes "$OUT/cublas.all.includes" -I "$INCLUDE" "$SPEC/cublas.h"
    echo "every symbol of the cuBLAS headers:       $OUT/cublas.all.includes"
  fi
  echo "copy the lines you bind into $SPEC/*.includes"
  exit 0
fi

rm -rf "$OUT/src" "$OUT/classes"
echo "jextract: CUDA runtime from $INCLUDE"
jextract --output "$OUT/src" -t io.ingot.cuda.raw.cudart --header-class-name cudart_h \
  -I "$INCLUDE" -l :libcudart.so.13 @"$SPEC/cudart.includes" "$SPEC/cudart.h"
if [ -f "$INCLUDE/cublas_v2.h" ]; then
  echo "jextract: cuBLAS from $INCLUDE"
  jextract --output "$OUT/src" -t io.ingot.cuda.raw.cublas --header-class-name cublas_h \
    -I "$INCLUDE" -l :libcublas.so.13 @"$SPEC/cublas.includes" "$SPEC/cublas.h"
else
  echo "jextract: cuBLAS skipped: $INCLUDE/cublas_v2.h is not installed"
fi

# Compile what was generated, so that a filter that lost a dependency shows up here and not in a later diff.
# shellcheck source=/dev/null
source "$ROOT/tools/java-env.sh"
mapfile -t sources < <(find "$OUT/src" -name '*.java')
"$JAVA_HOME/bin/javac" --release 25 -d "$OUT/classes" "${sources[@]}"
echo "raw bindings: ${#sources[@]} files in $OUT/src (compiled to $OUT/classes)"
echo "compare with the hand-written ones, e.g.: grep -rh 'cudaMemcpyHostToDevice\\|cudaDeviceProp' $OUT/src"
