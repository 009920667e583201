package io.ingot.ipc;

import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.lang.foreign.MemorySegment;

import static io.ingot.ipc.HeaderDescriptor.*;
import static io.ingot.ipc.IpcLimits.PAGE_SIZE;
import static io.ingot.ipc.IpcLimits.align;

/**
 * The sizes of one region and every offset derived from them (docs/ipc.md, "The file"). Built by the server from
 * its options ({@link #IpcLayout(int, long, long, int, int, int, long, long) validated}), written into the header,
 * and read back by clients with {@link #read}, which checks the header against the file.
 *
 * @param maxClients           client slots
 * @param slabLength           bytes of each client's slab
 * @param slabInputLength      bytes of each slab's input area (the rest is the output area)
 * @param requestRingCapacity  bytes of each request ring, without trailer
 * @param responseRingCapacity bytes of each response ring, without trailer
 * @param maxInFlight          requests of one client the server holds at once
 * @param heartbeatIntervalMs  heartbeat period of server and clients
 * @param livenessTimeoutMs    a heartbeat that stands still this long means its owner is gone
 */
public record IpcLayout(int maxClients, long slabLength, long slabInputLength, int requestRingCapacity,
    int responseRingCapacity, int maxInFlight, long heartbeatIntervalMs, long livenessTimeoutMs)
{
    /** Granularity of slab and input-area sizes. */
    public static final long SLAB_GRANULE = 64 * 1024;
    /** Largest slab. */
    public static final long MAX_SLAB_LENGTH = 1L << 40;
    /** Most client slots. */
    public static final int MAX_CLIENTS = 1024;
    /** Most requests in flight per client. */
    public static final int MAX_IN_FLIGHT = 1024;
    /** Smallest request ring: Agrona's rings take messages up to capacity / 8, and a request may be 16 KiB. */
    public static final int MIN_REQUEST_RING_CAPACITY = 8 * IpcLimits.MAX_REQUEST_FRAME_LENGTH;
    /** Largest ring. */
    public static final int MAX_RING_CAPACITY = 64 * 1024 * 1024;

    /** Validates every size; each violation names the option, its value and the allowed range. */
    public IpcLayout
    {
        check(maxClients >= 1 && maxClients <= MAX_CLIENTS, "maxClients must be 1.." + MAX_CLIENTS + ", was "
            + maxClients);
        check(slabLength >= 2 * SLAB_GRANULE && slabLength <= MAX_SLAB_LENGTH && slabLength % SLAB_GRANULE == 0,
            "slab length must be a multiple of 64 KiB between 128 KiB and 1 TiB, was " + slabLength);
        check(slabInputLength >= SLAB_GRANULE && slabInputLength <= slabLength - SLAB_GRANULE
            && slabInputLength % SLAB_GRANULE == 0,
            "slab input length must be a multiple of 64 KiB, at least 64 KiB and leaving at least 64 KiB of the "
                + slabLength + "-byte slab for outputs, was " + slabInputLength);
        check(maxInFlight >= 1 && maxInFlight <= MAX_IN_FLIGHT, "maxInFlight must be 1.." + MAX_IN_FLIGHT
            + ", was " + maxInFlight);
        check(isPowerOfTwo(requestRingCapacity) && requestRingCapacity >= MIN_REQUEST_RING_CAPACITY
            && requestRingCapacity <= MAX_RING_CAPACITY,
            "request ring capacity must be a power of two between " + MIN_REQUEST_RING_CAPACITY + " and "
                + MAX_RING_CAPACITY + " bytes, was " + requestRingCapacity);
        final long minResponse = minResponseRingCapacity(maxInFlight);
        check(isPowerOfTwo(responseRingCapacity) && responseRingCapacity >= minResponse
            && responseRingCapacity <= MAX_RING_CAPACITY,
            "response ring capacity must be a power of two of at least " + minResponse + " bytes (room for "
                + "maxInFlight + 2 = " + (maxInFlight + 2) + " responses of " + IpcLimits.MAX_RESPONSE_RECORD_LENGTH
                + " bytes) and at most " + MAX_RING_CAPACITY + ", was " + responseRingCapacity);
        check(heartbeatIntervalMs >= 1 && heartbeatIntervalMs <= 60_000, "heartbeat interval must be 1..60000 ms, was "
            + heartbeatIntervalMs);
        check(livenessTimeoutMs >= 3 * heartbeatIntervalMs && livenessTimeoutMs <= 3_600_000,
            "liveness timeout must be at least 3 heartbeat intervals (" + 3 * heartbeatIntervalMs
                + " ms) and at most one hour, was " + livenessTimeoutMs + " ms");
    }

    /**
     * @param maxInFlight requests in flight per client
     * @return the smallest response ring that always has room for their responses: a power of two
     */
    public static int minResponseRingCapacity(final int maxInFlight)
    {
        final long bytes = (long)(maxInFlight + 2) * IpcLimits.MAX_RESPONSE_RECORD_LENGTH;
        final long atLeast = Math.max(bytes, 8L * IpcLimits.MAX_RESPONSE_RECORD_LENGTH);
        return (int)Math.min(Long.highestOneBit(atLeast - 1) << 1, Integer.MAX_VALUE);
    }

    /** @return offset of the client table. */
    public long clientTableOffset()
    {
        return HEADER_LENGTH;
    }

    /** @return offset of client 0's rings. */
    public long ringsOffset()
    {
        return HEADER_LENGTH + align((long)maxClients * ClientEntryDescriptor.ENTRY_LENGTH, PAGE_SIZE);
    }

    /** @return bytes of a request ring including its trailer. */
    public int requestRingLength()
    {
        return requestRingCapacity + RingBufferDescriptor.TRAILER_LENGTH;
    }

    /** @return bytes of a response ring including its trailer. */
    public int responseRingLength()
    {
        return responseRingCapacity + RingBufferDescriptor.TRAILER_LENGTH;
    }

    /** @return bytes from one client's rings to the next client's. */
    public long ringsStride()
    {
        return align(requestRingLength(), PAGE_SIZE) + align(responseRingLength(), PAGE_SIZE);
    }

    /** @return offset of the data region: client 0's slab. */
    public long dataOffset()
    {
        return ringsOffset() + maxClients * ringsStride();
    }

    /** @return bytes of the whole file. */
    public long fileLength()
    {
        return dataOffset() + maxClients * slabLength;
    }

    /**
     * @param client slot index
     * @return offset of that client's table entry
     */
    public long clientEntryOffset(final int client)
    {
        return clientTableOffset() + (long)checkClient(client) * ClientEntryDescriptor.ENTRY_LENGTH;
    }

    /**
     * @param client slot index
     * @return offset of that client's request ring
     */
    public long requestRingOffset(final int client)
    {
        return ringsOffset() + checkClient(client) * ringsStride();
    }

    /**
     * @param client slot index
     * @return offset of that client's response ring
     */
    public long responseRingOffset(final int client)
    {
        return requestRingOffset(client) + align(requestRingLength(), PAGE_SIZE);
    }

    /**
     * @param client slot index
     * @return offset of that client's slab (and of its input area)
     */
    public long slabOffset(final int client)
    {
        return dataOffset() + checkClient(client) * slabLength;
    }

    /**
     * @param client slot index
     * @return offset of that client's output area
     */
    public long outputAreaOffset(final int client)
    {
        return slabOffset(client) + slabInputLength;
    }

    /** @return bytes of each slab's output area. */
    public long outputAreaLength()
    {
        return slabLength - slabInputLength;
    }

    /**
     * Writes the static header fields (not generation, server identity or state).
     *
     * @param memory the mapping, at least {@link HeaderDescriptor#HEADER_LENGTH} bytes
     */
    public void writeTo(final MemorySegment memory)
    {
        memory.set(SharedMemory.LONG, MAGIC_OFFSET, MAGIC);
        memory.set(SharedMemory.INT, LAYOUT_VERSION_OFFSET, LAYOUT_VERSION);
        memory.set(SharedMemory.INT, HEADER_LENGTH_OFFSET, HEADER_LENGTH);
        memory.set(SharedMemory.LONG, FILE_LENGTH_OFFSET, fileLength());
        memory.set(SharedMemory.INT, MAX_CLIENTS_OFFSET, maxClients);
        memory.set(SharedMemory.INT, CLIENT_ENTRY_LENGTH_OFFSET, ClientEntryDescriptor.ENTRY_LENGTH);
        memory.set(SharedMemory.LONG, CLIENT_TABLE_OFFSET_OFFSET, clientTableOffset());
        memory.set(SharedMemory.INT, REQUEST_RING_CAPACITY_OFFSET, requestRingCapacity);
        memory.set(SharedMemory.INT, RESPONSE_RING_CAPACITY_OFFSET, responseRingCapacity);
        memory.set(SharedMemory.LONG, RINGS_OFFSET_OFFSET, ringsOffset());
        memory.set(SharedMemory.LONG, RINGS_STRIDE_OFFSET, ringsStride());
        memory.set(SharedMemory.LONG, DATA_OFFSET_OFFSET, dataOffset());
        memory.set(SharedMemory.LONG, SLAB_LENGTH_OFFSET, slabLength);
        memory.set(SharedMemory.LONG, SLAB_INPUT_LENGTH_OFFSET, slabInputLength);
        memory.set(SharedMemory.INT, MAX_IN_FLIGHT_OFFSET, maxInFlight);
        memory.set(SharedMemory.INT, MAX_FRAME_LENGTH_OFFSET, IpcLimits.MAX_REQUEST_FRAME_LENGTH);
        memory.set(SharedMemory.LONG, HEARTBEAT_INTERVAL_OFFSET, heartbeatIntervalMs);
        memory.set(SharedMemory.LONG, LIVENESS_TIMEOUT_OFFSET, livenessTimeoutMs);
    }

    /**
     * Reads and checks the header of a mapped region: magic, version, and that every stored offset is the one
     * the stored sizes imply and the file is as long as the header says.
     *
     * @param memory     the mapping, at least the header
     * @param fileLength the file's real length
     * @param what       the file, for messages
     * @return the layout
     * @throws IpcRegionFormatException naming the first field that is wrong
     */
    public static IpcLayout read(final MemorySegment memory, final long fileLength, final String what)
    {
        if (fileLength < HEADER_LENGTH || memory.byteSize() < HEADER_LENGTH)
        {
            throw new IpcRegionFormatException(what + " is " + fileLength + " bytes, shorter than an Ingot IPC "
                + "header (" + HEADER_LENGTH + " bytes): it is not an Ingot IPC region");
        }
        final long magic = memory.get(SharedMemory.LONG, MAGIC_OFFSET);
        if (magic != MAGIC)
        {
            throw new IpcRegionFormatException(what + " is not an Ingot IPC region: magic is 0x"
                + Long.toHexString(magic) + ", expected 0x" + Long.toHexString(MAGIC) + " (\"INGOTIPC\")");
        }
        final int version = memory.get(SharedMemory.INT, LAYOUT_VERSION_OFFSET);
        if (version != LAYOUT_VERSION)
        {
            throw new IpcRegionFormatException(what + " has IPC layout version " + version + "; this Ingot "
                + "speaks version " + LAYOUT_VERSION + ": use a client and server of the same Ingot release");
        }
        final IpcLayout layout;
        try
        {
            layout = new IpcLayout(memory.get(SharedMemory.INT, MAX_CLIENTS_OFFSET),
                memory.get(SharedMemory.LONG, SLAB_LENGTH_OFFSET),
                memory.get(SharedMemory.LONG, SLAB_INPUT_LENGTH_OFFSET),
                memory.get(SharedMemory.INT, REQUEST_RING_CAPACITY_OFFSET),
                memory.get(SharedMemory.INT, RESPONSE_RING_CAPACITY_OFFSET),
                memory.get(SharedMemory.INT, MAX_IN_FLIGHT_OFFSET),
                memory.get(SharedMemory.LONG, HEARTBEAT_INTERVAL_OFFSET),
                memory.get(SharedMemory.LONG, LIVENESS_TIMEOUT_OFFSET));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IpcRegionFormatException(what + " has an invalid header: " + ex.getMessage());
        }
        expect(what, "header_length", memory.get(SharedMemory.INT, HEADER_LENGTH_OFFSET), HEADER_LENGTH);
        expect(what, "client_entry_length", memory.get(SharedMemory.INT, CLIENT_ENTRY_LENGTH_OFFSET),
            ClientEntryDescriptor.ENTRY_LENGTH);
        expect(what, "client_table_offset", memory.get(SharedMemory.LONG, CLIENT_TABLE_OFFSET_OFFSET),
            layout.clientTableOffset());
        expect(what, "rings_offset", memory.get(SharedMemory.LONG, RINGS_OFFSET_OFFSET), layout.ringsOffset());
        expect(what, "rings_stride", memory.get(SharedMemory.LONG, RINGS_STRIDE_OFFSET), layout.ringsStride());
        expect(what, "data_offset", memory.get(SharedMemory.LONG, DATA_OFFSET_OFFSET), layout.dataOffset());
        expect(what, "max_frame_length", memory.get(SharedMemory.INT, MAX_FRAME_LENGTH_OFFSET),
            IpcLimits.MAX_REQUEST_FRAME_LENGTH);
        expect(what, "file_length", memory.get(SharedMemory.LONG, FILE_LENGTH_OFFSET), layout.fileLength());
        if (fileLength != layout.fileLength())
        {
            throw new IpcRegionFormatException(what + " is " + fileLength + " bytes but its header describes "
                + layout.fileLength() + " bytes: the file was truncated or is not a finished Ingot IPC region");
        }
        return layout;
    }

    private static void expect(final String what, final String field, final long actual, final long expected)
    {
        if (actual != expected)
        {
            throw new IpcRegionFormatException(what + " has an inconsistent header: " + field + " is " + actual
                + ", expected " + expected);
        }
    }

    private int checkClient(final int client)
    {
        if (client < 0 || client >= maxClients)
        {
            throw new IndexOutOfBoundsException("client slot " + client + " of " + maxClients);
        }
        return client;
    }

    private static boolean isPowerOfTwo(final int value)
    {
        return value > 0 && Integer.bitCount(value) == 1;
    }

    private static void check(final boolean condition, final String message)
    {
        if (!condition)
        {
            throw new IllegalArgumentException(message);
        }
    }
}
