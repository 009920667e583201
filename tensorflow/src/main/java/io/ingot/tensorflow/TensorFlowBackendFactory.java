package io.ingot.tensorflow;

import io.ingot.backend.Backend;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.ModelContext;
import io.ingot.backend.ModelVersion;
import io.ingot.config.proto.ModelConfig;
import io.ingot.tensorflow.capi.TensorFlowUnavailableException;
import io.ingot.tensorflow.savedmodel.InvalidSavedModelException;
import io.ingot.tensorflow.savedmodel.SavedModelReader;
import io.ingot.tensorflow.savedmodel.ServingSignature;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * The TensorFlow backend: {@code platform: "tensorflow_savedmodel"} or {@code backend: "tensorflow"}, a
 * {@code model.savedmodel/} folder in each version (or {@code default_model_filename}), run through TensorFlow's C
 * API. Found by the runtime with {@link java.util.ServiceLoader}.
 *
 * <p>{@link #autoComplete} reads the SavedModel's serving signature in Java ({@link SavedModelReader}) and completes
 * the configuration as Triton's TensorFlow backend did ({@link SavedModelAutoComplete}); it needs no native library,
 * so {@code ingot models validate} works anywhere. {@link #load} checks the configuration against the signature
 * ({@link SignatureCheck}), then loads a TensorFlow session to make sure TensorFlow can run the graph. A missing
 * native library, a corrupt SavedModel or a disagreement fails that model with a message naming it and what was
 * expected; the repository's other models load regardless. GraphDef models ({@code tensorflow_graphdef}) are not
 * served.
 */
public final class TensorFlowBackendFactory implements BackendFactory
{
    /** The backend name. */
    public static final String NAME = "tensorflow";
    /** The platform name. */
    public static final String PLATFORM = "tensorflow_savedmodel";
    /** Triton's GraphDef platform, which this backend does not serve. */
    public static final String GRAPHDEF_PLATFORM = "tensorflow_graphdef";

    private static final System.Logger LOG = System.getLogger(TensorFlowBackendFactory.class.getName());

    /** Creates the factory (called by {@link java.util.ServiceLoader}); loads no native library. */
    public TensorFlowBackendFactory()
    {
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
    public ModelConfig autoComplete(final ModelConfig config, final Path modelDirectory,
        final List<ModelVersion> versions) throws ModelLoadException
    {
        final String model = config.getName().isEmpty() && modelDirectory != null
            ? modelDirectory.getFileName().toString() : config.getName();
        if (GRAPHDEF_PLATFORM.equals(config.getPlatform()) || versions.isEmpty())
        {
            return config;
        }
        final Path savedModel = versions.getFirst().modelFile();
        if (savedModel == null || !Files.exists(savedModel))
        {
            // As Triton: nothing to read, nothing completed; the load then says the model file is missing.
            return config;
        }
        final ModelConfig named = config.getName().isEmpty() ? config.toBuilder().setName(model).build() : config;
        try
        {
            final SessionSettings settings = SessionSettings.from(named);
            final ServingSignature signature = SavedModelReader.signature(savedModel, model, settings.graphTag(),
                settings.signatureDef());
            final ModelConfig completed = SavedModelAutoComplete.complete(named, signature);
            return config.getName().isEmpty() ? completed.toBuilder().clearName().build() : completed;
        }
        catch (final InvalidSavedModelException | IllegalArgumentException e)
        {
            throw new ModelLoadException("unable to auto-complete model configuration for '" + model + "', failed to"
                + " load model: " + e.getMessage(), e);
        }
    }

    @Override
    public Backend load(final ModelContext context) throws ModelLoadException
    {
        final String model = context.modelName();
        final long version = context.version();
        final ModelConfig config = context.config().getName().isEmpty()
            ? context.config().toBuilder().setName(model).build() : context.config();
        if (GRAPHDEF_PLATFORM.equals(config.getPlatform()))
        {
            throw new ModelLoadException("platform " + GRAPHDEF_PLATFORM + " not supported for TensorFlow model '"
                + model + "': Ingot's TensorFlow backend serves SavedModels (platform " + PLATFORM + ", a "
                + "model.savedmodel folder)");
        }
        final Path directory = context.modelFile();
        if (directory == null || !Files.exists(directory))
        {
            throw new ModelLoadException("unable to find '" + directory + "' for model '" + model + "' version "
                + version + " (a SavedModel folder holding saved_model.pb)");
        }
        final SessionSettings settings;
        final ServingSignature signature;
        final List<String> initOps;
        try
        {
            settings = SessionSettings.from(config);
            signature = SavedModelReader.signature(directory, model, settings.graphTag(), settings.signatureDef());
            initOps = settings.initOps(model, context.versionDirectory());
        }
        catch (final InvalidSavedModelException | IllegalArgumentException e)
        {
            throw new ModelLoadException(e.getMessage(), e);
        }
        final List<String> problems = SignatureCheck.problems(config, signature);
        if (!problems.isEmpty())
        {
            throw new ModelLoadException("model '" + model + "' version " + version + ": the configuration disagrees"
                + " with signature '" + signature.key() + "' of " + directory + ": " + String.join("; ", problems));
        }
        if (settings.sharingNote() != null)
        {
            LOG.log(System.Logger.Level.WARNING, "model ''{0}'': {1}", model, settings.sharingNote());
        }
        try
        {
            final var first = SavedModelBackend.openSession(model, version, config, directory, settings, signature,
                initOps);
            final SavedModelBackend backend = new SavedModelBackend(model, version, config, directory, settings,
                signature, initOps, first);
            LOG.log(System.Logger.Level.INFO, "loaded {0}", backend);
            return backend;
        }
        catch (final TensorFlowUnavailableException e)
        {
            throw new ModelLoadException("model '" + model + "' version " + version + " cannot be served: "
                + e.getMessage(), e);
        }
    }
}
