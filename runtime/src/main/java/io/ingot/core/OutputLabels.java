package io.ingot.core;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelOutput;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The class labels of a model version's outputs, read once when the version loads from each output's
 * {@code label_filename} (a file in the model directory, one label per line), as Triton's label provider reads them
 * (core src/model.cc, src/label_provider.cc): every line is a label, so label {@code i} names class index {@code i}.
 * Immutable; thread-safe.
 */
final class OutputLabels
{
    /** The most bytes a label file may have: labels are read into memory and kept while the model is loaded. */
    static final long MAX_FILE_BYTES = 64L << 20;

    private static final OutputLabels NONE = new OutputLabels(Map.of());

    private final Map<String, List<String>> byOutput;

    private OutputLabels(final Map<String, List<String>> byOutput)
    {
        this.byOutput = byOutput;
    }

    /**
     * Reads the label files a configuration names.
     *
     * @param model            the model's name, for messages
     * @param config           its configuration (the validator already refused paths outside the model directory)
     * @param versionDirectory the version directory, whose parent is the model directory; {@code null} for a model
     *                         without files, which then has no labels
     * @return the labels
     * @throws InferenceException INVALID_ARG when a label file cannot be read (Triton fails the load the same way)
     */
    static OutputLabels load(final String model, final ModelConfig config, final Path versionDirectory)
    {
        final Path modelDirectory = versionDirectory == null ? null : versionDirectory.toAbsolutePath().getParent();
        final Map<String, List<String>> labels = new HashMap<>();
        for (final ModelOutput output : config.getOutputList())
        {
            if (output.getLabelFilename().isEmpty() || modelDirectory == null)
            {
                continue;
            }
            labels.put(output.getName(), read(model, output, modelDirectory.resolve(output.getLabelFilename())));
        }
        return labels.isEmpty() ? NONE : new OutputLabels(Map.copyOf(labels));
    }

    /**
     * @param output an output's name
     * @return its labels, empty when it has none
     */
    List<String> of(final String output)
    {
        return byOutput.getOrDefault(output, List.of());
    }

    private static List<String> read(final String model, final ModelOutput output, final Path file)
    {
        try
        {
            final long size = Files.size(file);
            if (size > MAX_FILE_BYTES)
            {
                throw new InferenceException(ErrorCode.INVALID_ARG, "label file '" + file + "' for output '"
                    + output.getName() + "' in model '" + model + "' has " + size + " bytes, more than the "
                    + MAX_FILE_BYTES + " a label file may have");
            }
            // std::getline semantics: "a\nb\n" is two labels, "a\n\nb" three (the empty line is a label).
            final String text = Files.readString(file, StandardCharsets.UTF_8);
            final List<String> lines = text.isEmpty() ? List.of()
                : List.of((text.endsWith("\n") ? text.substring(0, text.length() - 1) : text).split("\n", -1));
            return lines;
        }
        catch (final NoSuchFileException missing)
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, "failed to open text file for read " + file
                + ": No such file or directory (label_filename of output '" + output.getName() + "' in model '"
                + model + "')");
        }
        catch (final IOException failure)
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, "failed to open text file for read " + file + ": "
                + failure.getMessage() + " (label_filename of output '" + output.getName() + "' in model '" + model
                + "')");
        }
    }
}
