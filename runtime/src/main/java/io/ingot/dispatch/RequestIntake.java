package io.ingot.dispatch;

import io.ingot.agent.Bell;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.ring.RequestRing;
import io.ingot.scheduler.LevelAdmission;
import io.ingot.scheduler.PendingRequest;
import io.ingot.scheduler.RefusalMessages;
import io.ingot.scheduler.SchedulerSettings;
import io.ingot.time.NanoClock;

import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

/**
 * The producer side of a {@link ModelScheduler}: a request's admission at its priority level (the level's queue
 * limit, applied synchronously), the claim and publication of its intake ring slot, the tombstone when the model
 * stopped meanwhile, and the wake-up of whoever takes it — one request at a time ({@link #submit}) or many with one
 * claim ({@link #submitAll}). The batching role, and everything the role holder does, stays the scheduler's; a
 * producer that finds the ring full asks the scheduler to drain it ({@link ModelScheduler#drainForProducer}).
 *
 * <p>Holds no mutable state of its own: the hot fields it reads and writes — {@code refusing}, {@code stopping},
 * {@code watcher}, {@code sweepRequested}, {@code timekeeperWakeNs} — are its scheduler's, in
 * {@link ModelSchedulerFields}. Created by the scheduler, one per scheduler. Splitting it off costs a submission no
 * allocation and no call the JIT cannot inline (a final class behind final fields): two more loads of final fields
 * that no thread writes after construction.
 *
 * <p>Thread-safe: any thread submits.
 */
final class RequestIntake
{
    private final ModelScheduler scheduler;
    private final SchedulerSettings settings;
    private final LevelAdmission admission;
    private final RequestRing<PendingRequest> ring;
    private final NanoClock clock;
    private final InstanceSeats seats;
    private final Timekeeper timekeeper;
    /** The timekeeper must hear of a REJECT deadline while every instance is busy. */
    private final boolean rejectTimeouts;
    /** The policy keeps deadlines of its own (a sequence batcher): asked once, not per request. */
    private final boolean policyKeepsTime;

    /**
     * @param scheduler       the scheduler whose producer side this is (its hot fields, its role)
     * @param settings        the model's scheduling settings
     * @param admission       its per-level queue limits
     * @param ring            its intake ring
     * @param clock           its clock
     * @param seats           its instances' seats
     * @param timekeeper      the core's timekeeper
     * @param rejectTimeouts  whether queued requests have REJECT deadlines the timekeeper keeps
     * @param policyKeepsTime whether the policy keeps the caller's timeout itself (a sequence batcher)
     */
    RequestIntake(final ModelScheduler scheduler, final SchedulerSettings settings, final LevelAdmission admission,
        final RequestRing<PendingRequest> ring, final NanoClock clock, final InstanceSeats seats,
        final Timekeeper timekeeper, final boolean rejectTimeouts, final boolean policyKeepsTime)
    {
        this.scheduler = scheduler;
        this.settings = settings;
        this.admission = admission;
        this.ring = ring;
        this.clock = clock;
        this.seats = seats;
        this.timekeeper = timekeeper;
        this.rejectTimeouts = rejectTimeouts;
        this.policyKeepsTime = policyKeepsTime;
    }

    /**
     * {@link ModelScheduler#submit}: admits the request, claims and publishes its slot, and signals its arrival.
     *
     * @param pending the request's bookkeeping
     * @throws InferenceException UNAVAILABLE when the level's queue is full or the model is stopping
     */
    void submit(final PendingRequest pending)
    {
        submit(pending, true);
    }

    /**
     * {@link #submit(PendingRequest)}, with the arrival's signal left out when the caller borrowed an idle instance
     * and drains the ring itself ({@link #signalArrival} then stays its duty if it cannot lead).
     *
     * @param pending the request's bookkeeping
     * @param signal  whether to signal the arrival
     * @return the request's deadline for the timekeeper ({@code Long.MAX_VALUE} for none)
     * @throws InferenceException UNAVAILABLE when the level's queue is full or the model is stopping
     */
    long submit(final PendingRequest pending, final boolean signal)
    {
        final InferenceRequest request = pending.request;
        if (scheduler.refusing)
        {
            throw stopping(request);
        }
        final InferenceException refused = admit(pending);
        if (refused != null)
        {
            throw refused;
        }
        pending.acceptedNs = clock.nanoTime();
        final long sequence = ring.claim();
        while (!ring.isWritable(sequence))
        {
            // A full ring: the slot frees as the ring drains, which this producer does itself when nobody else can.
            scheduler.drainForProducer();
        }
        // The claim above is a full fence: a stop that read the ring's tail before it is seen here.
        if (scheduler.refusing)
        {
            withdraw(sequence, pending);
            afterWithdrawal();
            throw stopping(request);
        }
        ring.publish(sequence, pending);
        final long deadline = pending.timeoutNs == 0 ? Long.MAX_VALUE : pending.acceptedNs + pending.timeoutNs;
        if (signal)
        {
            signalArrival(deadline);
        }
        return deadline;
    }

