package io.ingot.repository;

import io.ingot.backend.ModelVersion;
import io.ingot.config.ConfigException;
import io.ingot.config.Platforms;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelVersionPolicy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The numeric version directories of one model directory, and the versions a version policy selects among them
 * (Triton's {@code VersionsToLoad}).
 *
 * <p>A subdirectory is a version when its whole name is decimal digits that fit a signed 64-bit number. {@code "0"}
 * is a version; a name of more than one character starting with {@code 0} ({@code "01"}) is ignored, as are other
 * names (with a warning) and the reserved {@code warmup}, {@code initial_state} and {@code configs} directories.
 * Files are never versions.
 */
final class VersionDirectories
{
    /** Subdirectories of a model directory that hold other things than versions. */
    static final Set<String> RESERVED = Set.of("warmup", "initial_state", "configs");

    private final String model;
    private final NavigableMap<Long, Path> versions;
    private final Path lexicographicallyFirst;

    private VersionDirectories(final String model, final NavigableMap<Long, Path> versions,
        final Path lexicographicallyFirst)
    {
        this.model = model;
        this.versions = versions;
        this.lexicographicallyFirst = lexicographicallyFirst;
    }

    /**
     * @param modelDirectory the model directory
     * @param model          the model name, for messages
     * @param warnings       receives a message for every subdirectory ignored
     * @return the version directories found
     * @throws ConfigException INTERNAL when the directory cannot be listed
     */
    static VersionDirectories list(final Path modelDirectory, final String model, final Consumer<String> warnings)
        throws ConfigException
    {
        final Set<String> names = new TreeSet<>();
        try (Stream<Path> entries = Files.list(modelDirectory))
        {
            entries.filter(Files::isDirectory).forEach(entry -> names.add(entry.getFileName().toString()));
        }
        catch (final IOException e)
        {
            throw new ConfigException(ConfigException.Category.INTERNAL,
                "failed to list model directory '" + modelDirectory + "' of model '" + model + "': " + e, e);
        }
        final NavigableMap<Long, Path> versions = new TreeMap<>();
        Path first = null;
        for (final String name : names)
        {
            if (RESERVED.contains(name))
            {
                continue;
            }
            if (name.length() > 1 && name.charAt(0) == '0')
            {
                warnings.accept("ignore version directory '" + name + "' of model '" + model
                    + "' which contains leading zeros in its directory name");
                continue;
            }
            final Long version = parseVersion(name);
            if (version == null)
            {
                warnings.accept("ignore version directory '" + name + "' of model '" + model
                    + "' which fails to convert to integral number");
                continue;
            }
            versions.put(version, modelDirectory.resolve(name));
            if (first == null)
            {
                first = modelDirectory.resolve(name);
            }
        }
        return new VersionDirectories(model, versions, first);
    }

    private static Long parseVersion(final String name)
    {
        for (int i = 0; i < name.length(); i++)
        {
            final char c = name.charAt(i);
            if (c < '0' || c > '9')
            {
                return null;
            }
        }
        try
        {
            return Long.parseLong(name);
        }
        catch (final NumberFormatException e)
        {
            return null;
        }
    }

    /** @return whether there is no version directory at all. */
    boolean isEmpty()
    {
        return versions.isEmpty();
    }

    /**
     * @return the version directory whose name sorts first as a string (Triton inspects it to infer the platform),
     *         or {@code null} when there is none
     */
    Path lexicographicallyFirst()
    {
        return lexicographicallyFirst;
    }

    /**
     * Selects versions by the configuration's version policy ({@code latest { num_versions: 1 }} when absent).
     *
     * @param config   the configuration; its platform, backend and {@code default_model_filename} name the model file
     * @param warnings receives a message for every specific version whose directory is missing
     * @return the selected versions, ascending
     * @throws ConfigException INVALID_ARG when the policy selects no version
     */
    List<ModelVersion> select(final ModelConfig config, final Consumer<String> warnings) throws ConfigException
    {
        final ModelVersionPolicy policy = config.getVersionPolicy();
        final NavigableMap<Long, Path> selected = new TreeMap<>();
        switch (policy.getPolicyChoiceCase())
        {
            case SPECIFIC ->
            {
                for (final long version : policy.getSpecific().getVersionsList())
                {
                    final Path directory = versions.get(version);
                    if (directory == null)
                    {
                        warnings.accept("version " + version + " is specified for model '" + model
                            + "', but the version directory is not present");
                    }
                    else
                    {
                        selected.put(version, directory);
                    }
                }
            }
            case ALL -> selected.putAll(versions);
            case LATEST, POLICYCHOICE_NOT_SET ->
            {
                final long wanted = policy.hasLatest() ? Integer.toUnsignedLong(policy.getLatest().getNumVersions())
                    : 1;
                for (final var entry : versions.descendingMap().entrySet())
                {
                    if (selected.size() >= wanted)
                    {
                        break;
                    }
                    selected.put(entry.getKey(), entry.getValue());
                }
            }
        }
        if (selected.isEmpty())
        {
            throw ConfigException.invalid("at least one version must be available under the version policy of model '"
                + model + "'");
        }
        final List<ModelVersion> result = new ArrayList<>(selected.size());
        for (final var entry : selected.entrySet())
        {
            result.add(new ModelVersion(entry.getKey(), entry.getValue(), modelFile(config, entry.getValue())));
        }
        return result;
    }

    /**
     * The model file of a version: {@code default_model_filename}, else the platform's or backend's default name;
     * an ONNX model given as a directory resolves to the {@code model.onnx} inside it. A model with no file
     * (an ensemble) gets the version directory itself.
     */
    static Path modelFile(final ModelConfig config, final Path versionDirectory)
    {
        final String name = config.getDefaultModelFilename().isEmpty()
            ? Platforms.defaultModelFilename(config.getPlatform(), config.getBackend()).orElse(null)
            : config.getDefaultModelFilename();
        if (name == null)
        {
            return versionDirectory;
        }
        final Path file = versionDirectory.resolve(name);
        final boolean onnx = Platforms.ONNXRUNTIME_ONNX.equals(config.getPlatform())
            || Platforms.ONNXRUNTIME.equals(config.getBackend());
        if (onnx && Files.isDirectory(file) && Files.exists(file.resolve(Platforms.ONNX_FILENAME)))
        {
            return file.resolve(Platforms.ONNX_FILENAME);
        }
        return file;
    }
}
