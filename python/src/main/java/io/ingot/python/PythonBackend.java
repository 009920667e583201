package io.ingot.python;

import com.google.gson.JsonObject;
import io.ingot.api.ModelConfigJson;
import io.ingot.backend.Backend;
import io.ingot.backend.Engine;
import io.ingot.backend.InstanceContext;
import io.ingot.backend.ModelContext;

import java.nio.file.Path;

/**
 * One loaded version of a Python model: what its instances share (settings, the {@code model.py}, the arguments of
 * {@code initialize}). Each instance is a {@link PythonEngine} with a stub process of its own, as in Triton (one
 * process per instance, so that instances do not share Python's global interpreter lock). Thread-safe: instances are
 * created one after another by the core.
 */
final class PythonBackend implements Backend
{
    private final ModelContext context;
    private final PythonSettings settings;
    private final Path modelFile;
    private final String configJson;

    /**
     * @param context   the model version
     * @param settings  its settings
     * @param modelFile its {@code model.py}
     */
    PythonBackend(final ModelContext context, final PythonSettings settings, final Path modelFile)
    {
        this.context = context;
        this.settings = settings;
        this.modelFile = modelFile;
        this.configJson = ModelConfigJson.toJson(context.config());
    }

    @Override
    public Engine createEngine(final InstanceContext instance) throws Exception
    {
        return new PythonEngine(settings, modelFile, context.version(), instance.name(), initializeArgs(instance),
            context.core(), new BatchEncoder(context.config()),
            context.config().getModelTransactionPolicy().getDecoupled());
    }

    /** Triton's {@code initialize(args)}: a dict of strings. */
    private String initializeArgs(final InstanceContext instance)
    {
        final JsonObject args = new JsonObject();
        args.addProperty("model_config", configJson);
        args.addProperty("model_instance_kind", switch (instance.kind())
        {
            case KIND_GPU -> "GPU";
            case KIND_MODEL -> "MODEL";
            default -> "CPU";
        });
        args.addProperty("model_instance_name", instance.name());
        args.addProperty("model_instance_device_id", Integer.toString(Math.max(0, instance.deviceId())));
        final Path versionDirectory = context.versionDirectory();
        args.addProperty("model_repository", versionDirectory == null || versionDirectory.getParent() == null ? ""
            : versionDirectory.getParent().toAbsolutePath().toString());
        args.addProperty("model_version", Long.toString(context.version()));
        args.addProperty("model_name", context.modelName());
        return args.toString();
    }
}
