# Sourced by benchmarks/intake-rounds.sh and benchmarks/ring-choice.sh: runs one JMH command with its output in LOG.
# JMH lets one run at a time use a machine (its lock, /tmp/jmh.lock); when another run on this shared machine holds it,
# the command waits and tries again, for up to ten minutes, instead of losing its round.
# Usage: jmh_fork LOG COMMAND...   (the command's exit status; 1 if the lock stayed taken)
jmh_fork() {
  local log="$1" rc
  shift
  for _ in $(seq 1 60); do
    rc=0
    "$@" > "$log" 2>&1 || rc=$?
    grep -q "Unable to acquire the JMH lock" "$log" || return "$rc"
    sleep 10
  done
  echo "JMH's lock (/tmp/jmh.lock) stayed taken for ten minutes: $log" >&2
  return 1
}
