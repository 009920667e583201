#!/usr/bin/env python3
"""KServe v2 HTTP load through a load balancer, counting every request's fate (tools/replica-test.sh runs it).

    v2_load.py --url 127.0.0.1:PORT --connections 16 --seconds 20 --events events.txt --json result.json

Each of --connections threads keeps one HTTP/1.1 keep-alive connection and sends add_sub infer requests one after
another (Triton's add_sub: OUTPUT0 = INPUT0 + INPUT1, checked on every answer). A request that gets no answer
(connection refused, reset or closed) or a 503 is retried by the client, on a new connection, up to --attempts
times; it is "answered" when a 200 comes back, "failed" otherwise (a 200 with wrong sums is counted apart). It
runs for --seconds; tools/replica-test.sh sends the signals meanwhile.
Uses only Python's standard library (Triton's Python client is not installable here: no PyPI).
"""

import argparse
import http.client
import json
import random
import threading
import time

INPUT_LENGTH = 16


def body(seed):
    rng = random.Random(seed)
    a = [float(rng.randint(-100, 100)) for _ in range(INPUT_LENGTH)]
    b = [float(rng.randint(-100, 100)) for _ in range(INPUT_LENGTH)]
    payload = {"inputs": [
        {"name": "INPUT0", "datatype": "FP32", "shape": [1, INPUT_LENGTH], "data": a},
        {"name": "INPUT1", "datatype": "FP32", "shape": [1, INPUT_LENGTH], "data": b}]}
    return json.dumps(payload).encode(), [x + y for x, y in zip(a, b)]


class Worker(threading.Thread):
    def __init__(self, index, host, port, model, attempts, deadline):
        super().__init__(daemon=True)
        self.index, self.host, self.port = index, host, port
        self.path = "/v2/models/%s/infer" % model
        self.attempts, self.deadline = attempts, deadline
        self.answered = self.failed = self.retried = self.wrong = 0
        self.by_replica = {}
        self.retry_reasons = {}
        self.failures = []
        self.connection = None

    def send(self, payload):
        if self.connection is None:
            self.connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
        self.connection.request("POST", self.path, payload, {"Content-Type": "application/json"})
        response = self.connection.getresponse()
        data = response.read()
        if response.getheader("Connection", "").lower() == "close":
            self.connection.close()
            self.connection = None
        return response.status, response.getheader("X-Ingot-Replica", "?"), data

    def run(self):
        sequence = 0
        while time.monotonic() < self.deadline:
            sequence += 1
            payload, expected = body(self.index * 1_000_003 + sequence)
            outcome = None
            for attempt in range(self.attempts):
                if attempt:
                    self.retried += 1
                try:
                    status, replica, data = self.send(payload)
                except (OSError, http.client.HTTPException) as error:
                    reason = "no answer (%s)" % type(error).__name__
                    self.connection = None
                else:
                    if status == 200:
                        outputs = {o["name"]: o["data"] for o in json.loads(data)["outputs"]}
                        if outputs.get("OUTPUT0") != expected:
                            self.wrong += 1
                        self.by_replica[replica] = self.by_replica.get(replica, 0) + 1
                        outcome = "answered"
                        break
                    reason = "HTTP %d from %s" % (status, replica)
                self.retry_reasons[reason] = self.retry_reasons.get(reason, 0) + 1
                time.sleep(0.05 * (attempt + 1))
            if outcome == "answered":
                self.answered += 1
            else:
                self.failed += 1
                self.failures.append(reason)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="host:port of the load balancer")
    parser.add_argument("--model", default="add_sub")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--attempts", type=int, default=5, help="tries per request, the first included")
    parser.add_argument("--json", help="write the counts here")
    args = parser.parse_args()
    host, port = args.url.rsplit(":", 1)
    deadline = time.monotonic() + args.seconds
    workers = [Worker(i, host, int(port), args.model, args.attempts, deadline) for i in range(args.connections)]
    started = time.monotonic()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    elapsed = time.monotonic() - started
    result = {"answered": sum(w.answered for w in workers), "failed": sum(w.failed for w in workers),
              "retried": sum(w.retried for w in workers), "wrong_answers": sum(w.wrong for w in workers),
              "seconds": round(elapsed, 1), "by_replica": {}, "retry_reasons": {}, "failures": []}
    for worker in workers:
        for replica, count in worker.by_replica.items():
            result["by_replica"][replica] = result["by_replica"].get(replica, 0) + count
        for reason, count in worker.retry_reasons.items():
            result["retry_reasons"][reason] = result["retry_reasons"].get(reason, 0) + count
        result["failures"].extend(worker.failures[:5])
    result["requests_per_second"] = round(result["answered"] / elapsed, 1)
    line = "CLIENT answered=%(answered)d failed=%(failed)d retried=%(retried)d wrong_answers=%(wrong_answers)d" \
           " rate=%(requests_per_second)s/s" % result
    print(line, "by_replica=" + json.dumps(result["by_replica"], sort_keys=True),
          "retry_reasons=" + json.dumps(result["retry_reasons"], sort_keys=True), flush=True)
    if args.json:
        with open(args.json, "w") as out:
            json.dump(result, out, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
