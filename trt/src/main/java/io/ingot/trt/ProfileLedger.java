package io.ingot.trt;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which instance of a model uses which optimization profile of its engine.
 *
 * <p>TensorRT: "if the engine supports dynamic shapes, each execution context in concurrent use must use a
 * separate optimization profile". Instances run concurrently, so for such an engine ({@code exclusive}) a profile
 * belongs to one instance at a time:
 * <ul>
 *   <li>an instance group that lists {@code profile: [...]} (Triton's field) gets exactly those profiles, and it
 *       is an error if another instance holds one of them;</li>
 *   <li>an instance whose group lists none gets the lowest-numbered free profile (Triton would give every such
 *       instance profile 0, which TensorRT's rule above forbids for concurrent use); when none is free the
 *       instance cannot be created.</li>
 * </ul>
 * An engine with static shapes has nothing to share: every instance uses profile 0 (or its listed profiles).
 * Thread-safe.
 */
final class ProfileLedger
{
    private final String label;
    private final int profileCount;
    private final boolean exclusive;
    private final Map<Integer, String> holders = new TreeMap<>();

    /**
     * @param label        the model's label for messages
     * @param profileCount the engine's number of optimization profiles
     * @param exclusive    true when concurrently used contexts need distinct profiles (dynamic shapes)
     */
    ProfileLedger(final String label, final int profileCount, final boolean exclusive)
    {
        this.label = label;
        this.profileCount = profileCount;
        this.exclusive = exclusive;
    }

    /**
     * @param instance  the instance's name
     * @param requested the instance group's {@code profile} entries (may be empty)
     * @return the profile indices the instance uses, in the listed order
     * @throws IllegalArgumentException for an entry that is not a profile index of the engine, or a profile another
     *                                  instance holds
     */
    synchronized List<Integer> claim(final String instance, final List<String> requested)
    {
        final List<Integer> profiles = new ArrayList<>();
        if (requested.isEmpty())
        {
            if (!exclusive)
            {
                profiles.add(0);
                return profiles;
            }
            for (int p = 0; p < profileCount; p++)
            {
                if (!holders.containsKey(p))
                {
                    holders.put(p, instance);
                    profiles.add(p);
                    return profiles;
                }
            }
            throw new IllegalArgumentException(label + ": instance '" + instance + "' needs an optimization profile "
                + "of its own, but all " + profileCount + " profile(s) of the engine are used by other instances "
                + holders + "; TensorRT requires a separate profile for each concurrently used execution context of "
                + "an engine with dynamic shapes: lower instance_group count to " + profileCount
                + " or build the engine with more profiles (trtexec --profile=N ...)");
        }
        for (final String entry : requested)
        {
            final int profile;
            try
            {
                profile = Integer.parseInt(entry.trim());
            }
            catch (final NumberFormatException notNumber)
            {
                throw new IllegalArgumentException(label + ": instance_group profile '" + entry + "' of instance '"
                    + instance + "' is not a profile index; expected a number from 0 to " + (profileCount - 1));
            }
            if (profile < 0 || profile >= profileCount)
            {
                throw new IllegalArgumentException(label + ": instance_group profile '" + entry + "' of instance '"
                    + instance + "' is out of range: the engine has " + profileCount + " optimization profile(s), 0 to "
                    + (profileCount - 1));
            }
            if (profiles.contains(profile))
            {
                continue;
            }
            if (exclusive && holders.containsKey(profile))
            {
                throw new IllegalArgumentException(label + ": instance '" + instance + "' lists optimization profile "
                    + profile + ", which instance '" + holders.get(profile) + "' already uses; TensorRT requires a "
                    + "separate profile for each concurrently used execution context of an engine with dynamic "
                    + "shapes: give each instance its own profiles in instance_group");
            }
            profiles.add(profile);
        }
        if (exclusive)
        {
            for (final int profile : profiles)
            {
                holders.put(profile, instance);
            }
        }
        return profiles;
    }

    /** @param instance an instance whose profiles become free again (its engine was closed) */
    synchronized void release(final String instance)
    {
        holders.values().removeIf(instance::equals);
    }
}
