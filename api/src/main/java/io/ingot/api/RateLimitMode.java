package io.ingot.api;

/**
 * Triton's rate-limiter modes ({@code --rate-limit}), set for a core by {@link CoreOptions#rateLimitMode()}.
 */
public enum RateLimitMode
{
    /**
     * The default: every instance runs a batch as soon as it is free; the {@code rate_limiter} blocks of the
     * configurations (resources and priority) are ignored, and the dispatch path takes no lock for them.
     */
    OFF,
    /**
     * Triton's {@code execution_count}: an instance runs a batch only once it holds every resource its
     * {@code instance_group.rate_limiter} names, and instances that wait are served lowest
     * {@code executions × max(priority, 1)} first, across every model of the core.
     */
    EXECUTION_COUNT
}
