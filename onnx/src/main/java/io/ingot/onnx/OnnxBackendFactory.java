package io.ingot.onnx;

import io.ingot.backend.Backend;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.backend.ModelVersion;
import io.ingot.onnx.capi.OnnxRuntimeUnavailableException;
import io.ingot.onnx.capi.OrtApi;
import io.ingot.onnx.capi.OrtException;
import io.ingot.onnx.capi.OrtSession;
import io.ingot.onnx.capi.OrtSessionOptions;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * The ONNX Runtime backend: {@code backend: "onnxruntime"} or {@code platform: "onnxruntime_onnx"}, CPU execution
 * through ONNX Runtime's C API over FFM ({@link io.ingot.onnx.capi}). Found by the runtime with
 * {@link java.util.ServiceLoader}.
 *
 * <p>Loading a version opens its {@code model.onnx}, checks the configuration against the model's inputs and
 * outputs ({@link SignatureValidator}) and fails with Triton's message for the first disagreement, followed by the
 * others. A missing or unreadable file fails with a message naming the model and the file. Session options come from
 * the configuration ({@link SessionSettings}).
 */
public final class OnnxBackendFactory implements BackendFactory
{
    /** The backend name. */
    public static final String NAME = "onnxruntime";
    /** The platform name. */
    public static final String PLATFORM = "onnxruntime_onnx";

    private static final System.Logger LOG = System.getLogger(OnnxBackendFactory.class.getName());

    /** Creates the factory (called by {@link java.util.ServiceLoader}). */
    public OnnxBackendFactory()
    {
    }

    /**
     * The bytes this backend's engines copied after their runs, process-wide: outputs whose shape only the run could
     * tell, string outputs and state outputs, each copied once from ONNX Runtime's memory into Ingot's. Outputs
     * written in place are not copied and not counted. For benchmarks and diagnostics.
     *
     * @return the count since the process started
     */
    public static long bytesCopiedAfterRuns()
    {
        return OnnxEngine.COPIED_AFTER_RUN.sum();
    }

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public Set<String> platforms()
    {
        return Set.of(PLATFORM);
    }

    /**
     * Fills in inputs, outputs, {@code max_batch_size} and {@code dynamic_batching} from the first selected
     * version's model file, as Triton's ONNX Runtime backend does ({@link OnnxAutoComplete}).
     */
    @Override
    public ModelConfig autoComplete(final ModelConfig config, final Path modelDirectory,
        final List<ModelVersion> versions) throws ModelLoadException
    {
        if (config.getInputCount() > 0 && config.getOutputCount() > 0)
        {
            return config;
        }
        final String model = modelName(config, modelDirectory);
        if (versions.isEmpty())
        {
            throw new ModelLoadException("cannot auto-complete model '" + model + "': it has no version to read"
                + " inputs and outputs from");
        }
        final ModelVersion first = versions.getFirst();
        final Path file = OnnxModelFile.resolve(model, first.version(), first.modelFile());
        try (OrtSessionOptions options = new OrtSessionOptions())
        {
            // Only the signature is needed: skip graph optimization, which costs seconds on large models.
            options.graphOptimization(OrtApi.ORT_DISABLE_ALL);
            try (OrtSession session = OrtSession.open(file, options))
            {
                return OnnxAutoComplete.complete(config.getName().isEmpty() ? config.toBuilder().setName(model).build()
                    : config, ModelSignature.of(session));
            }
        }
        catch (final OnnxRuntimeUnavailableException e)
        {
            throw new ModelLoadException("cannot auto-complete model '" + model + "': " + e.getMessage(), e);
        }
        catch (final OrtException e)
        {
            throw new ModelLoadException("cannot auto-complete model '" + model + "': ONNX Runtime cannot read '"
                + file.toAbsolutePath() + "': " + e.getMessage(), e);
        }
        catch (final IllegalArgumentException e)
        {
            throw new ModelLoadException(e.getMessage(), e);
        }
    }

    @Override
    public Backend load(final ModelContext context) throws ModelLoadException
    {
        final String model = context.modelName();
        final long version = context.version();
        final Path file = OnnxModelFile.resolve(model, version, context.modelFile());
        final ModelConfig config = context.config();
        final SessionSettings settings;
        try
        {
            settings = SessionSettings.from(config.getName().isEmpty() ? config.toBuilder().setName(model).build()
                : config);
        }
        catch (final IllegalArgumentException e)
        {
            throw new ModelLoadException(e.getMessage(), e);
        }
        OrtSession session = null;
        try
        {
            try (OrtSessionOptions options = settings.createOptions())
            {
                session = OrtSession.open(file, options);
            }
            final ModelSignature signature = ModelSignature.of(session);
            final List<String> problems = SignatureValidator.check(config, signature);
            if (!problems.isEmpty())
            {
                // Triton's message (its first disagreement) first; Ingot names every one and the version after it.
                throw new ModelLoadException(String.join("; ", problems) + " (model '" + model + "' version "
                    + version + ", " + file.getFileName() + ")");
            }
            final OnnxBackend backend = new OnnxBackend(model, version, config, file, settings, session, signature);
            LOG.log(System.Logger.Level.INFO, "loaded {0}", backend);
            return backend;
        }
        catch (final OnnxRuntimeUnavailableException e)
        {
            throw new ModelLoadException("model '" + model + "' version " + version + ": " + e.getMessage(), e);
        }
        catch (final OrtException | IllegalArgumentException e)
        {
            closeQuietly(session);
            throw new ModelLoadException("model '" + model + "' version " + version + ": ONNX Runtime cannot load '"
                + file.toAbsolutePath() + "': " + e.getMessage(), e);
        }
        catch (final ModelLoadException | RuntimeException e)
        {
            closeQuietly(session);
            throw e;
        }
    }

    private static String modelName(final ModelConfig config, final Path modelDirectory)
    {
        if (!config.getName().isEmpty() || modelDirectory == null)
        {
            return config.getName();
        }
        return modelDirectory.getFileName().toString();
    }

    private static void closeQuietly(final OrtSession session)
    {
        if (session != null)
        {
            session.close();
        }
    }
}
