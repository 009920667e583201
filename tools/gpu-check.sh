#!/usr/bin/env bash
# One command for checking Ingot on a lent GPU machine that has CUDA but no Java, no Maven and no network.
#
#   tools/gpu-check.sh --build    (here: default where Maven is installed) build .bundle/: a jlinked Java 25 runtime,
#                                 the test classes and jars of TEST_MODULES, the JUnit console launcher and run.sh
#   tools/gpu-check.sh --dry-run  build the bundle, then list what --run would run (with the bundle's own runtime)
#   tools/gpu-check.sh --run      (on the GPU machine: default where Maven is missing) run the gpu-tagged tests from
#                                 .bundle/ and print a short table: test, result, time
#
# The bundle must stay under 60 MiB (it travels to the GPU machine with the working tree); --build checks that.
# --run exits 0 only when every test passed: 1 failures, 2 no tests found, 3 tests aborted (e.g. no usable GPU),
# so nothing was verified.
#
# GPU tests are found by their JUnit tag `gpu` (--include-tag gpu): modules above test-support annotate them with
# @io.ingot.testing.GpuTest, which carries the tag and prints why it skips; native-bindings, below test-support, uses
# @Tag("gpu") directly. To add another module's GPU tests: tag them so and add the module folder to TEST_MODULES
# below; its test dependencies (the test-support jar included) come along as jars.
set -euo pipefail

# Module folders whose gpu-tagged tests go into the bundle (their main and test classes; every other Ingot module
# they need, test-support included, goes in as a jar from dependency:copy-dependencies).
TEST_MODULES=(native-bindings trt)
# JDK modules the bundle's runtime always gets, on top of what jdeps finds (the launcher writes XML reports).
BASE_JDK_MODULES=(java.base java.logging java.xml)
MAX_BUNDLE_BYTES=$((60 * 1024 * 1024))

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUNDLE="$ROOT/.bundle"
LISTENER_SRC="$ROOT/native-bindings/src/gpu-check"

die() { echo "gpu-check: error: $*" >&2; exit 1; }
say() { echo "gpu-check: $*"; }

# Maven: offline first (no network is the normal case on the lent machines and helps here too); online only for
# artifacts that are not in the local repository yet.
mvn_quiet() {
  if ! mvn -B -q -o "$@"; then
    say "offline Maven build failed; retrying online to fetch missing artifacts"
    mvn -B -q "$@"
  fi
}

