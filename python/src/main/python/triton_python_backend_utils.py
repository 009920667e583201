"""Ingot's implementation of Triton's `triton_python_backend_utils` (imported by models as `pb_utils`).

A model written for Triton's Python backend imports this module and finds the names it uses there: `Tensor`,
`InferenceRequest` (received requests and BLS requests), `InferenceResponse`, `TritonError` with its codes,
`TritonModelException`, `Logger`, the helpers (`get_input_tensor_by_name`, `get_output_config_by_name`,
`triton_string_to_numpy`, `serialize_byte_tensor`, ...), the `ModelConfig` of `auto_complete_config` and the
`TRITONSERVER_*` constants. Standard library and numpy only.

Decoupled response senders, BLS (with decoupled=True too), custom metrics (`MetricFamily`, `Metric`) and model
control (`load_model`, `unload_model`, `is_model_ready`) go through the stub process (`ingot_python_stub.py`), which
installs itself as `_runtime` before the model is imported and lets the model's threads use them at once. What Ingot
cannot do raises `TritonModelException` with the reason, never a silent no-op: request rescheduling, cancelling a BLS
request. Objects here are not shared between threads unless said (a response sender may be used from any thread, one
at a time).
"""

import base64
import json
import struct
import sys
import time
import weakref

import numpy as np

# --------------------------------------------------------------------------------------------------- constants

TRITONSERVER_REQUEST_FLAG_SEQUENCE_START = 1
TRITONSERVER_REQUEST_FLAG_SEQUENCE_END = 2
TRITONSERVER_RESPONSE_COMPLETE_FINAL = 1
TRITONSERVER_REQUEST_RELEASE_ALL = 1
TRITONSERVER_REQUEST_RELEASE_RESCHEDULE = 2
TRITONSERVER_MEMORY_CPU = 0
TRITONSERVER_MEMORY_GPU = 2

# Triton's TYPE_* names and numbers (model_config.proto), and the numpy type each maps to.
TRITON_STRING_TO_NUMPY = {
    "TYPE_BOOL": bool, "TYPE_UINT8": np.uint8, "TYPE_UINT16": np.uint16, "TYPE_UINT32": np.uint32,
    "TYPE_UINT64": np.uint64, "TYPE_INT8": np.int8, "TYPE_INT16": np.int16, "TYPE_INT32": np.int32,
    "TYPE_INT64": np.int64, "TYPE_FP16": np.float16, "TYPE_FP32": np.float32, "TYPE_FP64": np.float64,
    "TYPE_STRING": np.object_,
}
_BOOL, _UINT8, _UINT16, _UINT32, _UINT64, _INT8, _INT16, _INT32, _INT64 = 1, 2, 3, 4, 5, 6, 7, 8, 9
_FP16, _FP32, _FP64, _BYTES, _BF16 = 10, 11, 12, 13, 14
_NUMPY_BY_CODE = {
    _BOOL: np.dtype(np.bool_), _UINT8: np.dtype(np.uint8), _UINT16: np.dtype(np.uint16),
    _UINT32: np.dtype(np.uint32), _UINT64: np.dtype(np.uint64), _INT8: np.dtype(np.int8),
    _INT16: np.dtype(np.int16), _INT32: np.dtype(np.int32), _INT64: np.dtype(np.int64),
    _FP16: np.dtype(np.float16), _FP32: np.dtype(np.float32), _FP64: np.dtype(np.float64),
    _BF16: np.dtype(np.uint16),  # carried as raw 16-bit words: numpy has no bfloat16
}
_CODE_BY_KIND = {dtype.str.lstrip("<=|"): code for code, dtype in _NUMPY_BY_CODE.items() if code != _BF16}
_CODE_BY_DTYPE = {dtype: code for code, dtype in _NUMPY_BY_CODE.items() if code != _BF16}
_CODE_BY_DTYPE[np.dtype(np.object_)] = _BYTES
_NAMES_BY_CODE = {1: "BOOL", 2: "UINT8", 3: "UINT16", 4: "UINT32", 5: "UINT64", 6: "INT8", 7: "INT16", 8: "INT32",
                  9: "INT64", 10: "FP16", 11: "FP32", 12: "FP64", 13: "BYTES", 14: "BF16"}

# Set by the stub process: the BLS transport and whether execute() is running.
_runtime = None


def triton_string_to_numpy(triton_type_string):
    """The numpy type of a configuration data type name ("TYPE_FP32" -> numpy.float32)."""
    return TRITON_STRING_TO_NUMPY[triton_type_string]


