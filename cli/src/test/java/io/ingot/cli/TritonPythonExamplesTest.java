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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Triton's python_backend examples, unchanged, with their own clients against {@code ingot serve}: add_sub,
 * auto_complete, bls (sync and async; the {@code pytorch} model they call is Triton's PyTorch example where
 * {@code torch} imports, else the add_sub model under that name, as the example allows), bls_decoupled (sync and
 * async), decoupled (repeat and square, over gRPC streams) and custom_metrics (its family on /metrics). The repository
 * is the one their READMEs build, in a temporary folder; the clients talk to Triton's default ports, in a private
 * network namespace. Skipped with the reason where Triton's sources or the clients' Python modules are absent.
 * {@code python/}'s own tests assert the same behaviours with models of their own.
 */
class TritonPythonExamplesTest
{
    private static final Map<String, String> CLIENTS = new LinkedHashMap<>();

    static
    {
        CLIENTS.put("add_sub", "add_sub/client.py");
        CLIENTS.put("auto_complete", "auto_complete/client.py");
        CLIENTS.put("bls_sync", "bls/sync_client.py");
        CLIENTS.put("bls_async", "bls/async_client.py");
        CLIENTS.put("bls_decoupled_sync", "bls_decoupled/sync_client.py");
        CLIENTS.put("bls_decoupled_async", "bls_decoupled/async_client.py");
        CLIENTS.put("repeat", "decoupled/repeat_client.py");
        CLIENTS.put("square", "decoupled/square_client.py");
        CLIENTS.put("custom_metrics", "custom_metrics/client.py");
    }

    @TempDir
    static Path work;
    private static Map<String, TritonSources.Result> results;
    private static boolean realPytorch;

    @BeforeAll
    static void runTheExamples() throws Exception
    {
        final Path sources = TritonSources.require(TritonPythonExamplesTest.class, "numpy", "tritonclient.http",
            "tritonclient.grpc", "requests");
        final Path examples = sources.resolve("python_backend").resolve("examples");
        final Path models = work.resolve("models");
        // The READMEs' steps, one repository for all of them.
        copyModel(examples, "add_sub/model.py", "add_sub/config.pbtxt", models, "add_sub");
        TritonSources.copy(examples.resolve("auto_complete/nobatch_model.py"),
            models.resolve("nobatch_auto_complete/1/model.py"));
        TritonSources.copy(examples.resolve("auto_complete/batch_model.py"),
            models.resolve("batch_auto_complete/1/model.py"));
        copyModel(examples, "bls/sync_model.py", "bls/sync_config.pbtxt", models, "bls_sync");
        copyModel(examples, "bls/async_model.py", "bls/async_config.pbtxt", models, "bls_async");
        realPytorch = new ProcessBuilder(TritonSources.PYTHON, "-c", "import torch").start().waitFor() == 0;
        if (realPytorch)
        {
            copyModel(examples, "pytorch/model.py", "pytorch/config.pbtxt", models, "pytorch");
        }
        else
        {
            TritonSources.copy(examples.resolve("add_sub/model.py"), models.resolve("pytorch/1/model.py"));
            Files.writeString(models.resolve("pytorch/config.pbtxt"), Files.readString(examples.resolve(
                "add_sub/config.pbtxt")).replace("name: \"add_sub\"", "name: \"pytorch\""));
        }
        copyModel(examples, "bls_decoupled/sync_model.py", "bls_decoupled/sync_config.pbtxt", models,
            "bls_decoupled_sync");
        copyModel(examples, "bls_decoupled/async_model.py", "bls_decoupled/async_config.pbtxt", models,
            "bls_decoupled_async");
        copyModel(examples, "decoupled/repeat_model.py", "decoupled/repeat_config.pbtxt", models, "repeat_int32");
        copyModel(examples, "decoupled/square_model.py", "decoupled/square_config.pbtxt", models, "square_int32");
        copyModel(examples, "custom_metrics/model.py", "custom_metrics/config.pbtxt", models, "custom_metrics");

        final Map<String, String> commands = new LinkedHashMap<>();
        CLIENTS.forEach((name, client) -> commands.put(name, TritonSources.PYTHON + " -P " + examples.resolve(client)));
        final Path out = Files.createDirectories(work.resolve("out"));
        results = TritonSources.serveAndRun(models, commands, work, Map.of("PYTHONPATH",
            sources.resolve("py").toString()), out);
    }

    private static void copyModel(final Path examples, final String model, final String config, final Path models,
        final String name) throws Exception
    {
        TritonSources.copy(examples.resolve(model), models.resolve(name).resolve("1").resolve("model.py"));
        TritonSources.copy(examples.resolve(config), models.resolve(name).resolve("config.pbtxt"));
    }

    @TestFactory
    List<DynamicTest> eachExamplePassesWithItsOwnClient()
    {
        return CLIENTS.keySet().stream().map(name -> DynamicTest.dynamicTest(name, () ->
        {
            final TritonSources.Result result = results.get(name);
            assertNotNull(result, name + " did not run; the server's log:\n" + results.get("serve").tail());
            assertEquals(0, result.status(), name + " failed:\n" + result.tail() + "\n--- serve.log:\n"
                + results.get("serve").tail());
            assertTrue(result.output().contains("PASS"), name + " did not print PASS:\n" + result.tail());
        })).toList();
    }
}
