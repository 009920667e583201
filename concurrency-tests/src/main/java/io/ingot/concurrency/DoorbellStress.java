package io.ingot.concurrency;

import io.ingot.ipc.Doorbell;
import io.ingot.ipc.SharedMemory;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Publish versus sleep on the shared-memory {@link Doorbell} (docs/ipc.md, "Wake-ups"), for a waiter that fences: the
 * server's IPC thread (and the Java client) {@link Doorbell#arm() arms} and then looks at its ring; a waker publishes a
 * frame with a release store and then {@link Doorbell#ring() rings} — a full fence, then a load of the waiting flag.
 * The Python client rings the server the same way when it has libatomic's fence ({@code atomic_thread_fence}, then the
 * load of {@code server_waiting}). At least one must see the other, else the waiter sleeps on a frame nobody tells it
 * about.
 */
@JCStressTest
@Outcome(id = {"true, true", "true, false", "false, true"}, expect = ACCEPTABLE,
    desc = "the waiter found the frame, or the waker saw the flag and rang (or both)")
@Outcome(id = "false, false", expect = FORBIDDEN,
    desc = "lost wake-up: the waiter would sleep with a frame waiting and nobody to wake it")
@State
public class DoorbellStress
{
    private static final long DOORBELL = 0;
    private static final long WAITING = 4;
    private static final long FRAME_LENGTH = 8;

    private final MemorySegment memory = Arena.ofAuto().allocate(64, 64);
    private final Doorbell bell = new Doorbell(memory, DOORBELL, WAITING);

    /**
     * The waiter: arm (flag, full fence), then look at the ring.
     *
     * @param result r1: it saw the frame
     */
    @Actor
    public void waiter(final ZZ_Result result)
    {
        bell.arm();
        result.r1 = SharedMemory.getIntAcquire(memory, FRAME_LENGTH) != 0;
    }

    /**
     * The waker: publish the frame (the record's length, a release store), then ring.
     *
     * @param result r2: it saw the flag (and changed the doorbell and woke the waiter)
     */
    @Actor
    public void waker(final ZZ_Result result)
    {
        SharedMemory.putIntRelease(memory, FRAME_LENGTH, 16);
        result.r2 = bell.ring();
    }
}
