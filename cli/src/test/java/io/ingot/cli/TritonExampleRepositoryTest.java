package io.ingot.cli;

import io.ingot.testing.ChildProcess;
import io.ingot.testing.Ports;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Triton's own example repository ({@code server/docs/examples/model_repository}: {@code simple},
 * {@code simple_identity} (a Python model), {@code simple_int8}, {@code simple_string}, {@code simple_sequence} and
 * {@code simple_dyna_sequence}, whose CORRID control is {@code TYPE_UINT64}), copied with its files unchanged, loads
 * in one {@code ingot serve} (with Triton's default {@code --exit-on-error}, so every model must load), and Triton's
 * four sequence client examples ({@code client/src/python/examples}) pass against it unchanged, as do its plain and
 * string HTTP and gRPC examples. {@code simple_dyna_sequence} answers a sequence whose ID needs all 64 bits as its
 * graph says: {@code OUTPUT = READY * (INPUT + START + END * int32(CORRID))}.
 *
 * <p>Triton's files are not in this repository: the test finds them through {@value #SOURCES_ENV} (default
 * {@code <project root>/../triton-sources}, with Triton's Python client library under {@code py/}) and is skipped,
 * saying why, where they or the client's Python packages are absent. {@code onnx}'s {@code SequenceModelsTest}
 * and {@code SequenceTypesTest} assert the same behaviour on models of their own everywhere.
 */
class TritonExampleRepositoryTest
{
    /** Environment variable naming the folder of Triton's extracted repositories. */
    static final String SOURCES_ENV = "INGOT_TRITON_SOURCES";
    private static final List<String> MODELS = List.of("simple", "simple_identity", "simple_int8", "simple_string",
        "simple_sequence", "simple_dyna_sequence");
    private static final List<String> CLIENTS = List.of("simple_http_sequence_sync_infer_client.py",
        "simple_grpc_sequence_sync_infer_client.py", "simple_grpc_sequence_stream_infer_client.py",
        "simple_grpc_aio_sequence_stream_infer_client.py", "simple_http_string_infer_client.py",
        "simple_grpc_string_infer_client.py", "simple_http_infer_client.py", "simple_grpc_infer_client.py");

    @TempDir
    static Path repository;

    private static Path sources;
    private static ChildProcess server;
    private static int httpPort;
    private static int grpcPort;

    @BeforeAll
    static void serveTritonsExamples() throws Exception
    {
        final String configured = System.getenv(SOURCES_ENV);
        sources = configured != null && !configured.isBlank() ? Path.of(configured)
            : Path.of("..", "..", "triton-sources").toAbsolutePath().normalize();
        final Path examples = sources.resolve("server/docs/examples/model_repository");
        Assumptions.assumeTrue(Files.isDirectory(examples), "Triton's sources are not at " + sources + " (set "
            + SOURCES_ENV + " to the folder holding server/, client/ and py/)");
        Assumptions.assumeTrue(python("-c", "import tritonclient.grpc.aio, tritonclient.http, gevent") == 0,
            "Triton's Python client (" + sources.resolve("py") + ") or its packages (grpcio, gevent, aiohttp) are"
                + " not importable by " + python3());
        for (final String model : MODELS)
        {
            copy(examples.resolve(model), repository.resolve(model));
        }
        httpPort = Ports.free();
        grpcPort = Ports.free();
        server = ChildProcess.start(IngotCli.class, "serve", "--model-repository", repository.toString(),
            "--http-port", Integer.toString(httpPort), "--grpc-port", Integer.toString(grpcPort),
            "--metrics-port", Integer.toString(Ports.free()));
        server.awaitLine("Ingot is serving", 180);
    }

    @AfterAll
    static void stop() throws InterruptedException
    {
        if (server != null)
        {
            server.close();
        }
    }

    @Test
    void tritonsClientExamplesPassUnchanged() throws Exception
    {
        final List<String> failures = new ArrayList<>();
        for (final String client : CLIENTS)
        {
            final String url = "127.0.0.1:" + (client.contains("http") ? httpPort : grpcPort);
            final Path script = sources.resolve("client/src/python/examples").resolve(client);
            final Process process = pythonProcess(script.toString(), "-u", url);
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            final boolean exited = process.waitFor(120, TimeUnit.SECONDS);
            // Each example exits 1 on a wrong answer; those that end by printing "PASS" must print it.
            final boolean printsPass = Files.readString(script).contains("print(\"PASS");
            if (!exited || process.exitValue() != 0 || printsPass && !output.contains("PASS"))
            {
                failures.add(client + " (exit " + (exited ? process.exitValue() : "timeout") + "):\n" + output);
            }
        }
        assertEquals(List.of(), failures, () -> "server output:\n" + server.output());
    }

    @Test
    void theDynaSequenceTakesAUint64CorrelationId() throws Exception
    {
        // 3 * 2^32 + 1000 needs more than 32 bits; the model casts CORRID to INT32, which keeps 1000.
        final String id = Long.toUnsignedString(3L * (1L << 32) + 1000);
        final int[] values = {11, 7, 5};
        final int[] expected = {12, 7, 1005};
        try (HttpClient http = HttpClient.newHttpClient())
        {
            for (int i = 0; i < values.length; i++)
            {
                final String body = "{\"parameters\":{\"sequence_id\":" + id + ",\"sequence_start\":" + (i == 0)
                    + ",\"sequence_end\":" + (i == values.length - 1) + "},\"inputs\":[{\"name\":\"INPUT\","
                    + "\"shape\":[1,1],\"datatype\":\"INT32\",\"data\":[" + values[i] + "]}]}";
                final HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + httpPort + "/v2/models/simple_dyna_sequence/infer")).POST(HttpRequest.BodyPublishers
                    .ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, response.statusCode(), response.body());
                assertTrue(response.body().replace(" ", "").contains("\"data\":[" + expected[i] + "]"),
                    "request " + i + ": " + response.body());
            }
        }
    }

    private static void copy(final Path from, final Path to) throws IOException
    {
        try (Stream<Path> files = Files.walk(from))
        {
            for (final Path file : files.toList())
            {
                final Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file))
                {
                    Files.createDirectories(target);
                }
                else
                {
                    Files.copy(file, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    private static Process pythonProcess(final String... args) throws IOException
    {
        final List<String> command = new ArrayList<>(List.of(python3(), "-P"));
        command.addAll(List.of(args));
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("PYTHONPATH", sources.resolve("py").toString());
        return builder.start();
    }

    /** @return Debian's interpreter, where Triton's client packages are installed, else the one on the PATH */
    private static String python3()
    {
        return Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : ChildProcess.python3();
    }

    private static int python(final String... args) throws IOException, InterruptedException
    {
        final Process process = pythonProcess(args);
        process.getInputStream().readAllBytes();
        return process.waitFor(60, TimeUnit.SECONDS) ? process.exitValue() : -1;
    }
}
