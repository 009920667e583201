package io.ingot.testing;

import com.google.protobuf.TextFormat;
import io.ingot.api.CoreOptions;
import io.ingot.api.DataType;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.config.proto.ModelConfig;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Helpers to build in-memory models and requests in tests. */
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
     * A {@code recording} model with one INT32 input {@code INPUT0} of dims {@code [1]} and its copy {@code OUTPUT0}.
     *
     * @param name       model name
     * @param maxBatch   max_batch_size
     * @param scheduling extra configuration text (e.g. a {@code dynamic_batching} block)
     * @return the configuration
     */
    public static ModelConfig recording(final String name, final int maxBatch, final String scheduling)
    {
        RecordingBackendFactory.reset(name);
        return config("name: '" + name + "' backend: 'recording' max_batch_size: " + maxBatch
            + " input [{ name: 'INPUT0' data_type: TYPE_INT32 dims: [1] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_INT32 dims: [1] }]"
            + " instance_group [{ kind: KIND_CPU count: 1 }] " + scheduling);
    }

    /**
     * @param configs models
     * @return a core serving them
     */
    public static InferenceCore core(final ModelConfig... configs)
    {
        final CoreOptions.Builder builder = CoreOptions.builder();
        for (final ModelConfig config : configs)
        {
            builder.model(config);
        }
        return InferenceCore.open(builder.build());
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
