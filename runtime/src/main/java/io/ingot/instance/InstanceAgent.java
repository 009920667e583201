package io.ingot.instance;

import io.ingot.agent.Agent;
import io.ingot.dispatch.InstanceDuty;
import io.ingot.dispatch.ModelScheduler;
import io.ingot.dispatch.Seat;
import io.ingot.ratelimit.InstanceClaim;
import io.ingot.scheduler.BatchPolicy;
import io.ingot.scheduler.EndedRequests;
import io.ingot.scheduler.FormedBatch;

/**
 * The duty cycle of one model instance's thread: when idle it takes its model's batching role, drains the intake
 * ring into the policy and asks for a batch; it executes the batch itself, so a request crosses one thread boundary
 * (from its caller to this thread) before its engine runs, and its response is delivered from here. While it waits
 * (for an arrival, or for the queue delay) it keeps the role and is the thread producers ring; when another instance
 * leads, it follows: asleep until the leader hands the role on. See {@link ModelScheduler}. When the core rate-limits
 * ({@link #rateLimitWith}), a formed batch runs only once the instance holds its resources; until then the instance
 * sleeps with the batch, outside the role, and the limiter's grant rings it.
 *
 * <p><b>Lent.</b> When its engine runs on any thread ({@link #lend()}), a thread that submits a request may run this
 * instance's step in its place while the instance is idle ({@link #runBorrowed()}, through the seat's run token):
 * it takes the role as this instance, drains the ring and, on a dispatch, executes and delivers the batch on its own
 * thread (only while its batches are quick: the first, and any longer than {@link #QUICK_BATCH_NS}, make the next
 * run here), then leaves the instance as it found it — the watcher, asleep — unless work is left, a wait runs or
 * requests ended, which it hands back to the instance's thread. Deadlines stay this thread's: a borrower never
 * keeps a wait.
 *
 * <p>Runs on its own thread under an {@link io.ingot.agent.AgentRunner}; {@link #hasWork()} is its idle strategy's
 * last look before it sleeps on its seat's bell. Its state is touched only by the holder of the seat's run token:
 * its own thread, or a borrower.
 */
public final class InstanceAgent implements Agent, InstanceDuty
{
    /**
     * The longest batch (from its assembly until its responses are written, as {@link ModelInstance#execute} times
     * it) after which the next may run on a caller's thread: well above what waking an instance thread
     * costs on a loaded machine (tens of microseconds), and below a time slice, so that a batch preempted once does
     * not often count as long. Longer batches gain little from the caller's thread and would hold it (an IPC thread
     * serves every client).
     */
    static final long QUICK_BATCH_NS = 1_000_000L;

    private final ModelScheduler scheduler;
    private final ModelInstance instance;
    private final int index;
    private final int holder;
    private final Seat seat = new Seat();
    private final FormedBatch batch;
    private final EndedRequests ended = new EndedRequests();
    private final EndedResponses answerer;
    private final String roleName;
    /** Whether the policy learns from executed batches: then each batch is timed and reported. */
    private final boolean reportsBatches;
    /** The last executed batch not yet reported to the policy: its batch size (0 for none) and duration. */
    private int unreportedSize;
    private long unreportedNs;
    private long deadline = NO_DEADLINE;
    /** Set when this instance gave the role to another that has work; cleared when it next runs. */
    private boolean yielded;
    private volatile boolean done;
    /** The instance's place at the core's rate limiter, or {@code null} when the core does not rate-limit. */
    private InstanceClaim claim;
    /** Set while a formed batch waits for the rate limiter's grant. */
    private boolean awaitingGrant;

