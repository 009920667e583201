package io.ingot.scheduler;

import io.ingot.config.proto.ModelQueuePolicy;

/**
 * One priority level's queue policy, resolved from {@code ModelQueuePolicy}. Immutable.
 *
 * @param delayOnTimeout       true for {@code DELAY}, false for {@code REJECT}
 * @param defaultTimeoutNs     the default queue timeout, 0 for none
 * @param allowTimeoutOverride whether a request may shorten the timeout
 * @param maxQueueSize         the most requests queued at this level, 0 for no limit (never negative)
 */
public record QueuePolicy(boolean delayOnTimeout, long defaultTimeoutNs, boolean allowTimeoutOverride,
    int maxQueueSize)
{
    /**
     * @param policy a configuration's queue policy
     * @return it resolved; a timeout of more than about 292 years (Long.MAX_VALUE ns / 1000) is taken as that, and a
     *         {@code max_queue_size} (a {@code uint32}) above {@link Integer#MAX_VALUE} as that many requests, more
     *         than a queue ever holds
     */
    public static QueuePolicy of(final ModelQueuePolicy policy)
    {
        return new QueuePolicy(policy.getTimeoutAction() == ModelQueuePolicy.TimeoutAction.DELAY,
            SchedulerSettings.microsToNanos(policy.getDefaultTimeoutMicroseconds()), policy.getAllowTimeoutOverride(),
            (int) Math.min(Integer.toUnsignedLong(policy.getMaxQueueSize()), Integer.MAX_VALUE));
    }

    /**
     * The timeout a request gets, as Triton computes it: the default, replaced by the request's own only when
     * overriding is allowed and the request's is non-zero and shorter.
     *
     * @param requestTimeoutMicros the request's timeout, 0 for none
     * @return the timeout to apply in nanoseconds, 0 for none
     */
    public long timeoutNs(final long requestTimeoutMicros)
    {
        if (allowTimeoutOverride && requestTimeoutMicros != 0 && defaultTimeoutNs != 0)
        {
            final long requested = SchedulerSettings.microsToNanos(requestTimeoutMicros);
            if (requested < defaultTimeoutNs)
            {
                return requested;
            }
        }
        return defaultTimeoutNs;
    }
}
