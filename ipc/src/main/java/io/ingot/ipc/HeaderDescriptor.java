package io.ingot.ipc;

/**
 * Layout of the region header: the first {@link #HEADER_LENGTH} bytes of {@code /dev/shm/ingot-NAME}
 * (docs/ipc.md, "Header"). Static fields are written once before the file is published; the server state and
 * heartbeat are live and sit on their own cache lines.
 */
public final class HeaderDescriptor
{
    /** The ASCII bytes {@code INGOTIPC} read as a little-endian int64. */
    public static final long MAGIC = 0x435049544F474E49L;

    /** The layout version this code reads and writes. */
    public static final int LAYOUT_VERSION = 1;

    /** Bytes of the header. */
    public static final int HEADER_LENGTH = 4096;

    /** Offset of {@code magic} (int64). */
    public static final int MAGIC_OFFSET = 0;
    /** Offset of {@code layout_version} (int32). */
    public static final int LAYOUT_VERSION_OFFSET = 8;
    /** Offset of {@code header_length} (int32). */
    public static final int HEADER_LENGTH_OFFSET = 12;
    /** Offset of {@code file_length} (int64). */
    public static final int FILE_LENGTH_OFFSET = 16;
    /** Offset of {@code max_clients} (int32). */
    public static final int MAX_CLIENTS_OFFSET = 24;
    /** Offset of {@code client_entry_length} (int32). */
    public static final int CLIENT_ENTRY_LENGTH_OFFSET = 28;
    /** Offset of {@code client_table_offset} (int64). */
    public static final int CLIENT_TABLE_OFFSET_OFFSET = 32;
    /** Offset of {@code request_ring_capacity} (int32). */
    public static final int REQUEST_RING_CAPACITY_OFFSET = 40;
    /** Offset of {@code response_ring_capacity} (int32). */
    public static final int RESPONSE_RING_CAPACITY_OFFSET = 44;
    /** Offset of {@code rings_offset} (int64). */
    public static final int RINGS_OFFSET_OFFSET = 48;
    /** Offset of {@code rings_stride} (int64). */
    public static final int RINGS_STRIDE_OFFSET = 56;
    /** Offset of {@code data_offset} (int64). */
    public static final int DATA_OFFSET_OFFSET = 64;
    /** Offset of {@code slab_length} (int64). */
    public static final int SLAB_LENGTH_OFFSET = 72;
    /** Offset of {@code slab_input_length} (int64). */
    public static final int SLAB_INPUT_LENGTH_OFFSET = 80;
    /** Offset of {@code max_in_flight} (int32). */
    public static final int MAX_IN_FLIGHT_OFFSET = 88;
    /** Offset of {@code max_frame_length} (int32). */
    public static final int MAX_FRAME_LENGTH_OFFSET = 92;
    /** Offset of {@code heartbeat_interval_ms} (int64). */
    public static final int HEARTBEAT_INTERVAL_OFFSET = 96;
    /** Offset of {@code liveness_timeout_ms} (int64). */
    public static final int LIVENESS_TIMEOUT_OFFSET = 104;

    /** Offset of {@code generation} (int64), on the second cache line. */
    public static final int GENERATION_OFFSET;
    /** Offset of {@code server_state} (int32, live). */
    public static final int SERVER_STATE_OFFSET;
    /** Offset of {@code server_pid} (int64). */
    public static final int SERVER_PID_OFFSET;
    /** Offset of {@code server_start_ticks} (int64). */
    public static final int SERVER_START_TICKS_OFFSET;
    /** Offset of {@code server_pid_namespace} (int64). */
    public static final int SERVER_PID_NAMESPACE_OFFSET;
    /** Offset of {@code created_epoch_ms} (int64). */
    public static final int CREATED_EPOCH_MS_OFFSET;
    /** Offset of {@code server_heartbeat} (int64, live), alone on its cache line pair. */
    public static final int SERVER_HEARTBEAT_OFFSET;

    /**
     * Offset of {@code request_doorbell} (int32 futex word, live): changed by a client that wakes the server
     * (docs/ipc.md, "Wake-ups"), alone with {@code server_waiting} on its cache line pair.
     */
    public static final int REQUEST_DOORBELL_OFFSET = 6 * 64;
    /** Offset of {@code server_waiting} (int32, live): non-zero while the server's IPC thread may sleep. */
    public static final int SERVER_WAITING_OFFSET = REQUEST_DOORBELL_OFFSET + 4;

    /** {@code server_state}: serving. */
    public static final int SERVER_RUNNING = 1;
    /** {@code server_state}: closed; the file is being or has been removed. */
    public static final int SERVER_CLOSED = 2;

    /** Byte of the file locked (POSIX record lock) while a server replaces a stale file. */
    public static final long REPLACE_LOCK_OFFSET = 0;
    /** Byte of the file locked (POSIX record lock) by a client while it registers. */
    public static final long REGISTRATION_LOCK_OFFSET = 1;

    static
    {
        final int identity = 2 * 64;
        GENERATION_OFFSET = identity;
        SERVER_STATE_OFFSET = identity + 8;
        SERVER_PID_OFFSET = identity + 16;
        SERVER_START_TICKS_OFFSET = identity + 24;
        SERVER_PID_NAMESPACE_OFFSET = identity + 32;
        CREATED_EPOCH_MS_OFFSET = identity + 40;
        SERVER_HEARTBEAT_OFFSET = 4 * 64;
    }

    private HeaderDescriptor()
    {
    }
}
