package io.ingot.warmup;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelWarmup;
import io.ingot.tensor.DataType;

import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A model version's {@code model_warmup} samples turned into requests, as Triton's
 * {@code TritonModelInstance::GenerateWarmupData} does: for each sample with a non-zero {@code batch_size}, that
 * many requests of one row, each input filled with zeros, random bytes, or the bytes of a file in the model
 * directory's {@code warmup/} folder. The data is made once per version and shared by every instance's runs.
 *
 * <p>Every problem Triton reports while it prepares the data is reported here, with Triton's text first and the
 * model, sample, input and file after it: a variable-size dimension, an input without data, a file that cannot be
 * read or holds fewer bytes than the dims need. A file longer than needed is accepted, as in Triton (its leading
 * bytes are used), with a warning. A STRING input reads the whole file, whose layout is then checked like any
 * request's; its zero and random data are empty strings (4 zero bytes per element), as in Triton.
 *
 * <p>Owns the data's memory until {@link #close()}. Not thread-safe: the loading thread makes it, runs it on every
 * instance and closes it.
 */
public final class WarmupPlan implements AutoCloseable
{
    /** The folder of the model directory that holds {@code input_data_file} files (Triton's kWarmupDataFolder). */
    public static final String WARMUP_FOLDER = "warmup";

    /** Triton's prefix for a message about a request without an id; its warmup requests have none. */
    private static final String NO_ID = "[request id: <id_unknown>] ";

    private static final Logger LOG = System.getLogger(WarmupPlan.class.getName());

    private final Arena arena;
    private final List<WarmupSample> samples;

    private WarmupPlan(final Arena arena, final List<WarmupSample> samples)
    {
        this.arena = arena;
        this.samples = List.copyOf(samples);
    }

    /**
     * Prepares the samples of a configuration.
     *
     * @param model          the model's name
     * @param config         its normalized configuration
     * @param modelDirectory the model's directory (the parent of its version directories), or {@code null} for a
     *                       model given in memory
     * @return the plan (with no samples when the configuration has none)
     * @throws InferenceException INVALID_ARG (or INTERNAL for an unreadable file, as Triton) naming the sample, the
     *                            input and the problem
     */
    public static WarmupPlan of(final String model, final ModelConfig config, final Path modelDirectory)
    {
        final Arena arena = Arena.ofShared();
        try
        {
            final List<WarmupSample> samples = new ArrayList<>();
            for (final ModelWarmup warmup : config.getModelWarmupList())
            {
                if (warmup.getBatchSize() == 0)
                {
                    LOG.log(Level.DEBUG, "Skipping batch 0 warmup sample '" + warmup.getName() + "'");
                    continue;
                }
                LOG.log(Level.DEBUG, "Generating warmup sample data for '" + warmup.getName() + "'");
                samples.add(new SampleBuilder(model, config, modelDirectory, warmup, arena).build());
            }
            return new WarmupPlan(arena, samples);
        }
        catch (final RuntimeException ex)
        {
            arena.close();
            throw ex;
        }
    }

    /** @return the samples, in configuration order (samples of batch size 0 left out) */
    public List<WarmupSample> samples()
    {
        return samples;
    }

    /** @return whether there is nothing to run */
    public boolean isEmpty()
    {
        return samples.isEmpty();
    }

    /** Frees the samples' data; the requests must not run afterwards. */
    @Override
    public void close()
    {
        arena.close();
    }

    /** Builds one sample's data and requests. */
    private static final class SampleBuilder
    {
        private final String model;
        private final ModelConfig config;
        private final Path modelDirectory;
        private final ModelWarmup warmup;
        private final Arena arena;

        SampleBuilder(final String model, final ModelConfig config, final Path modelDirectory,
            final ModelWarmup warmup, final Arena arena)
        {
            this.model = model;
            this.config = config;
            this.modelDirectory = modelDirectory;
            this.warmup = warmup;
            this.arena = arena;
        }

