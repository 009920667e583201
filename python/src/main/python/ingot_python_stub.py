"""The stub process of Ingot's Python backend: runs one instance of a Triton `model.py` for the server.

    python3 ingot_python_stub.py REGION MODE MODEL_FILE MODEL_NAME VERSION INSTANCE_NAME

REGION is the instance's shared-memory file (mode 0600, created by the server; python/README.md, "Protocol"): a
header, a ring to the stub, a ring to the server, and two data areas, one the server allocates (request inputs, BLS
outputs) and one this process allocates (response outputs, BLS inputs). The rings are Agrona one-to-one rings, read
and written with the ring classes of `ingot_ipc.py` (Ingot's shared-memory client), which state the memory-ordering
argument. MODE is MODEL_INSTANCE_STUB (serve the model) or AUTOCOMPLETE_STUB (run `auto_complete_config` once and
exit), as Triton names its stub kinds.

The server rings this process's doorbell after every record; this process rings the server's after every record.
A thread increments the heartbeat every 100 ms and ends the process when the server process is gone.
"""

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
import triton_python_backend_utils as pb_utils

# ------------------------------------------------------------------------------------- layout (python/README.md)

MAGIC = 0x425950544F474E49  # the ASCII bytes "INGOTPYB" as a little-endian int64
VERSION = 1
_H_VERSION = 8
_H_FILE_LENGTH = 16
_H_TO_STUB_CAPACITY = 24
_H_TO_PARENT_CAPACITY = 28
_H_TO_STUB_OFFSET = 32
_H_TO_PARENT_OFFSET = 40
_H_PARENT_AREA_OFFSET = 48
_H_PARENT_AREA_LENGTH = 56
_H_STUB_AREA_OFFSET = 64
_H_STUB_AREA_LENGTH = 72
_H_PARENT_PID = 80
_H_STUB_PID = 128
_H_STUB_HEARTBEAT = 136
_H_STUB_DOORBELL = 256
_H_PARENT_DOORBELL = 384

# Record types. A type with INDIRECT set carries (offset, length) of its body in a data area instead of the body.
INDIRECT = 0x10000
INIT, EXECUTE, BLS_RESPONSE, FINALIZE = 1, 2, 3, 4
HELLO, INIT_RESULT, EXECUTE_RESULT, BLS_REQUEST, BLS_RELEASE, FINALIZE_RESULT = 101, 102, 103, 104, 105, 106

# Status codes: Ingot's IPC status numbers (0 OK, then Triton's categories in the order of Ingot's ErrorCode).
OK, S_INVALID_ARG, S_NOT_FOUND, S_UNAVAILABLE, S_INTERNAL, S_CANCELLED, S_UNSUPPORTED, S_ALREADY_EXISTS, S_UNKNOWN = \
    range(9)
# pb_utils.TritonError code -> status, and back.
_STATUS_OF_CODE = {pb_utils.TritonError.UNKNOWN: S_UNKNOWN, pb_utils.TritonError.INTERNAL: S_INTERNAL,
                   pb_utils.TritonError.NOT_FOUND: S_NOT_FOUND, pb_utils.TritonError.INVALID_ARG: S_INVALID_ARG,
                   pb_utils.TritonError.UNAVAILABLE: S_UNAVAILABLE, pb_utils.TritonError.UNSUPPORTED: S_UNSUPPORTED,
                   pb_utils.TritonError.ALREADY_EXISTS: S_ALREADY_EXISTS,
                   pb_utils.TritonError.CANCELLED: S_CANCELLED}
_CODE_OF_STATUS = {status: code for code, status in _STATUS_OF_CODE.items()}

