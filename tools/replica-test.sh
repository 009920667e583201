#!/usr/bin/env bash
# Three `ingot serve` replicas behind HAProxy (deploy/haproxy/haproxy.cfg), KServe v2 HTTP load through it
# (deploy/haproxy/v2_load.py), one replica sent SIGTERM mid-load and another killed with SIGKILL. Prints what the
# client saw (answered, failed, retried), what HAProxy saw per replica, and whether the drained replica answered
# every request it accepted; exits 1 when a request failed, an answer was wrong, or the drain lost a request.
#
#   tools/replica-test.sh [--seconds 24] [--connections 16] [--keep DIR]
#
# Ports: free ones chosen at start (never 8000-8002). Needs python3 and haproxy (a Debian package: installed with
# apt-get when missing and running as root; otherwise the script says how). Not part of tools/test.sh (slow).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

SECONDS_OF_LOAD=24
CONNECTIONS=16
KEEP=
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) SECONDS_OF_LOAD=$2; shift 2 ;;
    --connections) CONNECTIONS=$2; shift 2 ;;
    --keep) KEEP=$2; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "error: unknown option '$1' (tools/replica-test.sh --help)" >&2; exit 2 ;;
  esac
done
log() { echo "replica-test: $*" >&2; }

command -v python3 >/dev/null || { echo "error: python3 is needed (apt-get install -y python3-minimal)" >&2; exit 1; }
if ! command -v haproxy >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    log "HAProxy is missing: installing Debian's haproxy package (apt-get install -y haproxy)"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy) >&2
  else
    echo "error: the replica test needs HAProxy: install Debian's package as root (apt-get install -y haproxy)" >&2
    exit 1
  fi
fi

WORK=${KEEP:-$(mktemp -d /tmp/ingot-replica-test.XXXXXX)}
mkdir -p "$WORK"
PIDS=()
cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do
    kill -KILL "$pid" 2>/dev/null || true
  done
  wait 2>/dev/null || true
  [ -n "$KEEP" ] || rm -rf "$WORK"
}
trap cleanup EXIT

# Builds on first use (./ingot), then starts nothing until the build is done.
./ingot --version >/dev/null

# 11 free ports: 3 per replica (HTTP, gRPC, metrics), the balancer's front and its stats page.
read -r -a PORTS <<< "$(python3 - <<'EOF'
import socket
sockets = [socket.socket() for _ in range(11)]
for s in sockets:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in sockets))
for s in sockets:
    s.close()
EOF
)"

mkdir -p "$WORK/models"
cp -r examples/models/add_sub "$WORK/models/"
EXIT_TIMEOUT=10
REPLICA_PIDS=()
for i in 0 1 2; do
  http=${PORTS[$((i * 3))]} grpc=${PORTS[$((i * 3 + 1))]} metrics=${PORTS[$((i * 3 + 2))]}
  ./ingot serve --model-repository "$WORK/models" --host 127.0.0.1 --http-port "$http" --grpc-port "$grpc" \
    --metrics-port "$metrics" --exit-timeout-secs "$EXIT_TIMEOUT" > "$WORK/replica$((i + 1)).log" 2>&1 &
  REPLICA_PIDS+=($!)
  PIDS+=($!)
done
LB_PORT=${PORTS[9]} STATS_PORT=${PORTS[10]}

ready() {  # host:port -> 0 when /v2/health/ready answers 200
  python3 -c 'import sys, urllib.request
try:
    sys.exit(0 if urllib.request.urlopen("http://%s/v2/health/ready" % sys.argv[1], timeout=2).status == 200 else 1)
except Exception:
    sys.exit(1)' "$1"
}
for i in 0 1 2; do
  for _ in $(seq 1 240); do
    ready "127.0.0.1:${PORTS[$((i * 3))]}" && break
    kill -0 "${REPLICA_PIDS[$i]}" 2>/dev/null || { cat "$WORK/replica$((i + 1)).log" >&2; exit 1; }
    sleep 0.5
  done
  ready "127.0.0.1:${PORTS[$((i * 3))]}" || { echo "error: replica$((i + 1)) never became ready" >&2; exit 1; }
done
log "3 replicas ready on HTTP ports ${PORTS[0]}, ${PORTS[3]}, ${PORTS[6]} (pids ${REPLICA_PIDS[*]})"

