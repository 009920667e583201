package io.ingot.cache;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Builds a request's 64-bit cache key as Triton does (core {@code src/cache_manager.cc}): a seed combined, in the
 * manner of {@code boost::hash_combine}, over the model name, the version, and each input's name and every data
 * byte, inputs in a fixed order (Triton sorts them by name; Ingot takes the configuration's order, which is as
 * fixed). Unlike Triton, Ingot also folds in which outputs the request asked for, so two requests that differ only in
 * their requested outputs never share an entry. Shape and datatype are not hashed, as in Triton. Not thread-safe: one
 * per caller, reused; allocates nothing.
 */
public final class CacheKey
{
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private long seed;

    /**
     * Starts a key.
     *
     * @param model   the model's name
     * @param version the version that runs the request
     * @return this
     */
    public CacheKey begin(final String model, final long version)
    {
        seed = 0;
        combine(model.hashCode());
        combine(version);
        return this;
    }

    /**
     * @param name  an input's name
     * @param bytes its data
     * @return this
     */
    public CacheKey input(final String name, final MemorySegment bytes)
    {
        combine(name.hashCode());
        final long size = bytes.byteSize();
        long offset = 0;
        for (; offset + 8 <= size; offset += 8)
        {
            combine(bytes.get(LONG, offset));
        }
        long tail = 0;
        for (; offset < size; offset++)
        {
            tail = tail << 8 | (bytes.get(ValueLayout.JAVA_BYTE, offset) & 0xFF);
        }
        combine(tail ^ size);
        return this;
    }

    /**
     * @param requestedOutputs the bit set of requested outputs
     * @return this
     */
    public CacheKey outputs(final long requestedOutputs)
    {
        combine(requestedOutputs);
        return this;
    }

    /** @return the key */
    public long value()
    {
        return seed;
    }

    /** {@code boost::hash_combine}'s step, over a 64-bit mix of the value (the hash of a long is the long). */
    private void combine(final long value)
    {
        seed ^= mix(value) + 0x9e3779b97f4a7c15L + (seed << 6) + (seed >>> 2);
    }

    /** The finalizer of SplitMix64: spreads every input bit over the whole word. */
    private static long mix(final long value)
    {
        long z = value;
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
