package io.ingot.perf;

import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The request's input options, shared by {@code ingot perf} and {@code ingot tune} (a picocli mixin):
 * {@code --shape} for inputs with variable dimensions and {@code --input-value} for constant inputs.
 */
public final class InputOptions
{
    @Option(names = "--shape", paramLabel = "NAME:D1,D2,...",
        description = "Dimensions of an input with variable dimensions, without the batch dimension.")
    private List<String> shapes = new ArrayList<>();

    @Option(names = "--input-value", paramLabel = "NAME=VALUE",
        description = "Fill an input with a constant (default: random; integers in [0,100), floats in [0,1)).")
    private List<String> values = new ArrayList<>();

    /**
     * @return the {@code --shape} values by input name
     * @throws PerfException (usage) for a malformed one
     */
    public Map<String, long[]> shapes()
    {
        return RequestInputs.parseShapes(shapes);
    }

    /**
     * @return the {@code --input-value} constants by input name
     * @throws PerfException (usage) for a malformed one
     */
    public Map<String, String> values()
    {
        return RequestInputs.parseValues(values);
    }
}