        WarmupSample build()
        {
            checkBatchSize();
            final boolean batching = config.getMaxBatchSize() > 0;
            final List<String> names = new ArrayList<>();
            final List<DataType> types = new ArrayList<>();
            final List<long[]> shapes = new ArrayList<>();
            final List<MemorySegment> data = new ArrayList<>();
            // Sorted, so the requests (and so the log and the engine) see the inputs in one order on every run.
            for (final Map.Entry<String, ModelWarmup.Input> entry : new java.util.TreeMap<>(warmup.getInputsMap())
                .entrySet())
            {
                final String input = entry.getKey();
                final ModelWarmup.Input setting = entry.getValue();
                final DataType type = DataType.fromConfigNumber(setting.getDataTypeValue());
                if (type == null)
                {
                    throw invalid("warmup setting expects input '" + input + "' to have a data_type",
                        "got " + setting.getDataType() + "; the model's configuration names the type this input"
                            + " must have");
                }
                final long[] dims = setting.getDimsList().stream().mapToLong(Long::longValue).toArray();
                final long byteSize = byteSize(input, type, dims);
                names.add(input);
                types.add(type);
                shapes.add(batching ? prepend(dims) : dims);
                data.add(switch (setting.getInputDataTypeCase())
                {
                    case ZERO_DATA -> arena.allocate(Math.max(1, byteSize), 8).asSlice(0, byteSize);
                    case RANDOM_DATA -> type == DataType.BYTES
                        ? arena.allocate(Math.max(1, byteSize), 8).asSlice(0, byteSize)
                        : random(byteSize);
                    case INPUT_DATA_FILE -> fileData(input, type, setting.getInputDataFile(), byteSize);
                    case INPUTDATATYPE_NOT_SET -> throw invalid(NO_ID + "warmup setting expects input '" + input
                        + "' to have input_data_type set", "set one of zero_data, random_data or input_data_file");
                });
            }
            final List<InferenceRequest> requests = new ArrayList<>();
            for (int row = 0; row < warmup.getBatchSize(); row++)
            {
                final InferenceRequest request = new InferenceRequest(model);
                for (int i = 0; i < names.size(); i++)
                {
                    request.addInput(names.get(i), types.get(i), shapes.get(i), data.get(i));
                }
                requests.add(request);
            }
            return new WarmupSample(warmup.getName(), Math.max(1, warmup.getCount()), requests);
        }

        /**
         * The requests of a sample run as one execution of {@code batch_size} rows; Ingot refuses a size the model
         * cannot execute here, where Triton would leave it to the backend to fail the execution.
         */
        private void checkBatchSize()
        {
            final int maxBatch = config.getMaxBatchSize();
            final long batchSize = Integer.toUnsignedLong(warmup.getBatchSize());
            if (maxBatch == 0 && batchSize > 1)
            {
                throw invalid("warmup sample '" + warmup.getName() + "' of model '" + model + "' has batch_size "
                    + batchSize + ", but the model does not batch (max_batch_size 0)", "use batch_size 1");
            }
            if (maxBatch > 0 && batchSize > maxBatch)
            {
                throw invalid("warmup sample '" + warmup.getName() + "' of model '" + model + "' has batch_size "
                    + batchSize + ", but the model's max_batch_size is " + maxBatch,
                    "use a batch_size of at most " + maxBatch);
            }
        }

        /** Triton's {@code GetByteSize} for a warmup input: STRING counts 4 bytes (an empty string) per element. */
        private long byteSize(final String input, final DataType type, final long[] dims)
        {
            long elements = 1;
            for (final long dim : dims)
            {
                if (dim == -1)
                {
                    throw invalid("warmup setting expects all variable-size dimensions are specified for input '"
                        + input + "'", "dims " + Arrays.toString(dims));
                }
                if (dim < 0)
                {
                    throw invalid("tensor '" + input + "' contains an invalid dimension " + Arrays.toString(dims),
                        null);
                }
                elements = multiply(input, elements, dim);
            }
            return multiply(input, elements, type == DataType.BYTES ? 4 : type.byteSize());
        }

