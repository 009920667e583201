package io.ingot.ipc;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

import static io.ingot.ipc.ClientEntryDescriptor.*;

/**
 * Flyweight over one client-table entry (docs/ipc.md, "Client table"). The state is read with acquire and written
 * with release semantics (the server changes it by compare-and-set); everything else is plain, published by the
 * state store that follows it.
 */
public final class ClientEntryFlyweight
{
    private MemorySegment memory;
    private long offset;

    /**
     * @param memory the region mapping
     * @param offset the entry's offset ({@link IpcLayout#clientEntryOffset})
     * @return this
     */
    public ClientEntryFlyweight wrap(final MemorySegment memory, final long offset)
    {
        this.memory = memory;
        this.offset = offset;
        return this;
    }

    /** @return the entry's offset in the region. */
    public long offset()
    {
        return offset;
    }

    /** @return the state, read with acquire semantics. */
    public int state()
    {
        return SharedMemory.getIntAcquire(memory, offset + STATE_OFFSET);
    }

    /**
     * @param state the new state, stored with release semantics
     * @return this
     */
    public ClientEntryFlyweight state(final int state)
    {
        SharedMemory.putIntRelease(memory, offset + STATE_OFFSET, state);
        return this;
    }

    /**
     * @param expected the state required
     * @param state    the new state
     * @return whether the state was {@code expected} and now is {@code state}
     */
    public boolean compareAndSetState(final int expected, final int state)
    {
        return SharedMemory.compareAndSetInt(memory, offset + STATE_OFFSET, expected, state);
    }

    /** @return the client kind ({@link ClientEntryDescriptor#KIND_JAVA}, ...). */
    public int clientKind()
    {
        return memory.get(SharedMemory.INT, offset + CLIENT_KIND_OFFSET);
    }

    /** @return the client's flags ({@link ClientEntryDescriptor#FLAG_WAITS_WITHOUT_FENCE}), 0 when none. */
    public int clientFlags()
    {
        return memory.get(SharedMemory.INT, offset + CLIENT_FLAGS_OFFSET);
    }

    /**
     * Zeroes {@code client_waiting} and {@code client_flags}, for the server before it frees the entry: a client that
     * does not know {@code client_flags} (an older one) then registers with none, whoever held the entry before.
     *
     * @return this
     */
    public ClientEntryFlyweight clearWaiting()
    {
        memory.set(SharedMemory.INT, offset + CLIENT_WAITING_OFFSET, 0);
        memory.set(SharedMemory.INT, offset + CLIENT_FLAGS_OFFSET, 0);
        return this;
    }

    /** @return the client's process id. */
    public long pid()
    {
        return memory.get(SharedMemory.LONG, offset + PID_OFFSET);
    }

    /** @return the client's process start time in clock ticks since boot. */
    public long startTicks()
    {
        return memory.get(SharedMemory.LONG, offset + START_TICKS_OFFSET);
    }

    /** @return the inode of the client's pid namespace, 0 if unknown. */
    public long pidNamespace()
    {
        return memory.get(SharedMemory.LONG, offset + PID_NAMESPACE_OFFSET);
    }

    /**
     * Fills the client's fields (no {@code client_flags}: a Java client fences before its last look) and resets its
     * heartbeat; the caller then publishes them by storing the state.
     *
     * @param kind     client kind
     * @param identity the client process
     * @return this
     */
    public ClientEntryFlyweight client(final int kind, final ProcessIdentity identity)
    {
        memory.set(SharedMemory.INT, offset + CLIENT_KIND_OFFSET, kind);
        memory.set(SharedMemory.LONG, offset + PID_OFFSET, identity.pid());
        memory.set(SharedMemory.LONG, offset + START_TICKS_OFFSET, identity.startTicks());
        memory.set(SharedMemory.LONG, offset + PID_NAMESPACE_OFFSET, identity.pidNamespace());
        memory.set(SharedMemory.INT, offset + CLIENT_WAITING_OFFSET, 0);
        memory.set(SharedMemory.INT, offset + CLIENT_FLAGS_OFFSET, 0);
        SharedMemory.putLongRelease(memory, offset + HEARTBEAT_OFFSET, 0);
        return this;
    }

    /** @return the client's heartbeat counter. */
    public long heartbeat()
    {
        return SharedMemory.getLongAcquire(memory, offset + HEARTBEAT_OFFSET);
    }

    /**
     * @param heartbeat the new heartbeat counter
     * @return this
     */
    public ClientEntryFlyweight heartbeat(final long heartbeat)
    {
        SharedMemory.putLongRelease(memory, offset + HEARTBEAT_OFFSET, heartbeat);
        return this;
    }

    /** @return the session number of the entry's current activation. */
    public long session()
    {
        return SharedMemory.getLongAcquire(memory, offset + SESSION_OFFSET);
    }

    /**
     * @param session the session number
     * @return this
     */
    public ClientEntryFlyweight session(final long session)
    {
        SharedMemory.putLongRelease(memory, offset + SESSION_OFFSET, session);
        return this;
    }

    /** @return the fault code, 0 when none. */
    public int faultCode()
    {
        return memory.get(SharedMemory.INT, offset + FAULT_CODE_OFFSET);
    }

    /** @return the fault message, empty when none. */
    public String faultMessage()
    {
        final int length = Math.clamp(memory.get(SharedMemory.INT, offset + FAULT_MESSAGE_LENGTH_OFFSET), 0,
            MAX_FAULT_MESSAGE_LENGTH);
        final byte[] bytes = new byte[length];
        MemorySegment.copy(memory, java.lang.foreign.ValueLayout.JAVA_BYTE, offset + FAULT_MESSAGE_OFFSET, bytes, 0,
            length);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * Records why the server stops serving the entry (the message is cut to fit at a character boundary).
     *
     * @param code    the fault code, 0 to clear
     * @param message the reason
     * @return this
     */
    public ClientEntryFlyweight fault(final int code, final String message)
    {
        final byte[] bytes = Utf8.truncate(message, MAX_FAULT_MESSAGE_LENGTH);
        memory.set(SharedMemory.INT, offset + FAULT_CODE_OFFSET, code);
        MemorySegment.copy(bytes, 0, memory, java.lang.foreign.ValueLayout.JAVA_BYTE, offset + FAULT_MESSAGE_OFFSET,
            bytes.length);
        memory.set(SharedMemory.INT, offset + FAULT_MESSAGE_LENGTH_OFFSET, bytes.length);
        return this;
    }
}
