#!/usr/bin/env python3
"""SIGTERM under load, seen from the clients (RELIABILITY.md, "Shutdown drain"; run by tools/reliability.sh).

    tools/drain_probe.py --pid PID --http 127.0.0.1:18000 --connections 64 --model add_sub

Opens --connections keep-alive HTTP connections, each sending add_sub infer requests one after another, lets them
run for --warmup seconds, sends SIGTERM to --pid, and then follows every request that was in flight at that instant
to its end: answered (with its status: 200, or 503 when it was still queued) or not answered (the connection closed
or reset before a response). Requests sent after the signal are counted apart; new connections are refused once the
listener closed, which ends each connection's loop. Prints one DRAIN_CLIENT line; exits 1 when an in-flight request
got no answer.
"""

import argparse
import http.client
import json
import os
import signal
import sys
import threading
import time

BODY = json.dumps({"inputs": [
    {"name": "INPUT0", "datatype": "FP32", "shape": [1, 16], "data": [1.0] * 16},
    {"name": "INPUT1", "datatype": "FP32", "shape": [1, 16], "data": [2.0] * 16}]}).encode()


class Connection(threading.Thread):
    def __init__(self, host, port, model, stop):
        super().__init__(daemon=True)
        self.host, self.port, self.path, self.stop = host, port, "/v2/models/%s/infer" % model, stop
        self.lock = threading.Lock()
        self.sequence = 0          # the request being sent or awaited
        self.in_flight = False
        self.outcomes = {}         # sequence -> "200", "503", ... or "no answer: <error>"
        self.sent_after_signal = 0

    def run(self):
        connection = None
        while not self.stop.is_set():
            try:
                if connection is None:
                    connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
                    connection.connect()
            except OSError:
                return  # the listener is closed: this connection's loop is over
            with self.lock:
                self.sequence += 1
                sequence = self.sequence
                self.in_flight = True
            try:
                connection.request("POST", self.path, BODY, {"Content-Type": "application/json"})
                response = connection.getresponse()
                response.read()
                outcome = str(response.status)
                if response.getheader("Connection", "").lower() == "close":
                    connection.close()
                    connection = None
            except (OSError, http.client.HTTPException) as error:
                outcome = "no answer: " + type(error).__name__
                connection = None
            with self.lock:
                self.in_flight = False
                self.outcomes[sequence] = outcome
            if outcome.startswith("no answer"):
                return


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pid", type=int, required=True, help="the server's process id (the JVM)")
    parser.add_argument("--http", required=True, help="host:port of its HTTP endpoint")
    parser.add_argument("--model", default="add_sub")
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds of load before the signal")
    parser.add_argument("--json", help="write the figures here")
    args = parser.parse_args()
    host, port = args.http.rsplit(":", 1)
    stop = threading.Event()
    connections = [Connection(host, int(port), args.model, stop) for _ in range(args.connections)]
    for connection in connections:
        connection.start()
    time.sleep(args.warmup)
    for connection in connections:
        connection.lock.acquire()
    signalled = time.monotonic()
    os.kill(args.pid, signal.SIGTERM)
    # Each connection's last sequence number at the signal, and whether that request was in flight then.
    at_signal = [(connection, connection.sequence, connection.in_flight) for connection in connections]
    for connection in connections:
        connection.lock.release()
    pending = [(connection, sequence) for connection, sequence, in_flight in at_signal if in_flight]
    for connection in connections:
        connection.join(90)
    stop.set()
    took = time.monotonic() - signalled
    answered = {}
    unanswered = 0
    for connection, sequence in pending:
        outcome = connection.outcomes.get(sequence, "no answer: still waiting")
        if outcome.startswith("no answer"):
            unanswered += 1
        else:
            answered[outcome] = answered.get(outcome, 0) + 1
    after = sum(len([s for s in c.outcomes if s > seq]) for c, seq, _ in at_signal)
    before = sum(len([s for s in c.outcomes if s < seq or s == seq and not busy]) for c, seq, busy in at_signal)
    figures = {"connections": args.connections, "requests_before_signal": before, "in_flight_at_signal": len(pending),
               "in_flight_answered": answered, "in_flight_unanswered": unanswered,
               "sent_after_signal": after, "clients_done_s": round(took, 3)}
    print("DRAIN_CLIENT " + " ".join("%s=%s" % (k, json.dumps(v, separators=(",", ":"))) for k, v in figures.items()))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(figures, out, indent=2)
    return 1 if unanswered else 0


if __name__ == "__main__":
    sys.exit(main())