    /**
     * @param scheduler the model's scheduler
     * @param instance  the instance's engine and staging
     * @param index     the instance's index among the model's instances
     * @param maxBatch  the model's {@code max(1, max_batch_size)}
     * @param answerer  answers the requests the policy ends
     * @param roleName  the thread's name
     */
    public InstanceAgent(final ModelScheduler scheduler, final ModelInstance instance, final int index,
        final int maxBatch, final EndedResponses answerer, final String roleName)
    {
        this.scheduler = scheduler;
        this.instance = instance;
        this.index = index;
        this.holder = index + 1;
        this.batch = new FormedBatch(maxBatch);
        this.answerer = answerer;
        this.roleName = roleName;
        this.reportsBatches = scheduler.learnsExecution();
    }

    /** @return the instance's seat at its scheduler */
    public Seat seat()
    {
        return seat;
    }

    /**
     * Makes every batch wait until the instance holds its rate-limiter resources (before the thread starts).
     *
     * @param instanceClaim the instance's claim
     */
    public void rateLimitWith(final InstanceClaim instanceClaim)
    {
        this.claim = instanceClaim;
        instanceClaim.wakeWith(seat.bell());
    }

    /**
     * Lets threads that submit requests run this instance's batches while it is idle (before the thread starts): only
     * for an engine that runs on any thread, a model that is neither decoupled nor sequence-batched, and no rate
     * limiter — the caller decides, this instance only checks the last.
     */
    public void lend()
    {
        if (claim == null)
        {
            seat.lend(this);
        }
    }

    @Override
    public int doWork()
    {
        if (!seat.enterOwn())
        {
            return 0;  // a borrower runs this instance's step; it rings when it leaves work behind
        }
        try
        {
            final int work = lead();
            if (claim != null && !awaitingGrant && (work == 0 || done))
            {
                // Going to sleep, or done, without a batch: what the last release re-staged for the model's queue
                // goes.
                claim.withdraw();
            }
            return work;
        }
        finally
        {
            seat.leaveOwn();
        }
    }

    @Override
    public int runBorrowed()
    {
        try
        {
            if (done || scheduler.isStopping() || !scheduler.tryAcquireRole(holder))
            {
                return NOT_LEADING;
            }
            reportExecuted();
            final int status = scheduler.decide(index, batch, ended);
            if (status == BatchPolicy.DISPATCH)
            {
                scheduler.handOff(holder);
                answerEnded();
                executeBatch();
                return watchAgain();
            }
            if (status == BatchPolicy.EMPTY && ended.count() == 0)
            {
                // Nothing for this instance (its thread took the request first): it stays the watcher, asleep.
                scheduler.watch(seat.bell());
                return RAN;
            }
            scheduler.releaseRole(holder);
            answerEnded();
            return HANDED_BACK;
        }
        catch (final RuntimeException | Error ex)
        {
            // A failure outside the engine (which fails only its batch): the instance's own thread takes over, as it
            // would after a failed pass of its own; the submitter's request is accepted and gets its answer there.
            if (scheduler.holdsRole(holder))
            {
                scheduler.releaseRole(holder);
            }
            batch.clear();
            ended.clear();
            return HANDED_BACK;
        }
    }

    /**
     * A borrower after its batch: the instance becomes the watcher again, as its own thread would after finding
     * nothing more — unless requests wait (or another thread leads), which its own thread then takes.
     */
    private int watchAgain()
    {
        if (!scheduler.tryAcquireRole(holder))
        {
            return HANDED_BACK;  // another instance leads: this one's thread follows it
        }
        if (scheduler.hasQueued() || scheduler.isStopping())
        {
            scheduler.releaseRole(holder);
            return HANDED_BACK;
        }
        scheduler.watch(seat.bell());
        return RAN;
    }

