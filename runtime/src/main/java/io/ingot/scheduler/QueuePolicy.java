package io.ingot.scheduler;

import io.ingot.config.proto.ModelQueuePolicy;

/**
 * One level's queue policy, resolved from {@code ModelQueuePolicy}.
 *
 * @param delayOnTimeout       true for {@code DELAY}, false for {@code REJECT}
 * @param defaultTimeoutNs     the default queue timeout, 0 for none
 * @param allowTimeoutOverride whether a request may shorten the timeout
 * @param maxQueueSize         the most requests queued at this level, 0 for no limit
 */
record QueuePolicy(boolean delayOnTimeout, long defaultTimeoutNs, boolean allowTimeoutOverride, int maxQueueSize)
{
    static final QueuePolicy NONE = new QueuePolicy(false, 0, false, 0);

    static QueuePolicy of(final ModelQueuePolicy policy)
    {
        return new QueuePolicy(policy.getTimeoutAction() == ModelQueuePolicy.TimeoutAction.DELAY,
            policy.getDefaultTimeoutMicroseconds() * 1000L, policy.getAllowTimeoutOverride(),
            policy.getMaxQueueSize());
    }

    /**
     * The timeout a request gets, as Triton computes it: the default, replaced by the request's own only when
     * overriding is allowed and the request's is non-zero and shorter.
     */
    long timeoutNs(final long requestTimeoutMicros)
    {
        if (allowTimeoutOverride && requestTimeoutMicros != 0 && defaultTimeoutNs != 0
            && requestTimeoutMicros * 1000L < defaultTimeoutNs)
        {
            return requestTimeoutMicros * 1000L;
        }
        return defaultTimeoutNs;
    }
}
