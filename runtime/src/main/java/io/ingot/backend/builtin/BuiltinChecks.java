package io.ingot.backend.builtin;

import io.ingot.config.proto.ModelConfig;

/** Load-time checks shared by the built-in backends. */
final class BuiltinChecks
{
    private BuiltinChecks()
    {
    }

    /** Requires at least as many inputs as outputs, output {@code i} of the same datatype as input {@code i}. */
    static void requirePairedOutputs(final ModelConfig config)
    {
        if (config.getOutputCount() > config.getInputCount())
        {
            throw new IllegalArgumentException("model '" + config.getName() + "' (backend '" + config.getBackend()
                + "'): has " + config.getOutputCount() + " outputs but only " + config.getInputCount()
                + " inputs; output i copies input i");
        }
        for (int i = 0; i < config.getOutputCount(); i++)
        {
            if (config.getOutput(i).getDataType() != config.getInput(i).getDataType())
            {
                throw new IllegalArgumentException("model '" + config.getName() + "': output '"
                    + config.getOutput(i).getName() + "' has data_type " + config.getOutput(i).getDataType()
                    + " but its input '" + config.getInput(i).getName() + "' has "
                    + config.getInput(i).getDataType());
            }
        }
    }
}
