"""The stub's side of the link to the server (python/README.md, "Protocol"): the instance's shared-memory region, the
record framing, the inbox through which any thread of the model waits for what the server sends it, and the tensor
codec (numpy arrays over shared memory in, tensor entries out).

Threads. A model's threads may all talk to the server at once: a decoupled model sends responses from threads of its
own while `execute` runs or after it returned, and any of them may call BLS, metrics or model control. Writes to the
ring to the server take a lock. Reading is a role: the thread that waits for something and finds no other reader reads
the ring and files every record it finds in the inbox for whoever waits for it (the main thread waiting for the next
batch is usually that reader); the others wait on the inbox's condition. Nothing here is written from a finalizer:
finalizers only append to lists that the next send flushes.
"""

import collections
import mmap
import os
import struct
import threading
import time

import numpy as np

import ingot_ipc
import triton_python_backend_utils as pb_utils

# ------------------------------------------------------------------------------------- layout (python/README.md)

MAGIC = 0x425950544F474E49  # the ASCII bytes "INGOTPYB" as a little-endian int64
VERSION = 2
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
_H_PUMP_DOORBELL = 448

# Record types. A type with INDIRECT set carries (offset, length) of its body in a data area instead of the body.
INDIRECT = 0x10000
INIT, EXECUTE, BLS_RESPONSE, FINALIZE, REPLY = 1, 2, 3, 4, 5
HELLO, INIT_RESULT, EXECUTE_RESULT, BLS_REQUEST, RELEASE, FINALIZE_RESULT, RESPONSE, CALL = \
    101, 102, 103, 104, 105, 106, 107, 108

# Status codes: Ingot's IPC status numbers (0 OK, then Triton's categories in the order of Ingot's ErrorCode).
OK, S_INVALID_ARG, S_NOT_FOUND, S_UNAVAILABLE, S_INTERNAL, S_CANCELLED, S_UNSUPPORTED, S_ALREADY_EXISTS, S_UNKNOWN = \
    range(9)
# pb_utils.TritonError code -> status, and back.
STATUS_OF_CODE = {pb_utils.TritonError.UNKNOWN: S_UNKNOWN, pb_utils.TritonError.INTERNAL: S_INTERNAL,
                  pb_utils.TritonError.NOT_FOUND: S_NOT_FOUND, pb_utils.TritonError.INVALID_ARG: S_INVALID_ARG,
                  pb_utils.TritonError.UNAVAILABLE: S_UNAVAILABLE, pb_utils.TritonError.UNSUPPORTED: S_UNSUPPORTED,
                  pb_utils.TritonError.ALREADY_EXISTS: S_ALREADY_EXISTS,
                  pb_utils.TritonError.CANCELLED: S_CANCELLED}
CODE_OF_STATUS = {status: code for code, status in STATUS_OF_CODE.items()}

# Frames (the Java side's StubProtocol names the same layouts).
U32 = struct.Struct("<I")
I32 = struct.Struct("<i")
U64 = struct.Struct("<Q")
INDIRECT_BODY = struct.Struct("<qq")
TENSOR_ENTRY = struct.Struct("<HBBiqq")         # name length, datatype, rank, reserved, offset, length; dims, name
NAME_HEADER = struct.Struct("<H6x")             # an output name: length, then the name padded to 8
EXECUTE_HEADER = struct.Struct("<IHHQQQ")       # request count, reserved, flags, batch id, block offset, length
REQUEST_HEADER = struct.Struct("<QQQQIHHII")    # handle, correlation id, timeout, requested mask, flags, inputs,
#                                                 id length, parameters length, correlation key length
RESULT_HEADER = struct.Struct("<iIII")          # status, response count, message length, released batches
RESPONSE_HEADER = struct.Struct("<iHHII")       # status, output count, reserved, message length, reserved
SEND_HEADER = struct.Struct("<QQIiHHI")         # call id, handle, flags, status, output count, 0, message length
REPLY_HEADER = struct.Struct("<QiIdQ")          # call id, status, message length, number, handle
CALL_HEADER = struct.Struct("<QII")             # call id, JSON length, reserved
BLS_REQUEST_HEADER = struct.Struct("<QqqQIHHHHIHHI")  # id, version, timeout, correlation id, flags, model/id/input/
#                                                       output counts, parameters length, correlation key length, 0, 0
BLS_RESPONSE_HEADER = struct.Struct("<QQiHHII")  # id, release key, status, message length, output count, flags, 0
STATUS_TEXT = struct.Struct("<iI")              # status, text length; then the text
DIMS = [struct.Struct("<%dq" % rank) for rank in range(9)]
IDS = [struct.Struct("<%dQ" % count) for count in range(9)]  # a few uint64 ids, the usual counts precompiled
MAX_MESSAGE = 4096                              # bytes of an error message written into a frame
SPINS = 200                                     # empty polls before sleeping on the doorbell

EXECUTE_DECOUPLED = 1
SEQUENCE_START, SEQUENCE_END, CORRELATION_STRING, BLS_DECOUPLED = 1, 2, 4, 8
SEND_FINAL, SEND_HAS_RESPONSE, SEND_DROPPED = 1, 2, 4
BLS_FINAL = 1

