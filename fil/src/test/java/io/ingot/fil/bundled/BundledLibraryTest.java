package io.ingot.fil.bundled;

import io.ingot.fil.lightgbm.Lightgbm;
import io.ingot.fil.xgboost.Xgboost;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The native libraries come out of the Maven jars and load, export every function the bindings bind, and report
 * their versions; a library that cannot be had yields handles that throw a message naming it and the reason.
 */
class BundledLibraryTest
{
    @TempDir
    Path folder;

    @Test
    void xgboostLoadsFromItsJarAndExportsEveryBoundFunction()
    {
        assertEquals(java.util.Optional.empty(), Xgboost.unavailableReason());
        assertTrue(Xgboost.isAvailable());
        assertTrue(Xgboost.BOUND_FUNCTIONS.contains("XGBoosterPredictFromDense"), Xgboost.BOUND_FUNCTIONS.toString());
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment major = arena.allocate(ValueLayout.JAVA_INT);
            final MemorySegment minor = arena.allocate(ValueLayout.JAVA_INT);
            final MemorySegment patch = arena.allocate(ValueLayout.JAVA_INT);
            Xgboost.XGBoostVersion(major, minor, patch);
            assertEquals("3.4.0", major.get(ValueLayout.JAVA_INT, 0) + "." + minor.get(ValueLayout.JAVA_INT, 0) + "."
                + patch.get(ValueLayout.JAVA_INT, 0));
        }
        final Path file = Xgboost.LIBRARY.locate();
        assertEquals("libxgboost4j.so", file.getFileName().toString());
        assertTrue(Files.isRegularFile(file));
    }

    @Test
    void lightgbmLoadsFromItsJarAndExportsEveryBoundFunction()
    {
        assertEquals(java.util.Optional.empty(), Lightgbm.unavailableReason());
        assertTrue(Lightgbm.BOUND_FUNCTIONS.contains("LGBM_BoosterPredictForMat"), Lightgbm.BOUND_FUNCTIONS.toString());
        assertEquals("lib_lightgbm.so", Lightgbm.LIBRARY.locate().getFileName().toString());
    }

    @Test
    void anOverrideThatNamesNoFileMakesEveryHandleThrowTheReason()
    {
        final String property = "ingot.test.missing." + System.nanoTime();
        System.setProperty(property, folder.resolve("libmissing.so").toString());
        try
        {
            final BundledLibrary library = new BundledLibrary("Test library 1.0 (libmissing.so)", "org.example:lib:1",
                "libmissing.so", Map.of(System.getProperty("os.arch"), "no/such/libmissing.so"), property);
            final NativeBinding binding = NativeBinding.load(library);
            assertFalse(binding.isAvailable());
            final String expected = "Test library 1.0 (libmissing.so) from org.example:lib:1 cannot be loaded: -D"
                + property + " names " + folder.resolve("libmissing.so") + ", which is not a file";
            assertEquals(expected, binding.unavailableReason().orElseThrow());
            final MethodHandle handle = binding.downcall("missing_function",
                FunctionDescriptor.of(ValueLayout.JAVA_INT));
            final NativeLibraryUnavailableException thrown = assertThrows(NativeLibraryUnavailableException.class,
                () ->
                {
                    final int ignored = (int)handle.invokeExact();
                });
            assertEquals(expected, thrown.getMessage());
        }
        finally
        {
            System.clearProperty(property);
        }
    }

    @Test
    void saysWhichJarIsMissingFromTheClassPathAndWhatDlopenRefused() throws Exception
    {
        final BundledLibrary absent = new BundledLibrary("Test library", "org.example:absent:1", "libabsent.so",
            Map.of(System.getProperty("os.arch"), "no/such/libabsent.so"), "ingot.test.unset." + System.nanoTime());
        assertEquals("Test library from org.example:absent:1 cannot be loaded: no/such/libabsent.so is not on the"
            + " class path: the jar org.example:absent:1 is missing (it is a Maven dependency of ingot-fil; rebuild,"
            + " or put it on the class path)", NativeBinding.load(absent).unavailableReason().orElseThrow());

        final Path notALibrary = Files.writeString(folder.resolve("libtext.so"), "not an ELF file");
        final String property = "ingot.test.text." + System.nanoTime();
        System.setProperty(property, notALibrary.toString());
        try
        {
            final String reason = NativeBinding.load(new BundledLibrary("Test library", "org.example:text:1",
                "libtext.so", Map.of(), property)).unavailableReason().orElseThrow();
            assertTrue(reason.startsWith("Test library from org.example:text:1 cannot be loaded: dlopen("
                + notALibrary + ") failed: "), reason);
        }
        finally
        {
            System.clearProperty(property);
        }
    }
}
