#!/usr/bin/env bash
# Builds libingot_trt_shim.so, the extern "C" layer over TensorRT 10 that io.ingot.trt.shim.TrtShim binds.
#
#   build.sh [output-dir]          (default: trt/target/native)
#
# Looks for TensorRT's headers (NvInferRuntime.h) and libnvinfer.so.10 in, in order: $TENSORRT_HOME (include/,
# lib/, lib64/), /usr/include/x86_64-linux-gnu + /usr/lib/x86_64-linux-gnu (Debian/Ubuntu packages),
# /usr/include/aarch64-linux-gnu, /usr/local/tensorrt, /opt/tensorrt, /usr/src/tensorrt, /workspace/TensorRT.
# CUDA's headers (NvInferRuntime.h includes cuda_runtime_api.h) come from $CUDA_HOME or /usr/local/cuda.
#
# Where TensorRT or g++ is missing it prints why and exits 0 without building: the Java side then reports
# "TensorRT shim library not found" when a tensorrt_plan model is loaded. Set INGOT_TRT_SHIM_REQUIRED=1 to make a
# missing TensorRT an error (exit 2) instead, e.g. on a machine that must serve TensorRT models.
# INGOT_TRT_SEARCH_STANDARD=0 searches $TENSORRT_HOME only (used by the tests of this script).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here/../../../target/native}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

skip()
{
    echo "[ingot-trt-shim] SKIPPED: $1"
    if [[ "${INGOT_TRT_SHIM_REQUIRED:-0}" == "1" ]]; then
        exit 2
    fi
    exit 0
}

command -v g++ >/dev/null 2>&1 || skip "g++ is not installed (Debian: apt-get install g++)."

include_dir=""
lib_dir=""
tried=()
consider()
{
    local inc="$1"; shift
    tried+=("$inc")
    [[ -f "$inc/NvInferRuntime.h" ]] || return 1
    local lib
    for lib in "$@"; do
        if [[ -e "$lib/libnvinfer.so.10" || -e "$lib/libnvinfer.so" ]]; then
            include_dir="$inc"
            lib_dir="$lib"
            return 0
        fi
    done
    echo "[ingot-trt-shim] found $inc/NvInferRuntime.h but no libnvinfer.so.10 in: $*"
    return 1
}

if [[ -n "${TENSORRT_HOME:-}" ]]; then
    consider "$TENSORRT_HOME/include" "$TENSORRT_HOME/lib" "$TENSORRT_HOME/lib64" "$TENSORRT_HOME/targets/x86_64-linux-gnu/lib" || true
fi
standard_roots=(/usr/local/tensorrt /opt/tensorrt /usr/src/tensorrt /workspace/TensorRT)
standard_triples=(x86_64-linux-gnu aarch64-linux-gnu)
if [[ "${INGOT_TRT_SEARCH_STANDARD:-1}" == "0" ]]; then
    standard_roots=()
    standard_triples=()
fi
for root in "${standard_roots[@]}"; do
    [[ -n "$include_dir" ]] && break
    consider "$root/include" "$root/lib" "$root/lib64" "$root/targets/x86_64-linux-gnu/lib" || true
done
for triple in "${standard_triples[@]}"; do
    [[ -n "$include_dir" ]] && break
    consider "/usr/include/$triple" "/usr/lib/$triple" || true
done
if [[ -z "$include_dir" && "${INGOT_TRT_SEARCH_STANDARD:-1}" != "0" ]]; then
    consider /usr/include /usr/lib /usr/lib64 || true
fi
[[ -n "$include_dir" ]] || skip "TensorRT 10 not found (no NvInferRuntime.h + libnvinfer.so.10 under TENSORRT_HOME=${TENSORRT_HOME:-<unset>} or: ${tried[*]}). Install TensorRT and set TENSORRT_HOME."

cuda_include=""
for candidate in "${CUDA_HOME:-}/include" /usr/local/cuda/include /usr/include; do
    if [[ -f "$candidate/cuda_runtime_api.h" ]]; then
        cuda_include="$candidate"
        break
    fi
done
[[ -n "$cuda_include" ]] || skip "CUDA headers not found (cuda_runtime_api.h under CUDA_HOME=${CUDA_HOME:-<unset>}, /usr/local/cuda/include, /usr/include)."

link_name="nvinfer"
if [[ ! -e "$lib_dir/libnvinfer.so" ]]; then
    # Runtime-only installs ship libnvinfer.so.10 without the unversioned development symlink.
    link_name=":libnvinfer.so.10"
fi

target="$out/libingot_trt_shim.so"
echo "[ingot-trt-shim] TensorRT headers: $include_dir, library: $lib_dir, CUDA headers: $cuda_include"
g++ -std=c++17 -O2 -fPIC -shared -Wall -Wextra \
    -fvisibility=hidden \
    "$here/ingot_trt_shim.cpp" \
    -I "$here" -I "$include_dir" -I "$cuda_include" \
    -L "$lib_dir" -l"$link_name" \
    -Wl,-soname,libingot_trt_shim.so -Wl,-rpath,"$lib_dir" -Wl,--no-undefined \
    -o "$target"
echo "[ingot-trt-shim] built $target"
