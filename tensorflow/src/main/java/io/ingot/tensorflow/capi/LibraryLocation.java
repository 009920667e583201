package io.ingot.tensorflow.capi;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where TensorFlow's two native libraries ({@value #CC_LIBRARY}, which exports the C API, and its companion
 * {@value #FRAMEWORK_LIBRARY}) are taken from, in this order:
 * <ol>
 *   <li>a folder named by the system property {@value #DIR_PROPERTY} or the environment variable {@value #DIR_ENV}
 *       (an installed TensorFlow 2.x C library); a folder that lacks the files is an error of its own, never a
 *       silent fall-back to another library;</li>
 *   <li>otherwise the class path's {@value #ARTIFACT} jar (a runtime dependency of this module): both files are
 *       extracted, once, into a cache folder ({@value #CACHE_PROPERTY}, else {@code $XDG_CACHE_HOME/ingot}, else
 *       {@code ~/.cache/ingot}) under a sub-folder named after the artifact, and loaded from there. Nothing is
 *       downloaded: the jar came from Maven at build time.</li>
 * </ol>
 * An extracted file whose size differs from the jar's entry (an interrupted extraction by an older build) is
 * extracted again; each file is written to a temporary name and moved into place, so processes extracting at the
 * same time never see a partial library.
 *
 * @param explicitDir the folder named by property or environment, if any
 * @param origin      where {@code explicitDir} came from, for messages
 * @param cacheRoot   the cache folder the jar's files are extracted under
 * @param classLoader where the jar's resources are looked up
 */
public record LibraryLocation(Optional<Path> explicitDir, String origin, Path cacheRoot, ClassLoader classLoader)
{
    /** The C API library. */
    public static final String CC_LIBRARY = "libtensorflow_cc.so.2";
    /** The framework library the C API library needs ({@code NEEDED} in its dynamic section). */
    public static final String FRAMEWORK_LIBRARY = "libtensorflow_framework.so.2";
    /** The Maven artifact the libraries come from. */
    public static final String ARTIFACT = "org.tensorflow:tensorflow-core-native:1.1.0:linux-x86_64";
    /** The folder inside that jar that holds them. */
    public static final String RESOURCE_FOLDER = "org/tensorflow/internal/c_api/linux-x86_64/";
    /** System property naming a folder that holds both libraries. */
    public static final String DIR_PROPERTY = "ingot.tensorflow.library.dir";
    /** Environment variable naming a folder that holds both libraries. */
    public static final String DIR_ENV = "INGOT_TENSORFLOW_LIBRARY_DIR";
    /** System property naming the cache folder the jar's libraries are extracted under. */
    public static final String CACHE_PROPERTY = "ingot.tensorflow.cache";

    /** The sub-folder of the cache root, named after the artifact so that versions never mix. */
    static final String CACHE_FOLDER = "tensorflow-core-native-1.1.0-linux-x86_64";

    /** Validates that no component is null. */
    public LibraryLocation
    {
        Objects.requireNonNull(explicitDir, "explicitDir");
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(cacheRoot, "cacheRoot");
        Objects.requireNonNull(classLoader, "classLoader");
    }

    /**
     * @param properties system properties
     * @param env        environment variables
     * @param loader     the class loader whose class path holds the jar
     * @return the location these settings describe
     */
    public static LibraryLocation from(final Map<String, String> properties, final Map<String, String> env,
        final ClassLoader loader)
    {
        final String property = properties.get(DIR_PROPERTY);
        final String variable = env.get(DIR_ENV);
        Optional<Path> explicit = Optional.empty();
        String origin = "the class path's " + ARTIFACT + " jar";
        if (property != null && !property.isBlank())
        {
            explicit = Optional.of(Path.of(property));
            origin = "system property " + DIR_PROPERTY;
        }
        else if (variable != null && !variable.isBlank())
        {
            explicit = Optional.of(Path.of(variable));
            origin = "environment variable " + DIR_ENV;
        }
        return new LibraryLocation(explicit, origin, cacheRoot(properties, env), loader);
    }

    /** @return the location this process's system properties and environment describe */
    public static LibraryLocation fromEnvironment()
    {
        final Map<String, String> properties = new java.util.HashMap<>();
        for (final String key : List.of(DIR_PROPERTY, CACHE_PROPERTY, "user.home"))
        {
            final String value = System.getProperty(key);
            if (value != null)
            {
                properties.put(key, value);
            }
        }
        return from(properties, System.getenv(), LibraryLocation.class.getClassLoader());
    }

    private static Path cacheRoot(final Map<String, String> properties, final Map<String, String> env)
    {
        final String configured = properties.get(CACHE_PROPERTY);
        if (configured != null && !configured.isBlank())
        {
            return Path.of(configured);
        }
        final String xdg = env.get("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank())
        {
            return Path.of(xdg, "ingot");
        }
        return Path.of(properties.getOrDefault("user.home", "."), ".cache", "ingot");
    }

    /**
     * Finds the folder that holds both libraries, extracting them from the jar when that is where they come from.
     *
     * @return the folder
     * @throws TensorFlowUnavailableException naming the library, the place tried and what is wrong there
     */
    public Path resolve()
    {
        if (explicitDir.isPresent())
        {
            final Path dir = explicitDir.get();
            for (final String file : List.of(CC_LIBRARY, FRAMEWORK_LIBRARY))
            {
                if (!Files.isRegularFile(dir.resolve(file)))
                {
                    throw new TensorFlowUnavailableException(file + " is not in " + dir.toAbsolutePath() + " (named by "
                        + origin + "); that folder must hold " + CC_LIBRARY + " and " + FRAMEWORK_LIBRARY
                        + " of TensorFlow 2.x, or unset " + origin.replace("system property ", "-D")
                        .replace("environment variable ", "$") + " to use the " + ARTIFACT + " jar");
                }
            }
            return dir;
        }
        final Path dir = cacheRoot.resolve(CACHE_FOLDER);
        // The framework first: the C API library needs it, and dlopen finds it there through its $ORIGIN runpath.
        for (final String file : List.of(FRAMEWORK_LIBRARY, CC_LIBRARY))
        {
            extract(file, dir);
        }
        return dir;
    }

    private void extract(final String file, final Path dir)
    {
        final URL resource = classLoader.getResource(RESOURCE_FOLDER + file);
        if (resource == null)
        {
            throw new TensorFlowUnavailableException(file + " is not on the class path: the " + ARTIFACT + " jar is"
                + " missing (it is a runtime dependency of ingot-tensorflow; a build that excludes it cannot serve"
                + " tensorflow_savedmodel models), and -D" + DIR_PROPERTY + " does not name a folder holding"
                + " TensorFlow's libraries");
        }
        final Path target = dir.resolve(file);
        try
        {
            final URLConnection connection = resource.openConnection();
            final long size = entrySize(connection);
            if (Files.isRegularFile(target) && size >= 0 && Files.size(target) == size)
            {
                return;
            }
            Files.createDirectories(dir);
            final Path partial = Files.createTempFile(dir, file, ".part");
            try
            {
                try (InputStream in = connection.getInputStream())
                {
                    Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
                }
                if (size >= 0 && Files.size(partial) != size)
                {
                    throw new IOException("extracted " + Files.size(partial) + " bytes, the jar's entry has " + size);
                }
                move(partial, target);
            }
            finally
            {
                Files.deleteIfExists(partial);
            }
        }
        catch (final IOException e)
        {
            throw new TensorFlowUnavailableException(file + " cannot be extracted from " + resource + " into " + dir
                + ": " + e + ". Point -D" + CACHE_PROPERTY + " at a writable folder", e);
        }
    }

    private static long entrySize(final URLConnection connection) throws IOException
    {
        if (connection instanceof JarURLConnection jar)
        {
            return jar.getJarEntry().getSize();
        }
        return connection.getContentLengthLong();
    }

    private static void move(final Path from, final Path to) throws IOException
    {
        try
        {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        catch (final AtomicMoveNotSupportedException e)
        {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** @return the library files in load order: the framework, then the C API */
    public static List<String> loadOrder()
    {
        return List.of(FRAMEWORK_LIBRARY, CC_LIBRARY);
    }
}
