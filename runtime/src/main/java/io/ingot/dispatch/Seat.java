package io.ingot.dispatch;

import io.ingot.agent.ThreadBell;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * An instance's place at its model's scheduler: the bell it sleeps on while idle, whether it is following — idle,
 * willing to take the batching role, asleep or about to be — and whether it has been <em>called</em> to take the
 * role since it last looked. The scheduler reads seats to hand the role on; the owning instance writes its own
 * following flag and clears its call.
 *
 * <p>Why a call is more than a ring: a ring on a bell that is not armed changes nothing, because its owner is awake
 * and will look for work itself. But what the owner looks at before it sleeps may not show the work it is called
 * for — work the caller has already drained into its model's policy, queued for this instance's sequence slots.
 * The call stays set until the owner's next pass, and the owner asks for it after arming its bell, so a call is
 * never lost (the {@link io.ingot.agent.Bell} protocol: the caller's store, a fence, its look at {@code armed};
 * the owner's arm, a fence, its look at the call).
 *
 * <p><b>The run token.</b> Exactly one thread at a time runs the instance's step: its own thread takes the token
 * ({@link #enterOwn}) around each pass, and a thread that submitted a request may <em>borrow</em> the idle instance
 * ({@link #tryBorrow}: one compare-and-set, only while the token is free) to run one step in its place
 * ({@link #runBorrowed}) — its batch executes on the submitting thread, with no wake-up of the instance's. While
 * the token is borrowed the instance's thread finds no work and may sleep; the borrower gives the token back, fences,
 * and rings the instance if it has work then ({@link InstanceDuty#hasWork}), while the instance arms its bell, fences,
 * and looks at the token: one of the two sees the other, so no wake-up is lost (jcstress {@code BorrowWakeStress}).
 * Only an instance whose agent {@link #lend lends} its duty can be borrowed, and only while its batches are quick
 * ({@link #lastBatchQuick}).
 *
 * <p><b>Fields.</b> The two flags, {@code following} and {@code called}, and the token, {@code runner} (volatile),
 * are declared in {@link SeatFields}, the flags on one cache line and the token on another; the bell and the duty
 * are the fields below. Thread-safe.
 */
public final class Seat extends SeatFields.PadAfter
{
    /** {@code runner}: nobody runs the instance's step. */
    public static final int FREE = 0;
    /** {@code runner}: the instance's own thread runs its step. */
    public static final int OWNER = 1;
    /** {@code runner}: another thread runs the step in the idle instance's place. */
    public static final int BORROWED = 2;

    private static final VarHandle RUNNER;

    static
    {
        try
        {
            RUNNER = MethodHandles.lookup().findVarHandle(SeatFields.Token.class, "runner", int.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final ThreadBell bell = new ThreadBell();
    /** The step a borrower runs, or {@code null}: the instance cannot be borrowed. Set before the instance serves. */
    private InstanceDuty duty;
    /** Whether the instance's last batch was quick enough to run on a caller's thread (false until one ran). */
    private volatile boolean quick;

    /** @return the bell the instance sleeps on */
    public ThreadBell bell()
    {
        return bell;
    }

    /** @return whether the instance is idle and willing to lead */
    public boolean isFollowing()
    {
        return following;
    }

    /**
     * @param following whether the instance is idle and willing to lead (its own thread only)
     */
    public void following(final boolean following)
    {
        // Stored only on a change: the store is volatile (a fence), and the line is one every producer reads.
        if (this.following != following)
        {
            this.following = following;
        }
    }

    /**
     * Calls the instance to take the role and look for work (any thread): marks the call, then rings its bell.
     */
    public void call()
    {
        if (!called)
        {
            called = true;
        }
        bell.ring();
    }

    /** @return whether a call came since the owner last {@link #answerCall() answered} one */
    public boolean isCalled()
    {
        return called;
    }

    /** Owner, before it looks for work: the call is answered by the look that follows. */
    public void answerCall()
    {
        if (called)
        {
            called = false;
        }
    }

    /**
     * Lets callers borrow the idle instance (before its thread starts; the thread's start publishes it).
     *
     * @param instanceDuty the step a borrower runs
     */
    public void lend(final InstanceDuty instanceDuty)
    {
        this.duty = instanceDuty;
    }

    /**
     * The holder of the token, after a batch: whether the next one may run on a caller's thread. A batch longer than
     * the cost of a wake-up gains little from running on the caller's thread and holds it (an IPC thread reads every
     * client's requests); such a model's batches stay on its instance's thread until one is quick again.
     *
     * @param quickBatch whether the batch took at most the instance's limit
     */
    public void lastBatchQuick(final boolean quickBatch)
    {
        if (quick != quickBatch)
        {
            quick = quickBatch;
        }
    }

    /** @return whether the instance may be borrowed at all (its engine runs on any thread, and so on) */
    public boolean isLent()
    {
        return duty != null;
    }

    /**
     * The instance's own thread, before its pass.
     *
     * @return whether it holds the token now; false while a borrower runs its step (the pass then does nothing)
     */
    public boolean enterOwn()
    {
        return RUNNER.compareAndSet(this, FREE, OWNER);
    }

    /** The instance's own thread, after its pass. */
    public void leaveOwn()
    {
        RUNNER.setRelease(this, FREE);
    }

    /** @return whether a borrower runs the instance's step now (the instance's last look before sleeping) */
    public boolean isBorrowed()
    {
        return runner == BORROWED;
    }

    /**
     * A submitting thread: takes the token of a lent instance whose last batch was quick and whose step nobody runs.
     *
     * @return whether the caller borrowed the instance: it must then {@link #runBorrowed}
     */
    public boolean tryBorrow()
    {
        return duty != null && quick && runner == FREE && RUNNER.compareAndSet(this, FREE, BORROWED);
    }

    /**
     * The borrower: runs one step of the instance on its thread, then gives the token back.
     *
     * @return the step's outcome ({@link InstanceDuty#RAN}, {@link InstanceDuty#NOT_LEADING},
     *     {@link InstanceDuty#HANDED_BACK})
     */
    public int runBorrowed()
    {
        final int outcome = duty.runBorrowed();
        if (outcome == InstanceDuty.HANDED_BACK)
        {
            called = true;
        }
        giveBack();
        return outcome;
    }

    /**
     * The borrower, done: frees the token, fences, and rings the instance if it has work now — the other half of
     * the instance's arm, fence, look at the token.
     */
    private void giveBack()
    {
        runner = FREE;
        VarHandle.fullFence();
        if (duty.hasWork())
        {
            bell.ring();
        }
    }
}
