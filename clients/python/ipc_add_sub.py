#!/usr/bin/env python3
"""Round-trips Triton's add_sub model through an Ingot IPC server.

    ./ingot serve --model-repository examples/models --ipc demo &
    /usr/bin/python3 clients/python/ipc_add_sub.py demo

add_sub takes FP32 INPUT0 and INPUT1 of 16 elements and returns OUTPUT0 = INPUT0 + INPUT1 and
OUTPUT1 = INPUT0 - INPUT1. The inputs are written straight into shared memory (client.empty), the outputs are read
in place. Exits 0 when every element is right.
"""

import sys

import numpy as np

from ingot_ipc import IpcClient, InferError, STATUS_NAMES


def main():
    name = sys.argv[1] if len(sys.argv) > 1 else "demo"
    model = sys.argv[2] if len(sys.argv) > 2 else "add_sub"
    with IpcClient.connect(name) as client:
        a = client.empty((16,), np.float32)
        b = client.empty((16,), np.float32)
        a[:] = np.arange(16, dtype=np.float32)
        b[:] = np.full(16, 1.0, dtype=np.float32)
        try:
            # examples/models/add_sub batches (max_batch_size 8): one row is shape [1, 16], the same memory.
            result = client.infer(model, {"INPUT0": a.reshape(1, 16), "INPUT1": b.reshape(1, 16)},
                                  outputs=["OUTPUT0", "OUTPUT1"])
        except InferError as error:
            if error.status_name != "INVALID_ARG":
                raise
            # A model without a batch dimension (max_batch_size 0) takes shape [16].
            result = client.infer(model, {"INPUT0": a, "INPUT1": b}, outputs=["OUTPUT0", "OUTPUT1"])
        with result:
            total = result["OUTPUT0"].reshape(-1)
            difference = result["OUTPUT1"].reshape(-1)
            print("INPUT0  ", a)
            print("INPUT1  ", b)
            print("OUTPUT0 ", total)
            print("OUTPUT1 ", difference)
            good = np.array_equal(total, a + b) and np.array_equal(difference, a - b)
        client.free(a)
        client.free(b)
    if not good:
        print("add_sub WRONG: the outputs are not INPUT0 + INPUT1 and INPUT0 - INPUT1")
        return 1
    print("add_sub OK via IPC server %r (status %s)" % (name, STATUS_NAMES[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
