package io.ingot.ipc;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Ordered and atomic access to fields of a shared mapping, the {@code MemorySegment} equivalent of Agrona's
 * {@code AtomicBuffer}: release stores publish every earlier store, acquire loads are not overtaken by later loads,
 * aligned 4- and 8-byte fields are never torn. Offsets must be naturally aligned.
 *
 * <p>The layout is little-endian; this class refuses to load on a big-endian host, where native access would not
 * match the file format.
 */
public final class SharedMemory
{
    /** Little-endian int, unaligned: for plain reads and writes of frame fields. */
    public static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** Little-endian long, unaligned. */
    public static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** Little-endian short, unaligned. */
    public static final ValueLayout.OfShort SHORT =
        ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private static final VarHandle ATOMIC_INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle ATOMIC_LONG = ValueLayout.JAVA_LONG.varHandle();

    static
    {
        if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN)
        {
            throw new ExceptionInInitializerError("Ingot IPC needs a little-endian host; this one is "
                + ByteOrder.nativeOrder());
        }
    }

    private SharedMemory()
    {
    }

    /**
     * @param memory the mapping
     * @param offset a multiple of 4
     * @return the int, read with acquire semantics
     */
    public static int getIntAcquire(final MemorySegment memory, final long offset)
    {
        return (int)ATOMIC_INT.getAcquire(memory, offset);
    }

    /**
     * @param memory the mapping
     * @param offset a multiple of 4
     * @param value  stored after every earlier store is visible
     */
    public static void putIntRelease(final MemorySegment memory, final long offset, final int value)
    {
        ATOMIC_INT.setRelease(memory, offset, value);
    }

    /**
     * @param memory   the mapping
     * @param offset   a multiple of 4
     * @param expected the value required
     * @param value    the new value
     * @return whether the int was {@code expected} and is now {@code value}
     */
    public static boolean compareAndSetInt(final MemorySegment memory, final long offset, final int expected,
        final int value)
    {
        return ATOMIC_INT.compareAndSet(memory, offset, expected, value);
    }

    /**
     * @param memory the mapping
     * @param offset a multiple of 4
     * @param delta  added atomically
     * @return the value before the addition
     */
    public static int getAndAddInt(final MemorySegment memory, final long offset, final int delta)
    {
        return (int)ATOMIC_INT.getAndAdd(memory, offset, delta);
    }

    /**
     * @param memory the mapping
     * @param offset a multiple of 4
     * @return the int, read with volatile (sequentially consistent) semantics
     */
    public static int getIntVolatile(final MemorySegment memory, final long offset)
    {
        return (int)ATOMIC_INT.getVolatile(memory, offset);
    }

    /**
     * @param memory the mapping
     * @param offset a multiple of 4
     * @param value  stored with volatile (sequentially consistent) semantics
     */
    public static void putIntVolatile(final MemorySegment memory, final long offset, final int value)
    {
        ATOMIC_INT.setVolatile(memory, offset, value);
    }

    /**
     * @param memory the mapping
     * @param offset a multiple of 8
     * @return the long, read with acquire semantics
     */
    public static long getLongAcquire(final MemorySegment memory, final long offset)
    {
        return (long)ATOMIC_LONG.getAcquire(memory, offset);
    }

    /**
     * @param memory the mapping
     * @param offset a multiple of 8
     * @param value  stored after every earlier store is visible
     */
    public static void putLongRelease(final MemorySegment memory, final long offset, final long value)
    {
        ATOMIC_LONG.setRelease(memory, offset, value);
    }

    /**
     * @param memory the mapping
     * @param offset a multiple of 8
     * @return the long, read without tearing but without ordering
     */
    public static long getLongOpaque(final MemorySegment memory, final long offset)
    {
        return (long)ATOMIC_LONG.getOpaque(memory, offset);
    }
}
