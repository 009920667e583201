package io.ingot.trt.shim;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the TensorRT shim library ({@value #FILE_NAME}) is taken from, in this order:
 * <ol>
 *   <li>the system property {@value #PATH_PROPERTY}: a file path;</li>
 *   <li>the environment variable {@value #PATH_ENV}: a file path;</li>
 *   <li>{@value #FILE_NAME} in each folder of the system property {@value #DIRS_PROPERTY} (the project-wide
 *       native folder list, {@link java.io.File#pathSeparator}-separated);</li>
 *   <li>the system {@code dlopen} search by file name ({@code LD_LIBRARY_PATH}, {@code ld.so.cache}).</li>
 * </ol>
 * An explicit path (1 or 2) that does not exist is an error of its own: a typo there must not silently fall back
 * to another library.
 *
 * @param explicitPath the path named by property or environment, if any
 * @param origin       where the explicit path came from, for messages
 * @param searchDirs   folders searched for {@value #FILE_NAME} when no explicit path is given
 */
public record ShimLocation(Optional<Path> explicitPath, String origin, List<Path> searchDirs)
{
    /** File name of the shim that {@code trt/src/main/native/build.sh} produces. */
    public static final String FILE_NAME = "libingot_trt_shim.so";
    /** System property naming the shim library file. */
    public static final String PATH_PROPERTY = "ingot.trt.shim";
    /** Environment variable naming the shim library file. */
    public static final String PATH_ENV = "INGOT_TRT_SHIM";
    /** System property listing extra native-library folders (shared with the CUDA bindings). */
    public static final String DIRS_PROPERTY = "ingot.native.path";

    /** Validates and copies the components. */
    public ShimLocation
    {
        Objects.requireNonNull(explicitPath, "explicitPath");
        Objects.requireNonNull(origin, "origin");
        searchDirs = List.copyOf(searchDirs);
    }

    /**
     * @param properties system properties to read
     * @param env        environment variables to read
     * @return the location these settings describe
     */
    public static ShimLocation from(final Map<String, String> properties, final Map<String, String> env)
    {
        final String property = properties.get(PATH_PROPERTY);
        if (property != null && !property.isBlank())
        {
            return new ShimLocation(Optional.of(Path.of(property)), "system property " + PATH_PROPERTY, List.of());
        }
        final String variable = env.get(PATH_ENV);
        if (variable != null && !variable.isBlank())
        {
            return new ShimLocation(Optional.of(Path.of(variable)), "environment variable " + PATH_ENV, List.of());
        }
        final List<Path> dirs = new ArrayList<>();
        final String extra = properties.getOrDefault(DIRS_PROPERTY, "");
        for (final String entry : extra.split(java.io.File.pathSeparator))
        {
            if (!entry.isBlank())
            {
                dirs.add(Path.of(entry));
            }
        }
        return new ShimLocation(Optional.empty(), "search", dirs);
    }

    /** @return the location this process's system properties and environment describe */
    public static ShimLocation fromEnvironment()
    {
        final Map<String, String> properties = new java.util.HashMap<>();
        for (final String key : new String[] {PATH_PROPERTY, DIRS_PROPERTY})
        {
            final String value = System.getProperty(key);
            if (value != null)
            {
                properties.put(key, value);
            }
        }
        return from(properties, System.getenv());
    }

    /**
     * @return the candidate files to try, in order; an empty list means "ask {@code dlopen} for {@value #FILE_NAME}"
     *         only
     */
    public List<Path> candidates()
    {
        if (explicitPath.isPresent())
        {
            return List.of(explicitPath.get());
        }
        final List<Path> files = new ArrayList<>();
        for (final Path dir : searchDirs)
        {
            final Path file = dir.resolve(FILE_NAME);
            if (Files.exists(file))
            {
                files.add(file);
            }
        }
        return files;
    }

    /** @return true when only an explicit path may be used (no fallback to the system search) */
    public boolean isExplicit()
    {
        return explicitPath.isPresent();
    }
}