        private long multiply(final String input, final long a, final long b)
        {
            try
            {
                return Math.multiplyExact(a, b);
            }
            catch (final ArithmeticException ex)
            {
                throw invalid("byte size for tensor '" + input + "' exceeds maximum size of " + Long.MAX_VALUE,
                    null);
            }
        }

        private MemorySegment random(final long byteSize)
        {
            final MemorySegment segment = arena.allocate(Math.max(1, byteSize), 8).asSlice(0, byteSize);
            final SplittableRandom random = new SplittableRandom();
            for (long offset = 0; offset < byteSize; offset++)
            {
                segment.set(java.lang.foreign.ValueLayout.JAVA_BYTE, offset, (byte)random.nextInt(256));
            }
            return segment;
        }

        private MemorySegment fileData(final String input, final DataType type, final String file,
            final long byteSize)
        {
            if (modelDirectory == null)
            {
                throw invalid("warmup sample '" + warmup.getName() + "' input '" + input + "' of model '" + model
                    + "' reads '" + file + "' from the model's " + WARMUP_FOLDER + "/ folder, but the model was given"
                    + " in memory and has no directory", "use zero_data or random_data");
            }
            final Path path = modelDirectory.resolve(WARMUP_FOLDER).resolve(file);
            final long size;
            try
            {
                size = Files.size(path);
            }
            catch (final NoSuchFileException ex)
            {
                throw unreadable(input, path, "No such file or directory");
            }
            catch (final IOException ex)
            {
                throw unreadable(input, path, ex.getMessage());
            }
            final long wanted = type == DataType.BYTES ? size : byteSize;
            if (size < wanted)
            {
                // Triton's text, its missing space after the file name included (operators grep for it).
                throw invalid(NO_ID + "warmup setting expects " + byteSize + " bytes, but the data provided from "
                    + file + "only has " + size + " bytes", "input '" + input + "', file " + path + ", dims "
                    + warmup.getInputsMap().get(input).getDimsList() + " of " + type.wireName());
            }
            if (size > wanted)
            {
                LOG.log(Level.WARNING, "model '" + model + "' warmup sample '" + warmup.getName() + "' input '"
                    + input + "': " + path + " has " + size + " bytes; the first " + wanted + " are used");
            }
            final MemorySegment segment = arena.allocate(Math.max(1, wanted), 8).asSlice(0, wanted);
            try (InputStream in = Files.newInputStream(path))
            {
                final byte[] chunk = new byte[64 * 1024];
                long offset = 0;
                while (offset < wanted)
                {
                    final int read = in.read(chunk, 0, (int)Math.min(chunk.length, wanted - offset));
                    if (read < 0)
                    {
                        throw invalid(NO_ID + "warmup setting expects " + byteSize + " bytes, but the data provided"
                            + " from " + file + "only has " + offset + " bytes", "input '" + input + "', file " + path
                            + " shrank while it was read");
                    }
                    MemorySegment.copy(MemorySegment.ofArray(chunk), 0, segment, offset, read);
                    offset += read;
                }
            }
            catch (final IOException ex)
            {
                throw unreadable(input, path, ex.getMessage());
            }
            return segment;
        }

        private InferenceException unreadable(final String input, final Path path, final String reason)
        {
            return new InferenceException(ErrorCode.INTERNAL, "failed to open text file for read " + path + ": "
                + reason + context(input));
        }

        private InferenceException invalid(final String tritonText, final String detail)
        {
            return new InferenceException(ErrorCode.INVALID_ARG, tritonText
                + (detail == null ? "" : "; " + detail) + context(null));
        }

        private String context(final String input)
        {
            return " (model '" + model + "', warmup sample '" + warmup.getName() + "'"
                + (input == null ? "" : ", input '" + input + "'") + ")";
        }

        private static long[] prepend(final long[] dims)
        {
            final long[] shape = new long[dims.length + 1];
            shape[0] = 1;
            System.arraycopy(dims, 0, shape, 1, dims.length);
            return shape;
        }
    }
}
