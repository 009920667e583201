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
 * changes the word and wakes it, and a sleep on the old value returns at once.
 *
 * <p>A waiter that cannot fence (the Python client, {@link ClientEntryDescriptor#FLAG_WAITS_WITHOUT_FENCE}) reads the
 * word, raises the flag, looks once more and sleeps with {@code FUTEX_WAIT} on the value it read; the kernel compares
 * the word after a full barrier. Its waker uses {@link #changeAndRing()}, which changes the word <em>before</em> it
 * reads the flag: then the kernel's comparison and the waker's load form the store-fence-load pair. A waiter that
 * raises no flag at all (a Python client older than that flag) is woken with {@link #ringAlways()}.
 *
 * <p>Thread-safety: any number of wakers on any threads and processes; one waiter at a time.
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

    /**
     * Changes the doorbell, then wakes the waiter if it has said it may sleep: for a waiter that raises its flag but
     * cannot fence before its last look (the Python client). Call after publishing.
     *
     * <p>Why no ring is lost: the waiter reads the doorbell ({@code seen}) before its last look, stores the flag, and
     * calls {@code FUTEX_WAIT(doorbell, seen)}, in which the kernel issues a full barrier before it compares the word.
     * If the waiter's read of {@code seen} already saw this change, its last look sees the work published before it
     * (loads are ordered with loads, and the work was published before the change). Otherwise, either the kernel's
     * comparison sees the change (the wait returns at once), or it precedes the change, and then the flag, stored
     * before the kernel's barrier, is seen by the load here, which follows the atomic add and a full fence, and the
     * wake reaches the sleeper, which the kernel queued before it compared. An atomic add always, a system call only
     * when the flag is up.
     *
     * @return whether the waiter was waiting (and was woken)
     */
    public boolean changeAndRing()
    {
        SharedMemory.getAndAddInt(memory, doorbellOffset, 1);
        VarHandle.fullFence();
        if (SharedMemory.getIntVolatile(memory, waitingOffset) == 0)
        {
            return false;
        }
        Futex.wake(memory, doorbellOffset, Integer.MAX_VALUE);
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
