package io.ingot.python;

import io.ingot.ipc.Doorbell;
import io.ingot.ipc.IpcLimits;
import io.ingot.ipc.IpcRegion;
import io.ingot.ipc.IpcRingReader;
import io.ingot.ipc.IpcRingWriter;
import io.ingot.ipc.SharedMemory;
import io.ingot.ipc.SlabAllocator;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static io.ingot.python.StubRegionDescriptor.FILE_LENGTH_OFFSET;
import static io.ingot.python.StubRegionDescriptor.HEADER_LENGTH;
import static io.ingot.python.StubRegionDescriptor.HEADER_LENGTH_OFFSET;
import static io.ingot.python.StubRegionDescriptor.MAGIC;
import static io.ingot.python.StubRegionDescriptor.MAGIC_OFFSET;
import static io.ingot.python.StubRegionDescriptor.PARENT_AREA_LENGTH_OFFSET;
import static io.ingot.python.StubRegionDescriptor.PARENT_AREA_OFFSET_OFFSET;
import static io.ingot.python.StubRegionDescriptor.PARENT_DOORBELL_OFFSET;
import static io.ingot.python.StubRegionDescriptor.PARENT_PID_OFFSET;
import static io.ingot.python.StubRegionDescriptor.PARENT_WAITING_OFFSET;
import static io.ingot.python.StubRegionDescriptor.PUMP_DOORBELL_OFFSET;
import static io.ingot.python.StubRegionDescriptor.PUMP_WAITING_OFFSET;
import static io.ingot.python.StubRegionDescriptor.STUB_AREA_LENGTH_OFFSET;
import static io.ingot.python.StubRegionDescriptor.STUB_AREA_OFFSET_OFFSET;
import static io.ingot.python.StubRegionDescriptor.STUB_DOORBELL_OFFSET;
import static io.ingot.python.StubRegionDescriptor.STUB_HEARTBEAT_OFFSET;
import static io.ingot.python.StubRegionDescriptor.STUB_WAITING_OFFSET;
import static io.ingot.python.StubRegionDescriptor.TO_PARENT_CAPACITY_OFFSET;
import static io.ingot.python.StubRegionDescriptor.TO_PARENT_OFFSET_OFFSET;
import static io.ingot.python.StubRegionDescriptor.TO_STUB_CAPACITY_OFFSET;
import static io.ingot.python.StubRegionDescriptor.TO_STUB_OFFSET_OFFSET;
import static io.ingot.python.StubRegionDescriptor.VERSION;
import static io.ingot.python.StubRegionDescriptor.VERSION_OFFSET;

/**
 * One instance's shared-memory file, created by the server and mapped by the stub: a private file (mode 0600) in the
 * IPC directory ({@code /dev/shm}, or {@link IpcRegion#directory()}), unlinked as soon as the stub has mapped it, so
 * that nothing is left behind whatever happens to either process. Holds the two rings, the doorbells, and the data
 * areas with their allocators: the input area (request inputs; the instance thread allocates, one execute at a
 * time), the BLS area (outputs of the models a BLS request calls; their instance threads allocate, under this
 * object's lock) and the stub area (which only the stub allocates).
 *
 * <p>Thread-safety: the rings and the input area belong to the instance thread; {@link #blsOutputs()} is
 * thread-safe; {@link #close()} must come after every user of the memory is done.
 */
final class StubRegion implements AutoCloseable
{
    /** Bytes of records in each ring (the longest record body is an eighth of it). */
    static final int RING_CAPACITY = 1 << 20;
    private static final int AREA_ALIGNMENT = 64 * 1024;
    private static final AtomicLong SEQUENCE = new AtomicLong();

    private final Path path;
    private final FileChannel channel;
    private final Arena arena;
    private final MemorySegment memory;
    private final IpcRingWriter toStub;
    private final IpcRingReader toParent;
    private final Doorbell stubBell;
    private final Doorbell parentBell;
    private final Doorbell pumpBell;
    private final SlabAllocator inputs;
    private final BlsOutputAllocator blsOutputs;
    private final long dataOffset;
    private volatile boolean unlinked;

