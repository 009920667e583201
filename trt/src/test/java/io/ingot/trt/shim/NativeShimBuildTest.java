package io.ingot.trt.shim;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real shim's sources and build script, where TensorRT is absent: the C++ compiles against a declaration-only
 * stand-in of TensorRT's header (it proves the code well-formed against the documented 10.x signatures, not
 * against TensorRT itself), and the build script skips with its reason or fails when TensorRT is required.
 */
class NativeShimBuildTest
{
    @TempDir
    Path directory;

    @Test
    void theShimCompilesWithoutWarningsAgainstTheTensorRtSignatures() throws Exception
    {
        final Result result = run(List.of("g++", "-std=c++17", "-O2", "-fPIC", "-Wall", "-Wextra", "-Werror",
            "-fvisibility=hidden", "-c", "src/main/native/ingot_trt_shim.cpp", "-I", "src/main/native", "-I",
            "src/test/native/trt_api_standin", "-o", directory.resolve("shim.o").toString()), Map.of());
        assertEquals(0, result.exit(), result.output());
    }

    @Test
    void theHeaderIsValidCAndCxx() throws Exception
    {
        final Path c = directory.resolve("include.c");
        java.nio.file.Files.writeString(c,
            "#include \"ingot_trt_shim.h\"\nint main(void) { return INGOT_TRT_MAX_DIMS; }\n");
        final Result asC = run(List.of("gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I",
            "src/main/native", "-fsyntax-only", c.toString()), Map.of());
        assertEquals(0, asC.exit(), asC.output());
    }

    @Test
    void theBuildScriptSkipsWithItsReasonWhereTensorRtIsMissing() throws Exception
    {
        final Map<String, String> nowhere = Map.of("TENSORRT_HOME", directory.resolve("no-tensorrt").toString(),
            "INGOT_TRT_SEARCH_STANDARD", "0");
        final Result skipped = run(List.of("bash", "src/main/native/build.sh", directory.resolve("out").toString()),
            nowhere);
        assertEquals(0, skipped.exit(), skipped.output());
        assertTrue(skipped.output().contains("[ingot-trt-shim] SKIPPED: TensorRT 10 not found (no NvInferRuntime.h "
            + "+ libnvinfer.so.10 under TENSORRT_HOME=" + directory.resolve("no-tensorrt")), skipped.output());
        assertTrue(!java.nio.file.Files.exists(directory.resolve("out/libingot_trt_shim.so")));

        final Map<String, String> required = new java.util.HashMap<>(nowhere);
        required.put("INGOT_TRT_SHIM_REQUIRED", "1");
        final Result failed = run(List.of("bash", "src/main/native/build.sh", directory.resolve("out").toString()),
            required);
        assertEquals(2, failed.exit(), failed.output());
    }

    @Test
    void theBuildScriptNamesAHeaderWithoutItsLibrary() throws Exception
    {
        final Path home = directory.resolve("headers-only");
        java.nio.file.Files.createDirectories(home.resolve("include"));
        java.nio.file.Files.writeString(home.resolve("include/NvInferRuntime.h"), "// headers without libraries\n");
        final Result result = run(List.of("bash", "src/main/native/build.sh", directory.resolve("out").toString()),
            Map.of("TENSORRT_HOME", home.toString(), "INGOT_TRT_SEARCH_STANDARD", "0"));
        assertEquals(0, result.exit(), result.output());
        assertTrue(result.output().contains("found " + home.resolve("include") + "/NvInferRuntime.h but no "
            + "libnvinfer.so.10"), result.output());
    }

    private record Result(int exit, String output)
    {
    }

    private static Result run(final List<String> command, final Map<String, String> env)
        throws IOException, InterruptedException
    {
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(env);
        final Process process;
        try
        {
            process = builder.start();
        }
        catch (final IOException notInstalled)
        {
            Assumptions.abort(command.getFirst() + " is not available here: " + notInstalled.getMessage());
            throw notInstalled;
        }
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(300, TimeUnit.SECONDS), "timed out: " + command);
        return new Result(process.exitValue(), output);
    }
}