    /**
     * {@link ModelScheduler#submitAll}: admits each request, claims one run of slots for the admitted ones, publishes
     * them (or tombstones, when the model stopped meanwhile), and signals once.
     *
     * @param pendings the requests' bookkeeping
     * @param count    how many of {@code pendings} to submit
     * @param refusals receives, per position, the queue limit's refusal or {@code null}
     * @throws InferenceException UNAVAILABLE when the model is stopping: then none is accepted
     */
    void submitAll(final PendingRequest[] pendings, final int count, final InferenceException[] refusals)
    {
        if (scheduler.refusing)
        {
            throw stopping(pendings[0].request);
        }
        int admitted = 0;
        final long now = clock.nanoTime();
        long earliestDeadline = Long.MAX_VALUE;
        for (int i = 0; i < count; i++)
        {
            final PendingRequest pending = pendings[i];
            refusals[i] = admit(pending);
            if (refusals[i] == null)
            {
                pending.acceptedNs = now;
                earliestDeadline = pending.timeoutNs == 0 ? earliestDeadline
                    : Math.min(earliestDeadline, now + pending.timeoutNs);
                admitted++;
            }
        }
        if (admitted == 0)
        {
            return;
        }
        long sequence = ring.claim(admitted);
        // The claim is a full fence: a stop that read the ring's tail before it is seen here, and then none of the
        // claimed slots may carry a request (the holder of the role at the stop waits for their tombstones).
        final boolean withdrawing = scheduler.refusing;
        for (int i = 0; i < count; i++)
        {
            if (refusals[i] != null)
            {
                continue;
            }
            while (!ring.isWritable(sequence))
            {
                scheduler.drainForProducer();
            }
            if (withdrawing)
            {
                withdraw(sequence, pendings[i]);
            }
            else
            {
                ring.publish(sequence, pendings[i]);
            }
            sequence++;
        }
        if (withdrawing)
        {
            afterWithdrawal();
            throw stopping(pendings[0].request);
        }
        signalArrival(earliestDeadline);
    }

    /** Maps the request's priority to its level and applies the level's queue limit. @return the refusal or null */
    private InferenceException admit(final PendingRequest pending)
    {
        final InferenceRequest request = pending.request;
        final long level = settings.levelOf(request.priority());
        pending.level = level;
        if (settings.dynamic())
        {
            pending.timeoutNs = settings.policyOf(level).timeoutNs(request.timeoutMicros());
            if (!admission.tryAdmit(level))
            {
                return new InferenceException(ErrorCode.UNAVAILABLE, RefusalMessages.queueFull(request));
            }
        }
        else
        {
            // Without a dynamic batcher only a sequence batcher uses the caller's timeout, for its backlogs.
            pending.timeoutNs = policyKeepsTime ? TimeUnit.MICROSECONDS.toNanos(request.timeoutMicros()) : 0;
        }
        return null;
    }

    /** A claimed slot after the stop: a tombstone instead of the request, whose queue place is given back. */
    private void withdraw(final long sequence, final PendingRequest pending)
    {
        ring.publish(sequence, null);
        admission.release(pending.level);
    }

    private void afterWithdrawal()
    {
        if (!scheduler.stopping)
        {
            // A retirement waits until every claimed slot is drained: the tombstone must be looked at.
            scheduler.requestSweep();
        }
    }

    /**
     * After publishing: one fence, then the watcher's bell, or a following instance's call, or — when nobody is idle
     * and a REJECT timeout falls before the timekeeper's next sweep — the timekeeper.
     */
    void signalArrival(final long earliestDeadline)
    {
        VarHandle.fullFence();
        final Bell current = scheduler.watcher;
        if (current != null)
        {
            current.ring();
        }
        else if (!seats.callFollower() && rejectTimeouts && earliestDeadline < scheduler.timekeeperWakeNs)
        {
            // Nobody idle: only the timekeeper can answer this request's REJECT timeout on time, and it does not know
            // of it yet (its next sweep comes later than this deadline).
            scheduler.sweepRequested = true;
            timekeeper.wake();
        }
    }

    /** The refusal of a request that arrives while the model stops or retires, in Triton's words. */
    private static InferenceException stopping(final InferenceRequest request)
    {
        return new InferenceException(ErrorCode.UNAVAILABLE, RefusalMessages.stopping(request));
    }
}
