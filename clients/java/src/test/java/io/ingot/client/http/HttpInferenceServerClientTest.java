package io.ingot.client.http;

import com.google.gson.JsonObject;
import io.ingot.client.ClientOptions;
import io.ingot.client.InferInput;
import io.ingot.client.InferOptions;
import io.ingot.client.InferRequestedOutput;
import io.ingot.client.InferResult;
import io.ingot.client.InferenceServerException;
import io.ingot.client.LiveServer;
import io.ingot.client.shm.SystemSharedMemoryRegion;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What only the HTTP client does: JSON tensors both ways, the JSON of the metadata calls, Triton's client checks. */
class HttpInferenceServerClientTest
{
    private static LiveServer server;
    private static HttpInferenceServerClient client;

    @BeforeAll
    static void start()
    {
        server = new LiveServer();
        client = new HttpInferenceServerClient(server.httpUrl());
    }

    @AfterAll
    static void stop()
    {
        client.close();
        server.close();
    }

    @Test
    void jsonTensorsGiveTheSameResultsAsBinaryOnes()
    {
        final List<InferRequestedOutput> asJson = List.of(new InferRequestedOutput("OUTPUT0", false, 0),
            new InferRequestedOutput("OUTPUT1", false, 0));
        final InferResult json = client.infer("add_sub_int", List.of(
            new InferInput("INPUT0", new long[] {4}, "INT32").setData(new int[] {1, -2, Integer.MAX_VALUE, 0}, false),
            new InferInput("INPUT1", new long[] {4}, "INT32").setData(new int[] {1, 2, 0, Integer.MIN_VALUE}, false)),
            asJson, InferOptions.NONE);
        assertArrayEquals(new int[] {2, 0, Integer.MAX_VALUE, Integer.MIN_VALUE}, json.asInts("OUTPUT0"));
        assertTrue(json.output("OUTPUT0").parameters().isEmpty(), "no binary_data_size: the data was JSON");

        final InferResult strings = client.infer("identity_bytes", List.of(new InferInput("INPUT0", new long[] {2},
            "BYTES").setStrings(List.of("one", "zwei"), false)), List.of(new InferRequestedOutput("OUTPUT0", false,
            0)), InferOptions.NONE);
        assertEquals(List.of("one", "zwei"), strings.asStrings("OUTPUT0"));
    }

    @Test
    void metadataConfigurationStatisticsAndTheIndexAreTheServersJson()
    {
        final JsonObject server = client.serverMetadata();
        assertEquals("ingot", server.get("name").getAsString());
        assertTrue(server.getAsJsonArray("extensions").toString().contains("binary_tensor_data"), server.toString());
        final JsonObject model = client.modelMetadata("add_sub", "");
        assertEquals("INPUT0", model.getAsJsonArray("inputs").get(0).getAsJsonObject().get("name").getAsString());
        assertEquals(8, client.modelConfig("add_sub", "").get("max_batch_size").getAsInt());
        client.infer("add_sub_int", List.of(new InferInput("INPUT0", new long[] {4}, "INT32").setData(new int[4]),
            new InferInput("INPUT1", new long[] {4}, "INT32").setData(new int[4])), List.of(), InferOptions.NONE);
        final JsonObject stats = client.inferenceStatistics("add_sub_int", "");
        assertTrue(stats.getAsJsonArray("model_stats").get(0).getAsJsonObject().get("inference_count").getAsLong() >= 1,
            stats.toString());
        assertTrue(client.modelRepositoryIndex().getAsJsonArray("models").toString().contains("identity_mixed"));
    }

    @Test
    void registeredRegionsAreListedByStatus()
    {
        final String key = "/kserve-client-http-status-" + ProcessHandle.current().pid();
        try (SystemSharedMemoryRegion region = SystemSharedMemoryRegion.create("listed", key, 128))
        {
            client.registerSystemSharedMemory("listed", key, 128, 0);
            try
            {
                final JsonObject status = client.systemSharedMemoryStatus("listed");
                assertEquals(key, status.getAsJsonArray("regions").get(0).getAsJsonObject().get("key").getAsString());
                final InferenceServerException twice = assertThrows(InferenceServerException.class,
                    () -> client.registerSystemSharedMemory("listed", key, 128, 0));
                assertEquals("400", twice.status());
            }
            finally
            {
                client.unregisterSystemSharedMemory("listed");
            }
            assertEquals(128, region.byteSize());
        }
    }

    @Test
    void clientSideChecksAnswerWithTritonsMessages()
    {
        assertEquals("url should not include the scheme", assertThrows(InferenceServerException.class,
            () -> new HttpInferenceServerClient("http://127.0.0.1:8000")).getMessage());
        assertEquals("Parameter \"priority\" is a reserved parameter and cannot be specified.",
            assertThrows(InferenceServerException.class, () -> InferOptions.builder().parameter("priority", 1)
                .build()).getMessage());
        assertEquals("Parameter \"triton_enable_empty_final_response\" is a reserved parameter and cannot be "
            + "specified.", assertThrows(InferenceServerException.class, () -> InferOptions.builder()
                .parameter("triton_enable_empty_final_response", true).build()).getMessage());
        assertEquals("got unexpected datatype FP32 from float[], expected INT64 for input 'x'",
            assertThrows(InferenceServerException.class, () -> new InferInput("x", new long[] {2}, "INT64")
                .setData(new float[2])).getMessage());
        assertEquals("got unexpected element count 15 for input 'x', expected 16 for shape [1, 16]",
            assertThrows(InferenceServerException.class, () -> new InferInput("x", new long[] {1, 16}, "FP32")
                .setData(new float[15])).getMessage());
        assertEquals("shared memory can't be set on classification output", assertThrows(
            InferenceServerException.class, () -> new InferRequestedOutput("y", true, 3).setSharedMemory("r", 8, 0))
            .getMessage());
        final InferInput half = new InferInput("h", new long[] {2}, "FP16").setData(new float[] {1, 2}, false);
        assertEquals("datatype 'FP16' is not supported with JSON. Please use the binary data format (input 'h')",
            assertThrows(InferenceServerException.class, () -> client.infer("identity_fp32", List.of(half), List.of(),
                InferOptions.NONE)).getMessage());
        final InferInput notUtf8 = new InferInput("s", new long[] {1}, "BYTES").setBytes(List.of(new byte[] {
            (byte)0xC3, (byte)0x28}), false);
        assertTrue(assertThrows(InferenceServerException.class, () -> client.infer("identity_bytes", List.of(notUtf8),
            List.of(), InferOptions.NONE)).getMessage().startsWith("Failed to encode \""
            + new String(new byte[] {(byte)0xC3, (byte)0x28}, StandardCharsets.UTF_8) + "\" using UTF-8."));
    }

    @Test
    void aTimeoutIsTheCClientsDeadlineExceeded()
    {
        try (HttpInferenceServerClient impatient = new HttpInferenceServerClient(server.httpUrl(), false,
            ClientOptions.DEFAULTS))
        {
            final InferenceServerException late = assertThrows(InferenceServerException.class, () -> impatient.infer(
                "identity_fp32", List.of(new InferInput("INPUT0", new long[] {1 << 20}, "FP32")
                    .setData(new float[1 << 20])), List.of(), InferOptions.builder()
                    .clientTimeout(java.time.Duration.ofNanos(1000)).build()));
            assertTrue(late.getMessage().startsWith("HTTP client failed (Deadline Exceeded): Timeout was reached"),
                late.getMessage());
        }
    }
}
