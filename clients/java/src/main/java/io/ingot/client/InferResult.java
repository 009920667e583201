package io.ingot.client;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An inference response, as Triton's {@code InferResult}: the model, version and request id, and each output's
 * datatype, shape and data, readable as the Java array of its datatype. Reading an output the response does not
 * hold throws Triton's C++ client's "The response does not contain results for output name X"; an output the request
 * placed in shared memory has no data here (read it from the region; its {@code shared_memory_region} parameter
 * names it). Immutable and thread-safe.
 */
public final class InferResult
{
    private final String modelName;
    private final String modelVersion;
    private final String id;
    private final Map<String, Object> parameters;
    private final Map<String, Output> outputs;

    /**
     * One output of the response.
     *
     * @param name       the output's name
     * @param datatype   its datatype name
     * @param shape      its shape
     * @param data       its bytes (little-endian, BYTES length-prefixed), or null when it went to shared memory
     * @param parameters its parameters (for example the shared-memory region it was written to)
     */
    public record Output(String name, String datatype, long[] shape, ByteBuffer data, Map<String, Object> parameters)
    {
        /** Keeps a read-only view of the data. */
        public Output
        {
            shape = shape.clone();
            data = data == null ? null : data.asReadOnlyBuffer();
            parameters = Map.copyOf(parameters);
        }

        @Override
        public long[] shape()
        {
            return shape.clone();
        }
    }

    /**
     * @param modelName    the model that answered
     * @param modelVersion its version
     * @param id           the request id, or ""
     * @param parameters   the response's parameters
     * @param outputs      the outputs, in the response's order
     */
    public InferResult(final String modelName, final String modelVersion, final String id,
        final Map<String, Object> parameters, final List<Output> outputs)
    {
        this.modelName = modelName;
        this.modelVersion = modelVersion;
        this.id = id;
        this.parameters = Map.copyOf(parameters);
        final Map<String, Output> byName = new LinkedHashMap<>();
        for (final Output output : outputs)
        {
            byName.put(output.name(), output);
        }
        this.outputs = byName;
    }

    /** @return the model that answered */
    public String modelName()
    {
        return modelName;
    }

    /** @return the version that answered */
    public String modelVersion()
    {
        return modelVersion;
    }

    /** @return the request id the response echoes, or "" */
    public String id()
    {
        return id;
    }

    /** @return the response's parameters */
    public Map<String, Object> parameters()
    {
        return parameters;
    }

    /** @return the outputs' names, in the response's order */
    public Set<String> outputNames()
    {
        return outputs.keySet();
    }

    /**
     * @param name an output name
     * @return the output
     * @throws InferenceServerException when the response has no such output
     */
    public Output output(final String name)
    {
        final Output output = outputs.get(name);
        if (output == null)
        {
            throw new InferenceServerException("The response does not contain results for output name " + name);
        }
        return output;
    }

    /** @return the output's datatype name */
    public String datatype(final String name)
    {
        return output(name).datatype();
    }

    /** @return the output's shape */
    public long[] shape(final String name)
    {
        return output(name).shape();
    }

    /**
     * @param name an output name
     * @return the output's bytes, read-only, little-endian
     * @throws InferenceServerException when the response holds no data for it (absent, or in shared memory)
     */
    public ByteBuffer rawData(final String name)
    {
        final Output output = output(name);
        if (output.data() == null)
        {
            final Object region = output.parameters().get("shared_memory_region");
            throw new InferenceServerException("The response does not contain results for output name " + name
                + (region == null ? "" : " (it was written to shared memory region '" + region + "')"));
        }
        return output.data().duplicate();
    }

    /** @return an FP32, FP16 or BF16 output as floats */
    public float[] asFloats(final String name)
    {
        final Datatype type = check(name, "float[]", Set.of(Datatype.FP32, Datatype.FP16, Datatype.BF16));
        return TensorBytes.floats(rawData(name), type);
    }

    /** @return an FP64 output */
    public double[] asDoubles(final String name)
    {
        check(name, "double[]", Set.of(Datatype.FP64));
        return TensorBytes.doubles(rawData(name));
    }

    /** @return an INT32 or UINT32 output */
    public int[] asInts(final String name)
    {
        check(name, "int[]", Set.of(Datatype.INT32, Datatype.UINT32));
        return TensorBytes.ints(rawData(name));
    }

    /** @return an INT64 or UINT64 output */
    public long[] asLongs(final String name)
    {
        check(name, "long[]", Set.of(Datatype.INT64, Datatype.UINT64));
        return TensorBytes.longs(rawData(name));
    }

    /** @return an INT16 or UINT16 output */
    public short[] asShorts(final String name)
    {
        check(name, "short[]", Set.of(Datatype.INT16, Datatype.UINT16));
        return TensorBytes.shorts(rawData(name));
    }

    /** @return an INT8 or UINT8 output */
    public byte[] asBytes(final String name)
    {
        check(name, "byte[]", Set.of(Datatype.INT8, Datatype.UINT8));
        return TensorBytes.bytes(rawData(name));
    }

    /** @return a BOOL output */
    public boolean[] asBooleans(final String name)
    {
        check(name, "boolean[]", Set.of(Datatype.BOOL));
        final byte[] bytes = TensorBytes.bytes(rawData(name));
        final boolean[] values = new boolean[bytes.length];
        for (int i = 0; i < bytes.length; i++)
        {
            values[i] = bytes[i] != 0;
        }
        return values;
    }

    /** @return a BYTES output's elements */
    public List<byte[]> asByteArrays(final String name)
    {
        check(name, "byte strings", Set.of(Datatype.BYTES));
        return TensorBytes.deserialize(rawData(name));
    }

    /** @return a BYTES output's elements, decoded as UTF-8 */
    public List<String> asStrings(final String name)
    {
        final List<byte[]> elements = asByteArrays(name);
        final List<String> strings = new ArrayList<>(elements.size());
        for (final byte[] element : elements)
        {
            strings.add(new String(element, StandardCharsets.UTF_8));
        }
        return strings;
    }

    private Datatype check(final String name, final String javaType, final Set<Datatype> accepted)
    {
        final Datatype type = Datatype.of(output(name).datatype());
        if (!accepted.contains(type))
        {
            throw new InferenceServerException("output '" + name + "' is " + type + ", which cannot be read as "
                + javaType);
        }
        return type;
    }
}
