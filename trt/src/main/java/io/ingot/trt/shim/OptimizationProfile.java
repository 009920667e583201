package io.ingot.trt.shim;

import java.util.Map;
import java.util.stream.Collectors;

/**
 * One optimization profile of an engine: the shape range of every input it describes.
 *
 * @param index  the profile index
 * @param inputs input name to its shape range, in engine order
 */
public record OptimizationProfile(int index, Map<String, ShapeRange> inputs)
{
    /** Copies the map, keeping its order. */
    public OptimizationProfile
    {
        inputs = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(inputs));
    }

    /**
     * @param input an input name
     * @return its range in this profile, or {@code null} when the profile does not describe it
     */
    public ShapeRange range(final String input)
    {
        return inputs.get(input);
    }

    @Override
    public String toString()
    {
        return "profile " + index + " {" + inputs.entrySet().stream()
            .map(entry -> entry.getKey() + ": " + entry.getValue())
            .collect(Collectors.joining("; ")) + "}";
    }
}