BYTES = 13


def align8(value):
    return (value + 7) & ~7


def padded(data):
    return data + b"\0" * (align8(len(data)) - len(data))


def name_entry(name):
    data = name.encode("utf-8")
    return NAME_HEADER.pack(len(data)) + padded(data)


def text(value, limit=MAX_MESSAGE):
    data = value.encode("utf-8", "replace")
    if len(data) > limit:
        data = data[:limit - 3].decode("utf-8", "ignore").encode("utf-8") + b"..."
    return data


class StubError(Exception):
    """A failure of the protocol or of shared memory, reported to the server as an error."""


# --------------------------------------------------------------------------------------------------- the region

class Region:
    """The instance's shared-memory file, mapped: header fields, the two rings, the data areas, and the locks that
    let several threads write to the server and allocate in the stub's area."""

    def __init__(self, path):
        fd = os.open(path, os.O_RDWR)
        try:
            size = os.fstat(fd).st_size
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
        self.write_lock = threading.Lock()
        self.alloc_lock = threading.Lock()
        # The thread whose records the server's instance thread reads itself (the main thread during a batch): they
        # ring its doorbell only; every other record rings the server's pump too.
        self.batch_thread = None

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
        with self.alloc_lock:
            offset = self.allocator.allocate(nbytes)
            free = self.allocator.free_bytes()
        if offset is None:
            raise pb_utils.TritonModelException(
                "%s needs %d bytes of shared memory, but the instance's stub area has %d of %d free; raise the "
                "model's parameter INGOT_SHM_BYTES" % (what, nbytes, free, self.stub_area[1]))
        return offset

    def free(self, offsets):
        if offsets:
            with self.alloc_lock:
                for offset in offsets:
                    self.allocator.free(offset)

    def ring_parent(self):
        self.futex.bump_and_wake(_H_PARENT_DOORBELL)
        if threading.get_ident() != self.batch_thread:
            self.futex.bump_and_wake(_H_PUMP_DOORBELL)

    def send(self, record_type, body, allocations=None, ring=True):
        """Writes one record to the server (through the stub area when it is too long for the ring, the allocation
        then added to `allocations` for the caller to free once the server is done with it), waiting while the ring
        is full; then rings the server, unless `ring` is False (a record the next one's ring covers)."""
        if len(body) > self.to_parent.max_message:
            offset = self.allocate(len(body), "a frame of %d bytes" % len(body))
            self.mm[offset:offset + len(body)] = body
            if allocations is not None:
                allocations.append(offset)
            body = INDIRECT_BODY.pack(offset, len(body))
            record_type |= INDIRECT
        with self.write_lock:
            while not self.to_parent.write(record_type, body):
                self.ring_parent()
                time.sleep(50e-6)
        if ring:
            self.ring_parent()

    def next_record(self, timeout):
        """Waits up to `timeout` seconds for the next record from the server: (type, body), the body copied out of
        the ring (or out of the data area, for INDIRECT records); None when the time passed first."""
        deadline = time.monotonic() + timeout
        spins = 0
        found = []
        mm = self.mm
        while True:
            if self.to_stub.read(lambda t, o, n: found.append((t, bytes(mm[o:o + n]))), 1):
                record_type, body = found[0]
                if record_type & INDIRECT:
                    offset, length = INDIRECT_BODY.unpack_from(body, 0)
                    self.check_span(offset, length, "an indirect frame")
                    return record_type & ~INDIRECT, bytes(mm[offset:offset + length])
                return record_type, body
            spins += 1
            if spins < SPINS:
                continue
            seen = self.memory.load32(_H_STUB_DOORBELL)
            if self.to_stub.has_record():
                continue
            wait = deadline - time.monotonic()
            if wait <= 0:
                return None
            self.futex.wait(_H_STUB_DOORBELL, seen, min(wait, 0.1))


# ------------------------------------------------------------------------------------------------------ the inbox

