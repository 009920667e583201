package io.ingot.cli;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.server.FrontendOptions;
import io.ingot.server.ServerFrontends;
import io.ingot.tensor.DataType;
import io.ingot.testing.ChildProcess;
import io.ingot.testing.TestFiles;
import io.ingot.testing.TestModels;
import io.ingot.testing.TritonSources;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The article's TensorFlow models in the example repository, as a user meets them: {@code ingot models validate
 * examples/models} lists {@code my_model} and {@code priority_model} as valid SavedModel models (the priority model in
 * the tutorial's priority form, with three levels), both answer the article's request over HTTP ({@code input_1}
 * [1, 16] FP32 in, {@code output_1} requested) with their configurations unchanged, and the article's own client
 * program ({@code clients/python/seed_client.py}, Triton's {@code tritonclient}) prints its ten output shapes.
 */
class TensorFlowExamplesTest
{
    /** The example repository, as this module's tests see it (Maven runs them in cli/). */
    private static final Path EXAMPLES = Path.of("..", "examples", "models");

    /** The article's client program, unchanged. */
    private static final Path SEED_CLIENT = Path.of("..", "clients", "python", "seed_client.py");

    /** The address the article's program sends to. */
    private static final String ARTICLE_ADDRESS = "localhost:8000";

    private static final int WIDTH = 16;

    @Test
    void validateListsTheArticlesModelsAsValid()
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int code = IngotCli.run(new String[] {"models", "validate", EXAMPLES.toString()}, CoreOpener.DEFAULT,
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        final String table = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8) + table);
        assertTrue(row(table, "my_model").contains("tensorflow_savedmodel"), table);
        assertTrue(row(table, "my_model").contains("dynamic (max 8, preferred [4,8], delay 2000us)"), table);
        // The tutorial form creates dynamic_batching (preferred size normalized to max_batch_size) with 3 levels.
        assertTrue(row(table, "priority_model").contains("tensorflow_savedmodel"), table);
        assertTrue(row(table, "priority_model").contains("dynamic (max 8, preferred [8], 3 priority levels)"), table);
    }

    private static String row(final String table, final String model)
    {
        return table.lines().filter(line -> line.startsWith(model + " ")).findFirst()
            .orElseThrow(() -> new AssertionError(model + " is not listed:\n" + table));
    }

    @Test
    void bothModelsAnswerTheArticlesRequestOverHttpAsTheyDoInProcess(@TempDir final Path repository) throws Exception
    {
        copyArticleModels(repository);
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repository).build());
            ServerFrontends frontends = ServerFrontends.start(core, FrontendOptions.defaults().withPorts(0, -1, -1));
            HttpClient http = HttpClient.newHttpClient())
        {
            for (final String model : new String[] {"my_model", "priority_model"})
            {
                assertTrue(core.isModelReady(model, -1), () -> core.repositoryIndex(false).toString());
                final List<float[]> rows = new ArrayList<>();
                final List<float[]> expected = new ArrayList<>();
                final List<CompletableFuture<HttpResponse<byte[]>>> sent = new ArrayList<>();
                for (int r = 0; r < 10; r++)
                {
                    final float[] row = new float[WIDTH];
                    for (int i = 0; i < WIDTH; i++)
                    {
                        row[i] = (r * WIDTH + i) / 64f - 1;
                    }
                    rows.add(row);
                    expected.add(inProcess(core, model, row));
                }
                final var before = core.modelStatistics(model, -1).getFirst();
                for (final float[] row : rows)
                {
                    sent.add(http.sendAsync(tritonClientRequest(frontends.httpPort(), model, row),
                        HttpResponse.BodyHandlers.ofByteArray()));
                }
                for (int r = 0; r < 10; r++)
                {
                    final HttpResponse<byte[]> response = sent.get(r).join();
                    assertEquals(200, response.statusCode(), () -> new String(response.body(),
                        StandardCharsets.UTF_8));
                    assertArrayEquals(expected.get(r), output1(response), model + " request " + r);
                }
                final var after = core.modelStatistics(model, -1).getFirst();
                assertEquals(10, after.inferenceCount() - before.inferenceCount(), after.toString());
                assertTrue(after.executionCount() - before.executionCount() < 10,
                    () -> "the ten concurrent HTTP requests to " + model + " were not batched: " + after);
            }
        }
    }

    /** The request tritonclient.http sends for the article's program: a binary input_1, output_1 asked for. */
    private static HttpRequest tritonClientRequest(final int port, final String model, final float[] row)
    {
        final byte[] header = ("{\"inputs\":[{\"name\":\"input_1\",\"shape\":[1," + WIDTH + "],\"datatype\":\"FP32\","
            + "\"parameters\":{\"binary_data_size\":" + 4 * WIDTH + "}}],\"outputs\":[{\"name\":\"output_1\","
            + "\"parameters\":{\"binary_data\":true}}]}").getBytes(StandardCharsets.UTF_8);
        final ByteBuffer body = ByteBuffer.allocate(header.length + 4 * WIDTH).order(ByteOrder.LITTLE_ENDIAN);
        body.put(header);
        for (final float value : row)
        {
            body.putFloat(value);
        }
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v2/models/" + model + "/infer"))
            .header("Inference-Header-Content-Length", Integer.toString(header.length))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body.array())).build();
    }

    private static final Pattern OUTPUT = Pattern.compile("\"name\":\"output_1\",\"datatype\":\"FP32\",\"shape\":"
        + "\\[1,16\\],\"parameters\":\\{\"binary_data_size\":64}");

    /** @return output_1's values, after checking its name, type and shape in the JSON header */
    private static float[] output1(final HttpResponse<byte[]> response)
    {
        final int headerLength = Integer.parseInt(response.headers().firstValue("Inference-Header-Content-Length")
            .orElseThrow());
        final String header = new String(response.body(), 0, headerLength, StandardCharsets.UTF_8);
        final Matcher matcher = OUTPUT.matcher(header);
        assertTrue(matcher.find(), header);
        assertEquals(headerLength + 4 * WIDTH, response.body().length, header);
        final ByteBuffer data = ByteBuffer.wrap(response.body(), headerLength, 4 * WIDTH)
            .order(ByteOrder.LITTLE_ENDIAN);
        final float[] values = new float[WIDTH];
        for (int i = 0; i < WIDTH; i++)
        {
            values[i] = data.getFloat();
        }
        return values;
    }

    private static float[] inProcess(final InferenceCore core, final String model, final float[] row)
    {
        try (Arena arena = Arena.ofShared())
        {
            final MemorySegment input = arena.allocateFrom(ValueLayout.JAVA_FLOAT, row);
            try (InferenceResponse response = TestModels.await(core.submit(new InferenceRequest(model)
                .addInput("input_1", DataType.FP32, new long[] {1, WIDTH}, input))).throwIfError())
            {
                assertArrayEquals(new long[] {1, WIDTH}, response.output("output_1").shape());
                return response.output("output_1").data().toArray(ValueLayout.JAVA_FLOAT);
            }
        }
    }

    @Test
    void theArticlesClientProgramRunsUnchanged(@TempDir final Path repository) throws Exception
    {
        final Path library = TritonSources.require("py/tritonclient", "the article's client program (tritonclient)");
        final Map<String, String> environment = Map.of("PYTHONPATH", library.getParent().toString());
        final String python = pythonWithTritonClient(environment);
        copyArticleModels(repository);
        final String program = Files.readString(SEED_CLIENT);
        assertTrue(program.contains("TRITON_SERVER_URL = \"" + ARTICLE_ADDRESS + "\""), program);
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repository).build());
            ServerFrontends frontends = startOnArticlePortIfFree(core))
        {
            Path script = SEED_CLIENT.toAbsolutePath().normalize();
            if (frontends.httpPort() != 8000)
            {
                // Port 8000 is taken on this machine: the same program, sent to the port this test serves on.
                script = repository.resolve("seed_client.py");
                Files.writeString(script, program.replace(ARTICLE_ADDRESS, "localhost:" + frontends.httpPort()));
            }
            try (ChildProcess client = ChildProcess.start(List.of(python, "-P", script.toString()), environment))
            {
                assertEquals(0, client.awaitExit(120), client.output());
                final String output = client.output();
                for (int i = 1; i <= 10; i++)
                {
                    assertTrue(output.contains("Request " + i + ": Output shape = (1, 16)"), output);
                }
                assertEquals(10, output.lines().filter(line -> line.endsWith("Output shape = (1, 16)")).count(),
                    output);
            }
        }
    }

    /**
     * @return a Python 3 that imports {@code tritonclient.http} (Debian's, where numpy, gevent, geventhttpclient and
     *         python-rapidjson come from {@code python3-numpy}, {@code python3-geventhttpclient} and
     *         {@code python3-rapidjson}); the test is skipped with what failed where there is none
     */
    private static String pythonWithTritonClient(final Map<String, String> environment) throws Exception
    {
        final StringBuilder failures = new StringBuilder();
        for (final String python : new String[] {"/usr/bin/python3", "python3"})
        {
            try (ChildProcess probe = ChildProcess.start(List.of(python, "-P", "-c", "import tritonclient.http"),
                environment))
            {
                if (probe.awaitExit(60) == 0)
                {
                    return python;
                }
                failures.append('\n').append(python).append(": ").append(probe.output());
            }
            catch (final IOException absent)
            {
                failures.append('\n').append(python).append(": ").append(absent.getMessage());
            }
        }
        return Assumptions.abort("no python3 here imports tritonclient.http (it needs numpy, gevent, geventhttpclient"
            + " and python-rapidjson: Debian's python3-numpy, python3-geventhttpclient, python3-rapidjson), so the"
            + " article's client program is skipped:" + failures);
    }

    /** Serves HTTP on the article's port 8000 when it is free, else on any free port. */
    private static ServerFrontends startOnArticlePortIfFree(final InferenceCore core)
    {
        try
        {
            return ServerFrontends.start(core, FrontendOptions.defaults().withPorts(8000, -1, -1));
        }
        catch (final RuntimeException taken)
        {
            return ServerFrontends.start(core, FrontendOptions.defaults().withPorts(0, -1, -1));
        }
    }

    /** Copies my_model and priority_model as they are, configurations and generated SavedModels. */
    private static void copyArticleModels(final Path repository) throws IOException
    {
        for (final String model : new String[] {"my_model", "priority_model"})
        {
            final Path example = EXAMPLES.resolve(model);
            final Path copy = TestFiles.copyTree(example, repository.resolve(model));
            assertArrayEquals(Files.readAllBytes(example.resolve("config.pbtxt")),
                Files.readAllBytes(copy.resolve("config.pbtxt")), "the article's configuration is served unchanged");
        }
    }
}
