package io.ingot.config;

import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelOutput;
import io.ingot.config.proto.ModelSequenceBatching;
import io.ingot.config.proto.ModelWarmup;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Ingot's check that every file a configuration names lives inside the model's directory: a name that is absolute or
 * climbs out with {@code ..} would let a configuration read any file of the machine. Covers
 * {@code default_model_filename}, {@code cc_model_filenames}, output label files, warmup input files and the data
 * files of sequence initial states.
 *
 * <p>Contract: INVALID_ARG naming the field and the model for the first name found outside. Stateless: safe from any
 * thread.
 */
final class ModelFileReferences
{
    private ModelFileReferences()
    {
    }

    /**
     * @param config the normalized configuration
     * @throws ConfigException INVALID_ARG for a file name outside the model directory
     */
    static void validate(final ModelConfig config) throws ConfigException
    {
        final String m = config.getName();
        if (!config.getDefaultModelFilename().isEmpty())
        {
            checkInside(config.getDefaultModelFilename(), "'default_model_filename'", m);
        }
        for (final Map.Entry<String, String> entry : config.getCcModelFilenamesMap().entrySet())
        {
            checkInside(entry.getValue(), "'cc_model_filenames' entry '" + entry.getKey() + "'", m);
        }
        for (final ModelOutput output : config.getOutputList())
        {
            if (!output.getLabelFilename().isEmpty())
            {
                checkInside(output.getLabelFilename(), "'label_filename' of output '" + output.getName() + "'", m);
            }
        }
        for (final ModelWarmup warmup : config.getModelWarmupList())
        {
            for (final Map.Entry<String, ModelWarmup.Input> input : warmup.getInputsMap().entrySet())
            {
                if (input.getValue().hasInputDataFile())
                {
                    checkInside(input.getValue().getInputDataFile(), "'input_data_file' of warmup '"
                        + warmup.getName() + "' input '" + input.getKey() + "'", m);
                }
            }
        }
        for (final ModelSequenceBatching.State state : config.getSequenceBatching().getStateList())
        {
            for (final ModelSequenceBatching.InitialState initial : state.getInitialStateList())
            {
                if (initial.hasDataFile())
                {
                    checkInside(initial.getDataFile(), "'data_file' of initial state '" + initial.getName() + "'", m);
                }
            }
        }
    }

    private static void checkInside(final String file, final String field, final String m) throws ConfigException
    {
        boolean inside;
        try
        {
            final Path path = Path.of(file).normalize();
            inside = !file.isEmpty() && !path.isAbsolute() && !path.startsWith("..") && !file.startsWith("/")
                && !file.startsWith("\\");
        }
        catch (final InvalidPathException e)
        {
            inside = false;
        }
        if (!inside)
        {
            throw ConfigException.invalid(field + " of model '" + m + "' must be a relative path inside the "
                + "model directory, got '" + file + "'");
        }
    }
}
