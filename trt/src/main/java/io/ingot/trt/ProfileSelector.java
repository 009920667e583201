package io.ingot.trt;

import io.ingot.trt.shim.EngineSignature;
import io.ingot.trt.shim.OptimizationProfile;
import io.ingot.trt.shim.ShapeRange;
import io.ingot.trt.shim.Shapes;

import java.util.List;

/**
 * Picks, among the optimization profiles one instance uses, the one to run a batch with: a profile whose MIN..MAX
 * range holds every input's shape, and among those the one closest to its OPT shapes (as Triton's TensorRT
 * backend does). Allocation-free per batch.
 */
final class ProfileSelector
{
    private final int[] profiles;
    private final ShapeRange[][] ranges;
    private final String[] inputNames;

    /**
     * @param signature  the engine's signature
     * @param profiles   the instance's profile indices
     * @param inputNames the engine inputs, in the order shapes are given to {@link #select}
     */
    ProfileSelector(final EngineSignature signature, final List<Integer> profiles, final List<String> inputNames)
    {
        this.profiles = profiles.stream().mapToInt(Integer::intValue).toArray();
        this.inputNames = inputNames.toArray(String[]::new);
        this.ranges = new ShapeRange[this.profiles.length][this.inputNames.length];
        for (int p = 0; p < this.profiles.length; p++)
        {
            final OptimizationProfile profile = signature.profiles().get(this.profiles[p]);
            for (int i = 0; i < this.inputNames.length; i++)
            {
                ranges[p][i] = profile.range(this.inputNames[i]);
            }
        }
    }

    /**
     * @param shapes engine shapes of the inputs
     * @param ranks  their ranks
     * @return the position (in the instance's profile list) of the profile to use, or {@code -1} when none holds
     *         the shapes
     */
    int select(final long[][] shapes, final int[] ranks)
    {
        int best = -1;
        long bestDistance = Long.MAX_VALUE;
        for (int p = 0; p < profiles.length; p++)
        {
            long distance = 0;
            boolean fits = true;
            for (int i = 0; i < inputNames.length && fits; i++)
            {
                final ShapeRange range = ranges[p][i];
                if (range == null)
                {
                    continue;
                }
                fits = range.contains(shapes[i], ranks[i]);
                if (fits)
                {
                    distance += range.distanceToOpt(shapes[i], ranks[i]);
                }
            }
            if (fits && distance < bestDistance)
            {
                best = p;
                bestDistance = distance;
            }
        }
        return best;
    }

    /**
     * @param position a position from {@link #select}
     * @return the engine's profile index at that position
     */
    int profileAt(final int position)
    {
        return profiles[position];
    }

    /** @return how many profiles the instance uses */
    int size()
    {
        return profiles.length;
    }

    /**
     * Describes why no profile fits, for the request error: per profile, the first input outside its range.
     *
     * @param shapes engine shapes of the inputs
     * @param ranks  their ranks
     * @return the explanation
     */
    String explainMismatch(final long[][] shapes, final int[] ranks)
    {
        final StringBuilder text = new StringBuilder();
        for (int p = 0; p < profiles.length; p++)
        {
            for (int i = 0; i < inputNames.length; i++)
            {
                final ShapeRange range = ranges[p][i];
                if (range != null && !range.contains(shapes[i], ranks[i]))
                {
                    if (!text.isEmpty())
                    {
                        text.append("; ");
                    }
                    text.append("input '").append(inputNames[i]).append("' shape ")
                        .append(Shapes.format(shapes[i], ranks[i])).append(" is outside optimization profile ")
                        .append(profiles[p]).append(" (").append(range).append(')');
                    break;
                }
            }
        }
        return text.toString();
    }
}
