package io.ingot.fil.bundled;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A native library that a Maven Central jar carries as a resource, and how to get it onto the file system so that
 * {@code dlopen} can load it. Resolution order:
 * <ol>
 *   <li>the system property {@link #overrideProperty()}, naming a library file to use instead (it must exist);</li>
 *   <li>the resource for this platform ({@link #resources()}, keyed by {@code os.arch}) on the class path: used in
 *       place when it is a plain file, otherwise copied once into
 *       {@code <cache>/<artifact>/<file name>}, where {@code <cache>} is the system property {@value #CACHE_PROPERTY}
 *       or {@code <java.io.tmpdir>/ingot-native-<user>} (created owner-only). A copy whose size equals the
 *       resource's is reused; a new one is written to a temporary file and moved into place, so concurrent processes
 *       never load a half-written library.</li>
 * </ol>
 * Nothing is downloaded: the jar is a Maven dependency of this module.
 *
 * @param description      what the library is, for messages ("XGBoost 3.4.0 (libxgboost4j.so)")
 * @param artifact         the Maven coordinates of the jar that carries it, for messages and the cache folder name
 * @param fileName         the library's file name
 * @param resources        class-path resource of the library per {@code os.arch} value (Linux only)
 * @param overrideProperty system property that names a library file to load instead
 */
public record BundledLibrary(String description, String artifact, String fileName, Map<String, String> resources,
    String overrideProperty)
{
    /** System property naming the folder extracted libraries are cached in. */
    public static final String CACHE_PROPERTY = "ingot.native.cache";

    /** Validates and copies the components. */
    public BundledLibrary
    {
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(artifact, "artifact");
        Objects.requireNonNull(fileName, "fileName");
        Objects.requireNonNull(overrideProperty, "overrideProperty");
        resources = Map.copyOf(resources);
    }

    /**
     * @return the library file to load
     * @throws NativeLibraryUnavailableException when the override names no file, the platform has no library in the
     *                                           jar, the jar is not on the class path, or the copy cannot be written
     */
    public Path locate()
    {
        final String override = System.getProperty(overrideProperty, "");
        if (!override.isBlank())
        {
            final Path file = Path.of(override);
            if (!Files.isRegularFile(file))
            {
                throw unavailable("-D" + overrideProperty + " names " + file.toAbsolutePath()
                    + ", which is not a file");
            }
            return file;
        }
        final String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        final String arch = System.getProperty("os.arch", "");
        final String resource = os.contains("linux") ? resources.get(arch) : null;
        if (resource == null)
        {
            throw unavailable(artifact + " carries no " + fileName + " for " + System.getProperty("os.name") + " "
                + arch + " that Ingot loads (it loads " + resources.keySet() + " on Linux)");
        }
        final URL url = BundledLibrary.class.getClassLoader().getResource(resource);
        if (url == null)
        {
            throw unavailable(resource + " is not on the class path: the jar " + artifact + " is missing (it is a"
                + " Maven dependency of ingot-fil; rebuild, or put it on the class path)");
        }
        try
        {
            if ("file".equals(url.getProtocol()))
            {
                return Path.of(url.toURI());
            }
            return extract(url);
        }
        catch (final IOException | URISyntaxException ex)
        {
            throw unavailable("cannot copy " + resource + " out of " + artifact + ": " + ex);
        }
    }

    private Path extract(final URL url) throws IOException
    {
        final URLConnection connection = url.openConnection();
        connection.setUseCaches(false);
        final long size = connection.getContentLengthLong();
        final Path folder = cacheRoot().resolve(artifact.replace(':', '_'));
        Files.createDirectories(folder);
        final Path target = folder.resolve(fileName);
        if (size > 0 && Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS) && Files.size(target) == size)
        {
            return target;
        }
        final Path partial = Files.createTempFile(folder, fileName, ".partial");
        try (InputStream in = connection.getInputStream())
        {
            Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
            try
            {
                Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
            catch (final AtomicMoveNotSupportedException ex)
            {
                Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
            }
            return target;
        }
        finally
        {
            Files.deleteIfExists(partial);
        }
    }

    private static Path cacheRoot() throws IOException
    {
        final String configured = System.getProperty(CACHE_PROPERTY, "");
        if (!configured.isBlank())
        {
            return Path.of(configured);
        }
        final Path root = Path.of(System.getProperty("java.io.tmpdir"),
            "ingot-native-" + System.getProperty("user.name", "user"));
        try
        {
            // Owner-only: in a shared temporary folder, nobody else may swap the library this process loads.
            Files.createDirectory(root, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(
                "rwx------")));
        }
        catch (final FileAlreadyExistsException exists)
        {
            if (Files.isSymbolicLink(root) || !ownedByMe(root))
            {
                throw new IOException(root + " exists but is not a folder of this user; set -D" + CACHE_PROPERTY);
            }
        }
        return root;
    }

    private static boolean ownedByMe(final Path folder) throws IOException
    {
        final Path probe = Files.createTempFile("ingot-owner", ".probe");
        try
        {
            return Files.getOwner(probe).equals(Files.getOwner(folder));
        }
        finally
        {
            Files.deleteIfExists(probe);
        }
    }

    /**
     * @param reason why the library cannot be had
     * @return an exception naming this library and the reason
     */
    public NativeLibraryUnavailableException unavailable(final String reason)
    {
        return new NativeLibraryUnavailableException(description + " from " + artifact + " cannot be loaded: "
            + reason);
    }
}
