"""The stub process of Ingot's Python backend: runs one instance of a Triton `model.py` for the server.

    python3 ingot_python_stub.py REGION MODE MODEL_FILE MODEL_NAME VERSION INSTANCE_NAME

REGION is the instance's shared-memory file (mode 0600, created by the server; python/README.md, "Protocol"): a
header, a ring to the stub, a ring to the server, and two data areas, one the server allocates (request inputs, BLS
outputs) and one this process allocates (response outputs, BLS inputs). The rings are Agrona one-to-one rings, read
and written with the ring classes of `ingot_ipc.py` (Ingot's shared-memory client), which state the memory-ordering
argument; `ingot_stub_link.py` frames the records and lets the model's threads share the link. MODE is
MODEL_INSTANCE_STUB (serve the model) or AUTOCOMPLETE_STUB (run `auto_complete_config` once and exit), as Triton names
its stub kinds.

The server rings this process's doorbell after every record; this process rings the server's after every record.
A thread increments the heartbeat every 100 ms and ends the process when the server process is gone.
"""

import base64
import gc
import importlib.util
import json
import os
import struct
import sys
import threading
import time
import traceback
import types
import weakref

import numpy as np

import ingot_ipc
import ingot_stub_link as link
import triton_python_backend_utils as pb_utils


def describe_exception(error):
    """An exception as Triton's stub reports it: 'Type: message', then the frames innermost first."""
    lines = ["%s: %s" % (type(error).__name__, error)]
    # The model's frames only: the stub's and importlib's own say nothing to its author.
    own = (__file__, link.__file__, pb_utils.__file__)
    frames = [frame for frame in traceback.extract_tb(error.__traceback__)
              if frame.filename not in own and not frame.filename.startswith("<frozen")]
    if frames:
        lines.append("")
        lines.append("At:")
        for frame in reversed(frames[-20:]):
            lines.append("  %s(%d): %s" % (frame.filename, frame.lineno, frame.name))
    return "\n".join(lines)


@types.coroutine
def _yield_to_the_loop():
    """What asyncio.sleep(0) does: lets the event loop run other coroutines once."""
    yield


def _close_senders(requests):
    """Closes the requests' senders (a function of its own, so that no loop variable of the caller's keeps the last
    request, and with it the batch's input block, alive)."""
    for request in requests:
        request._state.closed = True


class _Pending:
    """What finalizers queue for the server (they may run on any thread, inside any call, so they only append):
    BLS responses and input batches the model dropped, metric objects it deleted, senders it dropped unclosed."""

    def __init__(self):
        self.released_bls = []
        self.released_batches = []
        self.calls = []
        self.dropped = []

    @staticmethod
    def take(items):
        taken = items[:]
        del items[:len(taken)]  # in place: finalizers hold the list's append
        return taken


class _BlsCall:
    """A BLS request in flight: what must stay alive until its final response (its inputs' memory), and where its
    responses go."""

    __slots__ = ("allocations", "keep", "future", "loop", "stream")

    def __init__(self, allocations, keep, future=None, loop=None, stream=False):
        self.allocations = allocations
        self.keep = keep
        self.future = future
        self.loop = loop
        self.stream = stream


