package io.ingot.concurrency;

import io.ingot.ipc.Doorbell;
import io.ingot.ipc.SharedMemory;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZ_Result;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Publish versus sleep on the shared-memory {@link Doorbell} for a waiter that does not fence: the Python client
 * ({@code client_flags} {@code FLAG_WAITS_WITHOUT_FENCE}, docs/ipc.md "Wake-ups") reads its doorbell, raises its
 * waiting flag with a plain (on x86-64: release) store, looks at its response ring, and calls
 * {@code FUTEX_WAIT(doorbell, seen)}, in which the kernel issues a full barrier and then compares the doorbell with
 * {@code seen}; here that system call is the fence and the volatile load. The server publishes a response and calls
 * {@link Doorbell#changeAndRing()}: it changes the doorbell, fences, and wakes only if it sees the flag.
 *
 * <p>Forbidden: the waiter missed the response, the kernel would find the doorbell unchanged (so it sleeps), and the
 * server did not see the flag (so it makes no wake-up call).
 */
@JCStressTest
@Outcome(id = {"true, true, true", "true, true, false", "true, false, true", "true, false, false",
    "false, true, true", "false, true, false", "false, false, true"}, expect = ACCEPTABLE,
    desc = "the waiter saw the response, or its wait returns at once on the changed doorbell, or it is woken")
@Outcome(id = "false, false, false", expect = FORBIDDEN,
    desc = "lost wake-up: the waiter sleeps on an unchanged doorbell with a response waiting, and nobody wakes it")
@State
public class UnfencedDoorbellStress
{
    private static final long DOORBELL = 0;
    private static final long WAITING = 4;
    private static final long RECORD_LENGTH = 8;

    private final MemorySegment memory = Arena.ofAuto().allocate(64, 64);
    private final Doorbell bell = new Doorbell(memory, DOORBELL, WAITING);

    /**
     * The Python client's sleep: read the doorbell, raise the flag, last look, then the futex's own barrier and
     * comparison.
     *
     * @param result r1: its last look saw the response; r2: the kernel would find the doorbell changed (no sleep)
     */
    @Actor
    public void waiter(final ZZZ_Result result)
    {
        final int seen = SharedMemory.getIntAcquire(memory, DOORBELL);
        SharedMemory.putIntRelease(memory, WAITING, 1);
        result.r1 = SharedMemory.getIntAcquire(memory, RECORD_LENGTH) != 0;
        VarHandle.fullFence();
        result.r2 = SharedMemory.getIntVolatile(memory, DOORBELL) != seen;
    }

    /**
     * The server: publish the response (the record's length, a release store), then change the doorbell and ring.
     *
     * @param result r3: it saw the flag (and woke the waiter)
     */
    @Actor
    public void server(final ZZZ_Result result)
    {
        SharedMemory.putIntRelease(memory, RECORD_LENGTH, 16);
        result.r3 = bell.changeAndRing();
    }
}
