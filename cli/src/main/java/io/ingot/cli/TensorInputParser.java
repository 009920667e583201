package io.ingot.cli;

import io.ingot.tensor.DataType;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInput;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns {@code infer}'s {@code --input NAME=VALUES} arguments into tensors, checked against the model's
 * configuration. {@code VALUES} is either comma-separated values ({@code 1,2.5,-3}; strings for {@code BYTES}) or
 * the path of a file: a {@code .npy} array, or raw little-endian elements (for {@code BYTES}, the whole file is one
 * element); {@code @path} forces a file. The shape comes from {@code --shape NAME=d0,d1,...} when given (with the
 * batch dimension when the model batches), from a {@code .npy} file's header, or else from the configured
 * {@code dims} with a batch of 1, a single {@code -1} being worked out from the number of values. Every mistake is a
 * {@link CliException} naming the model, the input, and what was expected.
 */
final class TensorInputParser
{
    private static final ValueLayout.OfShort SHORT_LE =
        ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT_LE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG_LE =
        ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfFloat FLOAT_LE =
        ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfDouble DOUBLE_LE =
        ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final ModelConfig config;
    private final Map<String, long[]> shapes;
    private final Arena arena;

    /**
     * @param config the model's configuration
     * @param shapes shapes given with {@code --shape}, by input name
     * @param arena  owner of the tensors' memory
     */
    TensorInputParser(final ModelConfig config, final Map<String, long[]> shapes, final Arena arena)
    {
        this.config = config;
        this.shapes = shapes;
        this.arena = arena;
        for (final String name : shapes.keySet())
        {
            input(name);
        }
    }

    /**
     * @param assignment {@code NAME=VALUES} or {@code NAME=FILE}
     * @return the tensor
     */
    TensorInput parse(final String assignment)
    {
        final int equals = assignment.indexOf('=');
        if (equals <= 0)
        {
            throw CliException.usage("--input '" + assignment + "' must be NAME=VALUES or NAME=FILE");
        }
        final String name = assignment.substring(0, equals);
        final String value = assignment.substring(equals + 1);
        final ModelInput input = input(name);
        final DataType type = DataType.fromConfigNumber(input.getDataType().getNumber());
        final Path file = fileOf(name, value);
        if (file != null && file.getFileName().toString().endsWith(".npy"))
        {
            return fromNpy(input, type, file);
        }
        if (file != null)
        {
            return fromRaw(input, type, file);
        }
        return fromValues(input, type, value);
    }

    /**
     * @param given the inputs given on the command line
     * @throws CliException listing every configured, non-optional input that is missing
     */
    void checkComplete(final List<TensorInput> given)
    {
        final List<String> missing = new ArrayList<>();
        for (final ModelInput input : config.getInputList())
        {
            if (!input.getOptional() && given.stream().noneMatch(tensor -> tensor.name().equals(input.getName())))
            {
                missing.add(describe(input));
            }
        }
        if (!missing.isEmpty())
        {
            throw CliException.usage("model '" + config.getName() + "' needs --input for "
                + String.join(", ", missing));
        }
    }

    private ModelInput input(final String name)
    {
        for (final ModelInput input : config.getInputList())
        {
            if (input.getName().equals(name))
            {
                return input;
            }
        }
        final List<String> names = config.getInputList().stream().map(TensorInputParser::describe).toList();
        throw CliException.usage("model '" + config.getName() + "' has no input '" + name + "'; its inputs are "
            + String.join(", ", names));
    }

    private static String describe(final ModelInput input)
    {
        return input.getName() + " (" + input.getDataType().name() + " " + input.getDimsList().toString()
            .replace(" ", "") + ")";
    }

    private static Path fileOf(final String name, final String value)
    {
        if (value.startsWith("@"))
        {
            final Path file = Path.of(value.substring(1));
            if (!Files.isRegularFile(file))
            {
                throw CliException.usage("input '" + name + "': file '" + file + "' not found");
            }
            return file;
        }
        try
        {
            final Path file = Path.of(value);
            return !value.isEmpty() && Files.isRegularFile(file) ? file : null;
        }
        catch (final java.nio.file.InvalidPathException e)
        {
            return null;
        }
    }

    private TensorInput fromValues(final ModelInput input, final DataType type, final String text)
    {
        final String[] values = text.isEmpty() ? new String[0] : text.split(",", -1);
        final long[] shape = shape(input, values.length);
        if (type == DataType.BYTES)
        {
            final byte[][] elements = new byte[values.length][];
            long bytes = 0;
            for (int i = 0; i < values.length; i++)
            {
                elements[i] = values[i].getBytes(StandardCharsets.UTF_8);
                bytes += Integer.BYTES + elements[i].length;
            }
            return new TensorInput(input.getName(), type, shape, bytesTensor(elements, bytes));
        }
        final MemorySegment data = arena.allocate((long) values.length * type.byteSize(), 64);
        for (int i = 0; i < values.length; i++)
        {
            write(data, i, type, values[i].trim(), input.getName(), values.length);
        }
        return new TensorInput(input.getName(), type, shape, data);
    }

