package io.ingot.trt;

import io.ingot.device.DeviceDiscovery;
import io.ingot.testing.TestModels;
import io.ingot.trt.shim.ShimLocation;
import io.ingot.trt.testing.FakePlan;
import io.ingot.trt.testing.FakeTrtShim;
import io.ingot.trt.testing.LoadProbe;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a user sees when the machine lacks part of what TensorRT needs: the shim library (and so TensorRT), or a
 * usable GPU; and how the shim library is located.
 */
class TensorRtEnvironmentTest
{
    @TempDir
    Path directory;

    @Test
    void aMissingTensorRtLibraryFailsTheLoadNamingTheModelAndWhereItLooked() throws Exception
    {
        final Path plan = FakePlan.write(directory.resolve("probe/1/model.plan"), "input X FLOAT 4",
            "output Y FLOAT 4 = copy X");
        final Path missing = directory.resolve("nowhere/libingot_trt_shim.so");
        final String output = runProbe(List.of("-D" + ShimLocation.PATH_PROPERTY + "=" + missing), plan);
        assertTrue(output.contains("FAILED: model 'probe' version 1: TensorRT is not available: TensorRT shim library "
            + "not loadable: " + missing + " (system property ingot.trt.shim)"), output);
        assertTrue(output.contains("Build it with trt/src/main/native/build.sh"), output);
    }

    @Test
    void theTestDoubleLoadsInAFreshJvmByPath() throws Exception
    {
        final Path library = FakeTrtShim.install();
        final Path plan = FakePlan.write(directory.resolve("probe/1/model.plan"), "input X FLOAT 4",
            "output Y FLOAT 4 = copy X");
        final String output = runProbe(List.of("-D" + ShimLocation.PATH_PROPERTY + "=" + library), plan);
        assertTrue(output.contains("LOADED with inputs [X]"), output);
    }

    @Test
    void withoutAUsableGpuATensorRtModelFailsToLoadWithTheReason() throws Exception
    {
        final DeviceDiscovery.Result discovery = DeviceDiscovery.discover();
        Assumptions.assumeFalse(discovery.hasDevices(), "this machine has a GPU: " + discovery.reason());
        FakeTrtShim.install();
        final Path plan = FakePlan.write(directory.resolve("gpuless/1/model.plan"), "input X FLOAT 4",
            "output Y FLOAT 4 = copy X");
        final IllegalStateException failure = org.junit.jupiter.api.Assertions.assertThrows(
            IllegalStateException.class, () -> new TensorRtBackendFactory().load(TestModels.context(
                TestModels.config("name: \"gpuless\" platform: \"tensorrt_plan\" input [ { name: \"X\" "
                    + "data_type: TYPE_FP32 dims: [ 4 ] } ] "
                    + "output [ { name: \"Y\" data_type: TYPE_FP32 dims: [ 4 ] } ]"),
                plan)));
        assertTrue(failure.getMessage().startsWith("model 'gpuless' version 1: no usable GPU was found ("),
            failure.getMessage());
    }

    @Test
    void locatesTheShimByPropertyThenEnvironmentThenFolders()
    {
        final ShimLocation byProperty = ShimLocation.from(Map.of(ShimLocation.PATH_PROPERTY, "/a/libx.so"),
            Map.of(ShimLocation.PATH_ENV, "/b/liby.so"));
        assertEquals(List.of(Path.of("/a/libx.so")), byProperty.candidates());
        assertTrue(byProperty.isExplicit());
        assertEquals("system property ingot.trt.shim", byProperty.origin());

        final ShimLocation byEnvironment = ShimLocation.from(Map.of(), Map.of(ShimLocation.PATH_ENV, "/b/liby.so"));
        assertEquals(List.of(Path.of("/b/liby.so")), byEnvironment.candidates());

        final ShimLocation search = ShimLocation.from(Map.of(ShimLocation.DIRS_PROPERTY,
            directory + java.io.File.pathSeparator + "/does/not/exist"), Map.of());
        assertTrue(search.candidates().isEmpty(), "only folders that hold the file are candidates");
        assertTrue(!search.isExplicit());
    }

    @Test
    void foldersOnTheNativePathAreSearchedForTheShim() throws Exception
    {
        Files.writeString(directory.resolve(ShimLocation.FILE_NAME), "not a library");
        final ShimLocation search = ShimLocation.from(Map.of(ShimLocation.DIRS_PROPERTY, directory.toString()),
            Map.of());
        assertEquals(List.of(directory.resolve(ShimLocation.FILE_NAME)), search.candidates());
    }

    private static String runProbe(final List<String> jvmOptions, final Path plan) throws Exception
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("--enable-native-access=ALL-UNNAMED");
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(LoadProbe.class.getName());
        command.add("probe");
        command.add(plan.toString());
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the probe JVM did not finish");
        assertEquals(0, process.exitValue(), output);
        return output;
    }
}