export INGOT_LB_BIND=127.0.0.1:$LB_PORT INGOT_LB_STATS_BIND=127.0.0.1:$STATS_PORT
export INGOT_REPLICA1=127.0.0.1:${PORTS[0]} INGOT_REPLICA2=127.0.0.1:${PORTS[3]} INGOT_REPLICA3=127.0.0.1:${PORTS[6]}
haproxy -db -f deploy/haproxy/haproxy.cfg > "$WORK/haproxy.log" 2>&1 &
HAPROXY_PID=$!
PIDS+=($HAPROXY_PID)
for _ in $(seq 1 40); do
  ready "127.0.0.1:$LB_PORT" && break
  sleep 0.25
done
log "HAProxy on 127.0.0.1:$LB_PORT (stats http://127.0.0.1:$STATS_PORT/stats); $CONNECTIONS connections for ${SECONDS_OF_LOAD} s"

python3 deploy/haproxy/v2_load.py --url "127.0.0.1:$LB_PORT" --connections "$CONNECTIONS" \
  --seconds "$SECONDS_OF_LOAD" --json "$WORK/client.json" > "$WORK/client.out" &
LOAD_PID=$!
PIDS+=($LOAD_PID)

third=$(python3 -c "print($SECONDS_OF_LOAD / 3)")
sleep "$third"
log "t=${third}s: SIGTERM to replica1 (pid ${REPLICA_PIDS[0]}): it drains"
kill -TERM "${REPLICA_PIDS[0]}"
sleep "$third"
log "t=$(python3 -c "print(2 * $third)")s: SIGKILL to replica2 (pid ${REPLICA_PIDS[1]})"
kill -KILL "${REPLICA_PIDS[1]}"

set +e
wait "${REPLICA_PIDS[0]}"; DRAIN_EXIT=$?
wait "${REPLICA_PIDS[1]}" 2>/dev/null
wait "$LOAD_PID"; LOAD_EXIT=$?
set -e
kill -TERM "${REPLICA_PIDS[2]}"
wait "${REPLICA_PIDS[2]}" || true
kill -TERM "$HAPROXY_PID" 2>/dev/null || true
wait "$HAPROXY_PID" 2>/dev/null || true
PIDS=()

[ "$LOAD_EXIT" = 0 ] || { echo "error: the load driver failed (exit $LOAD_EXIT)" >&2; exit 1; }
cat "$WORK/client.out"
# HAProxy's view, one line per request: server, status (-1: no answer), termination state, retries, time, method.
python3 - "$WORK/haproxy.log" "$WORK/client.json" "$DRAIN_EXIT" "$WORK/replica1.log" <<'EOF'
import json, sys
log_path, client_path, drain_exit, drain_log = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
per = {}
for line in open(log_path):
    parts = line.split()
    if len(parts) != 6 or not parts[1].lstrip("-").isdigit() or parts[5] != "POST":
        continue  # not a request line, or the readiness check the script sent through the balancer
    server, status, state, retries = parts[0], int(parts[1]), parts[2], parts[3]
    row = per.setdefault(server, {"requests": 0, "200": 0, "503": 0, "no_answer": 0, "redispatched": 0})
    row["requests"] += 1
    if status == 200:
        row["200"] += 1
    elif status == 503:
        row["503"] += 1
    elif status < 0 or state[0] in "SH":
        row["no_answer"] += 1
    if retries.startswith("+"):
        row["redispatched"] += 1
for server in sorted(per):
    print("HAPROXY %s %s" % (server, " ".join("%s=%d" % kv for kv in per[server].items())))
client = json.load(open(client_path))
drained_lines = [l.strip() for l in open(drain_log) if "Stopping" in l or "Exit timeout" in l or "Stopped" in l]
print("DRAIN replica1 exit=%d (0: every accepted request answered within --exit-timeout-secs); log: %s"
      % (drain_exit, " | ".join(drained_lines)))
lost_at_drain = per.get("replica1", {}).get("no_answer", 0)
ok = client["failed"] == 0 and client["wrong_answers"] == 0 and drain_exit == 0 and lost_at_drain == 0
print("RESULT %s: answered=%d failed=%d retried=%d (client), wrong_answers=%d, drained replica exit %d,"
      " requests the drained replica left unanswered %d"
      % ("PASS" if ok else "FAIL", client["answered"], client["failed"], client["retried"], client["wrong_answers"],
         drain_exit, lost_at_drain))
sys.exit(0 if ok else 1)
EOF