def triton_to_numpy_type(data_type):
    """The numpy type of a TYPE_* number (11 -> numpy.float32), None for an unknown number."""
    if data_type == _BYTES:
        return np.object_
    dtype = _NUMPY_BY_CODE.get(data_type)
    return None if dtype is None or data_type == _BF16 else dtype.type


def numpy_to_triton_type(data_type):
    """The TYPE_* number of a numpy type (numpy.float32 -> 11), None when Triton has no such type."""
    dtype = np.dtype(data_type)
    if dtype.kind in "OSU":
        return _BYTES
    return _CODE_BY_KIND.get(dtype.str.lstrip("<>=|"))


def serialize_byte_tensor(input_tensor):
    """Flattens a BYTES tensor (numpy object or bytes_ array) to its wire form: each element as a 4-byte
    little-endian length followed by its bytes, in C order. Strings are UTF-8 encoded; other objects are written as
    their str(). Returns () for an empty tensor and None for an array that is not a BYTES tensor."""
    if input_tensor.size == 0:
        return ()
    if input_tensor.dtype != np.object_ and input_tensor.dtype.type != np.bytes_:
        return None
    parts = []
    for element in input_tensor.ravel(order="C"):
        if isinstance(element, (bytes, bytearray, np.bytes_)):
            data = bytes(element)
        else:
            data = str(element).encode("utf-8")
        parts.append(struct.pack("<I", len(data)))
        parts.append(data)
    return b"".join(parts)


def deserialize_bytes_tensor(encoded_tensor):
    """The elements of a serialized BYTES tensor as a 1-D numpy object array of bytes."""
    view = memoryview(encoded_tensor).cast("B")
    elements = []
    offset = 0
    end = len(view)
    while offset < end:
        if offset + 4 > end:
            raise TritonModelException("Invalid bytes tensor data: incomplete length field")
        length = struct.unpack_from("<I", view, offset)[0]
        offset += 4
        if offset + length > end:
            raise TritonModelException("Invalid bytes tensor data: string extends beyond buffer")
        elements.append(bytes(view[offset:offset + length]))
        offset += length
    result = np.empty(len(elements), dtype=np.object_)
    result[:] = elements
    return result


def get_input_tensor_by_name(inference_request, name):
    """The input Tensor of that name, or None."""
    for tensor in inference_request.inputs():
        if tensor.name() == name:
            return tensor
    return None


def get_output_tensor_by_name(inference_response, name):
    """The output Tensor of that name, or None."""
    for tensor in inference_response.output_tensors():
        if tensor.name() == name:
            return tensor
    return None


def get_input_config_by_name(model_config, name):
    """The configuration (dict) of the input of that name, or None."""
    for entry in model_config.get("input", ()):
        if entry["name"] == name:
            return entry
    return None


def get_output_config_by_name(model_config, name):
    """The configuration (dict) of the output of that name, or None."""
    for entry in model_config.get("output", ()):
        if entry["name"] == name:
            return entry
    return None


def using_decoupled_model_transaction_policy(model_config):
    """Whether the configuration asks for decoupled responses."""
    policy = model_config.get("model_transaction_policy")
    return bool(policy and policy.get("decoupled"))


# ------------------------------------------------------------------------------------------------------ errors

class TritonModelException(Exception):
    """Raised by this module for a misuse or an unsupported feature; models raise it too."""


class TritonError:
    """An error attached to an InferenceResponse (or returned by a BLS call), with one of Triton's codes."""

    UNKNOWN = 0
    INTERNAL = 1
    NOT_FOUND = 2
    INVALID_ARG = 3
    UNAVAILABLE = 4
    UNSUPPORTED = 5
    ALREADY_EXISTS = 6
    CANCELLED = 7

    __slots__ = ("_message", "_code")

    def __init__(self, message, code=INTERNAL):
        if message is None:
            raise TypeError("TritonError(): message must not be None")
        if code is None or int(code) not in range(8):
            raise TypeError("TritonError(): code must be one of TritonError's codes, got %r" % (code,))
        self._message = str(message)
        self._code = int(code)

    def message(self):
        return self._message

    def code(self):
        return self._code

    def __repr__(self):
        return "TritonError(%r, %s)" % (self._message, _ERROR_NAMES[self._code])

    __str__ = message


_ERROR_NAMES = ["UNKNOWN", "INTERNAL", "NOT_FOUND", "INVALID_ARG", "UNAVAILABLE", "UNSUPPORTED", "ALREADY_EXISTS",
                "CANCELLED"]


# ------------------------------------------------------------------------------------------------------ tensor

