package io.ingot.tensorflow.capi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where the library comes from, on a small stand-in for the tensorflow-core-native jar: extraction into the cache
 * once, repair of a partial file, an explicit folder that must hold the files, a class path without the jar.
 */
class LibraryLocationTest
{
    @TempDir
    Path dir;

    private Path jar(final String cc, final String framework) throws IOException
    {
        final Path jar = dir.resolve("tensorflow-core-native-linux-x86_64.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar)))
        {
            entry(out, LibraryLocation.RESOURCE_FOLDER + LibraryLocation.CC_LIBRARY, cc);
            entry(out, LibraryLocation.RESOURCE_FOLDER + LibraryLocation.FRAMEWORK_LIBRARY, framework);
        }
        return jar;
    }

    private static void entry(final JarOutputStream out, final String name, final String content) throws IOException
    {
        out.putNextEntry(new JarEntry(name));
        final OutputStream stream = out;
        stream.write(content.getBytes(StandardCharsets.UTF_8));
        out.closeEntry();
    }

    private LibraryLocation location(final Map<String, String> properties, final ClassLoader loader)
    {
        return LibraryLocation.from(properties, Map.of(), loader);
    }

    @Test
    void theJarsLibrariesAreExtractedOnceIntoTheCache() throws Exception
    {
        final Path cache = dir.resolve("cache");
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar("cc bytes", "framework bytes").toUri().toURL()},
            null))
        {
            final LibraryLocation location = location(Map.of(LibraryLocation.CACHE_PROPERTY, cache.toString()),
                loader);
            final Path resolved = location.resolve();
            assertEquals(cache.resolve(LibraryLocation.CACHE_FOLDER), resolved);
            assertEquals("cc bytes", Files.readString(resolved.resolve(LibraryLocation.CC_LIBRARY)));
            assertEquals("framework bytes", Files.readString(resolved.resolve(LibraryLocation.FRAMEWORK_LIBRARY)));

            final FileTime old = FileTime.fromMillis(1_000_000);
            Files.setLastModifiedTime(resolved.resolve(LibraryLocation.CC_LIBRARY), old);
            location.resolve();
            assertEquals(old, Files.getLastModifiedTime(resolved.resolve(LibraryLocation.CC_LIBRARY)),
                "an extracted file of the right size is not written again");

            Files.writeString(resolved.resolve(LibraryLocation.CC_LIBRARY), "cc");
            location.resolve();
            assertEquals("cc bytes", Files.readString(resolved.resolve(LibraryLocation.CC_LIBRARY)),
                "a partial file is extracted again");
            try (var files = Files.list(resolved))
            {
                assertEquals(2, files.count(), "no temporary file is left behind");
            }
        }
    }

    @Test
    void anExplicitFolderMustHoldBothLibraries() throws Exception
    {
        final Path folder = Files.createDirectories(dir.resolve("tf"));
        Files.writeString(folder.resolve(LibraryLocation.CC_LIBRARY), "x");
        final LibraryLocation location = location(Map.of(LibraryLocation.DIR_PROPERTY, folder.toString()),
            getClass().getClassLoader());
        final TensorFlowUnavailableException failure = assertThrows(TensorFlowUnavailableException.class,
            location::resolve);
        assertEquals(LibraryLocation.FRAMEWORK_LIBRARY + " is not in " + folder.toAbsolutePath() + " (named by system"
            + " property ingot.tensorflow.library.dir); that folder must hold libtensorflow_cc.so.2 and"
            + " libtensorflow_framework.so.2 of TensorFlow 2.x, or unset -Dingot.tensorflow.library.dir to use the"
            + " org.tensorflow:tensorflow-core-native:1.1.0:linux-x86_64 jar", failure.getMessage());
        Files.writeString(folder.resolve(LibraryLocation.FRAMEWORK_LIBRARY), "y");
        assertEquals(folder, location.resolve());
    }

    @Test
    void theEnvironmentNamesAFolderWhenThePropertyDoesNot()
    {
        final LibraryLocation location = LibraryLocation.from(Map.of("user.home", "/home/someone"),
            Map.of(LibraryLocation.DIR_ENV, "/opt/tf/lib"), getClass().getClassLoader());
        assertEquals(Path.of("/opt/tf/lib"), location.explicitDir().orElseThrow());
        assertEquals("environment variable INGOT_TENSORFLOW_LIBRARY_DIR", location.origin());
        assertEquals(Path.of("/home/someone/.cache/ingot"), location.cacheRoot());
        assertEquals(Path.of("/xdg/ingot"), LibraryLocation.from(Map.of(), Map.of("XDG_CACHE_HOME", "/xdg"),
            getClass().getClassLoader()).cacheRoot());
    }

    @Test
    void aClassPathWithoutTheJarSaysWhichArtifactIsMissing() throws Exception
    {
        try (URLClassLoader empty = new URLClassLoader(new URL[0], null))
        {
            final TensorFlowUnavailableException failure = assertThrows(TensorFlowUnavailableException.class,
                () -> location(Map.of(LibraryLocation.CACHE_PROPERTY, dir.toString()), empty).resolve());
            assertTrue(failure.getMessage().startsWith(LibraryLocation.FRAMEWORK_LIBRARY + " is not on the class"
                + " path: the org.tensorflow:tensorflow-core-native:1.1.0:linux-x86_64 jar is missing"),
                failure.getMessage());
        }
    }
}
