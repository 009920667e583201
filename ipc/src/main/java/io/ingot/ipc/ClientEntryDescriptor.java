package io.ingot.ipc;

/**
 * Layout of one client-table entry (docs/ipc.md, "Client table"). The client's fields, its heartbeat and the
 * server's fields sit on separate cache lines so that their writers never share one.
 */
public final class ClientEntryDescriptor
{
    /** Bytes of one entry. */
    public static final int ENTRY_LENGTH = 256;

    /** Offset of {@code state} (int32). */
    public static final int STATE_OFFSET = 0;
    /** Offset of {@code client_kind} (int32). */
    public static final int CLIENT_KIND_OFFSET = 4;
    /** Offset of {@code pid} (int64). */
    public static final int PID_OFFSET = 8;
    /** Offset of {@code start_ticks} (int64). */
    public static final int START_TICKS_OFFSET = 16;
    /** Offset of {@code pid_namespace} (int64). */
    public static final int PID_NAMESPACE_OFFSET = 24;
    /**
     * Offset of {@code response_doorbell} (int32 futex word): changed by the server when it wakes the client
     * (docs/ipc.md, "Wake-ups").
     */
    public static final int RESPONSE_DOORBELL_OFFSET = 32;
    /** Offset of {@code client_waiting} (int32): non-zero while the client may sleep on its doorbell. */
    public static final int CLIENT_WAITING_OFFSET = 36;
    /**
     * Offset of {@code client_flags} (int32): how the client waits ({@link #FLAG_WAITS_WITHOUT_FENCE}); written by the
     * client before it publishes {@code state = REQUESTED}, read by the server when it activates the entry.
     */
    public static final int CLIENT_FLAGS_OFFSET = 40;
    /** Offset of {@code heartbeat} (int64), on the client's second cache line. */
    public static final int HEARTBEAT_OFFSET = 64;
    /** Offset of {@code session} (int64), first of the server's fields. */
    public static final int SESSION_OFFSET = 128;
    /** Offset of {@code fault_code} (int32). */
    public static final int FAULT_CODE_OFFSET = 136;
    /** Offset of {@code fault_message_length} (int32). */
    public static final int FAULT_MESSAGE_LENGTH_OFFSET = 140;
    /** Offset of {@code fault_message} (UTF-8). */
    public static final int FAULT_MESSAGE_OFFSET = 144;
    /** Bytes available for {@code fault_message}. */
    public static final int MAX_FAULT_MESSAGE_LENGTH = ENTRY_LENGTH - FAULT_MESSAGE_OFFSET;

    /** State: nobody uses the entry. */
    public static final int FREE = 0;
    /** State: a client filled the entry and waits for the server to activate it. */
    public static final int REQUESTED = 1;
    /** State: the server serves the entry's rings. */
    public static final int ACTIVE = 2;
    /** State: the client left. */
    public static final int CLOSING = 3;
    /** State: the server stopped serving the entry; {@code fault_code} says why. */
    public static final int FAULTED = 4;
    /** State: the server is draining the entry's in-flight requests before freeing it. */
    public static final int RECLAIMING = 5;

    /** Fault: a record header in the request ring was invalid. */
    public static final int FAULT_RING_CORRUPT = 1;
    /** Fault: the client's heartbeat stopped while its process still exists. */
    public static final int FAULT_HEARTBEAT_TIMEOUT = 2;

    /** Client kind: Java client. */
    public static final int KIND_JAVA = 1;
    /** Client kind: Python client. */
    public static final int KIND_PYTHON = 2;

    /**
     * Client flag: the client raises {@code client_waiting} before every sleep but puts no fence between that store and
     * its last look at its response ring; it reads {@code response_doorbell} before that look and sleeps with
     * {@code FUTEX_WAIT} on the value it read, whose kernel-side comparison follows a full barrier. The server
     * therefore changes the doorbell before it reads the flag ({@link Doorbell#changeAndRing()}), and makes a system
     * call only when the flag is up (docs/ipc.md, "Wake-ups"). A Python client without this flag (an older one) is
     * woken after every response.
     */
    public static final int FLAG_WAITS_WITHOUT_FENCE = 1;

    private ClientEntryDescriptor()
    {
    }

    /**
     * @param state a state value
     * @return its name, for messages
     */
    public static String stateName(final int state)
    {
        return switch (state)
        {
            case FREE -> "FREE";
            case REQUESTED -> "REQUESTED";
            case ACTIVE -> "ACTIVE";
            case CLOSING -> "CLOSING";
            case FAULTED -> "FAULTED";
            case RECLAIMING -> "RECLAIMING";
            default -> "STATE_" + state;
        };
    }
}
