package io.ingot.testing;

import com.google.protobuf.TextFormat;
import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.InstanceContext;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInstanceGroup;
import io.ingot.device.PinnedAllocators;
import io.ingot.tensor.DataType;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Builders of the configurations, model contexts, cores and requests that tests need. Stateless and thread-safe;
 * every core it opens belongs to the caller, who closes it.
 */
public final class TestModels
{
    private TestModels()
    {
    }

    /**
     * @param pbtxt a configuration in protobuf text format
     * @return the parsed configuration
     */
    public static ModelConfig config(final String pbtxt)
    {
        try
        {
            final ModelConfig.Builder builder = ModelConfig.newBuilder();
            TextFormat.merge(pbtxt, builder);
            return builder.build();
        }
        catch (final TextFormat.ParseException ex)
        {
            throw new IllegalArgumentException(ex);
        }
    }

    /**
     * A {@link RecordingBackend recording} model with one INT32 input {@code INPUT0} of dims {@code [1]} and its copy
     * {@code OUTPUT0}.
     *
     * @param name       model name
     * @param maxBatch   max_batch_size
     * @param scheduling extra configuration text (e.g. a {@code dynamic_batching} block)
     * @return the configuration
     */
    public static ModelConfig recording(final String name, final int maxBatch, final String scheduling)
    {
        return config("name: '" + name + "' backend: 'recording' max_batch_size: " + maxBatch
            + " input [{ name: 'INPUT0' data_type: TYPE_INT32 dims: [1] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_INT32 dims: [1] }]"
            + " instance_group [{ kind: KIND_CPU count: 1 }] " + scheduling);
    }

    /**
     * @param configs models, served by the backends on the class path
     * @return a core serving them
     */
    public static InferenceCore core(final ModelConfig... configs)
    {
        return InferenceCore.open(options(configs).build());
    }

    /**
     * @param backend a backend of the test's own (a {@link RecordingBackend}), consulted before the class path's
     * @param configs models
     * @return a core serving them
     */
    public static InferenceCore core(final BackendFactory backend, final ModelConfig... configs)
    {
        return InferenceCore.open(options(configs).backend(backend).build());
    }

    /**
     * @param configs models
     * @return core options that serve them, for a test to complete
     */
    public static CoreOptions.Builder options(final ModelConfig... configs)
    {
        final CoreOptions.Builder builder = CoreOptions.builder();
        for (final ModelConfig config : configs)
        {
            builder.model(config);
        }
        return builder;
    }

    /**
     * What a backend is given to load a model: the configuration, its file, and the automatic staging allocator,
     * outside any core ({@link ModelContext#core()} is {@code null}).
     *
     * @param config    the (normalized) configuration
     * @param modelFile the model file, or {@code null} for a model without one
     * @return version 1 of the model, in the file's directory
     */
    public static ModelContext context(final ModelConfig config, final Path modelFile)
    {
        return new ModelContext(config.getName(), 1, config, modelFile == null ? null : modelFile.getParent(),
            modelFile, PinnedAllocators.automatic(), null);
    }

    /**
     * @param model the model version
     * @param index the instance's index
     * @return a CPU instance of it
     */
    public static InstanceContext cpuInstance(final ModelContext model, final int index)
    {
        return new InstanceContext(model, model.modelName() + "_" + index, index, ModelInstanceGroup.Kind.KIND_CPU,
            -1, List.of());
    }

    /**
     * A request for a {@code recording} model: {@code batch} rows, each holding {@code tag}.
     *
     * @param model model name
     * @param tag   row value
     * @param batch batch size (rows)
     * @return the request
     */
    public static InferenceRequest tagged(final String model, final int tag, final int batch)
    {
        final MemorySegment data = Arena.ofAuto().allocate(4L * batch, 4);
        for (int i = 0; i < batch; i++)
        {
            data.setAtIndex(ValueLayout.JAVA_INT, i, tag);
        }
        return new InferenceRequest(model).id("r" + tag).addInput("INPUT0", DataType.INT32, new long[] {batch, 1},
            data);
    }

    /**
     * Waits for a response, failing the test after 30 s.
     *
     * @param future the response future
     * @return the response
     */
    public static InferenceResponse await(final CompletableFuture<InferenceResponse> future)
    {
        try
        {
            return future.get(30, TimeUnit.SECONDS);
        }
        catch (final Exception ex)
        {
            throw new AssertionError("no response within 30 s", ex);
        }
    }
}
