package io.ingot.python;

import com.google.gson.JsonObject;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.ingot.api.ModelConfigJson;
import io.ingot.backend.Backend;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.ModelContext;
import io.ingot.backend.ModelVersion;
import io.ingot.config.proto.ModelConfig;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Triton's Python backend ({@code backend: "python"}): serves {@code <version>/model.py} files that define
 * {@code TritonPythonModel}, each instance in a stub process of its own that exchanges batches with the core through
 * shared memory (python/README.md). Registered in {@code META-INF/services/io.ingot.backend.BackendFactory}.
 *
 * <p>Refused at load, each with a message naming the model: a missing {@code model.py}, bad parameters, and a
 * {@code model.py} whose import or {@code initialize} fails (with Python's message). Decoupled models
 * ({@code model_transaction_policy { decoupled: true }}) stream their responses as the model sends them. Thread-safe
 * and stateless.
 */
public final class PythonBackendFactory implements BackendFactory
{
    /** The backend's name in {@code config.pbtxt}. */
    public static final String NAME = "python";
    private static final String AUTOCOMPLETE = "AUTOCOMPLETE_STUB";

    @Override
    public String name()
    {
        return NAME;
    }

    /**
     * Runs the model's {@code auto_complete_config}, as Triton does, in a stub of its own that exits afterwards; only
     * when {@code model.py} mentions it, so that models without one cost no process.
     */
    @Override
    public ModelConfig autoComplete(final ModelConfig config, final Path modelDirectory,
        final List<ModelVersion> versions) throws Exception
    {
        if (versions.isEmpty() || versions.getFirst().modelFile() == null)
        {
            return config;
        }
        final Path file = versions.getFirst().modelFile();
        if (!Files.isRegularFile(file) || !Files.readString(file, StandardCharsets.UTF_8)
            .contains("auto_complete_config"))
        {
            return config;
        }
        final PythonSettings settings = PythonSettings.of(config, modelDirectory);
        final StubProcess stub = StubProcess.start(settings, AUTOCOMPLETE, file, versions.getFirst().version(),
            config.getName() + "_auto_complete");
        final String[] result = new String[1];
        try
        {
            final JsonObject args = new JsonObject();
            args.addProperty("model_config", ModelConfigJson.toJson(config));
            final String failure = PythonEngine.initialize(stub, args.toString().getBytes(StandardCharsets.UTF_8),
                result);
            if (failure != null)
            {
                throw new IllegalArgumentException("python model '" + config.getName() + "': auto_complete_config "
                    + "failed: " + failure);
            }
        }
        finally
        {
            stub.kill();
            stub.release();
        }
        return merge(config, result[0]);
    }

    /** Takes from the completed JSON what {@code pb_utils.ModelConfig} may change. */
    private static ModelConfig merge(final ModelConfig config, final String json)
    {
        final ModelConfig.Builder completed = ModelConfig.newBuilder();
        try
        {
            JsonFormat.parser().merge(json, completed);
        }
        catch (final InvalidProtocolBufferException ex)
        {
            throw new IllegalArgumentException("python model '" + config.getName() + "': auto_complete_config "
                + "returned a configuration that does not parse: " + ex.getMessage(), ex);
        }
        final ModelConfig.Builder merged = config.toBuilder()
            .setMaxBatchSize(completed.getMaxBatchSize())
            .clearInput().addAllInput(completed.getInputList())
            .clearOutput().addAllOutput(completed.getOutputList());
        if (completed.hasDynamicBatching() && !config.hasDynamicBatching())
        {
            merged.setDynamicBatching(completed.getDynamicBatching());
        }
        if (completed.hasModelTransactionPolicy())
        {
            merged.setModelTransactionPolicy(completed.getModelTransactionPolicy());
        }
        return merged.build();
    }

    @Override
    public Backend load(final ModelContext context) throws Exception
    {
        final ModelConfig config = context.config();
        final String model = context.modelName();
        final Path modelFile = context.modelFile();
        if (modelFile == null)
        {
            throw new IllegalArgumentException("python model '" + model + "' needs a model.py in a version directory"
                + " of a model repository; models given in memory have none");
        }
        if (!Files.isRegularFile(modelFile))
        {
            throw new IllegalArgumentException("python model '" + model + "': Python model file not found in '"
                + modelFile + "'");
        }
        checkReadable(model, modelFile);
        final Path modelDirectory = context.versionDirectory() == null ? null : context.versionDirectory().getParent();
        return new PythonBackend(context, PythonSettings.of(config, modelDirectory), modelFile);
    }

    private static void checkReadable(final String model, final Path file)
    {
        try
        {
            Files.readAllBytes(file);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("python model '" + model + "': cannot read " + file + ": "
                + ex.getMessage(), ex);
        }
    }
}
