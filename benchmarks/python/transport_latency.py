#!/usr/bin/env python3
"""Python at concurrency 1 against one Ingot server: the shared-memory IPC client against a KServe v2 HTTP client.

    ./ingot serve --model-repository examples/models --http-port 18000 --ipc bench &
    /usr/bin/python3 benchmarks/python/transport_latency.py --ipc bench --http 127.0.0.1:18000 --json out.json

Each round sends --requests identity requests (FP32 [1, --elements]) over IPC, then as many over HTTP, one at a time,
and times each round trip with perf_counter_ns; rounds interleave the two so that a burst of machine load lands on
both. The HTTP client is what Triton's tritonclient.http sends for binary tensors (one keep-alive connection, the
JSON header followed by the raw bytes, Inference-Header-Content-Length, binary outputs), written with the standard
library: tritonclient itself is not installable here (no PyPI). Both check every answer. Prints one line per
transport and round and a summary; exits non-zero on a wrong answer.
"""

import argparse
import http.client
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python"))
from ingot_ipc import IpcClient  # noqa: E402
from shm_echo_floor import EchoFloor  # noqa: E402

HEADER_LENGTH = "Inference-Header-Content-Length"


def percentile(sorted_us, fraction):
    """The value at a fraction of a sorted list (nearest rank)."""
    index = min(len(sorted_us) - 1, max(0, int(round(fraction * len(sorted_us) + 0.5)) - 1))
    return sorted_us[index]


def check_echo(echoed, values):
    """Fails unless the echo gave the values back."""
    if not np.array_equal(echoed, values):
        raise RuntimeError("the echo differs from the input")


def timed(once, count):
    """Runs once() count times; returns each round trip in nanoseconds."""
    latencies = []
    for _ in range(count):
        start = time.perf_counter_ns()
        once()
        latencies.append(time.perf_counter_ns() - start)
    return latencies


def summary(latencies_ns):
    values = sorted(v / 1000.0 for v in latencies_ns)
    return {"count": len(values), "p50_us": percentile(values, 0.50), "p90_us": percentile(values, 0.90),
            "p99_us": percentile(values, 0.99), "max_us": values[-1], "mean_us": sum(values) / len(values)}


