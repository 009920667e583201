package io.ingot.dispatch;

import io.ingot.agent.Bell;
import io.ingot.api.InferenceException;
import io.ingot.ring.RequestRing;
import io.ingot.scheduler.BatchPolicy;
import io.ingot.scheduler.EndedRequests;
import io.ingot.scheduler.FormedBatch;
import io.ingot.scheduler.LevelAdmission;
import io.ingot.time.NanoClock;
import io.ingot.scheduler.PendingRequest;
import io.ingot.scheduler.SchedulerSettings;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The hand-off between the threads that submit one model version's requests and the instances that run them, with
 * no thread in between: a request crosses one thread boundary — from its caller, through the intake ring, to the
 * instance whose engine runs it.
 *
 * <p><b>The batching role.</b> The {@link BatchPolicy} is single-threaded; whoever holds the role may drain the ring
 * into it and ask it for a batch. An idle instance takes the role and keeps it while it waits (for an arrival, or for
 * the queue delay): it is the <em>watcher</em>, and a producer that publishes rings its bell. When the policy
 * dispatches a batch, the watcher gives the role up before it executes, and calls one <em>following</em> instance
 * (idle, asleep) if work is left, which takes the role in turn. While every instance is busy nobody holds the role;
 * requests wait in the ring (Triton forms no batch while no instance is free either) and the first instance to finish
 * drains them — except what must be answered on time: a cancellation, or a queue timeout under a REJECT policy, is
 * handled by the core's {@link Timekeeper}, which takes the role for a sweep when it is free.
 *
 * <p><b>Producers.</b> {@link #submit} and {@link #submitAll} are the producer side, {@link RequestIntake}'s job: the
 * level's queue limit, the ring claim (one for a whole batch), the publication or the tombstone, the wake-up. How
 * producers wake the role's holders, and what a submission costs, is in the package's documentation.
 *
 * <p><b>Stopping.</b> {@link #stop()} refuses new requests; a producer that claimed a slot after the stop publishes a
 * tombstone and is refused, so every request is either refused synchronously or answered exactly once: the holder
 * of the role at stop waits for every claimed slot to be published and ends every queued request. {@link #retire()}
 * (a reload replacing the version) refuses new requests the same way but lets the instances run the queue out
 * ({@link #awaitRunOut}) before the stop, so that nothing accepted is answered UNAVAILABLE.
 *
 * <p><b>Fields.</b> The hot ones are declared in {@link ModelSchedulerFields}, each group between cache-line padding
 * (the Disruptor's habit): read by every producer's submit, written rarely — {@code watcher} (the bell of the role
 * holder that waits, or {@code null}), {@code refusing} (set by a stop or a retirement), {@code stopping},
 * {@code sweepRequested} (a cancellation or an early deadline for the watcher, a follower or the timekeeper) and
 * {@code timekeeperWakeNs} (when the timekeeper next sweeps this model); written by the role holder after every drain
 * and dispatch — {@code queued} (the policy's queue length, a release store). {@link RequestIntake} reads and writes
 * the first group through its scheduler: the fields stay here, with the role that owns them. The role ({@code role})
 * and the seats (set once, before any request) are declared below with the final fields; whether a retiring queue has
 * run out is {@link QueueRunOut}'s.
 *
 * <p>Thread-safe: {@link #submit}, {@link #submitAll} and {@link #requestSweep} from any thread; the role operations
 * from instances and the timekeeper.
 */
public final class ModelScheduler extends ModelSchedulerFields.PadAfter
{
    /** {@link #roleHolder()}: nobody holds the role. */
    public static final int FREE = 0;
    /** Role holder id of the core's timekeeper. */
    public static final int TIMEKEEPER = -1;
    /** Role holder id of a producer draining a full ring. */
    public static final int PRODUCER = -2;
    /** Role holder id of the thread that stops the model. */
    public static final int STOPPER = -3;

    private static final VarHandle QUEUED;

    static
    {
        try
        {
            QUEUED = MethodHandles.lookup().findVarHandle(ModelSchedulerFields.HolderWritten.class, "queued",
                int.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final String modelName;
    private final BatchPolicy policy;
    private final RequestRing<PendingRequest> ring;
    private final NanoClock clock;
    private final Timekeeper timekeeper;
    private final boolean rejectTimeouts;
    /** The policy learns from executed batches ({@link BatchPolicy#learnsExecution()}): asked once. */
    private final boolean policyLearns;
    private final Consumer<PendingRequest> intake;
    /** The producer side: admission, the ring claim and publication, the arrival's signal. */
    private final RequestIntake requests;
    private final AtomicInteger role = new AtomicInteger(FREE);
    private final InstanceSeats seats = new InstanceSeats();
    /** Retiring: whether nothing accepted waits in the ring or the policy any more. */
    private final QueueRunOut runOut;

    /**
     * @param modelName  the model, for messages
     * @param settings   its scheduling settings
     * @param policy     its batch-formation policy
     * @param admission  its per-level queue limits (the same the policy releases)
     * @param ringSize   intake ring slots, a power of two
     * @param clock      the time the scheduler and its policy run on
     * @param timekeeper the core's timekeeper, which sweeps while every instance is busy
     */
    public ModelScheduler(final String modelName, final SchedulerSettings settings, final BatchPolicy policy,
        final LevelAdmission admission, final int ringSize, final NanoClock clock, final Timekeeper timekeeper)
    {
        this.modelName = modelName;
        this.policy = policy;
        this.ring = new RequestRing<>(ringSize);
        this.clock = clock;
        this.timekeeper = timekeeper;
        this.policyLearns = policy.learnsExecution();
        final boolean policyKeepsTime = policy.keepsTime();
        this.rejectTimeouts = settings.rejectsOnTimeout() || policyKeepsTime;
        this.intake = policy::enqueue;
        this.runOut = new QueueRunOut(ring, clock);
        this.requests = new RequestIntake(this, settings, admission, ring, clock, seats, timekeeper, rejectTimeouts,
            policyKeepsTime);
    }

    /**
     * Sets the seats of the model's instances (once, before any request).
     *
     * @param instanceSeats one per instance, by index
     */
    public void seat(final Seat[] instanceSeats)
    {
        seats.set(instanceSeats);
    }

    /** @return the clock the scheduler runs on */
    public NanoClock clock()
    {
        return clock;
    }

    // ----- producers (RequestIntake) -----

    /**
     * Accepts a request (any thread): maps its priority to its level, applies the level's queue limit synchronously,
     * and publishes it into the intake ring. {@code pending.request}, {@code listener}, {@code batchSize} and the
     * input bookkeeping must be filled in; this method sets the level, the timeout and the acceptance time.
     *
     * @param pending the request's bookkeeping
     * @throws InferenceException UNAVAILABLE when the level's queue is full or the model is stopping
     */
    public void submit(final PendingRequest pending)
    {
        requests.submit(pending);
    }

    /**
     * Accepts a request as {@link #submit} does and, when an instance is idle and lent ({@link Seat#lend}: its engine
     * runs on any thread), runs that instance's step on the calling thread: the request's batch executes and is
     * delivered here, before this returns, and the instance's thread is not woken. When every instance is busy, or
     * none is lent, or the role is held by another thread, this is {@link #submit}: the ordinary hand-off. Exceptions
     * are {@link #submit}'s, thrown before acceptance only; what the step runs never throws out of here (an engine
     * failure fails its batch, answered through the listeners).
     *
     * @param pending the request's bookkeeping, filled in as for {@link #submit}
     * @throws InferenceException UNAVAILABLE when the level's queue is full or the model is stopping
     */
    public void submitAndRun(final PendingRequest pending)
    {
        // Published first, holding no instance's token: a full ring may need the role's holder to drain it.
        final long deadline = requests.submit(pending, false);
        final Seat borrowed = seats.borrowIdle(role.get());
        if (borrowed == null || borrowed.runBorrowed() == InstanceDuty.NOT_LEADING)
        {
            // Every instance busy, or another thread leads, or the model stops: signalled as a submission is. An
            // instance in the middle of a pass needs no signal (its last look sees the ring) but costs it nothing.
            requests.signalArrival(deadline);
        }
    }

    /**
     * Accepts many requests (any thread), as {@link #submit} does each, with one ring claim for all of them and one
     * fence and at most one wake-up after publishing them. A request its level's queue limit refuses gets its
     * refusal in {@code refusals} (the others go on); {@code pendings[i]} is accepted when {@code refusals[i]} is
     * {@code null} after a normal return.
     *
     * @param pendings the requests' bookkeeping, filled in as for {@link #submit}
     * @param count    how many of {@code pendings} to submit
     * @param refusals receives, per position, the queue limit's refusal or {@code null}
     * @throws InferenceException UNAVAILABLE when the model is stopping: then none is accepted
     */
    public void submitAll(final PendingRequest[] pendings, final int count, final InferenceException[] refusals)
    {
        requests.submitAll(pendings, count, refusals);
    }

    /**
     * Says a queued request was cancelled (any thread): whoever watches, or the timekeeper, answers it promptly.
     */
    public void requestSweep()
    {
        sweepRequested = true;
        VarHandle.fullFence();
        final Bell current = watcher;
        if (current != null)
        {
            current.ring();
        }
        else if (!seats.callFollower())
        {
            timekeeper.wake();
        }
    }

    /**
     * A producer facing a full ring: drains the ring into the policy if the role is free, so that producers never
     * wait on busy instances; spins once otherwise.
     */
    void drainForProducer()
    {
        if (tryAcquireRole(PRODUCER))
        {
            try
            {
                ring.drain(intake);
                publishQueued(policy.queuedRequests());
            }
            finally
            {
                releaseRole(PRODUCER);
            }
            if (!seats.callFollower())
            {
                callTimekeeper();
            }
        }
        else
        {
            Thread.onSpinWait();
        }
    }

    // ----- the batching role -----

    /**
     * @param holder the caller's id: instance index + 1, {@link #TIMEKEEPER} or {@link #PRODUCER}
     * @return whether the caller holds the role now (it may already have held it, except as {@link #PRODUCER}: that
     *     id is shared by every producer, so a producer gets the role only when it was free)
     */
    public boolean tryAcquireRole(final int holder)
    {
        final int current = role.get();
        // Producers share one id, so for them "already held" means held by another producer: never re-entrant.
        return current == holder && holder != PRODUCER || current == FREE && role.compareAndSet(FREE, holder);
    }

    /**
     * @param holder the caller's id
     * @return whether the caller holds the role
     */
    public boolean holdsRole(final int holder)
    {
        return role.get() == holder;
    }

    /** @return whether nobody holds the role */
    public boolean isRoleFree()
    {
        return role.get() == FREE;
    }

    /** @return the role's holder: an instance index + 1, {@link #TIMEKEEPER}, {@link #PRODUCER}, or {@link #FREE} */
    public int roleHolder()
    {
        return role.get();
    }

    /**
     * Gives the role up (its holder only).
     *
     * @param holder the caller's id
     */
    public void releaseRole(final int holder)
    {
        if (watcher != null && role.get() == holder)
        {
            watcher = null;
        }
        role.compareAndSet(holder, FREE);
    }

    /**
     * Role holder: drains the ring into the policy and asks it what the free instance runs. The ring is left for a
     * later decision while the policy {@link BatchPolicy#holdsNextBatch holds the next batch} already and the ring
     * is less than half full; a sweep (a cancellation, a stop) always drains first, so that it sees every request.
     *
     * @param instance the free instance's index
     * @param batch    receives the batch or the time to ask again
     * @param ended    receives the requests that ended meanwhile
     * @return the policy's status ({@link BatchPolicy#DISPATCH}, {@link BatchPolicy#WAIT}, {@link BatchPolicy#EMPTY})
     */
    public int decide(final int instance, final FormedBatch batch, final EndedRequests ended)
    {
        final boolean sweep = clearSweepRequest();
        if (sweep || !policy.holdsNextBatch() || ring.isHalfFull())
        {
            ring.drain(intake);
        }
        final long nowNs = clock.nanoTime();
        if (sweep)
        {
            // Asked for by a cancellation (or a stop, an early deadline): the policy finds cancelled requests only by
            // a sweep, so that deciding reads no line its callers write (a request's flag sits with its flight).
            policy.sweep(nowNs, ended);
        }
        final int status = policy.decide(nowNs, instance, batch, ended);
        final int left = policy.queuedRequests();
        publishQueued(left);
        if (left == 0 && refusing)
        {
            runOut.noteIfRunOut();
        }
        return status;
    }

    /** @return whether instances should time their batches and report them through {@link #executed} */
    public boolean learnsExecution()
    {
        return policyLearns;
    }

    /**
     * Role holder: reports the batch this instance ran last to the policy ({@link BatchPolicy#executed}).
     *
     * @param instance   the instance's index
     * @param batchSize  the batch's total batch size
     * @param durationNs how long its execution took
     */
    public void executed(final int instance, final int batchSize, final long durationNs)
    {
        policy.executed(instance, batchSize, durationNs);
    }

    /**
     * Role holder whose policy answered {@link BatchPolicy#YIELD}: gives the role up and calls the instance that has
     * the work, which takes the role when it is next free to (at once if it sleeps, after its batch if it runs one).
     *
     * @param holder   the caller's id
     * @param instance the index of the instance to call
     */
    public void yieldTo(final int holder, final int instance)
    {
        releaseRole(holder);
        seats.call(instance);
    }

    /**
     * Role holder, idle: becomes the watcher producers ring. Call before the idle strategy arms the bell.
     *
     * @param bell the holder's bell
     */
    public void watch(final Bell bell)
    {
        watcher = bell;
    }

    /**
     * Role holder that dispatched a batch: gives the role up and, if work is left, calls one following instance to
     * take it over. Call before executing the batch.
     *
     * @param holder the caller's id
     */
    public void handOff(final int holder)
    {
        final boolean workLeft = queued > 0;
        releaseRole(holder);
        // The next slot, not the ring's tail: a producer that has claimed but not yet published calls a follower
        // itself after publishing, and reading the tail would take the line every producer's claim writes.
        if ((workLeft || ring.hasPublished()) && !seats.callFollower())
        {
            callTimekeeper();
        }
    }

    /** Every instance is busy and requests are queued: the timekeeper keeps their REJECT timeouts. */
    private void callTimekeeper()
    {
        if (rejectTimeouts)
        {
            sweepRequested = true;
            timekeeper.wake();
        }
    }

    /** Timekeeper: an instance holds the role and keeps the model's time itself; stop waking for it. */
    public void standDown()
    {
        timekeeperWakeNs = BatchPolicy.NO_DEADLINE;
    }

    /**
     * Timekeeper, role held: drains the ring and ends what must be answered on time.
     *
     * @param ended receives the ended requests
     * @return when the next REJECT deadline passes, or {@link BatchPolicy#NO_DEADLINE}
     */
    public long sweep(final EndedRequests ended)
    {
        clearSweepRequest();
        ring.drain(intake);
        final long next = policy.sweep(clock.nanoTime(), ended);
        final int left = policy.queuedRequests();
        publishQueued(left);
        if (left == 0 && refusing)
        {
            runOut.noteIfRunOut();
        }
        timekeeperWakeNs = next;
        return next;
    }

    /**
     * Timekeeper, after {@link #sweep}: gives the role up and, if requests are left, calls one following instance to
     * take it. An instance that finished its batch while the timekeeper swept found the role taken and sleeps as a
     * follower; without this call it would sleep on with work queued until the next arrival.
     */
    public void releaseAfterSweep()
    {
        releaseRole(TIMEKEEPER);
        if (queued > 0 || !ring.isEmpty())
        {
            seats.callFollower();
        }
    }

    /**
     * @param nowNs the current time
     * @return whether the timekeeper should sweep now: a cancellation or an early deadline is waiting, or a REJECT
     *         deadline passed
     */
    public boolean needsSweep(final long nowNs)
    {
        return sweepRequested || timekeeperWakeNs <= nowNs;
    }

    /** @return when the timekeeper next has to sweep this model, or {@link BatchPolicy#NO_DEADLINE} */
    public long timekeeperWakeNs()
    {
        return timekeeperWakeNs;
    }

    /**
     * Role holder, before it drains and scans: a sweep asked for before this point is done by that scan. Stored only
     * when set, because the flag sits on the line every producer reads on every submit, and a volatile store is a
     * fence: clearing it unconditionally cost every batch a fence and every producer a miss. A request set after the
     * look stays set and brings the holder back.
     *
     * @return whether a sweep was asked for
     */
    private boolean clearSweepRequest()
    {
        if (sweepRequested)
        {
            sweepRequested = false;
            return true;
        }
        return false;
    }

    /**
     * Role holder: the queue's length after a drain or a dispatch, for the next holder (ordered by the role's
     * compare-and-set) and for monitoring (racy). A release store, not a volatile one: no fence per batch.
     */
    private void publishQueued(final int requests)
    {
        QUEUED.setRelease(this, requests);
    }

    /**
     * Role holder: whether requests wait, in the policy or published in the ring (after a borrowed batch: then the
     * instance's own thread takes them).
     *
     * @return whether requests wait
     */
    public boolean hasQueued()
    {
        return queued > 0 || ring.hasPublished();
    }

    /** @return whether the watcher has something to look at: an arrival, a cancellation, or the stop */
    public boolean hasNews()
    {
        return stopping || sweepRequested || ring.hasPublished();
    }

    // ----- retiring (a reload) -----

    /**
     * Refuses new requests, as a stop does, while the instances go on running what was accepted: the version is being
     * replaced, and its queue is to finish here. {@link #awaitRunOut} then waits until the queue has run out.
     */
    public void retire()
    {
        refusing = true;
        requestSweep();
    }

    /**
     * After {@link #retire()}: waits until every accepted request has left the queue (into a batch, or answered), or
     * until the time is up.
     *
     * @param timeoutNs the longest wait
     * @return whether the queue ran out in time
     */
    public boolean awaitRunOut(final long timeoutNs)
    {
        return runOut.await(timeoutNs, this::requestSweep);
    }

    // ----- stopping -----

    /** Refuses new requests and wakes every thread of the model, so that the role's next holder ends the queue. */
    public void stop()
    {
        refusing = true;
        stopping = true;
        VarHandle.fullFence();
        final Bell current = watcher;
        if (current != null)
        {
            current.ring();
        }
        seats.ringAll();
        timekeeper.wake();
    }

    /**
     * The stopping thread, after {@link #stop()}: ends every queued request now, also while every instance is busy
     * executing (their batches finish normally). Waits for the role, which any holder gives up promptly once woken.
     *
     * @param ended receives the queued requests, each with {@code Ending.STOPPING}
     */
    public void endQueueAtStop(final EndedRequests ended)
    {
        while (!tryAcquireRole(STOPPER))
        {
            Thread.onSpinWait();
            Thread.yield();
        }
        try
        {
            drainForStop(ended);
        }
        finally
        {
            releaseRole(STOPPER);
        }
    }

    /** @return true once {@link #stop()} was called */
    public boolean isStopping()
    {
        return stopping;
    }

    /** @return true once {@link #stop()} or {@link #retire()} was called: new requests are refused */
    public boolean isRefusing()
    {
        return refusing;
    }

    /**
     * Role holder, after {@link #stop()}: waits for every slot claimed before the stop to be published, then ends every
     * queued request. Idempotent.
     *
     * @param ended receives them, each with {@code Ending.STOPPING}
     */
    public void drainForStop(final EndedRequests ended)
    {
        final long claimed = ring.claimed();
        while (ring.drained() < claimed)
        {
            ring.drain(intake);
            Thread.onSpinWait();
        }
        policy.drain(ended);
        publishQueued(0);
    }

    // ----- monitoring -----

    /** @return requests accepted and not yet in a batch or answered (a racy count, for diagnostics) */
    public long queuedRequests()
    {
        return ring.occupancy() + queued;
    }

    /** @return the model's name */
    public String modelName()
    {
        return modelName;
    }
}
