#!/usr/bin/env bash
# Serves a model repository and runs clients against it on Triton's default ports (8000 HTTP, 8001 gRPC, 8002
# metrics), which Triton's example clients name. The tests run it inside a private network namespace (unshare -rn),
# so that those ports are this run's own, or, where no namespace can be made, on the machine's free ports one run at
# a time.
#
#   serve-and-run-clients.sh OUT CLIENTS SERVE_COMMAND...
#
# OUT is a directory for serve.log, <name>.log per client and results ("<name> <exit status>" per line); CLIENTS a
# file of "<name> <working directory> <command>" lines. Every client runs, whatever the others did; the server is
# stopped at the end (SIGTERM, then SIGKILL after 30 s).
set -u
OUT="$1"; CLIENTS="$2"; shift 2
if [ "$(cat /sys/class/net/lo/operstate 2>/dev/null)" != "up" ]; then
  ip link set lo up 2>/dev/null || python3 -c 'import socket; socket.socket().bind(("127.0.0.1", 0))' || {
    echo "no loopback interface in this namespace" > "$OUT/serve.log"; exit 3; }
fi
"$@" > "$OUT/serve.log" 2>&1 &
server=$!
ready=0
for _ in $(seq 1 480); do
  if /usr/bin/python3 -c 'import sys, urllib.request
sys.exit(0 if urllib.request.urlopen("http://127.0.0.1:8000/v2/health/ready", timeout=2).status == 200 else 1)' \
      2>/dev/null; then ready=1; break; fi
  kill -0 "$server" 2>/dev/null || break
  sleep 0.25
done
if [ "$ready" != 1 ]; then
  echo "SERVER-NOT-READY" > "$OUT/results"
  kill -9 "$server" 2>/dev/null
  exit 4
fi
: > "$OUT/results"
while read -r name dir command; do
  [ -n "$name" ] || continue
  (cd "$dir" && timeout 300 bash -c "$command") > "$OUT/$name.log" 2>&1
  echo "$name $?" >> "$OUT/results"
done < "$CLIENTS"
kill "$server" 2>/dev/null
for _ in $(seq 1 120); do kill -0 "$server" 2>/dev/null || break; sleep 0.25; done
kill -9 "$server" 2>/dev/null
wait "$server" 2>/dev/null
exit 0
