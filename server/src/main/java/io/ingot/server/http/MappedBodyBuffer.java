package io.ingot.server.http;

import io.ingot.libc.Posix;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A buffer for one large request body: anonymous memory mapped for the body's whole size at once
 * ({@link Posix#mapAnonymous}), which the kernel commits page by page as the body's bytes are written. So the body is
 * read into one contiguous buffer without the copies a growing buffer makes, and a client that declares a large body
 * and sends little of it costs the pages it sent, not the size it declared. The memory is unmapped when the last
 * reference is released; views made of it ({@code nioBuffer}, {@link MemorySegment#ofBuffer}) belong to its shared
 * arena, so a view used after that fails instead of reading freed memory. Not thread-safe to write; its readers may
 * be any threads.
 */
final class MappedBodyBuffer extends FreeingByteBuf
{
    private final Arena arena;

    private MappedBodyBuffer(final ByteBuf mapped, final Arena arena)
    {
        super(mapped);
        this.arena = arena;
    }

    /** @return whether bodies can be mapped here (Linux on x86-64 or aarch64) */
    static boolean isAvailable()
    {
        return Posix.isAvailable();
    }

    /**
     * @param capacity the body's size, or the most it may grow to when its size is not known
     * @return an empty buffer of that capacity, owned by the caller
     * @throws io.ingot.libc.PosixException when the address space cannot hold the mapping
     */
    static ByteBuf allocate(final int capacity)
    {
        final Arena arena = Arena.ofShared();
        try
        {
            final MemorySegment memory = Posix.mapAnonymous(capacity, arena);
            return new MappedBodyBuffer(Unpooled.wrappedBuffer(memory.asByteBuffer()).clear(), arena);
        }
        catch (final RuntimeException e)
        {
            arena.close();
            throw e;
        }
    }

    @Override
    void freed()
    {
        arena.close();
    }
}
