"""Python client of Ingot's shared-memory IPC transport.

Standard library plus numpy only. The file format and protocol are specified in docs/ipc.md of the Ingot
repository (layout version 1); this module implements the client side of it:

    import numpy as np
    from ingot_ipc import IpcClient

    with IpcClient.connect("demo") as client:
        a = client.empty((16,), np.float32)        # a numpy array in this client's slab of shared memory
        b = client.empty((16,), np.float32)
        a[:] = np.arange(16)
        b[:] = 1
        with client.infer("add_sub", {"INPUT0": a, "INPUT1": b}) as result:
            print(result["OUTPUT0"], result["OUTPUT1"])   # numpy views of shared memory, valid in the block

Memory ordering (docs/ipc.md, "Memory ordering, and how Python achieves it"): the ring protocol needs release
stores, acquire loads and untorn aligned 4/8-byte accesses. On x86-64 (TSO) every plain store is a release store and
every plain load an acquire load; the ring's lengths and positions are accessed through memoryview casts to 'i' and
'q', which CPython performs as single aligned 4- and 8-byte moves; each access is its own interpreter operation, so
they reach memory in program order; and a record is published by storing its length last. The client therefore
refuses to run on other architectures.

Wake-ups (docs/ipc.md, "Wake-ups"): a client waiting for a response polls its response ring for a few microseconds,
then polls and yields the processor until 50 us have passed, and only then raises its `client_waiting` flag and sleeps
with futex(FUTEX_WAIT) on its response doorbell; the server changes that doorbell after every response and makes the
FUTEX_WAKE system call only when the flag is up. After writing a frame the client wakes the server's IPC thread only
when the server's `server_waiting` flag says it may be asleep, which needs a store-load fence: Python has none, so the
client calls C11's atomic_thread_fence from libatomic through ctypes; without libatomic it rings after every frame,
as it always did. Without a usable futex (ctypes cannot reach libc's syscall) the client polls with short sleeps.

One IpcClient belongs to one thread at a time (a daemon thread only increments its heartbeat).
"""

import ctypes
import fcntl
import mmap
import os
import platform
import struct
import sys
import threading
import time

import numpy as np

__all__ = [
    "IpcClient", "Response", "IngotIpcError", "ServerNotFoundError", "ServerGoneError", "ClientEvictedError",
    "CapacityError", "IpcTimeoutError", "RegionFormatError", "InferError", "STATUS_NAMES",
]

# ---------------------------------------------------------------------------------------------------------- layout

MAGIC = 0x435049544F474E49  # "INGOTIPC" as a little-endian int64
LAYOUT_VERSION = 1
HEADER_LENGTH = 4096

# Header (HeaderDescriptor)
_H_VERSION = 8
_H_FILE_LENGTH = 16
_H_MAX_CLIENTS = 24
_H_ENTRY_LENGTH = 28
_H_CLIENT_TABLE = 32
_H_REQUEST_RING_CAPACITY = 40
_H_RESPONSE_RING_CAPACITY = 44
_H_RINGS_OFFSET = 48
_H_RINGS_STRIDE = 56
_H_DATA_OFFSET = 64
_H_SLAB_LENGTH = 72
_H_SLAB_INPUT_LENGTH = 80
_H_MAX_IN_FLIGHT = 88
_H_MAX_FRAME_LENGTH = 92
_H_HEARTBEAT_INTERVAL = 96
_H_LIVENESS_TIMEOUT = 104
_H_GENERATION = 128
_H_SERVER_STATE = 136
_H_SERVER_PID = 144
_H_SERVER_START_TICKS = 152
_H_SERVER_PID_NAMESPACE = 160
_H_SERVER_HEARTBEAT = 256
_H_REQUEST_DOORBELL = 384
_H_SERVER_WAITING = 388
_SERVER_RUNNING = 1
_SERVER_CLOSED = 2
_REGISTRATION_LOCK_OFFSET = 1

# Client entry (ClientEntryDescriptor)
_ENTRY_LENGTH = 256
_E_STATE = 0
_E_KIND = 4
_E_PID = 8
_E_START_TICKS = 16
_E_PID_NAMESPACE = 24
_E_RESPONSE_DOORBELL = 32
_E_CLIENT_WAITING = 36
_E_CLIENT_FLAGS = 40
_E_HEARTBEAT = 64
_E_SESSION = 128
_E_FAULT_CODE = 136
_E_FAULT_MESSAGE_LENGTH = 140
_E_FAULT_MESSAGE = 144
_MAX_FAULT_MESSAGE = _ENTRY_LENGTH - _E_FAULT_MESSAGE
FREE, REQUESTED, ACTIVE, CLOSING, FAULTED, RECLAIMING = range(6)
_STATE_NAMES = ["FREE", "REQUESTED", "ACTIVE", "CLOSING", "FAULTED", "RECLAIMING"]
_KIND_PYTHON = 2
# client_flags: this client raises client_waiting before every sleep, without a fence after it; the server changes the
# doorbell before reading the flag (docs/ipc.md, "Wake-ups").
_FLAG_WAITS_WITHOUT_FENCE = 1

# Rings: Agrona's OneToOneRingBuffer (RingBufferDescriptor, RecordDescriptor)
_TRAILER_LENGTH = 768
_TAIL = 128
_HEAD_CACHE = 256
_HEAD = 384
_RECORD_HEADER = 8
_PADDING_TYPE = -1

# Frames
_INFER = 1
_RELEASE = 2
_RESPONSE = 1
_INFER_FIXED = struct.Struct("<qqqqHHHHIHH")     # 48 bytes: ..., flags, sequence_id_length, reserved
_SEQUENCE_ID = struct.Struct("<Q")               # 8 bytes after the fixed part, only with _FLAG_SEQUENCE
_TENSOR_ENTRY = struct.Struct("<HBBiqq")         # 24 bytes, then int64 dims, then the name
_OUTPUT_NAME = struct.Struct("<H6x")             # 8 bytes, then the name
_RESPONSE_FIXED = struct.Struct("<qqiHH")        # 24 bytes, then the message
_RELEASE_FIXED = struct.Struct("<Ii")            # 8 bytes, then (offset, length) pairs
_RELEASE_ENTRY = struct.Struct("<qq")

# Limits (IpcLimits)
MAX_NAME_LENGTH = 128
MAX_ID_LENGTH = 128
MAX_SEQUENCE_ID_LENGTH = 128
# INFER flags (docs/ipc.md): in a sequence (sequence_id follows the fixed part), its start, its end.
_FLAG_SEQUENCE = 1
_FLAG_SEQUENCE_START = 2
_FLAG_SEQUENCE_END = 4
MAX_INPUTS = 32
MAX_OUTPUTS = 32
MAX_RANK = 8
MAX_REQUEST_FRAME_LENGTH = 16384
MAX_RELEASES = 64
TENSOR_ALIGNMENT = 64

