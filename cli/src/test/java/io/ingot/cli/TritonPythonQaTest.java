package io.ingot.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Triton's own test of its Python backend, {@code server/qa/L0_backend_python/python_test.py}, unchanged, against
 * {@code ingot serve} on the repository its {@code test.sh} builds (the identity models with its edits, init_args,
 * optional, non_contiguous, string, string_fixed, pytorch_fp32_fp32, dlpack_identity, delayed_model), with its server
 * flags. Every case runnable here runs: all but {@code test_bf16} (needs the {@code ml_dtypes} package, which Debian
 * does not have; a stand-in module lets the file import) and the CUDA ones ({@code test_growth_error},
 * {@code test_gpu_tensor_error}, {@code test_dlpack_tensor_error}); {@code TEST_JETSON=1}, the test's own switch,
 * turns off its shared-memory leak probe, which needs Triton's compiled {@code triton_shm_monitor}. Skipped with the
 * reason where Triton's sources or the client's Python modules are absent. Beside them,
 * {@code qa/L0_backend_python/custom_metrics}: Triton's unit tests of custom metrics, which its model runs.
 */
class TritonPythonQaTest
{
    private static final List<String> CASES = List.of("test_async_infer", "test_bool", "test_infer_pytorch",
        "test_init_args", "test_unicode", "test_optional_input", "test_string", "test_non_contiguous");

    @TempDir
    static Path work;
    private static Map<String, TritonSources.Result> results;
    private static boolean torch;

    /** @return the cases run here: test_infer_pytorch only where torch imports */
    private static List<String> cases()
    {
        return CASES.stream().filter(name -> torch || !name.equals("test_infer_pytorch")).toList();
    }

    @BeforeAll
    static void runTheCases() throws Exception
    {
        final Path sources = TritonSources.require(TritonPythonQaTest.class, "numpy", "tritonclient.http",
            "tritonclient.grpc", "requests");
        torch = new ProcessBuilder(TritonSources.PYTHON, "-c", "import torch").start().waitFor() == 0;
        if (!torch)
        {
            System.out.println("TritonPythonQaTest: test_infer_pytorch is not run: /usr/bin/python3 cannot import "
                + "torch (Debian: python3-torch), which its model needs");
        }
        final Path qa = sources.resolve("server").resolve("qa");
        final Path pythonModels = qa.resolve("python_models");
        // test.sh's repository, where init_args expects it: $TRITON_DIR/qa/L0_backend_python/models.
        final Path models = work.resolve("qa/L0_backend_python/models");
        for (final String model : List.of("identity_fp32", "pytorch_fp32_fp32", "delayed_model", "init_args",
            "optional", "non_contiguous", "string", "string_fixed", "dlpack_identity", "custom_metrics"))
        {
            if (model.startsWith("pytorch") && !torch)
            {
                continue;
            }
            TritonSources.copy(pythonModels.resolve(model).resolve("model.py"),
                models.resolve(model).resolve("1").resolve("model.py"));
            TritonSources.copy(pythonModels.resolve(model).resolve("config.pbtxt"),
                models.resolve(model).resolve("config.pbtxt"));
        }
        final String identity = Files.readString(models.resolve("identity_fp32/config.pbtxt"));
        final Path identityModel = models.resolve("identity_fp32/1/model.py");
        variant(models, identityModel, "identity_uint8", identity.replace("TYPE_FP32", "TYPE_UINT8")
            .replaceAll("(?m)^max_batch_size:.*", "max_batch_size: 8")
            + "dynamic_batching { preferred_batch_size: [8], max_queue_delay_microseconds: 12000000 }\n");
        variant(models, identityModel, "identity_uint8_nobatch", identity.replace("TYPE_FP32", "TYPE_UINT8")
            .replaceAll("(?m)^max_batch_size:.*", ""));
        variant(models, identityModel, "identity_uint32", identity.replace("TYPE_FP32", "TYPE_UINT32"));
        variant(models, identityModel, "identity_bool", identity.replace("TYPE_FP32", "TYPE_BOOL"));
        final Path pytorch = models.resolve("pytorch_fp32_fp32/config.pbtxt");
        if (torch)
        {
            Files.writeString(pytorch, Files.readString(pytorch).replaceAll("(?m)^name:.*",
                "name: \"pytorch_fp32_fp32\""));
        }
        Files.writeString(models.resolve("init_args/config.pbtxt"), Files.readString(
            models.resolve("init_args/config.pbtxt")).replace("TRITON_DIR_PATH", work.toString()));
        final Path standIns = Files.createDirectories(work.resolve("stand-ins"));
        Files.writeString(standIns.resolve("ml_dtypes.py"), "# A stand-in so that python_test.py imports; only "
            + "test_bf16, which is not run, uses ml_dtypes.\n");

        final Map<String, String> commands = new LinkedHashMap<>();
        for (final String test : cases())
        {
            commands.put(test, TritonSources.PYTHON + " -m unittest -v python_test.PythonTest." + test);
        }
        // qa/L0_backend_python/custom_metrics: the model runs Triton's unit tests of custom metrics in execute (they
        // scrape /metrics on port 8002) and answers 1 when they passed; its driver, test_infer_shm_leak.py, needs
        // pytest, so its one call is made here as it makes it.
        commands.put("custom_metrics", TritonSources.PYTHON + " -P -c \"import tritonclient.grpc as g; "
            + "r = g.InferenceServerClient('localhost:8001').infer('custom_metrics', [], client_timeout=240); "
            + "assert r.as_numpy('OUTPUT0') == [1], 'python_unittest failed'; print('OK: custom_metrics')\"");
        final Path out = Files.createDirectories(work.resolve("out"));
        results = TritonSources.serveAndRun(models, commands, qa.resolve("L0_backend_python"),
            Map.of("PYTHONPATH", sources.resolve("py") + ":" + standIns, "TRITON_DIR", work.toString(),
                "TEST_JETSON", "1"), out, "--log-verbose=1", "--allow-client-shm=true",
            "--backend-config=python,shm-default-byte-size=5242880");
    }

    private static void variant(final Path models, final Path modelPy, final String name, final String config)
        throws Exception
    {
        TritonSources.copy(modelPy, models.resolve(name).resolve("1").resolve("model.py"));
        Files.writeString(models.resolve(name).resolve("config.pbtxt"),
            config.replaceAll("(?m)^name:.*", "name: \"" + name + "\""));
    }

    @TestFactory
    List<DynamicTest> everyRunnableCasePasses()
    {
        return Stream.concat(cases().stream(), Stream.of("custom_metrics"))
            .map(name -> DynamicTest.dynamicTest(name, () ->
        {
            final TritonSources.Result result = results.get(name);
            assertNotNull(result, name + " did not run; the server's log:\n" + results.get("serve").tail());
            assertEquals(0, result.status(), name + " failed:\n" + result.tail() + "\n--- serve.log:\n"
                + results.get("serve").tail());
            assertTrue(result.output().contains("\nOK") || result.output().contains("OK: "), name + ":\n"
                + result.tail());
        })).toList();
    }
}