build_bundle() {
  command -v mvn >/dev/null 2>&1 || die "--build needs Maven on PATH"
  # shellcheck source=/dev/null
  source "$ROOT/tools/java-env.sh"
  command -v "$JAVA_HOME/bin/jlink" >/dev/null 2>&1 || die "$JAVA_HOME has no jlink (jdk.jlink): use a full JDK 25"

  local modules_csv
  modules_csv=$(IFS=,; echo "${TEST_MODULES[*]}")
  say "building ${modules_csv} (package, test classes, dependency jars)"
  (cd "$ROOT" && mvn_quiet -pl "$modules_csv" -am package -DskipTests dependency:copy-dependencies \
    -DincludeScope=test)

  rm -rf "$BUNDLE"
  mkdir -p "$BUNDLE/lib" "$BUNDLE/classes" "$BUNDLE/launcher/report"

  local module platform_version="" cp_entries=() scan_entries=()
  for module in "${TEST_MODULES[@]}"; do
    local target="$ROOT/$module/target"
    [ -d "$target/test-classes" ] || die "$module has no test classes ($target/test-classes)"
    mkdir -p "$BUNDLE/classes/$module"
    cp -r "$target/classes" "$BUNDLE/classes/$module/main"
    cp -r "$target/test-classes" "$BUNDLE/classes/$module/test"
    cp_entries+=("classes/$module/test" "classes/$module/main")
    scan_entries+=("classes/$module/test")
    local jar name
    for jar in "$target"/dependency/*.jar; do
      [ -e "$jar" ] || continue
      name=$(basename "$jar")
      case "$name" in
        junit-platform-engine-*.jar) platform_version="${name#junit-platform-engine-}"; platform_version="${platform_version%.jar}" ;;
      esac
      case "$name" in
        # The console launcher jar below carries JUnit itself; a second copy would shadow it.
        junit-*|opentest4j-*|apiguardian-*) continue ;;
      esac
      # A module of the bundle comes as its class folders, not again as a jar another module depends on.
      local skip=""
      for other in "${TEST_MODULES[@]}"; do
        case "$name" in "ingot-$other-"*) skip=1 ;; esac
      done
      [ -n "$skip" ] && continue
      if [ ! -e "$BUNDLE/lib/$name" ]; then
        cp "$jar" "$BUNDLE/lib/"
        cp_entries+=("lib/$name")
      fi
    done
  done
  [ -n "$platform_version" ] || die "could not tell the JUnit Platform version (no junit-platform-engine jar among the test dependencies)"

  say "fetching junit-platform-console-standalone $platform_version (the version the tests compiled against)"
  (cd "$ROOT" && mvn_quiet -N dependency:copy \
    -Dartifact="org.junit.platform:junit-platform-console-standalone:$platform_version" \
    -DoutputDirectory="$BUNDLE/launcher" -Dmdep.stripVersion=true)
  local launcher_jar="$BUNDLE/launcher/junit-platform-console-standalone.jar"
  [ -f "$launcher_jar" ] || die "the console launcher was not copied to $launcher_jar"

  say "compiling the result-table listener"
  mapfile -t listener_sources < <(find "$LISTENER_SRC/java" -name '*.java')
  "$JAVA_HOME/bin/javac" --release 25 -Xlint:all -Werror -cp "$launcher_jar" -d "$BUNDLE/launcher/report" \
    "${listener_sources[@]}"
  cp -r "$LISTENER_SRC/resources/." "$BUNDLE/launcher/report/"

  local jdk_modules
  jdk_modules=$(cd "$BUNDLE" && "$JAVA_HOME/bin/jdeps" --print-module-deps --ignore-missing-deps \
    --multi-release 25 "$launcher_jar" lib/*.jar classes/*/* 2>/dev/null | tail -1 || true)
  jdk_modules=$(printf '%s\n' "${BASE_JDK_MODULES[@]}" ${jdk_modules//,/ } | sort -u | paste -sd, -)
  say "jlinking a Java runtime with $jdk_modules"
  "$JAVA_HOME/bin/jlink" --add-modules "$jdk_modules" --strip-debug --no-man-pages --no-header-files \
    --compress=zip-9 --output "$BUNDLE/runtime"
  # libjvm.so ships with its symbol table; dropping it saves about 5 MiB and changes nothing at run time.
  if command -v strip >/dev/null 2>&1; then
    strip --strip-unneeded "$BUNDLE/runtime/lib/server/libjvm.so" 2>/dev/null || true
  fi

  write_run_script "$(IFS=:; echo "${cp_entries[*]}")" "$(IFS=:; echo "${scan_entries[*]}")"
  write_contents "$jdk_modules" "$platform_version"

  local bytes
  bytes=$(du -sb "$BUNDLE" | cut -f1)
  say "bundle: $BUNDLE, $(awk -v b="$bytes" 'BEGIN { printf "%.1f MiB", b / 1048576 }') (limit 60 MiB)"
  if [ "$bytes" -gt "$MAX_BUNDLE_BYTES" ]; then
    du -sh "$BUNDLE"/* >&2
    die "the bundle is $bytes bytes, over the 60 MiB limit"
  fi
}

write_run_script() {
  local class_path="$1" scan_path="$2"
  cat > "$BUNDLE/run.sh" <<RUN
#!/bin/sh
# Runs the gpu-tagged tests of this bundle with its own Java runtime. Generated by tools/gpu-check.sh --build.
#   ./run.sh        run them and print a table (test, result, time); reports go to ./reports (or \$INGOT_GPU_REPORTS)
#   ./run.sh list   only list them
# Exit codes: 0 all passed, 1 failures, 2 no tests found, 3 tests aborted (e.g. no usable GPU): nothing verified.
set -eu
HERE=\$(cd "\$(dirname "\$0")" && pwd)
cd "\$HERE"
CLASS_PATH="$class_path"
SCAN_PATH="$scan_path"
REPORTS="\${INGOT_GPU_REPORTS:-\$HERE/reports}"
LAUNCHER="launcher/junit-platform-console-standalone.jar"
case "\${1:-run}" in
  list)
    exec runtime/bin/java -jar "\$LAUNCHER" discover --disable-banner --disable-ansi-colors \\
      --class-path "\$CLASS_PATH" --scan-class-path "\$SCAN_PATH" --include-tag gpu --details=tree ;;
  run) ;;
  *) echo "usage: \$0 [run|list]" >&2; exit 1 ;;
esac
rm -rf "\$REPORTS"
mkdir -p "\$REPORTS"
status=0
JVM_FLAGS="--enable-native-access=ALL-UNNAMED -Xmx4g"
runtime/bin/java \$JVM_FLAGS -D"ingot.gpucheck.reports=\$REPORTS" \\
  -cp "\$LAUNCHER:launcher/report" org.junit.platform.console.ConsoleLauncher execute \\
  --disable-banner --disable-ansi-colors --details=summary --fail-if-no-tests \\
  --class-path "\$CLASS_PATH" --scan-class-path "\$SCAN_PATH" --include-tag gpu \\
  --reports-dir "\$REPORTS" || status=\$?
# Measurements (trt/gpu-check.d/README.md): pinned vs pageable H2D, cuda_identity batch-1 overhead,
# cublas_mlp batched vs batch-1 throughput. Their rows follow the test table.
echo
echo "GPU measurements (io.ingot.trt.bench.GpuBench):"
bench=0
runtime/bin/java \$JVM_FLAGS -cp "\$CLASS_PATH" io.ingot.trt.bench.GpuBench > "\$REPORTS/gpubench.txt" 2>&1 || bench=\$?
grep '^GPUBENCH |' "\$REPORTS/gpubench.txt" | sed 's/^GPUBENCH | //' | awk -F' [|] ' '{ printf "  %-28s %14s %-6s %s\\n", \$1, \$2, \$3, \$4 }'
[ "\$bench" -eq 0 ] || echo "GpuBench exit status \$bench (3: no usable GPU; 1: a measurement failed; log: \$REPORTS/gpubench.txt)"
if [ "\$status" -ne 0 ]; then
  exit "\$status"
fi
if [ "\$(cat "\$REPORTS/outcome" 2>/dev/null)" != "PASSED" ]; then
  echo "gpu-check: tests were aborted or skipped (reasons in the table above): nothing was verified" >&2
  exit 3
fi
RUN
  chmod +x "$BUNDLE/run.sh"
}

write_contents() {
  local jdk_modules="$1" platform_version="$2"
  {
    echo "Ingot GPU check bundle, built $(date -u +%Y-%m-%dT%H:%M:%SZ) from $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
    echo "runtime:   Java $("$BUNDLE/runtime/bin/java" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.runtime.version/ {print $2}') with $jdk_modules"
    echo "launcher:  junit-platform-console-standalone $platform_version"
    echo "modules:   ${TEST_MODULES[*]}"
    local jars
    jars=$(cd "$BUNDLE/lib" && ls | paste -sd' ' -)
    echo "jars:      ${jars:-(none besides the launcher)}"
    echo "run:       .bundle/run.sh (or tools/gpu-check.sh --run)"
  } > "$BUNDLE/CONTENTS.txt"
}

run_bundle() {
  [ -x "$BUNDLE/run.sh" ] || die "no bundle at $BUNDLE: build it with tools/gpu-check.sh --build on a machine with Java and Maven, then bring .bundle/ along"
  command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L || say "nvidia-smi not found; the tests will say whether a GPU is usable"
  exec "$BUNDLE/run.sh" run
}

mode="${1:-}"
if [ -z "$mode" ]; then
  if command -v mvn >/dev/null 2>&1; then mode="--build"; else mode="--run"; fi
  say "no mode given: using $mode"
fi
case "$mode" in
  --build) build_bundle ;;
  --dry-run)
    build_bundle
    say "contents:"
    sed 's/^/  /' "$BUNDLE/CONTENTS.txt"
    say "--run would run these gpu-tagged tests (listed by the bundle's own runtime):"
    "$BUNDLE/run.sh" list
    ;;
  --run) run_bundle ;;
  -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1' "$0" | sed 's/^# \{0,1\}//' ;;
  *) die "unknown mode '$mode' (use --build, --dry-run, --run or --help)" ;;
esac