STATUS_NAMES = ["OK", "INVALID_ARG", "NOT_FOUND", "UNAVAILABLE", "INTERNAL", "CANCELLED", "UNSUPPORTED",
                "ALREADY_EXISTS", "UNKNOWN"]
STATUS_OK = 0

# Datatype codes are Triton's model_config TYPE_* numbers.
_DATATYPES = {
    1: ("BOOL", np.dtype(np.bool_)), 2: ("UINT8", np.dtype(np.uint8)), 3: ("UINT16", np.dtype(np.uint16)),
    4: ("UINT32", np.dtype(np.uint32)), 5: ("UINT64", np.dtype(np.uint64)), 6: ("INT8", np.dtype(np.int8)),
    7: ("INT16", np.dtype(np.int16)), 8: ("INT32", np.dtype(np.int32)), 9: ("INT64", np.dtype(np.int64)),
    10: ("FP16", np.dtype(np.float16)), 11: ("FP32", np.dtype(np.float32)), 12: ("FP64", np.dtype(np.float64)),
    13: ("BYTES", None), 14: ("BF16", np.dtype(np.uint16)),
}
_CODES = {dtype: code for code, (name, dtype) in _DATATYPES.items() if dtype is not None and name != "BF16"}
_BYTES = 13


# How wait() spends its time before it sleeps (docs/ipc.md, "Limits"): polls back to back for _SPIN_NS, polls and
# yields the processor until _YIELD_NS have passed, then sleeps on its doorbell for at most _MAX_SLEEP_SECONDS at a
# time (the liveness checks run between sleeps).
_SPIN_NS = 5_000
_YIELD_NS = 50_000
_MAX_SLEEP_SECONDS = 5e-3


def _align8(value):
    return (value + 7) & ~7


def _pad8(data):
    return data + b"\0" * (_align8(len(data)) - len(data))


# ---------------------------------------------------------------------------------------------------------- errors

class IngotIpcError(Exception):
    """Base of every error of this module."""


class ServerNotFoundError(IngotIpcError):
    """No server serves the name."""


class ServerGoneError(IngotIpcError):
    """The server closed, died or was replaced; `restarted` is True when a new server serves the name."""

    def __init__(self, message, restarted):
        super().__init__(message)
        self.restarted = restarted


class ClientEvictedError(IngotIpcError):
    """The server stopped serving this client's slot (fault, reclaim)."""


class CapacityError(IngotIpcError):
    """Every client slot is taken, or the slab has no room."""


class IpcTimeoutError(IngotIpcError):
    """The server looked alive but did not answer in time."""


class RegionFormatError(IngotIpcError):
    """The file at the path is not an Ingot region of this layout version."""


class InferError(IngotIpcError):
    """A request the server answered with an error status."""

    def __init__(self, status, message):
        name = STATUS_NAMES[status] if 0 <= status < len(STATUS_NAMES) else "STATUS_%d" % status
        super().__init__("%s: %s" % (name, message))
        self.status = status
        self.status_name = name
        self.message = message


# ---------------------------------------------------------------------------------------------------------- process

def _check_platform():
    machine = platform.machine().lower()
    if machine not in ("x86_64", "amd64") or sys.byteorder != "little":
        raise RuntimeError("ingot_ipc needs an x86-64 (little-endian, TSO) host for its lock-free ring protocol; "
                           "this is %s/%s" % (machine, sys.byteorder))


def _stat_fields(pid):
    """Fields of /proc/<pid>/stat from field 3 (state) on, or None."""
    with open("/proc/%s/stat" % pid, "rb") as f:
        data = f.read().decode("ascii", "replace")
    close = data.rfind(")")
    return data[close + 1:].split() if close >= 0 else None


def _own_identity():
    pid = os.getpid()
    try:
        fields = _stat_fields("self")
        ticks = int(fields[19]) if fields and len(fields) >= 20 else 0
    except (OSError, ValueError):
        ticks = 0
    try:
        namespace = os.stat("/proc/self/ns/pid").st_ino
    except OSError:
        namespace = 0
    return pid, ticks, namespace


def _process_gone(pid, start_ticks, namespace, own_namespace):
    """True when a process recorded in the region is certainly gone (only checkable in our pid namespace)."""
    if pid <= 0 or namespace == 0 or namespace != own_namespace:
        return False
    try:
        fields = _stat_fields(pid)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    if not fields or len(fields) < 20:
        return False
    if fields[0] in ("Z", "X", "x"):
        return True
    try:
        return start_ticks != 0 and int(fields[19]) != start_ticks
    except ValueError:
        return False


def _directory():
    return os.environ.get("INGOT_IPC_DIR") or "/dev/shm"


def _path_of(name):
    if (not isinstance(name, str) or not 1 <= len(name) <= 64 or not name[0].isascii() or not name[0].isalnum()
            or any(not (c.isascii() and (c.isalnum() or c in "._-")) for c in name)):
        raise ValueError("IPC name %r is invalid: use 1 to 64 characters of A-Z a-z 0-9 . _ -, starting with a "
                         "letter or digit" % (name,))
    return os.path.join(_directory(), "ingot-" + name)


# ---------------------------------------------------------------------------------------------------------- memory

class _Memory:
    """The mapped region, with ordered 4- and 8-byte access (see the module docstring)."""

    def __init__(self, mm):
        self.mm = mm
        self.view = memoryview(mm)
        self.i32 = self.view.cast("i")
        self.i64 = self.view.cast("q")
        self.bytes = np.frombuffer(mm, dtype=np.uint8)
        self.base_address = self.bytes.__array_interface__["data"][0]

    def load32(self, offset):
        return self.i32[offset >> 2]

    def store32(self, offset, value):
        self.i32[offset >> 2] = value

    def load64(self, offset):
        return self.i64[offset >> 3]

    def store64(self, offset, value):
        self.i64[offset >> 3] = value

    def release(self):
        self.bytes = None
        for view in (self.i32, self.i64, self.view):
            view.release()
        try:
            self.mm.close()
        except BufferError:
            pass  # the caller still holds numpy views of the region; the mapping goes when they do


