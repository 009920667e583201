package io.ingot.server.grpc;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import io.ingot.protocol.grpc.CudaSharedMemoryRegisterRequest;
import io.ingot.protocol.grpc.CudaSharedMemoryStatusRequest;
import io.ingot.protocol.grpc.CudaSharedMemoryUnregisterRequest;
import io.ingot.protocol.grpc.GRPCInferenceServiceGrpc;
import io.ingot.protocol.grpc.InferParameter;
import io.ingot.protocol.grpc.InferTensorContents;
import io.ingot.protocol.grpc.LogSettingsRequest;
import io.ingot.protocol.grpc.ModelConfigRequest;
import io.ingot.protocol.grpc.ModelInferRequest;
import io.ingot.protocol.grpc.ModelInferResponse;
import io.ingot.protocol.grpc.ModelMetadataRequest;
import io.ingot.protocol.grpc.ModelMetadataResponse;
import io.ingot.protocol.grpc.ModelReadyRequest;
import io.ingot.protocol.grpc.ModelStatistics;
import io.ingot.protocol.grpc.ModelStatisticsRequest;
import io.ingot.protocol.grpc.ModelStreamInferResponse;
import io.ingot.protocol.grpc.RepositoryIndexRequest;
import io.ingot.protocol.grpc.RepositoryIndexResponse;
import io.ingot.protocol.grpc.RepositoryModelLoadRequest;
import io.ingot.protocol.grpc.RepositoryModelUnloadRequest;
import io.ingot.protocol.grpc.ServerLiveRequest;
import io.ingot.protocol.grpc.ServerMetadataRequest;
import io.ingot.protocol.grpc.ServerMetadataResponse;
import io.ingot.protocol.grpc.ServerReadyRequest;
import io.ingot.protocol.grpc.SystemSharedMemoryRegisterRequest;
import io.ingot.protocol.grpc.SystemSharedMemoryStatusRequest;
import io.ingot.protocol.grpc.SystemSharedMemoryStatusResponse;
import io.ingot.protocol.grpc.SystemSharedMemoryUnregisterRequest;
import io.ingot.protocol.grpc.TraceSettingRequest;
import io.ingot.protocol.grpc.health.HealthCheckRequest;
import io.ingot.protocol.grpc.health.HealthCheckResponse;
import io.ingot.protocol.grpc.health.HealthGrpc;
import io.ingot.server.protocol.ServerExtensions;
import io.ingot.server.testing.ServingFixture;
import io.ingot.server.testing.ShmObject;
import io.ingot.server.testing.StreamResponses;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.function.Executable;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every RPC of {@code inference.GRPCInferenceService} and {@code grpc.health.v1.Health}, with generated stubs. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GrpcServiceTest
{
    private final ServingFixture server = new ServingFixture();

    @AfterAll
    void stop()
    {
        server.close();
    }

    private static void assertStatus(final Status.Code code, final String fragment, final Executable call)
    {
        final StatusRuntimeException error = assertThrows(StatusRuntimeException.class, call);
        assertEquals(code, error.getStatus().getCode(), error.getStatus().toString());
        assertTrue(error.getStatus().getDescription().contains(fragment), error.getStatus().getDescription());
    }

    static ByteString fp32(final float... values)
    {
        final ByteBuffer buffer = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (final float value : values)
        {
            buffer.putFloat(value);
        }
        return ByteString.copyFrom(buffer.array());
    }

    static float[] floats(final ByteString bytes)
    {
        final ByteBuffer buffer = bytes.asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        final float[] values = new float[bytes.size() / 4];
        for (int i = 0; i < values.length; i++)
        {
            values[i] = buffer.getFloat();
        }
        return values;
    }

    static ModelInferRequest addSub(final String id, final float base)
    {
        final float[] a = new float[16];
        final float[] b = new float[16];
        for (int i = 0; i < 16; i++)
        {
            a[i] = base + i;
            b[i] = 2 * i;
        }
        return ModelInferRequest.newBuilder().setModelName("add_sub").setId(id)
            .addInputs(ModelInferRequest.InferInputTensor.newBuilder().setName("INPUT0").setDatatype("FP32")
                .addShape(1).addShape(16))
            .addInputs(ModelInferRequest.InferInputTensor.newBuilder().setName("INPUT1").setDatatype("FP32")
                .addShape(1).addShape(16))
            .addOutputs(ModelInferRequest.InferRequestedOutputTensor.newBuilder().setName("OUTPUT0"))
            .addOutputs(ModelInferRequest.InferRequestedOutputTensor.newBuilder().setName("OUTPUT1"))
            .addRawInputContents(fp32(a)).addRawInputContents(fp32(b))
            .build();
    }

    static void assertAddSub(final ModelInferResponse response, final float base)
    {
        assertEquals("add_sub", response.getModelName());
        assertEquals("1", response.getModelVersion());
        assertEquals(2, response.getOutputsCount());
        assertEquals(2, response.getRawOutputContentsCount());
        for (int o = 0; o < 2; o++)
        {
            final ModelInferResponse.InferOutputTensor output = response.getOutputs(o);
            assertEquals(List.of(1L, 16L), output.getShapeList());
            assertEquals("FP32", output.getDatatype());
            final float[] values = floats(response.getRawOutputContents(o));
            for (int i = 0; i < 16; i++)
            {
                final float expected = output.getName().equals("OUTPUT0") ? base + i + 2 * i : base + i - 2 * i;
                assertEquals(expected, values[i], output.getName() + "[" + i + "]");
            }
        }
    }

    @Test
    void healthAndServerRpcs()
    {
        assertTrue(server.grpc().serverLive(ServerLiveRequest.getDefaultInstance()).getLive());
        assertTrue(server.grpc().serverReady(ServerReadyRequest.getDefaultInstance()).getReady());
        final HealthCheckResponse health = HealthGrpc.newBlockingStub(server.channel())
            .check(HealthCheckRequest.getDefaultInstance());
        assertEquals(HealthCheckResponse.ServingStatus.SERVING, health.getStatus());
        final ServerMetadataResponse metadata = server.grpc().serverMetadata(ServerMetadataRequest
            .getDefaultInstance());
        assertEquals("ingot", metadata.getName());
        assertEquals(ServerExtensions.SUPPORTED, metadata.getExtensionsList());
    }

    @Test
    void modelRpcs()
    {
        assertTrue(server.grpc().modelReady(ModelReadyRequest.newBuilder().setName("add_sub").build()).getReady());
        assertStatus(Status.Code.INVALID_ARGUMENT, "unknown model",
            () -> server.grpc().modelReady(ModelReadyRequest.newBuilder().setName("nope").build()));
        assertStatus(Status.Code.NOT_FOUND, "version 4",
            () -> server.grpc().modelReady(ModelReadyRequest.newBuilder().setName("add_sub").setVersion("4").build()));
        assertStatus(Status.Code.INVALID_ARGUMENT, "version string 'x'",
            () -> server.grpc().modelReady(ModelReadyRequest.newBuilder().setName("add_sub").setVersion("x").build()));

        final ModelMetadataResponse metadata = server.grpc().modelMetadata(ModelMetadataRequest.newBuilder()
            .setName("add_sub").build());
        assertEquals(List.of("1"), metadata.getVersionsList());
        assertEquals(List.of(-1L, 16L), metadata.getInputs(0).getShapeList());
        assertEquals("FP32", metadata.getInputs(0).getDatatype());

        final var config = server.grpc().modelConfig(ModelConfigRequest.newBuilder().setName("add_sub").build())
            .getConfig();
        assertEquals(8, config.getMaxBatchSize());
        assertEquals(2000, config.getDynamicBatching().getMaxQueueDelayMicroseconds());
        assertStatus(Status.Code.INVALID_ARGUMENT, "unknown model",
            () -> server.grpc().modelConfig(ModelConfigRequest.newBuilder().setName("nope").build()));
    }

    @Test
    void statisticsCountInferences()
    {
        server.grpc().modelInfer(addSub("stats", 1));
        final ModelStatistics stats = server.grpc().modelStatistics(ModelStatisticsRequest.newBuilder()
            .setName("add_sub").setVersion("1").build()).getModelStats(0);
        assertEquals("add_sub", stats.getName());
        assertEquals("1", stats.getVersion());
        assertTrue(stats.getInferenceCount() >= 1);
        assertTrue(stats.getInferenceStats().getSuccess().getCount() >= 1);
        assertEquals(stats.getInferenceStats().getSuccess().getCount(), stats.getInferenceStats().getQueue()
            .getCount());
        assertTrue(server.grpc().modelStatistics(ModelStatisticsRequest.getDefaultInstance()).getModelStatsCount()
            >= 6);
        assertStatus(Status.Code.INVALID_ARGUMENT, "unknown model", () -> server.grpc().modelStatistics(
            ModelStatisticsRequest.newBuilder().setName("nope").build()));
    }

    @Test
    void repositoryRpcs()
    {
        final RepositoryIndexResponse index = server.grpc().repositoryIndex(RepositoryIndexRequest.newBuilder()
            .setReady(true).build());
        assertTrue(index.getModelsList().stream().anyMatch(m -> m.getName().equals("identity_mixed")
            && m.getState().equals("READY") && m.getVersion().equals("1")));
        server.grpc().repositoryModelUnload(RepositoryModelUnloadRequest.newBuilder().setModelName("identity_mixed")
            .build());
        assertFalse(server.grpc().modelReady(ModelReadyRequest.newBuilder().setName("identity_mixed").build())
            .getReady());
        server.grpc().repositoryModelLoad(RepositoryModelLoadRequest.newBuilder().setModelName("identity_mixed")
            .build());
        assertTrue(server.grpc().modelReady(ModelReadyRequest.newBuilder().setName("identity_mixed").build())
            .getReady());
        assertStatus(Status.Code.INTERNAL, "failed to load 'nope'", () -> server.grpc().repositoryModelLoad(
            RepositoryModelLoadRequest.newBuilder().setModelName("nope").build()));
    }

    @Test
    void sharedMemoryRpcs()
    {
        try (ShmObject object = new ShmObject(1024))
        {
            server.grpc().systemSharedMemoryRegister(SystemSharedMemoryRegisterRequest.newBuilder()
                .setName("grpc_r").setKey(object.key()).setOffset(0).setByteSize(256).build());
            final SystemSharedMemoryStatusResponse status = server.grpc().systemSharedMemoryStatus(
                SystemSharedMemoryStatusRequest.newBuilder().setName("grpc_r").build());
            assertEquals(256, status.getRegionsOrThrow("grpc_r").getByteSize());
            assertEquals(object.key(), status.getRegionsOrThrow("grpc_r").getKey());
            assertStatus(Status.Code.ALREADY_EXISTS, "grpc_r", () -> server.grpc().systemSharedMemoryRegister(
                SystemSharedMemoryRegisterRequest.newBuilder().setName("grpc_r").setKey(object.key())
                    .setByteSize(16).build()));
            server.grpc().systemSharedMemoryUnregister(SystemSharedMemoryUnregisterRequest.newBuilder()
                .setName("grpc_r").build());
            assertStatus(Status.Code.NOT_FOUND, "grpc_r", () -> server.grpc().systemSharedMemoryStatus(
                SystemSharedMemoryStatusRequest.newBuilder().setName("grpc_r").build()));
        }
        assertEquals(0, server.grpc().cudaSharedMemoryStatus(CudaSharedMemoryStatusRequest.getDefaultInstance())
            .getRegionsCount());
        server.grpc().cudaSharedMemoryUnregister(CudaSharedMemoryUnregisterRequest.getDefaultInstance());
        assertStatus(Status.Code.UNIMPLEMENTED, "CUDA", () -> server.grpc().cudaSharedMemoryRegister(
            CudaSharedMemoryRegisterRequest.newBuilder().setName("g").build()));
        assertEquals(List.of("OFF"), server.grpc().traceSetting(TraceSettingRequest.getDefaultInstance())
            .getSettingsOrThrow("trace_level").getValueList());
        assertEquals("default", server.grpc().logSettings(LogSettingsRequest.getDefaultInstance())
            .getSettingsOrThrow("log_format").getStringParam());
    }

    @Test
    void modelInferWithRawAndTypedContents()
    {
        final ModelInferResponse raw = server.grpc().modelInfer(addSub("raw", 5));
        assertEquals("raw", raw.getId());
        assertAddSub(raw, 5);

        final ModelInferResponse typed = server.grpc().modelInfer(ModelInferRequest.newBuilder()
            .setModelName("add_sub_int").setModelVersion("1")
            .putParameters("priority", InferParameter.newBuilder().setUint64Param(1).build())
            .addInputs(ModelInferRequest.InferInputTensor.newBuilder().setName("INPUT0").setDatatype("INT32")
                .addShape(4).setContents(InferTensorContents.newBuilder().addAllIntContents(List.of(1, 2, 3, 4))))
            .addInputs(ModelInferRequest.InferInputTensor.newBuilder().setName("INPUT1").setDatatype("INT32")
                .addShape(4).setContents(InferTensorContents.newBuilder().addAllIntContents(List.of(4, 3, 2, 1))))
            .build());
        assertEquals(2, typed.getRawOutputContentsCount());
        assertEquals(0, typed.getOutputs(0).getContents().getIntContentsCount(), "outputs are raw only");
        final ByteBuffer sum = typed.getRawOutputContents(typed.getOutputs(0).getName().equals("OUTPUT0") ? 0 : 1)
            .asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 4; i++)
        {
            assertEquals(5, sum.getInt());
        }

        final ByteString strings = ByteString.copyFrom(new byte[] {2, 0, 0, 0, 'h', 'i', 0, 0, 0, 0});
        final ModelInferResponse bytes = server.grpc().modelInfer(ModelInferRequest.newBuilder()
            .setModelName("identity_bytes")
            .addInputs(ModelInferRequest.InferInputTensor.newBuilder().setName("INPUT0").setDatatype("BYTES")
                .addShape(2))
            .addRawInputContents(strings).build());
        assertEquals(strings, bytes.getRawOutputContents(0));
        assertEquals(List.of(2L), bytes.getOutputs(0).getShapeList());
    }

    @Test
    void modelInferErrorsMapToStatusCodes()
    {
        assertStatus(Status.Code.INVALID_ARGUMENT, "Request for unknown model: 'nope' is not found",
            () -> server.grpc().modelInfer(addSub("x", 1).toBuilder().setModelName("nope").build()));
        assertStatus(Status.Code.NOT_FOUND, "version 3",
            () -> server.grpc().modelInfer(addSub("x", 1).toBuilder().setModelVersion("3").build()));
        assertStatus(Status.Code.INVALID_ARGUMENT, "data-type", () -> server.grpc().modelInfer(addSub("x", 1)
            .toBuilder().setInputs(0, addSub("x", 1).getInputs(0).toBuilder().setDatatype("INT32")).build()));
        assertStatus(Status.Code.INVALID_ARGUMENT, "[request id: x] input byte size mismatch for input 'INPUT1' for "
            + "model 'add_sub'. Expected 64, got 8", () -> server.grpc().modelInfer(
            addSub("x", 1).toBuilder().setRawInputContents(1, fp32(1f, 2f)).build()));
        assertStatus(Status.Code.INVALID_ARGUMENT, "sequence_id", () -> server.grpc().modelInfer(addSub("x", 1)
            .toBuilder().putParameters("sequence_id", InferParameter.newBuilder().setDoubleParam(3).build())
            .build()));
        assertStatus(Status.Code.INVALID_ARGUMENT, "OUTPUT9", () -> server.grpc().modelInfer(addSub("x", 1)
            .toBuilder().addOutputs(ModelInferRequest.InferRequestedOutputTensor.newBuilder().setName("OUTPUT9"))
            .build()));
        assertAddSub(server.grpc().modelInfer(addSub("after", 2)), 2);
    }

    @Test
    void largeMessagesPassTheDefaultFourMibLimit()
    {
        final int elements = 2 << 20;
        final ByteString big = ByteString.copyFrom(new byte[elements * 4]);
        final ModelInferResponse response = server.grpc().modelInfer(ModelInferRequest.newBuilder()
            .setModelName("identity_bytes")
            .addInputs(ModelInferRequest.InferInputTensor.newBuilder().setName("INPUT0").setDatatype("BYTES")
                .addShape(1))
            .addRawInputContents(ByteString.copyFrom(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN)
                .putInt(big.size()).array()).concat(big))
            .build());
        assertEquals(big.size() + 4, response.getRawOutputContents(0).size());
    }

    @Test
    void streamingAnswersEveryRequestAndReportsErrorsInBand() throws InterruptedException
    {
        final int requests = 20;
        final StreamResponses collected = new StreamResponses();
        final StreamObserver<ModelInferRequest> stream = GRPCInferenceServiceGrpc.newStub(server.channel())
            .modelStreamInfer(collected);
        final Map<String, ModelStreamInferResponse> responses = collected.byId();
        for (int i = 0; i < requests; i++)
        {
            stream.onNext(addSub("s" + i, i));
        }
        stream.onNext(addSub("bad", 0).toBuilder().setModelName("nope").build());
        stream.onNext(addSub("bad-size", 0).toBuilder().setRawInputContents(0, fp32(1f)).build());
        stream.onCompleted();
        assertTrue(collected.awaitEnd(60), "stream did not complete");
        assertEquals(null, collected.failure());
        assertEquals(requests + 2, responses.size());
        for (int i = 0; i < requests; i++)
        {
            final ModelStreamInferResponse response = responses.get("s" + i);
            assertEquals("", response.getErrorMessage());
            assertAddSub(response.getInferResponse(), i);
            assertTrue(response.getInferResponse().getParametersOrThrow("triton_final_response").getBoolParam());
        }
        assertTrue(responses.get("bad").getErrorMessage().contains("unknown model"));
        assertTrue(responses.get("bad-size").getErrorMessage().contains("INPUT0"));
    }

    @Test
    void outputBytesAreTheOnesTheModelProduced()
    {
        final byte[] halves = {0x00, 0x3C, 0x00, 0x40, 0x00, 0x42, 0x00, 0x44};
        final ModelInferResponse response = server.grpc().modelInfer(ModelInferRequest.newBuilder()
            .setModelName("identity_fp16")
            .addInputs(ModelInferRequest.InferInputTensor.newBuilder().setName("INPUT0").setDatatype("FP16")
                .addShape(4))
            .addRawInputContents(ByteString.copyFrom(halves)).build());
        assertArrayEquals(halves, response.getRawOutputContents(0).toByteArray());
        assertEquals("FP16", response.getOutputs(0).getDatatype());
    }
}
