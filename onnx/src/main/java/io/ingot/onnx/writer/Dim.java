package io.ingot.onnx.writer;

/**
 * One dimension of a graph input or output as ONNX declares it: a fixed size, or a symbolic name shared by every
 * dimension that must have the same run-time size (for example {@code "batch"}).
 */
public sealed interface Dim
{
    /**
     * @param size the fixed size, {@code >= 0}
     * @return a fixed dimension
     */
    static Dim of(final long size)
    {
        return new Fixed(size);
    }

    /**
     * @param name the symbolic name
     * @return a dimension whose size is known only at run time
     */
    static Dim named(final String name)
    {
        return new Named(name);
    }

    /**
     * A dimension of fixed size.
     *
     * @param size the size, {@code >= 0}
     */
    record Fixed(long size) implements Dim
    {
        /** Rejects negative sizes. */
        public Fixed
        {
            if (size < 0)
            {
                throw new IllegalArgumentException("a fixed dimension must be >= 0, was " + size);
            }
        }
    }

    /**
     * A symbolic dimension.
     *
     * @param name its name, not empty
     */
    record Named(String name) implements Dim
    {
        /** Rejects empty names. */
        public Named
        {
            if (name == null || name.isEmpty())
            {
                throw new IllegalArgumentException("a symbolic dimension needs a name");
            }
        }
    }
}