    private TensorInput fromNpy(final ModelInput input, final DataType type, final Path file)
    {
        final NpyArray array = NpyArray.read(file);
        if (array.dataType() != type)
        {
            throw CliException.usage("input '" + input.getName() + "' of model '" + config.getName() + "' is "
                + type + " but '" + file + "' holds " + array.dataType());
        }
        long[] shape = shapes.get(input.getName());
        if (shape == null)
        {
            shape = config.getMaxBatchSize() > 0 && array.shape().length == input.getDimsCount()
                ? prepend(1, array.shape())
                : array.shape();
        }
        checkShape(input, shape, elements(array.shape()));
        final MemorySegment data = arena.allocate(array.data().length, 64);
        MemorySegment.copy(MemorySegment.ofArray(array.data()), 0, data, 0, array.data().length);
        return new TensorInput(input.getName(), type, shape, data);
    }

    private TensorInput fromRaw(final ModelInput input, final DataType type, final Path file)
    {
        final byte[] bytes;
        try
        {
            bytes = Files.readAllBytes(file);
        }
        catch (final IOException e)
        {
            throw CliException.usage("input '" + input.getName() + "': cannot read '" + file + "': " + e.getMessage());
        }
        if (type == DataType.BYTES)
        {
            return new TensorInput(input.getName(), type, shape(input, 1),
                bytesTensor(new byte[][] {bytes}, Integer.BYTES + (long) bytes.length));
        }
        if (bytes.length % type.byteSize() != 0)
        {
            throw CliException.usage("input '" + input.getName() + "': '" + file + "' has " + bytes.length
                + " bytes, not a whole number of " + type + " elements (" + type.byteSize() + " bytes each)");
        }
        final long[] shape = shape(input, bytes.length / type.byteSize());
        final MemorySegment data = arena.allocate(bytes.length, 64);
        MemorySegment.copy(MemorySegment.ofArray(bytes), 0, data, 0, bytes.length);
        return new TensorInput(input.getName(), type, shape, data);
    }

    private MemorySegment bytesTensor(final byte[][] elements, final long bytes)
    {
        final MemorySegment data = arena.allocate(bytes, 64);
        long offset = 0;
        for (final byte[] element : elements)
        {
            data.set(INT_LE, offset, element.length);
            MemorySegment.copy(MemorySegment.ofArray(element), 0, data, offset + Integer.BYTES, element.length);
            offset += Integer.BYTES + element.length;
        }
        return data;
    }

    /** The shape for {@code count} values: from --shape, or the configured dims (batch 1, one -1 worked out). */
    private long[] shape(final ModelInput input, final long count)
    {
        final long[] given = shapes.get(input.getName());
        if (given != null)
        {
            checkShape(input, given, count);
            return given;
        }
        final boolean batching = config.getMaxBatchSize() > 0;
        final long[] pattern = batching ? prepend(1, dims(input)) : dims(input);
        int wildcard = -1;
        long known = 1;
        for (int i = 0; i < pattern.length; i++)
        {
            if (pattern[i] >= 0)
            {
                known *= pattern[i];
                continue;
            }
            if (wildcard >= 0)
            {
                throw CliException.usage("input '" + input.getName() + "' of model '" + config.getName()
                    + "' has more than one variable dimension " + Arrays.toString(dims(input))
                    + "; give its full shape with --shape " + input.getName() + "=...");
            }
            wildcard = i;
        }
        if (wildcard >= 0)
        {
            if (known == 0 || count % known != 0 || count == 0)
            {
                throw CliException.usage("input '" + input.getName() + "' of model '" + config.getName() + "': "
                    + count + " values do not fill shape " + text(pattern) + " (the -1 must be a whole number >= 1)");
            }
            pattern[wildcard] = count / known;
        }
        checkShape(input, pattern, count);
        return pattern;
    }