    private int lead()
    {
        deadline = NO_DEADLINE;
        yielded = false;
        if (awaitingGrant)
        {
            // The batch is formed and the role handed on; it runs once the limiter grants the resources.
            if (!claim.isGranted())
            {
                return 0;
            }
            awaitingGrant = false;
            claim.waitingWith(0);
            return executeBatch();
        }
        seat.answerCall();
        if (!scheduler.tryAcquireRole(holder))
        {
            if (scheduler.isStopping())
            {
                return 1;  // the holder ends the queue; take the role after it to finish
            }
            seat.following(true);
            if (!scheduler.tryAcquireRole(holder))
            {
                return 0;
            }
        }
        seat.following(false);
        if (scheduler.isStopping())
        {
            scheduler.drainForStop(ended);
            scheduler.releaseRole(holder);
            answerEnded();
            done = true;
            return 1;
        }
        reportExecuted();
        final int status = scheduler.decide(index, batch, ended);
        if (status == BatchPolicy.DISPATCH)
        {
            scheduler.handOff(holder);
            answerEnded();
            if (claim != null && !claim.tryAcquire())
            {
                awaitingGrant = true;
                claim.waitingWith(batch.count());
                return 0;
            }
            return executeBatch();
        }
        if (ended.count() > 0)
        {
            // Answer outside the role, then look again.
            scheduler.releaseRole(holder);
            answerEnded();
            return 1;
        }
        if (status == BatchPolicy.YIELD)
        {
            // Another instance's slots hold the work: hand it the role and sleep until a bell says otherwise. Still a
            // follower: while that instance runs a batch, an arrival for this instance's own sequences must be able to
            // wake it (a producer that finds no watcher calls a follower), or it would wait for the other's batch.
            yielded = true;
            seat.following(true);
            scheduler.yieldTo(holder, batch.yieldTo());
            return 0;
        }
        if (status == BatchPolicy.WAIT)
        {
            deadline = batch.waitUntilNs();
        }
        scheduler.watch(seat.bell());
        return 0;
    }

    /** Role held: reports the last executed batch to a policy that learns (under the role: it is single-threaded). */
    private void reportExecuted()
    {
        if (unreportedSize != 0)
        {
            scheduler.executed(index, unreportedSize, unreportedNs);
            unreportedSize = 0;
        }
    }

    private int executeBatch()
    {
        // A policy that learns hears how long the batch took until its last response was delivered. A lent instance
        // needs every batch's time too (whether the next may run on a caller's thread depends on it): the compute
        // time its statistics' timestamps give, not another two reads of the clock.
        final long startNs = reportsBatches ? scheduler.clock().nanoTime() : 0;
        long computeNs = -1;
        try
        {
            computeNs = instance.execute(batch);
        }
        finally
        {
            if (reportsBatches)
            {
                unreportedNs = scheduler.clock().nanoTime() - startNs;
                unreportedSize = batch.batchSize();
            }
            if (computeNs >= 0 && seat.isLent())
            {
                seat.lastBatchQuick(computeNs <= QUICK_BATCH_NS);
            }
            batch.clear();
            if (claim != null)
            {
                claim.release(scheduler.queuedRequests() > 0);
            }
        }
        return 1;
    }

    /**
     * @return whether there is something to do now (asked after the bell is armed, before sleeping; and by a
     *     borrower after it gave the token back); false while a borrower runs the step, which looks again when it ends
     */
    @Override
    public boolean hasWork()
    {
        if (seat.isBorrowed())
        {
            return false;
        }
        if (awaitingGrant)
        {
            return claim.isGranted();
        }
        if (seat.isCalled())
        {
            // Another thread handed this instance the role's work (a yield, a hand-off, an arrival nobody watched):
            // what it drained may sit in this instance's slots, where nothing below would see it.
            return true;
        }
        if (yielded)
        {
            // The role is free because this instance gave it away: waking for that would only take it back.
            return scheduler.isStopping();
        }
        if (scheduler.holdsRole(holder))
        {
            return scheduler.hasNews();
        }
        return scheduler.isStopping() || scheduler.isRoleFree();
    }

    private void answerEnded()
    {
        if (ended.count() > 0)
        {
            answerer.answer(ended);
            ended.clear();
        }
    }

    @Override
    public long wakeDeadlineNs()
    {
        return deadline;
    }

    @Override
    public boolean isDone()
    {
        return done;
    }

    @Override
    public String roleName()
    {
        return roleName;
    }

    @Override
    public void onClose()
    {
        instance.close();
    }
}