class Tensor:
    """A named tensor: `Tensor(name, numpy_array)`; `as_numpy()` gives the array.

    Tensors of a received request and of a BLS response are numpy views of the instance's shared memory, valid
    during the execute() call that received them. A tensor created by the model is copied into shared memory once,
    when its response is returned; one that already lies in shared memory (an input passed through, a BLS output) is
    not copied at all.
    """

    __slots__ = ("_name", "_array", "_code")

    def __init__(self, name, tensor, *_):
        if not isinstance(name, str) or not name:
            raise TritonModelException("Tensor name cannot be an empty string.")
        array = np.asarray(tensor)
        code = _CODE_BY_DTYPE.get(array.dtype)
        if code is None:
            kind = array.dtype.kind
            if kind in "SOU":
                if kind == "U":
                    array = array.astype(np.object_)
                code = _BYTES
            else:
                code = _CODE_BY_KIND.get(array.dtype.str.lstrip("<>=|"))
                if code is None:
                    raise TritonModelException("Tensor '%s': numpy dtype %s has no Triton data type"
                                               % (name, array.dtype))
                array = array.astype(array.dtype.newbyteorder("="))
        if not array.flags.c_contiguous:
            array = np.ascontiguousarray(array)
        self._name = name
        self._array = array
        self._code = code

    @classmethod
    def _of(cls, name, array, code):
        """A tensor over an array the stub made (no checks: the stub knows its type)."""
        tensor = cls.__new__(cls)
        tensor._name = name
        tensor._array = array
        tensor._code = code
        return tensor

    def name(self):
        return self._name

    def as_numpy(self):
        if self._code == _BF16:
            raise TritonModelException("Tensor dtype is BF16 and cannot be converted to NumPy. Use to_dlpack() and "
                                       "from_dlpack() instead.")
        return self._array

    def shape(self):
        return list(self._array.shape)

    def triton_dtype(self):
        return self._code

    def is_cpu(self):
        return True

    def to_dlpack(self):
        if self._code == _BYTES:
            raise TritonModelException("DLPack does not have support for string tensors.")
        return self._array.__dlpack__()

    def __dlpack__(self, stream=None):
        return self.to_dlpack()

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU, device 0

    @staticmethod
    def from_dlpack(name, dlpack_tensor):
        """A tensor from a DLPack capsule or any object with `__dlpack__` (CPU memory only)."""
        if not isinstance(name, str) or not name:
            raise TritonModelException("Tensor name cannot be an empty string.")
        source = dlpack_tensor if hasattr(dlpack_tensor, "__dlpack__") else _Capsule(dlpack_tensor)
        try:
            array = np.from_dlpack(source)
        except (TypeError, RuntimeError, BufferError) as error:
            raise TritonModelException("Provided tensor is not supported. Tensor must be a DLPack capsule or have "
                                       "`__dlpack__` and `__dlpack_device__` attributes (%s)" % error)
        return Tensor(name, array)

    def __repr__(self):
        return "Tensor(%r, %s, %s)" % (self._name, _NAMES_BY_CODE.get(self._code), list(self._array.shape))


class _Capsule:
    """Lets numpy import a bare DLPack capsule, which it only accepts through `__dlpack__`."""

    def __init__(self, capsule):
        self._capsule = capsule

    def __dlpack__(self, stream=None):
        return self._capsule

    def __dlpack_device__(self):
        return (1, 0)


# ---------------------------------------------------------------------------------------------------- requests

class PreferredMemory:
    """Where a BLS caller would like outputs (Ingot has CPU memory only, so this is accepted and noted)."""

    def __init__(self, preferred_memory_type, preferred_device_id=0):
        self.preferred_memory_type = preferred_memory_type
        self.preferred_device_id = preferred_device_id


class InferenceTrace:
    """A request's trace context (Ingot does not trace Python models: the context is always None)."""

    def get_context(self):
        return None


class _RequestState:
    """What a received request and its response sender share: its handle at the server, whether the model is
    decoupled, its requested outputs, whether the sender is closed (in `box`, which the stub's finalizer of this state
    reads), the responses sent, and (a one-response model) the response to return. Neither the request nor the sender
    is referenced from here, so the state dies with the last of them."""

    __slots__ = ("handle", "decoupled", "requested", "box", "sent", "response", "__weakref__")

    def __init__(self, handle, decoupled, requested):
        self.handle = handle
        self.decoupled = decoupled
        self.requested = requested
        self.box = [False]
        self.sent = 0
        self.response = None

    @property
    def closed(self):
        return self.box[0]

    @closed.setter
    def closed(self, value):
        self.box[0] = value


