package io.ingot.tensorflow;

import io.ingot.tensorflow.capi.LibraryLocation;
import io.ingot.testing.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TensorFlow's native library missing, in a JVM of its own (the binding loads once per process): the SavedModel
 * fails to load with a message naming the library, the place and what to do; the repository's other model serves.
 */
class MissingLibraryTest
{
    @TempDir
    Path dir;

    @Test
    void aMissingLibraryFailsTheTensorFlowModelAndTheOthersServe() throws Exception
    {
        final Path repository = Files.createDirectories(dir.resolve("repository"));
        TestSavedModels.model(repository, "simple", TestSavedModels.addSubConfig("simple"), TestSavedModels.addSub());
        TestSavedModels.model(repository, "add_sub", "name: 'add_sub' backend: 'add_sub' max_batch_size: 8"
            + " input [{ name: 'INPUT0' data_type: TYPE_FP32 dims: [16] },"
            + " { name: 'INPUT1' data_type: TYPE_FP32 dims: [16] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_FP32 dims: [16] },"
            + " { name: 'OUTPUT1' data_type: TYPE_FP32 dims: [16] }]", null);
        final Path empty = Files.createDirectories(dir.resolve("no-tensorflow-here"));

        final List<String> flags = new ArrayList<>();
        flags.add("-D" + LibraryLocation.DIR_PROPERTY + "=" + empty);
        try (ChildProcess child = ChildProcess.start(ChildProcess.javaCommand(MissingLibraryMain.class, flags,
            repository.toString())))
        {
            final String answer = child.awaitLine("ANSWER ", 120);
            assertEquals("ANSWER 42.0", answer, child.output());
            final String simple = child.output().lines().filter(line -> line.startsWith("MODEL simple ")).findFirst()
                .orElseThrow(() -> new AssertionError(child.output()));
            assertTrue(simple.startsWith("MODEL simple UNAVAILABLE Internal: model 'simple' version 1 cannot be "
                + "served: TensorFlow's C library libtensorflow_cc.so.2 cannot be loaded: libtensorflow_cc.so.2 is not "
                + "in "
                + empty + " (named by system property ingot.tensorflow.library.dir)"), simple);
            assertTrue(child.output().contains("MODEL add_sub READY"), child.output());
            assertEquals(0, child.awaitExit(60), child.output());
        }
    }
}