class Stub:
    """Serves one model instance: INIT, then EXECUTEs with the calls they make, then FINALIZE."""

    def __init__(self, region, model_file, model_name, version, instance_name):
        self.region = region
        self.model_file = model_file
        self.model_name = model_name
        self.version = version
        self.instance_name = instance_name
        self.model = None
        self.loop = None
        self.background_loop = None
        self.decoupled = False
        self.initialized = False
        self.finalizing = False
        self.output_names = []
        self.lock = threading.Lock()   # ids and the BLS table
        self.next_id = 1
        self.bls = {}                  # BLS id -> _BlsCall
        self.abandoned = set()         # ids of decoupled BLS streams whose iterator the model dropped
        self.result_allocations = []   # the last EXECUTE_RESULT's, freed when the next batch arrives
        self.pending = _Pending()
        self.blocks = {}               # batch id -> weak reference to its input block, until the model drops it
        self.names_by_mask = {}        # requested-output bits -> their names
        self.used_async = False
        self.inbox = link.Inbox(region, self.dispatch, self.flush)
        pb_utils._runtime = self

    # ----------------------------------------------------------------------------------------- life cycle

    def import_model(self):
        """Imports model.py as Triton does (the version directory and the model directory on sys.path, the module
        named '<version>.model') and returns its TritonPythonModel class."""
        version_dir = os.path.dirname(os.path.abspath(self.model_file))
        model_dir = os.path.dirname(version_dir)
        for directory in (version_dir, model_dir):
            if directory not in sys.path:
                sys.path.append(directory)
        stem = os.path.splitext(os.path.basename(self.model_file))[0]
        if not self.model_file.endswith(".py"):
            raise pb_utils.TritonModelException('Model name must end with \'.py\'. Model name is "%s".'
                                                % os.path.basename(self.model_file))
        spec = importlib.util.spec_from_file_location("%s.%s" % (os.path.basename(version_dir), stem),
                                                      self.model_file)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        model_class = getattr(module, "TritonPythonModel", None)
        if model_class is None:
            raise pb_utils.TritonModelException("Python model file %s defines no class TritonPythonModel"
                                                % self.model_file)
        return model_class

    def initialize(self, args):
        config = json.loads(args.get("model_config", "{}"))
        self.decoupled = pb_utils.using_decoupled_model_transaction_policy(config)
        self.output_names = [output["name"] for output in config.get("output", ())]
        model_class = self.import_model()
        self.model = model_class()
        if not hasattr(self.model, "execute"):
            raise pb_utils.TritonModelException("Python model %s does not implement `execute` method."
                                                % self.model_file)
        if hasattr(self.model, "initialize"):
            self.run(self.model.initialize(args))
        self.initialized = True

    def auto_complete(self, config_json):
        model_class = self.import_model()
        config = pb_utils.ModelConfig(config_json)
        if hasattr(model_class, "auto_complete_config"):
            config = model_class.auto_complete_config(config)
            if not isinstance(config, pb_utils.ModelConfig):
                raise pb_utils.TritonModelException("auto_complete_config function in model '%s' must return a "
                                                    "valid pb.ModelConfig object." % self.model_name)
        return json.dumps(config.as_dict())

    def finalize(self):
        self.finalizing = True
        if self.model is not None and hasattr(self.model, "finalize"):
            self.run(self.model.finalize())

    def run(self, result):
        """The result of a model method, awaited when the method is `async def` (asyncio is imported only then:
        it is the costliest import of a stub's start)."""
        if isinstance(result, types.CoroutineType):
            if self.loop is None:
                import asyncio
                self.loop = asyncio.new_event_loop()
                asyncio.set_event_loop(self.loop)
            return self.loop.run_until_complete(result)
        return result

    # --------------------------------------------------------------------------------------------- execute

    def parse_batch(self, body):
        """The EXECUTE body: the requests, their inputs views of the batch's one block of the input area, whose release
        the server learns of once the model holds no array over it."""
        region = self.region
        request_count, _, flags, batch_id, block_offset, block_length = link.EXECUTE_HEADER.unpack_from(body, 0)
        offset = link.EXECUTE_HEADER.size
        region.check_span(block_offset, block_length, "a batch's inputs")
        block = np.frombuffer(region.mm, np.uint8, block_length, block_offset)
        requests = []
        names_by_mask = self.names_by_mask
        for _ in range(request_count):
            handle, correlation, timeout, mask, request_flags, input_count, id_length, parameters_length, \
                key_length = link.REQUEST_HEADER.unpack_from(body, offset)
            offset += link.REQUEST_HEADER.size
            request_id = bytes(body[offset:offset + id_length]).decode("utf-8", "replace") if id_length else ""
            offset += link.align8(id_length)
            parameters = bytes(body[offset:offset + parameters_length]).decode("utf-8", "replace") \
                if parameters_length != 2 else "{}"
            offset += link.align8(parameters_length)
            if request_flags & link.CORRELATION_STRING:
                correlation = bytes(body[offset:offset + key_length]).decode("utf-8", "replace")
            offset += link.align8(key_length)
            inputs, offset = link.read_tensors(region, body, offset, input_count, block, block_offset)
            names = names_by_mask.get(mask)
            if names is None:
                names = [name for index, name in enumerate(self.output_names) if mask & (1 << index)]
                names_by_mask[mask] = names
            request = pb_utils.InferenceRequest._of(inputs, names, self.model_name, handle, request_id, correlation,
                                                    request_flags & (link.SEQUENCE_START | link.SEQUENCE_END),
                                                    timeout, parameters, self.decoupled)
            if self.decoupled:
                weakref.finalize(request._state, self._sender_collected, handle, request._state.box)
            requests.append(request)
        return requests, batch_id, block

    def release_block(self, batch_id, block, released):
        """After a batch: its input block goes back with the result when the model holds no array over it any more
        (the usual case, found without weakref machinery), else when the last such array dies."""
        if sys.getrefcount(block) <= 3:  # this method's parameter, the caller's variable, getrefcount's argument
            released.append(batch_id)
        else:
            # A weak reference, cheaper than weakref.finalize, kept until its callback runs.
            self.blocks[batch_id] = weakref.ref(block, lambda _, batch=batch_id: self._block_released(batch))

    def _block_released(self, batch_id):
        self.blocks.pop(batch_id, None)
        self.pending.released_batches.append(batch_id)

    def _sender_collected(self, handle, box):
        if not box[0]:
            self.pending.dropped.append(handle)

    def execute(self, body):
        self.region.free(self.result_allocations)  # the server has copied the last result by now
        self.result_allocations = []
        self.region.batch_thread = threading.get_ident()
        try:
            self.execute_batch(body)
        finally:
            self.region.batch_thread = None

    def execute_batch(self, body):
        requests, batch_id, block = self.parse_batch(body)
        returned = responses = None
        try:
            returned = self.model.execute(requests)
            if self.decoupled:
                if isinstance(returned, types.CoroutineType):
                    # As Triton: a decoupled model's async execute runs on; this batch is done for the server.
                    self.run_in_background(returned, requests)
                    returned = None
                elif returned is not None:
                    raise pb_utils.TritonModelException(
                        "Python model '%s' is using the decoupled mode and the execute function must return None."
                        % self.model_name)
                result = (link.OK, 0, b"", [])
            else:
                returned = self.run(returned)
                responses = self.check_returned(requests, returned)
                result = (link.OK, len(responses), b"", self.encode_responses(requests, responses))
        except Exception as error:  # everything the model raises fails this batch, never the process
            message = "Failed to process the request(s) for model '%s', message: %s" % (
                self.model_name, describe_exception(error))
            result = (link.S_INTERNAL, 0, link.text(message), [])
            _close_senders(requests)  # the server ends every open request of the batch with this error
        else:
            if not self.decoupled:
                _close_senders(requests)  # answered by this result: a later send() is refused
        finally:
            if self.used_async:
                # asyncio's futures and tasks form reference cycles: collect them now, so that the BLS responses
                # they held are released with this result rather than whenever the cyclic collector runs.
                self.used_async = False
                gc.collect()
        # The result is encoded (its tensors stay where they are until the server has copied them, which it does
        # before it frees anything this result releases): what the model returned may go now.
        del requests, returned, responses
        self.flush(ring=False, batches=False)
        # The input blocks the model has dropped (this batch's, usually) travel with the result.
        status, count, message, parts = result
        released = _Pending.take(self.pending.released_batches) if self.pending.released_batches else []
        self.release_block(batch_id, block, released)
        del block
        ids = link.IDS[len(released)] if len(released) < len(link.IDS) else struct.Struct("<%dQ" % len(released))
        self.region.send(link.EXECUTE_RESULT, b"".join([
            link.RESULT_HEADER.pack(status, count, len(message), len(released)), ids.pack(*released),
            link.padded(message) if message else b""] + parts), self.result_allocations)

    def run_in_background(self, coroutine, requests):
        import asyncio
        if self.background_loop is None:
            self.background_loop = asyncio.new_event_loop()
            threading.Thread(target=self.background_loop.run_forever, name="ingot-decoupled-execute",
                             daemon=True).start()
        future = asyncio.run_coroutine_threadsafe(coroutine, self.background_loop)

        def finished(done):
            error = done.exception()
            if error is not None:
                message = "Failed to process the request(s) for model '%s', message: %s" % (
                    self.model_name, describe_exception(error))
                pb_utils.Logger.log_error(message)
                for request in requests:
                    if not request._state.closed:
                        try:
                            request.get_response_sender().send(
                                pb_utils.InferenceResponse(error=pb_utils.TritonError(message)),
                                flags=pb_utils.TRITONSERVER_RESPONSE_COMPLETE_FINAL)
                        except pb_utils.TritonModelException:
                            pass
        future.add_done_callback(finished)

    def check_returned(self, requests, returned):
        """Triton's checks of what execute() returned; responses sent through a response sender count."""
        if returned is None:
            responses = []
            for index, request in enumerate(requests):
                if request._state.response is None:
                    raise pb_utils.TritonModelException(
                        "execute() returned None, but request %d of %d got no response through its response sender"
                        % (index, len(requests)))
                responses.append(request._state.response)
            return responses
        if not isinstance(returned, list):
            raise pb_utils.TritonModelException("Expected a list in the execute return, found type '%s'."
                                                % type(returned))
        if len(returned) != len(requests):
            raise pb_utils.TritonModelException(
                "Number of InferenceResponse objects do not match the number of InferenceRequest objects. "
                "InferenceRequest(s) size is:%d, and InferenceResponse(s) size is:%d\n"
                % (len(requests), len(returned)))
        for response in returned:
            if not isinstance(response, pb_utils.InferenceResponse):
                raise pb_utils.TritonModelException("Expected an 'InferenceResponse' object in the execute function "
                                                    "return list, found type '%s'." % type(response))
        return returned

    def encode_responses(self, requests, responses):
        """The responses' part of an EXECUTE_RESULT, as a list of byte strings."""
        parts = []
        for request, response in zip(requests, responses):
            error = response._error
            if error is not None:
                data = link.text(error.message())
                parts.append(link.RESPONSE_HEADER.pack(link.STATUS_OF_CODE.get(error.code(), link.S_INTERNAL), 0, 0,
                                                       len(data), 0))
                parts.append(link.padded(data))
                continue
            outputs = [tensor for tensor in response._outputs if tensor._name in request._requested]
            parts.append(link.RESPONSE_HEADER.pack(link.OK, len(outputs), 0, 0, 0))
            parts.extend(link.place_tensors(self.region, outputs, "output", self.result_allocations))
        return parts

    # ---------------------------------------------------------------------------------------- sending

    def new_id(self):
        with self.lock:
            value = self.next_id
            self.next_id += 1
            return value

    def send_response(self, state, response, flags):
        """A decoupled model's response (or final flag) to the server; waits for the server to have sent it on, and
        raises its error, as Triton's `InferenceResponseSender.send` does."""
        allocations = []
        call_id = self.new_id()
        final = flags == pb_utils.TRITONSERVER_RESPONSE_COMPLETE_FINAL
        send_flags = link.SEND_FINAL if final else 0
        status, message, entries, count = link.OK, b"", [], 0
        if response is not None:
            send_flags |= link.SEND_HAS_RESPONSE
            if response._error is not None:
                status = link.STATUS_OF_CODE.get(response._error.code(), link.S_INTERNAL)
                message = link.text(response._error.message())
            else:
                outputs = [tensor for tensor in response._outputs if tensor._name in state.requested]
                entries = link.place_tensors(self.region, outputs, "output", allocations)
                count = len(outputs)
        body = b"".join([link.SEND_HEADER.pack(call_id, state.handle, send_flags, status, count, 0, len(message)),
                         link.padded(message)] + entries)
        try:
            self.flush(ring=False)
            self.region.send(link.RESPONSE, body, allocations)
            reply = self.wait_reply(call_id)
        finally:
            self.region.free(allocations)
        if reply[0] != link.OK:
            raise pb_utils.TritonModelException(reply[1])

    def call(self, payload):
        """A CALL to the server (metrics, model control, queries), answered when the server has done it: (status,
        message, number, handle)."""
        call_id = self.new_id()
        data = json.dumps(payload).encode("utf-8")
        allocations = []
        try:
            self.flush(ring=False)
            self.region.send(link.CALL, link.CALL_HEADER.pack(call_id, len(data), 0) + link.padded(data),
                             allocations)
            return self.wait_reply(call_id)
        finally:
            self.region.free(allocations)

    def call_later(self, payload):
        """A CALL from a finalizer: queued, sent by the next send."""
        self.pending.calls.append(payload)

    def wait_reply(self, call_id):
        return self.inbox.wait(("reply", call_id))

    def is_cancelled(self, handle):
        status, message, number, _ = self.call({"op": "is_cancelled", "handle": handle})
        return status == link.OK and number != 0

    def flush(self, ring=True, batches=True):
        """Sends what finalizers queued: released BLS responses and input batches (unless `batches` is False: an
        EXECUTE_RESULT carries them), deleted metric objects, dropped senders. With `ring` False, a release does not
        ring the server: the record that follows it rings."""
        pending = self.pending
        released_bls = _Pending.take(pending.released_bls) if pending.released_bls else []
        released_batches = _Pending.take(pending.released_batches) if batches and pending.released_batches else []
        if released_bls or released_batches:
            self.region.send(link.RELEASE, struct.pack("<II%dQ%dQ" % (len(released_bls), len(released_batches)),
                                                       len(released_bls), len(released_batches),
                                                       *(released_bls + released_batches)), ring=ring)
        for payload in _Pending.take(pending.calls) if pending.calls else ():
            data = json.dumps(payload).encode("utf-8")
            self.region.send(link.CALL, link.CALL_HEADER.pack(0, len(data), 0) + link.padded(data))
        for handle in _Pending.take(pending.dropped) if pending.dropped else ():
            self.region.send(link.RESPONSE, link.SEND_HEADER.pack(0, handle, link.SEND_FINAL | link.SEND_DROPPED, 0,
                                                                  0, 0, 0))

    # ------------------------------------------------------------------------------------------------- BLS

    def check_bls_allowed(self):
        if not self.initialized or self.finalizing:
            raise pb_utils.TritonModelException("BLS is only supported during the 'execute' function.")

    def bls_send(self, request, call):
        """Writes a BLS request; returns its id."""
        self.check_bls_allowed()
        entries = link.place_tensors(self.region, request._inputs, "BLS input", call.allocations)
        bls_id = self.new_id()
        with self.lock:
            self.bls[bls_id] = call
        model = link.text(request._model_name, 1 << 16)
        request_id = link.text(request._request_id, 1 << 16)
        parameters = request._parameters.encode("utf-8")
        correlation = request._correlation_id
        flags = request._flags & (link.SEQUENCE_START | link.SEQUENCE_END)
        key = b""
        if isinstance(correlation, str):
            flags |= link.CORRELATION_STRING
            key = link.text(correlation, 1 << 15)
            correlation = 0
        if call.stream:
            flags |= link.BLS_DECOUPLED
        names = [link.name_entry(name) for name in request._requested]
        body = b"".join([link.BLS_REQUEST_HEADER.pack(bls_id, request._model_version, request._timeout,
                                                      int(correlation) & 0xFFFFFFFFFFFFFFFF, flags, len(model),
                                                      len(request_id), len(request._inputs), len(names),
                                                      len(parameters), len(key), 0, 0),
                         link.padded(model), link.padded(request_id), link.padded(parameters), link.padded(key)]
                        + entries + names)
        self.flush(ring=False)
        self.region.send(link.BLS_REQUEST, body, call.allocations)
        return bls_id

    def bls_exec(self, request, decoupled):
        call = _BlsCall([], request._inputs, stream=decoupled)
        try:
            bls_id = self.bls_send(request, call)
        except BaseException:
            self.region.free(call.allocations)
            raise
        if decoupled:
            return pb_utils.ResponseIterator(self, bls_id)
        return self.next_bls_response(bls_id)

    def next_bls_response(self, bls_id):
        """The next response of a BLS request (its last one frees the request's inputs)."""
        response, final = self.inbox.wait(("bls", bls_id))
        return response

    def bls_async_exec(self, request, decoupled):
        import asyncio
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        call = _BlsCall([], request._inputs, future=None if decoupled else future, loop=loop, stream=decoupled)
        try:
            bls_id = self.bls_send(request, call)
        except BaseException:
            self.region.free(call.allocations)
            raise
        self.used_async = True
        if decoupled:
            future.set_result(pb_utils.ResponseIterator(self, bls_id))
        else:
            loop.create_task(self.pump_async(future))
        return future

    async def pump_async(self, future):
        """Reads the server's records while an async_exec's answer is outstanding and no other thread reads,
        letting other coroutines run between polls."""
        idle = 0
        while not future.done():
            if self.inbox.poll(0 if idle < link.SPINS else 0.001):
                idle = 0
            else:
                idle += 1
            await _yield_to_the_loop()

    def abandon_stream(self, bls_id, state):
        """A decoupled BLS request whose iterator the model dropped before its final response: its remaining
        responses are dropped as they come (a finalizer: only records it)."""
        if not state[0]:
            self.abandoned.add(bls_id)

    # ------------------------------------------------------------------------------------------ dispatching

    def dispatch(self, record_type, body):
        """Files a record for its waiter: (key, item), or None when handled here."""
        if record_type == link.REPLY:
            call_id, status, message_length, number, handle = link.REPLY_HEADER.unpack_from(body, 0)
            message = bytes(body[32:32 + message_length]).decode("utf-8", "replace")
            return ("reply", call_id), (status, message, number, handle)
        if record_type == link.BLS_RESPONSE:
            return self.dispatch_bls(body)
        if record_type in (link.INIT, link.EXECUTE, link.FINALIZE):
            return "main", (record_type, body)
        raise link.StubError("unexpected record type %d" % record_type)

    def dispatch_bls(self, body):
        bls_id, release_key, status, message_length, output_count, flags, _ = \
            link.BLS_RESPONSE_HEADER.unpack_from(body, 0)
        offset = link.BLS_RESPONSE_HEADER.size
        final = bool(flags & link.BLS_FINAL)
        if status != link.OK:
            message = bytes(body[offset:offset + message_length]).decode("utf-8", "replace")
            response = pb_utils.InferenceResponse(
                error=pb_utils.TritonError(message, link.CODE_OF_STATUS.get(status, pb_utils.TritonError.INTERNAL)))
        else:
            offset += link.align8(message_length)
            span = link.span_of(body, offset, output_count)
            block = None
            if span is not None:
                self.region.check_span(span[0], span[1] - span[0], "a BLS response")
                block = np.frombuffer(self.region.mm, np.uint8, span[1] - span[0], span[0])
            outputs, _ = link.read_tensors(self.region, body, offset, output_count, block,
                                           span[0] if span else 0)
            if release_key:
                if block is None:
                    self.pending.released_bls.append(release_key)
                else:
                    weakref.finalize(block, self.pending.released_bls.append, release_key)
            response = pb_utils.InferenceResponse(output_tensors=outputs)
        with self.lock:
            call = self.bls.get(bls_id)
            if final:
                self.bls.pop(bls_id, None)
        if call is None:
            return None  # the answer to an async_exec dropped with an earlier execute: dropping it releases it
        if final:
            self.region.free(call.allocations)
            call.keep = None
        if bls_id in self.abandoned:
            if final:
                self.abandoned.discard(bls_id)
                self.inbox.drop(("bls", bls_id))
            return None
        if call.future is not None:
            future = call.future
            if threading.current_thread() is threading.main_thread() and call.loop is self.loop:
                if not future.cancelled():
                    future.set_result(response)
            else:
                call.loop.call_soon_threadsafe(lambda: future.cancelled() or future.set_result(response))
            return None
        return ("bls", bls_id), (response, final)

    # ---------------------------------------------------------------------------------------------- serving

    def serve(self, mode):
        region = self.region
        record_type, body = self.inbox.wait("main")
        if record_type != link.INIT:
            raise link.StubError("the first record must be INIT, got type %d" % record_type)
        try:
            args = json.loads(bytes(body).decode("utf-8"))
            if mode == "AUTOCOMPLETE_STUB":
                result = self.auto_complete(args["model_config"]).encode("utf-8")
            else:
                self.initialize(args)
                result = b""
            status = link.OK
        except Exception as error:
            status = link.S_INTERNAL
            result = link.text(describe_exception(error))
        self.flush(ring=False)
        region.send(link.INIT_RESULT, link.STATUS_TEXT.pack(status, len(result)) + link.padded(result))
        if status != link.OK or mode == "AUTOCOMPLETE_STUB":
            return
        while True:
            record_type, body = self.inbox.wait("main")
            if record_type == link.EXECUTE:
                self.execute(body)
            elif record_type == link.FINALIZE:
                self.region.free(self.result_allocations)
                self.result_allocations = []
                try:
                    self.finalize()
                    data, status = b"", link.OK
                except Exception as error:
                    data, status = link.text(describe_exception(error)), link.S_INTERNAL
                self.flush(ring=False)
                region.send(link.FINALIZE_RESULT, link.STATUS_TEXT.pack(status, len(data)) + link.padded(data))
                return
            else:
                raise link.StubError("unexpected record type %d" % record_type)