class InferenceResponseSender:
    """The response sender of a received request. A decoupled model sends any number of responses through it, each
    reaching the client as it is sent (the call returns once the server has sent it on), and ends the request with
    TRITONSERVER_RESPONSE_COMPLETE_FINAL, from any thread, during or after execute(). A one-response model may send its
    one response through it with the final flag instead of returning it."""

    __slots__ = ("_state",)

    def __init__(self, request):
        self._state = request._state

    def send(self, response=None, flags=0):
        state = self._state
        if flags not in (0, TRITONSERVER_RESPONSE_COMPLETE_FINAL):
            raise TritonModelException("Unable to send response. Unsupported flag provided.")
        if flags == 0 and response is None:
            raise TritonModelException("Inference Response object must be provided when the response flags is set "
                                       "to zero.")
        if response is not None and not isinstance(response, InferenceResponse):
            raise TritonModelException("Unable to send response: expected an InferenceResponse, found type '%s'."
                                       % type(response))
        if not state.decoupled:
            if response is not None and state.sent > 0:
                raise TritonModelException("Unable to send response. Non-decoupled model cannot send more than one "
                                           "response.")
            if response is None and flags == TRITONSERVER_RESPONSE_COMPLETE_FINAL and state.sent == 0:
                raise TritonModelException("Unable to send response. Non-decoupled model cannot send complete final "
                                           "before sending a response.")
        if state.closed:
            raise TritonModelException("Unable to send response. Response sender has been closed.")
        if flags == TRITONSERVER_RESPONSE_COMPLETE_FINAL:
            state.closed = True
        state.sent += 1
        if state.decoupled:
            _runtime.send_response(state, response, flags)
        elif response is not None:
            state.response = response

    def is_cancelled(self):
        return _runtime.is_cancelled(self._state.handle)


class ResponseIterator:
    """The responses of a BLS request sent with decoupled=True, as they come; the last one carries the final flag
    (an empty response when the called model sent the flag alone)."""

    def __init__(self, runtime, bls_id):
        self._runtime = runtime
        self._id = bls_id
        self._done = [False]
        weakref.finalize(self, runtime.abandon_stream, bls_id, self._done)

    def __iter__(self):
        return self

    def __next__(self):
        if self._done[0]:
            raise StopIteration
        response, final = self._runtime.inbox.wait(("bls", self._id))
        if final:
            self._done[0] = True
        return response

    def cancel(self):
        raise TritonModelException("Cancelling a BLS request is not supported by Ingot's Python backend")