def _libatomic():
    """(fence, fetch_add) from GCC's libatomic through ctypes, or (None, None) where it cannot be loaded.

    fence(5) is C11's atomic_thread_fence(memory_order_seq_cst): on x86-64 a locked instruction, which no store or load
    is reordered across, so it is the store-load fence that plain Python lacks. fetch_add(address, 1, 5) is
    __atomic_fetch_add_4: a `lock xadd` on the word, so that concurrent clients never lose each other's increments.
    """
    try:
        library = ctypes.CDLL("libatomic.so.1")
        fence = library.atomic_thread_fence
        fetch_add = library.__atomic_fetch_add_4
    except (OSError, AttributeError):
        return None, None
    fence.argtypes = [ctypes.c_int]
    fence.restype = None
    fetch_add.argtypes = [ctypes.c_void_p, ctypes.c_int32, ctypes.c_int]
    fetch_add.restype = ctypes.c_int32
    return fence, fetch_add


_SEQ_CST = 5  # C11 memory_order_seq_cst


class _Futex:
    """futex(2) on an int32 of the mapping through libc's syscall(3) (x86-64: syscall number 202), and ringing."""

    _SYS_FUTEX = 202
    _WAIT = 0
    _WAKE = 1

    def __init__(self, memory):
        self.m = memory
        try:
            self._syscall = ctypes.CDLL(None, use_errno=True).syscall
            self._syscall.restype = ctypes.c_long
        except (OSError, AttributeError):
            self._syscall = None
        self._fence, self._fetch_add = _libatomic()
        self.rings = 0          # system calls made to wake the other side
        self.rings_skipped = 0  # frames after which the other side was known to be awake

    @property
    def fenced(self):
        """Whether this client can fence, and so skip waking a server that is awake."""
        return self._fence is not None

    def ring(self, doorbell, waiting):
        """Wakes the waiter of `doorbell` if it may be asleep; call after publishing a frame. True if it rang.

        The waiter raises its `waiting` flag, fences, and looks at its rings once more before it sleeps; here the frame
        was published (a store), so a fence and then a load of the flag make the other half of that pair: either the
        waiter sees the frame, or this sees the flag and wakes it. Without a fence the load could be performed before
        the frame's store is visible (the one reordering x86-64 allows), so the client then rings after every frame.
        """
        if self._fence is not None:
            self._fence(_SEQ_CST)
            if self.m.load32(waiting) == 0:
                self.rings_skipped += 1
                return False
        self.bump_and_wake(doorbell)
        return True

    def bump_and_wake(self, offset):
        """Changes the word and wakes every sleeper on it."""
        m = self.m
        if self._fetch_add is not None:
            self._fetch_add(m.base_address + offset, 1, _SEQ_CST)
        else:
            # A plain store: concurrent clients may lose each other's increments; any change is enough unless two
            # clients store the same value across a waiter's read, which only costs that waiter its timeout.
            m.store32(offset, ((m.load32(offset) + 1 + 2 ** 31) % 2 ** 32) - 2 ** 31)
        self.rings += 1
        if self._syscall is not None:
            self._futex(offset, self._WAKE, 2 ** 31 - 1, 0)

    def wait(self, offset, seen, seconds):
        """Sleeps while the word holds `seen`, at most `seconds`; may return early. Returns True when a wake ended the
        sleep (FUTEX_WAIT returned 0), False after its timeout, a changed word or a signal."""
        if self._syscall is None:
            time.sleep(min(seconds, 50e-6))
            return False
        whole = int(seconds)
        timeout = (ctypes.c_long * 2)(whole, int((seconds - whole) * 1e9))
        return self._futex(offset, self._WAIT, seen, ctypes.addressof(timeout)) == 0

    def _futex(self, offset, operation, value, timeout_address):
        return self._syscall(ctypes.c_long(self._SYS_FUTEX), ctypes.c_long(self.m.base_address + offset),
                      ctypes.c_long(operation), ctypes.c_long(value), ctypes.c_long(timeout_address))


class _RingWriter:
    """Producer of a one-to-one ring in Agrona's format (docs/ipc.md, "Rings")."""

    def __init__(self, memory, offset, capacity):
        self.m = memory
        self.base = offset
        self.capacity = capacity
        self.tail = offset + capacity + _TAIL
        self.head_cache = offset + capacity + _HEAD_CACHE
        self.head = offset + capacity + _HEAD
        self.max_message = capacity >> 3

    def try_claim(self, msg_type, length):
        """Claims room for a record; returns the file offset of its body, or None when the ring is full."""
        m = self.m
        record_length = length + _RECORD_HEADER
        aligned = _align8(record_length)
        required = aligned + _RECORD_HEADER
        capacity = self.capacity
        mask = capacity - 1
        head = m.load64(self.head_cache)
        tail = m.load64(self.tail)
        if required > capacity - (tail - head):
            head = m.load64(self.head)
            if required > capacity - (tail - head):
                return None
            m.store64(self.head_cache, head)
        record_index = tail & mask
        to_end = capacity - record_index
        if aligned == to_end:
            m.store64(self.tail, tail + aligned)
            m.store64(self.base, 0)
            write_index = record_index
        else:
            write_index = record_index
            next_tail = tail + aligned
            padding = 0
            if required > to_end:
                write_index = 0
                head_at = head & mask
                if required > head_at:
                    head = m.load64(self.head)
                    head_at = head & mask
                    if required > head_at:
                        write_index = None
                        next_tail = tail
                    m.store64(self.head_cache, head)
                padding = to_end
                next_tail += padding
            m.store64(self.tail, next_tail)
            if padding:
                m.store64(self.base, 0)
                m.store32(self.base + record_index + 4, _PADDING_TYPE)
                m.store32(self.base + record_index, padding)
            if write_index is None:
                return None
            m.store64(self.base + write_index + aligned, 0)
        m.store32(self.base + write_index, -record_length)
        m.store32(self.base + write_index + 4, msg_type)
        return self.base + write_index + _RECORD_HEADER

    def commit(self, body_offset):
        """Publishes a claimed record: the length is stored last."""
        record = body_offset - _RECORD_HEADER
        self.m.store32(record, -self.m.load32(record))

    def write(self, msg_type, body):
        offset = self.try_claim(msg_type, len(body))
        if offset is None:
            return False
        self.m.mm[offset:offset + len(body)] = body
        self.commit(offset)
        return True


