package io.ingot.ipc;

import io.ingot.agent.Bell;
import io.ingot.libc.Futex;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * A wake-up signal between processes over two int32 fields of the region (docs/ipc.md, "Wake-ups"): a
 * {@code doorbell} futex word that wakers change, and a {@code waiting} flag the single waiter raises before it may
 * sleep. A flyweight: the waiter and every waker wrap the same two fields, each in its own process.
 *
 * <p>The waiter: {@code int seen = bell.arm();} then re-checks its ring; only if it is still empty does it
 * {@code bell.sleep(seen, timeout)}; finally {@code bell.disarm()}. A waker publishes its frame, then calls
 * {@link #ring()}. Both sides put a full fence between their store (the flag, the frame) and their load (the ring,
 * the flag), so at least one sees the other's: either the waiter finds the frame, or the waker finds the flag,
 * changes the word and wakes it, and a sleep on the old value returns at once. A waker that cannot fence (Python)
 * uses {@link #ringAlways()}, which needs no flag.
 */
public final class Doorbell implements Bell
{
    private final MemorySegment memory;
    private final long doorbellOffset;
    private final long waitingOffset;
    private final Futex futex = new Futex();

    /**
     * @param memory         the mapping
     * @param doorbellOffset offset of the futex word, a multiple of 4
     * @param waitingOffset  offset of the waiting flag, a multiple of 4
     */
    public Doorbell(final MemorySegment memory, final long doorbellOffset, final long waitingOffset)
    {
        this.memory = memory;
        this.doorbellOffset = doorbellOffset;
        this.waitingOffset = waitingOffset;
    }

    /** @return the server's doorbell in the region header, rung by clients */
    public static Doorbell server(final MemorySegment memory)
    {
        return new Doorbell(memory, HeaderDescriptor.REQUEST_DOORBELL_OFFSET, HeaderDescriptor.SERVER_WAITING_OFFSET);
    }

    /**
     * @param memory      the mapping
     * @param entryOffset offset of the client's table entry
     * @return the client's doorbell, rung by the server
     */
    public static Doorbell client(final MemorySegment memory, final long entryOffset)
    {
        return new Doorbell(memory, entryOffset + ClientEntryDescriptor.RESPONSE_DOORBELL_OFFSET,
            entryOffset + ClientEntryDescriptor.CLIENT_WAITING_OFFSET);
    }

    /**
     * Wakes the waiter if it has said it may sleep; a fenced load of the flag otherwise. Call after publishing.
     *
     * @return whether the waiter was waiting (and the doorbell changed)
     */
    @Override
    public boolean ring()
    {
        VarHandle.fullFence();
        if (SharedMemory.getIntVolatile(memory, waitingOffset) == 0)
        {
            return false;
        }
        ringAlways();
        return true;
    }

    /** Changes the doorbell and wakes any sleeper, whatever the flag says: one system call. */
    public void ringAlways()
    {
        SharedMemory.getAndAddInt(memory, doorbellOffset, 1);
        Futex.wake(memory, doorbellOffset, Integer.MAX_VALUE);
    }

    /**
     * Raises the waiting flag. Re-check the condition after this and before {@link #sleep}.
     *
     * @return the doorbell's value, to pass to {@link #sleep}
     */
    @Override
    public int arm()
    {
        final int seen = SharedMemory.getIntVolatile(memory, doorbellOffset);
        SharedMemory.putIntVolatile(memory, waitingOffset, 1);
        VarHandle.fullFence();
        return seen;
    }

    /**
     * Sleeps until the doorbell moves from {@code seen}, at most {@code timeoutNanos}. May return early.
     *
     * @param seen         what {@link #arm()} returned
     * @param timeoutNanos the longest sleep, &gt; 0
     * @return whether the doorbell moved (a waker rang it)
     */
    @Override
    public boolean sleep(final int seen, final long timeoutNanos)
    {
        futex.await(memory, doorbellOffset, seen, timeoutNanos);
        return SharedMemory.getIntVolatile(memory, doorbellOffset) != seen;
    }

    /** Lowers the waiting flag: wakers stop making system calls. */
    @Override
    public void disarm()
    {
        SharedMemory.putIntRelease(memory, waitingOffset, 0);
    }
}
