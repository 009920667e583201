#!/usr/bin/env python3
"""Checks ingot_ipc against a running Ingot IPC server that serves the IPC test models.

    python3 ipc_selftest.py NAME            run the checks; prints "N passed, M failed", exits 1 on a failure
    python3 ipc_selftest.py NAME --victim   submit slow requests, print "SUBMITTED <slot>", wait to be killed
    python3 ipc_selftest.py NAME --rings N  N add_sub round trips, then print "RINGS <fenced> <rings> <skipped>":
                                            whether the client can fence, and how many of its frames made a system
                                            call to wake the server (IpcPythonClientTest runs it against a SPINNING
                                            server, which never sleeps, so a client that can fence must make none)

The server's models (server/src/test/java/io/ingot/server/ipc/IpcTestSupport.java): add_sub (FP32 [16]),
identity (FP32 [-1]), identity_bytes (BYTES [-1]), slow (an identity taking 300 ms) and simple_sequence
(Triton's (INPUT + START) * READY behind the sequence batcher).
"""

import sys
import time
import traceback

import numpy as np

from ingot_ipc import _E_CLIENT_WAITING, CapacityError, InferError, IpcClient


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def test_add_sub_in_place(client):
    a = client.empty((16,), np.float32)
    b = client.empty((16,), np.float32)
    a[:] = np.arange(16)
    b[:] = 100 - 2 * np.arange(16)
    with client.infer("add_sub", {"INPUT0": a, "INPUT1": b}, outputs=["OUTPUT0", "OUTPUT1"]) as result:
        check(np.array_equal(result["OUTPUT0"], a + b), "sum %s" % result["OUTPUT0"])
        check(np.array_equal(result["OUTPUT1"], a - b), "difference %s" % result["OUTPUT1"])
        check(result["OUTPUT0"].dtype == np.float32 and result["OUTPUT0"].shape == (16,), "dtype and shape")
        check(result.model_version == 1, "version %d" % result.model_version)
    client.free(a)
    client.free(b)


def test_ordinary_arrays_are_copied_once_and_freed(client):
    before = client.free_input_bytes()
    x = np.linspace(-1, 1, 16, dtype=np.float32)
    y = np.ones(16, dtype=">f4")  # big-endian input: converted to the little-endian wire format
    with client.infer("add_sub", {"INPUT0": x, "INPUT1": y}) as result:
        check(np.array_equal(result["OUTPUT0"], x + 1), "sum of copied inputs")
        check(set(result.outputs) == {"OUTPUT0", "OUTPUT1"}, "no outputs named: all come back")
    check(client.free_input_bytes() == before, "temporary copies are freed when the response arrives")


def test_pipelined_requests_each_get_their_answer(client):
    rng = np.random.default_rng(7)
    pending = {}
    for _ in range(64):
        x = rng.integers(0, 1000, 16).astype(np.float32)
        y = rng.integers(0, 1000, 16).astype(np.float32)
        pending[client.submit("add_sub", {"INPUT0": x, "INPUT1": y}, outputs=["OUTPUT1"])] = x - y
    for correlation_id in sorted(pending, reverse=True):
        with client.wait(correlation_id) as response:
            response.raise_for_status()
            check(np.array_equal(response["OUTPUT1"], pending[correlation_id]), "response %d" % correlation_id)


def test_a_mebibyte_comes_back_intact_many_times(client):
    data = client.empty((256 * 1024,), np.float32)
    data[:] = np.random.default_rng(3).random(256 * 1024, dtype=np.float32)
    for _ in range(8):  # more than the output area holds at once: works only if releases free the space
        with client.infer("identity", {"INPUT0": data}) as result:
            check(np.array_equal(result["OUTPUT0"], data), "identity of 1 MiB")
    client.free(data)


def test_bytes_tensors(client):
    words = [b"ingot", b"", "sp\u00e4ter".encode("utf-8"), b"\x00\xff"]
    with client.infer("identity_bytes", {"INPUT0": np.array(words, dtype=object)}) as result:
        check(list(result["OUTPUT0"]) == words, "BYTES identity %s" % list(result["OUTPUT0"]))


def test_errors_name_what_is_wrong(client):
    x = np.zeros(16, np.float32)
    try:
        client.infer("no_such_model", {"INPUT0": x})
        raise AssertionError("an unknown model must fail")
    except InferError as error:
        check(error.status_name == "INVALID_ARG" and "'no_such_model'" in error.message, str(error))
    try:
        client.infer("add_sub", {"INPUT0": np.zeros(8, np.float32), "INPUT1": np.zeros(8, np.float32)})
        raise AssertionError("a wrong shape must fail")
    except InferError as error:
        check(error.status_name == "INVALID_ARG", str(error))
    for bad in (lambda: client.submit("m" * 200, {}), lambda: client.submit("add_sub", {"x" * 129: x})):
        try:
            bad()
            raise AssertionError("an over-long name must be refused")
        except ValueError:
            pass
    try:
        client.empty((1 << 30,), np.float32)
        raise AssertionError("more than the input area must be refused")
    except CapacityError as error:
        check("input area" in str(error), str(error))


