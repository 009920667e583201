package io.ingot.ring;

import io.ingot.benchmarks.ring.DisruptorRequestRing;

/**
 * Benchmarks only, never on the serving path: the core's intake ring replaced by the LMAX Disruptor's. Compiled to
 * {@code benchmarks/target/disruptor-ring/} (not into benchmarks.jar); {@code benchmarks/intake-rounds.sh} puts that
 * folder before benchmarks.jar on the class path of its {@code ingot-disruptor} pipelines, so that this class is the
 * one the JVM loads for {@code io.ingot.ring.RequestRing} and the core's own {@code ModelScheduler} runs over the
 * Disruptor, everything else unchanged. Its methods are {@link DisruptorRequestRing}'s, which has every public method
 * of the ring module's {@code RequestRing} ({@code DisruptorRequestRingTest} checks it); the claim comes from the
 * system property {@value DisruptorRequestRing#CLAIM_PROPERTY} ({@code tryNext}, the default, or {@code next}).
 *
 * @param <E> the item type
 */
public final class RequestRing<E> extends DisruptorRequestRing<E>
{
    /**
     * @param size number of slots, a power of two
     */
    public RequestRing(final int size)
    {
        super(size, Claim.parse(System.getProperty(CLAIM_PROPERTY)));
    }
}
