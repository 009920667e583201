#!/usr/bin/env python3
"""The plain-Python baseline of docs/benchmarks/python-backend.md: a Triton model's execute() called in a loop.

Each call gets what the stub would hand it, one request of [1, 16] FP32 tensors (one per input of the model's
config.pbtxt: INPUT0 and INPUT1 for add_sub, IN for benchmarks/python/models/empty) as pb_utils tensors, built inside
the timed region as the stub builds them; nothing else (no server, no shared memory, no other process). The time per
call is what the model itself costs, the floor under any serving of it.

    python3 benchmarks/python/direct_loop.py examples/models/add_sub_python --requests 20000 --json out.json

Standard library and numpy, and Ingot's triton_python_backend_utils (python/src/main/python).
"""

import argparse
import importlib.util
import json
import os
import re
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python", "src", "main", "python"))
import triton_python_backend_utils as pb_utils  # noqa: E402


def model_config(model_dir):
    """The config.pbtxt fields such a model reads in initialize: its name, inputs and outputs (FP32 [16] each)."""
    with open(os.path.join(model_dir, "config.pbtxt"), encoding="utf-8") as text:
        pbtxt = text.read()
    name = re.search(r'^name:\s*"([^"]+)"', pbtxt, re.M).group(1)
    split = pbtxt.index("output")
    tensors = r'name:\s*"([^"]+)"\s+data_type:\s*(TYPE_\w+)'
    return {"name": name,
            "input": [{"name": n, "data_type": t, "dims": [16]} for n, t in re.findall(tensors, pbtxt[:split])],
            "output": [{"name": n, "data_type": t, "dims": [16]} for n, t in re.findall(tensors, pbtxt[split:])]}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model_dir")
    parser.add_argument("--requests", type=int, default=20000)
    parser.add_argument("--warmup", type=int, default=2000)
    parser.add_argument("--json")
    args = parser.parse_args(argv)

    config = model_config(args.model_dir)
    spec = importlib.util.spec_from_file_location("model", os.path.join(args.model_dir, "1", "model.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    model = module.TritonPythonModel()
    if hasattr(model, "initialize"):
        model.initialize({"model_config": json.dumps(config), "model_instance_kind": "CPU",
                          "model_instance_name": config["name"] + "_0", "model_instance_device_id": "0",
                          "model_repository": os.path.abspath(args.model_dir), "model_version": "1",
                          "model_name": config["name"]})
    generator = np.random.RandomState(18)
    arrays = [(entry["name"], generator.rand(1, 16).astype(np.float32)) for entry in config["input"]]
    requested = [output["name"] for output in config["output"]]
    times = []
    for i in range(args.warmup + args.requests):
        start = time.perf_counter_ns()
        request = pb_utils.InferenceRequest._of([pb_utils.Tensor._of(name, array, 11) for name, array in arrays],
                                                requested, config["name"])
        responses = model.execute([request])
        elapsed = time.perf_counter_ns() - start
        if i >= args.warmup:
            times.append(elapsed)
    first = responses[0].output_tensors()[0].as_numpy()
    expected = arrays[0][1] + arrays[1][1] if len(arrays) == 2 else arrays[0][1]
    assert np.array_equal(first, expected), "the model answered %s" % first
    times.sort()

    def percentile(p):
        return times[min(len(times) - 1, int(len(times) * p))] / 1000.0

    result = {"model": config["name"], "requests": len(times), "calls_per_second": 1e9 * len(times) / sum(times),
              "latency_us": {"p50": percentile(0.50), "p90": percentile(0.90), "p99": percentile(0.99),
                             "avg": sum(times) / len(times) / 1000.0},
              "python": sys.version.split()[0], "numpy": np.__version__}
    print("%s execute() in a plain loop: %d calls, p50 %.1f us, p99 %.1f us, %.0f calls/s"
          % (config["name"], len(times), result["latency_us"]["p50"], result["latency_us"]["p99"],
             result["calls_per_second"]))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(result, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