class InferenceRequest:
    """A request: either one the model received in execute(), or a BLS request the model builds to call another
    model of the same server, as in Triton:

        request = pb_utils.InferenceRequest(model_name="resnet50", inputs=[tensor],
                                            requested_output_names=["logits"])
        response = request.exec()            # or: response = await request.async_exec()
        for response in request.exec(decoupled=True): ...   # every response of a decoupled model

    A received request carries what Triton passes: inputs, requested output names, id, parameters (JSON), correlation
    id (int or str), sequence flags, timeout (microseconds).
    """

    __slots__ = ("_request_id", "_correlation_id", "_inputs", "_requested", "_model_name", "_model_version",
                 "_flags", "_timeout", "_parameters", "_trace", "_sender", "_release_flags", "_received", "_state",
                 "__weakref__")

    def __init__(self, request_id="", correlation_id=0, inputs=None, requested_output_names=None, model_name=None,
                 model_version=-1, flags=0, timeout=0, preferred_memory=None, trace=None, parameters=None):
        if inputs is None or requested_output_names is None or model_name is None:
            raise TypeError("InferenceRequest(): model_name, inputs and requested_output_names are required")
        if not isinstance(correlation_id, (int, str)) or isinstance(correlation_id, bool):
            raise TritonModelException("Correlation ID must be integer or string")
        for tensor in inputs:
            if not isinstance(tensor, Tensor):
                raise TritonModelException("Input tensor for request with id '%s' and model name '%s' should not "
                                           "be empty." % (request_id, model_name))
        for name in requested_output_names:
            if not isinstance(name, str) or not name:
                raise TritonModelException("Requested output name for request with id '%s' and model name '%s' "
                                           "should not be empty." % (request_id, model_name))
        if isinstance(model_name, (bytes, bytearray)):
            model_name = bytes(model_name).decode("utf-8")  # as Triton's binding takes a BYTES tensor's element
        if not isinstance(model_name, str):
            raise TritonModelException("InferenceRequest(): model_name must be a str or bytes, found type %s"
                                       % type(model_name))
        self._request_id = str(request_id)
        self._correlation_id = correlation_id
        self._inputs = list(inputs)
        self._requested = list(dict.fromkeys(requested_output_names))
        self._model_name = model_name
        self._model_version = int(model_version)
        self._flags = int(flags)
        self._timeout = int(timeout)
        self._parameters = _parameters_json(parameters)
        self._trace = trace if trace is not None else InferenceTrace()
        self._sender = None
        self._release_flags = TRITONSERVER_REQUEST_RELEASE_ALL
        self._received = False
        self._state = None

    @classmethod
    def _of(cls, inputs, requested_output_names, model_name, handle=0, request_id="", correlation_id=0, flags=0,
            timeout=0, parameters="{}", decoupled=False):
        """A request the model received (made by the stub, no checks)."""
        request = cls.__new__(cls)
        request._request_id = request_id
        request._correlation_id = correlation_id
        request._inputs = inputs
        request._requested = requested_output_names
        request._model_name = model_name
        request._model_version = -1
        request._flags = flags
        request._timeout = timeout
        request._parameters = parameters
        request._trace = None
        request._sender = None
        request._release_flags = TRITONSERVER_REQUEST_RELEASE_ALL
        request._received = True
        request._state = _RequestState(handle, decoupled, requested_output_names)
        return request

    def inputs(self):
        return self._inputs

    def request_id(self):
        return self._request_id

    def correlation_id(self):
        return self._correlation_id

    def flags(self):
        return self._flags

    def set_flags(self, flags):
        self._flags = int(flags)

    def timeout(self):
        return self._timeout

    def parameters(self):
        return self._parameters

    def trace(self):
        if self._trace is None:
            self._trace = InferenceTrace()
        return self._trace

    def requested_output_names(self):
        return self._requested

    def get_response_sender(self):
        if not self._received:
            raise TritonModelException("get_response_sender() is only available on a request the model received")
        if self._sender is None:
            self._sender = InferenceResponseSender(self)
        return self._sender

    def is_cancelled(self):
        """True once the client cancelled the request or its timeout passed (asks the server)."""
        if not self._received:
            return False
        return _runtime.is_cancelled(self._state.handle)

    def set_release_flags(self, flags):
        if flags == TRITONSERVER_REQUEST_RELEASE_RESCHEDULE:
            raise TritonModelException("Request rescheduling (TRITONSERVER_REQUEST_RELEASE_RESCHEDULE) needs Triton's "
                                       "sequence batcher, which Ingot's Python backend does not support yet")
        if flags != TRITONSERVER_REQUEST_RELEASE_ALL:
            raise TritonModelException("Unknown request release flags %r" % (flags,))
        self._release_flags = flags

    def exec(self, decoupled=False):
        """Runs this BLS request on the named model of the same server and returns its InferenceResponse (a failure
        of the called model is the response's error(), not an exception); with decoupled=True, an iterator of every
        response the called model sends."""
        self._check_bls()
        return _runtime.bls_exec(self, bool(decoupled))

    def async_exec(self, decoupled=False):
        """Sends this BLS request at once and returns an awaitable of its InferenceResponse, or of the iterator of
        its responses with decoupled=True (use inside an `async def execute`)."""
        self._check_bls()
        return _runtime.bls_async_exec(self, bool(decoupled))

    def _check_bls(self):
        if self._received:
            raise TritonModelException("exec() is for BLS requests the model builds, not for a received request")
        if _runtime is None:
            raise TritonModelException("BLS is only supported during the 'execute' function.")
        _runtime.check_bls_allowed()


def _parameters_json(parameters):
    if parameters is None:
        return "{}"
    if isinstance(parameters, str):
        parameters = json.loads(parameters)
    if not isinstance(parameters, dict):
        raise TritonModelException("Expect parameters to be a dict, found type %s" % type(parameters))
    for key, value in parameters.items():
        if not isinstance(key, str):
            raise TritonModelException("Expect parameters keys to have type str, found type %s" % type(key))
        if not isinstance(value, (bool, int, str)):
            raise TritonModelException("Expect parameters values to have type bool/int/str, found type %s"
                                       % type(value))
    return json.dumps(parameters)


# --------------------------------------------------------------------------------------------------- responses

