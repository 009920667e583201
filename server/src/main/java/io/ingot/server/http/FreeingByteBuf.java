package io.ingot.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.WrappedByteBuf;

/**
 * A buffer that gives back something of its own ({@link #freed()}) when the last reference to it is released: a
 * budget reservation, a mapping. Derived buffers ({@code slice}, {@code duplicate}) share its memory and must not
 * outlive it; the frontend releases bodies only through the buffer itself or the request that holds it.
 */
abstract class FreeingByteBuf extends WrappedByteBuf
{
    /**
     * @param buffer the buffer wrapped (its reference passes to this one)
     */
    FreeingByteBuf(final ByteBuf buffer)
    {
        super(buffer);
    }

    /** Runs once, after the last reference was released. */
    abstract void freed();

    @Override
    public boolean release()
    {
        return afterRelease(super.release());
    }

    @Override
    public boolean release(final int decrement)
    {
        return afterRelease(super.release(decrement));
    }

    private boolean afterRelease(final boolean last)
    {
        if (last)
        {
            freed();
        }
        return last;
    }
}
