package io.ingot.cuda;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Where the loader looks, in what order, and what it says when nothing is found. */
class NativeLibraryLoaderTest
{
    private static final Path REAL_CUDART = Path.of("/usr/local/cuda/lib64/libcudart.so.13");

    private static final NativeLibrary MISSING = new NativeLibrary("libingot-missing.so.1", "a library nobody has",
        List.of("nvidia/cu13/lib"), "It does not exist; this is a test.");

    @Test
    void aBogusCudaHomeAndAnEmptySearchPathListEveryPlaceTried(@TempDir final Path temp)
    {
        final Path bogus = temp.resolve("no-such-cuda");
        final NativeLibraryLoader loader = new NativeLibraryLoader(LibrarySearchPath.none().withCudaHome(bogus));

        final NativeLibraryNotFoundException error =
            assertThrows(NativeLibraryNotFoundException.class, () -> loader.load(NativeLibrary.CUDART));

        final Path lib64 = bogus.resolve("lib64/libcudart.so.13");
        final Path lib = bogus.resolve("lib/libcudart.so.13");
        assertEquals(List.of(
                new NativeLibraryNotFoundException.Attempt(lib64.toString(), "$CUDA_HOME/lib64", "not present"),
                new NativeLibraryNotFoundException.Attempt(lib.toString(), "$CUDA_HOME/lib", "not present")),
            error.attempts());
        assertTrue(error.getMessage().contains("libcudart.so.13 (CUDA runtime 13) could not be loaded"),
            error.getMessage());
        assertTrue(error.getMessage().contains("1. " + lib64), error.getMessage());
        assertTrue(error.getMessage().contains("2. " + lib), error.getMessage());
        assertTrue(error.getMessage().contains("CUDA_HOME"), "says how to fix it: " + error.getMessage());
        assertTrue(!error.getMessage().contains("dlopen"), "the system search was switched off");
    }

    @Test
    void anEmptySearchPathSaysNothingWasTried()
    {
        final NativeLibraryNotFoundException error = assertThrows(NativeLibraryNotFoundException.class,
            () -> new NativeLibraryLoader(LibrarySearchPath.none()).load(NativeLibrary.CUDART));
        assertTrue(error.attempts().isEmpty());
        assertTrue(error.getMessage().contains("Nothing was tried: the search path is empty"), error.getMessage());
    }

    @Test
    void placesAreSearchedInTheDocumentedOrderEndingWithTheSystemSearch(@TempDir final Path temp)
    {
        final Path extra = temp.resolve("extra");
        final Path home = temp.resolve("cuda");
        final Path standard = temp.resolve("standard");
        final Path ld = temp.resolve("ld");
        final Path site = temp.resolve("site-packages");
        final LibrarySearchPath path = LibrarySearchPath.none()
            .withExtraDirs(List.of(extra))
            .withCudaHome(home)
            .withStandardDirs(List.of(standard))
            .withLdLibraryPath(List.of(ld, extra))
            .withPythonSiteDirs(List.of(site))
            .withSystemSearch(true);

        final NativeLibraryNotFoundException error =
            assertThrows(NativeLibraryNotFoundException.class, () -> new NativeLibraryLoader(path).load(MISSING));

        final String name = MISSING.fileName();
        assertEquals(List.of(
                extra.resolve(name).toString(),
                home.resolve("lib64").resolve(name).toString(),
                home.resolve("lib").resolve(name).toString(),
                standard.resolve(name).toString(),
                ld.resolve(name).toString(),
                site.resolve("nvidia/cu13/lib").resolve(name).toString(),
                "dlopen(\"" + name + "\")"),
            error.attempts().stream().map(NativeLibraryNotFoundException.Attempt::place).toList(),
            "a folder listed twice is searched once, where it first appears");
        assertTrue(error.attempts().getLast().outcome().contains(name), error.attempts().getLast().outcome());
    }

    @Test
    void findsTheRuntimeUnderCudaHome()
    {
        assumeTrue(Files.exists(REAL_CUDART), "no CUDA toolkit in /usr/local/cuda");
        final LoadedLibrary loaded =
            new NativeLibraryLoader(LibrarySearchPath.none().withCudaHome(Path.of("/usr/local/cuda")))
                .load(NativeLibrary.CUDART);
        assertEquals(REAL_CUDART.toString(), loaded.location());
        assertTrue(loaded.symbols().find("cudaRuntimeGetVersion").isPresent());
    }