class Inbox:
    """Where each thread waits for what the server sends it, by key: 'main' (INIT, EXECUTE, FINALIZE), ('reply', id),
    ('bls', id). `dispatch(record_type, body)` returns (key, item) to file, or None when it handled the record itself
    (an asynchronous BLS answer). `idle()` runs when the reader found nothing for a while (flushing what finalizers
    queued). A reader that reads its own record takes it without the mailbox (the main thread's next batch, a reply
    its own thread waits for): the common case costs no condition."""

    def __init__(self, region, dispatch, idle):
        self.region = region
        self.dispatch = dispatch
        self.idle = idle
        self.reader = threading.Lock()
        self.cond = threading.Condition()
        self.mail = {}
        self.sleepers = 0  # threads waiting on the condition, guarded by it

    def wait(self, key, timeout=None):
        """The next item filed under `key`; None when `timeout` seconds pass first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            if self.mail:
                with self.cond:
                    box = self.mail.get(key)
                    if box:
                        return self._take(key, box)
            if self.reader.acquire(False):
                try:
                    while True:
                        if self.mail:
                            with self.cond:
                                box = self.mail.get(key)
                                if box:
                                    return self._take(key, box)
                        wait = 0.1 if deadline is None else min(0.1, deadline - time.monotonic())
                        if wait <= 0:
                            return None
                        record = self.region.next_record(wait)
                        if record is None:
                            self.idle()
                            continue
                        filed = self.dispatch(*record)
                        if filed is not None:
                            if filed[0] == key:
                                return filed[1]
                            self._file(filed)
                finally:
                    self.reader.release()
                    if self.sleepers:
                        with self.cond:
                            self.cond.notify_all()
            with self.cond:
                box = self.mail.get(key)
                if box:
                    return self._take(key, box)
                if deadline is not None and time.monotonic() >= deadline:
                    return None
                self.sleepers += 1
                try:
                    # Counted first, then checked: a reader that left before this check is not waited for, one
                    # that leaves after it sees the count and notifies.
                    if self.reader.locked():
                        self.cond.wait(0.05)
                finally:
                    self.sleepers -= 1

    def poll(self, timeout):
        """Reads what has arrived, waiting up to `timeout` seconds for a first record, if no other thread reads
        (an event loop's pump of asynchronous BLS answers). True when a record was handled."""
        if not self.reader.acquire(False):
            return False
        try:
            record = self.region.next_record(timeout)
            if record is not None:
                filed = self.dispatch(*record)
                if filed is not None:
                    self._file(filed)
                return True
            return False
        finally:
            self.reader.release()
            if self.sleepers:
                with self.cond:
                    self.cond.notify_all()

    def drop(self, key):
        with self.cond:
            self.mail.pop(key, None)

    def _file(self, filed):
        key, item = filed
        with self.cond:
            self.mail.setdefault(key, collections.deque()).append(item)
            self.cond.notify_all()

    def _take(self, key, box):
        item = box.popleft()
        if not box:
            del self.mail[key]
        return item


# ---------------------------------------------------------------------------------------------------- tensors

def read_tensors(region, body, offset, count, block=None, block_start=0):
    """Parses `count` tensor entries of `body` at `offset`: a list of pb_utils.Tensor over shared memory, and the
    offset after the entries. With `block` (a uint8 array over part of the region starting at file offset
    `block_start`), views are made of it, so that the block lives as long as any of them."""
    mm = region.mm
    tensors = []
    for _ in range(count):
        name_length, code, rank, _, data_offset, length = TENSOR_ENTRY.unpack_from(body, offset)
        dims = DIMS[rank].unpack_from(body, offset + 24)
        name_at = offset + 24 + 8 * rank
        name = bytes(body[name_at:name_at + name_length]).decode("utf-8")
        offset = name_at + align8(name_length)
        region.check_span(data_offset, length, "tensor '%s'" % name)
        if code == BYTES:
            array = pb_utils.deserialize_bytes_tensor(mm[data_offset:data_offset + length]).reshape(dims)
        else:
            dtype = pb_utils._NUMPY_BY_CODE[code]
            if block is not None:
                array = np.ndarray(dims, dtype, block, data_offset - block_start)  # a view whose base is the block
            else:
                array = np.ndarray(dims, dtype, mm, data_offset)
        tensors.append(pb_utils.Tensor._of(name, array, code))
    return tensors, offset


def span_of(body, offset, count):
    """(low, high) file offsets of the numeric tensors of `count` entries at `offset`, or None when there are none."""
    low, high = None, None
    for _ in range(count):
        name_length, code, rank, _, data_offset, length = TENSOR_ENTRY.unpack_from(body, offset)
        offset += 24 + 8 * rank + align8(name_length)
        if code != BYTES:
            low = data_offset if low is None else min(low, data_offset)
            high = data_offset + length if high is None else max(high, data_offset + length)
    return None if low is None else (low, high)


def place_tensors(region, tensors, what, allocations):
    """Makes sure every tensor lies in shared memory (copying it into the stub area once if not; each allocation
    added to `allocations`) and returns the packed tensor entries."""
    parts = []
    mm = region.mm
    for tensor in tensors:
        array = tensor._array
        code = tensor._code
        if code == BYTES:
            data = pb_utils.serialize_byte_tensor(array)
            data = b"" if data == () else data
            length = len(data)
            offset = region.allocate(length, "%s '%s'" % (what, tensor._name))
            mm[offset:offset + length] = data
            allocations.append(offset)
        else:
            length = array.nbytes
            offset = region.offset_of(array)
            if offset is None:
                offset = region.allocate(length, "%s '%s'" % (what, tensor._name))
                mm[offset:offset + length] = memoryview(array).cast("B")  # one copy; the array is C-contiguous
                allocations.append(offset)
        name = tensor._name.encode("utf-8")
        rank = array.ndim
        if rank > 8:
            raise pb_utils.TritonModelException("%s '%s' has rank %d; Ingot carries tensors of rank 8 at most"
                                                % (what, tensor._name, rank))
        parts.append(TENSOR_ENTRY.pack(len(name), code, rank, 0, offset, length))
        parts.append(DIMS[rank].pack(*array.shape))
        parts.append(padded(name))
    return parts
