package io.ingot.trt.testing;

import io.ingot.trt.shim.ShimLocation;
import io.ingot.trt.shim.TrtLogger;
import io.ingot.trt.shim.TrtShim;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Builds the TensorRT shim's TEST DOUBLE ({@code src/test/native/fake_trt_shim.c}) with gcc into
 * {@code target/fake-trt/} and points {@link TrtShim} at it, before {@link TrtShim} is first used in this JVM.
 * Every test that needs the shim calls {@link #install()} first.
 */
public final class FakeTrtShim
{
    /** Module-relative source of the test double. */
    public static final Path SOURCE = Path.of("src/test/native/fake_trt_shim.c");
    /** Module-relative header it implements. */
    public static final Path HEADER = Path.of("src/main/native/ingot_trt_shim.h");
    /** Where it is built. */
    public static final Path LIBRARY = Path.of("target/fake-trt/libfake_trt_shim.so");

    private static Path installed;

    private FakeTrtShim()
    {
    }

    /**
     * Compiles the test double if its source is newer than the library, and makes it the shim of this JVM. Skips
     * the calling test (with the reason) when gcc is missing; fails it when another shim was bound already.
     *
     * @return the library's path
     */
    public static synchronized Path install()
    {
        if (installed != null)
        {
            return installed;
        }
        final Path library = LIBRARY.toAbsolutePath();
        try
        {
            if (!Files.exists(library) || isOlder(library, SOURCE) || isOlder(library, HEADER))
            {
                compile(library);
            }
        }
        catch (final IOException failure)
        {
            throw new IllegalStateException("cannot build the TensorRT shim test double: " + failure, failure);
        }
        final String bound = System.getProperty(ShimLocation.PATH_PROPERTY);
        if (bound == null)
        {
            System.setProperty(ShimLocation.PATH_PROPERTY, library.toString());
        }
        if (System.getProperty(TrtLogger.SEVERITY_PROPERTY) == null)
        {
            System.setProperty(TrtLogger.SEVERITY_PROPERTY, "INFO");
        }
        if (!TrtShim.isAvailable() || !TrtShim.location().orElse("").equals(library.toString()))
        {
            throw new IllegalStateException("TrtShim is bound to " + TrtShim.location().orElse("nothing") + " ("
                + TrtShim.unavailableReason().orElse("available") + "), not to the test double " + library
                + "; run the test-double tests in a JVM where -D" + ShimLocation.PATH_PROPERTY + " is unset");
        }
        installed = library;
        return library;
    }

    private static boolean isOlder(final Path target, final Path source) throws IOException
    {
        final FileTime built = Files.getLastModifiedTime(target);
        return Files.getLastModifiedTime(source).compareTo(built) > 0;
    }

    private static void compile(final Path library) throws IOException
    {
        Files.createDirectories(library.getParent());
        final List<String> command = List.of("gcc", "-std=c11", "-D_GNU_SOURCE", "-O1", "-g", "-fPIC", "-shared",
            "-Wall", "-Wextra", "-Werror", "-pthread", "-I", HEADER.getParent().toString(), SOURCE.toString(), "-o",
            library.toString());
        final Process process;
        try
        {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        }
        catch (final IOException notFound)
        {
            Assumptions.abort("gcc is not available, so the TensorRT shim test double cannot be built: " + notFound);
            throw notFound;
        }
        try
        {
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0)
            {
                throw new IOException("gcc failed building the test double: " + String.join(" ", command) + "\n"
                    + output);
            }
        }
        catch (final InterruptedException interrupted)
        {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while compiling the test double", interrupted);
        }
    }
}