    private StubRegion(final Path path, final FileChannel channel, final Arena arena, final MemorySegment memory,
        final long areaBytes)
    {
        this.path = path;
        this.channel = channel;
        this.arena = arena;
        this.memory = memory;
        final long ringBytes = IpcLimits.align(RING_CAPACITY + RingBufferDescriptor.TRAILER_LENGTH,
            IpcLimits.PAGE_SIZE);
        final long toStubOffset = HEADER_LENGTH;
        final long toParentOffset = toStubOffset + ringBytes;
        this.dataOffset = toParentOffset + ringBytes;
        final long stubAreaOffset = dataOffset + 2 * areaBytes;

        memory.set(SharedMemory.LONG, MAGIC_OFFSET, MAGIC);
        memory.set(SharedMemory.INT, VERSION_OFFSET, VERSION);
        memory.set(SharedMemory.INT, HEADER_LENGTH_OFFSET, HEADER_LENGTH);
        memory.set(SharedMemory.LONG, FILE_LENGTH_OFFSET, memory.byteSize());
        memory.set(SharedMemory.INT, TO_STUB_CAPACITY_OFFSET, RING_CAPACITY);
        memory.set(SharedMemory.INT, TO_PARENT_CAPACITY_OFFSET, RING_CAPACITY);
        memory.set(SharedMemory.LONG, TO_STUB_OFFSET_OFFSET, toStubOffset);
        memory.set(SharedMemory.LONG, TO_PARENT_OFFSET_OFFSET, toParentOffset);
        memory.set(SharedMemory.LONG, PARENT_AREA_OFFSET_OFFSET, dataOffset);
        memory.set(SharedMemory.LONG, PARENT_AREA_LENGTH_OFFSET, 2 * areaBytes);
        memory.set(SharedMemory.LONG, STUB_AREA_OFFSET_OFFSET, stubAreaOffset);
        memory.set(SharedMemory.LONG, STUB_AREA_LENGTH_OFFSET, areaBytes);
        memory.set(SharedMemory.LONG, PARENT_PID_OFFSET, ProcessHandle.current().pid());

        final int ringLength = RING_CAPACITY + RingBufferDescriptor.TRAILER_LENGTH;
        this.toStub = new IpcRingWriter(memory.asSlice(toStubOffset, ringLength));
        this.toParent = new IpcRingReader(memory.asSlice(toParentOffset, ringLength));
        this.stubBell = new Doorbell(memory, STUB_DOORBELL_OFFSET, STUB_WAITING_OFFSET);
        this.parentBell = new Doorbell(memory, PARENT_DOORBELL_OFFSET, PARENT_WAITING_OFFSET);
        this.pumpBell = new Doorbell(memory, PUMP_DOORBELL_OFFSET, PUMP_WAITING_OFFSET);
        this.inputs = new SlabAllocator(dataOffset, areaBytes);
        this.blsOutputs = new BlsOutputAllocator(memory, new SlabAllocator(dataOffset + areaBytes, areaBytes));
    }

