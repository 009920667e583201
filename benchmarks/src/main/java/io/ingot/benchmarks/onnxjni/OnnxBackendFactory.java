package io.ingot.benchmarks.onnxjni;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import io.ingot.backend.Backend;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelConfig;

import java.nio.file.Path;
import java.util.Set;

/**
 * The baseline: Ingot's ONNX Runtime backend as it was before it moved to ONNX Runtime's C API (commit 2de26d1),
 * through ONNX Runtime's Java API (JNI), kept unchanged on its execution path so that the FFM backend can be measured
 * against it in the same run ({@code Comparison onnx-backends}). Registered with {@link java.util.ServiceLoader}
 * under its own backend name, {@value #NAME}, so that both serve side by side; loading skips the configuration
 * checks and auto-completion (the benchmark's configurations are the FFM backend's, already checked). Nothing on the
 * serving path uses it.
 */
public final class OnnxBackendFactory implements BackendFactory
{
    /** The backend name. */
    public static final String NAME = "onnxruntime_jni";
    /** The platform name. */
    public static final String PLATFORM = "onnxruntime_jni_onnx";

    private static final System.Logger LOG = System.getLogger(OnnxBackendFactory.class.getName());

    /** Creates the factory (called by {@link java.util.ServiceLoader}). */
    public OnnxBackendFactory()
    {
    }

    /** @return the bytes this baseline copied after runs, process-wide (two per byte of an unpinned output) */
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
        final OrtEnvironment env = OrtEnvironment.getEnvironment();
        OrtSession.SessionOptions options = null;
        OrtSession session = null;
        try
        {
            options = settings.createOptions();
            session = env.createSession(file.toString(), options);
            final ModelSignature signature = ModelSignature.of(session);
            final OnnxBackend backend = new OnnxBackend(model, version, config, file, env, settings, options,
                session, signature);
            LOG.log(System.Logger.Level.INFO, "loaded {0}", backend);
            return backend;
        }
        catch (final OrtException | IllegalArgumentException e)
        {
            closeQuietly(session, options);
            throw new ModelLoadException("model '" + model + "' version " + version + ": ONNX Runtime cannot load '"
                + file.toAbsolutePath() + "': " + e.getMessage(), e);
        }
        catch (final RuntimeException e)
        {
            closeQuietly(session, options);
            throw e;
        }
    }

    private static void closeQuietly(final OrtSession session, final OrtSession.SessionOptions options)
    {
        try
        {
            if (session != null)
            {
                session.close();
            }
        }
        catch (final OrtException e)
        {
            LOG.log(System.Logger.Level.WARNING, "closing a session that failed to load: {0}", e.getMessage());
        }
        if (options != null)
        {
            options.close();
        }
    }
}
