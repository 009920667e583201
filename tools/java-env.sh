# Sourced by scripts: exports JAVA_HOME pointing at a JDK >= 25, or exits with a clear message.
# Order: $JAVA_HOME if it is >= 25, then the JDKs under /usr/lib/jvm (newest first), then `java` on PATH.
_ingot_java_major() {
  "$1/bin/java" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2; exit}'
}
_ingot_pick_java() {
  local c v
  for c in "${JAVA_HOME:-}" $(ls -d /usr/lib/jvm/*/ 2>/dev/null | sort -rV) \
           "$(dirname "$(dirname "$(readlink -f "$(command -v java 2>/dev/null || echo /nonexistent)")")")"; do
    c="${c%/}"
    [ -n "$c" ] && [ -x "$c/bin/java" ] && [ -x "$c/bin/javac" ] || continue
    v=$(_ingot_java_major "$c")
    if [ -n "$v" ] && [ "${v%%.*}" -ge 25 ] 2>/dev/null; then echo "$c"; return 0; fi
  done
  return 1
}
if ! JAVA_HOME=$(_ingot_pick_java); then
  echo "error: Ingot needs a JDK 25 or later, and none was found." >&2
  echo "       Looked at \$JAVA_HOME (${JAVA_HOME:-unset}), /usr/lib/jvm/* and the java on PATH." >&2
  echo "       Install one (e.g. Temurin 25) and set JAVA_HOME to it." >&2
  exit 1
fi
export JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"
