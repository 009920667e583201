package io.ingot.api;

import java.util.Objects;

/**
 * How many units of one named rate-limiter resource a core has (Triton's
 * {@code --rate-limit-resource=<name>:<count>[:<device>]}). Without any, each resource's count is the most any
 * loaded instance asks for; once one is given, every resource a loaded instance names must be given, and an instance
 * that asks for more than its count fails to load (as in Triton). Immutable.
 *
 * @param name   the resource, as the configurations name it (case-sensitive)
 * @param count  the units available (per device, for a per-device resource)
 * @param device the device it applies to, or {@link #EVERY_DEVICE}; ignored for a resource the configurations
 *               declare {@code global}
 */
public record RateLimitResource(String name, long count, int device)
{
    /** {@link #device()} of a resource given for every device. */
    public static final int EVERY_DEVICE = -1;

    /**
     * @throws NullPointerException     for a {@code null} name
     * @throws IllegalArgumentException for a negative count or a device below {@link #EVERY_DEVICE}
     */
    public RateLimitResource
    {
        Objects.requireNonNull(name, "name");
        if (count < 0)
        {
            throw new IllegalArgumentException("rate-limiter resource '" + name + "' needs a count of 0 or more, was "
                + count);
        }
        if (device < EVERY_DEVICE)
        {
            throw new IllegalArgumentException("rate-limiter resource '" + name + "' needs a device of 0 or more (or "
                + "-1 for every device), was " + device);
        }
    }
}
