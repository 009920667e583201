package io.ingot.ipc;

import java.util.Arrays;

/**
 * First-fit allocator of one area of a slab (docs/ipc.md, "Data region"): 64-byte blocks tracked in a bitmap, so
 * every allocation is 64-byte aligned, allocation and release allocate nothing, and {@link #free} can tell an exact,
 * live allocation from anything else (a second bitmap marks where each allocation starts).
 *
 * <p>The bookkeeping lives in the heap of the process that allocates: the client for its input area, the server
 * for a client's output area. Not thread-safe: one owner, or the owner's lock.
 */
public final class SlabAllocator
{
    /** Returned by {@link #allocate} when no free run is long enough. */
    public static final long FAILED = -1;

    private static final int BLOCK = IpcLimits.TENSOR_ALIGNMENT;

    private final long base;
    private final long length;
    private final int blocks;
    private final long[] used;
    private final long[] starts;
    private int hint;
    private long freeBlocks;
    private int allocations;

    /**
     * @param base   file offset of the area's first byte, a multiple of 64
     * @param length bytes of the area, a multiple of 64
     */
    public SlabAllocator(final long base, final long length)
    {
        if (base < 0 || base % BLOCK != 0 || length <= 0 || length % BLOCK != 0 || length / BLOCK > Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException("an allocator area must start and end on 64-byte boundaries and hold "
                + "1.." + Integer.MAX_VALUE + " blocks; got base " + base + ", length " + length);
        }
        this.base = base;
        this.length = length;
        this.blocks = (int)(length / BLOCK);
        this.used = new long[(blocks + 63) >>> 6];
        this.starts = new long[used.length];
        this.freeBlocks = blocks;
    }

    /**
     * @param bytes bytes wanted, {@code >= 0} (0 takes one block, so that every allocation has its own offset)
     * @return the file offset of a 64-byte-aligned run of at least {@code bytes}, or {@link #FAILED}
     */
    public long allocate(final long bytes)
    {
        if (bytes < 0)
        {
            throw new IllegalArgumentException("cannot allocate " + bytes + " bytes");
        }
        if (bytes > length)
        {
            return FAILED;
        }
        final int count = blockCount(bytes);
        int first = findRun(count, hint, blocks);
        if (first < 0)
        {
            first = findRun(count, 0, Math.min(blocks, hint + count - 1));
        }
        if (first < 0)
        {
            return FAILED;
        }
        setRange(used, first, first + count);
        starts[first >>> 6] |= 1L << first;
        hint = first + count == blocks ? 0 : first + count;
        freeBlocks -= count;
        allocations++;
        return base + (long)first * BLOCK;
    }

    /**
     * Frees an allocation, if it is one: {@code offset} must be where {@link #allocate} placed it and
     * {@code bytes} the size asked then (any size that rounds to the same number of blocks is accepted).
     *
     * @param offset the allocation's file offset
     * @param bytes  its size
     * @return false, changing nothing, when that is not exactly a live allocation
     */
    public boolean free(final long offset, final long bytes)
    {
        if (offset < base || offset - base >= length || (offset - base) % BLOCK != 0 || bytes < 0
            || bytes > length)
        {
            return false;
        }
        final int first = (int)((offset - base) / BLOCK);
        final int count = blockCount(bytes);
        final int end = first + count;
        if (end > blocks || !isSet(starts, first))
        {
            return false;
        }
        if (nextBit(used, first, end, false) >= 0 || nextBit(starts, first + 1, end, true) >= 0)
        {
            return false;
        }
        if (end < blocks && isSet(used, end) && !isSet(starts, end))
        {
            return false;
        }
        clearRange(used, first, end);
        starts[first >>> 6] &= ~(1L << first);
        freeBlocks += count;
        allocations--;
        return true;
    }

    /** Frees everything. */
    public void reset()
    {
        Arrays.fill(used, 0L);
        Arrays.fill(starts, 0L);
        hint = 0;
        freeBlocks = blocks;
        allocations = 0;
    }

    /** @return file offset of the area. */
    public long base()
    {
        return base;
    }

    /** @return bytes of the area. */
    public long capacity()
    {
        return length;
    }

    /** @return bytes not allocated (possibly fragmented). */
    public long freeBytes()
    {
        return freeBlocks * BLOCK;
    }

    /** @return the number of live allocations. */
    public int allocations()
    {
        return allocations;
    }

    /**
     * @param offset a file offset
     * @param bytes  a length
     * @return whether {@code [offset, offset + bytes)} lies inside this area
     */
    public boolean contains(final long offset, final long bytes)
    {
        return offset >= base && bytes >= 0 && offset - base <= length && bytes <= length - (offset - base);
    }

    private static int blockCount(final long bytes)
    {
        return (int)Math.max(1, (bytes + BLOCK - 1) / BLOCK);
    }

    private int findRun(final int count, final int from, final int to)
    {
        int candidate = from;
        while (candidate + count <= to)
        {
            candidate = nextBit(used, candidate, to, false);
            if (candidate < 0 || candidate + count > to)
            {
                return -1;
            }
            final int blocked = nextBit(used, candidate, candidate + count, true);
            if (blocked < 0)
            {
                return candidate;
            }
            candidate = blocked + 1;
        }
        return -1;
    }

    /** First index in [from, to) whose bit equals {@code set}, or -1. */
    private static int nextBit(final long[] bits, final int from, final int to, final boolean set)
    {
        if (from >= to)
        {
            return -1;
        }
        int word = from >>> 6;
        long value = (set ? bits[word] : ~bits[word]) & (-1L << from);
        while (value == 0)
        {
            word++;
            if ((long)word << 6 >= to)
            {
                return -1;
            }
            value = set ? bits[word] : ~bits[word];
        }
        final int index = (word << 6) + Long.numberOfTrailingZeros(value);
        return index < to ? index : -1;
    }

    private static boolean isSet(final long[] bits, final int index)
    {
        return (bits[index >>> 6] & (1L << index)) != 0;
    }

    private static void setRange(final long[] bits, final int from, final int to)
    {
        for (int i = from; i < to; )
        {
            final int word = i >>> 6;
            final int upto = Math.min(to, (word + 1) << 6);
            bits[word] |= mask(i, upto);
            i = upto;
        }
    }

    private static void clearRange(final long[] bits, final int from, final int to)
    {
        for (int i = from; i < to; )
        {
            final int word = i >>> 6;
            final int upto = Math.min(to, (word + 1) << 6);
            bits[word] &= ~mask(i, upto);
            i = upto;
        }
    }

    /** Bits [from, to) of the word holding {@code from}; {@code to} is at most the word's end. */
    private static long mask(final int from, final int to)
    {
        final int low = from & 63;
        final int high = to - (from & ~63);
        final long upper = high == 64 ? -1L : (1L << high) - 1;
        return upper & (-1L << low);
    }
}
