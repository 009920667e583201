#!/usr/bin/env python3
"""Ingot's seed flow over HTTP, sent the way tritonclient.http sends it.

Ten concurrent requests of shape [1, 16] go to an add_sub-like model (FP32 inputs INPUT0 and INPUT1,
outputs OUTPUT0 = INPUT0 + INPUT1 and OUTPUT1 = INPUT0 - INPUT1): binary inputs after the JSON header,
Inference-Header-Content-Length set, both outputs requested with binary_data true, and no Content-Type
header. Every answer is checked, then the statistics endpoint must show that the server batched them
(execution_count grew less than inference_count).

Standard library only. http.client is used for the requests because urllib.request adds a Content-Type
to every POST, which tritonclient does not send.

    python3 seed_flow_http.py http://127.0.0.1:8000 add_sub

Exit status 0 when every response is correct and the requests were batched, 1 otherwise.
"""

import argparse
import http.client
import json
import struct
import sys
import threading
import urllib.parse
import urllib.request

ELEMENTS = 16
HEADER_LENGTH = "Inference-Header-Content-Length"


def get_json(base, path):
    with urllib.request.urlopen(base + path, timeout=60) as response:
        return json.loads(response.read().decode("utf-8"))


def model_stats(base, model):
    stats = get_json(base, "/v2/models/%s/stats" % urllib.parse.quote(model, safe=""))
    entry = stats["model_stats"][0]
    return int(entry["inference_count"]), int(entry["execution_count"])


def request_body(index):
    """The JSON header and the binary inputs of request `index`, with exactly representable values."""
    first = [float(index * 100 + i) for i in range(ELEMENTS)]
    second = [i * 0.5 for i in range(ELEMENTS)]
    header = {
        "inputs": [
            {"name": "INPUT0", "shape": [1, ELEMENTS], "datatype": "FP32",
             "parameters": {"binary_data_size": 4 * ELEMENTS}},
            {"name": "INPUT1", "shape": [1, ELEMENTS], "datatype": "FP32",
             "parameters": {"binary_data_size": 4 * ELEMENTS}},
        ],
        "outputs": [
            {"name": "OUTPUT0", "parameters": {"binary_data": True}},
            {"name": "OUTPUT1", "parameters": {"binary_data": True}},
        ],
    }
    json_bytes = json.dumps(header, separators=(",", ":")).encode("utf-8")
    binary = struct.pack("<%df" % ELEMENTS, *first) + struct.pack("<%df" % ELEMENTS, *second)
    return json_bytes, json_bytes + binary, first, second


def parse_response(status, headers, body):
    """Splits a binary response as tritonclient does: JSON header, then blobs in output order."""
    if status != 200:
        raise AssertionError("HTTP %d: %s" % (status, body.decode("utf-8", "replace")))
    length = int(headers.get(HEADER_LENGTH, len(body)))
    result = json.loads(body[:length].decode("utf-8"))
    offset = length
    outputs = {}
    for output in result["outputs"]:
        size = output.get("parameters", {}).get("binary_data_size")
        if size is None:
            raise AssertionError("output %s came back without binary_data_size" % output["name"])
        outputs[output["name"]] = struct.unpack("<%df" % (size // 4), body[offset:offset + size])
        if output["shape"] != [1, ELEMENTS] or output["datatype"] != "FP32":
            raise AssertionError("output %s has shape %s and datatype %s"
                                 % (output["name"], output["shape"], output["datatype"]))
        offset += size
    if offset != len(body):
        raise AssertionError("%d response bytes are not claimed by any output" % (len(body) - offset))
    return result, outputs


def send_all(base, model, count):
    parsed = urllib.parse.urlsplit(base)
    path = "/v2/models/%s/infer" % urllib.parse.quote(model, safe="")
    barrier = threading.Barrier(count)
    errors = []
    lock = threading.Lock()

    def one(index):
        connection = http.client.HTTPConnection(parsed.hostname, parsed.port or 80, timeout=60)
        try:
            json_bytes, body, first, second = request_body(index)
            connection.connect()
            barrier.wait(timeout=60)
            connection.request("POST", path, body=body, headers={HEADER_LENGTH: str(len(json_bytes))})
            response = connection.getresponse()
            payload = response.read()
            _, outputs = parse_response(response.status, response.headers, payload)
            for i in range(ELEMENTS):
                if outputs["OUTPUT0"][i] != first[i] + second[i] or outputs["OUTPUT1"][i] != first[i] - second[i]:
                    raise AssertionError("request %d element %d: got %s and %s, expected %s and %s"
                                         % (index, i, outputs["OUTPUT0"][i], outputs["OUTPUT1"][i],
                                            first[i] + second[i], first[i] - second[i]))
        except Exception as error:  # noqa: BLE001 - every failure is reported
            with lock:
                errors.append("request %d: %s" % (index, error))
        finally:
            connection.close()

    threads = [threading.Thread(target=one, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="the server's HTTP address, e.g. http://127.0.0.1:8000")
    parser.add_argument("model", nargs="?", default="add_sub", help="an add_sub-like model (default add_sub)")
    parser.add_argument("--requests", type=int, default=10, help="concurrent requests (default 10)")
    args = parser.parse_args(argv)
    base = args.url.rstrip("/")

    metadata = get_json(base, "/v2/models/%s" % urllib.parse.quote(args.model, safe=""))
    names = sorted(tensor["name"] for tensor in metadata["inputs"])
    if names != ["INPUT0", "INPUT1"]:
        print("model %s has inputs %s, expected INPUT0 and INPUT1" % (args.model, names), file=sys.stderr)
        return 1

    inferences_before, executions_before = model_stats(base, args.model)
    errors = send_all(base, args.model, args.requests)
    inferences_after, executions_after = model_stats(base, args.model)
    inferences = inferences_after - inferences_before
    executions = executions_after - executions_before
    if errors:
        for error in errors:
            print(error, file=sys.stderr)
        return 1
    print("%d requests answered correctly: inference_count +%d, execution_count +%d"
          % (args.requests, inferences, executions))
    if inferences < args.requests:
        print("inference_count grew by %d, expected at least %d" % (inferences, args.requests), file=sys.stderr)
        return 1
    if executions >= inferences:
        print("the requests were not batched: execution_count +%d is not below inference_count +%d"
              % (executions, inferences), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
