package io.ingot.perf;

import io.ingot.tensor.DataType;
import io.ingot.api.TensorMetadata;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The tensors every request of a run carries, resolved from the model's metadata as perf_analyzer resolves them:
 * when the model batches, the metadata's leading batch dimension is replaced by {@code -b}; every other {@code -1}
 * needs a {@code --shape}; the bytes are generated once (random, or a constant per input) and shared by all requests.
 *
 * @param model        the model name
 * @param version      the version asked for ({@code ""}: the server's choice)
 * @param maxBatchSize the model's {@code max_batch_size}
 * @param batchSize    rows per request ({@code -b}); 1 when the model does not batch
 * @param inputs       the inputs, in metadata order
 * @param outputs      the model's output names
 */
public record RequestInputs(String model, String version, int maxBatchSize, int batchSize, List<Tensor> inputs,
    List<String> outputs)
{
    /**
     * One input tensor.
     *
     * @param name     input name
     * @param dataType element type
     * @param shape    full shape, batch dimension included when the model batches
     * @param data     the bytes (row-major; BYTES elements as 4-byte little-endian lengths and their bytes)
     */
    public record Tensor(String name, DataType dataType, long[] shape, byte[] data)
    {
        /** @return the shape as text, {@code [1,128]}. */
        public String shapeText()
        {
            return Arrays.toString(shape).replace(" ", "");
        }
    }

    /** Freezes the lists. */
    public RequestInputs
    {
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
    }

    /**
     * Resolves the request tensors.
     *
     * @param model        model name
     * @param version      version asked for, {@code ""} for the default
     * @param maxBatchSize the model's {@code max_batch_size}
     * @param inputs       the model's inputs as its metadata reports them (leading {@code -1} when batching)
     * @param outputs      the model's output names
     * @param batchSize    {@code -b}
     * @param shapes       {@code --shape} values: input name to dims without the batch dimension
     * @param values       {@code --input-value} constants, by input name; other inputs get random data
     * @param seed         seed of the random data
     * @return the resolved inputs
     * @throws PerfException (usage) for a shape or value that does not fit the model
     */
    public static RequestInputs resolve(final String model, final String version, final int maxBatchSize,
        final List<TensorMetadata> inputs, final List<String> outputs, final int batchSize,
        final Map<String, long[]> shapes, final Map<String, String> values, final long seed)
    {
        if (batchSize < 1)
        {
            throw PerfException.usage("-b/--batch-size must be at least 1, got " + batchSize);
        }
        if (maxBatchSize == 0 && batchSize != 1)
        {
            throw PerfException.usage("model '" + model + "' does not batch (max_batch_size 0): -b/--batch-size must"
                + " be 1, got " + batchSize);
        }
        if (maxBatchSize > 0 && batchSize > maxBatchSize)
        {
            throw PerfException.usage("-b/--batch-size " + batchSize + " exceeds model '" + model
                + "' max_batch_size " + maxBatchSize);
        }
        final Map<String, TensorMetadata> byName = new LinkedHashMap<>();
        inputs.forEach(input -> byName.put(input.name(), input));
        for (final String name : shapes.keySet())
        {
            if (!byName.containsKey(name))
            {
                throw PerfException.usage("--shape names input '" + name + "', which model '" + model
                    + "' does not have; its inputs are " + byName.keySet());
            }
        }
        for (final String name : values.keySet())
        {
            if (!byName.containsKey(name))
            {
                throw PerfException.usage("--input-value names input '" + name + "', which model '" + model
                    + "' does not have; its inputs are " + byName.keySet());
            }
        }
        final SplittableRandom random = new SplittableRandom(seed);
        final List<Tensor> tensors = new ArrayList<>();
        for (final TensorMetadata input : inputs)
        {
            final long[] dims = dims(model, maxBatchSize, input, shapes.get(input.name()));
            final long[] shape;
            if (maxBatchSize > 0)
            {
                shape = new long[dims.length + 1];
                shape[0] = batchSize;
                System.arraycopy(dims, 0, shape, 1, dims.length);
            }
            else
            {
                shape = dims;
            }
            tensors.add(new Tensor(input.name(), input.dataType(), shape,
                data(input, shape, values.get(input.name()), random)));
        }
        return new RequestInputs(model, version, maxBatchSize, batchSize, tensors, outputs);
    }

    private static long[] dims(final String model, final int maxBatchSize, final TensorMetadata input,
        final long[] given)
    {
        final List<Long> reported = input.shape();
        final List<Long> dims = maxBatchSize > 0 && !reported.isEmpty() ? reported.subList(1, reported.size())
            : reported;
        if (given == null)
        {
            final long[] fixed = dims.stream().mapToLong(Long::longValue).toArray();
            for (final long dim : fixed)
            {
                if (dim < 0)
                {
                    throw PerfException.usage("input '" + input.name() + "' of model '" + model + "' has shape "
                        + dims + " with a variable dimension: give it with --shape " + input.name() + ":"
                        + exampleDims(dims) + " (dimensions without the batch dimension)");
                }
            }
            return fixed;
        }
        if (given.length != dims.size())
        {
            throw PerfException.usage("--shape for input '" + input.name() + "' has " + given.length
                + " dimensions, but model '" + model + "' gives it " + dims.size() + " (" + dims
                + ", without the batch dimension)");
        }
        for (int d = 0; d < given.length; d++)
        {
            if (given[d] < 0 || dims.get(d) >= 0 && dims.get(d) != given[d])
            {
                throw PerfException.usage("--shape " + input.name() + ":" + join(given) + " does not fit model '"
                    + model + "', whose input has dimensions " + dims);
            }
        }
        return given.clone();
    }

    private static String exampleDims(final List<Long> dims)
    {
        final StringBuilder text = new StringBuilder();
        for (final long dim : dims)
        {
            text.append(text.isEmpty() ? "" : ",").append(dim < 0 ? 16 : dim);
        }
        return text.toString();
    }

    private static String join(final long[] dims)
    {
        final StringBuilder text = new StringBuilder();
        for (final long dim : dims)
        {
            text.append(text.isEmpty() ? "" : ",").append(dim);
        }
        return text.toString();
    }

    /**
     * Generates an input's bytes: a constant when one is given, else random values — uniform in [0, 1) for floats,
     * whole numbers in [0, 100) for integers (valid indices for most embedding tables), random booleans, and
     * 8-letter strings for BYTES.
     */
    private static byte[] data(final TensorMetadata input, final long[] shape, final String constant,
        final SplittableRandom random)
    {
        long elements = 1;
        for (final long dim : shape)
        {
            elements = Math.multiplyExact(elements, dim);
        }
        final DataType type = input.dataType();
        if (type == DataType.BYTES)
        {
            final List<byte[]> items = new ArrayList<>();
            long total = 0;
            for (long e = 0; e < elements; e++)
            {
                final byte[] item = constant != null ? constant.getBytes(StandardCharsets.UTF_8) : word(random);
                items.add(item);
                total += 4 + item.length;
            }
            final ByteBuffer buffer = ByteBuffer.allocate(Math.toIntExact(total)).order(ByteOrder.LITTLE_ENDIAN);
            items.forEach(item -> buffer.putInt(item.length).put(item));
            return buffer.array();
        }
        final long bytes = Math.multiplyExact(elements, (long)type.byteSize());
        if (bytes > Integer.MAX_VALUE - 16)
        {
            throw PerfException.usage("input '" + input.name() + "' would need " + bytes
                + " bytes per request; perf handles up to 2 GiB");
        }
        final ByteBuffer buffer = ByteBuffer.allocate((int)bytes).order(ByteOrder.LITTLE_ENDIAN);
        final double fixed = constant == null ? Double.NaN : constantValue(input, constant);
        for (long e = 0; e < elements; e++)
        {
            final double value = constant != null ? fixed : switch (type)
            {
                case FP16, FP32, FP64, BF16 -> random.nextDouble();
                case BOOL -> random.nextInt(2);
                default -> random.nextInt(100);
            };
            put(buffer, type, value);
        }
        return buffer.array();
    }

    private static double constantValue(final TensorMetadata input, final String constant)
    {
        try
        {
            final double value = input.dataType() == DataType.BOOL
                ? (Boolean.parseBoolean(constant) || "1".equals(constant) ? 1 : 0) : Double.parseDouble(constant);
            if (!Double.isFinite(value))
            {
                throw new NumberFormatException(constant);
            }
            return value;
        }
        catch (final NumberFormatException ex)
        {
            throw PerfException.usage("--input-value " + input.name() + "=" + constant + ": '" + constant
                + "' is not a number for a " + input.dataType() + " input");
        }
    }

    private static void put(final ByteBuffer buffer, final DataType type, final double value)
    {
        switch (type)
        {
            case BOOL, UINT8, INT8 -> buffer.put((byte)(long)value);
            case UINT16, INT16 -> buffer.putShort((short)(long)value);
            case UINT32, INT32 -> buffer.putInt((int)(long)value);
            case UINT64, INT64 -> buffer.putLong((long)value);
            case FP16 -> buffer.putShort(Float.floatToFloat16((float)value));
            case BF16 -> buffer.putShort((short)(Float.floatToRawIntBits((float)value) >>> 16));
            case FP32 -> buffer.putFloat((float)value);
            case FP64 -> buffer.putDouble(value);
            case BYTES -> throw new IllegalStateException("BYTES is generated element by element");
        }
    }

    private static byte[] word(final SplittableRandom random)
    {
        final byte[] letters = new byte[8];
        for (int i = 0; i < letters.length; i++)
        {
            letters[i] = (byte)('a' + random.nextInt(26));
        }
        return letters;
    }

    /**
     * Parses {@code --shape} values, {@code NAME:d1,d2,...}.
     *
     * @param specs the option values
     * @return input name to dims
     * @throws PerfException (usage) naming the malformed value
     */
    public static Map<String, long[]> parseShapes(final List<String> specs)
    {
        final Map<String, long[]> shapes = new HashMap<>();
        for (final String spec : specs)
        {
            final int colon = spec.lastIndexOf(':');
            if (colon <= 0)
            {
                throw PerfException.usage("--shape expects NAME:d1,d2,... (dimensions without the batch dimension),"
                    + " e.g. --shape input_ids:128; got '" + spec + "'");
            }
            final String body = spec.substring(colon + 1).trim();
            try
            {
                final long[] dims = body.isEmpty() ? new long[0]
                    : Arrays.stream(body.split(",")).map(String::trim).mapToLong(Long::parseLong).toArray();
                for (final long dim : dims)
                {
                    if (dim < 0)
                    {
                        throw new NumberFormatException();
                    }
                }
                shapes.put(spec.substring(0, colon), dims);
            }
            catch (final NumberFormatException ex)
            {
                throw PerfException.usage("--shape '" + spec + "': dimensions must be non-negative whole numbers "
                    + "separated by commas, e.g. input_ids:128");
            }
        }
        return shapes;
    }

    /**
     * Parses {@code --input-value} values, {@code NAME=VALUE}.
     *
     * @param specs the option values
     * @return input name to value text
     * @throws PerfException (usage) naming the malformed value
     */
    public static Map<String, String> parseValues(final List<String> specs)
    {
        final Map<String, String> values = new HashMap<>();
        for (final String spec : specs)
        {
            final int equals = spec.indexOf('=');
            if (equals <= 0)
            {
                throw PerfException.usage("--input-value expects NAME=VALUE, e.g. attention_mask=1; got '" + spec
                    + "'");
            }
            values.put(spec.substring(0, equals), spec.substring(equals + 1));
        }
        return values;
    }

    /** @return the bytes one request carries, all inputs together. */
    public long requestBytes()
    {
        long total = 0;
        for (final Tensor tensor : inputs)
        {
            total += tensor.data().length;
        }
        return total;
    }
}