    private void checkShape(final ModelInput input, final long[] shape, final long count)
    {
        final long[] dims = dims(input);
        final boolean batching = config.getMaxBatchSize() > 0;
        final int offset = batching ? 1 : 0;
        boolean matches = shape.length == dims.length + offset;
        for (int i = 0; matches && i < dims.length; i++)
        {
            matches = dims[i] < 0 || dims[i] == shape[i + offset];
        }
        if (!matches)
        {
            throw CliException.usage("input '" + input.getName() + "' of model '" + config.getName() + "': shape "
                + text(shape) + " does not fit its dims " + text(dims)
                + (batching ? " (with a leading batch dimension, the model batches)" : ""));
        }
        if (batching && (shape[0] < 1 || shape[0] > config.getMaxBatchSize()))
        {
            throw CliException.usage("input '" + input.getName() + "' of model '" + config.getName() + "': batch size "
                + shape[0] + " is outside [1, " + config.getMaxBatchSize() + "] (max_batch_size)");
        }
        final long needed = elements(shape);
        if (needed != count)
        {
            throw CliException.usage("input '" + input.getName() + "' of model '" + config.getName() + "' needs "
                + needed + " values for shape " + text(shape) + ", got " + count);
        }
    }

    private static void write(final MemorySegment data, final int index, final DataType type, final String value,
        final String name, final int count)
    {
        try
        {
            switch (type)
            {
                case FP32 -> data.setAtIndex(FLOAT_LE, index, Float.parseFloat(value));
                case FP64 -> data.setAtIndex(DOUBLE_LE, index, Double.parseDouble(value));
                case FP16 -> data.setAtIndex(SHORT_LE, index, Float.floatToFloat16(Float.parseFloat(value)));
                case BF16 -> data.setAtIndex(SHORT_LE, index, toBfloat16(Float.parseFloat(value)));
                case INT8 -> data.set(ValueLayout.JAVA_BYTE, index,
                    (byte) ranged(value, Byte.MIN_VALUE, Byte.MAX_VALUE));
                case INT16 -> data.setAtIndex(SHORT_LE, index, (short) ranged(value, Short.MIN_VALUE, Short.MAX_VALUE));
                case INT32 -> data.setAtIndex(INT_LE, index, (int) ranged(value, Integer.MIN_VALUE, Integer.MAX_VALUE));
                case INT64 -> data.setAtIndex(LONG_LE, index, Long.parseLong(value));
                case UINT8 -> data.set(ValueLayout.JAVA_BYTE, index, (byte) ranged(value, 0, 0xff));
                case UINT16 -> data.setAtIndex(SHORT_LE, index, (short) ranged(value, 0, 0xffff));
                case UINT32 -> data.setAtIndex(INT_LE, index, (int) ranged(value, 0, 0xffff_ffffL));
                case UINT64 -> data.setAtIndex(LONG_LE, index, Long.parseUnsignedLong(value));
                case BOOL -> data.set(ValueLayout.JAVA_BYTE, index, bool(value));
                case BYTES -> throw new IllegalStateException("BYTES values are encoded separately");
            }
        }
        catch (final NumberFormatException e)
        {
            throw CliException.usage("input '" + name + "': value " + (index + 1) + " of " + count + " ('" + value
                + "') is not a valid " + type + " value" + (e.getMessage() != null && e.getMessage().startsWith("range")
                ? " (" + e.getMessage() + ")" : ""));
        }
    }

    private static long ranged(final String value, final long min, final long max)
    {
        final long parsed = Long.parseLong(value);
        if (parsed < min || parsed > max)
        {
            throw new NumberFormatException("range is [" + min + ", " + max + "]");
        }
        return parsed;
    }

    private static byte bool(final String value)
    {
        return switch (value.toLowerCase(Locale.ROOT))
        {
            case "true", "1" -> 1;
            case "false", "0" -> 0;
            default -> throw new NumberFormatException();
        };
    }

    private static short toBfloat16(final float value)
    {
        final int bits = Float.floatToRawIntBits(value);
        if (Float.isNaN(value))
        {
            return (short) ((bits >>> 16) | 0x40);
        }
        // Round to nearest even on the 16 dropped bits.
        final int rounded = bits + 0x7fff + ((bits >>> 16) & 1);
        return (short) (rounded >>> 16);
    }

    private static long[] dims(final ModelInput input)
    {
        final long[] dims = new long[input.getDimsCount()];
        for (int i = 0; i < dims.length; i++)
        {
            dims[i] = input.getDims(i);
        }
        return dims;
    }

    private static long[] prepend(final long first, final long[] rest)
    {
        final long[] shape = new long[rest.length + 1];
        shape[0] = first;
        System.arraycopy(rest, 0, shape, 1, rest.length);
        return shape;
    }

    private static long elements(final long[] shape)
    {
        long count = 1;
        for (final long dim : shape)
        {
            count *= dim;
        }
        return count;
    }

    /**
     * @param shape a shape
     * @return {@code [a,b,c]}
     */
    static String text(final long[] shape)
    {
        return Arrays.toString(shape).replace(" ", "");
    }
}