    @Test
    void findsTheRuntimeInAnNvidiaWheelFolder(@TempDir final Path temp) throws IOException
    {
        assumeTrue(Files.exists(REAL_CUDART), "no CUDA toolkit in /usr/local/cuda to stand in for the wheel's copy");
        final Path site = temp.resolve("lib/python3.12/site-packages");
        final Path wheelLib = Files.createDirectories(site.resolve("nvidia/cu13/lib"));
        final Path link = Files.createSymbolicLink(wheelLib.resolve("libcudart.so.13"), REAL_CUDART);
        try
        {
            final LoadedLibrary loaded = new NativeLibraryLoader(LibrarySearchPath.none()
                .withCudaHome(temp.resolve("no-such-cuda"))
                .withPythonSiteDirs(List.of(site)))
                .load(NativeLibrary.CUDART);
            assertEquals(link.toString(), loaded.location());
        }
        finally
        {
            Files.delete(link);
        }
    }

    @Test
    void aFileThatIsNotALibraryIsReportedAndTheSearchGoesOn(@TempDir final Path temp) throws IOException
    {
        final Path broken = Files.createDirectories(temp.resolve("broken"));
        // An executable is an ELF file that dlopen refuses ("cannot dynamically load position-independent
        // executable"); plain text would do too, but makes the JVM print a stack-guard warning while probing it.
        final Path executable = Path.of("/usr/bin/true");
        if (Files.isRegularFile(executable))
        {
            Files.copy(executable, broken.resolve("libcudart.so.13"));
        }
        else
        {
            Files.writeString(broken.resolve("libcudart.so.13"), "not an ELF file");
        }

        final NativeLibraryNotFoundException error = assertThrows(NativeLibraryNotFoundException.class,
            () -> new NativeLibraryLoader(LibrarySearchPath.none().withExtraDirs(List.of(broken)))
                .load(NativeLibrary.CUDART));
        assertTrue(error.attempts().getFirst().outcome().startsWith("present but not loadable"),
            error.attempts().getFirst().outcome());

        assumeTrue(Files.exists(REAL_CUDART), "no CUDA toolkit in /usr/local/cuda");
        final LoadedLibrary loaded = new NativeLibraryLoader(LibrarySearchPath.none()
            .withExtraDirs(List.of(broken, REAL_CUDART.getParent())))
            .load(NativeLibrary.CUDART);
        assertEquals(REAL_CUDART.toString(), loaded.location());
    }

    @Test
    void theEnvironmentIsReadFromInjectableInputs(@TempDir final Path temp) throws IOException
    {
        final Path venv = temp.resolve("venv");
        final Path venvSite = Files.createDirectories(venv.resolve("lib/python3.11/site-packages"));
        final Path userSite = Files.createDirectories(temp.resolve("home/.local/lib/python3.13/site-packages"));
        final LibrarySearchPath path = LibrarySearchPath.fromEnvironment(
            Map.of("CUDA_PATH", "/opt/cuda-path",
                "LD_LIBRARY_PATH", "/a::/b:",
                "VIRTUAL_ENV", venv.toString()),
            "/extra/one:/extra/two",
            temp.resolve("home"));

        assertEquals(List.of(Path.of("/extra/one"), Path.of("/extra/two")), path.extraDirs());
        assertEquals(Path.of("/opt/cuda-path"), path.cudaHome().orElseThrow(), "CUDA_PATH stands in for CUDA_HOME");
        assertEquals(List.of(Path.of("/a"), Path.of("/b")), path.ldLibraryPath(), "empty entries are dropped");
        assertEquals(List.of(LibrarySearchPath.STANDARD_CUDA_LIB), path.standardDirs());
        assertTrue(path.systemSearch());
        assertEquals(venvSite, path.pythonSiteDirs().get(0), "the active virtualenv comes first");
        assertEquals(userSite, path.pythonSiteDirs().get(1));

        final LibrarySearchPath cudaHomeWins = LibrarySearchPath.fromEnvironment(
            Map.of("CUDA_HOME", "/opt/home", "CUDA_PATH", "/opt/path"), "", temp);
        assertEquals(Path.of("/opt/home"), cudaHomeWins.cudaHome().orElseThrow());
    }

    @Test
    void aLibraryNameMustBeABareFileName()
    {
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> new NativeLibrary("/usr/lib/libcudart.so.13", "x", List.of(), "x"));
        assertTrue(error.getMessage().contains("/usr/lib/libcudart.so.13"), error.getMessage());
    }
}
