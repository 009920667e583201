package io.ingot.repository;

import io.ingot.backend.ModelVersion;
import io.ingot.config.ConfigException;
import io.ingot.config.ModelConfigParser;
import io.ingot.config.NormalizeContext;
import io.ingot.config.proto.ModelConfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Reads Triton model repositories: {@code <repo>/<model>/[config.pbtxt] [configs/<name>.pbtxt] <version>/...}.
 *
 * <p>For every subdirectory of a repository (files beside the models are ignored) it follows Triton's order of checks
 * ({@link LoadOrder}), so that the first error reported is the one Triton reports:
 * <ol>
 *   <li>reads {@code configs/<modelConfigName>.pbtxt} when a config name is given and that file exists, else
 *       {@code config.pbtxt}; without either it starts from an empty configuration when auto-complete is enabled
 *       and fails when it is not;</li>
 *   <li>completes {@code platform}/{@code backend} from the lexicographically first version directory
 *       ({@link io.ingot.config.ServerAutoCompleter}), normalizes, and validates the model-level fields (and the
 *       inputs and outputs when auto-complete is disabled or there is no version directory to complete them
 *       from);</li>
 *   <li>requires the configured {@code name} to equal the directory name;</li>
 *   <li>selects versions by the version policy ({@code latest}, {@code all}, {@code specific}; specific versions
 *       that are missing only warn; none selected fails);</li>
 *   <li>looks up the backend, validates the instance groups, lets the {@link BackendAutoCompleter} complete the
 *       configuration when auto-complete is enabled, and validates the result in full.</li>
 * </ol>
 * A model that fails any step is reported in {@link ScanResult#failures()}; the others are still prepared.
 */
public final class ModelRepository
{
    /** The configuration file of a model directory. */
    public static final String CONFIG_FILENAME = "config.pbtxt";

    /** Directory of alternative configurations, chosen with a model config name. */
    public static final String CONFIGS_DIRECTORY = "configs";

    private ModelRepository()
    {
    }

    /**
     * Scans one repository with the default {@code config.pbtxt} of every model.
     *
     * @param root      the repository directory
     * @param completer backend auto-complete ({@link BackendAutoCompleter#none()} to disable it)
     * @param context   the machine's GPUs
     * @return the prepared models, the failures and the warnings
     * @throws ConfigException NOT_FOUND when {@code root} is not a directory; INTERNAL when it cannot be listed
     */
    public static ScanResult scan(final Path root, final BackendAutoCompleter completer,
        final NormalizeContext context) throws ConfigException
    {
        return scan(List.of(root), "", completer, context);
    }

    /**
     * Scans one repository.
     *
     * @param root            the repository directory
     * @param modelConfigName when non-empty, {@code configs/<modelConfigName>.pbtxt} is preferred over
     *                        {@code config.pbtxt} in every model directory (Triton's {@code --model-config-name})
     * @param completer       backend auto-complete ({@link BackendAutoCompleter#none()} to disable it)
     * @param context         the machine's GPUs
     * @return the prepared models, the failures and the warnings
     * @throws ConfigException NOT_FOUND when {@code root} is not a directory; INTERNAL when it cannot be listed
     */
    public static ScanResult scan(final Path root, final String modelConfigName, final BackendAutoCompleter completer,
        final NormalizeContext context) throws ConfigException
    {
        return scan(List.of(root), modelConfigName, completer, context);
    }

    /**
     * Scans several repositories as one (Triton's repeated {@code --model-repository}). A model name found in more
     * than one of them fails, in all of them.
     *
     * @param roots           the repository directories
     * @param modelConfigName when non-empty, {@code configs/<modelConfigName>.pbtxt} is preferred over
     *                        {@code config.pbtxt}; {@code null} or empty for none
     * @param completer       backend auto-complete ({@link BackendAutoCompleter#none()} to disable it)
     * @param context         the machine's GPUs
     * @return the prepared models, the failures and the warnings
     * @throws ConfigException NOT_FOUND when a root is not a directory; INTERNAL when one cannot be listed;
     *                         INVALID_ARG when {@code modelConfigName} is not a plain file name
     */
    public static ScanResult scan(final List<Path> roots, final String modelConfigName,
        final BackendAutoCompleter completer, final NormalizeContext context) throws ConfigException
    {
        return scan(roots, modelConfigName, completer, context, name -> true);
    }

    /**
     * Scans several repositories as one, preparing only the models whose names {@code wanted} accepts (a reload of
     * one model need not parse the others). A wanted name found in more than one repository still fails.
     *
     * @param roots           the repository directories
     * @param modelConfigName as for {@link #scan(List, String, BackendAutoCompleter, NormalizeContext)}
     * @param completer       backend auto-complete
     * @param context         the machine's GPUs
     * @param wanted          which model names to prepare
     * @return the prepared models, the failures and the warnings of the wanted names
     * @throws ConfigException as {@link #scan(List, String, BackendAutoCompleter, NormalizeContext)} does
     */
    public static ScanResult scan(final List<Path> roots, final String modelConfigName,
        final BackendAutoCompleter completer, final NormalizeContext context, final Predicate<String> wanted)
        throws ConfigException
    {
        Objects.requireNonNull(completer, "completer");
        Objects.requireNonNull(context, "context");
        final String configName = modelConfigName == null ? "" : modelConfigName;
        if (configName.contains("/") || configName.contains("\\") || configName.equals("..")
            || configName.equals("."))
        {
            throw ConfigException.invalid("model config name '" + configName
                + "' must be a plain name (it selects configs/<name>.pbtxt)");
        }
        final Map<String, List<Path>> byName = new TreeMap<>();
        for (final Path root : roots)
        {
            for (final Path directory : modelDirectories(root))
            {
                byName.computeIfAbsent(directory.getFileName().toString(), name -> new ArrayList<>()).add(directory);
            }
        }

        final List<PreparedModel> models = new ArrayList<>();
        final Map<String, String> failures = new LinkedHashMap<>();
        final List<String> warnings = new ArrayList<>();
        for (final Map.Entry<String, List<Path>> entry : byName.entrySet())
        {
            final String name = entry.getKey();
            if (!wanted.test(name))
            {
                continue;
            }
            if (entry.getValue().size() > 1)
            {
                failures.put(name, "model '" + name + "' appears in more than one model repository: "
                    + entry.getValue().stream().map(Path::toString).collect(Collectors.joining(", ")));
                continue;
            }
            final List<String> modelWarnings = new ArrayList<>();
            try
            {
                models.add(prepare(entry.getValue().getFirst(), configName, completer, context, modelWarnings));
            }
            catch (final ConfigException e)
            {
                failures.put(name, e.getMessage());
            }
            catch (final RuntimeException e)
            {
                // A faulty backend auto-complete must not take the other models down with it.
                failures.put(name, "preparing model '" + name + "' failed unexpectedly: " + e);
            }
            warnings.addAll(modelWarnings);
        }
        return new ScanResult(models, failures, warnings);
    }

    /**
     * @param root a repository directory
     * @return its subdirectories (the model directories), sorted; files beside them are ignored
     * @throws ConfigException NOT_FOUND when {@code root} is not a directory; INTERNAL when it cannot be listed
     */
    public static List<Path> modelDirectories(final Path root) throws ConfigException
    {
        if (!Files.isDirectory(root))
        {
            throw new ConfigException(ConfigException.Category.NOT_FOUND,
                "model repository '" + root + "' does not exist or is not a directory");
        }
        try (Stream<Path> entries = Files.list(root))
        {
            return entries.filter(Files::isDirectory).sorted().toList();
        }
        catch (final IOException e)
        {
            throw new ConfigException(ConfigException.Category.INTERNAL,
                "failed to list model repository '" + root + "': " + e, e);
        }
    }

    /**
     * Prepares one model directory.
     *
     * @param directory       the model directory
     * @param modelConfigName preferred {@code configs/<name>.pbtxt}, or empty
     * @param completer       backend auto-complete
     * @param context         the machine's GPUs
     * @param warnings        receives warnings
     * @return the prepared model
     * @throws ConfigException when the model cannot be prepared; the message names model and reason
     */
    static PreparedModel prepare(final Path directory, final String modelConfigName,
        final BackendAutoCompleter completer, final NormalizeContext context, final List<String> warnings)
        throws ConfigException
    {
        final String name = directory.getFileName().toString();
        final Path configFile = configFile(directory, modelConfigName);
        final VersionDirectories versionDirectories = VersionDirectories.list(directory, name, warnings::add);
        final ModelConfig raw;
        if (configFile != null)
        {
            raw = ModelConfigParser.parse(configFile);
        }
        else if (completer.enabled())
        {
            raw = ModelConfig.getDefaultInstance();
        }
        else
        {
            throw new ConfigException(ConfigException.Category.NOT_FOUND, "failed to open text file for read "
                + directory.resolve(CONFIG_FILENAME) + ": No such file or directory (auto-complete is disabled, so"
                + " model '" + name + "' needs a " + CONFIG_FILENAME + ")");
        }
        ModelConfig config = LoadOrder.validated(raw, name, versionDirectories.lexicographicallyFirst(), completer,
            context, !versionDirectories.isEmpty());
        if (!config.getName().equals(name))
        {
            throw ConfigException.invalid("unexpected directory name '" + name + "' for model '" + config.getName()
                + "', directory name must equal model name");
        }
        final List<ModelVersion> versions = versionDirectories.select(config, warnings::add);
        config = LoadOrder.completed(config, directory, versions, completer, context);
        MetricControls.warn(config, warnings::add);
        return new PreparedModel(name, directory, config, versions);
    }

    /** @return the configuration file to read, or {@code null} when the model has none. */
    private static Path configFile(final Path directory, final String modelConfigName)
    {
        if (!modelConfigName.isEmpty())
        {
            final Path named = directory.resolve(CONFIGS_DIRECTORY).resolve(modelConfigName + ".pbtxt");
            if (Files.isRegularFile(named))
            {
                return named;
            }
        }
        final Path standard = directory.resolve(CONFIG_FILENAME);
        return Files.exists(standard) ? standard : null;
    }
}
