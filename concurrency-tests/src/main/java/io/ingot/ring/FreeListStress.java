package io.ingot.ring;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;
import org.openjdk.jcstress.infra.results.LL_Result;
import org.openjdk.jcstress.infra.results.ZZ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The races of the core's free lists ({@link BoundedMpmcQueue}, behind the response pool and the pooled output
 * allocator): a release against an acquire, two releases for the last free place, two acquires of the last element.
 */
public final class FreeListStress
{
    private FreeListStress()
    {
    }

    /** What a released object carries: written before the release, read after the acquire. */
    static final class Block
    {
        int payload;
    }

    /**
     * A thread releases a block it has just written while another acquires: the acquirer gets the block with what
     * was written into it, or nothing, and then the block is still there for the arbiter.
     *
     * <p>r1: the payload the acquirer read (0: it got nothing); r2: the payload of what the arbiter polled after.
     */
    @JCStressTest
    @Outcome(id = "42, 0", expect = ACCEPTABLE, desc = "acquired after the release, with its payload")
    @Outcome(id = "0, 42", expect = ACCEPTABLE, desc = "acquired before the release: the block stays queued")
    @Outcome(expect = FORBIDDEN, desc = "a block seen without its payload, lost, or taken twice")
    @State
    public static class ReleaseAgainstAcquire
    {
        private final BoundedMpmcQueue<Block> queue = new BoundedMpmcQueue<>(2);

        /** Writes the block and releases it. */
        @Actor
        public void release()
        {
            final Block block = new Block();
            block.payload = 42;
            queue.offer(block);
        }

        /**
         * Acquires whatever is there.
         *
         * @param result r1: the payload read
         */
        @Actor
        public void acquire(final II_Result result)
        {
            final Block block = queue.poll();
            result.r1 = block == null ? 0 : block.payload;
        }

        /**
         * Polls what is left.
         *
         * @param result r2: its payload
         */
        @Arbiter
        public void arbiter(final II_Result result)
        {
            final Block left = queue.poll();
            result.r2 = left == null ? 0 : left.payload;
        }
    }

    /**
     * Two threads release into the last free place of a full-but-one queue: exactly one succeeds.
     *
     * <p>r1, r2: whether each offer was accepted.
     */
    @JCStressTest
    @Outcome(id = {"true, false", "false, true"}, expect = ACCEPTABLE, desc = "one release took the last place")
    @Outcome(expect = FORBIDDEN, desc = "both took it (one overwritten) or neither did (a free place refused)")
    @State
    public static class TwoReleasesOnePlace
    {
        private final BoundedMpmcQueue<String> queue = new BoundedMpmcQueue<>(2);

        /** One place is taken before the race. */
        public TwoReleasesOnePlace()
        {
            queue.offer("before");
        }

        /**
         * A release.
         *
         * @param result r1
         */
        @Actor
        public void first(final ZZ_Result result)
        {
            result.r1 = queue.offer("first");
        }

        /**
         * Another release.
         *
         * @param result r2
         */
        @Actor
        public void second(final ZZ_Result result)
        {
            result.r2 = queue.offer("second");
        }
    }

    /**
     * Two threads acquire the one element of a queue: exactly one gets it.
     *
     * <p>r1, r2: what each got (null: nothing).
     */
    @JCStressTest
    @Outcome(id = {"only, null", "null, only"}, expect = ACCEPTABLE, desc = "one acquirer got the element")
    @Outcome(expect = FORBIDDEN, desc = "both got it, or neither did")
    @State
    public static class TwoAcquiresOneElement
    {
        private final BoundedMpmcQueue<String> queue = new BoundedMpmcQueue<>(2);

        /** The one element. */
        public TwoAcquiresOneElement()
        {
            queue.offer("only");
        }

        /**
         * An acquire.
         *
         * @param result r1
         */
        @Actor
        public void first(final LL_Result result)
        {
            result.r1 = queue.poll();
        }

        /**
         * Another acquire.
         *
         * @param result r2
         */
        @Actor
        public void second(final LL_Result result)
        {
            result.r2 = queue.poll();
        }
    }
}
