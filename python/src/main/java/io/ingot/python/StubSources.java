package io.ingot.python;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * The Python side of the backend, packaged in this module's jar under {@code io/ingot/python/stub/}: the stub, Ingot's
 * {@code triton_python_backend_utils} and the ring code of Ingot's Python IPC client ({@code ingot_ipc.py}, from
 * {@code clients/python}). Extracted once per JVM into a private temporary directory (mode 0700), removed when the
 * JVM exits. Thread-safe.
 */
final class StubSources
{
    /** The stub's file name. */
    static final String STUB = "ingot_python_stub.py";
    private static final List<String> FILES = List.of(STUB, "ingot_stub_link.py", "triton_python_backend_utils.py",
        "ingot_ipc.py");
    private static final String RESOURCES = "/io/ingot/python/stub/";

    private static Path directory;

    private StubSources()
    {
    }

    /**
     * @return the stub script, extracted on first use
     * @throws PythonStubException when the sources are missing from the class path or cannot be written
     */
    static synchronized Path stub() throws PythonStubException
    {
        if (directory == null)
        {
            directory = extract();
        }
        return directory.resolve(STUB);
    }

    private static Path extract() throws PythonStubException
    {
        try
        {
            final Path target = Files.createTempDirectory("ingot-python-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            target.toFile().deleteOnExit();
            for (final String file : FILES)
            {
                try (InputStream source = StubSources.class.getResourceAsStream(RESOURCES + file))
                {
                    if (source == null)
                    {
                        throw new PythonStubException("the Python backend's " + file + " is missing from the class "
                            + "path (expected at " + RESOURCES + file + " in ingot-python's jar)");
                    }
                    final Path written = target.resolve(file);
                    Files.copy(source, written);
                    written.toFile().deleteOnExit();
                }
            }
            return target;
        }
        catch (final IOException ex)
        {
            throw new PythonStubException("cannot extract the Python backend's stub into a temporary directory: " + ex,
                ex);
        }
    }
}
