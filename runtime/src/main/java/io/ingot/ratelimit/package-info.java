/**
 * Triton's rate limiter ({@code --rate-limit=execution_count}): the named resources every instance of every model
 * holds while it executes a batch ({@code instance_group.rate_limiter}), how many units of each the core has
 * ({@link io.ingot.ratelimit.ResourcePools}: the most any instance asks for, or {@code --rate-limit-resource}), and
 * who may execute next ({@link io.ingot.ratelimit.RateLimiter}: lowest {@code executions × max(priority, 1)} first,
 * strictly head of line). An instance reaches it through its {@link io.ingot.ratelimit.InstanceClaim}; with the
 * limiter off no claim exists and the dispatch path does not touch this package.
 */
package io.ingot.ratelimit;
