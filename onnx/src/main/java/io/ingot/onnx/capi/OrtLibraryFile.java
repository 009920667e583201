package io.ingot.onnx.capi;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Map;

/**
 * Where {@code libonnxruntime.so} is taken from, in this order:
 * <ol>
 *   <li>the file named by the system property {@value #FILE_PROPERTY} or the environment variable {@value #FILE_ENV}
 *       (an installed ONNX Runtime {@value #VERSION}); a name that is not a file is an error, never a silent fall-back
 *       to another library;</li>
 *   <li>otherwise the class path's {@value #ARTIFACT} jar (a dependency of this module; Ingot uses only its native
 *       library, not its Java API): the file is extracted, once, into a cache folder ({@value #CACHE_PROPERTY},
 *       else {@code $XDG_CACHE_HOME/ingot}, else {@code ~/.cache/ingot}) under a sub-folder named after the version
 *       and platform. A cached file whose size differs from the jar's entry is extracted again, to a temporary name
 *       moved into place, so processes extracting at the same time never load a partial library.</li>
 * </ol>
 *
 * @param explicitFile the file named by property or environment, or {@code null}
 * @param origin       where {@code explicitFile} came from, for messages
 * @param cacheRoot    the cache folder the jar's library is extracted under
 * @param loader       where the jar's resources are looked up
 */
public record OrtLibraryFile(Path explicitFile, String origin, Path cacheRoot, ClassLoader loader)
{
    /** The ONNX Runtime release these bindings were written against. */
    public static final String VERSION = "1.23.2";
    /** The Maven artifact the library comes from. */
    public static final String ARTIFACT = "com.microsoft.onnxruntime:onnxruntime:" + VERSION;
    /** System property naming the library file. */
    public static final String FILE_PROPERTY = "ingot.onnxruntime.library";
    /** Environment variable naming the library file. */
    public static final String FILE_ENV = "INGOT_ONNXRUNTIME_LIBRARY";
    /** System property naming the cache folder the jar's library is extracted under. */
    public static final String CACHE_PROPERTY = "ingot.onnxruntime.cache";
    /** The library's file name, in the jar and in the cache. */
    public static final String FILE_NAME = "libonnxruntime.so";

    /**
     * @param properties system properties
     * @param env        environment variables
     * @param loader     the class loader whose class path holds the jar
     * @return the location these settings describe
     */
    public static OrtLibraryFile from(final Map<String, String> properties, final Map<String, String> env,
        final ClassLoader loader)
    {
        final String property = properties.get(FILE_PROPERTY);
        final String variable = env.get(FILE_ENV);
        Path explicit = null;
        String origin = "the class path's " + ARTIFACT + " jar";
        if (property != null && !property.isBlank())
        {
            explicit = Path.of(property);
            origin = "system property " + FILE_PROPERTY;
        }
        else if (variable != null && !variable.isBlank())
        {
            explicit = Path.of(variable);
            origin = "environment variable " + FILE_ENV;
        }
        final String cache = properties.get(CACHE_PROPERTY);
        final String xdg = env.get("XDG_CACHE_HOME");
        final Path root = cache != null && !cache.isBlank() ? Path.of(cache)
            : xdg != null && !xdg.isBlank() ? Path.of(xdg, "ingot")
            : Path.of(properties.getOrDefault("user.home", "."), ".cache", "ingot");
        return new OrtLibraryFile(explicit, origin, root, loader);
    }

    /** @return the location this process's system properties and environment describe */
    public static OrtLibraryFile fromEnvironment()
    {
        final Map<String, String> properties = new java.util.HashMap<>();
        for (final String key : new String[] {FILE_PROPERTY, CACHE_PROPERTY, "user.home"})
        {
            final String value = System.getProperty(key);
            if (value != null)
            {
                properties.put(key, value);
            }
        }
        return from(properties, System.getenv(), OrtLibraryFile.class.getClassLoader());
    }

    /** @return the jar's folder for this machine, {@code ai/onnxruntime/native/linux-x64/} and the like */
    static String resourceFolder()
    {
        final String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        return "ai/onnxruntime/native/linux-" + (arch.equals("aarch64") ? "aarch64" : "x64") + "/";
    }

    /**
     * Finds the library, extracting it from the jar when that is where it comes from.
     *
     * @return the library file
     * @throws OnnxRuntimeUnavailableException naming the file, the place tried and what is wrong there
     */
    public Path resolve()
    {
        if (explicitFile != null)
        {
            if (!Files.isRegularFile(explicitFile))
            {
                throw new OnnxRuntimeUnavailableException(explicitFile.toAbsolutePath() + " (named by " + origin
                    + ") is not a file; name ONNX Runtime " + VERSION + "'s " + FILE_NAME + ", or unset it to use the "
                    + ARTIFACT + " jar");
            }
            return explicitFile;
        }
        final String resource = resourceFolder() + FILE_NAME;
        final URL url = loader.getResource(resource);
        if (url == null)
        {
            throw new OnnxRuntimeUnavailableException(resource + " is not on the class path: the " + ARTIFACT
                + " jar is missing (a dependency of ingot-onnx), and -D" + FILE_PROPERTY + " names no library");
        }
        final Path dir = cacheRoot.resolve("onnxruntime-" + VERSION).resolve(resourceFolder().substring(
            "ai/onnxruntime/native/".length()));
        final Path target = dir.resolve(FILE_NAME);
        try
        {
            final URLConnection connection = url.openConnection();
            final long size = connection instanceof JarURLConnection jar ? jar.getJarEntry().getSize()
                : connection.getContentLengthLong();
            if (Files.isRegularFile(target) && size >= 0 && Files.size(target) == size)
            {
                return target;
            }
            Files.createDirectories(dir);
            final Path partial = Files.createTempFile(dir, FILE_NAME, ".part");
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
                try
                {
                    Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                }
                catch (final AtomicMoveNotSupportedException e)
                {
                    Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
            finally
            {
                Files.deleteIfExists(partial);
            }
            return target;
        }
        catch (final IOException e)
        {
            throw new OnnxRuntimeUnavailableException(FILE_NAME + " cannot be extracted from " + url + " into " + dir
                + ": " + e + ". Point -D" + CACHE_PROPERTY + " at a writable folder", e);
        }
    }
}