class _RingReader:
    """Consumer of a one-to-one ring in Agrona's format."""

    def __init__(self, memory, offset, capacity):
        self.m = memory
        self.base = offset
        self.capacity = capacity
        self.head = offset + capacity + _HEAD

    def read(self, handler, limit):
        m = self.m
        head = m.load64(self.head)
        head_at = head & (self.capacity - 1)
        contiguous = self.capacity - head_at
        consumed = 0
        records = 0
        try:
            while consumed < contiguous and records < limit:
                record = self.base + head_at + consumed
                length = m.load32(record)
                if length <= 0:
                    break
                if length < _RECORD_HEADER or _align8(length) > contiguous - consumed:
                    raise IngotIpcError("the response ring holds a record of length %d at index %d: corrupt"
                                        % (length, head_at + consumed))
                consumed += _align8(length)
                msg_type = m.load32(record + 4)
                if msg_type == _PADDING_TYPE:
                    continue
                records += 1
                handler(msg_type, record + _RECORD_HEADER, length - _RECORD_HEADER)
        finally:
            if consumed:
                m.store64(self.head, head + consumed)
        return records

    def has_record(self):
        """Whether a published record (or padding) waits at the head."""
        head = self.m.load64(self.head)
        return self.m.load32(self.base + (head & (self.capacity - 1))) > 0


