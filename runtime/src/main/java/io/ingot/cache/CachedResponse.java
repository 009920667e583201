package io.ingot.cache;

import io.ingot.tensor.DataType;

import java.util.List;

/**
 * A successful response as the cache holds it: each output's name, datatype, shape and bytes, copied out of the
 * response's own memory into the heap. Immutable (the arrays are never changed after construction).
 *
 * @param outputs the outputs, in the order the response had them
 * @param bytes   what the entry counts against the cache's capacity
 */
public record CachedResponse(List<Output> outputs, long bytes)
{
    /** Bookkeeping counted per entry and per output beside the data bytes. */
    private static final long ENTRY_OVERHEAD = 64;
    private static final long OUTPUT_OVERHEAD = 64;

    /**
     * One output.
     *
     * @param name     its name
     * @param dataType its datatype
     * @param shape    its shape
     * @param data     its bytes
     */
    public record Output(String name, DataType dataType, long[] shape, byte[] data)
    {
    }

    /**
     * @param outputs the outputs
     * @return the entry, sized by its bytes and a fixed overhead per output
     */
    public static CachedResponse of(final List<Output> outputs)
    {
        long bytes = ENTRY_OVERHEAD;
        for (final Output output : outputs)
        {
            bytes += OUTPUT_OVERHEAD + output.data().length + 8L * output.shape().length + 2L * output.name().length();
        }
        return new CachedResponse(List.copyOf(outputs), bytes);
    }
}
