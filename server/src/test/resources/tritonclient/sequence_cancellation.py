# Sequence cancellation as Triton's qa/L0_request_cancellation/scheduler_test.py drives it, with Triton's own
# client library (tritonclient.grpc) against an Ingot server whose ports are given: cancelling one queued request of
# a sequence (CallFuture.cancel) cancels every queued request of it, each answered StatusCode.CANCELLED and counted
# in nv_inference_request_failure{reason="CANCELED"}; a backlogged sequence goes as a whole; cancelling a stream
# (stop_stream(cancel_requests=True)) ends it with one CANCELLED. Prints "ALL PASSED" at the end.
# Usage: sequence_cancellation.py GRPC_PORT METRICS_PORT
import re
import sys
import time
import urllib.request

import numpy as np
import tritonclient.grpc as grpcclient
from tritonclient.utils import InferenceServerException

GRPC, METRICS = sys.argv[1], sys.argv[2]
client = grpcclient.InferenceServerClient("127.0.0.1:" + GRPC)


def inputs():
    tensor = grpcclient.InferInput("INPUT0", [1, 8], "FP32")
    tensor.set_data_from_numpy(np.ones([1, 8], dtype=np.float32))
    return [tensor]


def metric(pattern):
    text = urllib.request.urlopen("http://127.0.0.1:%s/metrics" % METRICS, timeout=10).read().decode()
    match = re.search(pattern, text)
    assert match, "no metric " + pattern
    return int(match.group(1))


def canceled(model):
    return metric(r'nv_inference_request_failure\{model="%s",reason="CANCELED",version="1"\} (\d+)' % model)


def wait_pending(model, count):
    deadline = time.time() + 30
    while metric(r'nv_inference_pending_request_count\{model="%s",version="1"\} (\d+)' % model) != count:
        assert time.time() < deadline, "never %d requests pending in %s" % (count, model)
        time.sleep(0.02)


def call(model, sequence_id, start=False, end=False):
    response = {"done": False, "result": None, "error": None}

    def callback(result, error):
        response.update(done=True, result=result, error=error)

    future = client.async_infer(model, inputs(), callback, sequence_id=sequence_id, sequence_start=start,
                                sequence_end=end)
    return future, response


def wait(response, seconds=30):
    deadline = time.time() + seconds
    while not response["done"]:
        assert time.time() < deadline, "no response within %d s" % seconds
        time.sleep(0.05)
    return response


def assert_cancelled(response):
    wait(response)
    assert response["result"] is None, "a cancelled request got a result"
    assert isinstance(response["error"], InferenceServerException), response
    assert response["error"].status() == "StatusCode.CANCELLED", response["error"]


def queued_requests_cancel_the_sequence(model, first_id):
    before = canceled(model)
    start, started = call(model, first_id, start=True)
    time.sleep(1)  # the START request executes (3 s)
    queued = [call(model, first_id) for _ in range(2)]
    wait_pending(model, 2)
    assert not queued[0][1]["done"] and not queued[1][1]["done"]
    queued[0][0].cancel()  # cancelling any queued request cancels the entire sequence
    assert_cancelled(queued[0][1])
    assert_cancelled(queued[1][1])
    assert wait(started)["error"] is None, started["error"]
    assert canceled(model) == before + 2, (canceled(model), before)
    _, closing = call(model, first_id + 1, start=True, end=True)
    assert wait(closing)["error"] is None, "the slot is free again: %s" % closing["error"]
    print("PASS queued requests cancel the sequence:", model)


def backlogged_requests_cancel_the_sequence():
    model = "sequence_direct"
    before = canceled(model)
    _, saturating = call(model, 21, start=True)
    time.sleep(1)
    backlog = []
    for index in range(2):
        # One after the other: two calls in flight at once may reach the server in either order.
        backlog.append(call(model, 22, start=(index == 0)))
        wait_pending(model, index + 1)
    backlog[0][0].cancel()
    assert_cancelled(backlog[0][1])
    assert_cancelled(backlog[1][1])
    assert wait(saturating)["error"] is None, saturating["error"]
    assert canceled(model) == before + 2, (canceled(model), before)
    _, end = call(model, 21, end=True)
    assert wait(end)["error"] is None, end["error"]
    print("PASS backlogged requests cancel the sequence")


def stream_cancellation():
    responses = []
    client.start_stream(lambda result, error: responses.append((result, error)))
    for sequence_id in (31, 32):
        for index in range(4):
            client.async_stream_infer("sequence_oldest", inputs(), sequence_id=sequence_id,
                                      sequence_start=(index == 0))
    time.sleep(1)
    client.stop_stream(cancel_requests=True)
    time.sleep(1)
    cancelled = [e for r, e in responses if e is not None and e.status() == "StatusCode.CANCELLED"]
    assert len(cancelled) == 1, responses
    print("PASS cancelling a stream cancels its requests")


for model in ("sequence_direct", "sequence_oldest"):
    # Warm both sides up, so that a START sent first surely arrives first.
    client.infer(model, inputs(), sequence_id=99, sequence_start=True, sequence_end=True)
for model, first in (("sequence_direct", 1), ("sequence_oldest", 11)):
    queued_requests_cancel_the_sequence(model, first)
backlogged_requests_cancel_the_sequence()
stream_cancellation()
print("ALL PASSED")