class InferenceResponse:
    """The response to one request: output tensors, or an error (TritonError)."""

    __slots__ = ("_outputs", "_error", "_parameters")

    def __init__(self, output_tensors=None, error=None, parameters=None):
        outputs = [] if output_tensors is None else list(output_tensors)
        for tensor in outputs:
            if not isinstance(tensor, Tensor):
                raise TritonModelException("Output tensor for inference response should not be empty.")
        if error is not None and not isinstance(error, TritonError):
            if isinstance(error, str):
                error = TritonError(error)
            else:
                raise TritonModelException("InferenceResponse(): error must be a TritonError, found type %s"
                                           % type(error))
        self._outputs = outputs
        self._error = error
        self._parameters = _parameters_json(parameters)

    def output_tensors(self):
        return self._outputs

    def has_error(self):
        return self._error is not None

    def error(self):
        return self._error

    def parameters(self):
        return self._parameters

    def __repr__(self):
        return "InferenceResponse(%r, error=%r)" % (self._outputs, self._error)


# ------------------------------------------------------------------------------------------------------ logger

class Logger:
    """Log lines of the model, written to the stub's standard error, which the server's log receives."""

    INFO = 0
    WARNING = 1
    ERROR = 2
    VERBOSE = 3
    _LETTERS = "IWEV"

    @staticmethod
    def log(message, level=0):
        frame = sys._getframe(1)
        while frame is not None and frame.f_code.co_filename == __file__:
            frame = frame.f_back
        where = "%s:%d" % (frame.f_code.co_filename.rsplit("/", 1)[-1], frame.f_lineno) if frame else "?"
        letter = Logger._LETTERS[level] if 0 <= level < 4 else "I"
        now = time.time()
        stamp = time.strftime("%m%d %H:%M:%S", time.localtime(now)) + ".%06d" % int((now % 1) * 1e6)
        sys.stderr.write("%s%s %s] %s\n" % (letter, stamp, where, message))
        sys.stderr.flush()

    @staticmethod
    def log_info(message):
        Logger.log(message, Logger.INFO)

    @staticmethod
    def log_warn(message):
        Logger.log(message, Logger.WARNING)

    @staticmethod
    def log_error(message):
        Logger.log(message, Logger.ERROR)

    @staticmethod
    def log_verbose(message):
        Logger.log(message, Logger.VERBOSE)


class LogLevel:
    """Levels for Logger.log."""

    INFO = Logger.INFO
    WARNING = Logger.WARNING
    ERROR = Logger.ERROR
    VERBOSE = Logger.VERBOSE


# ------------------------------------------------------------------------------------------------- custom metrics

def _reply_or_raise(reply, prefix):
    status, message, number, handle = reply
    if status != 0:
        raise TritonModelException(prefix + message)
    return number, handle


class MetricFamily:
    """A family of custom metrics, exported on the server's /metrics beside Triton's own: as in Triton, a family is
    found again by its name (with its first description), a different kind is refused, and it leaves /metrics when
    no model holds it any more.

        family = pb_utils.MetricFamily(name="requests_total", description="...", kind=pb_utils.MetricFamily.COUNTER)
        metric = family.Metric(labels={"model": "m"})       # buckets=[...] for a HISTOGRAM
        metric.increment(1)
    """

    COUNTER = 0
    GAUGE = 1
    HISTOGRAM = 2

    def __init__(self, name, description, kind):
        if kind not in (MetricFamily.COUNTER, MetricFamily.GAUGE, MetricFamily.HISTOGRAM):
            raise TritonModelException("Error when creating MetricFamily: Unknown metric kind")
        _, handle = _reply_or_raise(_runtime.call({"op": "metric_family_new", "name": str(name),
                                                   "description": str(description), "kind": int(kind)}),
                                    "Error when creating MetricFamily: ")
        self._kind = kind
        self._handle = handle
        self._metrics = weakref.WeakSet()
        weakref.finalize(self, MetricFamily._delete, handle, self._metrics)

    @staticmethod
    def _delete(handle, metrics):
        # As Triton: the family's metrics are cleared with it, and using one afterwards raises.
        for metric in list(metrics):
            metric._clear()
        if _runtime is not None:
            _runtime.call_later({"op": "metric_family_delete", "handle": handle})

    def Metric(self, labels=None, buckets=None):
        if labels is not None and not isinstance(labels, dict):
            raise TritonModelException("Failed to create metric. Labels must be a dictionary.")
        if buckets is not None:
            if not isinstance(buckets, list):
                raise TritonModelException("Failed to create metric. Buckets must be a list.")
            if self._kind in (MetricFamily.COUNTER, MetricFamily.GAUGE):
                raise TritonModelException("Failed to create metric. Unexpected buckets found.")
            buckets = [float(bound) for bound in buckets]
        elif self._kind == MetricFamily.HISTOGRAM:
            raise TritonModelException("Failed to create metric. Missing required buckets.")
        _, handle = _reply_or_raise(_runtime.call({"op": "metric_new", "family": self._handle,
                                                   "labels": {} if labels is None else labels,
                                                   "buckets": buckets}),
                                    "Error when creating Metric: ")
        metric = Metric._of(self._kind, handle)
        self._metrics.add(metric)
        return metric