class _Allocator:
    """First-fit allocator of the input area, 64-byte granularity (only this process allocates there)."""

    def __init__(self, base, length):
        self.base = base
        self.length = length
        self.free_runs = [(base, length)]
        self.live = {}

    def allocate(self, nbytes):
        size = max(TENSOR_ALIGNMENT, (nbytes + TENSOR_ALIGNMENT - 1) // TENSOR_ALIGNMENT * TENSOR_ALIGNMENT)
        for i, (start, run) in enumerate(self.free_runs):
            if run >= size:
                if run == size:
                    del self.free_runs[i]
                else:
                    self.free_runs[i] = (start + size, run - size)
                self.live[start] = size
                return start
        return None

    def free(self, offset):
        size = self.live.pop(offset, None)
        if size is None:
            return False
        runs = self.free_runs
        runs.append((offset, size))
        runs.sort()
        merged = [runs[0]]
        for start, run in runs[1:]:
            last_start, last_run = merged[-1]
            if last_start + last_run == start:
                merged[-1] = (last_start, last_run + run)
            else:
                merged.append((start, run))
        self.free_runs = merged
        return True

    def free_bytes(self):
        return sum(run for _, run in self.free_runs)


# ---------------------------------------------------------------------------------------------------------- client

class Response:
    """The response to one request: status, message, and outputs as numpy views of this client's output area.

    The outputs stay valid until release() (or the end of a `with` block), which gives their space back to the
    server.
    """

    def __init__(self, client, correlation_id, model_version, status, message, outputs, releases):
        self._client = client
        self.correlation_id = correlation_id
        self.model_version = model_version
        self.status = status
        self.message = message
        self.outputs = outputs
        self._releases = releases
        self._released = False

    @property
    def ok(self):
        return self.status == STATUS_OK

    @property
    def status_name(self):
        return STATUS_NAMES[self.status] if 0 <= self.status < len(STATUS_NAMES) else "STATUS_%d" % self.status

    def raise_for_status(self):
        """Raises InferError unless the request succeeded; returns self otherwise."""
        if not self.ok:
            raise InferError(self.status, self.message)
        return self

    def __getitem__(self, name):
        if self._released:
            raise IngotIpcError("response %d was released; its outputs are gone" % self.correlation_id)
        return self.outputs[name]

    def release(self):
        """Gives the outputs' space back to the server. Idempotent."""
        if not self._released:
            self._released = True
            self.outputs = {}
            if self._releases:
                self._client._release(self._releases)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.release()

    def __repr__(self):
        if self.ok:
            return "Response(id=%d, outputs=%s)" % (self.correlation_id, sorted(self.outputs))
        return "Response(id=%d, %s: %s)" % (self.correlation_id, self.status_name, self.message)


class IpcClient:
    """A connection to an Ingot IPC server through /dev/shm/ingot-NAME: one client slot with its rings and slab."""

    def __init__(self, name, memory, fd, slot, layout, identity):
        self.name = name
        self._m = memory
        self._fd = fd
        self.slot = slot
        self._layout = layout
        self._identity = identity
        self._entry = layout["client_table"] + slot * _ENTRY_LENGTH
        self.generation = memory.load64(_H_GENERATION)
        self._server_pid = memory.load64(_H_SERVER_PID)
        self._server_ticks = memory.load64(_H_SERVER_START_TICKS)
        self._server_namespace = memory.load64(_H_SERVER_PID_NAMESPACE)
        self._session = None
        self._next_id = 1
        self._early = {}
        self._temporaries = {}
        self._gone = None
        self._last_beat = -1
        self._last_beat_change = time.monotonic()
        self._next_probe = 0.0
        self._closed = False
        self._heartbeat_stop = threading.Event()
        self._heartbeat = None
        self._futex = _Futex(memory)
        self.sleeps = 0              # times wait() slept on the response doorbell
        self.doorbell_wake_ups = 0   # of those, the ones the server's ring ended before their timeout

    @property
    def server_rings(self):
        """System calls this client made to wake the server's IPC thread."""
        return self._futex.rings

    @property
    def server_rings_skipped(self):
        """Frames after which the server's IPC thread was awake, so that no system call was needed."""
        return self._futex.rings_skipped

    @property
    def fenced(self):
        """Whether the client wakes the server only when it may be asleep (libatomic's fence is available)."""
        return self._futex.fenced

    # ------------------------------------------------------------------ connect

    @classmethod
    def connect(cls, name, timeout=5.0):
        """Maps the server's region, takes a free slot and waits until the server activates it."""
        _check_platform()
        path = _path_of(name)
        try:
            fd = os.open(path, os.O_RDWR | os.O_NOFOLLOW)
        except FileNotFoundError:
            raise ServerNotFoundError("no Ingot IPC server named %r: %s does not exist; start one with "
                                      "`ingot serve --ipc %s`" % (name, path, name)) from None
        except PermissionError:
            raise IngotIpcError("cannot open %s: permission denied; the region is private (mode 0600) to the user "
                                "who runs the server" % path) from None
        try:
            size = os.fstat(fd).st_size
            if size < HEADER_LENGTH:
                raise RegionFormatError("%s is %d bytes: not an Ingot IPC region" % (path, size))
            mm = mmap.mmap(fd, size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
        except BaseException:
            os.close(fd)
            raise
        memory = _Memory(mm)
        try:
            layout = _read_layout(memory, size, path)
            if memory.load32(_H_SERVER_STATE) == _SERVER_CLOSED:
                raise ServerGoneError("the Ingot IPC server %r has closed" % name, False)
            client = cls(name, memory, fd, _register(memory, fd, layout, name), layout, _own_identity())
        except BaseException:
            memory.release()
            os.close(fd)
            raise
        try:
            client._await_activation(timeout)
        except BaseException:
            client._abandon()
            raise
        return client

    def _await_activation(self, timeout):
        m = self._m
        deadline = time.monotonic() + timeout
        pause = 50e-6
        while True:
            state = m.load32(self._entry + _E_STATE)
            if state == ACTIVE:
                break
            if state != REQUESTED:
                raise ClientEvictedError("client slot %d of %r went to %s while registering"
                                         % (self.slot, self.name, _state_name(state)))
            self._check_server()
            if time.monotonic() > deadline:
                m.store32(self._entry + _E_STATE, CLOSING)
                raise IpcTimeoutError("the Ingot IPC server %r did not accept client slot %d within %.1f s"
                                      % (self.name, self.slot, timeout))
            time.sleep(pause)
            pause = min(pause * 2, 5e-3)
        layout = self._layout
        self._session = m.load64(self._entry + _E_SESSION)
        rings = layout["rings_offset"] + self.slot * layout["rings_stride"]
        request_capacity = layout["request_ring_capacity"]
        self._requests = _RingWriter(m, rings, request_capacity)
        response_offset = rings + _align_page(request_capacity + _TRAILER_LENGTH)
        self._responses = _RingReader(m, response_offset, layout["response_ring_capacity"])
        self._slab = layout["data_offset"] + self.slot * layout["slab_length"]
        self._inputs = _Allocator(self._slab, layout["slab_input_length"])
        self._output_start = self._slab + layout["slab_input_length"]
        self._output_end = self._slab + layout["slab_length"]
        interval = layout["heartbeat_interval_ms"] / 1000.0
        self._heartbeat = threading.Thread(target=self._beat, args=(interval,), daemon=True,
                                           name="ingot-ipc-heartbeat-%d" % self.slot)
        self._heartbeat.start()

    def _beat(self, interval):
        m = self._m
        beat = 0
        while not self._heartbeat_stop.wait(interval):
            try:
                if m.load32(self._entry + _E_STATE) == ACTIVE and m.load64(self._entry + _E_SESSION) == self._session:
                    beat += 1
                    m.store64(self._entry + _E_HEARTBEAT, beat)
            except (ValueError, TypeError):
                return  # the mapping was released by close()

    # ------------------------------------------------------------------ tensors

    def empty(self, shape, dtype=np.float32):
        """Allocates an uninitialised numpy array in this client's input area (64-byte aligned)."""
        self._check_usable()
        dtype = np.dtype(dtype)
        if dtype not in _CODES:
            raise TypeError("numpy dtype %s has no Ingot datatype; use one of %s"
                            % (dtype, sorted(str(d) for d in _CODES)))
        shape = tuple(int(d) for d in (shape if isinstance(shape, (tuple, list)) else (shape,)))
        if len(shape) > MAX_RANK or any(d < 0 for d in shape):
            raise ValueError("shape %s: rank must be at most %d and every dimension >= 0" % (shape, MAX_RANK))
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        offset = self._inputs.allocate(nbytes)
        if offset is None:
            raise CapacityError("no room for a %d-byte tensor in the input area of client slot %d (%d of %d bytes "
                                "free): free arrays you no longer need" % (nbytes, self.slot,
                                                                          self._inputs.free_bytes(),
                                                                          self._inputs.length))
        return self._m.bytes[offset:offset + nbytes].view(dtype).reshape(shape)

    def free(self, array):
        """Returns the space of an array from empty() to the input area."""
        offset = self._offset_of(array)
        if offset is None or not self._inputs.free(offset):
            raise ValueError("that array was not allocated by this client's empty(), or is already freed")

    def free_input_bytes(self):
        return self._inputs.free_bytes()

    def _offset_of(self, array):
        if not isinstance(array, np.ndarray) or self._m.bytes is None:
            return None
        offset = array.__array_interface__["data"][0] - self._m.base_address
        if self._slab <= offset < self._output_start and offset + array.nbytes <= self._output_start:
            return offset
        return None

    # ------------------------------------------------------------------ requests

    def submit(self, model, inputs, outputs=None, version=-1, priority=0, timeout_us=0, request_id="",
               timeout=5.0, sequence_id=None, sequence_start=False, sequence_end=False):
        """Writes an INFER frame; returns its correlation id.

        inputs: {name: numpy array}. Arrays from empty() are read in place; any other array (or a list of bytes /
        an object array for BYTES) is copied into the input area once and freed when its response arrives.
        outputs: names of the outputs wanted (None: all). Waits up to `timeout` s for room in the request ring.
        sequence_id, sequence_start, sequence_end: Triton's sequence parameters, for a model with sequence_batching;
        the ID is an int in 0..2**64-1 or a non-empty str (up to 128 bytes of UTF-8); None: not in a sequence.
        """
        self._check_usable()
        self._check_server()
        model_bytes = _bounded("model name", model, 1, MAX_NAME_LENGTH)
        id_bytes = _bounded("request id", request_id or "", 0, MAX_ID_LENGTH)
        sequence = _sequence_fields(sequence_id, sequence_start, sequence_end)
        if len(inputs) > MAX_INPUTS or len(outputs or ()) > MAX_OUTPUTS:
            raise ValueError("at most %d inputs and %d outputs per request" % (MAX_INPUTS, MAX_OUTPUTS))
        if version < -1 or priority < 0 or timeout_us < 0:
            raise ValueError("version must be -1 or >= 0, priority and timeout_us >= 0")
        temporaries = []
        entries = []
        try:
            for name, value in inputs.items():
                entries.append(self._input_entry(name, value, temporaries))
            body = _encode_infer(self._next_id, model_bytes, id_bytes, version, priority, timeout_us, entries,
                                 [_bounded("output name", n, 1, MAX_NAME_LENGTH) for n in (outputs or ())],
                                 sequence)
            if len(body) > MAX_REQUEST_FRAME_LENGTH:
                raise ValueError("the request encodes to %d bytes; the limit is %d"
                                 % (len(body), MAX_REQUEST_FRAME_LENGTH))
            self._write(_INFER, body, timeout, "request for model %r" % model)
        except BaseException:
            for offset in temporaries:
                self._inputs.free(offset)
            raise
        correlation_id = self._next_id
        self._next_id += 1
        if temporaries:
            self._temporaries[correlation_id] = temporaries
        return correlation_id

    def _input_entry(self, name, value, temporaries):
        name_bytes = _bounded("input name", name, 1, MAX_NAME_LENGTH)
        if not isinstance(value, np.ndarray):
            value = np.asarray(value, dtype=object if _is_text(value) else None)
        if value.dtype.kind in "biuf" and value.dtype not in _CODES:
            value = value.astype(value.dtype.newbyteorder("<"))  # the frame format is little-endian
        if value.dtype in _CODES:
            offset = self._offset_of(value) if value.flags["C_CONTIGUOUS"] else None
            if offset is None:
                array = np.ascontiguousarray(value)
                offset = self._temporary(array.nbytes, temporaries)
                self._m.bytes[offset:offset + array.nbytes] = array.reshape(-1).view(np.uint8)
                value = array
            if value.ndim > MAX_RANK:
                raise ValueError("input %r has rank %d; at most %d" % (name, value.ndim, MAX_RANK))
            return name_bytes, _CODES[value.dtype], value.shape, offset, value.nbytes
        if value.dtype.kind not in "OSU":
            raise TypeError("input %r has numpy dtype %s, which has no Ingot datatype" % (name, value.dtype))
        # BYTES: an object, bytes or str array (or a list of bytes/str)
        array = value.astype(object)
        encoded = bytearray()
        for element in array.reshape(-1):
            data = element.encode("utf-8") if isinstance(element, str) else bytes(element)
            encoded += struct.pack("<I", len(data)) + data
        offset = self._temporary(len(encoded), temporaries)
        self._m.mm[offset:offset + len(encoded)] = bytes(encoded)
        return name_bytes, _BYTES, array.shape, offset, len(encoded)

    def _temporary(self, nbytes, temporaries):
        offset = self._inputs.allocate(nbytes)
        if offset is None:
            raise CapacityError("no room to copy a %d-byte input into the input area of client slot %d (%d bytes "
                                "free)" % (nbytes, self.slot, self._inputs.free_bytes()))
        temporaries.append(offset)
        return offset

    def _write(self, msg_type, body, timeout, what):
        deadline = None
        pause = 0.0
        while not self._requests.write(msg_type, body):
            now = time.monotonic()
            deadline = deadline or now + timeout
            self._check_server()
            if now > deadline:
                raise IpcTimeoutError("the request ring of client slot %d stayed full for %.1f s writing a %s: read "
                                      "your responses, or the server is not keeping up" % (self.slot, timeout, what))
            time.sleep(pause)
            pause = min(max(pause * 2, 20e-6), 1e-3)
        # A system call only when the IPC thread may be asleep (when this client can fence: see _Futex.ring).
        self._futex.ring(_H_REQUEST_DOORBELL, _H_SERVER_WAITING)

    # ------------------------------------------------------------------ responses

    def poll(self):
        """Returns the next response that has arrived (also one wait() skipped), or None."""
        self._check_usable()
        if self._early:
            return self._early.pop(next(iter(self._early)))
        found = []
        self._responses.read(lambda t, o, n: found.append(self._decode(t, o, n)), 1)
        if found:
            return found[0]
        self._check_server()
        self._check_slot()
        return None

    def wait(self, correlation_id, timeout=30.0):
        """Waits for the response to one request; others that arrive meanwhile are kept for poll()/wait()."""
        self._check_usable()
        deadline = time.monotonic() + timeout
        began = time.perf_counter_ns()
        while True:
            response = self._early.pop(correlation_id, None)
            if response is not None:
                return response
            found = []
            if self._responses.read(lambda t, o, n: found.append(self._decode(t, o, n)), 1):
                response = found[0]
                if response.correlation_id == correlation_id:
                    return response
                self._early[response.correlation_id] = response
                continue
            self._check_server()
            self._check_slot()
            if time.monotonic() > deadline:
                raise IpcTimeoutError("no response to request %d from the Ingot IPC server %r within %.1f s"
                                      % (correlation_id, self.name, timeout))
            self._await_record(began, deadline)

    def _await_record(self, began, deadline):
        """Returns when a record may wait on the response ring, or after at most 5 ms (for the liveness checks).

        Spins, then yields, then sleeps (docs/ipc.md, "Wake-ups"), the phases timed from `began` (perf_counter_ns),
        when the wait began. A response that comes within the first 50 us (the usual case) is found by polling, with
        no system call on either side; the server's thread that writes it may share this core, so after the first few
        microseconds each poll yields the processor to it. Only then does the client raise client_waiting and sleep
        with FUTEX_WAIT, which the server's wake ends.
        """
        responses = self._responses
        clock = time.perf_counter_ns
        while clock() - began < _SPIN_NS:
            if responses.has_record():
                return
        while clock() - began < _YIELD_NS:
            os.sched_yield()
            if responses.has_record():
                return
        m = self._m
        doorbell = self._entry + _E_RESPONSE_DOORBELL
        waiting = self._entry + _E_CLIENT_WAITING
        # The order is the protocol (docs/ipc.md, "Wake-ups"; this client registered _FLAG_WAITS_WITHOUT_FENCE): read
        # the doorbell before the last look, so a response published after that look changes it from `seen`; raise
        # the flag before FUTEX_WAIT, whose full barrier in the kernel precedes its comparison with `seen`. The server
        # changes the doorbell before it reads the flag, so either the kernel sees the change and the wait returns at
        # once, or the server sees the flag and wakes this sleep. No fence is needed here.
        seen = m.load32(doorbell)
        m.store32(waiting, 1)
        try:
            if responses.has_record():
                return
            seconds = min(_MAX_SLEEP_SECONDS, max(deadline - time.monotonic(), 1e-6))
            self.sleeps += 1
            # Counted by the kernel's answer, not by the clock: on a loaded machine a woken thread may run only after
            # the sleep's timeout would have passed, which a clock would take for a timeout.
            if self._futex.wait(doorbell, seen, seconds) and m.load32(doorbell) != seen:
                self.doorbell_wake_ups += 1
        finally:
            m.store32(waiting, 0)

    def infer(self, model, inputs, outputs=None, timeout=30.0, **options):
        """submit() then wait(); raises InferError when the server answers with an error."""
        return self.wait(self.submit(model, inputs, outputs, **options), timeout).raise_for_status()

    def _decode(self, msg_type, offset, length):
        mm = self._m.mm
        if msg_type != _RESPONSE or length < _RESPONSE_FIXED.size:
            raise IngotIpcError("the server sent a record of type %d and %d bytes on the response ring of client "
                                "slot %d; this client speaks layout version %d" % (msg_type, length, self.slot,
                                                                                  LAYOUT_VERSION))
        correlation_id, version, status, message_length, count = _RESPONSE_FIXED.unpack_from(mm, offset)
        cursor = offset + _RESPONSE_FIXED.size
        message = bytes(mm[cursor:cursor + message_length]).decode("utf-8", "replace")
        cursor += _align8(message_length)
        outputs = {}
        releases = []
        for _ in range(count):
            name_length, code, rank, _reserved, tensor_offset, tensor_length = _TENSOR_ENTRY.unpack_from(mm, cursor)
            shape = struct.unpack_from("<%dq" % rank, mm, cursor + _TENSOR_ENTRY.size)
            name_at = cursor + _TENSOR_ENTRY.size + 8 * rank
            name = bytes(mm[name_at:name_at + name_length]).decode("utf-8", "replace")
            cursor = name_at + _align8(name_length)
            if not (self._output_start <= tensor_offset and tensor_offset + tensor_length <= self._output_end):
                raise IngotIpcError("the server described output %r of response %d outside the output area of "
                                    "client slot %d" % (name, correlation_id, self.slot))
            outputs[name] = self._output_array(code, shape, tensor_offset, tensor_length)
            releases.append((tensor_offset, tensor_length))
        for temporary in self._temporaries.pop(correlation_id, ()):
            self._inputs.free(temporary)
        return Response(self, correlation_id, version, status, message, outputs, releases)

    def _output_array(self, code, shape, offset, length):
        if code == _BYTES:
            elements = []
            data = self._m.mm
            position = offset
            end = offset + length
            while position + 4 <= end:
                (size,) = struct.unpack_from("<I", data, position)
                elements.append(bytes(data[position + 4:position + 4 + size]))
                position += 4 + size
            return np.array(elements, dtype=object).reshape(shape)
        _, dtype = _DATATYPES.get(code, ("UNKNOWN", np.dtype(np.uint8)))
        return self._m.bytes[offset:offset + length].view(dtype).reshape(shape)

    def _release(self, releases):
        if self._closed or self._gone is not None:
            return
        for first in range(0, len(releases), MAX_RELEASES):
            chunk = releases[first:first + MAX_RELEASES]
            body = _RELEASE_FIXED.pack(len(chunk), 0) + b"".join(_RELEASE_ENTRY.pack(o, n) for o, n in chunk)
            self._write(_RELEASE, body, 5.0, "release")

    # ------------------------------------------------------------------ liveness

    def _check_usable(self):
        if self._closed:
            raise IngotIpcError("IPC client of %r (slot %d) is closed" % (self.name, self.slot))
        if self._session is not None:
            self._check_slot()

    def _check_slot(self):
        m = self._m
        state = m.load32(self._entry + _E_STATE)
        if state == ACTIVE and m.load64(self._entry + _E_SESSION) == self._session:
            return
        if state == FAULTED:
            length = min(max(m.load32(self._entry + _E_FAULT_MESSAGE_LENGTH), 0), _MAX_FAULT_MESSAGE)
            start = self._entry + _E_FAULT_MESSAGE
            raise ClientEvictedError("the Ingot IPC server %r stopped serving client slot %d: %s" % (
                self.name, self.slot, bytes(m.mm[start:start + length]).decode("utf-8", "replace")))
        raise ClientEvictedError("client slot %d of the Ingot IPC server %r is no longer this client's (state %s): "
                                 "the server reclaimed it; connect again" % (self.slot, self.name,
                                                                           _state_name(state)))

    def _check_server(self):
        if self._gone is not None:
            raise self._gone_error(self._gone)
        m = self._m
        if m.load32(_H_SERVER_STATE) == _SERVER_CLOSED:
            raise self._gone_error("has closed")
        now = time.monotonic()
        beat = m.load64(_H_SERVER_HEARTBEAT)
        if beat != self._last_beat:
            self._last_beat = beat
            self._last_beat_change = now
        elif now - self._last_beat_change > self._layout["liveness_timeout_ms"] / 1000.0:
            raise self._gone_error("stopped responding: its heartbeat has not moved for %d ms"
                                   % self._layout["liveness_timeout_ms"])
        if now >= self._next_probe:
            self._next_probe = now + self._layout["heartbeat_interval_ms"] / 1000.0
            if _process_gone(self._server_pid, self._server_ticks, self._server_namespace, self._identity[2]):
                raise self._gone_error("is gone: its process %d no longer runs" % self._server_pid)

    def _gone_error(self, what):
        self._gone = what
        replacement = _replacement_generation(_path_of(self.name), self._fd)
        if replacement:
            return ServerGoneError("the Ingot IPC server %r restarted (generation %d -> %d): this connection is "
                                   "gone; connect again" % (self.name, self.generation, replacement), True)
        return ServerGoneError("the Ingot IPC server %r (generation %d, pid %d) %s"
                               % (self.name, self.generation, self._server_pid, what), False)

    # ------------------------------------------------------------------ close

    def close(self):
        """Leaves the slot (responses in flight are dropped) and unmaps the region. Idempotent."""
        if self._closed:
            return
        self._closed = True
        self._abandon()

    def _abandon(self):
        self._closed = True
        self._heartbeat_stop.set()
        if self._heartbeat is not None:
            self._heartbeat.join()
        m = self._m
        state = m.load32(self._entry + _E_STATE)
        if state in (ACTIVE, FAULTED, REQUESTED) and (self._session is None
                                                     or m.load64(self._entry + _E_SESSION) == self._session):
            m.store32(self._entry + _E_STATE, CLOSING)
        m.release()
        os.close(self._fd)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return "IpcClient(name=%r, slot=%d, generation=%d)" % (self.name, self.slot, self.generation)


# ---------------------------------------------------------------------------------------------------------- helpers

def _is_text(value):
    """True for a (nested) list whose first leaf is bytes or str: a BYTES tensor."""
    while isinstance(value, (list, tuple)) and value:
        value = value[0]
    return isinstance(value, (bytes, bytearray, str))


def _align_page(value):
    return (value + 4095) & ~4095


def _state_name(state):
    return _STATE_NAMES[state] if 0 <= state < len(_STATE_NAMES) else "STATE_%d" % state


def _bounded(what, text, low, high):
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    if not low <= len(data) <= high:
        raise ValueError("%s %r is %d bytes of UTF-8; it must be %d..%d bytes" % (what, text, len(data), low, high))
    return data


def _read_layout(memory, size, path):
    mm = memory.mm
    magic, version = struct.unpack_from("<qi", mm, 0)
    if magic != MAGIC:
        raise RegionFormatError("%s is not an Ingot IPC region: magic is %#x, expected %#x (\"INGOTIPC\")"
                                % (path, magic & (2 ** 64 - 1), MAGIC))
    if version != LAYOUT_VERSION:
        raise RegionFormatError("%s has IPC layout version %d; this client speaks version %d: use a client and "
                                "server of the same Ingot release" % (path, version, LAYOUT_VERSION))
    layout = {
        "file_length": memory.load64(_H_FILE_LENGTH),
        "max_clients": memory.load32(_H_MAX_CLIENTS),
        "entry_length": memory.load32(_H_ENTRY_LENGTH),
        "client_table": memory.load64(_H_CLIENT_TABLE),
        "request_ring_capacity": memory.load32(_H_REQUEST_RING_CAPACITY),
        "response_ring_capacity": memory.load32(_H_RESPONSE_RING_CAPACITY),
        "rings_offset": memory.load64(_H_RINGS_OFFSET),
        "rings_stride": memory.load64(_H_RINGS_STRIDE),
        "data_offset": memory.load64(_H_DATA_OFFSET),
        "slab_length": memory.load64(_H_SLAB_LENGTH),
        "slab_input_length": memory.load64(_H_SLAB_INPUT_LENGTH),
        "max_in_flight": memory.load32(_H_MAX_IN_FLIGHT),
        "max_frame_length": memory.load32(_H_MAX_FRAME_LENGTH),
        "heartbeat_interval_ms": memory.load64(_H_HEARTBEAT_INTERVAL),
        "liveness_timeout_ms": memory.load64(_H_LIVENESS_TIMEOUT),
    }
    if layout["file_length"] != size:
        raise RegionFormatError("%s is %d bytes but its header describes %d bytes" % (path, size,
                                                                                   layout["file_length"]))
    if layout["entry_length"] != _ENTRY_LENGTH or layout["max_frame_length"] != MAX_REQUEST_FRAME_LENGTH:
        raise RegionFormatError("%s has an inconsistent header (entry length %d, frame limit %d)"
                                % (path, layout["entry_length"], layout["max_frame_length"]))
    stride = _align_page(layout["request_ring_capacity"] + _TRAILER_LENGTH) + _align_page(
        layout["response_ring_capacity"] + _TRAILER_LENGTH)
    end = layout["data_offset"] + layout["max_clients"] * layout["slab_length"]
    if (layout["rings_stride"] != stride or end != size or layout["max_clients"] < 1
            or layout["rings_offset"] + layout["max_clients"] * stride != layout["data_offset"]):
        raise RegionFormatError("%s has an inconsistent header: its offsets do not match its sizes" % path)
    return layout


def _register(memory, fd, layout, name):
    """Takes the first FREE entry under the registration lock (a POSIX record lock, as the Java client takes)."""
    fcntl.lockf(fd, fcntl.LOCK_EX, 1, _REGISTRATION_LOCK_OFFSET, os.SEEK_SET)
    try:
        pid, ticks, namespace = _own_identity()
        for slot in range(layout["max_clients"]):
            entry = layout["client_table"] + slot * _ENTRY_LENGTH
            if memory.load32(entry + _E_STATE) == FREE:
                memory.store32(entry + _E_KIND, _KIND_PYTHON)
                memory.store64(entry + _E_PID, pid)
                memory.store64(entry + _E_START_TICKS, ticks)
                memory.store64(entry + _E_PID_NAMESPACE, namespace)
                memory.store32(entry + _E_CLIENT_WAITING, 0)
                memory.store32(entry + _E_CLIENT_FLAGS, _FLAG_WAITS_WITHOUT_FENCE)
                memory.store64(entry + _E_HEARTBEAT, 0)
                memory.store32(entry + _E_STATE, REQUESTED)  # last: publishes the fields above
                return slot
        raise CapacityError("all %d client slots of the Ingot IPC server %r are in use; close other clients or "
                            "start the server with more clients" % (layout["max_clients"], name))
    finally:
        fcntl.lockf(fd, fcntl.LOCK_UN, 1, _REGISTRATION_LOCK_OFFSET, os.SEEK_SET)


def _replacement_generation(path, fd):
    """Generation of a running region now at the path that is not our file, else 0."""
    try:
        ours = os.fstat(fd)
        other = os.stat(path, follow_symlinks=False)
    except OSError:
        return 0
    if (ours.st_dev, ours.st_ino) == (other.st_dev, other.st_ino) or other.st_size < HEADER_LENGTH:
        return 0
    try:
        with open(path, "rb") as f:
            header = f.read(HEADER_LENGTH)
    except OSError:
        return 0
    magic, = struct.unpack_from("<q", header, 0)
    generation, = struct.unpack_from("<q", header, _H_GENERATION)
    state, = struct.unpack_from("<i", header, _H_SERVER_STATE)
    return generation if magic == MAGIC and state == _SERVER_RUNNING else 0


def _sequence_fields(sequence_id, start, end):
    """(flags, numeric id, string id bytes) of an INFER frame; (0, 0, b"") outside any sequence."""
    if sequence_id is None:
        if start or end:
            raise ValueError("sequence_start and sequence_end need a sequence_id")
        return 0, 0, b""
    flags = _FLAG_SEQUENCE | (_FLAG_SEQUENCE_START if start else 0) | (_FLAG_SEQUENCE_END if end else 0)
    if isinstance(sequence_id, str):
        return flags, 0, _bounded("sequence id", sequence_id, 1, MAX_SEQUENCE_ID_LENGTH)
    if isinstance(sequence_id, bool) or not isinstance(sequence_id, int) or not 0 <= sequence_id < 1 << 64:
        raise ValueError("sequence_id must be an int in 0..2**64-1 or a str, was %r" % (sequence_id,))
    return flags, sequence_id, b""


def _encode_infer(correlation_id, model, request_id, version, priority, timeout_us, inputs, outputs,
                  sequence=(0, 0, b"")):
    flags, sequence_id, sequence_key = sequence
    parts = [_INFER_FIXED.pack(correlation_id, version, priority, timeout_us, len(model), len(request_id),
                               len(inputs), len(outputs), flags, len(sequence_key), 0)]
    if flags & _FLAG_SEQUENCE:
        parts.append(_SEQUENCE_ID.pack(sequence_id))
    parts.append(_pad8(model + request_id + sequence_key))
    for name, code, shape, offset, length in inputs:
        parts.append(_TENSOR_ENTRY.pack(len(name), code, len(shape), 0, offset, length))
        parts.append(struct.pack("<%dq" % len(shape), *shape))
        parts.append(_pad8(name))
    for name in outputs:
        parts.append(_OUTPUT_NAME.pack(len(name)))
        parts.append(_pad8(name))
    return b"".join(parts)
