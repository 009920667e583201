package io.ingot.client.grpc;

import io.ingot.client.InferInput;
import io.ingot.client.InferOptions;
import io.ingot.client.InferResult;
import io.ingot.client.InferenceServerException;
import io.ingot.client.LiveServer;
import io.ingot.client.shm.SystemSharedMemoryRegion;
import io.ingot.protocol.grpc.ModelMetadataResponse;
import io.ingot.protocol.grpc.ServerMetadataResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What only the gRPC client does: the metadata calls' protobuf messages, a request's options on the wire. */
class GrpcInferenceServerClientTest
{
    private static LiveServer server;
    private static GrpcInferenceServerClient client;

    @BeforeAll
    static void start()
    {
        server = new LiveServer();
        client = new GrpcInferenceServerClient(server.grpcUrl());
    }

    @AfterAll
    static void stop()
    {
        client.close();
        server.close();
    }

    @Test
    void metadataConfigurationStatisticsAndTheIndexAreProtobufMessages()
    {
        final ServerMetadataResponse metadata = client.serverMetadata();
        assertEquals("ingot", metadata.getName());
        assertTrue(metadata.getExtensionsList().contains("system_shared_memory"));
        final ModelMetadataResponse model = client.modelMetadata("identity_mixed", "");
        assertEquals(List.of("IN_F", "IN_I", "IN_B"), model.getInputsList().stream().map(t -> t.getName()).toList());
        assertEquals(4, client.modelConfig("identity_mixed", "").getConfig().getMaxBatchSize());
        client.infer("identity_fp32", List.of(new InferInput("INPUT0", new long[] {1}, "FP32")
            .setData(new float[] {1})), List.of(), InferOptions.NONE);
        assertTrue(client.inferenceStatistics("identity_fp32", "").getModelStats(0).getInferenceCount() >= 1);
        assertTrue(client.modelRepositoryIndex().getModelsList().stream()
            .anyMatch(entry -> entry.getName().equals("add_sub") && entry.getState().equals("READY")));
    }

    @Test
    void requestOptionsReachTheServer()
    {
        final InferResult result = client.infer("identity_fp32", List.of(new InferInput("INPUT0", new long[] {2},
            "FP32").setData(new float[] {3, 4})), List.of(), InferOptions.builder().requestId("r1")
            .modelVersion("1").parameter("my_key", "my_value").header("x-trace", "abc").build());
        assertEquals("r1", result.id());
        assertEquals("1", result.modelVersion());
        final InferenceServerException badVersion = assertThrows(InferenceServerException.class, () -> client.infer(
            "identity_fp32", List.of(new InferInput("INPUT0", new long[] {1}, "FP32").setData(new float[] {1})),
            List.of(), InferOptions.builder().modelVersion("7").build()));
        assertEquals("StatusCode.NOT_FOUND", badVersion.status());
        assertEquals("Request for unknown model: 'identity_fp32' version 7 is not found", badVersion.message());
    }

    @Test
    void registeredRegionsAreListedByStatus()
    {
        final String key = "/kserve-client-grpc-status-" + ProcessHandle.current().pid();
        try (SystemSharedMemoryRegion region = SystemSharedMemoryRegion.create("listed", key, 64))
        {
            client.registerSystemSharedMemory("listed", key, 64, 0);
            try
            {
                assertEquals(key, client.systemSharedMemoryStatus("listed").getRegionsOrThrow("listed").getKey());
            }
            finally
            {
                client.unregisterSystemSharedMemory("listed");
            }
            assertEquals(0, client.systemSharedMemoryStatus("").getRegionsCount());
            assertEquals(64, region.byteSize());
        }
    }
}
