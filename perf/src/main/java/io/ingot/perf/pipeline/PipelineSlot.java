package io.ingot.perf.pipeline;

import io.ingot.api.ParkingWaiter;
import io.ingot.api.ResponseFuture;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.LockSupport;

/**
 * One caller's reusable request to a {@link Pipeline}: an input row and the memory its output row is written to, and
 * its completion. Every pipeline under comparison completes slots the same way — the completing thread unparks the
 * caller only if it parked — so the comparison measures the pipelines, not their callers. The completion fields
 * ({@code done}, {@code failure}) are in {@link PipelineSlotFields}, on a cache line of their own. One caller at a
 * time.
 */
public final class PipelineSlot extends PipelineSlotFields.PadAfter
{
    private final MemorySegment input;
    private final MemorySegment output;
    private final Object attachment;
    private final ParkingWaiter parking = new ParkingWaiter();

    /**
     * @param input      the request's input row
     * @param output     where its output row goes
     * @param attachment a pipeline's own per-slot state (Ingot's request), or {@code null}
     */
    PipelineSlot(final MemorySegment input, final MemorySegment output, final Object attachment)
    {
        this.input = input;
        this.output = output;
        this.attachment = attachment;
    }

    /**
     * A slot with rows of its own and no per-slot state of its pipeline (the baselines').
     *
     * @param arena owner of the rows
     * @param width FP32 elements per row
     * @return a slot whose input and output rows are {@code width} floats, 64-byte aligned
     */
    static PipelineSlot rows(final Arena arena, final long width)
    {
        return new PipelineSlot(arena.allocate(width * Float.BYTES, 64), arena.allocate(width * Float.BYTES, 64), null);
    }

    /** @return the input row */
    public MemorySegment input()
    {
        return input;
    }

    /** @return the output row */
    public MemorySegment output()
    {
        return output;
    }

    Object attachment()
    {
        return attachment;
    }

    /**
     * Marks the slot in flight; the caller calls it just before submitting. Writes the done flag only (the failure
     * only when a failed request left one), so that a request's writes to the slot take one line on each side.
     */
    public void begin()
    {
        done = false;
        if (failure != null)
        {
            failure = null;
        }
    }

    /** The pipeline: the request finished; wakes the caller if it parked. */
    void complete()
    {
        done = true;
        parking.wake();
    }

    /**
     * The pipeline: the request failed.
     *
     * @param message why
     */
    void fail(final String message)
    {
        failure = message;
        complete();
    }

    /** @return whether the request finished */
    public boolean isDone()
    {
        return done;
    }

    /**
     * Waits for the request as {@link ResponseFuture} does: stays awake {@code spinNanos} (spinning for
     * the first {@value ResponseFuture#SPIN_BEFORE_YIELD_NANOS} ns, then yielding between looks), then
     * parks.
     *
     * @param spinNanos how long to stay awake first ({@link Long#MAX_VALUE}: spin, never park)
     * @throws IllegalStateException when the request failed
     */
    public void await(final long spinNanos)
    {
        final long start = System.nanoTime();
        while (!done)
        {
            if (!ResponseFuture.stayAwake(start, spinNanos))
            {
                parkUntilDone();
                break;
            }
        }
        final String failed = failure;
        if (failed != null)
        {
            throw new IllegalStateException(failed);
        }
    }

    private void parkUntilDone()
    {
        parking.announce();
        while (!done)
        {
            LockSupport.park(this);
        }
        parking.withdraw();
    }
}