class Metric:
    """One metric of a MetricFamily (made by MetricFamily.Metric): increment(), set(), observe() and value(), each
    refused with Triton's message where the family's kind lacks it, and each done by the server when it returns (as
    in Triton: a scrape right after it sees the change)."""

    _NAMES = {0: "TRITONSERVER_METRIC_KIND_COUNTER", 1: "TRITONSERVER_METRIC_KIND_GAUGE",
              2: "TRITONSERVER_METRIC_KIND_HISTOGRAM"}

    def __init__(self, *args, **kwargs):
        raise TritonModelException("Create a Metric with MetricFamily.Metric(labels=..., buckets=...)")

    @classmethod
    def _of(cls, kind, handle):
        metric = cls.__new__(cls)
        metric._kind = kind
        metric._handle = handle
        metric._cleared = [False]
        weakref.finalize(metric, Metric._delete, handle, metric._cleared)
        return metric

    @staticmethod
    def _delete(handle, cleared):
        if not cleared[0] and _runtime is not None:
            cleared[0] = True
            _runtime.call_later({"op": "metric_delete", "handle": handle})

    def _clear(self):
        if not self._cleared[0] and _runtime is not None:
            self._cleared[0] = True
            _runtime.call_later({"op": "metric_delete", "handle": self._handle})

    def _check(self, prefix, operation, allowed):
        if self._cleared[0]:
            raise TritonModelException(prefix + "Invalid metric operation as the corresponding 'MetricFamily' has "
                                       "been deleted. The 'MetricFamily' object should be deleted AFTER its "
                                       "corresponding 'Metric' objects have been deleted.")
        if self._kind not in allowed:
            raise TritonModelException("%s%s does not support %s" % (prefix, Metric._NAMES[self._kind], operation))

    def increment(self, value):
        prefix = "Failed to increment metric value: "
        self._check(prefix, "Increment", (MetricFamily.COUNTER, MetricFamily.GAUGE))
        if self._kind == MetricFamily.COUNTER and value < 0:
            raise TritonModelException(prefix + "TRITONSERVER_METRIC_KIND_COUNTER can only be incremented "
                                       "monotonically by non-negative values.")
        _reply_or_raise(_runtime.call({"op": "metric_increment", "handle": self._handle, "value": float(value)}),
                        prefix)

    def set(self, value):
        prefix = "Failed to set metric value: "
        self._check(prefix, "Set", (MetricFamily.GAUGE,))
        _reply_or_raise(_runtime.call({"op": "metric_set", "handle": self._handle, "value": float(value)}), prefix)

    def observe(self, value):
        prefix = "Failed to observe metric value: "
        self._check(prefix, "Observe", (MetricFamily.HISTOGRAM,))
        _reply_or_raise(_runtime.call({"op": "metric_observe", "handle": self._handle, "value": float(value)}),
                        prefix)

    def value(self):
        prefix = "Failed to get metric value: "
        self._check(prefix, "Value", (MetricFamily.COUNTER, MetricFamily.GAUGE))
        number, _ = _reply_or_raise(_runtime.call({"op": "metric_value", "handle": self._handle}), prefix)
        return number


# -------------------------------------------------------------------------------------------------- model control

def load_model(model_name, config="", files=None):
    """Loads (or reloads) a model of the server, as Triton's load API: `config` a JSON configuration, `files` a dict
    of "file:<path>" -> bytes (which then needs a config). Raises TritonModelException with the server's reason."""
    if files is not None and not isinstance(files, dict):
        raise TritonModelException("failed to load model '%s', files should be a dictionary of file paths and file "
                                   "contents" % model_name)
    encoded = {str(path): base64.b64encode(bytes(content)).decode("ascii")
               for path, content in (files or {}).items()}
    _reply_or_raise(_runtime.call({"op": "load_model", "name": str(model_name), "config": str(config),
                                   "files": encoded}), "Failed to load model: ")


def unload_model(model_name, unload_dependents=False):
    """Unloads a model of the server. Raises TritonModelException with the server's reason."""
    _reply_or_raise(_runtime.call({"op": "unload_model", "name": str(model_name),
                                   "unload_dependents": bool(unload_dependents)}), "Failed to unload model: ")