class HttpClient:
    """KServe v2 binary-tensor inference over one keep-alive connection, as tritonclient.http sends it."""

    def __init__(self, address, model, elements):
        host, port = address.rsplit(":", 1)
        self.connection = http.client.HTTPConnection(host, int(port), timeout=30)
        self.path = "/v2/models/%s/infer" % model
        self.elements = elements

    def infer(self, values):
        data = values.tobytes()
        header = {"inputs": [{"name": "INPUT0", "datatype": "FP32", "shape": [1, self.elements],
                              "parameters": {"binary_data_size": len(data)}}],
                  "outputs": [{"name": "OUTPUT0", "parameters": {"binary_data": True}}]}
        json_bytes = json.dumps(header, separators=(",", ":")).encode("utf-8")
        self.connection.request("POST", self.path, body=json_bytes + data,
                                headers={HEADER_LENGTH: str(len(json_bytes)),
                                         "Content-Type": "application/octet-stream"})
        response = self.connection.getresponse()
        body = response.read()
        if response.status != 200:
            raise RuntimeError("HTTP %d: %s" % (response.status, body[:200]))
        length = int(response.headers.get(HEADER_LENGTH, len(body)))
        return np.frombuffer(body[length:], np.float32)

    def close(self):
        self.connection.close()


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ipc", required=True, help="the IPC server's name (ingot serve --ipc NAME)")
    parser.add_argument("--http", required=True, help="host:port of the server's HTTP endpoint")
    parser.add_argument("--model", default="identity")
    parser.add_argument("--elements", type=int, default=16)
    parser.add_argument("--requests", type=int, default=5000, help="requests per transport and round")
    parser.add_argument("--warmup", type=int, default=1000, help="unmeasured requests per transport first")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only-ipc", action="store_true",
                        help="time the IPC client alone (for a profile of its path); no HTTP, no ratio to it")
    parser.add_argument("--floor", action="store_true",
                        help="also time, in the same rounds, a Python echo process over shared memory that never"
                             " sleeps (shm_echo_floor.py): the floor under any Python client's round trip here")
    parser.add_argument("--json", help="write the per-round and overall results here")
    args = parser.parse_args(argv)

    values = np.arange(args.elements, dtype=np.float32)
    http_client = HttpClient(args.http, args.model, args.elements)
    results = {"ipc": []} if args.only_ipc else {"ipc": [], "http": []}
    with IpcClient.connect(args.ipc) as ipc:
        tensor = ipc.empty((1, args.elements), np.float32)
        tensor[:] = values

        def ipc_once():
            with ipc.infer(args.model, {"INPUT0": tensor}, outputs=["OUTPUT0"]) as result:
                if not np.array_equal(result["OUTPUT0"].reshape(-1), values):
                    raise RuntimeError("IPC answer differs from the input")

        def http_once():
            if not np.array_equal(http_client.infer(values), values):
                raise RuntimeError("HTTP answer differs from the input")

        transports = [("ipc", ipc_once, 0)] + ([] if args.only_ipc else [("http", http_once, 0)])
        for _, once, _ in transports:
            for _ in range(args.warmup):
                once()
        if args.floor:
            # The echo floors. Their echo process polls without sleeping, so it runs only during its own round (a
            # fresh process each round): idle, it would take a CPU from the server's threads. The held floor's echo
            # holds each request as long as an IPC round trip takes beyond the bare floor (medians of a warm-up),
            # so that its round trips last as long as the IPC client's.
            ipc_p50 = summary(timed(ipc_once, args.warmup))["p50_us"]
            with EchoFloor(args.elements) as bare:
                floor_p50 = summary(timed(lambda: bare.once(values), args.warmup))["p50_us"]
            hold_us = max(0.0, ipc_p50 - floor_p50)
            transports += [("floor", None, 0), ("floor-held", None, hold_us)]
            print("held floor: the echo holds each request %.1f us (IPC p50 %.1f us - bare floor p50 %.1f us)"
                  % (hold_us, ipc_p50, floor_p50))
            results["floor"] = []
            results["floor-held"] = []
        for round_index in range(args.rounds):
            for name, once, hold_us in transports:
                if once is None:
                    with EchoFloor(args.elements, hold_ns=hold_us * 1000) as echo:
                        for _ in range(args.warmup // 5):
                            echo.once(values)
                        stats = summary(timed(lambda: check_echo(echo.once(values), values), args.requests))
                else:
                    stats = summary(timed(once, args.requests))
                results[name].append({"round": round_index + 1, **stats, "samples_ns": None})
                print("round %d %-10s p50 %8.1f us  p90 %8.1f us  p99 %8.1f us  max %9.1f us"
                      % (round_index + 1, name, stats["p50_us"], stats["p90_us"], stats["p99_us"], stats["max_us"]))
        ipc.free(tensor)
    http_client.close()

    def median_round(name, key):
        ordered = sorted(r[key] for r in results[name])
        return ordered[(len(ordered) - 1) // 2]

    overall = {name: {key: median_round(name, key) for key in ("p50_us", "p90_us", "p99_us")} for name in results}
    overall["ipc_p99_over_ipc_p50"] = overall["ipc"]["p99_us"] / overall["ipc"]["p50_us"]
    print("median round: IPC p50 %.1f us p99 %.1f us (p99/p50 %.2f)"
          % (overall["ipc"]["p50_us"], overall["ipc"]["p99_us"], overall["ipc_p99_over_ipc_p50"]))
    if "http" in results:
        overall["http_p50_over_ipc_p50"] = overall["http"]["p50_us"] / overall["ipc"]["p50_us"]
        print("median round: HTTP p50 %.1f us p99 %.1f us; HTTP p50 / IPC p50 %.2f"
              % (overall["http"]["p50_us"], overall["http"]["p99_us"], overall["http_p50_over_ipc_p50"]))
    for name in ("floor", "floor-held"):
        if name in results:
            overall[name + "_p99_over_p50"] = overall[name]["p99_us"] / overall[name]["p50_us"]
            print("median round: %s (Python echo, never sleeps) p50 %.1f us p99 %.1f us (p99/p50 %.2f)"
                  % (name, overall[name]["p50_us"], overall[name]["p99_us"], overall[name + "_p99_over_p50"]))
    if args.json:
        for rounds in results.values():
            for entry in rounds:
                entry.pop("samples_ns")
        with open(args.json, "w") as out:
            json.dump({"command": " ".join(["/usr/bin/python3"] + sys.argv), "model": args.model,
                       "elements": args.elements, "requests_per_round": args.requests, "rounds": results,
                       "median_round": overall}, out, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