    /**
     * Creates and maps a region for one stub.
     *
     * @param model     the model, for messages
     * @param areaBytes bytes of each of the three data areas (a multiple of 64 KiB is used, at least 64 KiB)
     * @return the region, header written, rings empty
     * @throws PythonStubException when the file cannot be created or the IPC directory lacks the space
     */
    static StubRegion create(final String model, final long areaBytes) throws PythonStubException
    {
        final long area = Math.max(AREA_ALIGNMENT, IpcLimits.align(areaBytes, AREA_ALIGNMENT));
        final long ringBytes = IpcLimits.align(RING_CAPACITY + RingBufferDescriptor.TRAILER_LENGTH,
            IpcLimits.PAGE_SIZE);
        final long size = HEADER_LENGTH + 2 * ringBytes + 3 * area;
        final Path directory = IpcRegion.directory();
        final Path path = directory.resolve("ingot-python-" + ProcessHandle.current().pid() + "-"
            + SEQUENCE.incrementAndGet());
        FileChannel channel = null;
        Arena arena = null;
        try
        {
            final long usable = Files.getFileStore(directory).getUsableSpace();
            if (usable < size)
            {
                throw new PythonStubException("python model '" + model + "': " + directory + " has " + usable / 1024
                    / 1024 + " MiB free, and an instance's shared memory needs " + size / 1024 / 1024 + " MiB; "
                    + "give the container more (docker run --shm-size) or lower the model's parameter "
                    + PythonSettings.SHM_BYTES);
            }
            channel = FileChannel.open(path, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            channel.write(ByteBuffer.wrap(new byte[1]), size - 1);
            arena = Arena.ofShared();
            final MemorySegment memory = channel.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
            return new StubRegion(path, channel, arena, memory, area);
        }
        catch (final IOException | RuntimeException ex)
        {
            if (arena != null)
            {
                arena.close();
            }
            closeQuietly(channel);
            try
            {
                Files.deleteIfExists(path);
            }
            catch (final IOException ignored)
            {
                // Nothing more to do: the creation failed already.
            }
            throw new PythonStubException("python model '" + model + "': cannot create the instance's shared memory "
                + path + ": " + ex, ex);
        }
    }

    /** @return the file's path (it no longer exists once {@link #unlink()} ran). */
    Path path()
    {
        return path;
    }

    /** @return the whole mapping. */
    MemorySegment memory()
    {
        return memory;
    }

    /** @return the ring the server writes and the stub reads. */
    IpcRingWriter toStub()
    {
        return toStub;
    }

    /** @return the ring the stub writes and the server reads. */
    IpcRingReader toParent()
    {
        return toParent;
    }

    /** @return the stub's doorbell, which the server rings after every record (the stub cannot fence). */
    Doorbell stubBell()
    {
        return stubBell;
    }

    /** @return the server's doorbell, which the stub and BLS completions ring. */
    Doorbell parentBell()
    {
        return parentBell;
    }

    /** @return the session pump's doorbell, which the stub rings after every record but its batch's own */
    Doorbell pumpBell()
    {
        return pumpBell;
    }

    /** @return the allocator of the input area, reset for every batch (instance thread only). */
    SlabAllocator inputs()
    {
        return inputs;
    }

    /** @return the allocator BLS requests write their outputs through (thread-safe). */
    BlsOutputAllocator blsOutputs()
    {
        return blsOutputs;
    }

    /**
     * @param offset a file offset
     * @param length a byte count
     * @return whether {@code [offset, offset + length)} lies inside the data areas
     */
    boolean inDataAreas(final long offset, final long length)
    {
        return offset >= dataOffset && length >= 0 && offset <= memory.byteSize()
            && length <= memory.byteSize() - offset;
    }

    /**
     * @param segment memory of any origin
     * @return its file offset when it lies entirely inside the data areas, else -1
     */
    long offsetOf(final MemorySegment segment)
    {
        if (!segment.isNative())
        {
            return -1;
        }
        final long offset = segment.address() - memory.address();
        return inDataAreas(offset, segment.byteSize()) ? offset : -1;
    }

    /** @return the stub's heartbeat counter. */
    long heartbeat()
    {
        return SharedMemory.getLongAcquire(memory, STUB_HEARTBEAT_OFFSET);
    }

    /** Removes the file: the mappings stay valid, and nothing is left behind when either process dies. */
    void unlink()
    {
        if (!unlinked)
        {
            unlinked = true;
            try
            {
                Files.deleteIfExists(path);
            }
            catch (final IOException ignored)
            {
                // The directory went away or was cleaned; the mapping is unaffected.
            }
        }
    }

    /** Unlinks and unmaps; nothing may use the memory afterwards. */
    @Override
    public void close()
    {
        unlink();
        arena.close();
        closeQuietly(channel);
    }

    private static void closeQuietly(final FileChannel channel)
    {
        if (channel != null)
        {
            try
            {
                channel.close();
            }
            catch (final IOException ignored)
            {
                // Closing a file we no longer need.
            }
        }
    }
}
