package io.ingot.client.shm;

import io.ingot.client.InferenceServerException;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A POSIX shared-memory object for Triton's system shared-memory extension, as
 * {@code tritonclient.utils.shared_memory} makes them: {@link #create} makes (or opens) {@code /dev/shm<key>} and
 * maps it; the client writes inputs into {@link #segment()} and registers the object with the server
 * ({@code registerSystemSharedMemory(name, key, byteSize, 0)}); inputs and outputs then name the region instead of
 * carrying data, and the server reads and writes the mapped bytes in place. {@link #close()} unmaps it and, when this
 * handle created it, unlinks it (Triton's {@code destroy_shared_memory_region}); unregister it from the server first.
 *
 * <p>Pure Java ({@code FileChannel.map} into an {@link Arena}): no native access is needed. Linux only (that is where
 * {@code shm_open} objects live under {@code /dev/shm}). The segment may be used by any thread; {@code close} by one,
 * after every use.
 */
public final class SystemSharedMemoryRegion implements AutoCloseable
{
    private static final Path SHM = Path.of("/dev/shm");

    private final String tritonName;
    private final String key;
    private final Path file;
    private final Arena arena;
    private final MemorySegment segment;
    private final boolean created;

    private SystemSharedMemoryRegion(final String tritonName, final String key, final Path file, final Arena arena,
        final MemorySegment segment, final boolean created)
    {
        this.tritonName = tritonName;
        this.key = key;
        this.file = file;
        this.arena = arena;
        this.segment = segment;
        this.created = created;
    }

    /**
     * Creates the object, or opens it if it exists and is large enough (Triton's {@code create_only=False}).
     *
     * @param tritonName the name it will be registered under
     * @param key        the object's key: {@code /name}, one path component, as {@code shm_open} takes it
     * @param byteSize   its size in bytes
     * @return the mapped region
     * @throws InferenceServerException "unable to create the shared memory region" (Triton's text) with the reason
     */
    public static SystemSharedMemoryRegion create(final String tritonName, final String key, final long byteSize)
    {
        if (key == null || !key.startsWith("/") || key.length() < 2 || key.indexOf('/', 1) >= 0)
        {
            throw new InferenceServerException("unable to create the shared memory region: key '" + key
                + "' must be '/' followed by a name without '/'");
        }
        if (byteSize < 1)
        {
            throw new InferenceServerException("unable to create the shared memory region '" + key
                + "': size must be positive, was " + byteSize);
        }
        final Path file = SHM.resolve(key.substring(1));
        final boolean existed = Files.exists(file);
        final Arena arena = Arena.ofShared();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
            StandardOpenOption.WRITE))
        {
            if (!existed)
            {
                Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            }
            if (channel.size() < byteSize)
            {
                channel.write(ByteBuffer.allocate(1), byteSize - 1);
            }
            final MemorySegment segment = channel.map(FileChannel.MapMode.READ_WRITE, 0, byteSize, arena);
            return new SystemSharedMemoryRegion(tritonName, key, file, arena, segment, !existed);
        }
        catch (final IOException | UnsupportedOperationException failure)
        {
            arena.close();
            throw new InferenceServerException("unable to create the shared memory region '" + key + "': " + failure,
                null, null, failure);
        }
    }

    /** @return the name it is registered under */
    public String tritonName()
    {
        return tritonName;
    }

    /** @return the object's key, {@code /name} */
    public String key()
    {
        return key;
    }

    /** @return its size in bytes */
    public long byteSize()
    {
        return segment.byteSize();
    }

    /** @return the mapped bytes, valid until {@link #close()} */
    public MemorySegment segment()
    {
        return segment;
    }

    /**
     * Copies floats into the region (Triton's {@code set_shared_memory_region}), little-endian.
     *
     * @param offset where they go
     * @param values the values
     * @throws InferenceServerException "unable to set the shared memory region" when they do not fit
     */
    public void write(final long offset, final float[] values)
    {
        checkFits("set", offset, (long)values.length * Float.BYTES);
        MemorySegment.copy(values, 0, segment, ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(
            ByteOrder.LITTLE_ENDIAN), offset, values.length);
    }

    /** Copies ints into the region, little-endian. */
    public void write(final long offset, final int[] values)
    {
        checkFits("set", offset, (long)values.length * Integer.BYTES);
        MemorySegment.copy(values, 0, segment, ValueLayout.JAVA_INT_UNALIGNED.withOrder(
            ByteOrder.LITTLE_ENDIAN), offset, values.length);
    }

    /** Copies bytes into the region (for any datatype's raw, little-endian bytes). */
    public void write(final long offset, final byte[] bytes)
    {
        checkFits("set", offset, bytes.length);
        MemorySegment.copy(bytes, 0, segment, ValueLayout.JAVA_BYTE, offset, bytes.length);
    }

    /** @return {@code count} floats read from the region (Triton's {@code get_contents_as_numpy}) */
    public float[] readFloats(final long offset, final int count)
    {
        checkFits("read", offset, (long)count * Float.BYTES);
        final float[] values = new float[count];
        MemorySegment.copy(segment, ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN),
            offset, values, 0, count);
        return values;
    }

    /** @return {@code count} ints read from the region */
    public int[] readInts(final long offset, final int count)
    {
        checkFits("read", offset, (long)count * Integer.BYTES);
        final int[] values = new int[count];
        MemorySegment.copy(segment, ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN),
            offset, values, 0, count);
        return values;
    }

    /** Unmaps the region and, if this handle created the object, unlinks it. */
    @Override
    public void close()
    {
        arena.close();
        if (created)
        {
            try
            {
                Files.deleteIfExists(file);
            }
            catch (final IOException failure)
            {
                throw new InferenceServerException("unable to unlink the shared memory region '" + key + "': "
                    + failure, null, null, failure);
            }
        }
    }

    private void checkFits(final String what, final long offset, final long bytes)
    {
        if (offset < 0 || offset + bytes > segment.byteSize())
        {
            throw new InferenceServerException("unable to " + what + " the shared memory region '" + key + "': " + bytes
                + " bytes at offset " + offset + " do not fit in its " + segment.byteSize() + " bytes");
        }
    }
}
