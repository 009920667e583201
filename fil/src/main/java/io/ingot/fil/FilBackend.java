package io.ingot.fil;

import io.ingot.backend.Backend;
import io.ingot.backend.Engine;
import io.ingot.backend.InstanceContext;
import io.ingot.config.proto.ModelInstanceGroup;

/**
 * One loaded FIL model version: the model ({@link Forest}) and its checked signature, from which each instance gets
 * a predictor of its own.
 */
final class FilBackend implements Backend
{
    private static final System.Logger LOG = System.getLogger(FilBackend.class.getName());

    private final String modelName;
    private final long version;
    private final Forest forest;
    private final FilSignature signature;
    private final FilParameters parameters;
    private final int maxRows;

    /**
     * @param modelName  the model
     * @param version    its version
     * @param forest     the loaded model; closed with this backend
     * @param signature  the configuration, checked against the model
     * @param parameters the FIL parameters
     * @param maxRows    the most rows one batch holds
     */
    FilBackend(final String modelName, final long version, final Forest forest, final FilSignature signature,
        final FilParameters parameters, final int maxRows)
    {
        this.modelName = modelName;
        this.version = version;
        this.forest = forest;
        this.signature = signature;
        this.parameters = parameters;
        this.maxRows = maxRows;
    }

    @Override
    public Engine createEngine(final InstanceContext context) throws FilModelException
    {
        if (context.kind() == ModelInstanceGroup.Kind.KIND_GPU)
        {
            LOG.log(System.Logger.Level.WARNING, "model ''{0}'' instance ''{1}'' is KIND_GPU, but Ingot''s FIL"
                + " backend runs on the CPU; it is served on the CPU", modelName, context.name());
        }
        return new FilEngine(modelName, forest.predictor(signature.inputType(), maxRows), signature,
            parameters.threshold());
    }

    /** @return the checked signature, for tests */
    FilSignature signature()
    {
        return signature;
    }

    @Override
    public void close()
    {
        forest.close();
    }

    @Override
    public String toString()
    {
        return "fil model '" + modelName + "' version " + version + " (" + forest.describe() + "; "
            + parameters.modelType().parameterValue() + ", " + signature.transform().name().toLowerCase(
                java.util.Locale.ROOT) + " to " + FilSignature.OUTPUT + " [" + signature.outputs() + "])";
    }
}