_U32 = struct.Struct("<I")
_I32 = struct.Struct("<i")
_INDIRECT_BODY = struct.Struct("<qq")
_TENSOR_ENTRY = struct.Struct("<HBBiqq")        # name length, datatype, rank, reserved, offset, length; then dims, name
_NAME_HEADER = struct.Struct("<H6x")            # an output name: length, then the name padded to 8
_EXECUTE_HEADER = struct.Struct("<IHH")         # request count, output-name count, flags
_REQUEST_HEADER = struct.Struct("<HHI")         # input count, reserved, reserved
_RESULT_HEADER = struct.Struct("<iIII")         # status, response count, message length, reserved
_RESPONSE_HEADER = struct.Struct("<iHHII")      # status, output count, reserved, message length, reserved
_BLS_REQUEST_HEADER = struct.Struct("<QqqHHHH")  # id, version, timeout us, model/id/input/output counts
_BLS_RESPONSE_HEADER = struct.Struct("<QiHH")   # id, status, message length, output count
_STATUS_TEXT = struct.Struct("<iI")             # status, text length; then the text
_DIMS = [struct.Struct("<%dq" % rank) for rank in range(9)]
_MAX_MESSAGE = 4096                             # bytes of an error message written into a frame
_SPINS = 200                                    # empty polls before sleeping on the doorbell

_BYTES = 13


def _align8(value):
    return (value + 7) & ~7


def _name_entry(name):
    data = name.encode("utf-8")
    return _NAME_HEADER.pack(len(data)) + data + b"\0" * (_align8(len(data)) - len(data))


def _text(value, limit=_MAX_MESSAGE):
    data = value.encode("utf-8", "replace")
    if len(data) > limit:
        data = data[:limit - 3].decode("utf-8", "ignore").encode("utf-8") + b"..."
    return data


def _padded(data):
    return data + b"\0" * (_align8(len(data)) - len(data))


def describe_exception(error):
    """An exception as Triton's stub reports it: 'Type: message', then the frames innermost first."""
    lines = ["%s: %s" % (type(error).__name__, error)]
    # The model's frames only: the stub's and importlib's own say nothing to its author.
    frames = [frame for frame in traceback.extract_tb(error.__traceback__)
              if frame.filename != __file__ and not frame.filename.startswith("<frozen")]
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


class StubError(Exception):
    """A failure of the protocol or of shared memory, reported to the server as an error."""


# --------------------------------------------------------------------------------------------------- the region

