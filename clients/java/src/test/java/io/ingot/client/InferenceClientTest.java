package io.ingot.client;

import io.ingot.client.shm.SystemSharedMemoryRegion;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What both clients promise, each case run over HTTP and over gRPC against the real server module: inference with
 * Triton's tensors and options, asynchronous calls, system shared memory, model control, and clear errors for a
 * server that is down, a model that does not exist, an input the model does not have and a response over the
 * client's limit.
 */
class InferenceClientTest
{
    private static LiveServer server;

    @BeforeAll
    static void start()
    {
        server = new LiveServer();
    }

    @AfterAll
    static void stop()
    {
        server.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"http", "grpc"})
    void addSubAnswersWithTheSumTheDifferenceAndTheRequestId(final String transport)
    {
        try (InferenceClient client = server.client(transport, ClientOptions.DEFAULTS))
        {
            assertTrue(client.isServerLive());
            assertTrue(client.isServerReady());
            assertTrue(client.isModelReady("add_sub", ""));
            final InferResult result = client.infer("add_sub", addSubInputs(), List.of(
                new InferRequestedOutput("OUTPUT0"), new InferRequestedOutput("OUTPUT1")),
                InferOptions.builder().requestId("req-7").build());
            assertEquals("add_sub", result.modelName());
            assertEquals("1", result.modelVersion());
            assertEquals("req-7", result.id());
            assertEquals("FP32", result.datatype("OUTPUT0"));
            assertArrayEquals(new long[] {1, 16}, result.shape("OUTPUT0"));
            final float[] sum = result.asFloats("OUTPUT0");
            final float[] difference = result.asFloats("OUTPUT1");
            for (int i = 0; i < 16; i++)
            {
                assertEquals(i + 1, sum[i]);
                assertEquals(i - 1, difference[i]);
            }
            final InferenceServerException absent = assertThrows(InferenceServerException.class,
                () -> result.asFloats("OUTPUT9"));
            assertEquals("The response does not contain results for output name OUTPUT9", absent.getMessage());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"http", "grpc"})
    void everyOutputComesBackWhenNoneIsNamedAndEveryDatatypeRoundTrips(final String transport)
    {
        try (InferenceClient client = server.client(transport, ClientOptions.DEFAULTS))
        {
            final InferResult mixed = client.infer("identity_mixed", List.of(
                new InferInput("IN_F", new long[] {1, 2}, "FP32").setData(new float[] {1.5f, -2.25f}),
                new InferInput("IN_I", new long[] {1, 2}, "INT64").setData(new long[] {Long.MIN_VALUE, 42}),
                new InferInput("IN_B", new long[] {1, 2}, "BOOL").setData(new boolean[] {true, false}, true)),
                List.of(), InferOptions.NONE);
            assertEquals(List.of("OUT_F", "OUT_I", "OUT_B"), List.copyOf(mixed.outputNames()));
            assertArrayEquals(new float[] {1.5f, -2.25f}, mixed.asFloats("OUT_F"));
            assertArrayEquals(new long[] {Long.MIN_VALUE, 42}, mixed.asLongs("OUT_I"));
            assertArrayEquals(new boolean[] {true, false}, mixed.asBooleans("OUT_B"));
            final InferenceServerException wrongType = assertThrows(InferenceServerException.class,
                () -> mixed.asInts("OUT_I"));
            assertEquals("output 'OUT_I' is INT64, which cannot be read as int[]", wrongType.getMessage());

            final InferResult strings = client.infer("identity_bytes", List.of(new InferInput("INPUT0",
                new long[] {3}, "BYTES").setStrings(List.of("", "zwölf", "x".repeat(1000)), true)), List.of(),
                InferOptions.NONE);
            assertEquals(List.of("", "zwölf", "x".repeat(1000)), strings.asStrings("OUTPUT0"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"http", "grpc"})
    void asynchronousInferencesAllCompleteWithTheirOwnResults(final String transport) throws Exception
    {
        try (InferenceClient client = server.client(transport, ClientOptions.DEFAULTS))
        {
            final List<CompletableFuture<InferResult>> futures = new ArrayList<>();
            for (int i = 0; i < 64; i++)
            {
                final float[] values = new float[8];
                java.util.Arrays.fill(values, i);
                futures.add(client.inferAsync("identity_fp32", List.of(new InferInput("INPUT0", new long[] {8}, "FP32")
                    .setData(values)), List.of(), InferOptions.builder().requestId(Integer.toString(i)).build()));
            }
            for (int i = 0; i < futures.size(); i++)
            {
                final InferResult result = futures.get(i).get(60, TimeUnit.SECONDS);
                assertEquals(Integer.toString(i), result.id());
                assertEquals(i, result.asFloats("OUTPUT0")[7]);
            }
            final CompletionException unknown = assertThrows(CompletionException.class, () -> client.inferAsync(
                "nope", addSubInputs(), List.of(), InferOptions.NONE).join());
            assertInstanceOf(InferenceServerException.class, unknown.getCause());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"http", "grpc"})
    void inputsAndOutputsInSystemSharedMemoryStayOutOfTheMessages(final String transport)
    {
        final String key = "/kserve-client-test-" + transport + "-" + ProcessHandle.current().pid();
        try (InferenceClient client = server.client(transport, ClientOptions.DEFAULTS);
             SystemSharedMemoryRegion region = SystemSharedMemoryRegion.create("io_" + transport, key, 256))
        {
            final float[] a = new float[16];
            final float[] b = new float[16];
            for (int i = 0; i < 16; i++)
            {
                a[i] = 10 * i;
                b[i] = i;
            }
            region.write(0, a);
            region.write(64, b);
            client.registerSystemSharedMemory("io_" + transport, key, 256, 0);
            try
            {
                final InferResult result = client.infer("add_sub", List.of(
                    new InferInput("INPUT0", new long[] {1, 16}, "FP32").setSharedMemory("io_" + transport, 64, 0),
                    new InferInput("INPUT1", new long[] {1, 16}, "FP32").setSharedMemory("io_" + transport, 64, 64)),
                    List.of(new InferRequestedOutput("OUTPUT0").setSharedMemory("io_" + transport, 64, 128),
                        new InferRequestedOutput("OUTPUT1").setSharedMemory("io_" + transport, 64, 192)),
                    InferOptions.NONE);
                final InferenceServerException inRegion = assertThrows(InferenceServerException.class,
                    () -> result.rawData("OUTPUT0"));
                assertTrue(inRegion.getMessage().contains("written to shared memory region 'io_" + transport + "'"),
                    inRegion.getMessage());
                final float[] sum = region.readFloats(128, 16);
                final float[] difference = region.readFloats(192, 16);
                for (int i = 0; i < 16; i++)
                {
                    assertEquals(11 * i, sum[i]);
                    assertEquals(9 * i, difference[i]);
                }
            }
            finally
            {
                client.unregisterSystemSharedMemory("io_" + transport);
            }
            final InferenceServerException unregistered = assertThrows(InferenceServerException.class,
                () -> client.infer("add_sub", List.of(
                    new InferInput("INPUT0", new long[] {1, 16}, "FP32").setSharedMemory("io_" + transport, 64, 0),
                    new InferInput("INPUT1", new long[] {1, 16}, "FP32").setSharedMemory("io_" + transport, 64, 64)),
                    List.of(), InferOptions.NONE));
            assertTrue(unregistered.message().contains("io_" + transport), unregistered.getMessage());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"http", "grpc"})
    void aModelThatDoesNotExistIsTheServersErrorWithItsStatus(final String transport)
    {
        try (InferenceClient client = server.client(transport, ClientOptions.DEFAULTS))
        {
            final InferenceServerException error = assertThrows(InferenceServerException.class,
                () -> client.infer("nope", addSubInputs(), List.of(), InferOptions.NONE));
            assertEquals("Request for unknown model: 'nope' is not found", error.message());
            assertEquals(transport.equals("http") ? "400" : "StatusCode.INVALID_ARGUMENT", error.status());
            assertEquals("[" + error.status() + "] Request for unknown model: 'nope' is not found",
                error.getMessage());
            if (transport.equals("http"))
            {
                assertFalse(client.isModelReady("nope", ""), "HTTP: any answer but 200 is not ready");
            }
            else
            {
                // Triton's gRPC ModelReady fails for a model it does not know (GetModel), and so does Ingot's.
                assertEquals("[StatusCode.INVALID_ARGUMENT] Request for unknown model: 'nope' is not found",
                    assertThrows(InferenceServerException.class, () -> client.isModelReady("nope", "")).getMessage());
            }

            final InferenceServerException unknownInput = assertThrows(InferenceServerException.class,
                () -> client.infer("add_sub", List.of(addSubInputs().get(0), new InferInput("INPUTX",
                    new long[] {1, 16}, "FP32").setData(new float[16])), List.of(), InferOptions.NONE));
            assertTrue(unknownInput.message().contains("'INPUTX'") && unknownInput.message().contains("add_sub"),
                unknownInput.getMessage());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"http", "grpc"})
    void aServerThatIsDownIsAConnectionError(final String transport) throws IOException
    {
        final int closedPort;
        try (ServerSocket socket = new ServerSocket(0))
        {
            closedPort = socket.getLocalPort();
        }
        final ClientOptions quick = ClientOptions.DEFAULTS.withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(5));
        try (InferenceClient client = transport.equals("http")
            ? new io.ingot.client.http.HttpInferenceServerClient("127.0.0.1:" + closedPort, false, quick)
            : new io.ingot.client.grpc.GrpcInferenceServerClient("127.0.0.1:" + closedPort, false, quick))
        {
            final InferenceServerException error = assertThrows(InferenceServerException.class,
                () -> client.infer("add_sub", addSubInputs(), List.of(), InferOptions.NONE));
            if (transport.equals("http"))
            {
                assertTrue(error.getMessage().startsWith("HTTP client failed: Couldn't connect to server (http://"
                    + "127.0.0.1:" + closedPort + "/v2/models/add_sub/infer"), error.getMessage());
            }
            else
            {
                assertEquals("StatusCode.UNAVAILABLE", error.status());
                assertTrue(error.message().startsWith("failed to connect to all addresses; last error: ")
                    && error.message().contains("127.0.0.1:" + closedPort), error.getMessage());
            }
            assertThrows(InferenceServerException.class, client::isServerLive);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"http", "grpc"})
    void aResponseLargerThanTheClientsLimitIsRefusedNamingTheLimit(final String transport)
    {
        try (InferenceClient client = server.client(transport, ClientOptions.DEFAULTS.withMaxResponseBytes(4096)))
        {
            final InferResult small = client.infer("identity_fp32", List.of(new InferInput("INPUT0",
                new long[] {16}, "FP32").setData(new float[16])), List.of(), InferOptions.NONE);
            assertEquals(16, small.asFloats("OUTPUT0").length);
            final InferenceServerException tooLarge = assertThrows(InferenceServerException.class,
                () -> client.infer("identity_fp32", List.of(new InferInput("INPUT0", new long[] {4096}, "FP32")
                    .setData(new float[4096])), List.of(), InferOptions.NONE));
            assertTrue(tooLarge.getMessage().contains("exceeds this client's limit of 4096 bytes "
                + "(ClientOptions.maxResponseBytes)"), tooLarge.getMessage());
            assertTrue(client.isServerReady(), "the client keeps working after a refused response");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"http", "grpc"})
    void modelsUnloadAndLoadAgain(final String transport)
    {
        try (InferenceClient client = server.client(transport, ClientOptions.DEFAULTS))
        {
            client.unloadModel("add_sub_int", false);
            assertFalse(client.isModelReady("add_sub_int", ""));
            client.loadModel("add_sub_int", null);
            assertTrue(client.isModelReady("add_sub_int", ""));
            final InferResult result = client.infer("add_sub_int", List.of(
                new InferInput("INPUT0", new long[] {4}, "INT32").setData(new int[] {1, 2, 3, 4}),
                new InferInput("INPUT1", new long[] {4}, "INT32").setData(new int[] {4, 3, 2, 1})), List.of(),
                InferOptions.NONE);
            assertArrayEquals(new int[] {5, 5, 5, 5}, result.asInts("OUTPUT0"));
        }
    }

    static List<InferInput> addSubInputs()
    {
        final float[] a = new float[16];
        final float[] b = new float[16];
        for (int i = 0; i < 16; i++)
        {
            a[i] = i;
            b[i] = 1;
        }
        return List.of(new InferInput("INPUT0", new long[] {1, 16}, "FP32").setData(a),
            new InferInput("INPUT1", new long[] {1, 16}, "FP32").setData(b));
    }
}
