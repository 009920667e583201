#!/usr/bin/env python3
"""Checks examples/models/classify_image (Python pre/post-processing around resnet50, through BLS) over HTTP.

Each image goes to classify_image the way tritonclient.http sends it (KServe v2: a JSON header, the tensor bytes
after it, Inference-Header-Content-Length, binary outputs requested, no Content-Type). The answer is checked
against the same pipeline done here: the image resized and normalized in numpy, sent to resnet50 directly, and the
five best classes of its softmax. Images of several sizes, sent concurrently; then an empty image, which the model
answers with its own error.

Standard library and numpy only (tritonclient itself is not needed):

    python3 classify_image_http.py http://127.0.0.1:8000

Exit status 0 when every answer is correct, 1 otherwise.
"""

import argparse
import http.client
import json
import sys
import threading
import urllib.parse

import numpy as np

HEADER_LENGTH = "Inference-Header-Content-Length"
MEAN = np.array([0.485, 0.456, 0.406], dtype=np.float32)
STD = np.array([0.229, 0.224, 0.225], dtype=np.float32)
NUMPY = {"UINT8": np.uint8, "FP32": np.float32, "INT64": np.int64}


def infer(base, model, inputs, outputs):
    """POSTs one binary request; returns (HTTP status, {output: numpy array or list of bytes}) or (status, error)."""
    header = {"inputs": [], "outputs": [{"name": name, "parameters": {"binary_data": True}} for name in outputs]}
    blobs = []
    for name, (datatype, array) in inputs.items():
        data = np.ascontiguousarray(array).tobytes()
        header["inputs"].append({"name": name, "datatype": datatype, "shape": list(array.shape),
                                 "parameters": {"binary_data_size": len(data)}})
        blobs.append(data)
    json_bytes = json.dumps(header, separators=(",", ":")).encode("utf-8")
    parsed = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(parsed.hostname, parsed.port or 80, timeout=300)
    try:
        connection.request("POST", "/v2/models/%s/infer" % model, body=json_bytes + b"".join(blobs),
                           headers={HEADER_LENGTH: str(len(json_bytes))})
        response = connection.getresponse()
        body = response.read()
        length = int(response.headers.get(HEADER_LENGTH, len(body)))
    finally:
        connection.close()
    result = json.loads(body[:length].decode("utf-8"))
    if response.status != 200:
        return response.status, result.get("error", result)
    offset = length
    decoded = {}
    for output in result["outputs"]:
        size = output["parameters"]["binary_data_size"]
        data = body[offset:offset + size]
        offset += size
        if output["datatype"] == "BYTES":
            decoded[output["name"]] = split_bytes(data)
        else:
            decoded[output["name"]] = np.frombuffer(data, NUMPY[output["datatype"]]).reshape(output["shape"])
    return 200, decoded


def split_bytes(data):
    """The elements of a BYTES tensor: each a 4-byte little-endian length, then its bytes."""
    elements = []
    offset = 0
    while offset < len(data):
        length = int.from_bytes(data[offset:offset + 4], "little")
        elements.append(data[offset + 4:offset + 4 + length])
        offset += 4 + length
    return elements


def expected(base, image):
    """The pipeline done here: nearest-neighbour resize, ImageNet normalization, resnet50, softmax, top five."""
    height, width, _ = image.shape
    rows = [r * height // 224 for r in range(224)]
    columns = [c * width // 224 for c in range(224)]
    pixels = image[np.ix_(rows, columns)].astype(np.float32) / 255.0
    tensor = ((pixels - MEAN) / STD).transpose(2, 0, 1)[None, ...].astype(np.float32)
    status, result = infer(base, "resnet50", {"input": ("FP32", tensor)}, ["logits"])
    if status != 200:
        raise AssertionError("resnet50 answered HTTP %d: %s" % (status, result))
    logits = result["logits"][0].astype(np.float64)
    probabilities = np.exp(logits - logits.max())
    probabilities /= probabilities.sum()
    best = np.argsort(-probabilities, kind="stable")[:5]
    return best, probabilities[best]


def check(base, index, image, errors, lock):
    try:
        status, result = infer(base, "classify_image", {"IMAGE": ("UINT8", image)}, ["CLASS_IDS", "SCORES", "LABELS"])
        if status != 200:
            raise AssertionError("classify_image answered HTTP %d: %s" % (status, result))
        ids, scores = expected(base, image)
        if list(result["CLASS_IDS"]) != list(ids):
            raise AssertionError("classes %s, expected %s" % (list(result["CLASS_IDS"]), list(ids)))
        if not np.allclose(result["SCORES"], scores, rtol=1e-4, atol=1e-7):
            raise AssertionError("scores %s, expected %s" % (list(result["SCORES"]), list(scores)))
        if result["LABELS"] != [("class_%d" % i).encode("utf-8") for i in ids]:
            raise AssertionError("labels %s" % result["LABELS"])
    except Exception as error:  # noqa: BLE001 - every failure is reported
        with lock:
            errors.append("image %d %s: %s" % (index, image.shape, error))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="the server's HTTP address, e.g. http://127.0.0.1:8000")
    args = parser.parse_args(argv)
    base = args.url.rstrip("/")

    generator = np.random.RandomState(18)
    images = [generator.randint(0, 256, size=shape, dtype=np.uint8)
              for shape in [(224, 224, 3), (180, 240, 3), (480, 640, 3), (31, 17, 3)]]
    errors = []
    lock = threading.Lock()
    threads = [threading.Thread(target=check, args=(base, i, image, errors, lock)) for i, image in enumerate(images)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    status, error = infer(base, "classify_image", {"IMAGE": ("UINT8", np.zeros((0, 8, 3), np.uint8))},
                          ["CLASS_IDS"])
    if status == 200 or "it needs at least one pixel" not in str(error):
        errors.append("an empty image must be refused by the model, got HTTP %d: %s" % (status, error))
    if errors:
        for line in errors:
            print(line, file=sys.stderr)
        return 1
    print("%d images classified correctly; an empty image refused: %s" % (len(images), error))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