class Region:
    """The instance's shared-memory file, mapped: header fields, the two rings, the two data areas."""

    def __init__(self, path):
        fd = os.open(path, os.O_RDWR)
        try:
            size = os.fstat(fd).st_size
            import mmap
            self.mm = mmap.mmap(fd, size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
        finally:
            os.close(fd)
        m = self.memory = ingot_ipc._Memory(self.mm)
        if m.load64(0) != MAGIC or m.load32(_H_VERSION) != VERSION or m.load64(_H_FILE_LENGTH) != size:
            raise StubError("%s is not an Ingot Python-backend region of layout version %d" % (path, VERSION))
        self.size = size
        self.base_address = m.base_address
        self.to_stub = ingot_ipc._RingReader(m, m.load64(_H_TO_STUB_OFFSET), m.load32(_H_TO_STUB_CAPACITY))
        self.to_parent = ingot_ipc._RingWriter(m, m.load64(_H_TO_PARENT_OFFSET), m.load32(_H_TO_PARENT_CAPACITY))
        self.parent_area = (m.load64(_H_PARENT_AREA_OFFSET), m.load64(_H_PARENT_AREA_LENGTH))
        self.stub_area = (m.load64(_H_STUB_AREA_OFFSET), m.load64(_H_STUB_AREA_LENGTH))
        self.allocator = ingot_ipc._Allocator(*self.stub_area)
        self.futex = ingot_ipc._Futex(m)
        self.parent_pid = m.load64(_H_PARENT_PID)

    def offset_of(self, array):
        """The file offset of a C-contiguous array that lies in this mapping, else None."""
        if not array.flags.c_contiguous:
            return None
        address = array.__array_interface__["data"][0] - self.base_address
        if 0 <= address and address + array.nbytes <= self.size:
            return address
        return None

    def check_span(self, offset, length, what):
        if offset < 0 or length < 0 or offset + length > self.size or offset < self.parent_area[0]:
            raise StubError("%s at offset %d, length %d lies outside the data areas" % (what, offset, length))

    def allocate(self, nbytes, what):
        offset = self.allocator.allocate(nbytes)
        if offset is None:
            raise pb_utils.TritonModelException(
                "%s needs %d bytes of shared memory, but the instance's stub area has %d of %d free; raise the "
                "model's parameter INGOT_SHM_BYTES" % (what, nbytes, self.allocator.free_bytes(), self.stub_area[1]))
        return offset

    def ring_parent(self):
        self.futex.bump_and_wake(_H_PARENT_DOORBELL)

    def send(self, record_type, body):
        """Writes one record to the server (through the stub area when it is too long for the ring), waiting while
        the ring is full."""
        if len(body) > self.to_parent.max_message:
            offset = self.allocate(len(body), "a frame of %d bytes" % len(body))
            self.mm[offset:offset + len(body)] = body
            body = _INDIRECT_BODY.pack(offset, len(body))
            record_type |= INDIRECT
        while not self.to_parent.write(record_type, body):
            self.ring_parent()
            time.sleep(50e-6)
        self.ring_parent()

    def next_record(self, timeout=None):
        """Waits for the next record from the server: (type, file offset of its body, length), the body moved out
        of the ring for INDIRECT records. Returns None when `timeout` seconds pass first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        spins = 0
        found = []
        while True:
            if self.to_stub.read(lambda t, o, n: found.append((t, o, n)), 1):
                record_type, offset, length = found[0]
                if record_type & INDIRECT:
                    offset, length = _INDIRECT_BODY.unpack_from(self.mm, offset)
                    self.check_span(offset, length, "an indirect frame")
                    return record_type & ~INDIRECT, offset, length
                return record_type, offset, length
            spins += 1
            if spins < _SPINS:
                continue
            seen = self.memory.load32(_H_STUB_DOORBELL)
            if self.to_stub.has_record():
                continue
            wait = 0.1
            if deadline is not None:
                wait = deadline - time.monotonic()
                if wait <= 0:
                    return None
                wait = min(wait, 0.1)
            self.futex.wait(_H_STUB_DOORBELL, seen, wait)


# ---------------------------------------------------------------------------------------------------- tensors

def read_tensors(region, offset, count, block=None):
    """Parses `count` tensor entries at `offset`: a list of pb_utils.Tensor over shared memory, and the offset after
    the entries. With `block` (a uint8 array over part of the region), views are made of it, so that the block lives
    as long as any of them."""
    mm = region.mm
    tensors = []
    for _ in range(count):
        name_length, code, rank, _, data_offset, length = _TENSOR_ENTRY.unpack_from(mm, offset)
        dims = _DIMS[rank].unpack_from(mm, offset + 24)
        name_at = offset + 24 + 8 * rank
        name = mm[name_at:name_at + name_length].decode("utf-8")
        offset = name_at + _align8(name_length)
        region.check_span(data_offset, length, "tensor '%s'" % name)
        if code == _BYTES:
            array = pb_utils.deserialize_bytes_tensor(mm[data_offset:data_offset + length]).reshape(dims)
        else:
            dtype = pb_utils._NUMPY_BY_CODE[code]
            if block is not None:
                start = data_offset - block_start(region, block)
                array = block[start:start + length].view(dtype).reshape(dims)
            else:
                array = np.ndarray(dims, dtype, mm, data_offset)
        tensors.append(pb_utils.Tensor._of(name, array, code))
    return tensors, offset


def block_start(region, block):
    return block.__array_interface__["data"][0] - region.base_address


def place_tensors(region, tensors, what, allocations=None):
    """Makes sure every tensor lies in shared memory (copying it into the stub area once if not) and returns the
    packed tensor entries."""
    parts = []
    mm = region.mm
    for tensor in tensors:
        array = tensor._array
        code = tensor._code
        if code == _BYTES:
            data = pb_utils.serialize_byte_tensor(array)
            data = b"" if data == () else data
            length = len(data)
            offset = region.allocate(length, "%s '%s'" % (what, tensor._name))
            mm[offset:offset + length] = data
            if allocations is not None:
                allocations.append(offset)
        else:
            length = array.nbytes
            offset = region.offset_of(array)
            if offset is None:
                offset = region.allocate(length, "%s '%s'" % (what, tensor._name))
                mm[offset:offset + length] = memoryview(array).cast("B")  # one copy; the array is C-contiguous
                if allocations is not None:
                    allocations.append(offset)
        name = tensor._name.encode("utf-8")
        rank = array.ndim
        if rank > 8:
            raise pb_utils.TritonModelException("%s '%s' has rank %d; Ingot carries tensors of rank 8 at most"
                                                % (what, tensor._name, rank))
        parts.append(_TENSOR_ENTRY.pack(len(name), code, rank, 0, offset, length))
        parts.append(_DIMS[rank].pack(*array.shape))
        parts.append(_padded(name))
    return parts


# ---------------------------------------------------------------------------------------------------- the stub

class Stub:
    """Serves one model instance: INIT, then EXECUTEs with the BLS calls they make, then FINALIZE."""

    def __init__(self, region, model_file, model_name, version, instance_name):
        self.region = region
        self.model_file = model_file
        self.model_name = model_name
        self.version = version
        self.instance_name = instance_name
        self.model = None
        self.loop = None
        self.executing = False
        self.next_bls_id = 1
        self.bls_sync = set()     # BLS ids an exec() call is waiting for
        self.bls_done = {}        # BLS id -> InferenceResponse of such a call, once it arrived
        self.bls_waiting = {}     # BLS id -> asyncio future of async_exec
        self.released = []        # BLS ids whose outputs the model no longer references
        self.used_async = False
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
        model_class = self.import_model()
        self.model = model_class()
        if not hasattr(self.model, "execute"):
            raise pb_utils.TritonModelException("Python model %s does not implement `execute` method."
                                                % self.model_file)
        if hasattr(self.model, "initialize"):
            self.run(self.model.initialize(args))

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

    def execute(self, offset):
        region = self.region
        mm = region.mm
        region.allocator = ingot_ipc._Allocator(*region.stub_area)  # the last result's space is free again
        request_count, name_count, _ = _EXECUTE_HEADER.unpack_from(mm, offset)
        offset += 8
        requested = []
        for _ in range(name_count):
            length = _NAME_HEADER.unpack_from(mm, offset)[0]
            requested.append(mm[offset + 8:offset + 8 + length].decode("utf-8"))
            offset += 8 + _align8(length)
        requests = []
        for _ in range(request_count):
            input_count = _REQUEST_HEADER.unpack_from(mm, offset)[0]
            inputs, offset = read_tensors(region, offset + 8, input_count)
            requests.append(pb_utils.InferenceRequest._of(inputs, requested, self.model_name))

        self.executing = True
        returned = None
        try:
            returned = self.run(self.model.execute(requests))
            body = self.encode_responses(requests, self.check_returned(requests, returned))
        except Exception as error:  # everything the model raises fails this batch, never the process
            message = "Failed to process the request(s) for model '%s', message: %s" % (
                self.model_name, describe_exception(error))
            text = _text(message)
            body = _RESULT_HEADER.pack(S_INTERNAL, 0, len(text), 0) + _padded(text)
        finally:
            self.executing = False
            if self.used_async:
                # asyncio's futures and tasks form reference cycles: collect them now, so that the BLS responses
                # they held are released with this result rather than whenever the cyclic collector runs.
                self.used_async = False
                gc.collect()
        # BLS outputs that the result passes through stay referenced (by `returned`) until the server has the
        # result; only those the model dropped are released before it.
        self.flush_releases()
        region.send(EXECUTE_RESULT, body)

    def check_returned(self, requests, returned):
        """Triton's checks of what execute() returned; responses sent through a response sender count."""
        if returned is None:
            responses = []
            for index, request in enumerate(requests):
                sender = request._sender
                if sender is None or sender._response is None:
                    raise pb_utils.TritonModelException(
                        "execute() returned None, but request %d of %d got no response through its response sender"
                        % (index, len(requests)))
                responses.append(sender._response)
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
        parts = [_RESULT_HEADER.pack(OK, len(responses), 0, 0)]
        for request, response in zip(requests, responses):
            error = response._error
            if error is not None:
                text = _text(error.message())
                parts.append(_RESPONSE_HEADER.pack(_STATUS_OF_CODE.get(error.code(), S_INTERNAL), 0, 0, len(text),
                                                   0))
                parts.append(_padded(text))
                continue
            wanted = request._requested
            outputs = [tensor for tensor in response._outputs if tensor._name in wanted] if wanted else \
                response._outputs
            parts.append(_RESPONSE_HEADER.pack(OK, len(outputs), 0, 0, 0))
            parts.extend(place_tensors(self.region, outputs, "output"))
        return b"".join(parts)

    # ------------------------------------------------------------------------------------------------- BLS

    def in_execute(self):
        return self.executing

    def bls_send(self, request):
        """Writes a BLS request; returns its id and the stub-area allocations of its inputs."""
        self.flush_releases()
        allocations = []
        entries = place_tensors(self.region, request._inputs, "BLS input", allocations)
        bls_id = self.next_bls_id
        self.next_bls_id += 1
        model = _text(request._model_name, 1 << 16)
        request_id = _text(request._request_id, 1 << 16)
        names = [_name_entry(name) for name in request._requested]
        body = b"".join([_BLS_REQUEST_HEADER.pack(bls_id, request._model_version, request._timeout, len(model),
                                                  len(request_id), len(request._inputs), len(names)),
                         _padded(model), _padded(request_id)] + entries + names)
        self.region.send(BLS_REQUEST, body)
        return bls_id, allocations

    def bls_exec(self, request):
        bls_id, allocations = self.bls_send(request)
        self.bls_sync.add(bls_id)
        try:
            while bls_id not in self.bls_done:
                self.receive_during_execute(None)
            return self.bls_done.pop(bls_id)
        finally:
            self.bls_sync.discard(bls_id)
            for offset in allocations:
                self.region.allocator.free(offset)

    def bls_async_exec(self, request):
        import asyncio
        loop = asyncio.get_running_loop()
        bls_id, allocations = self.bls_send(request)
        future = loop.create_future()
        self.used_async = True
        self.bls_waiting[bls_id] = (future, allocations)
        if len(self.bls_waiting) == 1:
            loop.create_task(self.pump_async())
        return future

    async def pump_async(self):
        """Delivers BLS responses to the futures of async_exec while any is outstanding, letting other coroutines
        run between polls."""
        idle = 0
        while self.bls_waiting:
            if self.receive_during_execute(0 if idle < _SPINS else 0.001):
                idle = 0
            else:
                idle += 1
            await _yield_to_the_loop()

    def receive_during_execute(self, timeout):
        """Handles one record that arrives while execute() runs (a BLS response); False when none came in time."""
        record = self.region.next_record(timeout)
        if record is None:
            return False
        record_type, offset, length = record
        if record_type != BLS_RESPONSE:
            raise StubError("record type %d arrived while execute() was running" % record_type)
        bls_id, response = self.read_bls_response(offset)
        waiting = self.bls_waiting.pop(bls_id, None)
        if waiting is None:
            if bls_id in self.bls_sync:
                self.bls_done[bls_id] = response
            # else: the answer to an async_exec whose future was dropped with an earlier execute: dropping the
            # response releases its outputs.
        else:
            future, allocations = waiting
            for allocation in allocations:
                self.region.allocator.free(allocation)
            if not future.cancelled():
                future.set_result(response)
        return True

    def read_bls_response(self, offset):
        mm = self.region.mm
        bls_id, status, message_length, output_count = _BLS_RESPONSE_HEADER.unpack_from(mm, offset)
        offset += 16
        if status != OK:
            message = mm[offset:offset + message_length].decode("utf-8", "replace")
            self.released.append(bls_id)
            return bls_id, pb_utils.InferenceResponse(
                error=pb_utils.TritonError(message, _CODE_OF_STATUS.get(status, pb_utils.TritonError.INTERNAL)))
        offset += _align8(message_length)
        block = self.output_block(offset, output_count)
        outputs, _ = read_tensors(self.region, offset, output_count, block)
        if block is None:
            self.released.append(bls_id)
        else:
            weakref.finalize(block, self.released.append, bls_id)
        return bls_id, pb_utils.InferenceResponse(output_tensors=outputs)

    def output_block(self, offset, count):
        """One uint8 array over the bytes of the numeric outputs of a BLS response, or None if it has none."""
        mm = self.region.mm
        low, high = None, None
        for _ in range(count):
            name_length, code, rank, _, data_offset, length = _TENSOR_ENTRY.unpack_from(mm, offset)
            offset += 24 + 8 * rank + _align8(name_length)
            if code != _BYTES:
                low = data_offset if low is None else min(low, data_offset)
                high = data_offset + length if high is None else max(high, data_offset + length)
        if low is None:
            return None
        self.region.check_span(low, high - low, "a BLS response")
        return np.frombuffer(mm, np.uint8, high - low, low)

    def flush_releases(self):
        """Tells the server which BLS responses' outputs the model no longer references."""
        if self.released:
            ids = list(self.released)
            del self.released[:]  # in place: finalizers hold this list's append
            self.region.send(BLS_RELEASE, _U32.pack(len(ids)) + b"\0\0\0\0" + struct.pack("<%dQ" % len(ids), *ids))

    # ---------------------------------------------------------------------------------------------- serving

    def serve(self, mode):
        region = self.region
        mm = region.mm
        record_type, offset, length = region.next_record()
        if record_type != INIT:
            raise StubError("the first record must be INIT, got type %d" % record_type)
        args = mm[offset:offset + length].decode("utf-8")
        try:
            if mode == "AUTOCOMPLETE_STUB":
                result = self.auto_complete(json.loads(args)["model_config"]).encode("utf-8")
            else:
                self.initialize(json.loads(args))
                result = b""
            status = OK
        except Exception as error:
            status = S_INTERNAL
            result = _text(describe_exception(error))
        region.send(INIT_RESULT, _STATUS_TEXT.pack(status, len(result)) + _padded(result))
        if status != OK or mode == "AUTOCOMPLETE_STUB":
            return
        while True:
            record_type, offset, _ = region.next_record()
            if record_type == EXECUTE:
                self.execute(offset)
            elif record_type == BLS_RESPONSE:
                # The answer to an async_exec an earlier execute dropped: dropping it releases its outputs.
                self.read_bls_response(offset)
            elif record_type == FINALIZE:
                try:
                    self.finalize()
                    text, status = b"", OK
                except Exception as error:
                    text, status = _text(describe_exception(error)), S_INTERNAL
                region.send(FINALIZE_RESULT, _STATUS_TEXT.pack(status, len(text)) + _padded(text))
                return
            else:
                raise StubError("unexpected record type %d" % record_type)


def heartbeat(region, parent):
    """Increments the heartbeat every 100 ms; ends the process when the server process is gone."""
    count = 0
    while True:
        time.sleep(0.1)
        count += 1
        region.memory.store64(_H_STUB_HEARTBEAT, count)
        if os.getppid() != parent:
            os._exit(3)


def main(argv):
    if len(argv) != 7:
        sys.stderr.write("usage: ingot_python_stub.py REGION MODE MODEL_FILE MODEL_NAME VERSION INSTANCE_NAME\n")
        return 2
    region_path, mode, model_file, model_name, version, instance_name = argv[1:]
    ingot_ipc._check_platform()
    region = Region(region_path)
    region.memory.store64(_H_STUB_PID, os.getpid())
    threading.Thread(target=heartbeat, args=(region, os.getppid()), name="ingot-heartbeat", daemon=True).start()
    python = _text("%s, numpy %s" % (sys.version.split()[0], np.__version__))
    region.send(HELLO, struct.pack("<q", os.getpid()) + _U32.pack(len(python)) + b"\0\0\0\0" + _padded(python))
    Stub(region, model_file, model_name, version, instance_name).serve(mode)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
