#!/usr/bin/env bash
# Runs every jcstress test of this module; mvn verify calls it with the module's target folder and a mode.
#   ci     (mvn verify's default) jcstress's quick preset, in one JVM configuration (C2, actors compiled together):
#          about a minute on two cores.
#   sanity|quick|default|tough|stress   that jcstress preset over every JVM configuration jcstress detects
#          (interpreter, C1, C2, split compilation, C2 stress flags): minutes to hours.
# Exits non-zero when any test saw a forbidden outcome, failed to run, or was not run at all (jcstress skips, with
# only a line in its log, a test with more actors than the machine has CPUs).
set -euo pipefail
target="$1"
mode="${2:-ci}"
java="${JAVA_HOME:?JAVA_HOME must point at a JDK 25}/bin/java"
classpath="$target/classes:$(cat "$target/classpath.txt")"
results="$target/jcstress-results"
opens="--enable-native-access=ALL-UNNAMED"
rm -rf "$results"
mkdir -p "$results"
if [ "$mode" = ci ]; then
  jvm=(-m quick -sc false -jvmArgs "$opens")
else
  jvm=(-m "$mode" -jvmArgsPrepend "$opens")
fi
set +e
(cd "$target" && "$java" -cp "$classpath" org.openjdk.jcstress.Main "${jvm[@]}" -r "$results") \
  > "$results/console.txt" 2>&1
status=$?
set -e
sed -n '/RUN RESULTS/,$p' "$results/console.txt"

failed=0
if [ "$status" -ne 0 ]; then
  echo "jcstress: exited with status $status" >&2
  failed=1
fi
for verdict in "Failed tests" "Error tests"; do
  if ! grep -q "^  $verdict: No matches\.$" "$results/console.txt"; then
    echo "jcstress: $verdict reported (see $results/console.txt)" >&2
    failed=1
  fi
done
# Every test the annotation processor found must have a report page: a test that never ran is a failure too.
# TestList lines start "JCTEST<length>S<test class name>".
while read -r line; do
  line="${line#JCTEST}"
  length="${line%%S*}"
  rest="${line#*S}"
  name="${rest:0:$length}"
  if [ ! -f "$results/$name.html" ]; then
    echo "jcstress: $name did not run (more actors than CPUs?)" >&2
    failed=1
  fi
done < <(grep '^JCTEST' "$target/classes/META-INF/TestList")
if [ "$failed" -ne 0 ]; then
  echo "jcstress: FAILED; the full log is $results/console.txt, the report $results/index.html" >&2
  exit 1
fi
echo "jcstress: every test passed ($(ls "$results" | grep -c '^io\.ingot\..*\.html$') tests, mode $mode)"
