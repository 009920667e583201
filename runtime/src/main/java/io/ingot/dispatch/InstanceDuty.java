package io.ingot.dispatch;

/**
 * An idle instance's step as another thread runs it in its place (a <em>borrow</em>, {@link Seat#tryBorrow}):
 * implemented by the instance's agent, called only by the thread that holds the seat's run token as
 * {@link Seat#BORROWED}, so never at the same time as the instance's own step.
 */
public interface InstanceDuty
{
    /** {@link #runBorrowed()}: a batch was executed and delivered on the borrowing thread. */
    int RAN = 0;
    /** {@link #runBorrowed()}: the instance could not lead (the role was taken, the model stops): nothing was run. */
    int NOT_LEADING = 1;
    /** {@link #runBorrowed()}: the instance's own thread must run next (a wait, work left, ended requests): call it. */
    int HANDED_BACK = 2;

    /**
     * Runs one step of the instance on the calling thread: takes the batching role as the instance, drains the ring,
     * and on a dispatch executes and delivers the batch here; anything else is left to the instance's own thread.
     * Never throws.
     *
     * @return {@link #RAN}, {@link #NOT_LEADING} or {@link #HANDED_BACK}
     */
    int runBorrowed();

    /**
     * @return whether the instance's own thread has something to do now (asked by the borrower after it gave the
     *     token back: true rings the instance)
     */
    boolean hasWork();
}
