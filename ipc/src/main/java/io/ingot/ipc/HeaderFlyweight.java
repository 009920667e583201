package io.ingot.ipc;

import java.lang.foreign.MemorySegment;

import static io.ingot.ipc.HeaderDescriptor.*;

/**
 * Flyweight over the region header's server fields (docs/ipc.md, "Header"): generation, server identity, state and
 * heartbeat. The sizes are read through {@link IpcLayout#read}. Setters are fluent; getters have no {@code get}.
 */
public final class HeaderFlyweight
{
    private MemorySegment memory;

    /**
     * @param memory the mapping of the region (the header is at offset 0)
     * @return this
     */
    public HeaderFlyweight wrap(final MemorySegment memory)
    {
        this.memory = memory;
        return this;
    }

    /** @return the server's generation. */
    public long generation()
    {
        return memory.get(SharedMemory.LONG, GENERATION_OFFSET);
    }

    /**
     * @param generation the server's generation
     * @return this
     */
    public HeaderFlyweight generation(final long generation)
    {
        memory.set(SharedMemory.LONG, GENERATION_OFFSET, generation);
        return this;
    }

    /** @return {@link HeaderDescriptor#SERVER_RUNNING}, {@link HeaderDescriptor#SERVER_CLOSED} or 0. */
    public int serverState()
    {
        return SharedMemory.getIntAcquire(memory, SERVER_STATE_OFFSET);
    }

    /**
     * @param state the server state, published with release semantics
     * @return this
     */
    public HeaderFlyweight serverState(final int state)
    {
        SharedMemory.putIntRelease(memory, SERVER_STATE_OFFSET, state);
        return this;
    }

    /** @return the server's process id. */
    public long serverPid()
    {
        return memory.get(SharedMemory.LONG, SERVER_PID_OFFSET);
    }

    /** @return the server's start time in clock ticks since boot. */
    public long serverStartTicks()
    {
        return memory.get(SharedMemory.LONG, SERVER_START_TICKS_OFFSET);
    }

    /** @return the inode of the server's pid namespace, 0 if unknown. */
    public long serverPidNamespace()
    {
        return memory.get(SharedMemory.LONG, SERVER_PID_NAMESPACE_OFFSET);
    }

    /** @return the file's creation time, milliseconds since the epoch. */
    public long createdEpochMs()
    {
        return memory.get(SharedMemory.LONG, CREATED_EPOCH_MS_OFFSET);
    }

    /**
     * Records the identity of the process that serves the region.
     *
     * @param identity  the server process
     * @param createdMs creation time, ms since the epoch
     * @return this
     */
    public HeaderFlyweight server(final ProcessIdentity identity, final long createdMs)
    {
        memory.set(SharedMemory.LONG, SERVER_PID_OFFSET, identity.pid());
        memory.set(SharedMemory.LONG, SERVER_START_TICKS_OFFSET, identity.startTicks());
        memory.set(SharedMemory.LONG, SERVER_PID_NAMESPACE_OFFSET, identity.pidNamespace());
        memory.set(SharedMemory.LONG, CREATED_EPOCH_MS_OFFSET, createdMs);
        return this;
    }

    /** @return the server heartbeat counter. */
    public long serverHeartbeat()
    {
        return SharedMemory.getLongAcquire(memory, SERVER_HEARTBEAT_OFFSET);
    }

    /**
     * @param heartbeat the new heartbeat counter, published with release semantics
     * @return this
     */
    public HeaderFlyweight serverHeartbeat(final long heartbeat)
    {
        SharedMemory.putLongRelease(memory, SERVER_HEARTBEAT_OFFSET, heartbeat);
        return this;
    }
}
