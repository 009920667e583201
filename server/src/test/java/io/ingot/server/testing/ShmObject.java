package io.ingot.server.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.UUID;

/**
 * A POSIX shared-memory object created by a test in {@code /dev/shm}, as a client creates one with
 * {@code shm_open}, mapped into the test so that it can write inputs and read outputs; deleted on close.
 */
public final class ShmObject implements AutoCloseable
{
    private final String key;
    private final Path file;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment memory;

    /**
     * @param byteSize size of the object
     */
    public ShmObject(final long byteSize)
    {
        this.key = "/ingot_test_" + UUID.randomUUID().toString().replace("-", "");
        this.file = Path.of("/dev/shm", key.substring(1));
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
            StandardOpenOption.WRITE))
        {
            channel.truncate(byteSize);
            channel.position(byteSize - 1).write(java.nio.ByteBuffer.wrap(new byte[1]));
            memory = channel.map(FileChannel.MapMode.READ_WRITE, 0, byteSize, arena);
        }
        catch (final IOException failure)
        {
            throw new UncheckedIOException("cannot create shared memory object " + file, failure);
        }
    }

    /** @return the key a client registers ({@code /ingot_test_...}). */
    public String key()
    {
        return key;
    }

    /** @return the object's bytes, as the client sees them. */
    public MemorySegment memory()
    {
        return memory;
    }

    @Override
    public void close()
    {
        arena.close();
        try
        {
            Files.deleteIfExists(file);
        }
        catch (final IOException ignored)
        {
            // best effort: /dev/shm is cleaned at reboot
        }
    }
}
