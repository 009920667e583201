package io.ingot.pytorch;

import io.ingot.backend.Backend;
import io.ingot.backend.Engine;
import io.ingot.backend.InstanceContext;
import io.ingot.config.proto.ModelInstanceGroup;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One loaded TorchScript model version: its plan, its settings and either the module every instance shares
 * ({@code ENABLE_WEIGHT_SHARING}) or the first of the instances' own modules (loaded at load time to check the file,
 * handed to the first instance). Further instances load their own module, as Triton's PyTorch backend gives each
 * instance its own unless weights are shared.
 *
 * <p>Sharing one module between instances relies on {@code forward} being callable from several threads at once,
 * which Triton's {@code ENABLE_WEIGHT_SHARING} relies on too, and PyTorch's "CPU threading and TorchScript inference"
 * note describes ("one or more inference threads execute a model's forward pass"); each run gets its own
 * interpreter state. Thread-safe: instances are created one at a time or concurrently.
 */
final class TorchBackend implements Backend
{
    private static final System.Logger LOG = System.getLogger(TorchBackend.class.getName());

    private final String modelName;
    private final long version;
    private final Path file;
    private final TorchSettings settings;
    private final IoPlan plan;
    private final LoadedModule shared;
    private final AtomicReference<LoadedModule> unclaimed;

    /**
     * @param modelName model name
     * @param version   version
     * @param file      the TorchScript file
     * @param settings  the model's parameters
     * @param plan      how inputs and outputs meet forward
     * @param first     the module loaded at load time; owned by this backend until an instance claims it
     */
    TorchBackend(final String modelName, final long version, final Path file, final TorchSettings settings,
        final IoPlan plan, final LoadedModule first)
    {
        this.modelName = modelName;
        this.version = version;
        this.file = file;
        this.settings = settings;
        this.plan = plan;
        this.shared = settings.weightSharing() ? first : null;
        this.unclaimed = new AtomicReference<>(settings.weightSharing() ? null : first);
    }

    @Override
    public Engine createEngine(final InstanceContext context) throws Exception
    {
        if (context.kind() == ModelInstanceGroup.Kind.KIND_GPU)
        {
            LOG.log(System.Logger.Level.WARNING, "model ''{0}'' instance ''{1}'' is KIND_GPU, but the libtorch Ingot"
                + " bundles ({2}) runs on the CPU; it is served on the CPU", modelName, context.name(),
                LibTorch.NATIVE_ARTIFACT);
        }
        if (shared != null)
        {
            return new TorchEngine(plan, settings, shared.module(), LibTorch.newManager(), null);
        }
        LoadedModule own = unclaimed.getAndSet(null);
        if (own == null)
        {
            own = LoadedModule.load(file, settings.inferenceMode());
        }
        try
        {
            return new TorchEngine(plan, settings, own.module(), LibTorch.newManager(), own);
        }
        catch (final LibTorch.UnavailableException | RuntimeException e)
        {
            own.close();
            throw e;
        }
    }

    /** @return the plan, for tests */
    IoPlan plan()
    {
        return plan;
    }

    /** @return the settings, for tests */
    TorchSettings settings()
    {
        return settings;
    }

    @Override
    public void close()
    {
        if (shared != null)
        {
            shared.close();
        }
        final LoadedModule never = unclaimed.getAndSet(null);
        if (never != null)
        {
            never.close();
        }
    }

    @Override
    public String toString()
    {
        return "pytorch model '" + modelName + "' version " + version + " (" + file + "; " + settings.describe() + "; "
            + plan + ")";
    }
}
