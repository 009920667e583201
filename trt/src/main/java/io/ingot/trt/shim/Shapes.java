package io.ingot.trt.shim;

/** Small helpers for tensor shapes held as {@code long[]} (a dimension of {@code -1} is dynamic). */
public final class Shapes
{
    private Shapes()
    {
    }

    /**
     * @param shape dimensions
     * @param rank  how many of them count
     * @return {@code "[d0, d1, ...]"}
     */
    public static String format(final long[] shape, final int rank)
    {
        final StringBuilder text = new StringBuilder("[");
        for (int i = 0; i < rank; i++)
        {
            if (i > 0)
            {
                text.append(", ");
            }
            text.append(shape[i]);
        }
        return text.append(']').toString();
    }

    /**
     * @param shape dimensions
     * @return {@code "[d0, d1, ...]"}
     */
    public static String format(final long[] shape)
    {
        return format(shape, shape.length);
    }

    /**
     * @param shape dimensions, all {@code >= 0}
     * @param rank  how many of them count
     * @return the number of elements (1 for rank 0)
     * @throws ArithmeticException on overflow
     */
    public static long volume(final long[] shape, final int rank)
    {
        long count = 1;
        for (int i = 0; i < rank; i++)
        {
            count = Math.multiplyExact(count, shape[i]);
        }
        return count;
    }

    /**
     * @param shape dimensions
     * @param rank  how many of them count
     * @return true when some dimension is negative (dynamic or unresolved)
     */
    public static boolean isDynamic(final long[] shape, final int rank)
    {
        for (int i = 0; i < rank; i++)
        {
            if (shape[i] < 0)
            {
                return true;
            }
        }
        return false;
    }
}