def is_model_ready(model_name, model_version=""):
    """Whether a model (a version of it: "1", or "" for the default) is loaded and ready."""
    number, _ = _reply_or_raise(_runtime.call({"op": "model_ready", "name": str(model_name),
                                               "version": str(model_version)}),
                                "Failed to check model readiness: ")
    return number != 0


# --------------------------------------------------------------------------------------------- auto-complete

class ModelConfig:
    """The configuration `auto_complete_config(auto_complete_model_config)` receives and returns. Only the maximum
    batch size, the inputs, the outputs, the dynamic batcher and the transaction policy can be set."""

    def __init__(self, model_config):
        self._model_config = json.loads(model_config) if isinstance(model_config, str) else model_config
        self._model_config.setdefault("input", [])
        self._model_config.setdefault("output", [])
        self._model_config.setdefault("max_batch_size", 0)

    def _name(self):
        return self._model_config.get("name", "")

    def as_dict(self):
        return self._model_config

    def set_max_batch_size(self, max_batch_size):
        configured = self._model_config.get("max_batch_size", 0)
        if configured > max_batch_size:
            raise ValueError("configuration specified max_batch_size %d, but in auto-complete-config function for "
                             "model '%s' specified max_batch_size %d" % (configured, self._name(), max_batch_size))
        self._model_config["max_batch_size"] = max_batch_size

    def set_dynamic_batching(self):
        for other in ("sequence_batching", "ensemble_scheduling"):
            if other in self._model_config:
                raise ValueError("Configuration specified scheduling_choice as '%s', but auto-complete-config "
                                 "function for model '%s' tries to set scheduling_choice as 'dynamic_batching'"
                                 % (other, self._name()))
        self._model_config.setdefault("dynamic_batching", {})

    def add_input(self, input):
        self._add_tensor("input", input, ("name", "data_type", "dims", "optional"))

    def add_output(self, output):
        self._add_tensor("output", output, ("name", "data_type", "dims"))

    def _add_tensor(self, kind, tensor, allowed):
        model = self._name()
        for key in tensor:
            if key not in allowed:
                listed = ", ".join("'%s'" % name for name in allowed[:-1]) + " and '%s'" % allowed[-1]
                raise ValueError("%s '%s' in auto-complete-config function for model '%s' contains property other "
                                 "than %s." % (kind, tensor.get("name"), model, listed))
        if "name" not in tensor:
            raise ValueError("%s in auto-complete-config function for model '%s' is missing 'name' property."
                             % (kind, model))
        for key in ("data_type", "dims"):
            if key not in tensor:
                raise ValueError("%s '%s' in auto-complete-config function for model '%s' is missing '%s' property."
                                 % (kind, tensor["name"], model, key))
        for existing in self._model_config[kind]:
            if existing.get("name") != tensor["name"]:
                continue
            have = existing.get("data_type", "TYPE_INVALID")
            if have != "TYPE_INVALID" and have != tensor["data_type"]:
                raise ValueError("unable to load model '%s', configuration expects datatype %s for %s '%s', model "
                                 "provides %s" % (model, have, kind, tensor["name"], tensor["data_type"]))
            if existing.get("dims") and list(existing["dims"]) != list(tensor["dims"]):
                raise ValueError("model '%s', tensor '%s': the model expects dims %s but the model configuration "
                                 "specifies dims %s" % (model, tensor["name"], list(tensor["dims"]),
                                                        list(existing["dims"])))
            if "optional" in existing and "optional" in tensor and existing["optional"] != tensor["optional"]:
                raise ValueError("model '%s', tensor '%s': the model expects optional %s but the model "
                                 "configuration specifies optional %s" % (model, tensor["name"], tensor["optional"],
                                                                          existing["optional"]))
            existing["data_type"] = tensor["data_type"]
            existing["dims"] = list(tensor["dims"])
            if "optional" in tensor:
                existing["optional"] = tensor["optional"]
            return
        self._model_config[kind].append(dict(tensor))

    def set_model_transaction_policy(self, transaction_policy_dict):
        for key in transaction_policy_dict:
            if key != "decoupled":
                raise ValueError("model transaction property in auto-complete-config function for model '%s' "
                                 "contains property other than 'decoupled'." % self._name())
        policy = self._model_config.setdefault("model_transaction_policy", {})
        if "decoupled" in transaction_policy_dict:
            if "decoupled" in policy and policy["decoupled"] != transaction_policy_dict["decoupled"]:
                raise ValueError("trying to change decoupled property in auto-complete-config for model '%s', "
                                 "which is already set to '%s'." % (self._name(), policy["decoupled"]))
            policy["decoupled"] = transaction_policy_dict["decoupled"]
