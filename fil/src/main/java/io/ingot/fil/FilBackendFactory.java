package io.ingot.fil;

import io.ingot.backend.Backend;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.fil.bundled.NativeLibraryUnavailableException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Triton's FIL backend ({@code backend: "fil"}) for XGBoost and LightGBM models, on the CPU through the libraries'
 * C APIs. Found by the runtime with {@link java.util.ServiceLoader}.
 *
 * <p>Loading a version reads the FIL parameters ({@link FilParameters}, Triton's messages for bad ones), finds the
 * model file ({@code default_model_filename}, else the file {@code model_type} names: {@code xgboost.json},
 * {@code xgboost.ubj}, {@code xgboost.model}, {@code model.txt}; inside a directory the path names), opens it with its
 * library, and checks the configuration against the model ({@link FilSignature}). Every failure, including a native
 * library that cannot be loaded, fails that model only, with a message naming the model and what was expected.
 *
 * <p>Like Triton's FIL backend, it completes nothing from the model: rapids_triton's model initialisation reads
 * the configuration as given, so {@code input__0} and {@code output__0} must be configured, and a load error says
 * which dims the model needs.
 */
public final class FilBackendFactory implements BackendFactory
{
    /** The backend name. */
    public static final String NAME = "fil";

    private static final System.Logger LOG = System.getLogger(FilBackendFactory.class.getName());

    /** Creates the factory (called by {@link java.util.ServiceLoader}). */
    public FilBackendFactory()
    {
    }

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public Backend load(final ModelContext context) throws FilModelException
    {
        final String model = "model '" + context.modelName() + "' version " + context.version();
        final ModelConfig config = context.config();
        final FilParameters parameters;
        try
        {
            parameters = FilParameters.from(config);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new FilModelException(model + ": " + ex.getMessage(), ex);
        }
        for (final String warning : parameters.warnings())
        {
            LOG.log(System.Logger.Level.WARNING, "{0}: {1}", model, warning);
        }
        final Path file = modelFile(context, parameters.modelType());
        if (file == null)
        {
            throw new FilModelException(model + ": an in-memory model has no model file; the FIL backend needs one");
        }
        if (!Files.isRegularFile(file))
        {
            throw new FilModelException(model + ": model file '" + file.toAbsolutePath() + "' does not exist"
                + " (model_type \"" + parameters.modelType().parameterValue() + "\" reads " + parameters.modelType()
                    .defaultFileName() + " unless default_model_filename names another file)");
        }
        final Forest forest = open(model, file, parameters);
        try
        {
            final FilSignature signature = FilSignature.check(model, config, parameters, forest);
            final FilBackend backend = new FilBackend(context.modelName(), context.version(), forest, signature,
                parameters, Math.max(1, config.getMaxBatchSize()));
            LOG.log(System.Logger.Level.INFO, "loaded {0}", backend);
            return backend;
        }
        catch (final FilModelException | RuntimeException ex)
        {
            forest.close();
            throw ex;
        }
    }

    private static Forest open(final String model, final Path file, final FilParameters parameters)
        throws FilModelException
    {
        try
        {
            return switch (parameters.modelType())
            {
                case XGBOOST, XGBOOST_JSON, XGBOOST_UBJ -> XgboostForest.open(model, file, Files.readAllBytes(file),
                    parameters.modelType(), parameters.cpuThreads());
                case LIGHTGBM -> LightgbmForest.open(model, file, parameters.cpuThreads());
                case TREELITE_CHECKPOINT -> throw new FilModelException(model + ": model_type \"treelite_checkpoint\""
                    + " needs Treelite, which Ingot's FIL backend does not have (it runs XGBoost and LightGBM models"
                    + " with their own libraries); serve the original model as xgboost_json, xgboost_ubj or lightgbm");
            };
        }
        catch (final IOException ex)
        {
            throw new FilModelException(model + ": cannot read '" + file.toAbsolutePath() + "': " + ex, ex);
        }
        catch (final NativeLibraryUnavailableException ex)
        {
            throw new FilModelException(model + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * The model file, as Triton's FIL backend finds it: the path Triton gives the backend is the version directory,
     * or {@code default_model_filename} inside it; when that path is a directory, the file {@code model_type} names
     * inside it.
     */
    static Path modelFile(final ModelContext context, final ModelType type)
    {
        final boolean named = !context.config().getDefaultModelFilename().isEmpty()
            || context.versionDirectory() == null;
        if (!named)
        {
            return context.versionDirectory().resolve(type.defaultFileName());
        }
        final Path path = context.modelFile();
        return path != null && Files.isDirectory(path) ? path.resolve(type.defaultFileName()) : path;
    }
}
