package io.ingot.pytorch;

import io.ingot.backend.Backend;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.ModelContext;
import io.ingot.backend.ModelVersion;
import io.ingot.config.proto.ModelConfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * The PyTorch backend: {@code backend: "pytorch"}, {@code platform: "pytorch_libtorch"} (or its older spelling
 * {@code libtorch}), TorchScript {@code model.pt} files (or {@code default_model_filename}) run by libtorch for the
 * CPU through DJL's PyTorch JNI. Found by the runtime with {@link java.util.ServiceLoader}.
 *
 * <p>Loading a version reads the configuration's parameters ({@link TorchSettings}), reads {@code forward}'s
 * signature from the archive and matches the configuration to it with Triton's naming conventions ({@link IoPlan}),
 * loads libtorch (once per process, offline: {@link LibTorch}) and the module. Every failure names the model and what
 * was expected: a missing file (Triton's "unable to find"), a file that is no TorchScript archive, libtorch's own
 * error for one it cannot load, a configuration that disagrees with {@code forward}, a datatype libtorch cannot take
 * here, or libtorch missing from the class path — and only that model fails to load.
 *
 * <p>No auto-complete, as in Triton (TorchScript keeps no shapes or datatypes): {@link #autoComplete} logs Triton's
 * message and returns the configuration unchanged.
 */
public final class PyTorchBackendFactory implements BackendFactory
{
    /** The backend name. */
    public static final String NAME = "pytorch";
    /** The platform name. */
    public static final String PLATFORM = "pytorch_libtorch";
    /** The older platform name Triton still accepts. */
    public static final String LEGACY_PLATFORM = "libtorch";

    private static final System.Logger LOG = System.getLogger(PyTorchBackendFactory.class.getName());

    /** Creates the factory (called by {@link java.util.ServiceLoader}). */
    public PyTorchBackendFactory()
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
        return Set.of(PLATFORM, LEGACY_PLATFORM);
    }

    @Override
    public ModelConfig autoComplete(final ModelConfig config, final Path modelDirectory,
        final List<ModelVersion> versions)
    {
        final String model = config.getName().isEmpty() && modelDirectory != null
            ? modelDirectory.getFileName().toString() : config.getName();
        LOG.log(System.Logger.Level.WARNING, "skipping model configuration auto-complete for ''{0}'': not supported for"
            + " pytorch backend", model);
        return config;
    }

    @Override
    public Backend load(final ModelContext context) throws ModelLoadException
    {
        final String model = context.modelName();
        final long version = context.version();
        final String label = "model '" + model + "' version " + version;
        final Path file = modelFile(context, label);
        final ModelConfig config = context.config();
        final TorchSettings settings;
        try
        {
            settings = TorchSettings.from(model, config);
        }
        catch (final IllegalArgumentException e)
        {
            throw new ModelLoadException(e.getMessage(), e);
        }
        final IoPlan plan = IoPlan.of(model, version, config, signature(file, label, model), settings.inferenceMode());
        final LoadedModule first;
        try
        {
            LibTorch.engine();
            LibTorch.applyThreadCounts(model, settings.intraOpThreads(), settings.interOpThreads());
            first = LoadedModule.load(file, settings.inferenceMode());
        }
        catch (final LibTorch.UnavailableException e)
        {
            throw new ModelLoadException(label + ": " + e.getMessage(), e);
        }
        catch (final RuntimeException e)
        {
            throw new ModelLoadException(label + ": libtorch cannot load '" + file + "': " + e.getMessage(), e);
        }
        for (final String key : settings.ignored())
        {
            LOG.log(System.Logger.Level.WARNING, "model ''{0}'': parameter {1} is not applied by Ingot''s PyTorch"
                + " backend (CUDA-only, or no switch in DJL''s PyTorch JNI)", model, key);
        }
        final TorchBackend backend = new TorchBackend(model, version, file, settings, plan, first);
        LOG.log(System.Logger.Level.INFO, "loaded {0}", backend);
        return backend;
    }

    /** The model file, present and a regular file; Triton's message when it is missing. */
    private static Path modelFile(final ModelContext context, final String label) throws ModelLoadException
    {
        final Path file = context.modelFile();
        if (file == null)
        {
            throw new ModelLoadException(label + ": the pytorch backend needs a TorchScript file (model.pt), and this"
                + " model has no repository directory");
        }
        final Path absolute = file.toAbsolutePath();
        if (!Files.exists(absolute))
        {
            throw new ModelLoadException(label + ": unable to find '" + absolute + "' for model instance '"
                + context.modelName() + "'");
        }
        if (!Files.isRegularFile(absolute))
        {
            throw new ModelLoadException(label + ": '" + absolute + "' is a directory; a TorchScript model is one file"
                + " written by torch.jit.save");
        }
        return absolute;
    }

    /** forward's signature, or {@code null} (with a warning) when the archive's code has an unexpected shape. */
    private static ForwardSignature signature(final Path file, final String label, final String model)
        throws ModelLoadException
    {
        try
        {
            return TorchScriptArchive.readSignature(file);
        }
        catch (final TorchScriptArchive.NotAnArchiveException e)
        {
            throw new ModelLoadException(label + ": '" + file + "' is not a TorchScript model: " + e.getMessage(), e);
        }
        catch (final TorchScriptArchive.UnreadableCodeException e)
        {
            LOG.log(System.Logger.Level.WARNING, "model ''{0}'': cannot read forward''s signature from ''{1}'' ({2});"
                + " inputs follow the <name>__<index> convention or configuration order, unchecked", model, file,
                e.getMessage());
            return null;
        }
        catch (final IOException e)
        {
            throw new ModelLoadException(label + ": cannot read '" + file + "': " + e.getMessage(), e);
        }
    }
}