def heartbeat(region, parent):
    """Increments the heartbeat every 100 ms; ends the process when the server process is gone."""
    count = 0
    while True:
        time.sleep(0.1)
        count += 1
        region.memory.store64(link._H_STUB_HEARTBEAT, count)
        if os.getppid() != parent:
            os._exit(3)


def main(argv):
    if len(argv) != 7:
        sys.stderr.write("usage: ingot_python_stub.py REGION MODE MODEL_FILE MODEL_NAME VERSION INSTANCE_NAME\n")
        return 2
    region_path, mode, model_file, model_name, version, instance_name = argv[1:]
    # Triton's stub embeds Python with no arguments; a model that parses sys.argv (unittest.main does) sees none.
    sys.argv[:] = [""]
    ingot_ipc._check_platform()
    region = link.Region(region_path)
    region.memory.store64(link._H_STUB_PID, os.getpid())
    threading.Thread(target=heartbeat, args=(region, os.getppid()), name="ingot-heartbeat", daemon=True).start()
    python = link.text("%s, numpy %s" % (sys.version.split()[0], np.__version__))
    region.send(link.HELLO, struct.pack("<q", os.getpid()) + link.U32.pack(len(python)) + b"\0\0\0\0"
                + link.padded(python))
    Stub(region, model_file, model_name, version, instance_name).serve(mode)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
