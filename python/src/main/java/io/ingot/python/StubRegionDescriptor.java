package io.ingot.python;

/**
 * Byte layout of an instance's shared-memory region (python/README.md, "Protocol"): the header fields and their
 * offsets. The Python side ({@code ingot_python_stub.py}) names the same offsets; a test reads them from there.
 *
 * <pre>
 *   header 4 KiB | ring to the stub | ring to the server | server area: inputs, then BLS outputs | stub area
 * </pre>
 */
final class StubRegionDescriptor
{
    /** The ASCII bytes {@code INGOTPYB} as a little-endian int64. */
    static final long MAGIC = 0x425950544F474E49L;
    /** Layout version. */
    static final int VERSION = 2;
    /** Bytes of the header. */
    static final int HEADER_LENGTH = 4096;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 8;
    static final int HEADER_LENGTH_OFFSET = 12;
    static final int FILE_LENGTH_OFFSET = 16;
    static final int TO_STUB_CAPACITY_OFFSET = 24;
    static final int TO_PARENT_CAPACITY_OFFSET = 28;
    static final int TO_STUB_OFFSET_OFFSET = 32;
    static final int TO_PARENT_OFFSET_OFFSET = 40;
    static final int PARENT_AREA_OFFSET_OFFSET = 48;
    static final int PARENT_AREA_LENGTH_OFFSET = 56;
    static final int STUB_AREA_OFFSET_OFFSET = 64;
    static final int STUB_AREA_LENGTH_OFFSET = 72;
    static final int PARENT_PID_OFFSET = 80;

    /** Written by the stub: its process id. */
    static final int STUB_PID_OFFSET = 128;
    /** Written by the stub: incremented every 100 ms. */
    static final int STUB_HEARTBEAT_OFFSET = 136;

    /** Futex word the server changes and wakes after writing a record for the stub. */
    static final int STUB_DOORBELL_OFFSET = 256;
    /** The stub's waiting flag (unused: Python cannot fence, so the server always rings). */
    static final int STUB_WAITING_OFFSET = 260;
    /** Futex word the stub (and the server's own BLS completions) change and wake after publishing. */
    static final int PARENT_DOORBELL_OFFSET = 384;
    /** Raised by the server's instance thread while it may sleep on {@link #PARENT_DOORBELL_OFFSET}. */
    static final int PARENT_WAITING_OFFSET = 388;
    /**
     * Futex word of the server's session pump, which reads the stub's ring between batches: the stub changes and
     * wakes it after every record but those its main thread writes during a batch (the instance thread reads those),
     * so that a batch wakes no third thread.
     */
    static final int PUMP_DOORBELL_OFFSET = 448;
    /** The pump's waiting flag (unused: the stub cannot fence, so it always rings). */
    static final int PUMP_WAITING_OFFSET = 452;

    private StubRegionDescriptor()
    {
    }
}
