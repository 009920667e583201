"""The floor under a Python client's shared-memory round trip on this machine: two Python processes, one shared page.

The client writes a request's values into the page and then bumps a request counter; the echo process, polling that
counter, copies the values to the reply area and bumps a reply counter, which the client polls. Both wait as the
shared-memory client (clients/python/ingot_ipc.py) does before it would sleep: poll back to back for 5 us, then poll
and yield the processor — and neither ever sleeps, so no futex and no wake-up is in the path. What is left is what
every cross-process round trip from Python pays here: two interpreters, the cache lines between two cores, and the
scheduler. Its p99 / p50 is the best a Python client of any server can expect on the same machine, measured in the
same run (benchmarks/python/transport_latency.py --floor).

A round trip of a few microseconds rarely meets the machine's interruptions (a timer tick, a hypervisor that takes the
virtual CPU away), which a round trip of 50 us meets ten times as often. So the echo can also hold each request for a
while, busy, before it answers (hold_ns): with the hold set to a transport's p50, the floor's p99 / p50 is what that
machine does to any cross-process round trip that long.

Ordering: x86-64 keeps stores in order and loads in order (TSO), so writing the values before the counter and reading
the counter before the values is enough here; the echo refuses to start elsewhere.
"""

import multiprocessing
import os
import platform
import time

import numpy as np

_SPIN_NS = 5_000
_REQUEST, _REPLY, _STOP = 0, 8, 16  # int64 indexes: three counters, a 64-byte cache line each
_COUNTERS = 3 * 64
_DATA = _COUNTERS


def _wait_for(counters, slot, target, clock=time.perf_counter_ns):
    """Polls counters[slot] until it reaches target: back to back for _SPIN_NS, then yielding between polls."""
    began = clock()
    while counters[slot] < target:
        if clock() - began >= _SPIN_NS:
            os.sched_yield()


def _echo(shared, elements, hold_ns):
    counters = np.ndarray((_COUNTERS // 8,), np.int64, shared.buf)
    request = np.ndarray((elements,), np.float32, shared.buf, _DATA)
    reply = np.ndarray((elements,), np.float32, shared.buf, _DATA + 4 * elements)
    served = 0
    clock = time.perf_counter_ns
    while True:
        began = clock()
        while counters[_REQUEST] == served:
            if counters[_STOP]:
                return
            if clock() - began >= _SPIN_NS:
                os.sched_yield()
        served += 1
        if hold_ns:
            held = clock()
            while clock() - held < hold_ns:
                pass
        reply[:] = request
        counters[_REPLY] = served


class EchoFloor:
    """A Python echo process over shared memory, holding each request hold_ns (busy) before it answers; once() is one
    round trip. Its echo polls without sleeping: open one only while it is measured, and close it (or use with)."""

    def __init__(self, elements, hold_ns=0):
        if platform.machine() not in ("x86_64", "AMD64"):
            raise RuntimeError("the echo floor relies on x86-64's store and load order; this is "
                               + platform.machine())
        from multiprocessing import shared_memory
        self._shared = shared_memory.SharedMemory(create=True, size=_DATA + 8 * elements)
        self._counters = np.ndarray((_COUNTERS // 8,), np.int64, self._shared.buf)
        self._counters[:] = 0
        self._request = np.ndarray((elements,), np.float32, self._shared.buf, _DATA)
        self._reply = np.ndarray((elements,), np.float32, self._shared.buf, _DATA + 4 * elements)
        self._sent = 0
        context = multiprocessing.get_context("fork")
        self._process = context.Process(target=_echo, args=(self._shared, elements, int(hold_ns)), daemon=True)
        self._process.start()

    def once(self, values):
        """Sends values, waits for their echo; returns a copy of it."""
        self._request[:] = values
        self._sent += 1
        self._counters[_REQUEST] = self._sent
        _wait_for(self._counters, _REPLY, self._sent)
        return self._reply.copy()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self._counters[_STOP] = 1
        self._process.join(5)
        if self._process.is_alive():
            self._process.kill()
        self._request = self._reply = self._counters = None
        self._shared.close()
        self._shared.unlink()