def test_sequences_carry_start_and_their_correlation_ids(client):
    # Triton's simple_http_sequence_sync_infer_client.py values against simple_sequence ((INPUT + START) * READY):
    # 1 (resp. 101) first, then each value as sent; a numeric and a string ID, both sequences in flight together.
    values = [11, 7, 5, 3, 2, 0, 1]
    first, second = [0] + values, [100] + [-v for v in values]
    got_first, got_second = [], []
    for i in range(len(first)):
        flags = {"sequence_start": i == 0, "sequence_end": i == len(first) - 1}
        a = client.submit("simple_sequence", {"INPUT": np.array([[first[i]]], np.int32)},
                          sequence_id=2 ** 64 - 2, **flags)
        b = client.submit("simple_sequence", {"INPUT": np.array([[second[i]]], np.int32)},
                          sequence_id="python-session", **flags)
        with client.wait(a).raise_for_status() as result:
            got_first.append(int(result["OUTPUT"][0][0]))
        with client.wait(b).raise_for_status() as result:
            got_second.append(int(result["OUTPUT"][0][0]))
    check(got_first == [1] + values, "sequence 2**64-2: %s" % got_first)
    check(got_second == [101] + [-v for v in values], "sequence 'python-session': %s" % got_second)
    try:
        client.infer("simple_sequence", {"INPUT": np.array([[1]], np.int32)}, sequence_id=4242)
        raise AssertionError("a sequence without START was accepted")
    except InferError as error:
        check("must specify the START flag on the first request of the sequence" in str(error), str(error))
    try:
        client.submit("simple_sequence", {"INPUT": np.array([[1]], np.int32)}, sequence_start=True)
        raise AssertionError("sequence_start without a sequence_id was accepted")
    except ValueError as error:
        check("need a sequence_id" in str(error), str(error))


def test_a_sleeping_client_is_woken_by_the_servers_ring(client):
    # slow takes 300 ms: far past the client's 50 us of polling, so it sleeps on its doorbell (at most 5 ms at a time)
    # with client_waiting raised; the server's wake after the response ends the last sleep before its timeout.
    x = np.zeros(16, np.float32)
    sleeps, wake_ups = client.sleeps, client.doorbell_wake_ups
    for _ in range(3):
        with client.infer("slow", {"INPUT0": x}) as result:
            check(np.array_equal(result["OUTPUT0"], x), "slow identity")
    check(client.sleeps - sleeps >= 3, "the client slept while waiting: %d sleeps" % (client.sleeps - sleeps))
    check(client.doorbell_wake_ups - wake_ups >= 1,
          "the server's ring ended a sleep early: %d wake-ups" % (client.doorbell_wake_ups - wake_ups))
    check(client._m.load32(client._entry + _E_CLIENT_WAITING) == 0, "client_waiting is down after the wait")


def test_a_sleeping_server_is_rung_and_answers(client):
    # Between these requests the server's IPC thread goes to sleep (after ~20 us idle) with server_waiting raised: a
    # client that can fence sees the flag and rings; one that cannot rings anyway. A lost ring would still be
    # answered, after up to 2 ms, so count rings too.
    a = np.arange(16, dtype=np.float32)
    rings = client.server_rings
    for _ in range(5):
        time.sleep(0.02)
        with client.infer("add_sub", {"INPUT0": a, "INPUT1": a}, outputs=["OUTPUT0"]) as result:
            check(np.array_equal(result["OUTPUT0"], 2 * a), "sum after the server slept")
    check(client.server_rings - rings >= 1, "rings for 10 frames to a sleeping server: %d"
          % (client.server_rings - rings))


def test_without_a_fence_the_client_rings_after_every_frame(client):
    # Where libatomic cannot be loaded the client cannot fence before reading server_waiting: it must ring after each
    # of its frames (5 INFER and 5 RELEASE here), as before the fence existed, and every request is answered.
    futex = client._futex
    fence, futex._fence = futex._fence, None
    try:
        check(not client.fenced, "the fence is off")
        a = np.arange(16, dtype=np.float32)
        rings, skipped = client.server_rings, client.server_rings_skipped
        for _ in range(5):
            with client.infer("add_sub", {"INPUT0": a, "INPUT1": a}, outputs=["OUTPUT1"]) as result:
                check(np.array_equal(result["OUTPUT1"], 0 * a), "difference without a fence")
        check(client.server_rings - rings == 10, "one ring per frame: %d" % (client.server_rings - rings))
        check(client.server_rings_skipped == skipped, "none skipped")
    finally:
        futex._fence = fence


def rings(name, count):
    with IpcClient.connect(name) as client:
        a = np.arange(16, dtype=np.float32)
        for _ in range(count):
            with client.infer("add_sub", {"INPUT0": a, "INPUT1": a}, outputs=["OUTPUT0"]) as result:
                check(np.array_equal(result["OUTPUT0"], 2 * a), "sum")
        print("RINGS %s %d %d" % (client.fenced, client.server_rings, client.server_rings_skipped), flush=True)
    return 0


def victim(name):
    client = IpcClient.connect(name)
    data = client.empty((16,), np.float32)
    for _ in range(8):
        client.submit("slow", {"INPUT0": data})
    print("SUBMITTED %d" % client.slot, flush=True)
    while True:
        time.sleep(60)


def main():
    name = sys.argv[1]
    if "--victim" in sys.argv:
        victim(name)
    if "--rings" in sys.argv:
        return rings(name, int(sys.argv[sys.argv.index("--rings") + 1]))
    tests = [value for key, value in sorted(globals().items()) if key.startswith("test_")]
    passed = failed = 0
    with IpcClient.connect(name) as client:
        for test in tests:
            try:
                test(client)
                passed += 1
                print("PASS", test.__name__, flush=True)
            except Exception:
                failed += 1
                print("FAIL", test.__name__, flush=True)
                traceback.print_exc(file=sys.stdout)
    print("%d passed, %d failed" % (passed, failed), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
